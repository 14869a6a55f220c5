#!/bin/sh
# Hostile input (issue 11): an xconq unit carrying 150000 occupants (about
# 600 KB of map) makes a move order of 10000 actions (about 70 KB of
# orders).  Its speed, a product over its occupants, must not be worked
# out again for every action: that costs time in actions times
# occupants.  Run it under a time limit of 10 s.  A valid turn: exit
# status 0.
#
#	sh tests/hostile/xconq-occupants.sh DIR
dir=${1:?usage: xconq-occupants.sh DIR}
n=10000
k=150000
mkdir -p "$dir/orders" || exit 1
awk -v n=$n -v k=$k 'BEGIN {
	printf "{\n  \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1, "
	printf "\"seed\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 2, \"rows\": 1, "
	printf "\"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"ship\": {}, \"a\": {} },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n"
	printf "  \"turn_order\": [\"red\", \"blue\"],\n  \"units\": [\n"
	printf "    { \"id\": \"r1\", \"player\": \"red\", \"type\": \"ship\", "
	printf "\"at\": \"0101\", \"acp\": %d,\n      \"occupants\": [", n
	for (i = 1; i <= k; i++)
		printf "%s\"a\"", (i > 1 ? "," : "") (i % 16 == 0 ? "\n" : "")
	printf "] }\n  ]\n}\n"
}' >"$dir/map.json"
awk -v n=$n 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1,\n"
	printf "  \"orders\": [ { \"id\": \"m1\", \"units\": [\"r1\"],\n"
	printf "    \"move\": [\"0101\""
	for (i = 1; i <= n; i++)
		printf ",%s\"%s\"", i % 10 == 0 ? "\n" : "", \
		    i % 2 ? "0201" : "0101"
	printf "] } ] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
