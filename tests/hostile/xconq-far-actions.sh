#!/bin/sh
# Hostile input (issue 11): fourteen units of move-range 4, the most a type
# may have, each making 10000 actions of 4 cells back and forth, on a board
# whose every hex is in the zone of an enemy (orders under 1 MB).  Each
# action is priced over the cells of its shortest ways.
#
#	sh tests/hostile/xconq-far-actions.sh DIR
dir=${1:?usage: xconq-far-actions.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 20, \"rows\": 20,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": { \"move-range\": 4 }, \"tank\": {} },\n"
	printf "  \"tables\": { \"zoc-range\": { \"tank\": { \"inf\": 20 } },\n"
	printf "    \"mp-to-enter-zoc\": { \"inf\": { \"tank\": 0 } } },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n  \"units\": [\n"
	for (u = 1; u <= 14; u++)
		printf "{\"id\":\"u%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"01%02d\",\"acp\":1000000},\n", u, u
	for (i = 0; i < 400; i++)
		printf "{\"id\":\"b%d\",\"player\":\"blue\",\"type\":\"tank\",\"at\":\"20%02d\",\"acp\":1}%s\n", i, i % 20 + 1, i < 399 ? "," : ""
	printf "] }\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (u = 1; u <= 14; u++) {
		printf "{\"id\":\"m%d\",\"units\":[\"u%d\"],\"move\":[\"01%02d\"", u, u, u
		for (i = 1; i <= 10000; i++)
			printf ",%s\"%s%02d\"", i % 10 == 0 ? "\n" : "", i % 2 ? "05" : "01", u
		printf "]}%s\n", u < 14 ? "," : ""
	}
	printf "] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
