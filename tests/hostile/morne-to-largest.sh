#!/bin/sh
# Hostile input (issue 15): a morne-plaine destination order that no path
# reaches (a friendly unit holds the hex) on the largest board, for a
# cavalry unit with points for every hex: the search stops at the cells a
# turn's destination orders may search (arbiter-orders(5)), so its memory
# stays within the limit.
#
#	sh tests/hostile/morne-to-largest.sh DIR
dir=${1:?usage: morne-to-largest.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"morne-plaine","turn":1,"seed":1,
"board":{"grid":"hex","cols":2000,"rows":2000,"default":"clear"},
"players":{"red":{},"blue":{}},"turn_order":["red","blue"],
"units":[{"id":"c","player":"red","type":"cavalry","at":"00010001","strength":3,"ma":100000000,"mv":4},
{"id":"i","player":"red","type":"infantry","at":"10001000","strength":3,"ma":1,"mv":4}]}
MAP
cat >"$dir/orders/red.json" <<'ORD'
{"arbiter":1,"player":"red","turn":1,"orders":[{"units":["c"],"to":"10001000"}]}
ORD
# And the reach of the unit on the same board (issue 26): the query
# settles at most 500000 labels and says it was cut.
cat >"$dir/runs" <<'RUNS'
0 --reach c
0
RUNS
