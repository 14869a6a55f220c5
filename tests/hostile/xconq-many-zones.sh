#!/bin/sh
# Hostile input (issue 11): 3000 enemy units whose zones of control cover
# the whole board (zoc-range 60, no extra cost), and one xconq move of 3000
# steps through them.  Each step lists at most eight zones and counts the
# rest; it used to record all 3000 on each step (5.9 GB, 50 s).
#
#	sh tests/hostile/xconq-many-zones.sh DIR
dir=${1:?usage: xconq-many-zones.sh DIR}
n=3000
mkdir -p "$dir/orders" || exit 1
awk -v n=$n 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 60, \"rows\": 60,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": {}, \"tank\": {} },\n"
	printf "  \"tables\": { \"zoc-range\": { \"tank\": { \"inf\": 60 } },\n"
	printf "    \"mp-to-enter-zoc\": { \"inf\": { \"tank\": 0 } } },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n"
	printf "  \"units\": [\n"
	printf "    {\"id\":\"r\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"3030\",\"acp\":%d}", 2 * n
	for (i = 0; i < n; i++)
		printf ",\n{\"id\":\"b%d\",\"player\":\"blue\",\"type\":\"tank\",\"at\":\"%02d%02d\",\"acp\":1}", i, i % 60 + 1, int(i / 60) % 25 + 1
	printf "]}\n"
}' >"$dir/map.json"
awk -v n=$n 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1,\n"
	printf "  \"orders\": [ { \"id\": \"m\", \"units\": [\"r\"],\n"
	printf "    \"move\": [\"3030\""
	for (i = 1; i <= n; i++)
		printf ",%s\"%s\"", i % 10 == 0 ? "\n" : "", i % 2 ? "3031" : "3030"
	printf "] } ] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
