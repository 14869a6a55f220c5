#!/bin/sh
# Fair dice (arbiter-rules(7), Dice), checked from outside the program as
# a player would: the chain of three turns in the casebook, each map the
# next map of the turn before; each commitment the SHA-256 of the R its
# result reveals; each seed what tests/fairdice.py derives from the key
# (Python's hmac and hashlib, from the manual's text); the draws replayed
# from the revealed seed, by arbiter on a plain-seed map and by
# tests/fairdice.py; the next commitment not one a player could work out
# from what the turn revealed; no real roll anywhere under --check; and
# the files part naming the SHA-256 of every input as sha256sum does;
# --commit, the first turn committed with arbiter alone; --audit on each
# turn, from another folder, and on every kind of tampering, each with its
# own exit status; seed_text read as doubles are read; the archive
# verified without the key, moved and tampered with; a result made from
# the parent folder verified in the turn's.
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
mp=$top/fixtures/morne-plaine
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok - $what"
	else
		fail=$((fail + 1))
		echo "not ok - $what"
	fi
}

# json FILE EXPR: prints a Python expression of the JSON in FILE (as j).
json() {
	$py -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

check "turn 2's map is turn 1's next map" \
    cmp -s "$mp/d-secret-turn1/expected.next.json" "$mp/d-secret-turn2/map.json"
check "turn 3's map is turn 2's next map" \
    cmp -s "$mp/d-secret-turn2/expected.next.json" "$mp/d-secret-turn3/map.json"
for n in 1 2 3; do
	d=$mp/d-secret-turn$n
	r=$(json "$d/expected.json" 'j["dice"]["reveal"]')
	seed=$(json "$d/expected.json" 'j["dice"]["seed"]')
	c=$(json "$d/map.json" 'j["dice"]["commitment"]')
	check "turn $n: the result's commitment is the map's" \
	    [ "$(json "$d/expected.json" 'j["dice"]["commitment"]')" = "$c" ]
	check "turn $n: SHA-256 of the reveal is the commitment" \
	    [ "$(printf '%s' "$r" | $py -c 'import hashlib, sys; print(hashlib.sha256(bytes.fromhex(sys.stdin.read())).hexdigest())')" = "$c" ]
	check "turn $n: the reveal, seed and commitment are the key's" \
	    [ "$($py "$top/tests/fairdice.py" derive "$d/umpire.key" casebook-fair $n)" = "$r $seed $c" ]
	check "turn $n: the seed is the reveal's first 8 bytes mod 2^63-1" \
	    [ "$($py -c 'import sys; print(int(sys.argv[1][:16], 16) % (2**63 - 1))' "$r")" = "$seed" ]
	check "turn $n: the top-level seed is the revealed one" \
	    [ "$(json "$d/expected.json" 'j["seed"]')" = "$seed" ]
	# Replay: the map with the revealed seed in place of its commitment.
	$py -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["dice"]; j["seed"] = int(sys.argv[2]); json.dump(j, open(sys.argv[3], "w"))' "$d/map.json" "$seed" "$tmp/plain.json"
	(cd "$d" && "$arbiter" "$tmp/plain.json" orders/*.json \
	    >"$tmp/replay.json")
	check "turn $n: arbiter replays the draws from the revealed seed" \
	    [ "$(json "$tmp/replay.json" 'j["dice"]["draws"]')" = "$(json "$d/expected.json" 'j["dice"]["draws"]')" ]
	check "turn $n: and the orders' rulings" \
	    [ "$(json "$tmp/replay.json" 'j["orders"]')" = "$(json "$d/expected.json" 'j["orders"]')" ]
	sides=$(json "$d/expected.json" '" ".join(str(x["sides"]) for x in j["dice"]["draws"])')
	check "turn $n: fairdice.py replays the same values" \
	    [ "$($py "$top/tests/fairdice.py" draws "$seed" $sides | tr '\n' ' ')" = "$(json "$d/expected.json" '" ".join(str(x["value"]) for x in j["dice"]["draws"])') " ]
	check "turn $n: the next map has no plain seed" \
	    [ "$(json "$d/expected.next.json" '"seed" in j')" = False ]
done
check "replay by --seed: turn 1's draws" \
    [ "$(json "$mp/d-replay-seed/expected.json" 'j["dice"]["draws"]')" = "$(json "$mp/d-secret-turn1/expected.json" 'j["dice"]["draws"]')" ]
check "replay by --seed: turn 1's rulings" \
    [ "$(json "$mp/d-replay-seed/expected.json" 'j["orders"]')" = "$(json "$mp/d-secret-turn1/expected.json" 'j["orders"]')" ]

# Not predictable: turn 2's seed and commitment are not turn 1's plus one,
# nor anything a player can compute from what turn 1 revealed.
r1=$(json "$mp/d-secret-turn1/expected.json" 'j["dice"]["reveal"]')
s1=$(json "$mp/d-secret-turn1/expected.json" 'j["dice"]["seed"]')
s2=$(json "$mp/d-secret-turn2/expected.json" 'j["dice"]["seed"]')
c2=$(json "$mp/d-secret-turn1/expected.next.json" 'j["dice"]["commitment"]')
check "turn 2's seed is not turn 1's plus one" [ "$s2" != "$((s1 + 1))" ]
guesses=$($py -c '
import hashlib, sys
r1 = bytes.fromhex(sys.argv[1]); s = int(sys.argv[2]) + 1
h = lambda b: hashlib.sha256(b).hexdigest()
for g in (h((int.from_bytes(r1, "big") + 1).to_bytes(32, "big")),
          h(s.to_bytes(8, "big")), h(str(s).encode()),
          h(hashlib.sha256(r1).digest())):
    print(g)' "$r1" "$s1")
check \
    "turn 2's commitment is none derived from turn 1's reveal or seed plus one" \
    sh -c "! printf '%s\n' '$guesses' | grep -qx '$c2'"

# --check shows no roll: not in the result, not in the trace.  Three orders
# depend on the dice: s1 (marshes), c1 (the charge) and r1 (the retreat
# the charge may call on).
for c in d-check-no-key d-check-secret; do
	key=
	[ -f "$mp/$c/umpire.key" ] && key="--secret umpire.key"
	(cd "$mp/$c" && "$arbiter" $key $(cat args) --trace-file "$tmp/trace.jsonl" map.json orders/*.json >"$tmp/check.json"
	 "$arbiter" $key $(cat args) --trace-file "$tmp/trace.txt" --text map.json orders/*.json >/dev/null)
	cat "$tmp/check.json" "$tmp/trace.jsonl" "$tmp/trace.txt" >"$tmp/all"
	check "$c: neither the seed nor the reveal" \
	    sh -c "! grep -q -e '$s1' -e '$r1' -e 'reveal' '$tmp/all'"
	check "$c: no roll, value, draw or seed" \
	    sh -c \
	    "! grep -qi -e '\"roll\": *[0-9]' -e 'roll=[0-9]' -e 'value' -e 'draws' -e 'd[49] [0-9]' -e 'seed' '$tmp/all'"
	check "$c: the dice outcomes are named" \
	    [ "$(grep -c depends_on_dice "$tmp/check.json")" -eq 3 ]
done

# The files part: the SHA-256 of every input as read, the map first, then
# the orders by player, then the rolls.
for c in d-secret-turn1 d-rolls; do
	d=$mp/$c
	want=$(cd "$d" && { sha256sum map.json; sha256sum orders/allies.json orders/french.json; [ -f rolls.json ] && sha256sum rolls.json; } | awk '{ print $2 " " $1 }')
	got=$(json "$d/expected.json" '"\n".join(f["file"] + " " + f["sha256"] for f in j["files"])')
	check "$c: the files part is sha256sum's" [ "$want" = "$got" ]
done
check "the secret is not among the files" \
    sh -c "! grep -q umpire.key '$mp/d-secret-turn1/expected.json'"

# Fair from the first turn (issue 30): --commit makes turn 1's map from a
# map with a plain seed, with arbiter alone.
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    "$mp/d-secret-starts/map.json" -o "$tmp/committed.json"
check "--commit makes d-secret-turn1's map, byte for byte" \
    cmp -s "$tmp/committed.json" "$mp/d-secret-turn1/map.json"
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit --game other \
    "$mp/d-secret-starts/map.json" >"$tmp/other.json"
check "--commit --game names the game" \
    [ "$(json "$tmp/other.json" 'j["game"]')" = other ]
check "and commits to that game's dice" \
    [ "$(json "$tmp/other.json" 'j["dice"]["commitment"]')" = "$($py "$top/tests/fairdice.py" derive "$mp/d-secret-starts/umpire.key" other 1 | cut -d' ' -f3)" ]
"$arbiter" --commit "$mp/d-secret-starts/map.json" >"$tmp/out" 2>"$tmp/err"
check "--commit without the key: 64" [ $? -eq 64 ]
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    "$mp/d-secret-turn1/map.json" >"$tmp/out" 2>"$tmp/err"
check "--commit of a map that commits already: 65" [ $? -eq 65 ]
check "and nothing on standard output" [ ! -s "$tmp/out" ]
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["game"]; json.dump(j, open(sys.argv[2], "w"))' "$mp/d-secret-starts/map.json" "$tmp/nogame.json"
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit -o \
    "$tmp/ng.json" "$tmp/nogame.json" 2>"$tmp/err"
check "--commit of a map without a game and no --game: 64" [ $? -eq 64 ]
check "and no file written" [ ! -e "$tmp/ng.json" ]

# --commit's files: the key is neither the output nor the map, nor the
# map the output; the key is left as it was.
cp "$mp/d-secret-starts/umpire.key" "$mp/d-secret-starts/map.json" "$tmp/"
"$arbiter" --secret "$tmp/umpire.key" --commit -o "$tmp/umpire.key" \
    "$tmp/map.json" >"$tmp/out" 2>"$tmp/err"
check "--commit -o the key: 64" [ $? -eq 64 ]
check "and the key is left as it was" \
    cmp -s "$tmp/umpire.key" "$mp/d-secret-starts/umpire.key"
"$arbiter" --secret "$tmp/umpire.key" --commit "$tmp/umpire.key" \
    >"$tmp/out" 2>"$tmp/err"
check "--commit of the key as the map: 64" [ $? -eq 64 ]
check "and nothing of the key in the message" \
    sh -c "! grep -q 'near\|expected' '$tmp/err'"
"$arbiter" --secret "$tmp/umpire.key" --commit -o "$tmp/map.json" \
    "$tmp/map.json" >"$tmp/out" 2>"$tmp/err"
check "--commit -o the map: 64" [ $? -eq 64 ]
check "and the map is left as it was" \
    cmp -s "$tmp/map.json" "$mp/d-secret-starts/map.json"
rm "$tmp/umpire.key" "$tmp/map.json"

# --commit of a map without "turn" (turn 1) adds its game and dice; a
# --game that is not UTF-8 is 64; reals are kept exactly.
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["turn"]; json.dump(j, open(sys.argv[2], "w"))' "$mp/d-secret-starts/map.json" "$tmp/noturn.json"
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    "$tmp/noturn.json" >"$tmp/nt.json" 2>"$tmp/err"
check "--commit of a map without a turn: its dice" \
    [ "$(json "$tmp/nt.json" 'j["dice"]["commitment"]')" = \
    "$(json "$mp/d-secret-turn1/map.json" 'j["dice"]["commitment"]')" ]
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    --game "$(printf 'g\377')" "$mp/d-secret-starts/map.json" \
    >"$tmp/out" 2>"$tmp/err"
check "--commit --game not UTF-8: 64" [ $? -eq 64 ]
sed 's/"x": 8.29289321881,/"x": 8.292893218813452,/' \
    "$top/fixtures/arcane-legions/b-not-adjacent/map.json" >"$tmp/real.json"
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    --game reals "$tmp/real.json" >"$tmp/rc.json" 2>"$tmp/err"
check "--commit keeps a real exactly" $py -c 'import json, sys
f = lambda p: [u["pose"] for u in json.load(open(p))["units"]]
sys.exit(f(sys.argv[1]) != f(sys.argv[2]))' "$tmp/real.json" "$tmp/rc.json"
"$arbiter" --secret "$mp/d-secret-starts/umpire.key" --commit \
    --game reals "$top/fixtures/arcane-legions/b-not-adjacent/map.json" \
    >"$tmp/rc.json" 2>"$tmp/err"
check "--commit writes a real in its shortest form (8.29289321881)" \
    grep -q '"x": 8.29289321881,' "$tmp/rc.json"

# The player's audit, in one command, without the key, from another
# folder than the turn's: each turn of the chain passes.
mkdir "$tmp/game"
for n in 1 2 3; do
	mkdir "$tmp/game/t$n"
	cp -R "$mp/d-secret-turn$n/map.json" "$mp/d-secret-turn$n/orders" \
	    "$tmp/game/t$n/"
	cp "$mp/d-secret-turn$n/expected.json" "$tmp/game/t$n/result.json"
	(cd "$tmp" && "$arbiter" --audit game/t$n/result.json \
	    game/t$n/map.json game/t$n/orders/*.json >"$tmp/audit" 2>&1)
	check "turn $n: --audit passes" [ $? -eq 0 ]
	check "turn $n: it says what it checked" \
	    grep -q '^audit: 7 passed, 0 failed$' "$tmp/audit"
done
# audit NAME STATUS RESULT MAP ORDERS...: --audit fails with STATUS.
audit_fails() {
	what=$1 want=$2
	shift 2
	"$arbiter" --audit "$@" >"$tmp/audit" 2>&1
	got=$?
	check "$what: --audit exits $want" [ $got -eq "$want" ]
	check "$what: and says what failed" grep -q '^not ok ' "$tmp/audit"
}
g=$tmp/game/t2
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); j["dice"]["draws"][0]["value"] = 3 - j["dice"]["draws"][0]["value"] % 2; json.dump(j, open(sys.argv[2], "w"), indent=2)' "$g/result.json" "$tmp/roll.json"
audit_fails "a tampered roll" 1 "$tmp/roll.json" "$g/map.json" \
    "$g"/orders/*.json
cp "$g/orders/french.json" "$tmp/french.json"
printf ' ' >>"$tmp/french.json"
audit_fails "a tampered orders file" 2 "$g/result.json" "$g/map.json" \
    "$g/orders/allies.json" "$tmp/french.json"
cp "$g/map.json" "$tmp/map.json"
printf ' ' >>"$tmp/map.json"
audit_fails "a tampered map" 2 "$g/result.json" "$tmp/map.json" \
    "$g"/orders/*.json
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); r = j["dice"]["reveal"]; j["dice"]["reveal"] = ("0" if r[0] != "0" else "1") + r[1:]; json.dump(j, open(sys.argv[2], "w"), indent=2)' "$g/result.json" "$tmp/reveal.json"
audit_fails "a wrong revealed value" 3 "$tmp/reveal.json" "$g/map.json" \
    "$g"/orders/*.json
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); j["seed"] = j["dice"]["seed"] = 42; del j["seed_text"], j["dice"]["seed_text"]; json.dump(j, open(sys.argv[2], "w"), indent=2)' "$g/result.json" "$tmp/seed.json"
audit_fails "a result from another seed" 4 "$tmp/seed.json" "$g/map.json" \
    "$g"/orders/*.json
(cd "$mp/d-secret-starts" && "$arbiter" --audit expected.json map.json \
    orders/*.json >"$tmp/audit" 2>&1)
check "a turn on a plain seed: --audit exits 5" [ $? -eq 5 ]
check "and says the map did not commit" \
    grep -q \
    '^not ok the map commits to the turn.s dice: the map has a plain seed' \
    "$tmp/audit"
check "but its replay matches" grep -q '^ok the turn replays' "$tmp/audit"
"$arbiter" --audit "$g/result.json" "$g/map.json" "$g/orders/allies.json" \
    >"$tmp/audit" 2>&1
check "an orders file left out: --audit exits 2" [ $? -eq 2 ]
"$arbiter" --secret "$mp/d-secret-turn2/umpire.key" --audit "$g/result.json" \
    "$g/map.json" "$g"/orders/*.json >"$tmp/audit" 2>&1
check "--audit takes no key: 64" [ $? -eq 64 ]

# --audit with --rolls: a rolls turn on a plain seed passes; on a map
# that commits, the umpire's rolls are not bound by the commitment.
(cd "$mp/d-rolls" && "$arbiter" --rolls rolls.json --audit expected.json \
    map.json orders/*.json >"$tmp/audit" 2>&1)
check "--audit --rolls of a rolls turn: 0" [ $? -eq 0 ]
check "the rolls file is among the files checked" \
    grep -q '^ok rolls.json is the rolls file the result records' "$tmp/audit"
cp -R "$mp/d-secret-turn2" "$tmp/kr"
echo '[1,1,1,1,1,1,1,1]' >"$tmp/kr/r.json"
(cd "$tmp/kr" && "$arbiter" --secret umpire.key --rolls r.json map.json \
    orders/*.json >kr.json &&
 "$arbiter" --rolls r.json --audit kr.json map.json orders/*.json \
    >"$tmp/audit" 2>&1)
check "--audit of rolls on a committed map: 5" [ $? -eq 5 ]
check "saying the commitment does not bind them" \
    grep -q '^not ok .*rolls file on a map that commits' "$tmp/audit"
check "but the replay matches" grep -q '^ok the turn replays' "$tmp/audit"

# --audit: each file given matches one entry of the result's files,
# bound to the player the result records.
g=$tmp/game/t2
"$arbiter" --audit "$g/result.json" "$g/map.json" "$g/orders/allies.json" \
    "$g/orders/allies.json" "$g/orders/french.json" >"$tmp/audit" 2>&1
check "an orders file given twice: --audit exits 2" [ $? -eq 2 ]
check "saying it is given again" grep -q '^not ok .*given again' "$tmp/audit"
"$arbiter" --audit "$g/result.json" "$g/map.json" "$g/map.json" \
    "$g"/orders/*.json >"$tmp/audit" 2>&1
check "the map given again as orders: --audit exits 2" [ $? -eq 2 ]
check "saying so" grep -q '^not ok .*it is the map, given again' "$tmp/audit"
(cd "$tmp/kr" && "$arbiter" --secret umpire.key map.json \
    french=orders/allies.json >bound.json &&
 "$arbiter" --audit bound.json map.json orders/allies.json \
    >"$tmp/audit" 2>&1)
check "a result with a bound file, audited without the binding: 0" \
    [ $? -eq 0 ]

# A player's report (--for) is not the umpire's result: refused.
(cd "$tmp/kr" && "$arbiter" --secret umpire.key --for french \
    map.json orders/*.json >report.json &&
 "$arbiter" --audit report.json map.json orders/*.json >"$tmp/audit" \
    2>"$tmp/err")
check "--audit of a player's report: 65" [ $? -eq 65 ]
check "saying it needs the umpire's full result" \
    grep -q "the umpire's full result" "$tmp/err"

# A result with a key twice, a forged value first (a reader that keeps
# the first sees it): refused by --audit, failed by --verify.
sed '1s/^{$/{\n  "seed": 42,/' "$g/result.json" >"$tmp/dup.json"
check "the forged result has the key twice" \
    [ "$(grep -c '"seed": ' "$tmp/dup.json")" -ge 3 ]
"$arbiter" --audit "$tmp/dup.json" "$g/map.json" "$g"/orders/*.json \
    >"$tmp/audit" 2>"$tmp/err"
check "--audit of a result with a key twice: 65" [ $? -eq 65 ]
cp -R "$mp/d-secret-turn2" "$tmp/dupcase"
rm "$tmp/dupcase/umpire.key"
rm "$tmp/dupcase/expected.next.json"
(cd "$tmp" && "$arbiter" --secret "$mp/d-secret-turn2/umpire.key" \
    dupcase/map.json dupcase/orders/*.json >"$tmp/parent2.json")
sed '1s/^{$/{\n  "seed": 42,/' "$tmp/parent2.json" \
    >"$tmp/dupcase/expected.json"
"$arbiter" --verify "$tmp/dupcase" >"$tmp/verify" 2>&1
check "--verify of an expected result with a key twice (its files named \
from another folder) fails" [ $? -eq 1 ]
cp "$tmp/parent2.json" "$tmp/dupcase/expected.json"
"$arbiter" --verify "$tmp/dupcase" >"$tmp/verify" 2>&1
check "and passes without the key twice" [ $? -eq 0 ]

# The next commitment binds the umpire only once the next map carries
# it: -n NEXT checks that it does, for the next turn of the game.
"$arbiter" --audit "$g/result.json" -n "$tmp/game/t3/map.json" \
    "$g/map.json" "$g"/orders/*.json >"$tmp/audit" 2>&1
check "--audit -n the next map: 0" [ $? -eq 0 ]
check "saying the next map carries the commitment" \
    grep -q '^ok the next map .* carries the next commitment' "$tmp/audit"
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); j["dice"]["next_commitment"] = "0" * 64; json.dump(j, open(sys.argv[2], "w"), indent=2)' "$g/result.json" "$tmp/next.json"
"$arbiter" --audit "$tmp/next.json" -n "$tmp/game/t3/map.json" \
    "$g/map.json" "$g"/orders/*.json >"$tmp/audit" 2>&1
check "a forged next commitment, -n the next map: 2" [ $? -eq 2 ]
"$arbiter" --audit "$g/result.json" -n "$g/map.json" "$g/map.json" \
    "$g"/orders/*.json >"$tmp/audit" 2>&1
check "-n a map that is not the next: 2" [ $? -eq 2 ]

# A replay that does not load (two files bound to one player, as this
# result says): its own message and 65, not "a ruling was changed".
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); j["files"][1]["player"] = "french"; json.dump(j, open(sys.argv[2], "w"), indent=2)' "$g/result.json" "$tmp/bind.json"
"$arbiter" --audit "$tmp/bind.json" "$g/map.json" "$g"/orders/*.json \
    >"$tmp/audit" 2>&1
check "a replay that does not load: 65" [ $? -eq 65 ]
check "saying the replay could not be made" \
    grep -q '^not ok .*the replay could not be made' "$tmp/audit"

# --rerun: the umpire's run without the key, and its usage (the option
# was --replay before issue 32 gave that name to the replay page).
(cd "$mp/d-secret-turn2" && "$arbiter" --rerun expected.json -n \
    "$tmp/rnext.json" map.json orders/*.json >"$tmp/rerun.json" 2>"$tmp/err")
check "--rerun gives the umpire's result" \
    cmp -s "$tmp/rerun.json" "$mp/d-secret-turn2/expected.json"
check "and the umpire's next map" \
    cmp -s "$tmp/rnext.json" "$mp/d-secret-turn2/expected.next.json"
(cd "$mp/d-secret-turn2" && "$arbiter" --rerun expected.json --secret \
    umpire.key map.json orders/*.json >"$tmp/out" 2>"$tmp/err")
check "--rerun with --secret: 64" [ $? -eq 64 ]
(cd "$mp/d-secret-turn2" && "$arbiter" --rerun \
    "$mp/d-secret-turn3/expected.json" map.json orders/*.json >"$tmp/out" \
    2>"$tmp/err")
check "--rerun of another turn's result: 65" [ $? -eq 65 ]
check "saying the value does not give the commitment" \
    grep -q 'revealed value does not give this commitment' "$tmp/err"
check "and writing nothing" [ ! -s "$tmp/out" ]
(cd "$mp/d-secret-turn2" && "$arbiter" --rerun \
    "$mp/d-replay-seed/expected.json" map.json orders/*.json >"$tmp/out" \
    2>"$tmp/err")
check "--rerun of a result made without the key: 65" [ $? -eq 65 ]
check "saying there is nothing to replay from" \
    grep -q 'nothing to replay from' "$tmp/err"

# The old form: --replay with a result (a name ending in .json) is
# refused, saying what --replay and --rerun are now (issue 32).
(cd "$mp/d-secret-turn2" && "$arbiter" --replay expected.json -n \
    "$tmp/rnext2.json" map.json orders/*.json >"$tmp/out" 2>"$tmp/err")
check "--replay RESULT.json (the old form): 64" [ $? -eq 64 ]
check "saying --replay writes the replay page" \
    grep -q -- '--replay now writes the replay page' "$tmp/err"
check "and that --rerun re-runs a committed turn" \
    grep -q -- '--rerun re-runs a committed turn' "$tmp/err"
check "and writing no result" [ ! -s "$tmp/out" ]
check "and no next map" [ ! -e "$tmp/rnext2.json" ]
(cd "$mp/d-secret-turn2" && "$arbiter" --replay="$tmp/x.JSON" map.json \
    orders/*.json >"$tmp/out" 2>"$tmp/err")
check "--replay=X.JSON (any case): 64" [ $? -eq 64 ]

# Exact numbers for readers that take JSON numbers as doubles (jq 1.6,
# JavaScript): the seed read so is rounded, seed_text is not, and a replay
# with seed_text gives the result's rolls.
d=$mp/d-secret-turn2
rounded=$($py -c 'import json, sys; print(int(json.load(open(sys.argv[1]), parse_int=float)["dice"]["seed"]))' "$d/expected.json")
exact=$($py -c 'import json, sys; print(json.load(open(sys.argv[1]), parse_int=float)["dice"]["seed_text"])' "$d/expected.json")
check "read as doubles, the seed rounds" \
    [ "$rounded" != "$(json "$d/expected.json" 'j["dice"]["seed"]')" ]
check "seed_text is the seed exactly" \
    [ "$exact" = "$(json "$d/expected.json" 'j["dice"]["seed"]')" ]
check "and the top-level seed_text too" \
    [ "$($py -c 'import json, sys; print(json.load(open(sys.argv[1]), parse_int=float)["seed_text"])' "$d/expected.json")" = "$exact" ]
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["dice"]; j["seed"] = 1; json.dump(j, open(sys.argv[2], "w"))' "$d/map.json" "$tmp/plain.json"
(cd "$d" && "$arbiter" -s "$exact" "$tmp/plain.json" orders/*.json \
    >"$tmp/replay.json")
check "a replay with seed_text rolls the result's dice" \
    [ "$(json "$tmp/replay.json" 'j["dice"]["draws"]')" = "$(json "$d/expected.json" 'j["dice"]["draws"]')" ]
(cd "$d" && "$arbiter" -s "$rounded" "$tmp/plain.json" orders/*.json \
    >"$tmp/replay.json")
check "and one with the rounded seed does not" \
    [ "$(json "$tmp/replay.json" 'j["dice"]["draws"]')" != "$(json "$d/expected.json" 'j["dice"]["draws"]')" ]

# The archive verifies without the key, after it is copied elsewhere, and
# not once it is tampered with.
mkdir "$tmp/archive"
for n in 1 2 3; do
	cp -R "$mp/d-secret-turn$n" "$tmp/archive/t$n"
	rm "$tmp/archive/t$n/umpire.key"
done
cp -R "$tmp/archive" "$tmp/moved"
"$arbiter" --verify "$tmp/moved"/t* >"$tmp/verify" 2>&1
check "the archive verifies without the key, moved" [ $? -eq 0 ]
check "every turn" grep -q '^verify: 3 passed, 0 failed$' "$tmp/verify"
printf ' ' >>"$tmp/moved/t2/orders/french.json"
"$arbiter" --verify "$tmp/moved/t2" >"$tmp/verify" 2>&1
check "a tampered orders file fails --verify" [ $? -eq 1 ]
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); r = j["dice"]["reveal"]; j["dice"]["reveal"] = ("0" if r[0] != "0" else "1") + r[1:]; json.dump(j, open(sys.argv[1], "w"), indent=2)' "$tmp/moved/t3/expected.json"
"$arbiter" --verify "$tmp/moved/t3" >"$tmp/verify" 2>&1
check "a wrong revealed value fails --verify" [ $? -eq 1 ]
check "saying so" \
    grep -q 'revealed value does not give this commitment' "$tmp/verify"

# A result made from the parent folder verifies as one made in the turn's.
(cd "$tmp/archive" && "$arbiter" --secret "$mp/d-secret-turn2/umpire.key" -n \
    t2/next.json t2/map.json t2/orders/*.json >"$tmp/parent.json")
check "made from the parent folder, it names t2/map.json" \
    grep -q '"file": "t2/map.json"' "$tmp/parent.json"
cp "$tmp/parent.json" "$tmp/archive/t2/expected.json"
rm "$tmp/archive/t2/next.json"
"$arbiter" --verify "$tmp/archive/t2" >"$tmp/verify" 2>&1
check "and verifies in the turn's folder" [ $? -eq 0 ]
cp "$tmp/parent.json" "$tmp/archive/t2/expected.json"
$py -c 'import json, sys; j = json.load(open(sys.argv[1])); j["orders"][0]["status"] = "illegal"; json.dump(j, open(sys.argv[1], "w"), indent=2)' "$tmp/archive/t2/expected.json"
"$arbiter" --verify "$tmp/archive/t2" >"$tmp/verify" 2>&1
check "but not once a ruling in it is changed" [ $? -eq 1 ]

# Two inputs with the same text (the map given again as orders, refused):
# made from the parent folder, the files pair one to one, each renamed
# once, and the case verifies.
mkdir "$tmp/same"
cp -R "$mp/d-secret-turn2/map.json" "$mp/d-secret-turn2/orders" \
    "$tmp/same/"
cp "$tmp/same/map.json" "$tmp/same/orders/zmap.json"
(cd "$tmp" && "$arbiter" --secret "$mp/d-secret-turn2/umpire.key" \
    same/map.json same/orders/*.json >"$tmp/same/expected.json")
"$arbiter" --verify "$tmp/same" >"$tmp/verify" 2>&1
check "two files with one SHA-256, from the parent folder: verified" \
    [ $? -eq 0 ]

# A keyed turn on a plain seed: the umpire's run says the turn was not
# committed; the replay of its archive (--rerun, --verify) does not, so
# the archive needs no expected.err.
(cd "$mp/d-secret-starts" && "$arbiter" --secret umpire.key map.json \
    orders/*.json >/dev/null 2>"$tmp/err")
check "--secret on a plain seed: the turn was not committed" \
    grep -q 'warning: this turn was not committed' "$tmp/err"
mkdir "$tmp/plainkeyed"
cp -R "$mp/d-secret-starts/map.json" "$mp/d-secret-starts/orders" \
    "$mp/d-secret-starts/expected.json" \
    "$mp/d-secret-starts/expected.next.json" "$tmp/plainkeyed/"
"$arbiter" --verify "$tmp/plainkeyed" >"$tmp/verify" 2>&1
check "its archive without expected.err verifies" [ $? -eq 0 ]

echo "fair dice: $pass passed, $fail failed"
[ $fail -eq 0 ]
