#!/bin/sh
# arcane-legions, issue 11: a turn maneuver once took scratch space for
# every object on the table and never gave it back (a 1.2 MB turn: 68 s,
# 3.8 GB).  A table of 6,500 sorties and one sortie, far from them, that
# turns 10,000 times (the most one move may make) (free: its codex costs 0).  Expected: adjudicated.
# Usage: sh arcane-turn-scratch.sh DIR
dir=${1:?usage: arcane-turn-scratch.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	n = 6500; side = 100
	printf "{\"arbiter\":1,\"ruleset\":\"arcane-legions\",\"turn\":1,"
	printf "\"seed\":1,\"board\":{\"grid\":\"table\",\"width\":200,"
	printf "\"height\":200,\"pieces\":[]},\"players\":{\"a\":"
	printf "{\"order_points\":1},\"b\":{}},\"turn_order\":[\"a\",\"b\"],"
	printf "\"units\":[{\"id\":\"m\",\"player\":\"a\",\"type\":\"sortie\","
	printf "\"pose\":{\"x\":150,\"y\":150,\"facing\":0},\"codex\":{\"forward\":0,"
	printf "\"back\":0,\"left\":0,\"right\":0},\"figures\":[{}]}"
	for (i = 0; i < n; i++)
		printf ",{\"id\":\"%d\",\"player\":\"b\",\"type\":\"sortie\"," \
		    "\"pose\":{\"x\":%d.5,\"y\":%d.5,\"facing\":0},\"codex\":{\"forward\":0," \
		    "\"back\":0,\"left\":0,\"right\":0},\"figures\":[{}]}", \
		    i, i % side, int(i / side)
	printf "]}\n"
}' >"$dir/map.json"
awk 'BEGIN {
	n = 10000
	printf "{\"arbiter\":1,\"player\":\"a\",\"turn\":1,\"orders\":["
	printf "{\"id\":\"1\",\"units\":[\"m\"],\"move\":["
	for (i = 0; i < n; i++)
		printf "%s{\"turn\":\"left\",\"angle\":90}", i ? "," : ""
	printf "]}]}\n"
}' >"$dir/orders/a.json"
echo 0 >"$dir/status"
