#!/bin/sh
# Hostile input (issue 11, review): 14000 enemy tanks whose zones reach the
# whole 60 x 60 board, and fourteen units each going back and forth 10000
# times through them (map and orders each under 1 MB).  The zones of a step
# are kept while no enemy of the mover moves, so each unit looks at the
# crowd once per step it has not made before (81 s before, 2.5 s after).
#
#	sh tests/hostile/xconq-zones-crowd.sh DIR
dir=${1:?usage: xconq-zones-crowd.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 60, \"rows\": 60,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": {}, \"tank\": {} },\n"
	printf "  \"tables\": { \"zoc-range\": { \"tank\": { \"inf\": 60 } },\n"
	printf "    \"mp-to-enter-zoc\": { \"inf\": { \"tank\": 0 } } },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n  \"units\": [\n"
	for (u = 1; u <= 14; u++)
		printf "{\"id\":\"u%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"30%02d\",\"acp\":30000},\n", u, 30 + u
	for (i = 0; i < 14000; i++)
		printf "{\"id\":\"b%d\",\"player\":\"blue\",\"type\":\"tank\",\"at\":\"%02d%02d\",\"acp\":1}%s\n", i, i % 60 + 1, int(i / 60) % 29 + 1, i < 13999 ? "," : ""
	printf "] }\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (u = 1; u <= 14; u++) {
		printf "{\"id\":\"m%d\",\"units\":[\"u%d\"],\"move\":[\"30%02d\"", u, u, 30 + u
		for (i = 1; i <= 10000; i++)
			printf ",%s\"%s%02d\"", i % 10 == 0 ? "\n" : "", i % 2 ? "31" : "30", 30 + u
		printf "]}%s\n", u < 14 ? "," : ""
	}
	printf "] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
