# The largest board, 2000 x 2000 hexes, for morne-plaine (hexside bits per
# hex): adjudicated within the memory limit.
cat >"$1/map.json" <<'END'
{"arbiter": 1, "ruleset": "morne-plaine", "turn": 1,
 "board": {"grid": "hex", "cols": 2000, "rows": 2000},
 "players": {"red": {}}}
END
echo 0 >"$1/status"
