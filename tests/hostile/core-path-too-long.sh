#!/bin/sh
# A path of 10001 steps, one more than an order may have (arbiter-orders(5)):
# refused at the path, before anything is adjudicated: a ruling since issue
# 12 (exit 0), and the result does not list the path.
dir=${1:?usage: core-path-too-long.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'END'
{"arbiter": 1, "ruleset": "aeonis", "turn": 1,
 "board": {"grid": "hex", "cols": 2, "rows": 1},
 "players": {"red": {"ap": 9}},
 "units": [{"id": "a", "player": "red", "type": "infantry", "at": "0101"}]}
END
awk 'BEGIN {
	printf "{\"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": ["
	printf "{\"units\": [\"a\"], \"move\": [\"0101\""
	for (i = 1; i <= 10001; i++)
		printf ",\"%s\"", i % 2 ? "0201" : "0101"
	printf "]}]}\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
