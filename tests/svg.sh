#!/bin/sh
# The pictures (arbiter(1), --svg): every golden SVG of the casebook
# (fixtures/*/*/expected.svg) and README's doc/demo-turn.svg is parsed
# with a real XML parser and rendered by headless Chromium to a PNG of the
# SVG's size that must not be blank (tests/svg.py); without Chromium
# (tests/deps.sh installs Debian's package when it can), the pictures are
# only parsed and the rendering is reported skipped.  Also checks that
# doc/demo-turn.svg is what arbiter draws of the demo turn now:
#	arbiter --svg doc/demo-turn.svg -o /dev/null \
#	    fixtures/aeonis/demo-turn/map.json fixtures/aeonis/demo-turn/orders/*.json
# Ends with "svg: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
cd "$top" || exit 70
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
d=fixtures/aeonis/demo-turn
extra=0
if "$arbiter" --svg "$tmp/demo.svg" -o /dev/null $d/map.json \
    $d/orders/*.json && cmp -s "$tmp/demo.svg" doc/demo-turn.svg; then
	echo "ok 0 - doc/demo-turn.svg is the demo turn's picture"
else
	echo "not ok 0 - doc/demo-turn.svg is not what arbiter draws now" \
	    "(remake it with the command in tests/svg.sh)"
	extra=1
fi
python3 tests/svg.py fixtures/*/*/expected.svg doc/demo-turn.svg \
    >"$tmp/out"
status=$?
grep -v '^svg: ' "$tmp/out"
# The parser's count, with the check of doc/demo-turn.svg added.
sed -n 's/^svg: \([0-9]*\) passed, \([0-9]*\) failed\(.*\)$/\1 \2 \3/p' \
    "$tmp/out" | {
	read -r p f rest
	echo "svg: $((${p:-0} + 1 - extra)) passed, $((${f:-1} + extra))" \
	    "failed$rest"
}
[ $status -eq 0 ] && [ $extra -eq 0 ]
