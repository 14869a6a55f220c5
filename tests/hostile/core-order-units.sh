# One order that lists 15000 units (under 1 MB): the listed-twice check is
# linear.  The move goes nowhere a group may go, so it is refused: a ruling.
awk 'BEGIN {
	n = 15000
	printf "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1,\n"
	printf " \"board\": {\"grid\": \"hex\", \"cols\": 300, \"rows\": 300},\n"
	printf " \"players\": {\"r\": {\"ap\": 9}},\n \"units\": [\n"
	for (i = 0; i < n; i++)
		printf "{\"id\":\"%d\",\"player\":\"r\",\"type\":\"infantry\",\"at\":\"%03d%03d\"}%s\n", i, i % 300 + 1, int(i / 300) + 1, i < n - 1 ? "," : ""
	printf " ]}\n"
}' >"$1/map.json"
awk 'BEGIN {
	n = 15000
	printf "{\"arbiter\": 1, \"player\": \"r\", \"turn\": 1, \"orders\": [\n"
	printf " {\"id\": \"o\", \"move\": [\"001001\", \"002001\"], \"units\": [\n"
	for (i = 0; i < n; i++)
		printf "\"%d\"%s", i, i < n - 1 ? "," : "]}]}\n"
}' >"$1/orders/r.json"
echo 0 >"$1/status"
