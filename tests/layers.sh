#!/bin/sh
# The layers of lib/ (README, Layout), lowest first:
#	base  json  model  rules  format  top (lib/*.c)
# A file may include the headers, and call the functions, of its own layer
# and the layers below it, never above; arbiter.h's types (struct
# arb_error and its codes) may be used everywhere.  Besides:
#	- jansson is included only by lib/json/ and, through lib/json/doc.h,
#	  by lib/format/; GMime only by lib/format/mail.c;
#	- a rule system is named (rules_NAME) only by lib/rules/registry.c,
#	  and no rule system calls another;
#	- every file opens with a comment that says what it holds.
# The calls are read from the objects of build-lib/ (make libarbiter.a).
# Prints one TAP line per check and "N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
pass=0 fail=0 n=0

rank() {
	case $1 in
	lib/base/*) echo 0 ;;
	lib/json/*) echo 1 ;;
	lib/model/*) echo 2 ;;
	lib/rules/*) echo 3 ;;
	lib/format/*) echo 4 ;;
	lib/arbiter.h) echo 0 ;;	# types for every layer
	lib/*) echo 5 ;;
	*) echo 9 ;;
	esac
}

report() {	# report OK NAME [DETAIL]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n - $2"
	else
		fail=$((fail + 1))
		echo "not ok $n - $2"
		[ -n "$3" ] && printf '%s\n' "$3" | sed 's/^/#   /'
	fi
}

files=$(find lib -name '*.[ch]' | sort)

# 1. Includes go down, never up.
for f in $files; do
	r=$(rank "$f")
	bad=""
	for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
		[ -f "lib/$h" ] || { bad="$bad $h(missing)"; continue; }
		[ "$(rank "lib/$h")" -le "$r" ] || bad="$bad $h"
	done
	report "$([ -z "$bad" ]; echo $?)" \
	    "$f includes no header above its layer" "includes:$bad"
done

# 2. jansson stays in the JSON layer and the formats that write documents.
bad=$(grep -l '#include <jansson.h>' $files | grep -v '^lib/json/')
bad="$bad $(grep -l '#include "json/doc.h"' $files |
    grep -v -e '^lib/json/' -e '^lib/format/')"
bad=$(echo $bad)
report "$([ -z "$bad" ]; echo $?)" "jansson only in lib/json/ and lib/format/" \
    "$bad"

# 2b. GMime (the mail reader, issue 27) is included by lib/format/mail.c
# alone.
bad=$(grep -l '#include <gmime/' $files | grep -v '^lib/format/mail\.c$')
bad=$(echo $bad)
report "$([ -z "$bad" ]; echo $?)" "GMime only in lib/format/mail.c" "$bad"

# 3. Every file says what it holds: its first comment is more than the
# licence.
bad=""
for f in $files; do
	c=$(awk '/\*\//{exit} {print}' "$f" | grep -v -e 'arbiter: a turn' \
	    -e 'Copyright' -e '^ \*$' -e '^/\*$' | wc -l)
	[ "$c" -gt 0 ] || bad="$bad $f"
done
report "$([ -z "$bad" ]; echo $?)" "every file opens with what it holds" "$bad"

# 4. Calls go down, never up: an object's undefined symbols that another
# object of lib/ defines must come from its own layer or one below.
if ! ls build-lib/*.o >/dev/null 2>&1; then
	report 1 "build-lib/ has the library's objects (make libarbiter.a)"
else
	defs=$(mktemp) || exit 70
	trap 'rm -f "$defs"' EXIT INT TERM
	for o in $(find build-lib -name '*.o' | sort); do
		src=lib/${o#build-lib/}
		src=${src%.o}.c
		nm -g --defined-only "$o" | awk -v s="$src" \
		    '$2 ~ /[TDRBC]/ {print $3, s}' >>"$defs"
	done
	for o in $(find build-lib -name '*.o' | sort); do
		src=lib/${o#build-lib/}
		src=${src%.o}.c
		r=$(rank "$src")
		bad=""
		for s in $(nm -u "$o" | awk '{print $2}'); do
			d=$(awk -v s="$s" '$1 == s {print $2; exit}' "$defs")
			[ -n "$d" ] || continue
			dr=$(rank "$d")
			if [ "$dr" -gt "$r" ]; then
				bad="$bad $s($d)"
			elif [ "$dr" = 3 ] && [ "$r" = 3 ] &&
			    [ "$d" != "$src" ] &&
			    [ "$d" != lib/rules/registry.c ] &&
			    [ "$src" != lib/rules/registry.c ]; then
				bad="$bad $s($d)"	# another rule system
			fi
			case $s in rules_find|rules_names) ;;
			rules_*) [ "$src" = lib/rules/registry.c ] ||
			    bad="$bad $s(named outside the registry)" ;;
			esac
		done
		report "$([ -z "$bad" ]; echo $?)" \
		    "$src calls nothing above its layer" "calls:$bad"
	done
fi

echo "layers: $pass passed, $fail failed"
[ "$fail" = 0 ]
