#!/bin/sh
# Hostile input (issue 11): an xconq map of 60000 unit types (about
# 800 KB), a table row for the last of them and a unit carrying
# occupants of the last 2000 types.  Every unit type name is looked up
# (declaration, tables, occupants); a linear scan per look-up costs time
# in the square of the types.  Run it under a time limit of 10 s.  A valid
# turn: exit status 0.
#
#	sh tests/hostile/xconq-type-lookup.sh DIR
dir=${1:?usage: xconq-type-lookup.sh DIR}
n=60000
k=2000
mkdir -p "$dir/orders" || exit 1
awk -v n=$n -v k=$k 'BEGIN {
	printf "{\n  \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1, "
	printf "\"seed\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 3, \"rows\": 1, "
	printf "\"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": {"
	for (i = 1; i <= n; i++)
		printf "%s\"u%d\": {}", (i > 1 ? "," : "") \
		    (i % 8 == 0 ? "\n" : ""), i
	printf "},\n  \"tables\": {\n"
	printf "    \"speed-occupant-effect\": { \"u%d\": {", n
	for (i = n - k + 1; i <= n; i++)
		printf "%s\"u%d\": 100", (i > n - k + 1 ? "," : "") \
		    (i % 8 == 0 ? "\n" : ""), i
	printf "} }\n  },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n"
	printf "  \"turn_order\": [\"red\", \"blue\"],\n  \"units\": [\n"
	printf "    { \"id\": \"r1\", \"player\": \"red\", \"type\": \"u%d\", ",
	    n
	printf "\"at\": \"0101\", \"acp\": 10,\n      \"occupants\": ["
	for (i = n - k + 1; i <= n; i++)
		printf "%s\"u%d\"", (i > n - k + 1 ? "," : "") \
		    (i % 8 == 0 ? "\n" : ""), i
	printf "] }\n  ]\n}\n"
}' >"$dir/map.json"
cat >"$dir/orders/red.json" <<EOF2
{ "arbiter": 1, "player": "red", "turn": 1,
  "orders": [ { "id": "m1", "units": ["r1"], "move": ["0101", "0201"] } ] }
EOF2
echo 0 >"$dir/status"
