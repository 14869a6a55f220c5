#!/bin/sh
# Error paths of the command line: exit codes from arbiter(1), messages,
# and outputs written whole or not at all.
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
demo=$top/fixtures/aeonis/demo-turn
tmp=$(mktemp -d) || exit 70
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

# expect STATUS DESCRIPTION COMMAND...: the command exits with STATUS.
expect() {
	want=$1 what=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what: exit $got, expected $want"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
}

# check DESCRIPTION CONDITION...: a shell test that must hold.
check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what"
	fi
}

cd "$demo" || exit 70
expect 0 "--help" "$arbiter" --help
check "--help shows the usage" grep -q '^usage: arbiter' "$tmp/out"
expect 0 "--version" "$arbiter" --version
check "--version names the version" grep -q '^arbiter [0-9]' "$tmp/out"
expect 64 "no arguments" "$arbiter"
check "usage on standard error" grep -q '^usage: arbiter' "$tmp/err"
expect 64 "unknown option" "$arbiter" --frobnicate map.json
expect 64 "--text without --trace-file" "$arbiter" --text map.json
expect 64 "bad seed" "$arbiter" --seed x map.json
expect 64 "two outputs on standard output" "$arbiter" --trace-file - map.json
expect 64 "orders from standard input" "$arbiter" map.json -
expect 66 "missing map" "$arbiter" nosuch.json
check "missing map message" grep -q '^arbiter: cannot open nosuch.json: ' "$tmp/err"
expect 66 "missing orders" "$arbiter" map.json red=nosuch.json
expect 65 "ruleset mismatch" "$arbiter" -r territory map.json
check "ruleset mismatch message" grep -q 'ruleset is "aeonis", not "territory"' "$tmp/err"
# A file bound to a player it does not speak for is refused whole, a
# ruling (issue 12): the bound player's units hold.
expect 0 "orders bound to the wrong player" "$arbiter" map.json blue=orders/red.json
check "refused file bound to blue" grep -q '"player": "blue",' "$tmp/out"
check "wrong_player ruling" grep -q 'orders/red.json:1:[0-9]*: orders of \\"red\\" bound to player \\"blue\\" at /player' "$tmp/out"
expect 65 "--strict: orders bound to the wrong player" "$arbiter" --strict map.json blue=orders/red.json
check "--strict message" grep -qx 'arbiter: orders/red.json:1:[0-9]*: orders of "red" bound to player "blue" at /player' "$tmp/err"
expect 65 "two files for one player" "$arbiter" map.json orders/red.json red=orders/red.json
expect 0 "map from standard input" sh -c "'$arbiter' - orders/*.json <map.json"
"$arbiter" map.json orders/*.json >"$tmp/want" 2>/dev/null
# The same but for the map's name in the files part.
sed 's/"file": "<stdin>"/"file": "map.json"/' "$tmp/out" >"$tmp/out.named"
check "standard input gives the same result" cmp -s "$tmp/out.named" "$tmp/want"
check "standard input is named <stdin>, with the map's SHA-256" grep -q "\"sha256\": \"$(sha256sum <map.json | cut -d' ' -f1)\"" "$tmp/out"
expect 0 "--output" "$arbiter" -o "$tmp/result.json" --next "$tmp/next.json" map.json orders/*.json
check "--output writes the result" cmp -s "$tmp/result.json" "$tmp/want"
check "--next map loads again" sh -c "'$arbiter' '$tmp/next.json' >/dev/null"
check "no temporary files left" test "$(ls "$tmp" | grep -c '\.json\.')" -eq 0
expect 0 "--trace-file" "$arbiter" -o "$tmp/r.json" --trace-file "$tmp/trace.jsonl" map.json orders/*.json
check "trace is JSON Lines" sh -c "head -n 1 '$tmp/trace.jsonl' | grep -q '^{\"ev\": *\"turn\"'"
expect 1 "--check with an illegal order" "$arbiter" --check map.json "$top/tests/data/illegal.json"
expect 0 "--check with legal orders" "$arbiter" --check map.json orders/*.json

# Output files are written whole or not at all.
mkdir "$tmp/ro" && chmod a-w "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect 73 "unwritable output" "$arbiter" -o "$tmp/ro/r.json" map.json
	check "nothing left in the unwritable folder" test -z "$(ls "$tmp/ro")"
fi
expect 73 "output in a missing folder" "$arbiter" -o "$tmp/none/r.json" map.json
echo keep >"$tmp/keep.json"
expect 65 "bad data leaves the old output" "$arbiter" -o "$tmp/keep.json" --strict map.json blue=orders/red.json
check "old output untouched" grep -q keep "$tmp/keep.json"
if [ -w /dev/full ]; then
	expect 73 "standard output full" sh -c "'$arbiter' map.json >/dev/full"
	expect 73 "next map on a full device" "$arbiter" -o "$tmp/r2.json" --next /dev/full map.json
	check "no result when the next map fails" test ! -e "$tmp/r2.json"
	check "/dev/full is still a device" test -c /dev/full
fi

# Inputs have a size limit, passed as soon as it is read past (issue 11).
expect 66 "map over --max-input" "$arbiter" --max-input 100 map.json
check "limit message" grep -qx 'arbiter: map.json: larger than 100 bytes (see --max-input)' "$tmp/err"
expect 66 "orders over --max-input" "$arbiter" --max-input 1k map.json orders/red.json
expect 66 "endless standard input" sh -c "yes | '$arbiter' --max-input 1k -"
check "standard input limit message" grep -qx 'arbiter: <stdin>: larger than 1024 bytes (see --max-input)' "$tmp/err"
# A device is not a regular file: refused at once (issue 26); named on
# purpose as a descriptor, it is read up to the limit.
expect 66 "/dev/zero as the map" "$arbiter" /dev/zero
check "/dev/zero refused at once" grep -qx 'arbiter: /dev/zero: not a regular file (a device)' "$tmp/err"
expect 66 "/dev/zero as the map, through a descriptor" sh -c "'$arbiter' /dev/fd/3 3</dev/zero"
check "default limit message" grep -qx 'arbiter: /dev/fd/3: larger than 67108864 bytes (see --max-input)' "$tmp/err"
expect 0 "--max-input 1M" "$arbiter" --max-input 1M map.json orders/*.json
expect 64 "bad --max-input" "$arbiter" --max-input 12q map.json
expect 64 "zero --max-input" "$arbiter" --max-input 0 map.json

# Names that go into the result must be UTF-8; refused before the turn.
bad=$(printf 'o\377.json')
cp orders/red.json "$tmp/$bad"
expect 64 "orders file name not UTF-8" "$arbiter" -o "$tmp/r3.json" map.json "$tmp/$bad"
check "name escaped in the message" grep -qx "arbiter: $tmp/o\\\\xff.json: file name is not valid UTF-8" "$tmp/err"
check "no result for a bad name" test ! -e "$tmp/r3.json"
cp map.json "$tmp/$bad"
expect 64 "map name not UTF-8" "$arbiter" "$tmp/$bad"
expect 64 "player name not UTF-8" "$arbiter" map.json "$(printf 'red\300\257')=orders/red.json"
check "player message" grep -qx 'arbiter: red\\xc0\\xaf: player name is not valid UTF-8' "$tmp/err"
expect 0 "a UTF-8 orders file name" sh -c "cp orders/red.json '$tmp/ordres-é.json' && '$arbiter' map.json '$tmp/ordres-é.json' >/dev/null"

# A failed write gives the system's reason.
if [ -w /dev/full ]; then
	expect 73 "long result on a full device" "$arbiter" -t -o /dev/full map.json orders/*.json
	check "full device message" grep -qx 'arbiter: cannot write /dev/full: No space left on device' "$tmp/err"
	expect 73 "standard output full, reason" sh -c "'$arbiter' map.json >/dev/full"
	check "standard output message" grep -qx 'arbiter: cannot write standard output: No space left on device' "$tmp/err"
fi

# Refused orders and files (issue 12): rulings, exit 0; --strict fails
# with every problem listed and writes nothing; --check lists them too,
# and --check --text is a report for a mail.
refused=$top/fixtures/aeonis/refused-orders
cd "$refused" || exit 70
expect 0 "refused orders are rulings" "$arbiter" -o "$tmp/ref.json" map.json orders/*.json
check "nothing on standard error without --check" test ! -s "$tmp/err"
check "the result counts them" grep -q '"orders": 11,' "$tmp/ref.json"
expect 65 "--strict with refused orders" "$arbiter" --strict -o "$tmp/strict.json" -n "$tmp/strict-next.json" map.json orders/*.json
check "--strict: every problem, one line each" test "$(grep -c '^arbiter: orders/red.json:[0-9]*:[0-9]*: .* at /orders/[0-9]*' "$tmp/err")" -eq 11
check "--strict: nothing written" test ! -e "$tmp/strict.json" -a ! -e "$tmp/strict-next.json" -a ! -s "$tmp/out"
expect 1 "--check with refused orders" "$arbiter" --check map.json orders/*.json
check "--check: every problem on standard error" test "$(grep -c '^arbiter: orders/red.json:' "$tmp/err")" -eq 11
check "--check: what it assumed" grep -q '"assumed": "the orders given' "$tmp/out"
expect 1 "--check --text" "$arbiter" --check --text map.json orders/*.json
check "--check --text: a report" sh -c "grep -q '^arbiter --check: turn 4 of aeonis' '$tmp/out' && grep -q '^Assumed: ' '$tmp/out' && grep -q '^  order r2: illegal, unknown_unit' '$tmp/out' && grep -q '^  order r13: legal' '$tmp/out' && grep -q '^In all: 4 legal, 11 illegal, 0 failed; 11 orders could not be read, 0 files were refused whole.' '$tmp/out'"
check "--check --text is not JSON" sh -c "! grep -q '^{' '$tmp/out'"
check "--check --text lists the orders files only" sh -c "! grep -q '^map.json' '$tmp/out'"
expect 0 "--strict on a clean turn" "$arbiter" --strict "$demo/map.json" "$demo"/orders/*.json
(cd "$demo" && "$arbiter" map.json orders/*.json) >"$tmp/clean" 2>/dev/null
check "--strict changes nothing on a clean turn" sh -c "sed 's#$demo/##' '$tmp/out' | cmp -s - '$tmp/clean'"
expect 1 "--check with a refused file" "$arbiter" --check "$top/fixtures/aeonis/refused-files/map.json" "$top/fixtures/aeonis/refused-files/orders/red.json"
check "--check: the file's problem" grep -q 'orders/red.json:4:3: not JSON' "$tmp/err"
# A byte-order mark at the start of the map is skipped too.
printf '\357\273\277' >"$tmp/bom-map.json"
cat map.json >>"$tmp/bom-map.json"
expect 0 "a map with a byte-order mark" "$arbiter" -o "$tmp/bom.json" "$tmp/bom-map.json" orders/*.json
"$arbiter" map.json orders/*.json >"$tmp/nobom.json"
# The same result but for the map's entry in files: its name and the
# SHA-256 of its bytes as read, the mark included.
check "the same result as without it" python3 -c "
import hashlib, json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ma, mb = a['files'].pop(0), b['files'].pop(0)
sys.exit(not (a == b and mb['sha256'] ==
    hashlib.sha256(open(sys.argv[3], 'rb').read()).hexdigest()))
" "$tmp/nobom.json" "$tmp/bom.json" "$tmp/bom-map.json"
cd "$demo" || exit 70

# The last turn a map can have has no next map: 65, and nothing written.
last=$top/fixtures/aeonis/r-next-largest-turn-seed/expected.next.json
expect 65 "no next map after the last turn" "$arbiter" -o "$tmp/last.json" -n "$tmp/last-next.json" "$last"
check "last turn message" grep -qx "arbiter: $last: turn 2147483647 is the last a map can have: there is no next map at /turn" "$tmp/err"
check "last turn: nothing written" test ! -e "$tmp/last.json" -a ! -e "$tmp/last-next.json"
expect 0 "the last turn itself is adjudicated" "$arbiter" -o "$tmp/last.json" "$last"

# The umpire's secret (arbiter(1), --new-secret and --secret): made from
# the system's random source, mode 0600, never over an existing file;
# missing is 66, malformed 65 at its place.
fair=$top/fixtures/morne-plaine/d-secret-turn1
expect 0 "--new-secret makes a key" "$arbiter" --new-secret "$tmp/umpire.key"
check "the key is 64 hex digits and a newline" sh -c "[ \$(wc -c <'$tmp/umpire.key') -eq 65 ] && grep -qx '[0-9a-f]\{64\}' '$tmp/umpire.key'"
check "the key is mode 0600" sh -c "ls -l '$tmp/umpire.key' | grep -q '^-rw------- '"
cp "$tmp/umpire.key" "$tmp/first.key"
expect 73 "--new-secret over an existing file" "$arbiter" --new-secret "$tmp/umpire.key"
check "the existing key is kept" cmp -s "$tmp/umpire.key" "$tmp/first.key"
check "refusal message" grep -q "^arbiter: cannot create $tmp/umpire.key: File exists" "$tmp/err"
"$arbiter" --new-secret "$tmp/second.key" 2>/dev/null
check "two keys differ" sh -c "! cmp -s '$tmp/first.key' '$tmp/second.key'"
expect 64 "--new-secret with a map" "$arbiter" --new-secret "$tmp/third.key" map.json
expect 66 "missing secret" "$arbiter" --secret "$tmp/nosuch.key" "$fair/map.json" "$fair"/orders/*.json
check "missing secret message" grep -q "^arbiter: cannot open $tmp/nosuch.key: " "$tmp/err"
printf '78e380d7760c27e953d50e2992af6b675b10121f197fc54d18718891edb7ddz1\n' >"$tmp/bad.key"
expect 65 "malformed secret" "$arbiter" --secret "$tmp/bad.key" "$fair/map.json" "$fair"/orders/*.json
check "malformed secret message" grep -qx "arbiter: $tmp/bad.key:1:63: not a hexadecimal digit: a secret is 64 hexadecimal digits and a newline (arbiter --new-secret makes one)" "$tmp/err"
printf '78e380d7\n' >"$tmp/short.key"
expect 65 "short secret" "$arbiter" --secret "$tmp/short.key" "$fair/map.json" "$fair"/orders/*.json
check "short secret message" grep -qx "arbiter: $tmp/short.key:1:9: 8 digits where a secret has 64: a secret is 64 hexadecimal digits and a newline (arbiter --new-secret makes one)" "$tmp/err"
expect 0 "a new key on a plain map" "$arbiter" --secret "$tmp/umpire.key" -o "$tmp/r.json" -n "$tmp/n.json" "$top/fixtures/morne-plaine/d-secret-starts/map.json" "$fair"/orders/*.json
check "the next map commits" grep -q '"commitment": "[0-9a-f]\{64\}"' "$tmp/n.json"
expect 0 "the next map with the same key" "$arbiter" --secret "$tmp/umpire.key" -o "$tmp/r2.json" "$tmp/n.json"
expect 65 "the next map with another key" "$arbiter" --secret "$tmp/second.key" -o "$tmp/r3.json" "$tmp/n.json"
check "another key: nothing written" test ! -e "$tmp/r3.json"
# The commitment binds the game and the turn: the right key on a map
# whose turn or game was changed is refused too.
sed 's/"turn": 1,/"turn": 2,/' "$fair/map.json" >"$tmp/turn2.json"
expect 65 "a commitment moved to another turn" "$arbiter" --secret "$fair/umpire.key" "$tmp/turn2.json"
check "another turn: the commitment's message" grep -q "the umpire's secret does not give this commitment: another key, or the map's game or turn was changed at /dice/commitment" "$tmp/err"
sed 's/"game": "casebook-fair",/"game": "casebook-fair 2",/' "$fair/map.json" >"$tmp/game2.json"
expect 65 "a commitment moved to another game" "$arbiter" --secret "$fair/umpire.key" "$tmp/game2.json"
expect 0 "the right key, game and turn" "$arbiter" --secret "$fair/umpire.key" -o /dev/null "$fair/map.json"
expect 64 "--secret with --seed" "$arbiter" --secret "$tmp/umpire.key" --seed 3 "$fair/map.json"
expect 64 "--rolls with --seed" "$arbiter" --rolls "$tmp/umpire.key" --seed 3 "$fair/map.json"
expect 66 "missing rolls" "$arbiter" --rolls "$tmp/nosuch.json" "$top/fixtures/morne-plaine/d-rolls/map.json"
printf '[1, 0]\n' >"$tmp/rolls.json"
expect 65 "a roll below 1" "$arbiter" --rolls "$tmp/rolls.json" "$top/fixtures/morne-plaine/d-rolls/map.json"
check "roll below 1 message" grep -qx "arbiter: $tmp/rolls.json:1:5: bad roll 0: expected an integer >= 1 at /1" "$tmp/err"
printf '{"rolls": [1]}\n' >"$tmp/rolls.json"
expect 65 "rolls not an array" "$arbiter" --rolls "$tmp/rolls.json" "$top/fixtures/morne-plaine/d-rolls/map.json"

# A plain make on a machine without jansson (or GMime) says in one line what to
# install (a PATH with no pkg-config stands for such a machine).
mkdir -p "$tmp/bin"
ln -s "$(command -v sh)" "$tmp/bin/sh"
expect 1 "a build without jansson, libsodium, Graphviz, librsvg, libpng or GMime" env PATH="$tmp/bin" sh "$top/tests/deps.sh" --check
check "says what to install" grep -q "^arbiter: cannot build: missing pkg-config libjansson-dev libsodium-dev libgraphviz-dev librsvg2-dev libpng-dev libgmime-3.0-dev; install it (Debian: apt-get install pkg-config libjansson-dev libsodium-dev libgraphviz-dev librsvg2-dev libpng-dev libgmime-3.0-dev)" "$tmp/err"

# --reach (issue 15): the text form, -o written whole, the usage errors,
# an unknown unit with a suggestion, and the open table.
cd "$top/fixtures/aeonis/reach-roads" || exit 70
expect 0 "--reach --text" "$arbiter" --reach r-inf --text map.json
check "--reach --text: one line per cell by label" sh -c '
    [ "$(head -1 "$1")" = "0102 cost 2 left 2 steps 1 from 0101" ] &&
    [ "$(tail -1 "$1")" = "0401 cost 4 left 0 steps 3 from 0301" ] &&
    [ "$(wc -l <"$1")" -eq 6 ]' sh "$tmp/out"
expect 0 "--reach -o" "$arbiter" --reach r-inf -o "$tmp/reach.json" map.json
check "--reach -o writes the document" grep -q '"budget": 4' "$tmp/reach.json"
expect 64 "--reach with --check" "$arbiter" --reach r-inf --check map.json
expect 64 "--reach with --trace-file" "$arbiter" --reach r-inf \
    --trace-file "$tmp/t" map.json
expect 64 "--unit without --reach" "$arbiter" --unit r-inf map.json
expect 64 "--reach with two orders files" "$arbiter" --reach r-inf map.json \
    "$top/fixtures/aeonis/reach-orders/orders/red.json" \
    "$top/fixtures/aeonis/reach-orders/orders/red.json"
expect 65 "--reach of an unknown unit" "$arbiter" --reach r-imf map.json
check "--reach unknown unit message" grep -q \
    'map.json: unknown unit "r-imf" (did you mean "r-inf"?) at /units' "$tmp/err"
expect 65 "--reach of a territory not in the map" "$arbiter" --reach Q \
    "$top/fixtures/territory/reach-conflicts/map.json"
expect 64 "--reach on an open table" "$arbiter" --reach r1 \
    "$top/fixtures/arcane-legions/reach-table/map.json"
check "--reach on an open table message" grep -q 'open table' "$tmp/err"
# The orders file of --reach is played out: one with problems, or another
# player's, gives no answer (review of issue 15).
cd "$top/fixtures/aeonis/reach-orders" || exit 70
echo '{"arbiter":1,"player":"red","turn":9,"orders":[]}' >"$tmp/late.json"
expect 65 "--reach with an orders file of another turn" "$arbiter" \
    --reach r-lord map.json "$tmp/late.json"
check "--reach lists the file's problems, located" grep -q \
    "late.json:1:[0-9]*: orders for turn 9, the map is turn 1 at /turn" \
    "$tmp/err"
printf '{"arbiter":1,"player":"red","turn":1,"orders":[' >"$tmp/cut.json"
expect 65 "--reach with a cut orders file" "$arbiter" \
    --reach r-lord map.json "$tmp/cut.json"
echo '{"arbiter":1,"player":"blue","turn":1,"orders":[]}' >"$tmp/blue.json"
expect 65 "--reach with another player's orders file" "$arbiter" \
    --reach r-lord map.json "$tmp/blue.json"
check "--reach says whose file it is" grep -q \
    "blue.json: the orders file is blue's, and r-lord is red's" "$tmp/err"

# The orders are read before the map and parsed while it loads (issue 17,
# arb_turn_load_map_ahead()): a bad map is still the error, told as when
# it comes alone, whatever the orders files hold or whether they can be
# read; an orders file that cannot be read is told once, in its turn.
cd "$demo" || exit 70
printf '{"arbiter": 1, "ruleset": "aeonis",' >"$tmp/cutmap.json"
sed 's/"board"/"bored"/' map.json >"$tmp/badmap.json"
printf '{"arbiter": 1, "player": "red", "orders": [' >"$tmp/cut.json"
for m in cutmap badmap; do
	"$arbiter" "$tmp/$m.json" >/dev/null 2>"$tmp/alone.err"
	expect 65 "$m.json with orders" "$arbiter" "$tmp/$m.json" \
	    orders/red.json "$tmp/cut.json" orders/blue.json
	check "$m.json with orders: the map's message only" \
	    cmp -s "$tmp/err" "$tmp/alone.err"
	expect 65 "$m.json with an orders file that cannot be read" \
	    "$arbiter" "$tmp/$m.json" orders/red.json nosuch.json
	check "$m.json with a missing orders file: the map's message only" \
	    cmp -s "$tmp/err" "$tmp/alone.err"
	check "$m.json is told at its place" grep -q \
	    "$m.json:[0-9]*:[0-9]*: " "$tmp/alone.err"
done
expect 66 "a missing orders file between two" "$arbiter" map.json \
    orders/red.json nosuch.json orders/blue.json
check "a missing orders file is told once" sh -c \
    "[ \$(grep -c 'cannot open nosuch.json' '$tmp/err') -eq 1 ] &&
    [ \$(wc -l <'$tmp/err') -eq 1 ]"
# A file refused whole and one with a refused order, parsed while the map
# loads: listed in the result's order, as --strict tells them.
expect 65 "--strict: problems of files parsed ahead" "$arbiter" --strict \
    -o "$tmp/strict.json" map.json "$tmp/cut.json" orders/red.json
check "--strict lists the refused file, located" grep -q \
    "cut.json:1:[0-9]*: " "$tmp/err"
expect 0 "a file refused whole is a ruling" "$arbiter" \
    -o "$tmp/ahead.json" map.json orders/red.json "$tmp/cut.json"
expect 0 "the same files in the other order" "$arbiter" \
    -o "$tmp/ahead2.json" map.json "$tmp/cut.json" orders/red.json
check "the result does not depend on the files' order" \
    cmp -s "$tmp/ahead.json" "$tmp/ahead2.json"
# The command line gives up after the map (a ruleset it was not told)
# while the second thread still reads a large orders file: it must stop
# that thread before it frees the texts (it used to free them under it).
awk 'BEGIN { printf "{\"arbiter\": 1, \"player\": \"red\", \"turn\": 1, "
	printf "\"orders\": ["
	for (i = 0; i < 60000; i++)
		printf "%s{\"id\": \"o%d\", \"units\": [\"r-lord\"], " \
		    "\"move\": [\"0101\", \"0102\"]}", i ? ", " : "", i
	print "]}" }' >"$tmp/big.json"
i=0
while [ $i -lt 3 ]; do
	expect 65 "giving up while orders are read ahead ($i)" "$arbiter" \
	    -r territory map.json "$tmp/big.json" orders/red.json
	i=$((i + 1))
done
check "giving up: the ruleset's message" grep -q \
    'ruleset is "aeonis", not "territory"' "$tmp/err"
# An orders file that is a pipe is not read ahead: refused by
# --max-input, it is told as such (it used to be read twice, the second
# time its tail only, and the turn went on).  A named pipe is refused at
# once (issue 26); a pipe is read when named as a descriptor.
mkfifo "$tmp/fifo" || exit 70
timeout 20 sh -c "cat '$tmp/big.json' >'$tmp/fifo'" 2>/dev/null &
expect 66 "a pipe over --max-input" sh -c "timeout 20 '$arbiter' \
    --max-input 100k map.json /dev/fd/3 3<'$tmp/fifo'"
wait
check "a pipe over --max-input: the limit's message" grep -q \
    '/dev/fd/3: larger than 102400 bytes (see --max-input)' "$tmp/err"

# Inputs that are not regular files (issue 26): a named pipe, a directory
# or a device is refused at once, 66, naming the file; nothing waits for
# a writer.  Standard input and a descriptor named on purpose are read.
cd "$demo" || exit 70
mkfifo "$tmp/pipe.json" || exit 70
mkdir "$tmp/dir.json"
fair=$top/fixtures/morne-plaine/d-secret-turn1
for f in pipe dir; do
	expect 66 "$f as the map" timeout 20 "$arbiter" "$tmp/$f.json"
	check "$f as the map: said at once" grep -qx \
	    "arbiter: $tmp/$f.json: not a regular file ($([ $f = pipe ] &&
	    echo a named pipe || echo a directory))" "$tmp/err"
	expect 66 "$f as an orders file" timeout 20 "$arbiter" map.json \
	    orders/red.json "$tmp/$f.json"
	check "$f as an orders file: named" grep -q \
	    "^arbiter: $tmp/$f.json: not a regular file" "$tmp/err"
	expect 66 "$f as --rolls" timeout 20 "$arbiter" --rolls \
	    "$tmp/$f.json" "$top/fixtures/morne-plaine/d-rolls/map.json"
	check "$f as --rolls: named" grep -q \
	    "^arbiter: $tmp/$f.json: not a regular file" "$tmp/err"
	expect 66 "$f as --secret" timeout 20 "$arbiter" --secret \
	    "$tmp/$f.json" "$fair/map.json" "$fair"/orders/*.json
	check "$f as --secret: named" grep -q \
	    "^arbiter: $tmp/$f.json: not a regular file" "$tmp/err"
	expect 66 "$f as --reach's orders" timeout 20 "$arbiter" --reach \
	    r-lord map.json "$tmp/$f.json"
done
expect 66 "a device as the map" "$arbiter" /dev/null
check "a device as the map: named" grep -qx \
    "arbiter: /dev/null: not a regular file (a device)" "$tmp/err"
expect 0 "the map from standard input, a pipe" sh -c \
    "cat map.json | '$arbiter' -o /dev/null - orders/*.json"
expect 0 "the map named as /dev/stdin" sh -c \
    "cat map.json | '$arbiter' -o /dev/null /dev/stdin orders/*.json"
expect 0 "an orders file named as a descriptor, a pipe" sh -c \
    "cat orders/red.json | '$arbiter' -o /dev/null map.json \
    red=/dev/fd/3 orders/blue.json 3<&0"

# An operand that is the same file as the key or the rolls (issue 26: a
# key globbed among the orders files went into everyone's result) is a
# usage error before anything is read: by the same name, another name, a
# hard link or a symbolic link.
mkdir "$tmp/glob" "$tmp/glob/orders"
cp "$fair/umpire.key" "$tmp/glob/umpire.key"
cp "$fair"/orders/*.json "$tmp/glob/orders/"
cp "$tmp/glob/umpire.key" "$tmp/glob/orders/umpire.key"
key8=$(cut -c1-8 "$fair/umpire.key")
for how in same dotted hard soft rolls map; do
	k=$tmp/glob/umpire.key
	ops=$(echo "$tmp/glob/orders"/*.json)
	case $how in
	same)	set -- --secret "$k" "$fair/map.json" $ops "$k" ;;
	dotted)	set -- --secret "$k" "$fair/map.json" $ops \
		    "$tmp/glob/orders/../umpire.key" ;;
	hard)	ln "$k" "$tmp/glob/orders/zz.json"
		set -- --secret "$k" "$fair/map.json" "$tmp/glob/orders"/*.json ;;
	soft)	ln -s ../umpire.key "$tmp/glob/orders/zz.json"
		set -- --secret "$k" "$fair/map.json" "$tmp/glob/orders"/*.json ;;
	rolls)	cp "$top/fixtures/morne-plaine/d-rolls/map.json" "$tmp/glob/m.json"
		printf '[1, 2, 3]\n' >"$tmp/glob/rolls.json"
		set -- --rolls "$tmp/glob/rolls.json" "$tmp/glob/m.json" \
		    "$tmp/glob/rolls.json" ;;
	map)	set -- --secret "$k" "$k" ;;
	esac
	expect 64 "an operand that is the key ($how)" "$arbiter" -o \
	    "$tmp/glob/r.json" "$@"
	check "the key as an operand ($how): said" grep -q \
	    "is the same file as the $([ $how = rolls ] && echo rolls ||
	    echo secret)" "$tmp/err"
	check "the key as an operand ($how): nothing of it shown" sh -c \
	    "! grep -q '$key8' '$tmp/out' '$tmp/err' '$tmp/glob/r.json' 2>/dev/null"
	check "the key as an operand ($how): no result" \
	    test ! -e "$tmp/glob/r.json"
	rm -f "$tmp/glob/orders/zz.json"
done
expect 64 "the key as an operand, the map missing" "$arbiter" --secret \
    "$tmp/glob/umpire.key" nosuch.json "$tmp/glob/umpire.key"

# With --for PLAYER, standard error holds PLAYER's problems only (issue
# 26): another player's refused orders would be quoted to PLAYER.
sed 's/"id": "\([^"]*\)"/"id": "SECRET-\1", "frobnicate": 1/' \
    orders/blue.json >"$tmp/blue-hidden.json"
sed 's/"id": "\([^"]*\)"/"id": "\1", "mine": 1/' \
    orders/red.json >"$tmp/red-own.json"
for mode in --check --strict; do
	"$arbiter" $mode map.json "$tmp/red-own.json" \
	    "$tmp/blue-hidden.json" >/dev/null 2>"$tmp/all.err"
	st=$?
	expect "$st" "--for red $mode" "$arbiter" --for red $mode map.json \
	    "$tmp/red-own.json" "$tmp/blue-hidden.json"
	check "--for red $mode: red's problems" grep -q \
	    "red-own.json:.*unknown member \"mine\"" "$tmp/err"
	check "--for red $mode: no word of blue's file" sh -c \
	    "! grep -q 'blue-hidden\\|SECRET\\|frobnicate' '$tmp/err'"
	check "--for red $mode: without --for, blue's are there" grep -q \
	    'blue-hidden.json' "$tmp/all.err"
	expect "$st" "--for blue $mode" "$arbiter" --for blue $mode map.json \
	    "$tmp/red-own.json" "$tmp/blue-hidden.json"
	check "--for blue $mode: blue's problems, not red's" sh -c \
	    "grep -q 'blue-hidden.json:.*frobnicate' '$tmp/err' &&
	    ! grep -q 'red-own\\|mine' '$tmp/err'"
done

# While the key is in memory the process cannot dump core (issue 26).
# arbiter waits for its map on a pipe after reading the key: its core
# size limit is 0 then; and, run as another user than root, its /proc
# files belong to root (the kernel's sign of a process not dumpable).
mkfifo "$tmp/wait" || exit 70
# dumpable PREFIX...: starts arbiter with the key, waiting on the pipe;
# prints its limits and the owner of its /proc entry.
dumpable() {
	exec 5<>"$tmp/wait"
	"$@" "$arbiter" --secret "$fair/umpire.key" -o /dev/null - \
	    <"$tmp/wait" >/dev/null 2>&1 5>&- &
	pid=$!
	tries=0
	while [ $tries -lt 100 ] && ! grep -q '^Max core file size *0 *0 ' \
	    "/proc/$pid/limits" 2>/dev/null; do
		sleep 0.1
		tries=$((tries + 1))
	done
	grep '^Max core file size' "/proc/$pid/limits" 2>/dev/null
	stat -c 'owner %U' "/proc/$pid/status" 2>/dev/null
	exec 5>&-
	wait $pid
}
if [ -r /proc/self/limits ]; then
	dumpable >"$tmp/dump"
	check "with the key in memory, no core file" grep -q \
	    '^Max core file size *0 *0 ' "$tmp/dump"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		dumpable setpriv --reuid=65534 --regid=65534 --clear-groups \
		    >"$tmp/dump"
		check "with the key in memory, not dumpable" grep -qx \
		    'owner root' "$tmp/dump"
	fi
fi

# The letter's template (issue 27) names the next map by the first 16
# hex digits of its SHA-256, as -n writes it; with the umpire's secret
# too (the next map commits to its dice); none under --check.
for rs in aeonis territory morne-plaine xconq arcane-legions; do
	d=$top/fixtures/$rs/for-player
	expect 0 "$rs: a letter with -n" sh -c 'cd "$1" && shift &&
	    "$@" map.json orders/*.json' sh "$d" "$arbiter" $(cat "$d/args") \
	    --text -n "$tmp/next.json"
	h=$(sha256sum "$tmp/next.json" | cut -c1-16)
	check "$rs: the template's header names the next map ($h)" grep -q \
	    "^arbiter orders [^ ]* turn [0-9]* map $h\$" "$tmp/out"
	check "$rs: the template ends the letter" sh -c \
	    '[ "$(tail -n 1 "$1")" = end ]' sh "$tmp/out"
done
expect 0 "a letter with the umpire's secret" sh -c 'cd "$1" && shift &&
    "$@" map.json orders/*.json' sh "$fair" "$arbiter" --secret umpire.key \
    --for allies --text -n "$tmp/next.json"
h=$(sha256sum "$tmp/next.json" | cut -c1-16)
check "with the secret, the header names the next map ($h)" grep -q \
    "^arbiter orders allies turn 2 map $h\$" "$tmp/out"
d=$top/fixtures/aeonis/for-player
expect 0 "a letter under --check" sh -c 'cd "$1" && shift &&
    "$@" map.json orders/red.json' sh "$d" "$arbiter" --check --for red \
    --text
check "no template under --check" sh -c '! grep -q "^arbiter orders" "$1"' \
    sh "$tmp/out"

# Pictures and rolls past their limits (issue 26): refused before anything
# is drawn or parsed, located in the map or the rolls file, nothing written.
printf '%s\n' '{"arbiter": 1, "ruleset": "aeonis", "turn": 1,' \
    ' "board": {"grid": "hex", "cols": 101, "rows": 100},' \
    ' "players": {"red": {}}}' >"$tmp/wide.json"
# Drawn whole (--svg-region all), it is refused as before issue 29's
# regions; by default it is drawn around what happened (nothing here: the
# first hex and 2 about it, 0101 to 0303).
expect 65 "a board too large to draw" "$arbiter" -o "$tmp/wide.out" \
    --svg-region all --svg "$tmp/wide.svg" "$tmp/wide.json"
check "a board too large to draw: the limit, located" grep -q \
    'wide.json:2:11: board too large to draw: 10100 hexes, at most 10000 in a picture at /board$' \
    "$tmp/err"
check "a board too large to draw: nothing written" \
    test ! -e "$tmp/wide.out" -a ! -e "$tmp/wide.svg"
expect 0 "a board too large to draw, adjudicated" "$arbiter" -o /dev/null \
    "$tmp/wide.json"
expect 0 "a board too large to draw whole: its region" "$arbiter" \
    -o /dev/null --svg "$tmp/wide.svg" --png "$tmp/wide.png" "$tmp/wide.json"
check "a board too large to draw whole: 9 hexes, said" sh -c '
    [ "$(grep -c "class=\"hex\"" "$1")" -eq 9 ] &&
    grep -q ">hexes 001001 to 003003 of 101 x 100: around what happened" "$1"
    ' sh "$tmp/wide.svg"
# A region (--svg-region, issue 29): its form checked as the options are
# read (64), its cells on the board when a picture is drawn (65), both
# naming the option; nothing written.
r=$top/fixtures/aeonis/svg-region-large
for bad in "" ":" "0101:" ":0101" "0101::0202" "a,,b" "a:b,c" "a,b:c" ","; do
	expect 64 "a bad region \"$bad\"" "$arbiter" -o "$tmp/r.out" \
	    --svg-region "$bad" --svg "$tmp/r.svg" "$r/map.json"
	check "a bad region \"$bad\": the option named" grep -q \
	    "^arbiter: bad --svg-region \"$bad\": expected all," "$tmp/err"
done
expect 65 "a region outside the board" "$arbiter" -o "$tmp/r.out" \
    --svg-region 0101:7171 --svg "$tmp/r.svg" "$r/map.json" \
    "$r"/orders/*.json
check "a region outside the board: the hex and the option named" grep -q \
    -- '--svg-region "0101:7171": no hex "7171" on the board' "$tmp/err"
check "a region outside the board: nothing written" \
    test ! -e "$tmp/r.out" -a ! -e "$tmp/r.svg"
expect 65 "a hex board's region of one hex" "$arbiter" -o /dev/null \
    --svg-region 3535 --svg "$tmp/r.svg" "$r/map.json"
check "a hex board's region of one hex: the form said" grep -q \
    -- "--svg-region \"3535\": a hex board's region is two hexes' labels" \
    "$tmp/err"
expect 0 "a large board drawn whole when asked" "$arbiter" -o /dev/null \
    --svg-region all --svg "$tmp/r.svg" "$r/map.json" "$r"/orders/*.json
check "a large board drawn whole when asked: 4900 hexes, no note" sh -c '
    [ "$(grep -c "class=\"hex\"" "$1")" -eq 4900 ] &&
    ! grep -q "around what happened" "$1"' sh "$tmp/r.svg"
expect 0 "a region for a player (--for)" "$arbiter" -o /dev/null \
    --for blue --svg "$tmp/r.svg" "$r/map.json" "$r"/orders/*.json
check "a region for a player: the same 90 hexes" sh -c '
    [ "$(grep -c "class=\"hex\"" "$1")" -eq 90 ] &&
    grep -q ">hexes 3332 to 4141 of 70 x 70: around" "$1"' sh "$tmp/r.svg"
awk 'BEGIN { printf "{\"arbiter\":1,\"ruleset\":\"territory\",\"turn\":1,"
	printf "\"board\":{\"grid\":\"graph\",\n\"territories\":["
	for (i = 0; i < 301; i++)
		printf "%s\"t%d\"", (i > 0 ? "," : ""), i
	print "],\"edges\":[]},\"players\":{\"red\":{}}}" }' >"$tmp/many.json"
expect 65 "a graph too large to lay out" "$arbiter" -o /dev/null \
    --svg "$tmp/many.svg" "$tmp/many.json"
check "a graph too large to lay out: the limit, located" grep -q \
    'many.json:2:15: too many territories to lay out: 301, at most 300 without display.positions' \
    "$tmp/err"
# A background inside the map (a data: image) is drawn; an absolute name
# is refused (issue 26, SV1; the casebook has a URL and a "..").
sed 's|"parchment.svg"|"data:image/png;base64,iVBORw0KGgo="|' \
    "$top/fixtures/territory/svg-display/map.json" >"$tmp/bg.json"
expect 0 "a data: background" "$arbiter" -o /dev/null --svg "$tmp/bg.svg" \
    "$tmp/bg.json"
check "a data: background is drawn" grep -q \
    'xlink:href="data:image/png;base64,iVBORw0KGgo="' "$tmp/bg.svg"
sed 's|"parchment.svg"|"/etc/passwd"|' \
    "$top/fixtures/territory/svg-display/map.json" >"$tmp/bg.json"
expect 65 "an absolute background" "$arbiter" -o /dev/null "$tmp/bg.json"
check "an absolute background: located" grep -q \
    'bg.json:23:19: background "/etc/passwd" is an absolute name' "$tmp/err"
awk 'BEGIN { printf "["; for (i = 0; i <= 1000000; i++)
    printf "%s1", (i > 0 ? ",\n" : ""); print "]" }' >"$tmp/rolls.json"
expect 65 "too many rolls" "$arbiter" -o /dev/null --rolls "$tmp/rolls.json" \
    "$top/fixtures/morne-plaine/d-rolls/map.json" \
    "$top/fixtures/morne-plaine/d-rolls/orders/allies.json" \
    "$top/fixtures/morne-plaine/d-rolls/orders/french.json"
check "too many rolls: the limit, located" grep -q \
    'rolls.json:1000001:1: too many rolls: at most 1000000 at /1000000$' \
    "$tmp/err"

# Orders as text (issue 27), in the demo turn's directory.
printf 'arbiter orders red turn 4\nr1: r-cav-1 0202 0303 0403\n' \
    >"$tmp/red.txt"
printf 'Dear umpire,\nr1: r-cav-1 0202 0303\n' >"$tmp/nohead.txt"
expect 0 "a text bound to the wrong player" "$arbiter" map.json \
    blue="$tmp/red.txt"
check "a text bound to blue: wrong_player at its player's column" grep -q \
    'red.txt:1:16: orders of \\"red\\" bound to player \\"blue\\""$' \
    "$tmp/out"
expect 0 "--orders-json of a text" "$arbiter" --orders-json map.json \
    "$tmp/red.txt"
check "--orders-json: the JSON the text means" grep -q \
    '"move": \[' "$tmp/out"
expect 0 "--orders-text of a JSON file" "$arbiter" --orders-text map.json \
    orders/red.json
check "--orders-text: the header" grep -q '^arbiter orders red turn 4$' \
    "$tmp/out"
check "--orders-text: an order" grep -q '^r2: r-inf-2 attack 0404$' \
    "$tmp/out"
check "--orders-text: the end" sh -c "tail -1 '$tmp/out' | grep -q '^end$'"
# A mail written back (arbiter-orders(5), MAIL; the game's
# acknowledgements quote what it says): the orders of the part that holds
# them, JSON or text, as that part alone would be written.
m=$top/fixtures/aeonis
expect 0 "--orders-text of orders/red.json" "$arbiter" --orders-text \
    map.json orders/red.json
cp "$tmp/out" "$tmp/red.canon"
expect 0 "--orders-json of orders/red.json" "$arbiter" --orders-json \
    map.json orders/red.json
cp "$tmp/out" "$tmp/red.canon.json"
for c in mail-json-attached mail-json-body; do
	expect 0 "--orders-text of a mail with JSON orders ($c)" "$arbiter" \
	    --orders-text map.json "$m/$c/orders/red.eml"
	check "$c: the text of the JSON it holds" \
	    cmp -s "$tmp/red.canon" "$tmp/out"
	expect 0 "--orders-json of a mail with JSON orders ($c)" "$arbiter" \
	    --orders-json map.json "$m/$c/orders/red.eml"
	check "$c: the JSON it holds" cmp -s "$tmp/red.canon.json" "$tmp/out"
done
expect 0 "--orders-text of a mail with text orders" "$arbiter" \
    --orders-text "$m/mail-text-plain/map.json" \
    "$m/mail-text-plain/orders/red.eml"
check "a text mail: its header first" \
    sh -c "head -1 '$tmp/out' | grep -q '^arbiter orders red turn '"
expect 65 "--orders-text of a mail that holds no orders" "$arbiter" \
    --orders-text "$m/mail-no-orders/map.json" \
    "$m/mail-no-orders/orders/red.eml"
check "no orders in the mail: said as the turn says it, at the mail" \
    grep -q 'red.eml:1:1: no part of the mail holds orders' "$tmp/err"
expect 65 "--orders-json of a text with no header" "$arbiter" --orders-json \
    map.json "$tmp/nohead.txt"
check "no header: located, says what the header looks like" grep -q \
    'nohead.txt:1:1: no header: an orders text begins with a line "arbiter orders PLAYER turn N' \
    "$tmp/err"
expect 64 "--orders-json without an orders file" "$arbiter" --orders-json \
    map.json
expect 64 "--orders-text with other options" "$arbiter" --orders-text -t \
    map.json orders/red.json
expect 1 "--check on a text with a bad line" "$arbiter" --check map.json \
    "$tmp/nohead.txt" "$tmp/red.txt"
check "--check: a text's problem on standard error without a pointer" \
    sh -c "grep -q 'nohead.txt:1:1: no header' '$tmp/err' &&
    ! grep -q ' at /' '$tmp/err'"

# A check that says depends_on_orders (issue 28): the run rules it either
# way, by the other player's orders.  morne-plaine: r-inf is short only
# the 1 MP of leaving g-inf's zone (k-check-depends-zoc-cost).
zc=$top/fixtures/morne-plaine/k-check-depends-zoc-cost
printf '{ "arbiter": 1, "player": "blue", "turn": 1, "orders": [ { "id": "b1", "units": ["g-inf"], "move": ["0404", "0505", "0506"] } ] }\n' >"$tmp/blue-away.json"
printf '{ "arbiter": 1, "player": "blue", "turn": 1, "orders": [] }\n' >"$tmp/blue-holds.json"
"$arbiter" "$zc/map.json" "$zc/orders/red.json" "$tmp/blue-away.json" >"$tmp/zc1" 2>&1
check "depends_on_orders, morne-plaine: g-inf moved away, r1 done for 4 MP" \
    grep -q '"message": "r-inf moved 0304 to 0102 for 4 MP, 0 left' "$tmp/zc1"
"$arbiter" "$zc/map.json" "$zc/orders/red.json" "$tmp/blue-holds.json" >"$tmp/zc2" 2>&1
check "depends_on_orders, morne-plaine: g-inf holds, r1 insufficient_mp" \
    grep -q '"reason": "insufficient_mp"' "$tmp/zc2"

echo "error paths: $pass passed, $fail failed"
[ $fail -eq 0 ]
