#!/bin/sh
# As many refused orders as fit in 1 MB, each naming a unit the map does
# not have among 10000 of the player's own, and a second file with 30000
# unknown members: each problem is located from the last one, not from the
# top of the file again, only the first 50 problems of a file get a
# suggestion (each compares the name with every unit), and only the first
# ten unknown members are listed (issue 12).
dir=${1:?usage: core-refused-many.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1,\n"
	printf " \"board\": {\"grid\": \"hex\", \"cols\": 2, \"rows\": 1},\n"
	printf " \"players\": {\"red\": {\"ap\": 9}, \"blue\": {\"ap\": 9}},\n"
	printf " \"units\": ["
	for (i = 0; i < 10000; i++)
		printf "%s{\"id\": \"u%d\", \"player\": \"red\", \"type\": \"infantry\", \"at\": \"0101\"}\n", i ? "," : "", i
	printf "]}\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{\"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (i = 0; i < 20000; i++)
		printf "%s{\"units\": [\"v%d\"], \"move\": [\"0101\", \"0201\"]}\n", i ? "," : "", i
	printf "]}\n"
}' >"$dir/orders/red.json"
awk 'BEGIN {
	printf "{\"arbiter\": 1, \"player\": \"blue\", \"turn\": 1, \"orders\": []"
	for (i = 0; i < 30000; i++)
		printf ",\n\"k%d\": 0", i
	printf "}\n"
}' >"$dir/orders/blue.json"
echo 0 >"$dir/status"
