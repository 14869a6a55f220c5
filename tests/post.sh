#!/bin/sh
# arbiter game send DIR (issue 31; arbiter-game(1), SEND): outbox
# descriptions written here by hand, in game folders of their own, sent
# through a stand-in sendmail that appends its standard input to a file.
# Every message filed in sent/ is read back by Python's email package
# (tests/post.py: headers, body, each attachment's bytes and name) and is
# the bytes the command was given; the same description gives the same
# bytes; hostile descriptions (header injection, file names that lead
# out of the folder, a missing or a 64 MiB attachment) are refused,
# nothing sent, nothing written outside the folder; a failing command
# leaves the mail queued and says why; the lock is honoured.
# Prints "not ok" lines and "post: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
tmp=$(mktemp -d) || exit 70
trap '[ -n "$POST_KEEP" ] || rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
py=${PYTHON:-python3}

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
		sed 's/^/# /' "$tmp/out" "$tmp/err" | head -8
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
		sed 's/^/# /' "$tmp/out" "$tmp/err" | head -8
	fi
}

# The stand-in sendmail: appends its standard input to $tmp/sink.
cat >"$tmp/sendmail" <<EOF
#!/bin/sh
cat >>"$tmp/sink"
EOF
# One that fails a message holding FAILME, as a mail server that is down.
cat >"$tmp/sendmail-down" <<EOF
#!/bin/sh
cat >"$tmp/one"
if grep -q FAILME "$tmp/one"; then
	echo "sendmail: cannot connect to mail.example.org: host down" >&2
	exit 75
fi
cat "$tmp/one" >>"$tmp/sink"
EOF
chmod +x "$tmp/sendmail" "$tmp/sendmail-down"

# game DIR [COMMAND]: a game folder whose send_command is COMMAND (the
# stand-in by default), with attachments: a text, a PNG, an SVG, a JSON.
game() {
	mkdir -p "$1/outbox" "$1/turns/0001/players/blue" || exit 70
	cat >"$1/game.json" <<EOF
{
  "game": "post-test",
  "ruleset": "aeonis",
  "players": [ {"name": "blue", "address": "blue@example.org"},
	       {"name": "red", "address": "red@example.org"} ],
  "umpire": "umpire@example.org",
  "from": "umpire@example.org",
  "send_command": "${2:-$tmp/sendmail}",
  "period_days": 7,
  "early": true,
  "turn": 1,
  "deadline": "2026-12-05T12:00:00Z",
  "redone": 0
}
EOF
	p=$1/turns/0001/players/blue
	printf 'Turn 1, for blue.\n\nYour orders:\n  A1 move to 0203\n' \
	    >"$p/letter.txt"
	"$py" -c 'import struct, sys, zlib
def chunk(t, d):
    return (struct.pack(">I", len(d)) + t + d +
            struct.pack(">I", zlib.crc32(t + d) & 0xffffffff))
png = (b"\x89PNG\r\n\x1a\n" +
       chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(b"\0\xff\0\0\0\0\xff\0\0\0\0\xff\0\0\0")) +
       chunk(b"IEND", b""))
sys.stdout.buffer.write(png)' >"$p/turn.png" || exit 70
	cat >"$p/turn.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8" fill="#2060c0"/><text x="2" y="14">é</text></svg>
EOF
	printf '{"ruleset": "aeonis", "turn": 2, "units": []}\n' \
	    >"$p/next.json"
}

# sent DIR: every message in DIR/sent checked against its description,
# kept as DIR/desc/NNNNNN.json before the send.
sent_ok() {
	ok=0
	for d in "$1"/desc/*.json; do
		n=$(basename "$d" .json)
		"$py" "$top/tests/post.py" "$1" "$d" "$1/sent/$n.eml" ||
		    ok=1
	done
	return $ok
}

# queue DIR N: DIR/outbox/N.json from standard input, kept in DIR/desc.
queue() {
	mkdir -p "$1/desc"
	cat >"$1/desc/$2.json" || exit 70
	cp "$1/desc/$2.json" "$1/outbox/$2.json"
}

cd "$tmp" || exit 70

# ---- A game's mails: an acknowledgement, a turn, a preview.
game g
queue g 000001 <<'EOF'
{
  "kind": "ack",
  "from": "umpire@example.org",
  "to": ["blue@example.org"],
  "subject": "[post-test turn 1] orders received — Bleu, ça marche",
  "date": "2026-11-28T10:00:00Z",
  "message_id": "<post-test.1.ack.blue.1a2b3c4d@arbiter>",
  "in_reply_to": "<CAF=x1y2z3@mail.example.org>",
  "body": "Your orders, as understood:\n  A1 move to 0203\n\nÇà et là: 2 of 3 players have sent orders.\n",
  "attach": [ {"file": "turns/0001/players/blue/letter.txt",
	       "type": "text/plain", "name": "orders-1.txt"} ]
}
EOF
queue g 000002 <<'EOF'
{
  "kind": "turn",
  "from": "Umpire <umpire@example.org>",
  "to": ["blue@example.org", "Red Player <red@example.org>"],
  "subject": "[post-test turn 1] the turn",
  "date": "2026-12-05T12:00:07Z",
  "message_id": "<post-test.1.turn.blue.5e6f7a8b@arbiter>",
  "body": "From the front:\n\n--=-arbiter- a line like a boundary\n.\nFrom here on, a line that is long: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
  "attach": [
    {"file": "turns/0001/players/blue/letter.txt", "type": "text/plain",
     "name": "letter-1.txt"},
    {"file": "turns/0001/players/blue/turn.png", "type": "image/png",
     "name": "turn-1.png"},
    {"file": "turns/0001/players/blue/turn.svg", "type": "image/svg+xml",
     "name": "turn-1.svg"},
    {"file": "turns/0001/players/blue/next.json",
     "type": "application/json"}
  ]
}
EOF
queue g 000003 <<'EOF'
{
  "kind": "preview",
  "from": "umpire@example.org",
  "to": ["umpire@example.org"],
  "subject": "[post-test turn 1] preview",
  "date": "2026-12-05T11:00:00Z",
  "message_id": "<post-test.1.preview.umpire.9c0d@arbiter>",
  "body": ""
}
EOF
expect 0 "three mails sent" "$arbiter" game send g
check "sent: 000001 000002 000003" \
    test "$(ls g/sent | tr '\n' ' ')" = "000001.eml 000002.eml 000003.eml "
check "the outbox is empty after" test -z "$(ls g/outbox)"
cat g/sent/000001.eml g/sent/000002.eml g/sent/000003.eml >all.eml
check "the command was given each message as filed, in order" \
    cmp -s sink all.eml
check "each message read back: headers, body, attachments" sent_ok g
check "the report names each mail" grep -q '^000002.json: sent' out
check "nothing on standard error" test ! -s err
check "sent/ is the umpire's alone (0600)" \
    test "$(stat -c %a g/sent/000002.eml)" = 600

# The same description again, queued as 000004: the same bytes.
cp g/desc/000002.json g/outbox/000004.json
expect 0 "the same description again" "$arbiter" game send g
check "the same description gives the same bytes" \
    cmp g/sent/000002.eml g/sent/000004.eml
# Once more under its own number, as though the run had been killed
# after filing it: not sent twice, the description removed.
cp g/desc/000002.json g/outbox/000004.json
: >sink
expect 0 "a description already filed in sent/" "$arbiter" game send g
check "already filed: said" grep -q 'already in sent/: not sent again' out
check "already filed: not sent again" test ! -s sink
check "already filed: the description removed" test -z "$(ls g/outbox)"

# Same description in another folder: the same bytes.
game g2
cp g/desc/000002.json g2/outbox/000001.json
expect 0 "the same description in another folder" "$arbiter" game send g2
check "the same bytes in another folder" \
    cmp g/sent/000002.eml g2/sent/000001.eml

# ---- An empty outbox, and none.
: >sink
expect 0 "an empty outbox" "$arbiter" game send g
check "an empty outbox: said" grep -q 'the outbox is empty' out
rmdir g/outbox
expect 0 "no outbox" "$arbiter" game send g
check "no outbox: said" grep -q 'the outbox is empty' out
check "an empty outbox: nothing sent" test ! -s sink

# ---- Usage, no folder, no game.
expect 64 "no DIR" "$arbiter" game send
expect 64 "two DIRs" "$arbiter" game send g g2
expect 66 "a DIR that is not there" "$arbiter" game send nowhere
mkdir notgame
expect 66 "a DIR without game.json" "$arbiter" game send notgame
check "not a game folder: said" grep -q 'not a game folder' err
game badgame
echo '{"send_command": ' >badgame/game.json
expect 65 "an unreadable game.json" "$arbiter" game send badgame

# ---- Hostile descriptions: each refused (65), left queued, nothing sent,
# nothing written outside its folder.
mkdir outside
echo "the umpire's secret notes" >outside/secret.txt
find outside -printf "%p %s %T@\n" | sort >outside.before
good='"kind": "ack", "from": "umpire@example.org",
  "to": ["blue@example.org"], "subject": "[post-test turn 1] orders",
  "date": "2026-11-28T10:00:00Z", "body": "hello\n",
  "message_id": "<post-test.1.ack.blue.77@arbiter>"'
# hostile NAME REASON MEMBERS: a description whose members after the good
# ones are MEMBERS (later members of the same name win: no, JSON objects
# with duplicates are refused; so MEMBERS replace by a sed below).
hostile() {
	name=$1 why=$2 desc=$3
	rm -rf "h-$name"
	game "h-$name"
	ln -s "$tmp/outside" "h-$name/linkdir"
	ln -s "$tmp/outside/secret.txt" "h-$name/turns/0001/link.txt"
	printf '%s\n' "$desc" >"h-$name/outbox/000001.json"
	: >sink
	expect 65 "hostile $name: refused" "$arbiter" game send "h-$name"
	check "hostile $name: says why ($why)" grep -q -e "$why" err
	check "hostile $name: says it is left queued" \
	    grep -q 'refused, left queued' err
	check "hostile $name: nothing sent" test ! -s sink
	check "hostile $name: left queued" test -f "h-$name/outbox/000001.json"
	check "hostile $name: nothing filed" test -z "$(ls "h-$name/sent")"
	find outside -printf "%p %s %T@\n" | sort >outside.after
	check "hostile $name: nothing written outside" \
	    cmp -s outside.before outside.after
}
d() {	# d MEMBER VALUE: the good description with MEMBER set to VALUE
	"$py" -c 'import json, sys
d = json.loads("{" + sys.argv[1] + "}")
d[sys.argv[2]] = json.loads(sys.argv[3])
print(json.dumps(d))' "$good" "$1" "$2"
}
hostile subject-crlf 'the subject has a control character' \
    "$(d subject '"orders\r\nBcc: everyone@example.org"')"
hostile subject-lf 'the subject has a control character' \
    "$(d subject '"orders\nBcc: everyone@example.org"')"
hostile subject-nel 'the subject has a control character' \
    "$(d subject '"orders\u0085Bcc: everyone@example.org"')"
hostile to-crlf 'a to has a control character' \
    "$(d to '["blue@example.org\r\nBcc: everyone@example.org"]')"
hostile to-not-address 'a to is not a mail address' \
    "$(d to '["not an address"]')"
hostile to-empty '"to" is not a list' "$(d to '[]')"
hostile to-8bit 'outside ASCII' "$(d to '["bl\u00f8e@ex\u00e4mple.org"]')"
hostile from-cr 'the from has a control character' \
    "$(d from '"umpire@example.org\rBcc: x@example.org"')"
hostile msgid-crlf 'the message_id has a control character' \
    "$(d message_id '"<a@b>\r\nBcc: everyone@example.org"')"
hostile msgid-form 'the message_id is not of the form' \
    "$(d message_id '"no-brackets@arbiter"')"
hostile irt-lf 'the in_reply_to has a control character' \
    "$(d in_reply_to '"<a@b>\nBcc: everyone@example.org"')"
hostile date-bad 'the date is not an ISO 8601 time' \
    "$(d date '"yesterday"')"
hostile kind-bad '"kind" is not one of' "$(d kind '"spam"')"
hostile name-crlf "an attachment's name has a control character" \
    "$(d attach '[{"file": "turns/0001/players/blue/letter.txt",
    "type": "text/plain", "name": "a.txt\r\nBcc: x@example.org"}]')"
hostile name-slash 'has a slash' \
    "$(d attach '[{"file": "turns/0001/players/blue/letter.txt",
    "type": "text/plain", "name": "../../a.txt"}]')"
hostile type-crlf "an attachment's type has a control character" \
    "$(d attach '[{"file": "turns/0001/players/blue/letter.txt",
    "type": "text/plain\r\nBcc: x@example.org"}]')"
hostile type-param 'is not TYPE/SUBTYPE' \
    "$(d attach '[{"file": "turns/0001/players/blue/letter.txt",
    "type": "text/plain; charset=x"}]')"
hostile dotdot 'in the file name' \
    "$(d attach '[{"file": "../outside/secret.txt", "type": "text/plain"}]')"
hostile dotdot-inner 'in the file name' \
    "$(d attach '[{"file": "turns/../../outside/secret.txt",
    "type": "text/plain"}]')"
hostile absolute 'an absolute file name' \
    "$(d attach "[{\"file\": \"$tmp/outside/secret.txt\",
    \"type\": \"text/plain\"}]")"
hostile etc-passwd 'an absolute file name' \
    "$(d attach '[{"file": "/etc/passwd", "type": "text/plain"}]')"
hostile symlink-file 'is a symbolic link' \
    "$(d attach '[{"file": "turns/0001/link.txt", "type": "text/plain"}]')"
hostile symlink-dir 'is a symbolic link' \
    "$(d attach '[{"file": "linkdir/secret.txt", "type": "text/plain"}]')"
hostile missing 'missing' \
    "$(d attach '[{"file": "turns/0001/players/blue/nothing.png",
    "type": "image/png"}]')"
hostile folder 'not a regular file' \
    "$(d attach '[{"file": "turns/0001", "type": "text/plain"}]')"
hostile not-json 'refused, left queued' '{"kind": "ack", '
hostile not-object 'not a JSON object' '["kind", "ack"]'
hostile duplicate 'duplicate' "{$good, \"subject\": \"again\"}"

# A description that is a symbolic link (to a good description outside),
# and an outbox that is one: not read.
rm -rf linkdesc
game linkdesc
d body '"x\n"' >outside-desc.json
ln -s "$tmp/outside-desc.json" linkdesc/outbox/000001.json
: >sink
expect 65 "a description that is a symbolic link: refused" \
    "$arbiter" game send linkdesc
check "a description that is a symbolic link: nothing sent" test ! -s sink
rm -rf linkout
game linkout
rmdir linkout/outbox
mkdir outside-outbox
d body '"x\n"' >outside-outbox/000001.json
ln -s "$tmp/outside-outbox" linkout/outbox
expect 66 "an outbox that is a symbolic link: 66" "$arbiter" game send linkout
check "an outbox that is a symbolic link: nothing sent" test ! -s sink
check "an outbox that is a symbolic link: left there" \
    test -f outside-outbox/000001.json

# A 64 MiB attachment: refused with its size, quickly, not read whole.
rm -rf huge
game huge
dd if=/dev/zero of=huge/turns/0001/huge.png bs=1048576 count=64 \
    2>/dev/null || exit 70
d attach '[{"file": "turns/0001/huge.png", "type": "image/png"}]' \
    >huge/outbox/000001.json
: >sink
expect 65 "a 64 MiB attachment: refused" "$arbiter" game send huge
check "a 64 MiB attachment: says it is too large" \
    grep -q 'turns/0001/huge.png is too large' err
check "a 64 MiB attachment: nothing sent" test ! -s sink
check "a 64 MiB attachment: left queued" test -f huge/outbox/000001.json

# A description of 5 MiB (a letter is some kilobytes): refused unread.
rm -rf bigdesc
game bigdesc
"$py" -c 'import json, sys
d = json.loads("{" + sys.argv[1] + "}")
d["body"] = "x" * (5 << 20)
print(json.dumps(d))' "$good" >bigdesc/outbox/000001.json
: >sink
expect 65 "a description of 5 MiB: refused" "$arbiter" game send bigdesc
check "a description of 5 MiB: too large, said" grep -q 'too large' err
check "a description of 5 MiB: nothing sent" test ! -s sink

# A hostile description between good ones: the good ones go.
rm -rf mixed
game mixed
d subject '"ok 1"' | queue mixed 000001
d subject '"bad\r\nBcc: everyone@example.org"' >mixed/outbox/000002.json
d subject '"ok 3"' | queue mixed 000003
: >sink
expect 65 "a hostile description among good ones: 65" \
    "$arbiter" game send mixed
check "among good ones: the good ones sent" \
    test "$(ls mixed/sent | tr '\n' ' ')" = "000001.eml 000003.eml "
check "among good ones: the hostile one left queued" \
    test "$(ls mixed/outbox | tr '\n' ' ')" = "000002.json "
check "among good ones: the good ones read back" sent_ok mixed
check "among good ones: counted" \
    grep -q '2 sent, 0 failed, 1 refused; 1 left in the outbox' out

# ---- A failing command: left queued, its status and its words reported,
# the next one sent.
rm -rf down
game down "$tmp/sendmail-down"
d body '"FAILME\n"' | queue down 000001
d body '"this one goes\n"' | queue down 000002
: >sink
expect 1 "a failing command: 1" "$arbiter" game send down
check "a failing command: its status reported" \
    grep -q '000001.json: not sent, left queued: the command exited with status 75' err
check "a failing command: its standard error reported" \
    grep -q 'cannot connect to mail.example.org: host down' err
check "a failing command: left queued" \
    test "$(ls down/outbox | tr '\n' ' ')" = "000001.json "
check "a failing command: not filed as sent" \
    test "$(ls down/sent | tr '\n' ' ')" = "000002.eml "
check "a failing command: the next one sent" cmp -s sink down/sent/000002.eml
# The server is up again: the queued one goes.
sed 's/"send_command": .*/"send_command": "cat >>sink",/' down/game.json \
    >down/game.new && mv down/game.new down/game.json
: >sink
expect 0 "the command works again: the queued one sent" \
    "$arbiter" game send down
check "the command works again: the outbox empty" test -z "$(ls down/outbox)"
check "the command works again: as filed" cmp -s sink down/sent/000001.eml
# A command that is not there, and one killed.
rm -rf nocmd
game nocmd "$tmp/no-such-sendmail -t -i"
d body '"x\n"' | queue nocmd 000001
expect 1 "a command that is not there: 1" "$arbiter" game send nocmd
check "a command that is not there: status 127 and why" \
    grep -q 'status 127: .*no-such-sendmail' err
rm -rf killed
game killed 'cat >/dev/null; kill -9 $$'
d body '"x\n"' | queue killed 000001
expect 1 "a killed command: 1" "$arbiter" game send killed
check "a killed command: said" grep -q 'killed by signal 9' err
check "a killed command: left queued" test -f killed/outbox/000001.json

# A command that exits 0 without reading the message (2 MiB, more than a
# pipe holds): not sent.
rm -rf deaf
game deaf true
dd if=/dev/zero of=deaf/turns/0001/big.png bs=1048576 count=2 2>/dev/null
d attach '[{"file": "turns/0001/big.png", "type": "image/png"}]' |
    queue deaf 000001
expect 1 "a command that does not read the message: 1" \
    "$arbiter" game send deaf
check "a command that does not read the message: said" \
    grep -q 'exited 0 before it read the whole message' err
check "a command that does not read the message: left queued" \
    test -f deaf/outbox/000001.json -a -z "$(ls deaf/sent)"

# A command that hangs (and a child of it that would outlive it): killed
# after the game's send_timeout, left queued; the next ones are not tried
# (they stay queued, for the next send), so that a hung mail server holds
# the game's lock, and every receive, for one send_timeout only.
rm -rf hung
game hung 'sleep 60 & cat >/dev/null; sleep 60'
sed 's/"redone": 0/"redone": 0, "send_timeout": 2/' hung/game.json \
    >hung/game.new && mv hung/game.new hung/game.json
d body '"x\n"' | queue hung 000001
d body '"y\n"' | queue hung 000002
expect 1 "a command that hangs: 1, within the timeout" \
    timeout 30 "$arbiter" game send hung
check "a command that hangs: said" \
    grep -q '000001.json: not sent, left queued: the command took more than 2 s' err
check "a command that hangs: the next one not tried" \
    test -z "$(grep '000002.json' err)"
check "a command that hangs: the rest left for the next send, said" \
    grep -q 'the rest of the outbox (1) stays queued' err
check "a command that hangs: left queued" \
    test "$(ls hung/outbox | wc -l)" -eq 2 -a -z "$(ls hung/sent)"
sed 's/"send_timeout": 2/"send_timeout": "soon"/' hung/game.json \
    >hung/game.new && mv hung/game.new hung/game.json
expect 65 "a send_timeout that is not a number of seconds: 65" \
    "$arbiter" game send hung

# ---- The lock: while another command holds DIR/lock, send waits.
rm -rf locked
game locked
d body '"x\n"' | queue locked 000001
: >locked/lock
: >sink
flock locked/lock sleep 6 &
holder=$!
sleep 1
expect 124 "the lock held: send waits" timeout 2 "$arbiter" game send locked
check "the lock held: nothing sent" test ! -s sink
wait $holder
expect 0 "the lock released: sent" "$arbiter" game send locked
check "the lock released: filed" test -f locked/sent/000001.eml

# ---- sent/ that cannot be written (a file), or that leads out of the
# folder (a symbolic link): 73, nothing sent, nothing written outside.
for kind in file link; do
	rm -rf "sent-$kind"
	game "sent-$kind"
	d body '"x\n"' | queue "sent-$kind" 000001
	if [ $kind = file ]; then
		: >"sent-$kind/sent"
	else
		mkdir "$tmp/outside-sent"
		ln -s "$tmp/outside-sent" "sent-$kind/sent"
	fi
	: >sink
	expect 73 "sent/ a $kind: 73" "$arbiter" game send "sent-$kind"
	check "sent/ a $kind: nothing sent" test ! -s sink
	check "sent/ a $kind: left queued" test -f "sent-$kind/outbox/000001.json"
done
check "sent/ a link: nothing written outside" \
    test -z "$(ls "$tmp/outside-sent")"

# ---- A game's own outbox (arbiter game new, receive, run): every mail
# sent and read back; the acknowledgement answers the player's mail.
"$arbiter" game new real "$top/fixtures/aeonis/demo-turn/map.json" \
    --player red=red@example.org --player blue=blue@example.org \
    --umpire umpire@example.org >/dev/null 2>err || echo "# game new failed"
{
	printf 'From: Red <red@example.org>\nTo: umpire@example.org\n'
	printf 'Subject: my orders\nMessage-ID: <red.orders.1@example.org>\n'
	printf 'Date: Sat, 28 Nov 2026 09:00:00 +0000\n'
	printf 'Content-Type: application/json\n\n'
	cat "$top/fixtures/aeonis/demo-turn/orders/red.json"
} | "$arbiter" game receive real >/dev/null 2>err ||
    echo "# game receive failed"
"$arbiter" game run real --now >/dev/null 2>err || echo "# game run failed"
# The whole game's mail: two turns more (no orders: the players hold),
# a preview between them, a redo of the second.
"$arbiter" game run real --now >/dev/null 2>err || echo "# game run 2 failed"
"$arbiter" game run real --preview >/dev/null 2>err ||
    echo "# game preview failed"
"$arbiter" game run real --now >/dev/null 2>err || echo "# game run 3 failed"
t2=$(sed -n 's/^ *"turn": *\([0-9]*\).*/\1/p' real/game.json)
"$arbiter" game redo real $((t2 - 1)) >/dev/null 2>err ||
    echo "# game redo failed"
sed 's|"send_command": .*|"send_command": "'"$tmp"'/sendmail",|' \
    real/game.json >real/game.new && mv real/game.new real/game.json
mkdir real/desc
cp real/outbox/*.json real/desc/
: >sink
expect 0 "a game's own outbox sent" "$arbiter" game send real
check "a game's own outbox: every mail filed, none left" \
    test "$(ls real/sent | wc -l)" -eq "$(ls real/desc | wc -l)" -a \
    "$(ls real/desc | wc -l)" -ge 3 -a -z "$(ls real/outbox)"
check "a game's own outbox: each message read back" sent_ok real
check "a game's own outbox: the acknowledgement answers the mail" \
    grep -lq '^In-Reply-To: <red.orders.1@example.org>' real/sent/*.eml
check "a game's own outbox: the pictures attached" \
    grep -lq '^Content-Type: image/png; name=turn-' real/sent/*.eml
for k in open turn redo ack; do
	check "a game's own outbox: mails of kind $k sent and read back" \
	    grep -lq "\"kind\": \"$k\"" real/desc/*.json
done
check "a game's own outbox: letters of the turns run and redone" test \
    "$(grep -h '"subject": "\[real turn [0-9]*\] your letter' \
    real/desc/*.json | sed 's/.*\[real turn \([0-9]*\)\].*/\1/' |
    sort -u | wc -l)" -ge 2

echo "post: $pass passed, $fail failed"
[ $fail -eq 0 ]
