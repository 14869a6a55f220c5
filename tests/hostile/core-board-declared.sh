# A map of a few bytes that declares 4000 x 4000 hexes: refused (65), with
# no memory spent on the hexes (arbiter-map(5): at most 4000000 hexes).
cat >"$1/map.json" <<'END'
{"arbiter": 1, "ruleset": "aeonis", "turn": 1,
 "board": {"grid": "hex", "cols": 4000, "rows": 4000},
 "players": {"red": {}}}
END
echo 65 >"$1/status"
