#!/bin/sh
# Hostile input (issue 26, RS6): --reach for a lord with AP and range for
# every hex of a 300 x 300 board (a map of about 200 bytes).  The answer
# gave every cell its whole path: 90000 paths of up to 450 cells, a
# document of gigabytes, built whole in memory.  Now each cell names the
# last step of its path in a tree of the paths' steps, written as it is
# made: the answer grows with the cells, a few megabytes.  And the same
# on the largest board (2000 x 2000), where the search stops at the cells
# a search may settle, in text too.
#
#	sh tests/hostile/aeonis-reach-paths.sh DIR
dir=${1:?usage: aeonis-reach-paths.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"aeonis","turn":1,"seed":1,
"board":{"grid":"hex","cols":300,"rows":300,"default":"plains"},
"players":{"red":{"ap":100000}},
"units":[{"id":"l","player":"red","type":"lord","at":"001001","range":100000}]}
MAP
cat >"$dir/check" <<'CHECK'
n=$(wc -c <result.json)
[ "$n" -lt 50000000 ] || { echo "the answer has $n bytes"; exit 1; }
CHECK
cat >"$dir/runs" <<'RUNS'
0 --reach l
RUNS
