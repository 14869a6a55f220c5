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
# Drawn whole (--svg-region all), every picture of it is refused at once
# (issue 26: more than 10000 cells to draw), the turn still made; by
# default it is drawn around what happened (issue 29), a few cells.
# A picture's tables are sized by the board (positions, stacks, the
# region's own cells: some 100 MB for 4 million cells) and die with the
# picture (mem_rewind(), 2026-11-28): --for all's pictures, one after
# another, fit under this test's limit (before, 70: out of memory).
mkdir -p "$1/out" || exit 1
cat >"$1/runs" <<'END'
0 --svg turn.svg
0 -n next.json --svg-next next.svg
0 --for all --outdir out --svg turn.svg
65 --svg-region all --svg turn.svg
65 --svg-region all -n next.json --svg-next next.svg
65 --svg-region all --for all --outdir out --svg turn.svg
0
END
