#!/bin/sh
# The layers of lib/ (README, Layout), lowest first:
#	base  json  model  rules  format  top (lib/*.c)
# then the command line above the library, and the game mode above it:
#	cli (cli/*.c but cli/game*.c)  game (cli/game*.c)
# A file may include the headers, and call the functions, of its own layer
# and the layers below it, never above; arbiter.h's types (struct
# arb_error and its codes) may be used everywhere.  Within a layer, its
# files are in an order too, lowest first (the table below, and README's
# Layout): a file calls no function of a file after it in its layer, so
# that the calls go one way there as well.  Besides:
#	- jansson is included only by lib/json/ and, through lib/json/doc.h,
#	  by lib/format/ (and by the command line, which is no part of
#	  lib/); GMime only by lib/format/mail.c and the game mode;
#	- a rule system is named (rules_NAME) only by lib/rules/registry.c,
#	  and no rule system calls another;
#	- the command line uses the library's public API alone: of lib/ it
#	  includes arbiter.h only and calls only what arbiter.h declares;
#	  cli/game*.c include of ours "arbiter.h", "cli.h", "game.h" and
#	  "gameint.h" (what the game mode's files share) only, and no file of cli/ calls the game mode (a function of
#	  cli/game*.c, or named game_*) but cli/game*.c and main() of
#	  cli/arbiter.c, which hands it `arbiter game ...`;
#	- every file opens with a comment that says what it holds.
# The calls are read from the objects of build-lib/ (make libarbiter.a)
# and build-cli/ (make arbiter).
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
	cli/game*) echo 7 ;;
	cli/*) echo 6 ;;
	*) echo 9 ;;
	esac
}

# Each layer's files, lowest first: a file may call those before it.
order() {
	case $1 in
	lib/base/*) echo mem maps fair suggest ;;
	lib/json/*) echo read write ;;
	lib/model/*) echo geom board trace model fairdice dice io ;;
	lib/rules/*) echo reach aeonis territory morne xconq arcane registry ;;
	lib/format/*) echo display text load mail emit letter view svg png replay sheet ;;
	cli/game*) echo gamepage gamefs gamecheck gamepost gamerun game ;;
	lib/*/*) echo ;;
	lib/*) echo turn ;;
	cli/*) echo files secret report verify fair arbiter ;;
	esac
}

# The place of a source file in its layer's order (1, 2, ...), 0 for any
# place (a layer without an order), or nothing when it has none.
place() {
	n=0
	b=${1##*/}
	b=${b%.c}
	for x in $(order "$1"); do
		n=$((n + 1))
		[ "$x" = any ] && { echo 0; return; }
		[ "$x" = "$b" ] && { echo $n; return; }
	done
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
clifiles=$(find cli -name '*.[ch]' | sort)

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

# 1b. The command line includes, of ours, "arbiter.h" and "cli.h" (the
# game mode, and cli/arbiter.c for main()'s dispatch, "game.h" too); no
# header of lib/ but arbiter.h, by any name.
for f in $clifiles; do
	case $f in
	cli/game*) ok="arbiter.h cli.h game.h gameint.h" ;;
	cli/arbiter.c) ok="arbiter.h cli.h game.h" ;;
	*) ok="arbiter.h cli.h" ;;
	esac
	bad=""
	inc='^[[:space:]]*#[[:space:]]*include[[:space:]]*'
	for h in $(sed -n "s/$inc\"\\([^\"]*\\)\".*/\\1/p" "$f"); do
		case " $ok " in *" $h "*) ;; *) bad="$bad \"$h\"" ;; esac
	done
	for h in $(sed -n "s/$inc<\\([^>]*\\)>.*/\\1/p" "$f"); do
		[ -f "lib/$h" ] || [ -f "cli/$h" ] || [ -f "$h" ] || continue
		bad="$bad <$h>"
	done
	report "$([ -z "$bad" ]; echo $?)" \
	    "$f includes of ours only:$(printf ' %s' $ok)" "includes:$bad"
done

# 2. jansson stays in the JSON layer and the formats that write documents.
bad=$(grep -l '#include <jansson.h>' $files | grep -v '^lib/json/')
bad="$bad $(grep -l '#include "json/doc.h"' $files |
    grep -v -e '^lib/json/' -e '^lib/format/')"
bad=$(echo $bad)
report "$([ -z "$bad" ]; echo $?)" "jansson only in lib/json/ and lib/format/" \
    "$bad"

# 2b. GMime (the mail reader, issue 27) is included by lib/format/mail.c
# alone in lib/, and in cli/ by the game mode alone (its mails).
bad=$(grep -l '#include <gmime/' $files $clifiles |
    grep -v -e '^lib/format/mail\.c$' -e '^cli/game')
bad=$(echo $bad)
report "$([ -z "$bad" ]; echo $?)" \
    "GMime only in lib/format/mail.c and cli/game*.c" "$bad"

# 3. Every file says what it holds: its first comment is more than the
# licence.
bad=""
for f in $files $clifiles; do
	c=$(awk '/\*\//{exit} {print}' "$f" | grep -v -e 'arbiter: a turn' \
	    -e 'Copyright' -e '^ \*$' -e '^/\*$' | wc -l)
	[ "$c" -gt 0 ] || bad="$bad $f"
done
report "$([ -z "$bad" ]; echo $?)" "every file opens with what it holds" "$bad"

# 4. Calls go down, never up: an object's undefined symbols that another
# object defines must come from its own layer or one below; and within
# its layer, from a file before it in the layer's order.
defs=$(mktemp) || exit 70
api=$(mktemp) || exit 70
trap 'rm -f "$defs" "$api"' EXIT INT TERM
# The object of a source, and back.
obj() {
	case $1 in
	lib/*) o=build-lib/${1#lib/} ;;
	cli/*) o=build-cli/$1 ;;
	esac
	echo "${o%.c}.o"
}
src() {
	case $1 in
	build-lib/*) s=lib/${1#build-lib/} ;;
	build-cli/*) s=${1#build-cli/} ;;
	esac
	echo "${s%.o}.c"
}
objs=""
if ! ls build-lib/*.o >/dev/null 2>&1; then
	report 1 "build-lib/ has the library's objects (make libarbiter.a)"
else
	objs=$(find build-lib -name '*.o' | sort)
fi
if ! ls build-cli/cli/*.o >/dev/null 2>&1; then
	report 1 "build-cli/ has the program's objects (make arbiter)"
else
	bad=""
	for f in $clifiles; do
		case $f in *.c) [ -f "$(obj "$f")" ] || bad="$bad $f" ;; esac
	done
	report "$([ -z "$bad" ]; echo $?)" \
	    "build-cli/ has an object of every file of cli/ (CLISRC)" "$bad"
	objs="$objs $(find build-cli -name '*.o' | sort)"
fi
for o in $objs; do
	nm -g --defined-only "$o" | awk -v s="$(src "$o")" \
	    '$2 ~ /[TDRBC]/ {print $3, s}' >>"$defs"
done
# The words of arbiter.h: what the command line may call of lib/.
tr -c 'A-Za-z0-9_' '\n' <lib/arbiter.h | sort -u >"$api"
for o in $objs; do
	src=$(src "$o")
	r=$(rank "$src")
	at=$(place "$src")
	bad=""
	later=""
	[ -n "$at" ] || later=" (none: give it one in tests/layers.sh)"
	for s in $(nm -u "$o" | awk '{print $2}'); do
		d=$(awk -v s="$s" '$1 == s {print $2; exit}' "$defs")
		case $s in
		game_*) case $src in cli/game*|cli/arbiter.c) ;;
			*) bad="$bad $s(the game mode)" ;;
			esac ;;
		esac
		[ -n "$d" ] || continue
		dr=$(rank "$d")
		if [ "$dr" -gt "$r" ]; then
			# main() hands `arbiter game` to the game mode (5.).
			[ "$src" = cli/arbiter.c ] && [ "$dr" = 7 ] ||
			    bad="$bad $s($d)"
		elif [ "$dr" = 3 ] && [ "$r" = 3 ] &&
		    [ "$d" != "$src" ] &&
		    [ "$d" != lib/rules/registry.c ] &&
		    [ "$src" != lib/rules/registry.c ]; then
			bad="$bad $s($d)"	# another rule system
		elif [ "$r" -ge 6 ] && [ "$dr" -le 5 ] &&
		    ! grep -qx "$s" "$api"; then
			bad="$bad $s($d, not in arbiter.h)"
		fi
		case $s in rules_find|rules_names) ;;
		rules_*) [ "$src" = lib/rules/registry.c ] ||
		    bad="$bad $s(named outside the registry)" ;;
		esac
		# Within the layer: only files before this one.
		if [ "$dr" = "$r" ] && [ "$d" != "$src" ] &&
		    [ -n "$at" ] && [ "$at" != 0 ]; then
			dat=$(place "$d")
			[ -n "$dat" ] && [ "$dat" -lt "$at" ] ||
			    later="$later $s($d)"
		fi
	done
	report "$([ -z "$bad" ]; echo $?)" \
	    "$src calls nothing above its layer" "calls:$bad"
	report "$([ -z "$later" ]; echo $?)" \
	    "$src calls no file after it in its layer's order" \
	    "calls:$later"
done

# 5. In cli/arbiter.c, main() alone calls the game mode: its dispatch.
bad=$(awk '
	/^[a-z_][a-z0-9_]*\(/ { fn = $0; sub(/\(.*/, "", fn) }
	/^}/ { fn = "" }
	fn != "main" && /(^|[^a-z0-9_])game_[a-z0-9_]*[ \t]*\(/ &&
	    !/^[ \t]*\*/ && !/^\/\*/ { print FILENAME ":" NR ": " $0 }
	' cli/arbiter.c)
report "$([ -z "$bad" ]; echo $?)" \
    "cli/arbiter.c calls the game mode from main() alone" "$bad"

echo "layers: $pass passed, $fail failed"
[ "$fail" = 0 ]
