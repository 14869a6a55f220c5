#!/bin/sh
# make bench's game mode (issue 31), called by run.sh:
#	league.sh TOP DIR RUNS
# 1. `arbiter game run --now` of a small game (the demo turn: 8 x 6
#    hexes, two players whose orders came by mail through `arbiter game
#    receive`), best of RUNS, each on a fresh copy, against the plain
#    arbiter commands an umpire ran for the same turn before the game
#    mode (plain.sh below: the result, next map, JSON Lines trace and
#    picture as SVG and PNG; the text trace; --for all --outdir with
#    every player's report, letter, next map and picture; each player's
#    picture as PNG and next board as SVG): goal, at most 2 x their
#    time together.
# 2. A league: LEAGUE_GAMES small games (default 100; 3 x 2 hexes, no
#    orders) run by `parallel --joblog arbiter game run --now ::: games/*`:
#    its throughput in games a second, reported.
# Exits 1 when the goal of 1 is missed.
top=$1 dir=$2 runs=$3
arbiter=$top/arbiter
measure=$top/tests/bench/measure
demo=$top/fixtures/aeonis/demo-turn
ngames=${LEAGUE_GAMES:-100}
missed=0
rm -rf "$dir/game"
mkdir -p "$dir/game" || exit 1
cd "$dir/game" || exit 1

"$arbiter" game new template "$demo/map.json" --player red=red@example.org \
    --player blue=blue@example.org >/dev/null || exit 1
for p in red blue; do
	{
		printf 'From: %s@example.org\nTo: umpire@example.org\n' "$p"
		printf 'Subject: orders\nMessage-ID: <%s.1@example.org>\n' "$p"
		printf 'Date: Sat, 28 Nov 2026 00:00:00 +0000\n'
		printf 'Content-Type: application/json\n\n'
		cat "$demo/orders/$p.json"
	} | "$arbiter" game receive template >/dev/null || exit 1
done
turn=$(cd template/turns && ls)

cat >plain.sh <<EOF
#!/bin/sh
# The turn as plain arbiter commands, in a copy of the game folder.
cd "\$1/turns/$turn" || exit 1
a="$arbiter --secret ../../umpire.key"
o="map.json red=orders/red.eml blue=orders/blue.eml"
mkdir -p out/players || exit 1
\$a -o out/result.json -n out/next.json --trace-file out/trace.jsonl \\
    --svg out/turn.svg --png out/turn.png \$o || exit 1
\$a --text --trace-file out/trace.txt -o /dev/null \$o || exit 1
\$a --for all --outdir out/players --svg out/players.svg -o /dev/null \\
    \$o || exit 1
for p in red blue; do
	\$a --for \$p --png out/players/\$p.png \\
	    --svg-next out/players/\$p.next.svg -o /dev/null \$o || exit 1
done
EOF

# best COMMAND...: the best wall time in ms of RUNS runs, each on a fresh
# copy of the template as "run" (the command's last argument).
best() {
	ms= i=0
	while [ "$i" -lt "$runs" ]; do
		rm -rf run
		cp -Rp template run || exit 1
		"$measure" "$@" 2>m >/dev/null ||
		    { echo "bench: $* failed" >&2; cat m >&2; exit 1; }
		read -r m k <m
		{ [ -z "$ms" ] || [ "$m" -lt "$ms" ]; } && ms=$m
		i=$((i + 1))
	done
	echo "$ms"
}
g=$(best "$arbiter" game run --now run) || exit 1
p=$(best sh plain.sh run) || exit 1
r=$((g * 100 / (p > 0 ? p : 1)))
v=met
[ "$r" -le 200 ] || { v=MISSED; missed=1; }
printf '%-28s %8s\n' "" "wall ms"
printf '%-28s %8d\n' "arbiter game run --now" "$g"
printf '%-28s %8d\n' "the plain commands (5 runs)" "$p"
printf 'game run  %d.%02d x the plain commands (goal <= 2.00): %s\n' \
    $((r / 100)) $((r % 100)) "$v"

# The league.
if parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	cat >small.json <<'EOF'
{ "arbiter": 1, "ruleset": "aeonis", "turn": 1, "seed": 31,
  "board": { "grid": "hex", "cols": 3, "rows": 2, "default": "plains" },
  "players": { "red": { "ap": 4 }, "blue": { "ap": 4 } },
  "turn_order": ["red", "blue"],
  "units": [
    { "id": "r1", "player": "red", "type": "infantry", "at": "0101",
      "strength": 2 },
    { "id": "b1", "player": "blue", "type": "infantry", "at": "0302",
      "strength": 2 } ] }
EOF
	mkdir games
	seq -w 1 "$ngames" | parallel --will-cite "$arbiter" game new \
	    games/g{} small.json --player red=red{}@example.org \
	    --player blue=blue{}@example.org >/dev/null || exit 1
	"$measure" parallel --will-cite --joblog joblog "$arbiter" game run \
	    --now ::: games/* 2>m >/dev/null ||
	    { echo "bench: the league failed" >&2; cat m joblog >&2; exit 1; }
	read -r ms k <m
	t=$((ngames * 100000 / (ms > 0 ? ms : 1)))
	printf 'league    %d games in %d ms: %d.%02d games a second (%s jobs at once)\n' \
	    "$ngames" "$ms" $((t / 100)) $((t % 100)) "$(nproc)"
else
	echo "league    GNU parallel is not installed: not measured"
fi
cd "$dir" && rm -rf "$dir/game"
exit $missed
