#!/bin/sh
# The property test: random valid turns (tests/prop) for every rule system,
# each checked for
#   exit status 0 (arbiter also checks that the forces balance and exits
#     70 when they do not),
#   the same bytes when run again (result with trace, next map, trace),
#   the same bytes when the orders files are given in the reverse order,
#   inputs left as they were,
#   a second turn, with new orders, on the next map: exit status 0.
# Seeds 1 to PROP_N (default 14) for each rule system; PROP_N=200 for a
# longer run.  Prints "not ok" lines with the command that makes the turn
# again, and ends "prop: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
ARBITER=${ARBITER:-$top/build-san/arbiter}
PROP=$top/tests/prop
n=${PROP_N:-14}
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

# play DIR MAP OUT: adjudicates MAP with DIR/orders/*.json in the order
# of the remaining arguments, from DIR; outputs in OUT.
play() {
	p_dir=$1 p_map=$2 p_out=$3
	shift 3
	mkdir -p "$p_out"
	(cd "$p_dir" && "$ARBITER" -t -o "$p_out/result.json" \
	    -n "$p_out/next.json" --trace-file "$p_out/trace.jsonl" "$p_map" \
	    "$@" 2>"$p_out/err")
}

# same A B: the outputs in A and B are the same bytes.
same() {
	cmp -s "$1/result.json" "$2/result.json" &&
	    cmp -s "$1/next.json" "$2/next.json" &&
	    cmp -s "$1/trace.jsonl" "$2/trace.jsonl"
}

for rs in aeonis territory morne-plaine xconq arcane-legions; do
	s=1
	while [ "$s" -le "$n" ]; do
		d=$tmp/$rs-$s
		why=
		mkdir -p "$d"
		"$PROP" turn "$rs" "$s" "$d/in" 2>"$d/gen.err" ||
		    why="prop failed: $(head -1 "$d/gen.err")"
		cp -R "$d/in" "$d/orig"
		files=$(cd "$d/in" && ls orders/*.json)
		rev=
		for f in $files; do
			rev="$f $rev"
		done
		# shellcheck disable=SC2086
		if [ -z "$why" ]; then
			play "$d/in" map.json "$d/a" $files
			rc=$?
			[ "$rc" -eq 0 ] ||
			    why="exit status $rc ($(head -1 "$d/a/err"))"
		fi
		# shellcheck disable=SC2086
		if [ -z "$why" ]; then
			play "$d/in" map.json "$d/b" $files
			same "$d/a" "$d/b" || why="a rerun gives other bytes"
		fi
		# shellcheck disable=SC2086
		if [ -z "$why" ]; then
			play "$d/in" map.json "$d/r" $rev
			for o in result.json next.json trace.jsonl; do
				cmp -s "$d/a/$o" "$d/r/$o" ||
				    why="${why:+$why, }$o depends on the order"
			done
		fi
		if [ -z "$why" ] && ! diff -r "$d/orig" "$d/in" >/dev/null; then
			why="the inputs changed"
		fi
		if [ -z "$why" ]; then
			"$PROP" orders $((s + 1000)) "$d/a/next.json" "$d/in2" \
			    2>"$d/gen.err" ||
			    why="prop orders failed"
		fi
		# shellcheck disable=SC2046
		if [ -z "$why" ]; then
			play "$d/in2" "$d/a/next.json" "$d/c" \
			    $(cd "$d/in2" && ls orders/*.json)
			rc=$?
			[ "$rc" -eq 0 ] || why="second turn: exit status $rc"
		fi
		if [ -z "$why" ]; then
			pass=$((pass + 1))
			echo "ok $((pass + fail)) - $rs $s"
		else
			fail=$((fail + 1))
			echo "not ok $((pass + fail)) - $rs $s: $why" \
			    "(tests/prop turn $rs $s DIR)"
		fi
		rm -rf "$d"
		s=$((s + 1))
	done
done
echo "prop: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
