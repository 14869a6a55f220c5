#!/bin/sh
# Fair dice (arbiter-rules(7), Dice), checked from outside the program as
# a player would: the chain of three turns in the casebook, each map the
# next map of the turn before; each commitment the SHA-256 of the R its
# result reveals; each seed what tests/fairdice.py derives from the key
# (Python's hmac and hashlib, from the manual's text); the draws replayed
# from the revealed seed, by arbiter on a plain-seed map and by
# tests/fairdice.py; the next commitment not one a player could work out
# from what the turn revealed; no real roll anywhere under --check; and
# the files part naming the SHA-256 of every input as sha256sum does.
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

check "turn 2's map is turn 1's next map" cmp -s "$mp/d-secret-turn1/expected.next.json" "$mp/d-secret-turn2/map.json"
check "turn 3's map is turn 2's next map" cmp -s "$mp/d-secret-turn2/expected.next.json" "$mp/d-secret-turn3/map.json"
for n in 1 2 3; do
	d=$mp/d-secret-turn$n
	r=$(json "$d/expected.json" 'j["dice"]["reveal"]')
	seed=$(json "$d/expected.json" 'j["dice"]["seed"]')
	c=$(json "$d/map.json" 'j["dice"]["commitment"]')
	check "turn $n: the result's commitment is the map's" [ "$(json "$d/expected.json" 'j["dice"]["commitment"]')" = "$c" ]
	check "turn $n: SHA-256 of the reveal is the commitment" [ "$(printf '%s' "$r" | $py -c 'import hashlib, sys; print(hashlib.sha256(bytes.fromhex(sys.stdin.read())).hexdigest())')" = "$c" ]
	check "turn $n: the reveal, seed and commitment are the key's" [ "$($py "$top/tests/fairdice.py" derive "$d/umpire.key" casebook-fair $n)" = "$r $seed $c" ]
	check "turn $n: the seed is the reveal's first 8 bytes mod 2^63-1" [ "$($py -c 'import sys; print(int(sys.argv[1][:16], 16) % (2**63 - 1))' "$r")" = "$seed" ]
	check "turn $n: the top-level seed is the revealed one" [ "$(json "$d/expected.json" 'j["seed"]')" = "$seed" ]
	# Replay: the map with the revealed seed in place of its commitment.
	$py -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["dice"]; j["seed"] = int(sys.argv[2]); json.dump(j, open(sys.argv[3], "w"))' "$d/map.json" "$seed" "$tmp/plain.json"
	(cd "$d" && "$arbiter" "$tmp/plain.json" orders/*.json >"$tmp/replay.json")
	check "turn $n: arbiter replays the draws from the revealed seed" [ "$(json "$tmp/replay.json" 'j["dice"]["draws"]')" = "$(json "$d/expected.json" 'j["dice"]["draws"]')" ]
	check "turn $n: and the orders' rulings" [ "$(json "$tmp/replay.json" 'j["orders"]')" = "$(json "$d/expected.json" 'j["orders"]')" ]
	sides=$(json "$d/expected.json" '" ".join(str(x["sides"]) for x in j["dice"]["draws"])')
	check "turn $n: fairdice.py replays the same values" [ "$($py "$top/tests/fairdice.py" draws "$seed" $sides | tr '\n' ' ')" = "$(json "$d/expected.json" '" ".join(str(x["value"]) for x in j["dice"]["draws"])') " ]
	check "turn $n: the next map has no plain seed" [ "$(json "$d/expected.next.json" '"seed" in j')" = False ]
done
check "replay by --seed: turn 1's draws" [ "$(json "$mp/d-replay-seed/expected.json" 'j["dice"]["draws"]')" = "$(json "$mp/d-secret-turn1/expected.json" 'j["dice"]["draws"]')" ]
check "replay by --seed: turn 1's rulings" [ "$(json "$mp/d-replay-seed/expected.json" 'j["orders"]')" = "$(json "$mp/d-secret-turn1/expected.json" 'j["orders"]')" ]

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
check "turn 2's commitment is none derived from turn 1's reveal or seed plus one" sh -c "! printf '%s\n' '$guesses' | grep -qx '$c2'"

# --check shows no roll: not in the result, not in the trace.  Three orders
# depend on the dice: s1 (marshes), c1 (the charge) and r1 (the retreat
# the charge may call on).
for c in d-check-no-key d-check-secret; do
	(cd "$mp/$c" && "$arbiter" $(cat args) --trace-file "$tmp/trace.jsonl" map.json orders/*.json >"$tmp/check.json"
	 "$arbiter" $(cat args) --trace-file "$tmp/trace.txt" --text map.json orders/*.json >/dev/null)
	cat "$tmp/check.json" "$tmp/trace.jsonl" "$tmp/trace.txt" >"$tmp/all"
	check "$c: neither the seed nor the reveal" sh -c "! grep -q -e '$s1' -e '$r1' -e 'reveal' '$tmp/all'"
	check "$c: no roll, value, draw or seed" sh -c "! grep -qi -e '\"roll\": *[0-9]' -e 'roll=[0-9]' -e 'value' -e 'draws' -e 'd[49] [0-9]' -e 'seed' '$tmp/all'"
	check "$c: the dice outcomes are named" [ "$(grep -c depends_on_dice "$tmp/check.json")" -eq 3 ]
done

# The files part: the SHA-256 of every input as read, the map first, then
# the orders by player, then the rolls.
for c in d-secret-turn1 d-rolls; do
	d=$mp/$c
	want=$(cd "$d" && { sha256sum map.json; sha256sum orders/allies.json orders/french.json; [ -f rolls.json ] && sha256sum rolls.json; } | awk '{ print $2 " " $1 }')
	got=$(json "$d/expected.json" '"\n".join(f["file"] + " " + f["sha256"] for f in j["files"])')
	check "$c: the files part is sha256sum's" [ "$want" = "$got" ]
done
check "the secret is not among the files" sh -c "! grep -q umpire.key '$mp/d-secret-turn1/expected.json'"

echo "fair dice: $pass passed, $fail failed"
[ $fail -eq 0 ]
