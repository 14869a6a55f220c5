#!/bin/sh
# Hostile input (issue 26, RS8): --rolls with 4000000 die values (an 8 MB
# file, over the 1 MB of the other inputs: --max-input, 64 MiB, is the
# bound of a rolls file, and this one is an eighth of it).  Read as a
# JSON document, every value cost about 60 bytes (a 64 MB file took
# 1.97 GB); now the count is bounded (at most 1000000 rolls,
# arbiter-rules(7), Dice) and a longer list is refused at once, located
# at the first value past the limit (65).  A list of 1000000 values is
# read (the turn draws 2 of them) within the limit.
#
#	sh tests/hostile/core-rolls-many.sh DIR
dir=${1:?usage: core-rolls-many.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
case=$top/fixtures/morne-plaine/d-rolls
mkdir -p "$dir/orders" || exit 1
cp "$case/map.json" "$dir/map.json" || exit 1
cp "$case"/orders/*.json "$dir/orders/" || exit 1
awk 'BEGIN { printf "["; for (i = 0; i < 4000000; i++)
    printf "%s%d", (i > 0 ? "," : ""), i % 6 + 1; print "]" }' >"$dir/rolls" || exit 1
awk 'BEGIN { printf "[3,1"; for (i = 2; i < 1000000; i++)
    printf ",%d", i % 6 + 1; print "]" }' >"$dir/rolls-1m" || exit 1
cat >"$dir/runs" <<'RUNS'
65 --rolls rolls
0 --rolls rolls-1m
RUNS
