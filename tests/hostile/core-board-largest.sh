# The largest board a map may declare, 2000 x 2000 hexes, in 120 bytes:
# adjudicated (0) within the memory limit.
cat >"$1/map.json" <<'END'
{"arbiter": 1, "ruleset": "aeonis", "turn": 1,
 "board": {"grid": "hex", "cols": 2000, "rows": 2000},
 "players": {"red": {}}}
END
echo 0 >"$1/status"
