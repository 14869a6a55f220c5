#!/bin/sh
# Hostile input (issue 32): the order sheet of a player of 10000 lords,
# one to a hex of the largest board a picture draws (100 x 100), each
# with AP and range for every hex.  Searched and written whole, each
# group's reach is the board: 10000 searches of 10000 hexes, about
# 100 million steps of data in memory.  The sheet searches at most
# 4000000 labels in all and writes at most 1000000 steps; the groups past
# that are on the sheet without their reach ("cut", which the page says).
#
#	sh tests/hostile/sheet-many-reaches.sh DIR
dir=${1:?usage: sheet-many-reaches.sh DIR}
mkdir -p "$dir/orders" || exit 1
{
	printf '{"arbiter":1,"ruleset":"aeonis","turn":1,"seed":1,\n'
	printf '"board":{"grid":"hex","cols":100,"rows":100,'
	printf '"default":"plains"},\n"players":{"red":{"ap":100000}},\n'
	printf '"units":['
	c=1
	while [ $c -le 100 ]; do
		r=1
		while [ $r -le 100 ]; do
			[ $c -eq 1 ] && [ $r -eq 1 ] || printf ','
			printf '{"id":"l%d_%d","player":"red","type":"lord",' $c $r
			printf '"at":"%03d%03d","range":100000}\n' $c $r
			r=$((r + 1))
		done
		c=$((c + 1))
	done
	printf ']}\n'
} >"$dir/map.json"
cat >"$dir/check" <<'CHECK'
grep -q '"cut":true' s.html || { echo "no group cut"; exit 1; }
CHECK
cat >"$dir/runs" <<'RUNS'
0 --for red --sheet s.html
RUNS
