#!/bin/sh
# Hostile input (issue 26, CR1): a graph of 35000 territories without
# display.positions (under 1 MB).  Graphviz's neato costs about the
# square of the territories (1000 took 10 s, 3000 90 s), and at this size
# ran out of memory under the limit: the program died of SIGSEGV (139),
# leaving its temporary picture.  Now a picture of a graph of more than
# 300 territories without positions is refused at once, located at
# /board/territories (65), whatever asks for it; the turn and its reach
# are still made (0).
#
#	sh tests/hostile/territory-layout-largest.sh DIR
dir=${1:?usage: territory-layout-largest.sh DIR}
mkdir -p "$dir/orders" "$dir/out" || exit 1
awk 'BEGIN { n = 35000; srand(7)
	printf "{\"arbiter\":1,\"ruleset\":\"territory\",\"turn\":1,"
	printf "\"seed\":1,\"board\":{\"grid\":\"graph\",\"territories\":["
	for (i = 0; i < n; i++)
		printf "%s\"t%d\"", (i > 0 ? "," : ""), i
	printf "],\"edges\":["
	for (i = 1; i < n; i++)
		printf "%s[\"t%d\",\"t%d\"]", (i > 1 ? "," : ""),
		    int(rand() * i), i
	printf "]},\"cells\":{\"t0\":{\"owner\":\"red\",\"armies\":9}},"
	print "\"players\":{\"red\":{},\"blue\":{}}}" }' >"$dir/map.json" ||
    exit 1
cat >"$dir/runs" <<'RUNS'
0
65 --svg turn.svg
65 --svg-next next.svg
65 --for all --outdir out --svg turn.svg
0 --reach t0
RUNS
