#!/bin/sh
# Hostile input (issue 11): an xconq map of 20000 unit types (about
# 400 KB) whose tables name a few pairs.  Tables of unit type pairs (and
# of type and terrain) must keep only the entries the map gives, not one
# per pair: a dense table takes memory in the square of the types.  The
# types' names are looked up often, so this also times those look-ups.
# A valid turn: exit status 0.
#
#	sh tests/hostile/xconq-many-types.sh DIR
dir=${1:?usage: xconq-many-types.sh DIR}
n=20000
mkdir -p "$dir/orders" || exit 1
awk -v n=$n 'BEGIN {
	printf "{\n  \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1, "
	printf "\"seed\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 3, \"rows\": 1, "
	printf "\"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\", "
	printf "\"forest\": \"cell\" },\n"
	printf "  \"materials\": [\"fuel\"],\n"
	printf "  \"unit-types\": {"
	for (i = 1; i <= n; i++)
		printf "%s\"u%d\": {}", (i > 1 ? "," : "") \
		    (i % 8 == 0 ? "\n" : ""), i
	printf "},\n  \"tables\": {\n"
	printf "    \"mp-to-enter-terrain\": { \"u%d\": { \"plains\": 2 } },\n",
	    n
	printf "    \"consumption-per-move\": { \"u%d\": { \"fuel\": 0 } },\n",
	    n
	printf "    \"zoc-range\": { \"u1\": { \"u%d\": 1 } },\n", n
	printf "    \"mp-to-enter-zoc\": { \"u%d\": { \"u1\": 3 } }\n", n
	printf "  },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n"
	printf "  \"turn_order\": [\"red\", \"blue\"],\n  \"units\": [\n"
	printf "    { \"id\": \"r1\", \"player\": \"red\", \"type\": \"u%d\", ",
	    n
	printf "\"at\": \"0101\", \"acp\": 10 },\n"
	printf "    { \"id\": \"b1\", \"player\": \"blue\", \"type\": \"u1\", "
	printf "\"at\": \"0301\", \"acp\": 1 }\n  ]\n}\n"
}' >"$dir/map.json"
cat >"$dir/orders/red.json" <<EOF2
{ "arbiter": 1, "player": "red", "turn": 1,
  "orders": [ { "id": "m1", "units": ["r1"], "move": ["0101", "0201"] } ] }
EOF2
echo 0 >"$dir/status"
