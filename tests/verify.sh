#!/bin/sh
# arbiter --verify: a passing case, a result and a next map that differ
# (the message names the JSON Pointer and both values), a formatting
# change, a diagnostic case, a missing directory (66) and none (64).
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
demo=$top/fixtures/aeonis/demo-turn
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
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
		sed 's/^/# /' "$tmp/out" "$tmp/err" | head -5
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
		sed 's/^/# /' "$tmp/out" | head -5
	fi
}

# A ruling with a next map, made from the demo turn.
mkdir "$tmp/good" "$tmp/good/orders"
cp "$demo/map.json" "$tmp/good/"
cp "$demo"/orders/*.json "$tmp/good/orders/"
echo -t >"$tmp/good/args"
(cd "$tmp/good" && "$arbiter" -t -o expected.json -n expected.next.json \
    map.json orders/*.json) || exit 70
cd "$tmp" || exit 70

expect 0 "a passing case" "$arbiter" --verify good
check "ok line" grep -qx 'ok good' "$tmp/out"
check "summary line" test "$(tail -n 1 "$tmp/out")" = \
    "verify: 1 passed, 0 failed"
check "nothing on standard error" test ! -s "$tmp/err"
check "no files created" test "$(ls good | tr '\n' ' ')" = \
    "args expected.json expected.next.json map.json orders "

# A result that differs: the first order's status.
cp -R good result
sed '0,/"status": "done"/s//"status": "failed"/' good/expected.json \
    >result/expected.json
expect 1 "a result that differs" "$arbiter" --verify good result
check "pointer and both values" grep -qx \
    'not ok result: result differs at /orders/0/status: expected "failed", got "done"' \
    "$tmp/out"
check "summary with a failure" test "$(tail -n 1 "$tmp/out")" = \
    "verify: 1 passed, 1 failed"

# A next map that differs: its turn.
cp -R good next
sed '0,/"turn": 5/s//"turn": 6/' good/expected.next.json \
    >next/expected.next.json
expect 1 "a next map that differs" "$arbiter" --verify next
check "next map pointer" grep -qx \
    'not ok next: next map differs at /turn: expected 6, got 5' "$tmp/out"

# Equal JSON in other bytes is a failure too, reported as such.
cp -R good format
sed 's/^ //' good/expected.json >format/expected.json
expect 1 "a formatting change" "$arbiter" --verify format
check "bytes only" grep -q \
    '^not ok format: result differs in bytes only (the JSON is equal)' \
    "$tmp/out"

# A member the result lacks, and one it has too many.
cp -R good member
sed 's/"seed": 20261122,/"seed": 20261122, "extra": [1],/' \
    good/expected.json >member/expected.json
expect 1 "a missing member" "$arbiter" --verify member
check "missing member" grep -qx \
    'not ok member: result differs at /extra: expected \[1\], got nothing' \
    "$tmp/out"

# A ruling made by another version of arbiter still holds: the result's
# program member is not compared; its rulings member is.
mkdir older
cp -R good/. older/
sed 's/"program": "arbiter [^"]*"/"program": "arbiter 0.0.1"/' \
    good/expected.json >older/expected.json
expect 0 "a ruling made by an older version" "$arbiter" --verify older
sed 's/"rulings": "[^"]*"/"rulings": "2000-01-01"/' older/expected.json \
    >older/e.json && mv older/e.json older/expected.json
expect 1 "a ruling made under other rulings" "$arbiter" --verify older
check "rulings message" grep -qx \
    'not ok older: result differs at /rulings: expected "2000-01-01", got "2026-11-24"' \
    "$tmp/out"

# Bad input: expected.err and expected.status.
mkdir bad
cp -R "$top/fixtures/aeonis/p-bad-map-json/." bad/
expect 0 "an expected.err case" "$arbiter" --verify bad
check "ok bad" grep -qx 'ok bad' "$tmp/out"
echo 'arbiter: something else' >bad/expected.err
expect 1 "a diagnostic that differs" "$arbiter" --verify bad
check "diagnostic message" grep -q '^not ok bad: diagnostic differs' \
    "$tmp/out"
echo 66 >bad/expected.status
expect 1 "a status that differs" "$arbiter" --verify bad
check "status message" grep -q '^not ok bad: exit status 65, expected 66' \
    "$tmp/out"

# Usage and input errors.
expect 66 "a missing DIR" "$arbiter" --verify good nosuch
check "missing DIR message" grep -q '^arbiter: cannot open nosuch: ' \
    "$tmp/err"
check "the other DIR still verified" grep -qx 'ok good' "$tmp/out"
expect 64 "no DIR" "$arbiter" --verify
check "usage on standard error" grep -q '^usage: arbiter' "$tmp/err"
expect 64 "--verify with an output" "$arbiter" --verify -o x.json good
check "no x.json" test ! -e x.json

echo "verify: $pass passed, $fail failed"
[ $fail -eq 0 ]
