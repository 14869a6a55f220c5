#!/bin/sh
# Validates the casebook against the JSON Schemas in schema/ with
# python3-jsonschema (Draft202012Validator): maps, next maps, the orders
# files of cases that are not bad input, and results (tests/schema.py).
# Prints one line per failure and ends with "schema: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
# Debian's python3 first (python3-jsonschema installs there), then
# whatever python3 the PATH finds first (a pyenv, say).
for py in /usr/bin/python3 python3; do
	if "$py" -c 'import jsonschema; jsonschema.Draft202012Validator' \
	    >/dev/null 2>&1; then
		exec "$py" "$top/tests/schema.py" "$@"
	fi
done
echo "schema: python3 with jsonschema 4 is missing" \
    "(Debian: apt-get install python3-jsonschema)"
echo "schema: 0 passed, 1 failed"
exit 1
