#!/bin/sh
# Hostile input (issue 26, CR1): the largest graph Graphviz lays out, 300
# territories without display.positions, with no edges (each territory a
# component of its own, neato's slowest case measured) and 64
# players, each with a territory: every picture of the turn, and every
# player's under --for all, is drawn from one layout made once (the
# layout runs in a child process, whose running out of memory is exit 70).
#
#	sh tests/hostile/territory-layout-limit.sh DIR
dir=${1:?usage: territory-layout-limit.sh DIR}
mkdir -p "$dir/orders" "$dir/out" || exit 1
awk 'BEGIN { n = 300
	printf "{\"arbiter\":1,\"ruleset\":\"territory\",\"turn\":1,"
	printf "\"seed\":1,\"board\":{\"grid\":\"graph\",\"territories\":["
	for (i = 0; i < n; i++)
		printf "%s\"t%d\"", (i > 0 ? "," : ""), i
	printf "],\"edges\":[]},\"cells\":{"
	for (p = 0; p < 64; p++)
		printf "%s\"t%d\":{\"owner\":\"p%d\",\"armies\":3}",
		    (p > 0 ? "," : ""), p * 4, p
	printf "},\"players\":{"
	for (p = 0; p < 64; p++)
		printf "%s\"p%d\":{}", (p > 0 ? "," : ""), p
	print "}}" }' >"$dir/map.json" || exit 1
cat >"$dir/runs" <<'RUNS'
0 --svg turn.svg
0 -n next.json --svg turn.svg --svg-next next.svg
0 --for all --outdir out --svg turn.svg
RUNS
