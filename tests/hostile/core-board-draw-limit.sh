#!/bin/sh
# Hostile input (issue 26, RS7): the largest board drawn, 100 x 100 hexes
# (10000, the limit of a picture), every hex forest (a pattern over its
# colour), every other column owned, 64 players each with a unit: the
# umpire's pictures and every player's (--for all), each about 4 MB of
# SVG.
#
#	sh tests/hostile/core-board-draw-limit.sh DIR
dir=${1:?usage: core-board-draw-limit.sh DIR}
mkdir -p "$dir/orders" "$dir/out" || exit 1
awk 'BEGIN {
	printf "{\"arbiter\":1,\"ruleset\":\"aeonis\",\"turn\":1,\"seed\":1,"
	printf "\"board\":{\"grid\":\"hex\",\"cols\":100,\"rows\":100,"
	printf "\"default\":\"forest\"},\"cells\":{"
	for (c = 1; c <= 100; c += 2)
		for (r = 1; r <= 100; r++)
			printf "%s\"%03d%03d\":{\"owner\":\"p%d\"}",
			    (c + r > 2 ? "," : ""), c, r, (c * 100 + r) % 64
	printf "},\"players\":{"
	for (p = 0; p < 64; p++)
		printf "%s\"p%d\":{\"ap\":6}", (p > 0 ? "," : ""), p
	printf "},\"units\":["
	for (p = 0; p < 64; p++)
		printf "%s{\"id\":\"u%d\",\"player\":\"p%d\",\"type\":" \
		    "\"infantry\",\"at\":\"%03d%03d\"}", (p > 0 ? "," : ""),
		    p, p, p + 1, p + 1
	print "]}" }' >"$dir/map.json" || exit 1
cat >"$dir/runs" <<'RUNS'
0 --svg turn.svg
0 -n next.json --svg turn.svg --svg-next next.svg
0 --for all --outdir out --svg turn.svg
RUNS
