#!/bin/sh
# Feeds every case of JSONTestSuite's test_parsing (shared/data) to arbiter,
# as a map and as an orders file.  None may crash; every one must be
# refused (none is a valid map or orders file): as a map with exit 65 and a
# message that names the file and a line:column; as an orders file, with
# --strict, the same way, and without it as a ruling (issue 12): exit 0,
# the file refused in the result, nothing on standard error.
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
suite=${SHARED:-$top/../shared}/data/JSONTestSuite/test_parsing
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ ! -d "$suite" ]; then
	echo "jsonsuite: $suite not found: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
map=$top/fixtures/aeonis/demo-turn/map.json
# Two shards at once (JOBS), each taking every other case; the failures
# are listed in order and the counts added up.
jobs=${JOBS:-2}
if [ -z "$SHARD" ] && [ "$jobs" -gt 1 ]; then
	i=0
	while [ $i -lt "$jobs" ]; do
		SHARD=$i/$jobs sh "$0" >"$tmp/shard.$i" 2>&1 &
		i=$((i + 1))
	done
	wait
	cat "$tmp"/shard.* | awk '
	/^jsonsuite: / { pass += $2; fail += $4; next }
	{ print | "sort -t\" \" -k3,3n"; bad++ }
	END { close("sort -t\" \" -k3,3n")
		printf "jsonsuite: %d passed, %d failed\n", pass, fail
		exit (fail > 0 || bad > fail) }'
	exit
fi
shard=${SHARD%/*} nshards=${SHARD#*/}
[ -n "$SHARD" ] || shard=0 nshards=1
pass=0 fail=0 n=0
for f in "$suite"/*.json; do
	base=$(basename "$f")
	for role in map orders; do
		n=$((n + 1))
		[ $(((n - 1) / 2 % nshards)) -eq "$shard" ] || continue
		if [ $role = map ]; then
			"$arbiter" "$f" >"$tmp/out" 2>"$tmp/err"
		else
			"$arbiter" --strict "$map" "$f" >"$tmp/out" 2>"$tmp/err"
		fi
		status=$?
		msg=$(head -n 1 "$tmp/err")
		why=
		if [ $status -ne 65 ]; then
			why="exit status $status, expected 65: $msg"
		elif [ -s "$tmp/out" ]; then
			why="wrote output"
		else
			case $msg in
			"arbiter: $f:"[0-9]*:[0-9]*": "?*) ;;
			*) why="message not located: $msg" ;;
			esac
		fi
		if [ -z "$why" ] && [ $role = orders ]; then
			"$arbiter" "$map" "$f" >"$tmp/out" 2>"$tmp/err"
			status=$?
			if [ $status -ne 0 ]; then
				why="without --strict: exit status $status"
			elif [ -s "$tmp/err" ] ||
			    ! grep -q '"status": "refused"' "$tmp/out"; then
				why="without --strict: not refused as a ruling"
			fi
		fi
		if [ -z "$why" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "not ok $n - $base as $role: $why"
		fi
	done
done
echo "jsonsuite: $pass passed, $fail failed"
[ $fail -eq 0 ]
