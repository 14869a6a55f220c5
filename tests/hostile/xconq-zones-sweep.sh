#!/bin/sh
# Hostile input (issue 11): the worst we know for zones of control.  14000
# enemy tanks whose zones reach the whole 120 x 120 board, and thirteen
# units sweeping it in 7500 steps each, never the same step twice, so no
# step's zones can be kept for another: every step looks at every enemy
# (about 9 s here; the cost is steps times enemies in reach).
#
#	sh tests/hostile/xconq-zones-sweep.sh DIR
dir=${1:?usage: xconq-zones-sweep.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
	printf "  \"board\": { \"grid\": \"hex\", \"cols\": 120, \"rows\": 120,"
	printf " \"default\": \"plains\" },\n"
	printf "  \"terrain-types\": { \"plains\": \"cell\" },\n"
	printf "  \"unit-types\": { \"inf\": {}, \"tank\": {} },\n"
	printf "  \"tables\": { \"zoc-range\": { \"tank\": { \"inf\": 240 } },\n"
	printf "    \"mp-to-enter-zoc\": { \"inf\": { \"tank\": 0 } } },\n"
	printf "  \"players\": { \"red\": {}, \"blue\": {} },\n  \"units\": [\n"
	for (u = 1; u <= 13; u++)
		printf "{\"id\":\"u%d\",\"player\":\"red\",\"type\":\"inf\",\"at\":\"%03d001\",\"acp\":30000},\n", u, u * 9
	for (i = 0; i < 14000; i++)
		printf "{\"id\":\"b%d\",\"player\":\"blue\",\"type\":\"tank\",\"at\":\"%03d%03d\",\"acp\":1}%s\n", i, i % 120 + 1, int(i / 120) % 20 + 100, i < 13999 ? "," : ""
	printf "] }\n"
}' >"$dir/map.json"
awk 'BEGIN {
	printf "{ \"arbiter\": 1, \"player\": \"red\", \"turn\": 1, \"orders\": [\n"
	for (u = 1; u <= 13; u++) {
		c = u * 9; r = 1; dir = 1
		printf "{\"id\":\"m%d\",\"units\":[\"u%d\"],\"move\":[\"%03d%03d\"", u, u, c, r
		for (i = 1; i <= 7500; i++) {
			r += dir
			if (r > 95) {
				r = 95; dir = -1; c = c % 120 + 1
			} else if (r < 1) {
				r = 1; dir = 1; c = c % 120 + 1
			}
			printf ",%s\"%03d%03d\"", i % 10 == 0 ? "\n" : "", c, r
		}
		printf "]}%s\n", u < 13 ? "," : ""
	}
	printf "] }\n"
}' >"$dir/orders/red.json"
echo 0 >"$dir/status"
