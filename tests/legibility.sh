#!/bin/sh
# Legibility of the pictures (issue 29), in headless Chromium
# (tests/legibility.py says what is measured): every golden picture
# (fixtures/*/*/expected.svg, doc/demo-turn.svg) and the umpire's picture
# of random turns of every rule system (tests/prop turn RULESET SEED DIR
# contend: moves that head where another player's moves end, so that
# stacks and fights are crowded), seeds 1 to LEGIBILITY_N (default 12:
# seeds 6 of aeonis and 7 of morne-plaine had an arrowhead under a
# neighbour's stack), and for seed 1 also --svg-start and --svg-next.
# And the seeds that once failed beyond those: morne-plaine 19 (a line
# "charged: retreated" wider than a badge reached the next hex's badge:
# such a line now moves aside, or narrows, squeezed, down to a badge).
# Ends with "legibility: N passed, N failed (...)".  -v lists each fault.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
arbiter=${ARBITER:-$top/arbiter}
prop=$top/tests/prop
n=${LEGIBILITY_N:-12}
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pics= bad=0
for rs in aeonis territory morne-plaine xconq arcane-legions \
    morne-plaine:19; do
	s=1
	case $rs in *:*) s=${rs#*:} rs=${rs%:*} ;; esac
	last=$n
	[ "$s" -gt 1 ] && last=$s
	while [ "$s" -le "$last" ]; do
		d=$tmp/$rs-$s
		if "$prop" turn "$rs" "$s" "$d" contend 2>/dev/null &&
		    (cd "$d" && "$arbiter" -o /dev/null --svg "$d/turn.svg" \
		    --svg-start "$d/start.svg" --svg-next "$d/next.svg" \
		    map.json orders/*.json 2>/dev/null) &&
		    [ -s "$d/turn.svg" ]; then
			pics="$pics $d/turn.svg"
			# The board as the turn begins and as the next
			# begins, for the first seed.
			[ "$s" -eq 1 ] && pics="$pics $d/start.svg $d/next.svg"
		else
			echo "not ok 0 - $rs random turn $s: no picture" \
			    "(tests/prop turn $rs $s DIR contend)"
			bad=$((bad + 1))
		fi
		s=$((s + 1))
	done
done
# shellcheck disable=SC2086
python3 tests/legibility.py "$@" fixtures/*/*/expected.svg doc/demo-turn.svg \
    $pics >"$tmp/out"
status=$?
sed "s|$tmp/\([a-z-]*\)-\([0-9]*\)/\([a-z]*\).svg|random turn \2 of \1 (\3)|" \
    "$tmp/out"
if [ "$bad" -gt 0 ]; then
	echo "legibility, turns not drawn: 0 passed, $bad failed"
	exit 1
fi
exit $status
