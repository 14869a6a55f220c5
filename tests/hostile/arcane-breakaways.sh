#!/bin/sh
# Hostile input (issue 11, review): 6000 sorties that each turn once, and
# three other players whose files declare 20000 breakaways each against
# them (every file under 1 MB).  A move looks only at the breakaways on its
# own unit, not at every order of every player (21.5 s before, 0.3 s after).
#
#	sh tests/hostile/arcane-breakaways.sh DIR
dir=${1:?usage: arcane-breakaways.sh DIR}
np=4 n=6000 nb=20000
mkdir -p "$dir/orders" || exit 1
awk -v n=$n -v np=$np 'BEGIN {
	printf "{\"arbiter\":1,\"ruleset\":\"arcane-legions\",\"turn\":1,\"seed\":1,"
	printf "\"board\":{\"grid\":\"table\",\"width\":400,\"height\":400,\"pieces\":[]},"
	printf "\"players\":{\"a\":{\"order_points\":100000}"
	for (p = 1; p < np; p++)
		printf ",\"p%d\":{}", p
	printf "},\"turn_order\":[\"a\""
	for (p = 1; p < np; p++)
		printf ",\"p%d\"", p
	printf "],\"units\":["
	for (i = 0; i < n; i++)
		printf "%s\n{\"id\":\"%d\",\"player\":\"a\",\"type\":\"sortie\",\"pose\":{\"x\":%d.5,\"y\":%d.5,\"facing\":0},\"codex\":{\"forward\":0,\"back\":0,\"left\":0,\"right\":0},\"figures\":[{}]}", i ? "," : "", i, 2 * (i % 100) + 1, 2 * int(i / 100) + 1
	for (p = 1; p < np; p++)
		printf ",\n{\"id\":\"q%d\",\"player\":\"p%d\",\"type\":\"sortie\",\"pose\":{\"x\":%d.5,\"y\":390.5,\"facing\":0},\"codex\":{\"forward\":0,\"back\":0,\"left\":0,\"right\":0},\"figures\":[{}]}", p, p, 3 * p
	printf "]}\n"
}' >"$dir/map.json"
awk -v n=$n 'BEGIN {
	printf "{\"arbiter\":1,\"player\":\"a\",\"turn\":1,\"orders\":["
	for (i = 0; i < n; i++)
		printf "%s\n{\"id\":\"%d\",\"units\":[\"%d\"],\"move\":[{\"turn\":\"left\",\"angle\":90}]}", i ? "," : "", i, i
	printf "]}\n"
}' >"$dir/orders/a.json"
p=1
while [ $p -lt $np ]; do
	awk -v nb=$nb -v p=$p -v n=$n 'BEGIN {
		printf "{\"arbiter\":1,\"player\":\"p%d\",\"turn\":1,\"orders\":[", p
		for (i = 0; i < nb; i++)
			printf "%s\n{\"id\":\"x%d\",\"units\":[\"q%d\"],\"breakaway\":\"%d\"}", i ? "," : "", i, p, i % n
		printf "]}\n"
	}' >"$dir/orders/p$p.json"
	p=$((p + 1))
done
echo 0 >"$dir/status"
