#!/bin/sh
# Lints every man page with mandoc -T lint -W style: each clean page passes.
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for m in "$top"/man/*.[1-9]; do
	if out=$(mandoc -T lint -W style "$m" 2>&1) && [ -z "$out" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $m"
		echo "$out" | sed 's/^/# /'
	fi
done
echo "man pages: $pass passed, $fail failed"
[ $fail -eq 0 ]
