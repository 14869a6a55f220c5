#!/bin/bash
# What `make check` runs: the unit tests, the layering of lib/, the
# casebook under AddressSanitizer and UndefinedBehaviorSanitizer (or
# valgrind with VALGRIND=1), the JSONTestSuite cases, the error-path tests, the fuzz
# replays, the property test, the casebook against the JSON Schemas, the
# example games against the manuals that quote them, the consistency of
# the trace with the result (tests/consistency.py), the pictures, their
# legibility and players' reports (tests/svg.sh, tests/legibility.sh,
# tests/views.py, tests/hidden.py), the order sheet (tests/sheet.py), the
# game's mail out and a league of games (tests/post.sh, tests/league.sh)
# and the
# man page lint.  Ends with one line: "N passed, N failed".
#
# The suites run CHECK_JOBS at a time (default: as many as there are
# processors), each into a log of its own; their reports are printed in
# the order they are listed, each once it and those before it are done,
# so that the output reads as one suite after another.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
dir=$(mktemp -d) || exit 70
seeds=
trap 'rm -rf "$dir" $seeds' EXIT INT TERM
jobs_max=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
nsuites=0 shown=0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=98
export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=97
if [ -n "$VALGRIND" ]; then
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "VALGRIND=1: valgrind is not installed (Debian: apt-get" \
		    "install valgrind); no test was run" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	export ARBITER=$top/arbiter
else
	export ARBITER=${ARBITER:-$top/build-san/arbiter}
fi

# show: the reports of the suites done, in their order, up to the first
# not done.  A suite's report is all but its "ok" lines and its time; one
# that fails without counting a failure (a crash, say) counts one.
show() {
	local f
	while [ "$shown" -lt "$nsuites" ] &&
	    [ -f "$dir/$((shown + 1)).rc" ]; do
		shown=$((shown + 1))
		f=$dir/$shown
		echo "== $(cat "$f.name")"
		grep -v '^ok ' "$f.one"
		echo "   ($(cat "$f.time") s)"
		cat "$f.one" >>"$dir/log"
		if [ "$(cat "$f.rc")" != "exit status 0" ] &&
		    ! grep -q '^[a-z ]*: [0-9]* passed, [1-9][0-9]* failed' \
		    "$f.one"; then
			echo "$(cat "$f.name"): 0 passed, 1 failed ($(cat \
			    "$f.rc"))" | tee -a "$dir/log"
		fi
	done
}

# suite NAME COMMAND...: starts a suite once fewer than jobs_max run.
suite() {
	local name=$1 f
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
		show
	done
	nsuites=$((nsuites + 1))
	f=$dir/$nsuites
	echo "$name" >"$f.name"
	(
		start=$(date +%s)
		"$@" >"$f.one" 2>&1 </dev/null
		st=$?
		echo $(($(date +%s) - start)) >"$f.time"
		echo "exit status $st" >"$f.rc.tmp"
		mv "$f.rc.tmp" "$f.rc"
	) &
	show
}

# The longest suites first, so that none is left to run alone at the end.
# Orders as text (issue 27): every orders file of the casebook and random
# turns of every rule system, JSON -> text -> JSON the same orders and
# the text ruled as the JSON.  A property of the text form, so with the
# program built for users (2,400 runs: a third of the time under the
# sanitizers); the sanitizers read and write the same texts in the
# casebook's text cases and the text target's replays (fuzz text).
suite "textprop" python3 tests/textprop.py "$top" "$top/arbiter" tests/prop 10
suite "casebook ($ARBITER)" sh tests/casebook.sh
# Every allocation of a turn failing in turn, over every casebook case
# that takes no options: ARB_ENOMEM and nothing leaked, each time.
suite "out of memory" sh -c 'tests/oom $(for d in fixtures/*/*/; do
    [ -f "$d/expected.json" ] && [ ! -f "$d/args" ] &&
    [ ! -f "$d/umpire.key" ] && echo "$d"; done)'
# Pictures and players' reports (issue 16): the golden SVGs parsed and
# rendered in headless Chromium, doc/demo-turn.svg up to date; nothing of
# another player's orders in a report when the map hides them, --outdir.
suite "svg" sh tests/svg.sh
# Hidden orders over random turns of every rule system (issue 26, HD1):
# no player's report, text, trace cut, picture, replay page or check
# holds another player's order id, and with --for P standard error holds
# only P's problems (HD2).
suite "hidden orders" python3 tests/hidden.py "$top" "$ARBITER" tests/prop 20
suite "unit tests" tests/unit
# The mail reader (issue 27): what it takes from each hand-written mail.
suite "mail" sh -c 'tests/mail fixtures/mail/*.eml'
suite "layers" sh tests/layers.sh
suite "JSONTestSuite" sh tests/jsonsuite.sh
suite "error paths" sh tests/errors.sh
suite "verify" sh tests/verify.sh
suite "game" sh tests/game.sh
suite "fair dice" sh tests/dice.sh
suite "examples" sh tests/examples.sh
suite "hostile inputs" sh tests/hostile.sh
suite "outputs" sh tests/outputs.sh
# The game's mail out (issue 31): arbiter game send through a stand-in
# sendmail, every message read back by Python's email package, hostile
# descriptions refused.
suite "post" sh tests/post.sh
# A league of 200 games under GNU parallel, here and across machines
# through a stand-in ssh (issue 31), with the program built for users: the
# sanitizers run the game's commands in the suites above.
suite "league" env ARBITER="$top/arbiter" sh tests/league.sh
# The fuzz targets replay their corpora, the casebook's seeds and
# tests/crashes/ byte for byte (tests/fuzz/README).
seeds=$(mktemp -d) || exit 70
sh tests/fuzz/seeds.sh load "$seeds/load" >/dev/null
sh tests/fuzz/seeds.sh turn "$seeds/turn" >/dev/null
sh tests/fuzz/seeds.sh mail "$seeds/mail" >/dev/null
sh tests/fuzz/seeds.sh text "$seeds/text" >/dev/null
suite "fuzz replay" tests/fuzz_main -n "fuzz replay" tests/corpus/load \
    tests/crashes/load "$seeds/load"
suite "fuzz turn" tests/fuzz_turn_main -n "fuzz turn" tests/corpus/turn \
    tests/crashes/turn "$seeds/turn"
# The same replays built with clang's sanitizers, which see what gcc's do
# not (a zero offset added to a null pointer: issue 26), and beside a
# second thread, as libFuzzer runs them: the graphs laid out in the
# process rather than in a child (lib/format/svg.c).
suite "fuzz replay clang" build-san-clang/fuzz_main -n "fuzz replay clang" -t \
    tests/corpus/load tests/crashes/load "$seeds/load"
suite "fuzz turn clang" build-san-clang/fuzz_turn_main -n "fuzz turn clang" -t \
    tests/corpus/turn tests/crashes/turn "$seeds/turn"
suite "fuzz mail" tests/fuzz_mail_main -n "fuzz mail" tests/corpus/mail \
    tests/crashes/mail "$seeds/mail"
suite "fuzz text" tests/fuzz_text_main -n "fuzz text" tests/corpus/text \
    tests/crashes/text "$seeds/text"
suite "prop" sh tests/prop.sh
# Reach (issue 15): random boards of each rule system with walk hooks;
# every cell reported is done at its cost, no path does better.
suite "reach" tests/reach
# The same under ThreadSanitizer, for the search's second thread (aeonis
# is the rule system that looks ahead).
suite "reach threads" tests/reach-tsan 40 16 aeonis
suite "schema" sh tests/schema.sh
# The trace as evidence: result, JSON Lines and text trace agree, costs add
# up from their parts, every event documented (arbiter-result(5)).
# It runs the program built for users (./arbiter, with -Werror): what
# it checks is what the trace says, and the sanitizers already run every
# case above.
suite "consistency" python3 tests/consistency.py "$top" "$top/arbiter" \
    tests/prop 20
# Legibility (issue 29), in headless Chromium: in every golden picture
# and in pictures of random turns of every rule system, no two texts
# overlap, no mark or arrow covers a text or a badge, every text is at
# least 8 pixels high at the PNG's default width (tests/legibility.py).
suite "legibility" env LEGIBILITY_SKIP_OK=1 sh tests/legibility.sh
# The order sheet (issue 32), in headless Chromium: real clicks on units
# and cells of players' sheets of random turns, the costs shown and the
# orders text written checked by --check; the draft kept over a reload;
# the keyboard alone (tests/sheet.py).
suite "sheet" env SHEET_SKIP_OK=1 python3 tests/sheet.py
suite "views" python3 tests/views.py "$top" "$ARBITER"
# The replay page (issue 32), in headless Chromium: casebook turns of
# every rule system stepped through with real clicks and keys, each event
# once and in order, the last step's board the result's
# (tests/replay.py); skipped without Chromium, as legibility is.
suite "replay" env REPLAY_SKIP_OK=1 python3 tests/replay.py "$top" "$ARBITER"
# Refused orders: every member of every order kind spoilt in turn, and
# orders for another player's unit (issue 12).
suite "refusals" python3 tests/refusals.py
# GLib's slice allocator (under GMime) hands blocks between threads by
# GLib's own locks, which ThreadSanitizer cannot see (GLib is not built
# with it): a race reported inside g_slice_alloc0() once in several runs.
# G_SLICE=always-malloc, GLib's documented switch, gives each slice from
# malloc, which ThreadSanitizer sees.
G_SLICE=always-malloc
export G_SLICE
# Seven turns (each rule system; files refused whole) at once in seven
# threads under ThreadSanitizer, each also with its orders parsed ahead on
# a second thread of its own, each writing its pictures, reports and trace
# cuts, and beside them a reach large enough for the search's look-ahead
# thread; then the installed library embedded in a program.
suite "threads" tests/threads fixtures/aeonis/demo-turn \
    fixtures/xconq/z-max-two-enemies fixtures/morne-plaine/c-charge-ends \
    fixtures/arcane-legions/n-spec-example fixtures/territory/loop-three \
    fixtures/aeonis/refused-files fixtures/territory/refused-files \
    fixtures/aeonis/mail-json-attached fixtures/aeonis/mail-html-only \
    fixtures/aeonis/text-demo-turn fixtures/territory/text-quoting
suite "install" sh tests/install.sh
suite "man pages" sh tests/manlint.sh
# The library and the program build warning-free with gcc (the program
# make check uses is built with -Werror) and with clang where it is.
suite "gcc build" sh -c 'make -s werror-build >/dev/null &&
    echo "gcc build: 1 passed, 0 failed"'
if command -v clang >/dev/null 2>&1; then
	suite "clang build" sh -c 'make -s CC=clang WERROR=-Werror \
	    arbiter-clang >/dev/null && echo "clang build: 1 passed, 0 failed"'
else
	suite "clang build" echo "clang build: 0 passed, 0 failed, 1" \
	    "skipped (no clang)"
fi
wait
show
# Each suite ends with "NAME: N passed, N failed"; add them up.
awk '/^[a-z ]+: [0-9]+ passed, [0-9]+ failed/ {
	sub(/^[^:]*: /, ""); p += $1; f += $3 }
    END { printf "%d passed, %d failed\n", p, f; exit f > 0 }' "$dir/log"
