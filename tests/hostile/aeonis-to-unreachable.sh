#!/bin/sh
# Hostile input (issue 15): destination orders that no path reaches, each
# of which would search the whole of a 1000x1000 board (a lord with a
# range and AP for every hex; the destination a lake in the middle): the
# turn's path finding stops at a budget of labels, and the orders after
# it are illegal (no_route), so the turn ends in seconds, not hours
# (about 5000 s without the bound).  The bound is red's own: blue, who
# moves after red, still finds the path of its destination order.
#
#	sh tests/hostile/aeonis-to-unreachable.sh DIR
dir=${1:?usage: aeonis-to-unreachable.sh DIR}
n=20000
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"aeonis","turn":1,"seed":1,
"board":{"grid":"hex","cols":1000,"rows":1000,"default":"plains"},
"cells":{"05000500":{"terrain":"lake"}},
"players":{"red":{"ap":100000000},"blue":{"ap":10}},
"units":[{"id":"l","player":"red","type":"lord","at":"00010001","range":100000},
{"id":"b","player":"blue","type":"infantry","at":"09990999"}]}
MAP
echo '{"arbiter":1,"player":"blue","turn":1,"orders":[{"id":"b1","units":["b"],"to":"09980999"}]}' >"$dir/orders/blue.json"
cat >"$dir/check" <<'CHECK'
python3 -c '
import json, sys
r = json.load(open("result.json"))
o = [o for o in r["orders"] if o["player"] == "blue"][0]
sys.exit(0 if o["status"] == "done" else "blue: %s %s" % (o["status"], o["message"]))'
CHECK
awk -v n=$n 'BEGIN {
	printf "{\"arbiter\":1,\"player\":\"red\",\"turn\":1,\"orders\":["
	for (i = 0; i < n; i++)
		printf "%s\n{\"id\":\"%d\",\"units\":[\"l\"],\"to\":\"05000500\"}", i ? "," : "", i
	printf "]}\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
