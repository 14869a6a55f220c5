#!/bin/sh
# The example games of examples/RULESET/: for each one,
# (1) `arbiter --verify examples/RULESET` passes: the expected result is
#     still what the program rules;
# (2) the files the manuals quote appear verbatim in a literal block
#     (between .Bd -literal and .Ed) of the page that quotes them:
#       examples/*/map.json       in man/arbiter-map.5
#       examples/*/orders/*.json  in man/arbiter-orders.5
#     The block's lines are compared after taking away the indentation
#     common to them (if any) and the roff escapes \e and \&.
# (arbiter-result(5) quotes an excerpt of examples/aeonis/expected.json,
# marked as one, which (1) keeps honest through the file.)
# Ends with "examples: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
ARBITER=${ARBITER:-$top/arbiter}
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}

# quoted FILE PAGE: FILE's lines appear, one after another, in one literal
# block of PAGE.
quoted() {
	awk '
	FNR == NR { want[++n] = $0; next }
	/^\.Bd -literal/ { inb = 1; m = 0; next }
	inb && /^\.Ed/ { inb = 0; check(); next }
	inb { gsub(/\\e/, "\\"); gsub(/\\&/, ""); blk[++m] = $0 }
	function check(   i, j, k, ind, l) {
		ind = -1
		for (i = 1; i <= m; i++) {
			if (blk[i] ~ /^[ \t]*$/) continue
			match(blk[i], /^ */); l = RLENGTH
			if (ind < 0 || l < ind) ind = l
		}
		for (i = 1; i <= m; i++)
			blk[i] = ind > 0 ? substr(blk[i], ind + 1) : blk[i]
		for (i = 1; i + n - 1 <= m; i++) {
			for (k = 1; k <= n; k++)
				if (blk[i + k - 1] != want[k]) break
			if (k > n) found = 1
		}
	}
	END { exit !(n > 0 && found) }' "$1" "$2"
}

for d in examples/*/; do
	d=${d%/}
	[ -f "$d/map.json" ] || continue
	out=$("$ARBITER" --verify "$d" 2>&1)
	ok $? "arbiter --verify $d${out:+: $(echo "$out" | head -1)}"
	quoted "$d/map.json" man/arbiter-map.5
	ok $? "$d/map.json is quoted verbatim in arbiter-map(5)"
	for o in "$d"/orders/*.json; do
		quoted "$o" man/arbiter-orders.5
		ok $? "$o is quoted verbatim in arbiter-orders(5)"
	done
done
[ $((pass + fail)) -gt 0 ] || { echo "not ok - no examples"; fail=1; }
echo "examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
