#!/bin/sh
# Hostile input (issue 27, Mail): a mail whose body holds a run of a
# million carriage returns before an "x": the reader turns a run of CRs
# before a LF into the LF, and looking for that LF again at each CR of the
# run is quadratic (minutes for this mail) unless the run is scanned once.
# (The file is named .json; it is read as a mail by what it holds.)
#
#	sh tests/hostile/mail-carriage-returns.sh DIR
dir=${1:?usage: mail-carriage-returns.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir/orders" || exit 1
cp "$top/fixtures/aeonis/demo-turn/map.json" "$dir/map.json" || exit 1
{
	printf 'From: red@example.org\nSubject: orders\n\n'
	printf 'arbiter orders red turn 4\n'
	awk 'BEGIN { for (i = 0; i < 1000; i++) { for (j = 0; j < 1000; \
	    j++) printf "\r"; } print "x" }'
	printf 'end\n'
} >"$dir/orders/red.json"
echo 0 >"$dir/status"
