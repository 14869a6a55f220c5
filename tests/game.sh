#!/bin/sh
# arbiter game (arbiter-game(1), issue 31): a game of 3 players and 4 turns
# in aeonis and in morne-plaine (committed dice), played by mail; a redo;
# verify; a run killed at each of its steps; a full disk; idempotence;
# hostile mail.
#
# What is expected, worked out by hand before the run (aeonis, game g1,
# red r-inf-1 at 0101, blue b-inf-1 at 0606, green g-inf-1 at 0106, 4 AP
# each; new at 2026-12-01T10:00:00Z, period 7 days):
# - new: turn 1 opens, deadline 2026-12-08T10:00:00Z.
# - (the mails are received at 13:00)
# - red's first mail (Date 11:00) orders r-inf-9, which is no unit: its
#   ack is "orders received, with problems", says "1 problem" and
#   "1 of 3 players have sent orders"; the canonical echo holds
#   "r2: r-inf-9 move 0101 0102".
# - red's second mail (Date 12:00) corrects it: "These orders now count
#   for turn 1, in place of those you sent before", "No problems found.",
#   still 1 of 3.
# - blue's JSON mail: ready, "2 of 3".
# - red's first mail again: filed already, nothing changes.
# - a mail from red dated 10:30 arriving last: "an older mail, not used",
#   the ack says "an older mail arriving late does not replace a newer
#   one"; orders/red.eml is still the 12:00 mail.
# - an unknown sender: aside/*.why says "unknown sender", the umpire gets
#   an "aside" mail.
# - status: red ready, blue ready, green no orders; "2 of 3".
# - run before the deadline: "runs at its deadline", no byte changes.
# - run --preview: preview/0001, one mail to the umpire alone.
# - run at the deadline: turn 1 run, 4 mails (3 letters, the summary);
#   green's letter says "No orders received: your units held." and every
#   letter's mail says "No orders received from: green".  Run again: no
#   byte changes (turn 2's deadline is a week on).
# - turns 2 to 4 with --now; red's turn-2 mail is a reply quoting the
#   letter.  redo 2: turns/0002 to 0005 go to redone/, turn 3 opens,
#   "redone": 1, the mails are of kind "redo".  verify: every turn ok;
#   a changed result byte: not ok, exit 1.
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
data=$top/tests/data/game
tmp=$(mktemp -d) || exit 70
[ -n "$GAME_KEEP" ] || trap 'rm -rf "$tmp"' EXIT INT TERM
[ -n "$GAME_KEEP" ] && echo "# kept in $tmp"
pass=0 fail=0
export ARB_GAME_NOW=2026-12-01T10:00:00Z
unset ARB_GAME_FAIL_AT

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
		sed 's/^/# /' "$tmp/out" "$tmp/err" | head -8
	fi
}

check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what"
		sed 's/^/# /' "$tmp/out" "$tmp/err" 2>/dev/null | head -8
	fi
}

# The folder's bytes: every file's SHA-256, by name (the staging folder
# of a killed command aside).
snap() {
	(cd "$1" && find . -path ./.stage -prune -o -type f -print | sort |
	    xargs sha256sum)
}

# mail FROM DATE SUBJECT BODY-FILE: a mail on standard output.
mail() {
	printf 'From: %s\nTo: umpire@example.org\nDate: %s\nSubject: %s\n' \
	    "$1" "$2" "$3"
	printf 'Message-ID: <%s.%s@example.org>\nMIME-Version: 1.0\n' \
	    "$(echo "$1$2$3" | cksum | cut -d' ' -f1)" "$$"
	printf 'Content-Type: text/plain; charset=utf-8\n\n'
	cat "$4"
}

# field N KEY: a member of outbox/N.json.
field() {
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = d[sys.argv[2]]
print(v if isinstance(v, str) else json.dumps(v))' "$G/outbox/$1.json" "$2"
}

cd "$tmp" || exit 70
G=$tmp/g1

# new
expect 0 "new" "$arbiter" game new "$G" "$data/aeonis.json" \
    --player red=red@example.org --player blue=Blue@Example.org \
    --player green=green@example.org --umpire umpire@example.org \
    --game g1
check "new: turn 1 and its deadline" grep -q \
    'turn 1 opens, deadline 2026-12-08T10:00:00Z' "$tmp/out"
check "new: the history page" grep -q 'turn 1 is open' "$G/index.html"
check "new: the key is 0600" test "$(stat -c %a "$G/umpire.key")" = 600
check "new: the map commits to its dice" grep -q commitment \
    "$G/turns/0001/map.json"
# The opening mails: one a player, the map attached, a template bound to
# it; a player's reply to one, keeping its subject, is filed as orders.
check "new: 3 opening mails queued" test "$(ls "$G/outbox" | tr '\n' ' ')" = \
    "000001.json 000002.json 000003.json "
check "new: the opening mail's subject" test "$(field 000001 subject)" = \
    "[g1 turn 1] the game begins: your orders for turn 1"
check "new: to red" test "$(field 000001 to)" = '["red@example.org"]'
check "new: kind open" test "$(field 000001 kind)" = open
check "new: the map attached" grep -q '"file": "turns/0001/map.json"' \
    "$G/outbox/000001.json"
field 000001 body >open1
check "new: the deadline told" grep -q 'before 2026-12-08T10:00:00Z' open1
check "new: the template, bound to the map" grep -q \
    "^arbiter orders red turn 1 map $(sha256sum "$G/turns/0001/map.json" |
    cut -c1-16)\$" open1
check "new: red's units listed" grep -q '^# r-inf-1 ' open1
check "new: blue's mail is blue's" sh -c \
    "grep -q 'You play blue' '$G/outbox/000002.json'"
expect 73 "new over a game" "$arbiter" game new "$G" "$data/aeonis.json" \
    --player red=a@b.c --player blue=a@b.d --player green=a@b.e
expect 64 "new: a player without an address" "$arbiter" game new \
    "$tmp/g0" "$data/aeonis.json" --player red=a@b.c
mkdir "$tmp/full" && : >"$tmp/full/notes"
expect 73 "new in a folder with other files" "$arbiter" game new \
    "$tmp/full" "$data/aeonis.json" --player red=a@b.c --player blue=a@b.d \
    --player green=a@b.e
check "new in a folder with other files: nothing written" test \
    "$(ls -A "$tmp/full")" = notes
# The game's name is the subject tag filters match: ASCII.
expect 64 "new: a name that is no subject tag" "$arbiter" game new \
    "$tmp/jeu-été" "$data/aeonis.json" --player red=a@b.c \
    --player blue=a@b.d --player green=a@b.e
check "a name that is no subject tag: said why, nothing made" sh -c \
    "grep -q 'subject tag: up to 64 printable ASCII' '$tmp/err' &&
    test ! -e '$tmp/jeu-été'"
expect 0 "new: a non-ASCII folder, an ASCII --game" "$arbiter" game new \
    "$tmp/jeu-été" "$data/aeonis.json" --player red=a@b.c \
    --player blue=a@b.d --player green=a@b.e --game jeu-ete
# A new that fails leaves nothing: no folder it made, no lock.
expect 64 "new: one address for two players" "$arbiter" game new \
    "$tmp/dup" "$data/aeonis.json" --player red=a@b.c --player blue=A@b.c \
    --player green=a@b.e
check "one address for two players: both named" grep -q \
    'player red=a@b.c and --player blue=A@b.c: one address for two' \
    "$tmp/err"
check "one address for two players: no folder left" test ! -e "$tmp/dup"
mkdir "$tmp/empty"
expect 64 "new: a name that is no player's" "$arbiter" game new \
    "$tmp/empty" "$data/aeonis.json" --player red=a@b.c --player blue=a@b.d \
    --player green=a@b.e --player mauve=a@b.f
check "new refused in an empty folder: no lock left" test -z \
    "$(ls -A "$tmp/empty")"
echo '{ "arbiter": 1,' >"$tmp/bad.json"
expect 65 "new: a map that is no JSON" "$arbiter" game new "$tmp/badmap" \
    "$tmp/bad.json" --player red=a@b.c
check "new: a map that is no JSON: no folder left" test ! -e "$tmp/badmap"
check "the failure's last line names the game, options after it" \
    grep -q "game new $tmp/badmap: exit 65" "$tmp/err"
expect 66 "receive into no folder, an option after it" "$arbiter" game \
    receive "$tmp/nonexistent" --max-size 100000 </dev/null
check "the failure's last line names the folder, not the option's value" \
    grep -q "game receive $tmp/nonexistent: exit 66" "$tmp/err"
sed 's/"green"/".green"/g' "$data/aeonis.json" >dotted.json
expect 65 "new: a player's name that cannot name a file" "$arbiter" game \
    new "$tmp/g2" dotted.json --player red=a@b.c --player blue=a@b.d \
    --player .green=a@b.e
check "new refused: no game" test ! -e "$tmp/g2/game.json"
expect 64 "new: a bad address" "$arbiter" game new "$tmp/g3" \
    "$data/aeonis.json" --player red='a@b.c>, evil@x' --player blue=a@b.d \
    --player green=a@b.e
expect 0 "--help" "$arbiter" game --help
check "--help: every command" test "$(grep -c 'arbiter game' "$tmp/out")" = 7
expect 64 "no command" "$arbiter" game
expect 64 "an unknown command" "$arbiter" game frobnicate "$G"
expect 66 "not a game folder" "$arbiter" game status "$tmp"
# A date that is none is refused, not carried into the next month.
expect 64 "new: --deadline 2026-02-30" "$arbiter" game new "$tmp/dl" \
    "$data/aeonis.json" --player red=a@b.c --player blue=a@b.d \
    --player green=a@b.e --deadline 2026-02-30T12:00:00Z
check "new: --deadline 2026-02-30: nothing made" test ! -e "$tmp/dl"
expect 64 "ARB_GAME_NOW in month 13" env ARB_GAME_NOW=2026-13-01T00:00:00Z \
    "$arbiter" game status "$G"

# receive, three hours later (a mail is no later than its receipt)
export ARB_GAME_NOW=2026-12-01T13:00:00Z
printf 'Hello umpire,\n\narbiter orders red turn 1\nr1: r-inf-1 move 0101 0102\nr2: r-inf-9 move 0101 0102\n' >r1.txt
mail red@example.org 'Tue, 01 Dec 2026 11:00:00 +0000' 'my orders' r1.txt \
    >r1.eml
expect 0 "receive red's first mail" "$arbiter" game receive "$G" <r1.eml
check "ack 1: with problems" test "$(field 000004 subject)" = \
    "[g1 turn 1] orders received, with problems"
field 000004 body >ack1
check "ack 1: the orders as understood" grep -q \
    '^  r2: r-inf-9 move 0101 0102$' ack1
check "ack 1: 1 problem" grep -q '^1 problem: ' ack1
check "ack 1: unknown_unit" grep -q 'order r2: illegal, unknown_unit' ack1
check "ack 1: 1 of 3" grep -q '^1 of 3 players have sent orders' ack1
check "ack 1: to red, in reply" test "$(field 000004 to)" = \
    '["red@example.org"]'
check "ack 1: In-Reply-To" grep -q '@example.org>' "$G/outbox/000004.json"

printf 'arbiter orders red turn 1\nr1: r-inf-1 move 0101 0102\nend\n' >r2.txt
mail red@example.org 'Tue, 01 Dec 2026 12:00:00 +0000' 'corrected' r2.txt \
    >r2.eml
expect 0 "receive red's correction" "$arbiter" game receive "$G" <r2.eml
field 000005 body >ack2
check "ack 2: replaces" grep -q 'in place of those you sent before' ack2
check "ack 2: no problems" grep -q '^No problems found' ack2
check "ack 2: 1 of 3" grep -q '^1 of 3 players' ack2
check "orders/red.eml is the correction" cmp -s r2.eml \
    "$G/turns/0001/orders/red.eml"

cat >b1.txt <<'EOF'
{ "arbiter": 1, "player": "blue", "turn": 1,
  "orders": [ { "id": "b1", "units": ["b-inf-1"],
                "move": ["0606", "0605"] } ] }
EOF
mail 'Blue <blue@example.org>' 'Tue, 01 Dec 2026 12:30:00 +0000' 'json' \
    b1.txt >b1.eml
expect 0 "receive blue's JSON mail" "$arbiter" game receive "$G" <b1.eml
field 000006 body >ack3
check "ack 3: JSON read, ready" grep -q '^No problems found' ack3
check "ack 3: 2 of 3" grep -q '^2 of 3 players' ack3
check "ack 3: the JSON orders as understood, as text" grep -q \
    '^  b1: b-inf-1 move 0606 0605$' ack3

snap "$G" >before
expect 0 "the same mail twice" "$arbiter" game receive "$G" <r1.eml
check "the same mail twice: filed once" grep -q 'filed already' "$tmp/out"
snap "$G" >after
check "the same mail twice: no byte changes" cmp -s before after

mail red@example.org 'Tue, 01 Dec 2026 10:30:00 +0000' 'early bird' r1.txt \
    >r0.eml
expect 0 "an older mail, late" "$arbiter" game receive "$G" <r0.eml
field 000007 body >ack4
check "ack 4: an older mail" test "$(field 000007 subject)" = \
    "[g1 turn 1] an older mail, not used"
check "ack 4: says so" grep -q 'an older mail arriving late does not' ack4
check "ack 4: its problems are not to be corrected" grep -q \
    '^1 problem in this older mail' ack4
check "ack 4: its problem named at the file it is kept as" sh -c \
    "grep -q 'mail/[0-9TZ]*-[0-9a-f]*.eml:' ack4 && ! grep -q 'orders/red.eml' ack4"
check "an older mail: the newer still counts" cmp -s r2.eml \
    "$G/turns/0001/orders/red.eml"

mail stranger@example.net 'Tue, 01 Dec 2026 13:00:00 +0000' 'hi' r2.txt \
    >u.eml
expect 0 "an unknown sender" "$arbiter" game receive "$G" <u.eml
check "unknown sender: filed aside" grep -q 'unknown sender' "$G"/aside/*.why
check "unknown sender: the umpire told" test "$(field 000008 kind)" = aside
check "unknown sender: to the umpire" test "$(field 000008 to)" = \
    '["umpire@example.org"]'
# The game's own mail come back (its From is the game's), and a mail
# made by a program (Auto-Submitted: auto-replied, RFC 3834, here from a
# player's address): filed aside, not answered, so that no two programs
# write to each other for ever.
nq=$(ls "$G/outbox" | wc -l)
mail umpire@example.org 'Tue, 01 Dec 2026 13:01:00 +0000' \
    '[g1 turn 1] a mail filed aside' r2.txt >own.eml
expect 0 "the game's own mail" "$arbiter" game receive "$G" <own.eml
mail blue@example.org 'Tue, 01 Dec 2026 13:02:00 +0000' 'Out of office' \
    r2.txt | sed 's/^MIME-Version/Auto-Submitted: auto-replied\
MIME-Version/' >auto.eml
expect 0 "an automatic reply" "$arbiter" game receive "$G" <auto.eml
check "the game's own and automatic mail: filed aside" test "$(grep -l \
    "not answered" "$G"/aside/*.why | wc -l)" -eq 2
check "the game's own and automatic mail: nothing queued" test \
    "$(ls "$G/outbox" | wc -l)" -eq "$nq"
# A mail of 3000 orders, each refused: its acknowledgement lists 400
# lines of each part and says how many more, so that send takes it (the
# whole report made a description over send's 4 MB for 60000 orders).
cp -R "$G" "$tmp/gb"
{ printf 'arbiter orders blue turn 1\n'
  i=0; while [ $i -lt 3000 ]; do
	printf 'b%d: b-inf-9 move 0606 0605\n' $i; i=$((i + 1)); done
  printf 'end\n'; } >big.txt
mail blue@example.org 'Tue, 01 Dec 2026 13:05:00 +0000' 'orders' big.txt \
    >big.eml
expect 0 "3000 orders refused: acknowledged" "$arbiter" game receive \
    "$tmp/gb" <big.eml
check "3000 orders refused: the acknowledgement capped, said" grep -q \
    'and 2[0-9]* more lines (arbiter --check gives them all)' \
    "$tmp/gb/outbox/$(ls "$tmp/gb/outbox" | tail -n 1)"
check "3000 orders refused: the acknowledgement under 200 KB" test \
    "$(wc -c <"$tmp/gb/outbox/$(ls "$tmp/gb/outbox" | tail -n 1)")" \
    -lt 204800
# The open turn's map spoilt (the umpire's hand): a player's mail is filed
# aside and the umpire told, not bounced (65 without filing it, before).
cp -R "$G" "$tmp/gs"
printf '{"arbiter": 1,\n' >"$tmp/gs/turns/0001/map.json"
mail red@example.org 'Tue, 01 Dec 2026 13:04:00 +0000' 'orders' r2.txt \
    >sp.eml
expect 0 "a spoilt map: the mail filed aside" "$arbiter" game receive \
    "$tmp/gs" <sp.eml
check "a spoilt map: why" grep -q 'not read: the open turn (turns/0001)' \
    "$tmp"/gs/aside/*.why
expect 65 "a spoilt map: run" "$arbiter" game run "$tmp/gs" --now
check "a spoilt map: run names the game" grep -q \
    "game run $tmp/gs: exit 65 (the messages above are of this game)" \
    "$tmp/err"
check "a spoilt map: its place named in the game (turns/0001/map.json:2:1)" \
    grep -q "turns/0001/map.json:2:1: " "$tmp/err"
# A Message-ID that send would refuse as an In-Reply-To ('\\' inside):
# the acknowledgement answers it without one, so that it can be sent.
cp -R "$G" "$tmp/gm"
mail green@example.org 'Tue, 01 Dec 2026 13:03:00 +0000' 'orders' r2.txt |
    sed 's/^Message-ID: .*/Message-ID: <a\\b@example.org>/' >bs.eml
expect 0 "a Message-ID with a backslash" "$arbiter" game receive "$tmp/gm" \
    <bs.eml
check "a Message-ID with a backslash: no In-Reply-To" test -z "$(python3 -c \
    'import json, sys; print(json.load(open(sys.argv[1])).get("in_reply_to") or "")' \
    "$tmp/gm/outbox/$(ls "$tmp/gm/outbox" | tail -n 1)")"

expect 0 "status" "$arbiter" game status "$G"
cp "$tmp/out" status1
check "status: red ready" grep -qx '  red: ready' status1
check "status: blue ready" grep -qx '  blue: ready' status1
check "status: green none" grep -qx '  green: no orders' status1
check "status: 2 of 3" grep -q '^2 of 3 players have sent orders' status1

# run before the deadline; preview; run at it; run again.
snap "$G" >before
expect 0 "run before the deadline" "$arbiter" game run "$G"
check "run before the deadline: says when" grep -q \
    'runs at its deadline, 2026-12-08T10:00:00Z' "$tmp/out"
snap "$G" >after
check "run before the deadline: no byte changes" cmp -s before after
expect 0 "preview" "$arbiter" game run "$G" --preview
check "preview: the umpire's alone" test "$(field 000009 to)" = \
    '["umpire@example.org"]'
check "preview: kind" test "$(field 000009 kind)" = preview
check "preview: no 10th mail" test ! -e "$G/outbox/000010.json"
check "preview: the turn still open" grep -q '"turn": 1,' "$G/game.json"
check "preview: letters" test -s "$G/preview/0001/players/green/letter.txt"
# A second preview replaces the first, and its mail the first's, still
# queued (it would have gone out with the second's files).
cp -R "$G" "$tmp/gp"
expect 0 "preview again" "$arbiter" game run "$tmp/gp" --preview
check "preview again: one preview mail queued" test "$(grep -l \
    '"kind": "preview"' "$tmp"/gp/outbox/*.json | wc -l)" -eq 1

export ARB_GAME_NOW=2026-12-08T10:00:00Z
cp -R "$G" "$tmp/g1-open"	# for the failures below
expect 0 "run at the deadline" "$arbiter" game run "$G"
check "run: turn 2 opens" grep -q 'turn 2 opens, deadline 2026-12-15T10:00:00Z' \
    "$tmp/out"
check "run: the turn's preview withdrawn, its folder and its mail" sh -c \
    "test ! -e '$G/preview/0001' &&
    ! grep -q '\"kind\": \"preview\"' '$G'/outbox/*.json"
check "run: 4 mails" test -e "$G/outbox/000013.json" -a \
    ! -e "$G/outbox/000014.json"
check "run: green told in its letter" grep -q \
    '^No orders received: your units held.' \
    "$G/turns/0001/players/green/letter.txt"
for n in 000010 000011 000012; do
	field $n body >letter
	check "run: letter $n names who sent none" grep -q \
	    '^No orders received from: green (their units held)' letter
	check "run: letter $n says when the next orders are due" grep -q \
	    '^Orders for turn 2 are due by 2026-12-15T10:00:00Z' letter
done
check "run: the summary" grep -q '^No orders received from: green' \
    "$G/turns/0001/summary.txt"
check "run: the page" grep -q 'turns/0001/turn.png' "$G/index.html"
check "run: result and next map" test -s "$G/turns/0001/result.json" -a \
    -s "$G/turns/0002/map.json"
for f in result.json trace.txt trace.jsonl turn.svg turn.png summary.txt \
    players/red/letter.txt players/red/report.json players/red/turn.svg \
    players/red/turn.png players/red/next.json players/red/next.svg \
    players/red/next.png; do
	check "run: $f" test -s "$G/turns/0001/$f"
done
snap "$G" >before
expect 0 "run again" "$arbiter" game run "$G"
expect 0 "run again, a third time" "$arbiter" game run "$G"
snap "$G" >after
check "run twice: no byte changes" cmp -s before after

# Turn 2: red replies to its letter, quoting it; blue in text.
{
	echo 'Thanks, here are my orders.'
	echo
	sed -n '/^arbiter orders red turn 2/,$p' \
	    "$G/turns/0001/players/red/letter.txt" | sed '$d'
	echo 'r-inf-1 move 0102 0103'
	echo end
	echo
	sed 's/^/> /' "$G/turns/0001/players/red/letter.txt"
} >r3.txt
mail red@example.org 'Tue, 08 Dec 2026 11:00:00 +0000' 'Re: [g1 turn 1]' \
    r3.txt >r3.eml
export ARB_GAME_NOW=2026-12-08T12:00:00Z
expect 0 "a reply quoting the letter" "$arbiter" game receive "$G" <r3.eml
field 000014 body >ack5
check "the reply: read" grep -q '^No problems found' ack5
printf 'arbiter orders blue turn 2\nb-inf-1 move 0605 0604\n' >b2.txt
mail blue@example.org 'Tue, 08 Dec 2026 11:30:00 +0000' 'o' b2.txt >b2.eml
expect 0 "blue turn 2" "$arbiter" game receive "$G" <b2.eml
# red's turn-1 mail again, now late: a turn already run.
mail red@example.org 'Tue, 08 Dec 2026 11:40:00 +0000' 'late' r2.txt >r4.eml
expect 0 "orders for a turn already run" "$arbiter" game receive "$G" <r4.eml
check "a turn already run: aside" grep -q 'turn already run' "$G"/aside/*.why
# blue's turn-1 JSON mail again, now late: aside too, and blue's turn-2
# orders stand.
mail 'Blue <blue@example.org>' 'Tue, 08 Dec 2026 11:45:00 +0000' 'json, late' \
    b1.txt >b4.eml
expect 0 "JSON orders for a turn already run" "$arbiter" game receive "$G" \
    <b4.eml
check "JSON orders for a turn already run: aside" test \
    "$(grep -l 'turn already run' "$G"/aside/*.why | wc -l)" -eq 2
check "JSON orders for a turn already run: blue's turn 2 stands" \
    cmp -s b2.eml "$G/turns/0002/orders/blue.eml"
expect 0 "run turn 2" "$arbiter" game run "$G" --now
# green's clock is 73 years ahead; its next mail, dated right, still
# replaces it (a mail is no later than its receipt).
printf 'arbiter orders green turn 3\ng-inf-1 move 0106 0105\n' >g1.txt
mail green@example.org 'Fri, 01 Jan 2100 00:00:00 +0000' 'future' g1.txt \
    >g1.eml
expect 0 "a mail from the future" "$arbiter" game receive "$G" <g1.eml
printf 'arbiter orders green turn 3\ng-inf-1 move 0106 0206\n' >g2.txt
mail green@example.org 'Tue, 08 Dec 2026 12:10:00 +0000' 'now' g2.txt \
    >g2.eml
export ARB_GAME_NOW=2026-12-08T12:30:00Z
expect 0 "a mail after the one from the future" "$arbiter" game receive \
    "$G" <g2.eml
check "a mail after the one from the future: it counts" cmp -s g2.eml \
    "$G/turns/0003/orders/green.eml"
expect 0 "run turn 3" "$arbiter" game run "$G" --now
expect 0 "run turn 4" "$arbiter" game run "$G" --now
check "4 turns run" grep -q '"turn": 5,' "$G/game.json"
expect 0 "verify" "$arbiter" game verify "$G"
check "verify: 4 ok" test "$(grep -c '^ok turn' "$tmp/out")" = 4
cp -R "$G" "$tmp/bad"
sed -i 's/"turn": 2,/"turn": 2 ,/' "$tmp/bad/turns/0002/result.json"
expect 1 "verify: a changed result" "$arbiter" game verify "$tmp/bad"
check "verify: names the turn" grep -q '^not ok turn 2' "$tmp/out"
# A result removed, and game.json set back to turn 1: not ok either
# (both passed: the first as a turn before the game, the second as a game
# with no turn run).
rm -rf "$tmp/bad" && cp -R "$G" "$tmp/bad"
rm "$tmp/bad/turns/0001/result.json"
expect 1 "verify: a result removed" "$arbiter" game verify "$tmp/bad"
check "verify: a result removed: named" grep -q \
    '^not ok turn 1: no turns/0001/result.json' "$tmp/out"
rm -rf "$tmp/bad" && cp -R "$G" "$tmp/bad"
sed -i 's/"turn": 5,/"turn": 1,/' "$tmp/bad/game.json"
expect 1 "verify: game.json set back" "$arbiter" game verify "$tmp/bad"
check "verify: game.json set back: named" grep -q \
    '^not ok turn 2: in turns/, but game.json says turn 1 is open' \
    "$tmp/out"

# redo 2
# red's orders for turn 5, acknowledged, the ack still queued: redo 2
# withdraws it with turn 5 (its orders go aside with the turn).
printf 'arbiter orders red turn 5\nend\n' >r5.txt
mail red@example.org 'Wed, 09 Dec 2026 09:00:00 +0000' 'o5' r5.txt >r5.eml
ARB_GAME_NOW=2026-12-09T09:30:00Z "$arbiter" game receive "$G" <r5.eml \
    >/dev/null
expect 64 "redo: no turn" "$arbiter" game redo "$G"
expect 65 "redo of the open turn" "$arbiter" game redo "$G" 5
export ARB_GAME_NOW=2026-12-09T10:00:00Z
# The umpire corrects blue's turn-2 orders, in place: one order more.
cp -R "$G/turns/0002/mail" "$tmp/mail2.before"
echo 'b2: b-inf-1 move 0604 0603' >>"$G/turns/0002/orders/blue.eml"
expect 0 "redo 2" "$arbiter" game redo "$G" 2
check "redo: the correction ruled" python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(sum(o["player"] == "blue" for o in r["orders"]) != 2)' \
    "$G/turns/0002/result.json"
check "redo: the old ruling kept" python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(sum(o["player"] == "blue" for o in r["orders"]) != 1)' \
    "$G/redone/0002-20261209T100000Z/result.json"
check "redo: the mails as received" diff -r "$tmp/mail2.before" \
    "$G/turns/0002/mail"
check "redo: turn 3 open" grep -q '"turn": 3,' "$G/game.json"
check "redo: counted" grep -q '"redone": 1' "$G/game.json"
check "redo: the old turns kept" test -d "$G/redone/0002-20261209T100000Z" \
    -a -d "$G/redone/0004-20261209T100000Z" \
    -a -d "$G/redone/0005-20261209T100000Z"
check "redo: turn 2 again" test -s "$G/turns/0002/result.json" -a \
    ! -e "$G/turns/0004"
last=$(ls "$G/outbox" | tail -n 1 | sed 's/.json$//')
check "redo: the mails say so" test "$(field "$last" kind)" = redo
check "redo: the letters say so" grep -q 're-ran this turn' \
    "$G/outbox/$(ls "$G/outbox" | tail -n 2 | head -n 1)"
# The mails still queued for the turns redone went aside with them:
# every queued mail's files are there, and none tells of turn 2 or later
# as it was.
check "redo: the old turns' queued mails aside" test -n "$(ls \
    "$G"/redone/outbox-*/ 2>/dev/null)"
python3 - "$G" >"$tmp/out" 2>&1 <<'PY'
import json, os, sys
d = sys.argv[1]
bad = 0
for n in sorted(os.listdir(os.path.join(d, "outbox"))):
    m = json.load(open(os.path.join(d, "outbox", n)))
    for a in m.get("attach", []):
        if not os.path.isfile(os.path.join(d, a["file"])):
            print("missing", n, a["file"]); bad += 1
    if m["kind"] == "turn" and "turn 1]" not in m["subject"]:
        print("a turn mail of a turn redone", n, m["subject"]); bad += 1
    if m["kind"] == "ack" and "turn 5]" in m["subject"]:
        print("an ack of orders for a turn redone", n); bad += 1
sys.exit(bad != 0)
PY
check "redo: every queued mail's files there, none of the old turns" \
    test $? -eq 0
# The history page: every link and picture relative, inside DIR, there.
python3 - "$G" >"$tmp/out" 2>&1 <<'PY'
import html.parser, os, sys
d = sys.argv[1]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.sections, self.imgs = [], 0, 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections += 1
        if tag == "img":
            self.imgs += 1
        for k in ("href", "src"):
            if k in a:
                self.refs.append(a[k])
p = P()
p.feed(open(os.path.join(d, "index.html"), encoding="utf-8").read())
bad = 0
for r in p.refs:
    f = os.path.normpath(os.path.join(d, r))
    if "://" in r or r.startswith("/") or not f.startswith(d + "/") \
            or not os.path.isfile(f):
        print("bad link", r); bad += 1
if p.sections != 2 or p.imgs != 2 or len(p.refs) < 20:
    print("sections", p.sections, "pictures", p.imgs, "links", len(p.refs))
    bad += 1
sys.exit(bad != 0)
PY
check "the page: two turns, every link resolves inside DIR" test $? -eq 0
# ... and in a real browser (tests/history.py, headless Chromium): every
# picture drawn, every link opened without an error, inside DIR.
HISTORY_SKIP_OK=1 python3 "$top/tests/history.py" "$G" >"$tmp/out" 2>&1
check "the page in Chromium: pictures drawn, links open" test $? -eq 0
check "the page: no orders from green" grep -q \
    'no orders received: units held' "$G/index.html"
check "the page: self-contained" test -z "$(grep -i '<link\|<script\|@import' \
    "$G/index.html")"
expect 0 "verify after redo" "$arbiter" game verify "$G"
check "verify after redo: 2 ok" test "$(grep -c '^ok turn' "$tmp/out")" = 2
# Twice more within the same second (one ARB_GAME_NOW): the second takes
# a name of its own in redone/ (it failed with "Directory not empty" and
# left the game locked in its commit).
cp -R "$G" "$tmp/g2x"
expect 0 "redo twice in one second: the first" "$arbiter" game redo \
    "$tmp/g2x" 2
expect 0 "redo twice in one second: the second" "$arbiter" game redo \
    "$tmp/g2x" 2
check "redo twice in one second: both kept" test -d \
    "$tmp/g2x/redone/0002-$(ls "$tmp/g2x/redone" | sed -n \
    's/^0002-\([0-9TZ]*\)-2$/\1/p')" -a ! -e "$tmp/g2x/.commit"
expect 0 "redo twice in one second: status" "$arbiter" game status "$tmp/g2x"

# Mail and cron at once: two receives and a run, under the lock.
cp -R "$tmp/g1-open" "$tmp/conc"
export ARB_GAME_NOW=2026-12-08T10:00:00Z
"$arbiter" game receive "$tmp/conc" <r3.eml >/dev/null 2>&1 &
p1=$!
"$arbiter" game run "$tmp/conc" >/dev/null 2>&1 &
p2=$!
"$arbiter" game receive "$tmp/conc" <b2.eml >/dev/null 2>&1 &
p3=$!
wait $p1; s1=$?
wait $p2; s2=$?
wait $p3; s3=$?
check "at once: every command done" test "$s1$s2$s3" = 000
check "at once: turn 1 run once" grep -q '"turn": 2,' "$tmp/conc/game.json"
check "at once: no stage left" test ! -e "$tmp/conc/.stage" -a \
    ! -e "$tmp/conc/.commit"
# 15 queued in all (3 opening mails), less the preview of turn 1,
# withdrawn by its run.
check "at once: every mail queued once" test "$(ls "$tmp/conc/outbox" |
    wc -l)" = 14
expect 0 "at once: verify" "$arbiter" game verify "$tmp/conc"

# A run killed at each step leaves the folder as it was (but for its
# staging folder, which the next command removes); a rerun finishes, to
# the same bytes as a run never killed.
export ARB_GAME_NOW=2026-12-08T10:00:00Z
cp -R "$tmp/g1-open" "$tmp/ref"
"$arbiter" game run "$tmp/ref" >/dev/null 2>&1
snap "$tmp/ref" | sed 's| \./| |' >ref.sum
snap "$tmp/g1-open" >open.sum
for step in result players stage commit-1 commit-5 commit-12 committed; do
	rm -rf "$tmp/f"
	cp -R "$tmp/g1-open" "$tmp/f"
	ARB_GAME_FAIL_AT=$step "$arbiter" game run "$tmp/f" >/dev/null 2>&1
	st=$?
	check "killed at $step: killed" test $st -eq 137
	case $step in
	commit-*|committed)
		check "killed at $step: the commit is there" test -d \
		    "$tmp/f/.commit" ;;
	*)
		snap "$tmp/f" >f.sum
		check "killed at $step: the folder as it was" cmp -s open.sum \
		    f.sum ;;
	esac
	"$arbiter" game run "$tmp/f" >/dev/null 2>"$tmp/err"
	check "killed at $step: a rerun finishes" test $? -eq 0
	check "killed at $step: no staging left" test ! -e "$tmp/f/.stage" -a \
	    ! -e "$tmp/f/.commit"
	snap "$tmp/f" | sed 's| \./| |' >f.sum
	check "killed at $step: the same bytes as a run never killed" \
	    cmp -s ref.sum f.sum
done
# send after a run killed after its commit: it finishes the commit first
# (its mails' attachments were not in place: refused, 65), then sends.
rm -rf "$tmp/f"
cp -R "$tmp/g1-open" "$tmp/f"
sed 's/"send_command": "[^"]*"/"send_command": "cat >\/dev\/null"/' \
    "$tmp/f/game.json" >"$tmp/f/game.new" && mv "$tmp/f/game.new" \
    "$tmp/f/game.json"
ARB_GAME_FAIL_AT=commit-5 "$arbiter" game run "$tmp/f" >/dev/null 2>&1
expect 0 "send after a run killed after its commit" "$arbiter" game send \
    "$tmp/f"
check "send after a run killed after its commit: finished, all sent" \
    test ! -e "$tmp/f/.commit" -a -z "$(ls "$tmp/f/outbox")"
# A rename of the commit fails: the command fails (73), and the next one
# finishes the commit.
rm -rf "$tmp/f"
cp -R "$tmp/g1-open" "$tmp/f"
expect 73 "a rename fails" env ARB_GAME_FAIL_AT=eio:rename-3 "$arbiter" \
    game run "$tmp/f"
check "a rename fails: the commit kept" test -d "$tmp/f/.commit"
expect 0 "a rename fails: the next command finishes" "$arbiter" game status \
    "$tmp/f"
snap "$tmp/f" | sed 's| \./| |' >f.sum
check "a rename fails: then as a run never failed" cmp -s ref.sum f.sum
# The same with --now, given again by hand: the second finishes the first
# and runs nothing more (it ran turn 2 as well, its players holding).
rm -rf "$tmp/f"
cp -R "$tmp/g1-open" "$tmp/f"
expect 73 "run --now, a rename fails" env ARB_GAME_FAIL_AT=eio:rename-3 \
    "$arbiter" game run "$tmp/f" --now
expect 0 "run --now again: the first finished" "$arbiter" game run \
    "$tmp/f" --now
check "run --now again: nothing more done, said" grep -q \
    'nothing more was done' "$tmp/out"
check "run --now again: turn 2 open" grep -q '"turn": 2,' "$tmp/f/game.json"

# Memory that runs out, wherever it does: the run under an address-space
# limit (ulimit -v) from where the program can barely start up to where
# it succeeds, in steps of 1 MB (the plain build: a sanitizer's shadow
# memory needs more than any such limit).  At each limit the run either
# succeeds, to the bytes of a run never limited, or fails with 70 ("out of
# memory", never taken for a player's silence) and leaves the folder as
# it was; a rerun without the limit then finishes to the same bytes.
plain=$top/arbiter
nomem=0 v=40000
while [ -x "$plain" ] && [ $v -le 400000 ]; do
	rm -rf "$tmp/f"
	cp -R "$tmp/g1-open" "$tmp/f"
	(ulimit -v $v && exec "$plain" game run "$tmp/f") >/dev/null \
	    2>"$tmp/err"
	st=$?
	v=$((v + 1000))
	[ $st -eq 127 ] && continue	# the libraries do not load
	if [ $st -eq 0 ]; then
		snap "$tmp/f" | sed 's| \./| |' >f.sum
		check "memory up to $((v - 1000)) KB: the run as if unlimited" \
		    cmp -s ref.sum f.sum
		break
	fi
	nomem=$((nomem + 1))
	check "memory up to $((v - 1000)) KB: 70, out of memory" test \
	    $st -eq 70 -a -n "$(grep 'out of memory' "$tmp/err")"
	snap "$tmp/f" >f.sum
	check "memory up to $((v - 1000)) KB: the folder as it was" \
	    cmp -s open.sum f.sum
	"$plain" game run "$tmp/f" >/dev/null 2>&1
	snap "$tmp/f" | sed 's| \./| |' >f.sum
	check "memory up to $((v - 1000)) KB: a rerun finishes" \
	    cmp -s ref.sum f.sum
done
[ -x "$plain" ] && check "memory: some limit made the run run out" \
    test $nomem -gt 0

# receive killed before and after its commit: the mail is filed once.
export ARB_GAME_NOW=2026-12-08T09:00:00Z
rm -rf "$tmp/ref"
cp -R "$tmp/g1-open" "$tmp/ref"
"$arbiter" game receive "$tmp/ref" <r3.eml >/dev/null 2>&1
snap "$tmp/ref" | sed 's| \./| |' >ref.sum
for step in stage commit-1 commit-2; do
	rm -rf "$tmp/f"
	cp -R "$tmp/g1-open" "$tmp/f"
	ARB_GAME_FAIL_AT=$step "$arbiter" game receive "$tmp/f" <r3.eml \
	    >/dev/null 2>&1
	check "receive killed at $step: killed" test $? -eq 137
	"$arbiter" game receive "$tmp/f" <r3.eml >/dev/null 2>"$tmp/err"
	check "receive killed at $step: again" test $? -eq 0
	snap "$tmp/f" | sed 's| \./| |' >f.sum
	check "receive killed at $step: filed once, as if never killed" \
	    cmp -s ref.sum f.sum
done
export ARB_GAME_NOW=2026-12-08T10:00:00Z
rm -rf "$tmp/f"
cp -R "$tmp/g1-open" "$tmp/f"
expect 73 "a full disk" env ARB_GAME_FAIL_AT=enospc:turn.png "$arbiter" \
    game run "$tmp/f"
snap "$tmp/f" >f.sum
check "a full disk: the folder as it was" cmp -s open.sum f.sum
check "a full disk: no staging left" test ! -e "$tmp/f/.stage"
expect 75 "a full disk in receive: try again later" env \
    ARB_GAME_FAIL_AT=enospc:mail.eml "$arbiter" game receive "$tmp/f" \
    <r3.eml
snap "$tmp/f" >f.sum
check "a full disk in receive: as it was" cmp -s open.sum f.sum

# Hostile mail, from inside a sandbox: nothing is written outside DIR.
mkdir "$tmp/sand"
cp -R "$tmp/g1-open" "$tmp/sand/g"
H=$tmp/sand/g
# An encoded subject that holds CR LF and a Bcc.
{
	printf 'From: red@example.org\nDate: Tue, 08 Dec 2026 09:00:00 +0000\n'
	printf 'Subject: =?utf-8?b?%s?=\n\n' "$(printf 'x\r\nBcc: evil@example.net' |
	    base64 | tr -d '\n')"
	cat r2.txt
} >h1.eml
# An address with a path, dot-dot and a NUL; a header folded in.
printf 'From: "../../x" <../../../etc/passwd@example.org>\nSubject: x\n\nhi\n' >h2.eml
printf 'From: red@example.org\000/../../x\nSubject: x\n\nhi\n' >h3.eml
printf 'From: red@example.org\nBcc: evil@example.net\nSubject: a\n b\n\n%s\n' \
    'arbiter orders red turn 1' >h4.eml
# Malformed MIME: a multipart without a boundary, from a player.
printf 'From: blue@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--x\n\nhi\n' >h5.eml
# Parts nested 60000 deep (3.3 MB), from a player.
python3 -c 'import sys
n = 60000
w = sys.stdout.write
w("From: blue@example.org\nMIME-Version: 1.0\n")
for i in range(n):
    w("Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i))
w("Content-Type: text/plain\n\nhi\n")' >h8.eml
printf 'no header at all\n' >h6.eml
: >h7.eml
mkdir "$tmp/sand/cwd"
cd "$tmp/sand/cwd" || exit 70
for h in h1 h2 h3 h4 h5 h6 h7 h8; do
	expect 0 "hostile $h: handled" "$arbiter" game receive "$H" \
	    <"$tmp/$h.eml"
done
# 64 MiB.
{
	printf 'From: red@example.org\nSubject: big\n\n'
	head -c 67108864 /dev/zero | tr '\0' 'a'
} | "$arbiter" game receive "$H" >"$tmp/out" 2>"$tmp/err"
check "64 MiB: handled" test $? -eq 0
check "64 MiB: aside, too large" grep -q 'too large' "$H"/aside/*.why
check "64 MiB: at most 4 MiB kept" test -z "$(find "$H/aside" -size +4097k)"
check "hostile: nothing written outside DIR" test -z "$(find "$tmp/sand" \
    -mindepth 1 ! -path "$H" ! -path "$H/*" ! -path "$tmp/sand/cwd")"
cd "$tmp" || exit 70
check "hostile: the aside mails' reasons" test "$(cat "$H"/aside/*.why |
    wc -l)" -ge 6
check "hostile h8: nested parts, aside" grep -q 'unreadable: from blue' \
    "$H"/aside/*.why
python3 - "$H" <<'EOF' >"$tmp/out" 2>&1
import json, os, sys
d = sys.argv[1]
bad = 0
for n in sorted(os.listdir(d + "/outbox")):
    m = json.load(open(d + "/outbox/" + n))
    for k in ("subject", "from", "message_id", "in_reply_to"):
        v = m.get(k, "")
        if any(ord(c) < 32 or ord(c) == 127 for c in v):
            print("control character in", n, k, repr(v)); bad += 1
    for t in m["to"]:
        if any(ord(c) <= 32 for c in t) or "/" in t:
            print("bad address in", n, repr(t)); bad += 1
    for a in m["attach"]:
        if a["file"].startswith("/") or ".." in a["file"].split("/"):
            print("bad attachment", n, a); bad += 1
sys.exit(bad != 0)
EOF
check "hostile: no header injection in the queued mails" test $? -eq 0
check "hostile h1: the subject quoted on one line" grep -q \
    'x  Bcc: evil@example.net' "$H"/outbox/*.json

# morne-plaine, 3 players and 4 turns.
export ARB_GAME_NOW=2026-12-01T10:00:00Z
M=$tmp/mp
expect 0 "morne-plaine: new" "$arbiter" game new "$M" \
    "$data/morne-plaine.json" --player french=f@example.org \
    --player allies=a@example.org --player prussians=p@example.org \
    --period 3
printf 'arbiter orders french turn 1\nfc1 move 0306 0305\n' >f1.txt
mail f@example.org 'Tue, 01 Dec 2026 11:00:00 +0000' 'o' f1.txt >f1.eml
expect 0 "morne-plaine: receive" "$arbiter" game receive "$M" <f1.eml
printf 'arbiter orders allies turn 1\nai1 move 0101 0102\nx9: zz9 move 0101 0102\n' \
    >a1.txt
mail a@example.org 'Tue, 01 Dec 2026 11:00:00 +0000' 'o' a1.txt >a1.eml
expect 0 "morne-plaine: receive allies" "$arbiter" game receive "$M" <a1.eml
# french's mails as aeonis's players send theirs: a JSON mail with a
# problem, a correction in text, a reply quoting the acknowledgement, and
# the JSON mail's older twin arriving late; received at noon, after the
# dates they bear (a mail is no later than its receipt).
export ARB_GAME_NOW=2026-12-01T12:00:00Z
lastack() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["body"])' \
	    "$M/outbox/$(ls "$M/outbox" | tail -1)"
}
printf '%s\n' '{ "arbiter": 1, "player": "french", "turn": 1,' \
    '  "orders": [ { "id": "f1", "units": ["fc9"], "move": ["0306", "0305"] } ] }' \
    >f2.txt
mail f@example.org 'Tue, 01 Dec 2026 11:10:00 +0000' 'json' f2.txt >f2.eml
expect 0 "morne-plaine: a JSON mail" "$arbiter" game receive "$M" <f2.eml
lastack >mack1
check "morne-plaine: the JSON orders as understood" grep -q \
    '^  f1: fc9 move 0306 0305$' mack1
check "morne-plaine: its problem" grep -q 'unknown_unit' mack1
{
	printf 'arbiter orders french turn 1\nfc1 move 0306 0305\nend\n\n'
	sed 's/^/> /' mack1
} >f3.txt
mail f@example.org 'Tue, 01 Dec 2026 11:20:00 +0000' 'Re: [mp turn 1]' \
    f3.txt >f3.eml
expect 0 "morne-plaine: the correction, quoting the ack" "$arbiter" game \
    receive "$M" <f3.eml
lastack >mack2
check "morne-plaine: the correction replaces" grep -q \
    'in place of those you sent before' mack2
check "morne-plaine: the correction: no problems" grep -q \
    '^No problems found' mack2
mail f@example.org 'Tue, 01 Dec 2026 10:50:00 +0000' 'json, early' f2.txt \
    >f0.eml
expect 0 "morne-plaine: an older mail, late" "$arbiter" game receive "$M" \
    <f0.eml
lastack >mack3
check "morne-plaine: the older mail not used" grep -q \
    'an older mail arriving late does not' mack3
check "morne-plaine: french's orders are the correction" \
    cmp -s f3.eml "$M/turns/0001/orders/french.eml"
export ARB_GAME_NOW=2026-12-01T10:00:00Z
for n in 1 2 3 4; do
	expect 0 "morne-plaine: run turn $n" "$arbiter" game run "$M" --now
done
check "morne-plaine: turn 5 open" grep -q '"turn": 5,' "$M/game.json"
check "morne-plaine: the refusal in the summary" grep -q \
    '^  allies order x9: illegal, unknown_unit: ' "$M/turns/0001/summary.txt"
check "morne-plaine: the refusal on the page" grep -q \
    '<li>allies order x9: illegal, unknown_unit: ' "$M/index.html"
check "morne-plaine: prussians told" grep -q '^No orders received' \
    "$M/turns/0001/players/prussians/letter.txt"
# Every player ready (orders without problems, here none): the turn runs
# before its deadline.
for p in french allies prussians; do
	printf 'arbiter orders %s turn 5\nend\n' $p >e.txt
	mail ${p%"${p#?}"}@example.org 'Tue, 01 Dec 2026 12:00:00 +0000' o e.txt \
	    >e.eml
	expect 0 "morne-plaine: $p ready" "$arbiter" game receive "$M" <e.eml
done
expect 0 "morne-plaine: every player ready" "$arbiter" game run "$M"
check "morne-plaine: the turn runs early" grep -q 'runs early' "$tmp/out"
check "morne-plaine: turn 6 open" grep -q '"turn": 6,' "$M/game.json"
expect 0 "morne-plaine: verify" "$arbiter" game verify "$M"
check "morne-plaine: verify 5 ok" test "$(grep -c '^ok turn' "$tmp/out")" = 5

# Deadlines under an hourly cron: a turn run late (as cron runs it, within
# the hour, or a period and more late) keeps the game's hour; one run
# early, by --now or once all are ready, gives the next the period from
# the run.
D=$tmp/dl2
export ARB_GAME_NOW=2026-12-01T00:00:00Z
expect 0 "deadlines: new" "$arbiter" game new "$D" "$data/aeonis.json" \
    --player red=r@d.org --player blue=b@d.org --player green=g@d.org
# A mail with no orders in it ("thanks"): nothing to correct, and what
# counts said once.
printf 'Thanks, got it!\n' >thx.txt
mail r@d.org 'Tue, 01 Dec 2026 00:00:00 +0000' 'Re: thanks' thx.txt >thx1.eml
expect 0 "a mail with no orders, none before" "$arbiter" game receive \
    "$D" <thx1.eml
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["body"])' \
    "$D/outbox/$(ls "$D/outbox" | tail -1)" >thx1.ack
check "no orders, none before: says how to send them" grep -q \
    'no orders for this turn yet.  Write them under a line "arbiter orders red turn 1"' \
    thx1.ack
check "no orders, none before: nothing to correct" sh -c \
    "! grep -q -e 'refused' -e 'correct it' -e 'checked against' thx1.ack"
printf 'arbiter orders red turn 1\nend\n' >rd.txt
mail r@d.org 'Tue, 01 Dec 2026 00:00:01 +0000' 'o' rd.txt >rd.eml
expect 0 "deadlines: red's orders" "$arbiter" game receive "$D" <rd.eml
mail r@d.org 'Tue, 01 Dec 2026 00:00:02 +0000' 'Re: Re: thanks' thx.txt \
    >thx2.eml
expect 0 "a mail with no orders, orders before" "$arbiter" game receive \
    "$D" <thx2.eml
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["body"])' \
    "$D/outbox/$(ls "$D/outbox" | tail -1)" >thx2.ack
check "no orders, orders before: they still count" grep -q \
    'so the orders you sent before still count' thx2.ack
check "no orders, orders before: nothing refused, nothing to correct" \
    sh -c "! grep -q -e 'refused' -e 'correct it' -e 'would hold' thx2.ack"
check "no orders, orders before: red still ready" sh -c \
    "'$arbiter' game status '$D' | grep -q 'red: ready'"
export ARB_GAME_NOW=2026-12-08T00:07:42Z
expect 0 "deadlines: cron, 7 minutes late" "$arbiter" game run "$D"
check "deadlines: the next at the game's hour" grep -q \
    'deadline 2026-12-15T00:00:00Z' "$tmp/out"
export ARB_GAME_NOW=2026-12-23T05:00:00Z
expect 0 "deadlines: cron, a period and more late" "$arbiter" game run "$D"
check "deadlines: the next, whole periods on, still at its hour" grep -q \
    'deadline 2026-12-29T00:00:00Z' "$tmp/out"
export ARB_GAME_NOW=2026-12-25T12:00:00Z
expect 0 "deadlines: --now, early" "$arbiter" game run "$D" --now
check "deadlines: early: the period from the run" grep -q \
    'deadline 2027-01-01T12:00:00Z' "$tmp/out"

# An umpire who plays: the player's mail from the umpire's (and the
# game's) address is that player's orders; the game's own mail, marked
# Auto-Submitted, still goes aside.
U=$tmp/ump
export ARB_GAME_NOW=2026-12-01T00:00:00Z
expect 0 "an umpire who plays: new" "$arbiter" game new "$U" \
    "$data/aeonis.json" --umpire me@u.org --player red=me@u.org \
    --player blue=b@u.org --player green=g@u.org
mail me@u.org 'Tue, 01 Dec 2026 00:00:00 +0000' 'o' rd.txt >ur.eml
expect 0 "an umpire who plays: red's orders" "$arbiter" game receive \
    "$U" <ur.eml
check "an umpire who plays: filed as red's orders" \
    cmp -s ur.eml "$U/turns/0001/orders/red.eml"
{ printf 'Auto-Submitted: auto-replied\n'; cat ur.eml; } >ua.eml
expect 0 "an umpire who plays: the game's own mail" "$arbiter" game \
    receive "$U" <ua.eml
check "the game's own mail: aside, red's orders stand" sh -c \
    "grep -q 'Auto-Submitted' '$U'/aside/*.why &&
    cmp -s ur.eml '$U/turns/0001/orders/red.eml'"

# A mail that names two senders is nobody's: aside, the umpire told.
{ printf 'From: b@u.org, me@u.org\n'; sed 1d ur.eml; } >u2.eml
expect 0 "two addresses in From" "$arbiter" game receive "$U" <u2.eml
check "two addresses in From: aside, said why" grep -q \
    'more than one sender' "$U"/aside/*.why
{ printf 'From: b@u.org\n'; cat ur.eml; } >u3.eml
expect 0 "two From fields" "$arbiter" game receive "$U" <u3.eml
check "two From fields: aside too" test \
    "$(grep -l 'more than one sender' "$U"/aside/*.why | wc -l)" -eq 2
check "two senders: red's orders stand, blue has none" sh -c \
    "cmp -s ur.eml '$U/turns/0001/orders/red.eml' &&
    test ! -e '$U/turns/0001/orders/blue.eml'"

# game.json spoilt by hand: the place, or the member and what it wants.
cp -R "$U" "$tmp/gj"
sed -i 's/"turn": 1,/"turn": 1,,/' "$tmp/gj/game.json"
expect 65 "game.json not JSON" "$arbiter" game status "$tmp/gj"
check "game.json not JSON: line and column" grep -q \
    'game.json:[0-9]*:[0-9]*: ' "$tmp/err"
cp "$U/game.json" "$tmp/gj/game.json"
sed -i 's/"deadline": "[^"]*"/"deadline": "next friday"/' "$tmp/gj/game.json"
expect 65 "game.json: a deadline that is no time" "$arbiter" game status \
    "$tmp/gj"
check "the deadline named, and what it wants" grep -q \
    '"deadline": a time, YYYY-MM-DDTHH:MM:SSZ' "$tmp/err"
cp "$U/game.json" "$tmp/gj/game.json"
sed -i 's/"period_days": 7/"period_days": "seven"/' "$tmp/gj/game.json"
expect 65 "game.json: a period that is no number" "$arbiter" game status \
    "$tmp/gj"
check "the period named, not taken as 7" grep -q '"period_days": days' \
    "$tmp/err"

echo "game: $pass passed, $fail failed"
[ $fail -eq 0 ]
