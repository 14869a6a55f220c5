#!/bin/sh
# The casebook runner: one directory per case under fixtures/RULESET/CASE.
# Runs `arbiter $(cat args) map.json orders/*.json orders/*.eml` (mails)
# in the case directory,
# and `arbiter --verify` on it, which compares standard output with
# expected.json, or standard error and the exit status with expected.err
# and expected.status, and, with expected.next.json, the next map with it.
# The runner checks that the next map loads again (with the case's args:
# a next map that commits to its dice needs the umpire's key).  A case
# with umpire.key is run with it (--secret umpire.key before its args),
# and --verify replays it without the key from the value its result
# reveals, as anyone can (arbiter(1), FAIR DICE).  Every case runs twice
# (outputs must be byte-identical) and once more with the order files
# reversed on the command line (the result must not change).  Where a case has expect.txt,
# the outcome worked out by hand, tests/expect checks the result against it
# too, so that a golden cannot drift from the hand computation.  Orders
# may be JSON (orders/*.json) or text (orders/*.txt, arbiter-orders(5));
# where a case has a file twin, naming another case's directory (its
# orders the same as JSON), the result must be the twin's expected.json
# apart from the files' names, digests and form and where the problems
# are in their files (tests/twin.py).  Where a
# case has expected.svg, the first and the reversed runs also write the
# picture (--svg), which must be those bytes; where it has expected.txt, a
# run with --text added (a player's report as text: args hold --for) must
# write those bytes.
#
#	ARBITER=path	the program (default ./arbiter)
#	VERBOSE=1	print each command
#	STOP=1		stop at the first failure
#	UPDATE=1	rewrite the goldens (review the diff like code): a
#			case that exits 0 or 1 gets expected.json, and
#			expected.err when it writes to standard error (the
#			problems --check lists); any other, expected.err
#	VALGRIND=1	run under valgrind, failing on any error or leak
#	CASE=name	run only cases whose path contains name
#	JOBS=n		cases run n at a time (default 2; 1 with STOP or
#			UPDATE), the report in the casebook's order
# Prints one TAP line per case and ends with "N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
expect=$top/tests/expect
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
run=$arbiter
[ -n "$VALGRIND" ] && run="valgrind -q --error-exitcode=99 --leak-check=full \
--errors-for-leak-kinds=definite,indirect $arbiter"

# Shards: n copies of this script, each taking every n-th case, their
# reports put back in the casebook's order (the diagnostics of a case come
# before its "not ok" line).
jobs=${JOBS:-2}
[ -n "$STOP$UPDATE" ] && jobs=1
if [ -z "$SHARD" ] && [ "$jobs" -gt 1 ]; then
	i=0
	while [ $i -lt "$jobs" ]; do
		SHARD=$i/$jobs sh "$0" >"$tmp/shard.$i" 2>&1 &
		i=$((i + 1))
	done
	wait
	cat "$tmp"/shard.* | awk '
	/^(not )?ok [0-9]+ / {
		k = ($1 == "ok") ? $2 : $3
		block[k] = block[k] pend $0 "\n"; pend = ""
		if (k > max) max = k
		if ($1 == "ok") pass++; else fail++
		next }
	/^1\.\.[0-9]+$/ { if (substr($0, 4) + 0 > max) max = substr($0, 4) + 0
		next }
	/^casebook: / { next }
	{ pend = pend $0 "\n" }
	END {
		for (k = 1; k <= max; k++) printf "%s", block[k]
		printf "%s", pend
		if (pass + fail < max) {
			printf "not ok - %d cases did not report\n", \
			    max - pass - fail
			fail = max - pass
		}
		print "1.." max
		printf "casebook: %d passed, %d failed\n", pass, fail
		exit fail > 0 }'
	exit
fi
shard=${SHARD%/*} nshards=${SHARD#*/}
[ -n "$SHARD" ] || shard=0 nshards=1

# keyed STATUS: a case made with its umpire.key whose outcome is an
# error of the key itself, which --verify cannot replay without the key
# (issue 26: the child never sees a key).  Compares the first run
# (STATUS, standard output and error, the next map) with the expected
# files as --verify does (the "program" member aside), and prints a line
# as --verify would.
keyed() {
	want=0
	[ -f expected.status ] && want=$(cat expected.status)
	unversion='s/^  "program": "[^"]*"/  "program": ""/'
	if [ "$1" -ne "$want" ]; then
		echo "not ok .: exit status $1, expected $want"
	elif [ -f expected.json ] && [ "$(sed "$unversion" expected.json)" != \
	    "$(sed "$unversion" "$tmp/out")" ]; then
		echo "not ok .: result differs"
	elif [ -f expected.err ] && ! cmp -s expected.err "$tmp/err"; then
		echo "not ok .: diagnostic differs"
	elif [ ! -f expected.err ] && [ -s "$tmp/err" ]; then
		echo "not ok .: unexpected output on standard error"
	elif [ -f expected.next.json ] &&
	    ! cmp -s expected.next.json "$tmp/next.json"; then
		echo "not ok .: next map differs"
	else
		echo "ok ."
		return 0
	fi
	return 1
}

pass=0 fail=0 n=0
for dir in "$top"/fixtures/*/*/; do
	dir=${dir%/}
	name=${dir#"$top"/fixtures/}
	[ -f "$dir/map.json" ] || continue
	[ -n "$CASE" ] && case $name in *"$CASE"*) ;; *) continue ;; esac
	n=$((n + 1))
	[ $(((n - 1) % nshards)) -eq "$shard" ] || continue
	cd "$dir" || exit 70
	args=$(cat args 2>/dev/null)
	# A case made with the umpire's key keeps it as umpire.key: the
	# runs here take it; --verify replays without it.
	[ -f umpire.key ] && args="--secret umpire.key $args"
	orders=$(ls orders/*.json orders/*.txt orders/*.eml 2>/dev/null |
	    LC_ALL=C sort)
	reversed=$(printf '%s\n' $orders | sort -r)
	nextarg= svg= svg3=
	[ -f expected.next.json ] && nextarg="--next $tmp/next.json"
	[ -f expected.svg ] && svg="--svg $tmp/pic.svg" svg3="--svg $tmp/pic3.svg"
	[ -n "$VERBOSE" ] && echo "# (cd $dir && arbiter $args $nextarg $svg map.json" $orders ")"
	rm -f "$tmp/pic.svg" "$tmp/pic3.svg" "$tmp/txt"
	$run $args $nextarg $svg map.json $orders >"$tmp/out" 2>"$tmp/err"
	status=$?
	[ -f expected.txt ] && $run $args --text map.json $orders >"$tmp/txt" 2>&1
	why=
	if [ -n "$UPDATE" ]; then
		if [ $status -ne 0 -a $status -ne 1 ]; then
			cp "$tmp/err" expected.err
			echo $status >expected.status
			rm -f expected.json
		else
			# A result, and what --check said on standard error
			# about the orders files, if anything.
			cp "$tmp/out" expected.json
			if [ -s "$tmp/err" ]; then cp "$tmp/err" expected.err
			else rm -f expected.err; fi
			if [ $status -ne 0 ]; then echo $status >expected.status
			else rm -f expected.status; fi
		fi
		[ -n "$nextarg" ] && cp "$tmp/next.json" expected.next.json
		[ -n "$svg" ] && cp "$tmp/pic.svg" expected.svg
		[ -f expected.txt ] && cp "$tmp/txt" expected.txt
	fi
	# The result, the diagnostic, the exit status and the next map
	# are compared by arbiter --verify, as users compare their own
	# rulings; the diff of the first run follows for the reader.
	# A case whose outcome is an error of the key itself cannot be
	# replayed without it: its run is compared here instead.
	if [ -f umpire.key ] && [ -f expected.status ] &&
	    [ "$(cat expected.status)" -gt 1 ]; then
		keyed $status >"$tmp/verify"
		vstatus=$?
	else
		$run --verify . >"$tmp/verify" 2>&1
		vstatus=$?
	fi
	if [ $vstatus -ne 0 ]; then
		why=$(sed -n 's/^not ok \.: //p' "$tmp/verify")
		[ -n "$why" ] && [ $vstatus -eq 1 ] ||
		    why="arbiter --verify: exit status $vstatus"
		case $why in
		"result differs"*)
			diff -u expected.json "$tmp/out" | head -60 ;;
		"diagnostic differs"*)
			diff -u expected.err "$tmp/err" ;;
		"next map differs"*)
			diff -u expected.next.json "$tmp/next.json" |
			    head -40 ;;
		*)
			grep -v '^verify: ' "$tmp/verify" | head -20 ;;
		esac | sed 's/^/# /'
	elif [ -f umpire.key ] && [ -f expected.json ] &&
	    ! cmp -s expected.json "$tmp/out"; then
		why="the run with the key differs from expected.json"
		diff -u expected.json "$tmp/out" | sed 's/^/# /' | head -20
	elif [ -n "$svg" ] && ! cmp -s expected.svg "$tmp/pic.svg"; then
		why="the picture differs from expected.svg"
		diff -u expected.svg "$tmp/pic.svg" | sed 's/^/# /' | head -20
	elif [ -f expected.txt ] && ! cmp -s expected.txt "$tmp/txt"; then
		why="the text report differs from expected.txt"
		diff -u expected.txt "$tmp/txt" | sed 's/^/# /' | head -20
	elif [ -n "$nextarg" ] && ! $run $args "$tmp/next.json" >/dev/null 2>"$tmp/err2"; then
		why="the next map does not load again: $(cat "$tmp/err2")"
	elif [ -f twin ] && ! python3 "$top/tests/twin.py" "$tmp/out" \
	    "$(cat twin)/expected.json" >"$tmp/twin" 2>&1; then
		why="the result is not its twin's ($(cat twin)): $(cat "$tmp/twin")"
	elif [ -f expect.txt ] && ! "$expect" expect.txt "$tmp/out" >"$tmp/exp" 2>&1; then
		why="the result is not the outcome worked out in expect.txt"
		sed 's/^/# /' "$tmp/exp" | head -40
	elif case " $args " in *" --reach "*) true ;; *) false ;; esac; then
		# A reach query (one orders file at most, no trace, no next
		# map): a second run must give the same bytes.
		$run $args map.json $orders >"$tmp/out2" 2>"$tmp/err2"
		if ! cmp -s "$tmp/out" "$tmp/out2" ||
		    ! cmp -s "$tmp/err" "$tmp/err2"; then
			why="a second run gave other output"
		fi
	else
		# The second and the reversed runs also write the trace and,
		# unless only checking, the next map: neither may depend on
		# the order of the operands any more than the result may.
		n2= n3=
		case " $args " in
		*" --check "* | *" -c "*) ;;
		*) n2="--next $tmp/next2.json" n3="--next $tmp/next3.json" ;;
		esac
		rm -f "$tmp/trace2" "$tmp/trace3" "$tmp/next2.json" \
		    "$tmp/next3.json"
		$run $args --trace-file "$tmp/trace2" $n2 map.json $orders \
		    >"$tmp/out2" 2>"$tmp/err2"
		$run $args --trace-file "$tmp/trace3" $n3 $svg3 map.json \
		    $reversed >"$tmp/out3" 2>"$tmp/err3"
		if ! cmp -s "$tmp/out" "$tmp/out2" || ! cmp -s "$tmp/err" "$tmp/err2"; then
			why="a second run gave other output"
		elif [ -f expected.json ] && ! cmp -s "$tmp/out" "$tmp/out3"; then
			why="reversing the order files changed the result"
		elif [ -n "$svg" ] && ! cmp -s "$tmp/pic.svg" "$tmp/pic3.svg"; then
			why="reversing the order files changed the picture"
		elif [ -f expected.json ] &&
		    ! cmp -s "$tmp/trace2" "$tmp/trace3"; then
			why="reversing the order files changed the trace"
			diff -u "$tmp/trace2" "$tmp/trace3" | sed 's/^/# /' |
			    head -20
		elif [ -f expected.json ] && [ -n "$n2" ] &&
		    ! cmp -s "$tmp/next2.json" "$tmp/next3.json"; then
			why="reversing the order files changed the next map"
			diff -u "$tmp/next2.json" "$tmp/next3.json" |
			    sed 's/^/# /' | head -20
		fi
	fi
	cd "$top" || exit 70
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok $n - $name"
	else
		fail=$((fail + 1))
		echo "not ok $n - $name: $why"
		[ -n "$STOP" ] && break
	fi
done
echo "1..$n"
echo "casebook: $pass passed, $fail failed"
[ $fail -eq 0 ]
