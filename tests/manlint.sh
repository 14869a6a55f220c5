#!/bin/sh
# Lints every man page with mandoc -T lint -W style: each clean page passes.
# The pages are copied into a scratch manual tree with its own database, so
# that cross references between them (.Xr) resolve without installing them.
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d) || exit 1
trap 'rm -rf "$tree"' EXIT
for m in "$top"/man/*.[1-9]; do
	[ -f "$m" ] || continue
	s=${m##*.}
	mkdir -p "$tree/man$s" && cp "$m" "$tree/man$s/"
done
makewhatis "$tree" 2>/dev/null
pass=0 fail=0
for m in "$tree"/man*/*.[1-9]; do
	[ -f "$m" ] || continue
	out=$(MANPATH="$tree" mandoc -T lint -W style "$m" 2>&1)
	# What mandoc lets pass: a quoting macro enclosing the rest of its
	# line, so that a second one on the line nests in the first
	# ("enter, "leave or "traverse""").
	nest=$(grep -n '^\.[A-Z][a-z].*[^A-Za-z]\(Qq\|Dq\|Sq\) .*[^A-Za-z]\(Qq\|Dq\|Sq\) ' "$m" |
	    sed 's/^/nested quotes: line /')
	[ -n "$nest" ] && out="$out${out:+
}$nest"
	if [ -z "$out" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - ${m##*/}"
		echo "$out" | sed "s|$tree/||; s/^/# /"
	fi
done
[ $((pass + fail)) -gt 0 ] || { echo "not ok - no man pages"; fail=$((fail + 1)); }
echo "man pages: $pass passed, $fail failed"
[ $fail -eq 0 ]
