#!/bin/sh
# Hostile input (issue 11): one xconq move order of 10000 actions (the
# most a path may have), back and forth between two hexes (about 70 KB of
# orders).  The order's
# message must not be rebuilt once per action: that costs memory and time
# in the square of the actions.  A valid turn: exit status 0.
#
#	sh tests/hostile/xconq-long-move.sh DIR
dir=${1:?usage: xconq-long-move.sh DIR}
n=10000
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<MAP
{
  "arbiter": 1, "ruleset": "xconq", "turn": 1, "seed": 1,
  "board": { "grid": "hex", "cols": 2, "rows": 1, "default": "plains" },
  "terrain-types": { "plains": "cell" },
  "unit-types": { "infantry": {} },
  "players": { "red": {}, "blue": {} },
  "turn_order": ["red", "blue"],
  "units": [
    { "id": "r1", "player": "red", "type": "infantry", "at": "0101",
      "acp": $n }
  ]
}
MAP
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
