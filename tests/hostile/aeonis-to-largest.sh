#!/bin/sh
# Hostile input (issue 15): one destination order that no path reaches on
# the largest board a map may have (2000 x 2000 hexes), for a lord with a
# range and AP for every hex: the search stops at the cells a turn's
# destination orders may search (arbiter-orders(5)), so its memory stays
# within the limit (418 MB before the bound).
#
#	sh tests/hostile/aeonis-to-largest.sh DIR
dir=${1:?usage: aeonis-to-largest.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"aeonis","turn":1,"seed":1,
"board":{"grid":"hex","cols":2000,"rows":2000,"default":"plains"},
"cells":{"10001000":{"terrain":"lake"}},
"players":{"red":{"ap":100000000}},
"units":[{"id":"l","player":"red","type":"lord","at":"00010001","range":100000}]}
MAP
cat >"$dir/orders/red.json" <<'ORD'
{"arbiter":1,"player":"red","turn":1,"orders":[{"units":["l"],"to":"10001000"}]}
ORD
echo 0 >"$dir/status"
