#!/bin/sh
# Hostile input (issue 11, review): 14000 units of one side stacked on two
# hexes, and fourteen units of that side going back and forth 10000 times
# between them.  Leaving a stack and joining it at its end cost nothing, and
# a step's zones are looked for once (23 s before, 1.9 s after).
#
#	sh tests/hostile/xconq-stacks.sh DIR
dir=${1:?usage: xconq-stacks.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 2, \"rows\": 2,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": {} },\n"
	printf "  \"players\": { \"red\": {} },\n  \"units\": [\n"
	for (i = 0; i < 14000; i++)
		printf "{\"id\":\"s%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"010%d\",\"acp\":1},\n", i, i % 2 + 1
	for (u = 1; u <= 14; u++)
		printf "{\"id\":\"u%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"0101\",\"acp\":10000}%s\n", u, u < 14 ? "," : ""
	printf "] }\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (u = 1; u <= 14; u++) {
		printf "{\"id\":\"m%d\",\"units\":[\"u%d\"],\"move\":[\"0101\"", u, u
		for (i = 1; i <= 10000; i++)
			printf ",%s\"010%d\"", i % 10 == 0 ? "\n" : "", i % 2 ? 2 : 1
		printf "]}%s\n", u < 14 ? "," : ""
	}
	printf "] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
