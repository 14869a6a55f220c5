#!/bin/sh
# Hostile input (issue 27): an orders text whose one path is a word of
# 300000 hyphens between names, on a territory map whose names hold
# hyphens: each hyphen is a place a name may end, and looking for the
# longest name at each one is quadratic unless no longer name than the
# map's longest is tried.  Also a line of more words than a line may have.
# (The file is named .json; it is read as text by what it holds.)
#
#	sh tests/hostile/text-hyphens.sh DIR
dir=${1:?usage: text-hyphens.sh DIR}
mkdir -p "$dir/orders" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"territory","turn":1,
"board":{"grid":"graph","territories":["A","A-B","B"],
"edges":[["A","A-B"],["A-B","B"],["B","A"]]},
"cells":{"A":{"owner":"red","armies":5}},
"players":{"red":{}}}
MAP
{
	echo "arbiter orders red turn 1"
	printf '1 army '
	awk 'BEGIN { for (i = 0; i < 150000; i++) printf "A-x-"; print "B" }'
	awk 'BEGIN { printf "1 army A"; for (i = 0; i < 5000; i++) \
	    printf " B"; print "" }'
} >"$dir/orders/red.json"
echo 0 >"$dir/status"
cat >"$dir/check" <<'CHECK'
grep -q 'a path of 300000 steps: at most 10000' result.json &&
    grep -q 'a line of more than 4096 words' result.json
CHECK
