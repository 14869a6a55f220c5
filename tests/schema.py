#!/usr/bin/env python3
# Validates the casebook against the JSON Schemas in schema/: every map and
# next map against map.schema.json, every orders file of a case that is not
# bad input (no expected.err) and refuses nothing against
# orders.schema.json, and every expected.json against result.schema.json
# (reach.schema.json for a --reach case).  Prints one line per failure
# and ends with "schema: N passed, N failed".
import glob
import json
import os
import sys

import jsonschema

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
os.chdir(top)
validators = {}
for name in ("map", "orders", "result", "reach"):
    with open("schema/%s.schema.json" % name) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    validators[name] = jsonschema.Draft202012Validator(s)

passed = failed = 0


def check(name, path):
    global passed, failed
    try:
        with open(path) as f:
            doc = json.load(f)
    except ValueError as e:
        print("%s: not JSON: %s" % (path, e))
        failed += 1
        return
    errs = sorted(validators[name].iter_errors(doc), key=lambda e: e.path)
    if not errs:
        passed += 1
        return
    failed += 1
    for e in errs[:3]:
        print("%s: %s: /%s: %s" % (path, name,
            "/".join(str(p) for p in e.absolute_path), e.message[:200]))


cases = sorted(glob.glob("fixtures/*/*/"))
if len(sys.argv) > 1:
    cases = [c for c in cases if any(a in c for a in sys.argv[1:])]
for case in cases:
    if os.path.exists(case + "expected.err") and \
            not os.path.exists(case + "expected.json"):
        continue
    check("map", case + "map.json")
    # Orders refused (a ruling since issue 12) are not valid orders.
    refused = False
    if os.path.exists(case + "expected.json"):
        with open(case + "expected.json") as f:
            r = json.load(f).get("refused", {})
        refused = r.get("orders", 0) > 0 or r.get("files", 0) > 0
    for o in sorted(glob.glob(case + "orders/*.json")):
        if not refused:
            check("orders", o)
    args = ""
    if os.path.exists(case + "args"):
        with open(case + "args") as f:
            args = f.read()
    if os.path.exists(case + "expected.json"):
        # A reach query (issue 15) answers with the reach document.
        check("reach" if "--reach" in args.split() else "result",
              case + "expected.json")
    if os.path.exists(case + "expected.next.json"):
        check("map", case + "expected.next.json")
print("schema: %d passed, %d failed" % (passed, failed))
sys.exit(failed > 0)
