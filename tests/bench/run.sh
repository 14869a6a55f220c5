#!/bin/sh
# make bench: generates the large aeonis turn (tests/bench/gen), then runs
# the floor (tests/bench/floor: jansson alone loads the inputs and writes a
# result of the same size) and arbiter on it, each RUNS times (default 3)
# in turn, and reports the best wall time and the peak memory of each with
# the ratios against the goals: arbiter at most 1.3 times the floor's time
# and 1.5 times its memory.  Exits 1 when a goal is missed.
#
#	BENCH_DIR=dir	where the turn is written (default: a temporary one)
#	BENCH_SIZE="COLS ROWS UNITS"	(default "1000 1000 100000")
#	RUNS=n
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/tests/bench
runs=${RUNS:-3}
if [ -n "$BENCH_DIR" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d) || exit 1
	trap 'rm -rf "$dir"' EXIT INT TERM
fi
size=${BENCH_SIZE:-1000 1000 100000}
"$bin/gen" "$dir" $size || exit 1
cd "$dir" || exit 1
rm -f orders/*.json.out
set -- orders/*.json
echo "bench: aeonis turn $size (cols rows units), $# order files," \
    "$(wc -c <map.json) bytes of map"

# best wall time and largest peak over the runs: "MS KB"
best() {
	ms= kb=0
	i=0
	while [ $i -lt "$runs" ]; do
		"$bin/measure" "$@" 2>"$dir/m" >/dev/null ||
		    { echo "bench: $1 failed" >&2; cat "$dir/m" >&2; exit 1; }
		read -r m k <"$dir/m"
		{ [ -z "$ms" ] || [ "$m" -lt "$ms" ]; } && ms=$m
		[ "$k" -gt "$kb" ] && kb=$k
		i=$((i + 1))
	done
	echo "$ms $kb"
}

f=$(best "$bin/floor" floor.json map.json "$@") || exit 1
a=$(best "$top/arbiter" -o result.json map.json "$@") || exit 1
set -- $f $a
fms=$1 fkb=$2 ams=$3 akb=$4
[ "$fms" -gt 0 ] || fms=1
printf '%-8s %8s %10s %12s\n' "" "wall ms" "peak KiB" "output bytes"
printf '%-8s %8d %10d %12d\n' floor "$fms" "$fkb" "$(wc -c <floor.json)"
printf '%-8s %8d %10d %12d\n' arbiter "$ams" "$akb" "$(wc -c <result.json)"
# ratios in hundredths, integers only
tr=$((ams * 100 / fms)) mr=$((akb * 100 / fkb))
ok=0
verdict() { if [ "$1" -le "$2" ]; then echo met; else echo MISSED; ok=1; fi; }
tv=$(verdict $tr 130) mv=$(verdict $mr 150)
[ "$tv" = met ] && [ "$mv" = met ] || ok=1
printf 'time   %d.%02d x floor (goal <= 1.30): %s\n' $((tr / 100)) \
    $((tr % 100)) "$tv"
printf 'memory %d.%02d x floor (goal <= 1.50): %s\n' $((mr / 100)) \
    $((mr % 100)) "$mv"
exit $ok
