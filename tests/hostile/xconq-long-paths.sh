#!/bin/sh
# Hostile input (issue 11): fourteen xconq units, each ordered along a path
# of 10000 steps (the most a path may have), back and forth: an orders file
# of about 1 MB whose result records 140000 actions.  Each order's record
# is written and freed before the next is made, so memory stays that of
# one order (the whole result built at once took 415 MB).
#
#	sh tests/hostile/xconq-long-paths.sh DIR
dir=${1:?usage: xconq-long-paths.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 2, \"rows\": 14,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": {} },\n"
	printf "  \"players\": { \"red\": {} },\n  \"units\": [\n"
	for (u = 1; u <= 14; u++)
		printf "    {\"id\":\"u%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"01%02d\",\"acp\":10000}%s\n", u, u, u < 14 ? "," : ""
	printf "  ] }\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (u = 1; u <= 14; u++) {
		printf "{\"id\":\"m%d\",\"units\":[\"u%d\"],\"move\":[\"01%02d\"", u, u, u
		for (i = 1; i <= 10000; i++)
			printf ",%s\"%s%02d\"", i % 10 == 0 ? "\n" : "", i % 2 ? "02" : "01", u
		printf "]}%s\n", u < 14 ? "," : ""
	}
	printf "] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
