#!/bin/sh
# Validates the casebook against the JSON Schemas in schema/ with
# python3-jsonschema (Draft202012Validator): maps, next maps, the orders
# files of cases that are not bad input, and results (tests/schema.py).
# Prints one line per failure and ends with "schema: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
if ! python3 -c 'import jsonschema; jsonschema.Draft202012Validator' \
    >/dev/null 2>&1; then
	echo "schema: python3 with jsonschema 4 is missing" \
	    "(Debian: apt-get install python3-jsonschema)"
	echo "schema: 0 passed, 1 failed"
	exit 1
fi
exec python3 "$top/tests/schema.py" "$@"
