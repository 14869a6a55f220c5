#!/bin/sh
# arcane-legions, issue 11: loading checked every pair of units for
# overlap (16,000 units: 22 s).  A table packed with 6,800 sorties side by
# side, touching but never overlapping, and no orders to give.  Expected:
# adjudicated.
# Usage: sh arcane-overlap-pairs.sh DIR
dir=${1:?usage: arcane-overlap-pairs.sh DIR}
mkdir -p "$dir/orders" || exit 1
awk 'BEGIN {
	n = 6800; side = 90
	printf "{\"arbiter\":1,\"ruleset\":\"arcane-legions\",\"turn\":1,"
	printf "\"seed\":1,\"board\":{\"grid\":\"table\",\"width\":%d,", side
	printf "\"height\":%d,\"pieces\":[]},\"players\":{\"a\":{},", side
	printf "\"b\":{}},\"turn_order\":[\"a\",\"b\"],\"units\":["
	for (i = 0; i < n; i++)
		printf "%s{\"id\":\"%d\",\"player\":\"%s\",\"type\":\"sortie\"," \
		    "\"pose\":{\"x\":%d.5,\"y\":%d.5,\"facing\":0},\"codex\":{\"forward\":0," \
		    "\"back\":0,\"left\":0,\"right\":0},\"figures\":[{}]}", \
		    i ? "," : "", i, i % 2 ? "b" : "a", i % side, int(i / side)
	printf "]}\n"
}' >"$dir/map.json"
echo '{"arbiter":1,"player":"a","turn":1,"orders":[]}' >"$dir/orders/a.json"
echo 0 >"$dir/status"
