# The largest board, 2000 x 2000 hexes, for xconq: border and connection
# types are kept only where the map has some, so a map of 200 bytes stays
# within the memory limit (it took 96 bytes a hex).
cat >"$1/map.json" <<'END'
{"arbiter": 1, "ruleset": "xconq", "turn": 1,
 "board": {"grid": "hex", "cols": 2000, "rows": 2000, "default": "plains"},
 "terrain-types": {"plains": "cell", "river": "border", "road": "connection"},
 "hexsides": [{"cells": ["19991999", "19992000"], "feature": "river"}],
 "unit-types": {"a": {}}, "players": {"red": {}}}
END
echo 0 >"$1/status"
