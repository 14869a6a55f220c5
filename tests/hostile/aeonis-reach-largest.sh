#!/bin/sh
# Hostile input (issue 26, RS6): --reach for a lord with AP and range for
# every hex of the largest board (2000 x 2000).  It ended in exit 70 under
# a 6 GiB limit (the answer built whole, every path in it).  Now the
# query settles at most 500000 labels (arbiter(1), --reach) and says it
# was cut ("truncated"), and the answer is written as it is made: each
# cell the last step of its path, the steps once.
#
#	sh tests/hostile/aeonis-reach-largest.sh DIR
dir=${1:?usage: aeonis-reach-largest.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"aeonis","turn":1,"seed":1,
"board":{"grid":"hex","cols":2000,"rows":2000,"default":"plains"},
"players":{"red":{"ap":100000}},
"units":[{"id":"l","player":"red","type":"lord","at":"10001000","range":100000}]}
MAP
cat >"$dir/check" <<'CHECK'
grep -q '"truncated": true' result.json || { echo "not truncated"; exit 1; }
CHECK
cat >"$dir/runs" <<'RUNS'
0 --text --reach l
0 --threads 1 --reach l
0 --reach l
RUNS
