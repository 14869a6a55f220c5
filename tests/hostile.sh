#!/bin/sh
# Hostile and huge inputs: each tests/hostile/NAME.sh, run as
# "sh NAME.sh DIR", writes DIR/map.json, perhaps DIR/orders/*.json (each
# under 1 MB) and DIR/status, the exit status arbiter must give, and
# perhaps DIR/check, a shell script run in DIR once the turn is done, which
# exits 0 when DIR/result.json (the result) is what it should be.  A
# generator may instead write DIR/runs, one run a line: the exit status,
# then the options of that run (word-split; e.g. "0 --svg turn.svg",
# "65 --for all --outdir mail --svg turn.svg", "0 --reach u",
# "65 --rolls rolls.json"), each run as "arbiter -o result.json OPTIONS
# map.json orders/*.json", so that every mode meets the input.  The turn
# is adjudicated by the release build under a limit on its address space
# of 256 MB more than the program maps before it reads anything (its
# shared libraries, librsvg's and GMime's among them, are code and data
# shared with every process, not the turn's memory), so an input that
# makes memory grow faster than the input fails here; how long each takes
# is measured by `make bench`, never here.
# After each run no temporary file (NAME.XXXXXX) may be left, and a run
# that fails may leave no result.json.
# Ends with "hostile: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${HOSTILE_ARBITER:-$top/arbiter}
# The address space the program needs to start (KiB), found by halving:
# the mappings of its libraries.
base() {
	lo=1024 hi=1048576
	while [ $((hi - lo)) -gt 256 ]; do
		mid=$(((lo + hi) / 2))
		# In a shell of its own, which says nothing of a crash.
		if sh -c 'ulimit -v "$1" && exec "$2" --version' sh $mid \
		    "$arbiter" >/dev/null 2>&1; then
			hi=$mid
		else
			lo=$mid
		fi
	done
	echo $hi
}
limit=${HOSTILE_KB:-$((262144 + $(base)))}
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 n=0
for gen in "$top"/tests/hostile/*.sh; do
	name=$(basename "$gen" .sh)
	n=$((n + 1))
	dir=$tmp/$name
	mkdir -p "$dir/orders"
	why=
	if ! sh "$gen" "$dir"; then
		why="the generator failed"
	elif [ ! -f "$dir/status" ] && [ ! -f "$dir/runs" ]; then
		why="the generator wrote no status"
	else
		for f in "$dir"/*.json "$dir"/orders/*.json; do
			[ -f "$f" ] || continue
			if [ "$(wc -c <"$f")" -ge 1048576 ]; then
				why="$(basename "$f") is not under 1 MB"
			fi
		done
	fi
	[ -f "$dir/runs" ] || echo "$(cat "$dir/status" 2>/dev/null)" \
	    >"$dir/runs"
	while [ -z "$why" ] && read -r want opts; do
		rm -f "$dir/result.json"
		(ulimit -v "$limit" && cd "$dir" && exec "$arbiter" \
		    -o result.json $opts map.json \
		    $(ls orders/*.json 2>/dev/null)) </dev/null >/dev/null \
		    2>"$dir/err"
		status=$?
		run="${opts:+ (}$opts${opts:+)}"
		if [ "$status" -ne "$want" ]; then
			why="exit status $status$run, expected $want: $(head -c 300 "$dir/err")"
		elif find "$dir" -name '*.??????' | grep -q .; then
			why="a temporary was left$run: $(find "$dir" -name '*.??????' | head -3)"
		elif [ "$want" -ne 0 ] && [ "$want" -ne 1 ] &&
		    [ -e "$dir/result.json" ]; then
			why="result.json written by a run that failed$run"
		fi
	done <"$dir/runs"
	if [ -z "$why" ]; then
		if [ -f "$dir/check" ] &&
		    ! (cd "$dir" && sh ./check) >"$dir/why" 2>&1; then
			why="the result is wrong: $(head -c 300 "$dir/why")"
		fi
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok $n - $name"
	else
		fail=$((fail + 1))
		echo "not ok $n - $name: $why"
	fi
	rm -rf "$dir"
done
echo "1..$n"
echo "hostile: $pass passed, $fail failed"
[ $fail -eq 0 ]
