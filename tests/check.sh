#!/bin/sh
# What `make check` runs: the unit tests, the casebook under
# AddressSanitizer and UndefinedBehaviorSanitizer (or valgrind with
# VALGRIND=1), the JSONTestSuite cases, the error-path tests and the man page
# lint.  Ends with one line: "N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
log=$(mktemp) || exit 70
trap 'rm -f "$log"' EXIT INT TERM
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=98
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=97
if [ -n "$VALGRIND" ]; then
	export ARBITER=$top/arbiter
else
	export ARBITER=${ARBITER:-$top/build-san/arbiter}
fi

suite() {
	echo "== $1"
	shift
	"$@" 2>&1 | tee -a "$log" | grep -v '^ok '
}

suite "unit tests" tests/unit
suite "casebook ($ARBITER)" sh tests/casebook.sh
suite "JSONTestSuite" sh tests/jsonsuite.sh
suite "error paths" sh tests/errors.sh
if command -v mandoc >/dev/null 2>&1; then
	suite "man pages" sh tests/manlint.sh
fi
# Each suite ends with "NAME: N passed, N failed"; add them up.
awk '/^[a-z ]+: [0-9]+ passed, [0-9]+ failed/ {
	sub(/^[^:]*: /, ""); p += $1; f += $3 }
    END { printf "%d passed, %d failed\n", p, f; exit f > 0 }' "$log"
