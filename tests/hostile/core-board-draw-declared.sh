#!/bin/sh
# Hostile input (issue 26, RS7): a map of about 100 bytes that declares
# 2000 x 2000 hexes.  Its picture drew every hex: 975 MB of SVG, and as
# much again for each player under --for all.  Now a board of more than
# 10000 cells is drawn around what happened (issue 29, large boards; here
# nothing happens: its first cell), and drawn whole (--svg-region all)
# every picture is refused at once, located at /board (65), and nothing
# is written; the turn itself is still made (0).
#
#	sh tests/hostile/core-board-draw-declared.sh DIR
dir=${1:?usage: core-board-draw-declared.sh DIR}
# A picture's tables are sized by the board (positions, stacks, the
# region's own cells: some 100 MB for 4 million cells) and die with the
# picture (mem_rewind(), 2026-11-28): --for all's pictures, one after
# another, fit under this test's limit (before, 70: out of memory).
mkdir -p "$dir/orders" "$dir/out" || exit 1
cat >"$dir/map.json" <<'MAP'
{"arbiter":1,"ruleset":"aeonis","turn":1,
"board":{"grid":"hex","cols":2000,"rows":2000},"players":{"red":{}}}
MAP
cat >"$dir/runs" <<'RUNS'
0
0 --svg turn.svg
0 -n next.json --svg-next next.svg
0 --for all --outdir out --svg turn.svg
65 --svg-region all --svg turn.svg
65 --svg-region all -n next.json --svg-next next.svg
65 --svg-region all --for all --outdir out --svg turn.svg
RUNS
