#!/bin/sh
# The pictures (arbiter(1), --svg): every golden SVG of the casebook
# (fixtures/*/*/expected.svg) and README's doc/demo-turn.svg is parsed
# with a real XML parser and rendered by headless Chromium to a PNG of the
# SVG's size that must not be blank (tests/svg.py); without Chromium
# (tests/deps.sh installs Debian's package when it can), the pictures are
# only parsed and the rendering is reported skipped.  Each picture's PNG
# (--png) is made twice (the same bytes) and compared with Chromium's
# rendering (tests/svg.py).  Also checks that a graph of 20 territories
# is laid out compact and names too long for their circles are cut, and that
# doc/demo-turn.svg is what arbiter draws of the demo turn now:
#	arbiter --svg doc/demo-turn.svg -o /dev/null \
#	    fixtures/aeonis/demo-turn/map.json fixtures/aeonis/demo-turn/orders/*.json
# Ends with "svg: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
cd "$top" || exit 70
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
d=fixtures/aeonis/demo-turn
extra=0
if "$arbiter" --svg "$tmp/demo.svg" -o /dev/null $d/map.json \
    $d/orders/*.json && cmp -s "$tmp/demo.svg" doc/demo-turn.svg; then
	echo "ok 0 - doc/demo-turn.svg is the demo turn's picture"
else
	echo "not ok 0 - doc/demo-turn.svg is not what arbiter draws now" \
	    "(remake it with the command in tests/svg.sh)"
	extra=1
fi
# --svg-start: the board as the turn begins, before any order or upkeep
# (issue 29): territory/svg-layout's map has Anvil 6 armies, Brook 1,
# Crown 2 (blue's), Dale and Ember none; after the turn they are 1, 1, 1,
# 0, 1.  The start picture must say the map's, in map order, and draw no
# arrow.
# Its features too: in territory/for-hidden red's invasion destroys
# Crown's watchtower, which the start picture must draw (it did not).
c=fixtures/territory/svg-layout
if (cd $c && "$arbiter" --svg-start "$tmp/start.svg" -o /dev/null map.json \
    orders/*.json) && [ "$(grep -o 'armies [0-9]*' "$tmp/start.svg" |
    tr '\n' ,)" = "armies 6,armies 1,armies 2,armies 0,armies 0," ] &&
    ! grep -q 'class="move' "$tmp/start.svg" &&
    grep -q '>territory, turn 7 begins<' "$tmp/start.svg" &&
    (cd fixtures/territory/for-hidden && "$arbiter" --svg-start \
    "$tmp/start2.svg" -o /dev/null map.json orders/*.json) &&
    [ "$(grep -c '>watchtower<' "$tmp/start2.svg")" = 2 ]; then
	echo "ok 0 - --svg-start draws the board as the map gives it"
else
	echo "not ok 0 - --svg-start does not draw the board as the map" \
	    "gives it ($c)"
	extra=$((extra + 1))
fi
# A graph without display positions laid out compact (issue 29): the
# 20 territories of tests/data/graph20.json (28 edges) on at most 40000
# square pixels each of the picture (its width less the legend's 250,
# times its height); neato's overlap=false scaled it up to 119000.
if "$arbiter" --svg "$tmp/g20.svg" -o /dev/null tests/data/graph20.json &&
    a=$(sed -n 's/^<svg .* width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' \
    "$tmp/g20.svg") && [ -n "$a" ] &&
    [ $(( (${a% *} - 250) * ${a#* } / 20 )) -le 40000 ]; then
	echo "ok 0 - a graph of 20 territories laid out compact"
else
	echo "not ok 0 - a graph of 20 territories laid out on more than" \
	    "40000 square pixels each ($a)"
	extra=$((extra + 1))
fi
# Names too long for their circles (territory/names-utf8-long): cut with
# an ellipsis, whole in the circle's title.
c=fixtures/territory/names-utf8-long
if (cd $c && "$arbiter" $(cat args) --svg "$tmp/names.svg" -o /dev/null \
    map.json orders/*) 2>/dev/null &&
    grep -q '>X-Gro[^<]*…</text>' "$tmp/names.svg" &&
    grep -q '<title>X-Großherzogtum-Mecklenburg-Strelitz-Südküste</title>' \
    "$tmp/names.svg"; then
	echo "ok 0 - names too long for their circles cut, whole in a title"
else
	echo "not ok 0 - names too long for their circles not cut ($c)"
	extra=$((extra + 1))
fi
# Each golden picture's PNG (--png): made again from its case, the same
# bytes twice, and compared with Chromium's rendering of the SVG by
# tests/svg.py.
pics= pngbad=0
for c in fixtures/*/*/; do
	[ -f "$c/expected.svg" ] || continue
	n=$(echo "$c" | tr / _)
	key=
	[ -f "$c/umpire.key" ] && key="--secret umpire.key"
	(cd "$c" && "$arbiter" $key $(cat args 2>/dev/null) --png "$tmp/$n.png" \
	    -o /dev/null map.json orders/*.json 2>/dev/null &&
	    "$arbiter" $key $(cat args 2>/dev/null) --png "$tmp/$n.2.png" \
	    -o /dev/null map.json orders/*.json 2>/dev/null)
	if [ -f "$tmp/$n.png" ] && cmp -s "$tmp/$n.png" "$tmp/$n.2.png"; then
		pics="$pics ${c}expected.svg=$tmp/$n.png"
	else
		echo "not ok 0 - ${c}: --png did not give the same bytes twice"
		pngbad=$((pngbad + 1))
	fi
done
"$arbiter" --png "$tmp/demo.png" -o /dev/null $d/map.json $d/orders/*.json
# A PNG of a million pixels or more is compressed in bands, on a second
# thread (lib/format/png.c): the demo 1600 pixels wide, twice and with
# --threads 1, the same bytes, each chunk's CRC and the zlib stream's
# Adler-32 right.
"$arbiter" --png "$tmp/wide.png" --png-width 1600 -o /dev/null \
    $d/map.json $d/orders/*.json &&
    "$arbiter" --png "$tmp/wide.2.png" --png-width 1600 -o /dev/null \
    $d/map.json $d/orders/*.json &&
    "$arbiter" --threads 1 --png "$tmp/wide.3.png" --png-width 1600 \
    -o /dev/null $d/map.json $d/orders/*.json
if cmp -s "$tmp/wide.png" "$tmp/wide.2.png" &&
    cmp -s "$tmp/wide.png" "$tmp/wide.3.png" && python3 -c '
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
i, idat, ihdr = 8, b"", None
while i < len(d):
    n, = struct.unpack(">I", d[i:i + 4])
    t, c = d[i + 4:i + 8], d[i + 8:i + 8 + n]
    assert struct.unpack(">I", d[i + 8 + n:i + 12 + n])[0] == \
        zlib.crc32(t + c) & 0xffffffff
    ihdr = c if t == b"IHDR" else ihdr
    idat += c if t == b"IDAT" else b""
    i += 12 + n
w, h = struct.unpack(">II", ihdr[:8])
assert w == 1600 and w * h >= 1000000
assert len(zlib.decompress(idat)) == h * (1 + 3 * w)
' "$tmp/wide.png"; then
	echo "ok - a PNG in bands (the demo, 1600 pixels wide): the same" \
	    "bytes twice and with one thread, well formed"
else
	echo "not ok 0 - a PNG in bands (the demo, 1600 pixels wide): not" \
	    "the same bytes twice, or not well formed"
	extra=$((extra + 1))
fi
python3 tests/svg.py $pics doc/demo-turn.svg=$tmp/demo.png >"$tmp/out"
status=$?
grep -v '^svg: ' "$tmp/out"
# The parser's count, with the four checks above added (--svg-start, the
# compact layout, names cut, the PNG in bands; the first three counted as
# two before).
sed -n 's/^svg: \([0-9]*\) passed, \([0-9]*\) failed\(.*\)$/\1 \2 \3/p' \
    "$tmp/out" | {
	read -r p f rest
	echo "svg: $((${p:-0} + 4 - extra)) passed," \
	    "$((${f:-1} + extra + pngbad)) failed$rest"
}
[ $status -eq 0 ] && [ $extra -eq 0 ] && [ $pngbad -eq 0 ]
