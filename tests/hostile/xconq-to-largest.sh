#!/bin/sh
# Hostile input (issue 15): an xconq destination order that no path
# reaches (a cell the unit cannot exist on) on the largest board, for a
# unit with acp for every cell: the search stops at the cells a turn's
# destination orders may search (arbiter-orders(5)), so its memory stays
# within the limit.  (Its time grows with move-range, each step of the
# walk being an action to any cell in range: about 0.5 s at 1, 3 s at 2,
# 12 s at 4 on the machine of 2026-11-24; the memory does not.)
#
#	sh tests/hostile/xconq-to-largest.sh DIR
dir=${1:?usage: xconq-to-largest.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"xconq","turn":1,"seed":1,
"board":{"grid":"hex","cols":2000,"rows":2000,"default":"plains"},
"cells":{"10001000":{"terrain":"sea"}},
"terrain-types":{"plains":"cell","sea":"cell"},
"unit-types":{"infantry":{}},
"tables":{"altitude-min":{"infantry":{"sea":1}}},
"players":{"red":{},"blue":{}},"turn_order":["red","blue"],
"units":[{"id":"r","player":"red","type":"infantry","at":"00010001","acp":1000000}]}
MAP
cat >"$dir/orders/red.json" <<'ORD'
{"arbiter":1,"player":"red","turn":1,"orders":[{"units":["r"],"to":"10001000"}]}
ORD
# And the reach of the unit on the same board (issue 26): the query
# settles at most 500000 labels and says it was cut.
cat >"$dir/runs" <<'RUNS'
0 --reach r
0
RUNS
