#!/usr/bin/env python3
# Refused orders (issue 12), for every order kind of every rule system.
#
# 1. Each member of a valid order from the casebook or the example games is
#    in turn removed, retyped or given a wrong value.  The run must exit 0,
#    the order must be illegal with a located message (file:line:column:
#    ... at /orders/N...), and everything else (the other orders' rulings,
#    the units, ownership, losses, players, the next map) must be what the
#    run without that order gives.  Removing a member an order may go
#    without (an id, a choice with a default) need only exit 0.
# 2. An order for another player's unit, whatever else it says, changes
#    nothing in the result or the next map but its own ruling (territory:
#    an order from another player's territory).
#
#	ARBITER=path	the program (default ./arbiter)
# Prints a line per failure and ends with "refusals: N passed, N failed".
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
arbiter = os.environ.get("ARBITER", os.path.join(top, "arbiter"))
if not os.path.isabs(arbiter):
    arbiter = os.path.join(top, arbiter)

# (case, orders file, index): one valid order of each kind.
ORDERS = [
    ("examples/aeonis", "red.json", 0),              # move
    ("examples/aeonis", "red.json", 1),              # attack
    ("fixtures/aeonis/p-translocate", "red.json", 0),
    ("fixtures/aeonis/p-reinforce", "red.json", 0),
    ("examples/territory", "red.json", 0),           # move, armies
    ("examples/morne-plaine", "french.json", 0),     # move
    ("examples/morne-plaine", "allies.json", 0),     # retreat
    ("examples/xconq", "red.json", 0),               # move
    ("fixtures/xconq/w-leave", "red.json", 0),       # leave_world
    ("examples/arcane-legions", "red.json", 0),      # move
    ("examples/arcane-legions", "blue.json", 0),     # breakaway, lost
]
KINDS = {"move", "attack", "translocate", "reinforce", "retreat",
         "leave_world", "breakaway"}
REQUIRED = KINDS | {"units", "armies", "step", "turn"}

passed = failed = 0
tmp = tempfile.mkdtemp()


def fail(what):
    global failed
    failed += 1
    print("not ok - " + what)


def ok():
    global passed
    passed += 1


def run(case, files):
    """Runs the case with the orders files given as {name: document};
    returns (status, result, next map text)."""
    d = os.path.join(tmp, "case")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "orders"))
    shutil.copy(os.path.join(top, case, "map.json"), d)
    names = []
    for name, doc in sorted(files.items()):
        with open(os.path.join(d, "orders", name), "w") as f:
            json.dump(doc, f, indent=1)
        names.append("orders/" + name)
    args = []
    if os.path.exists(os.path.join(top, case, "args")):
        args = open(os.path.join(top, case, "args")).read().split()
    if os.path.exists(os.path.join(top, case, "umpire.key")):
        args = ["--secret", os.path.join(top, case, "umpire.key")] + args
    p = subprocess.run([arbiter] + args + ["-n", "next.json", "map.json"] +
                       names, cwd=d, capture_output=True, text=True)
    if p.returncode != 0:
        return p.returncode, p.stderr, None
    with open(os.path.join(d, "next.json")) as f:
        nxt = f.read()
    return 0, json.loads(p.stdout), nxt


def load(case):
    files = {}
    od = os.path.join(top, case, "orders")
    for name in os.listdir(od):
        with open(os.path.join(od, name)) as f:
            files[name] = json.load(f)
    return files


def rest(result):
    """The result without the orders and the counts of refusals."""
    r = {k: v for k, v in result.items()
         if k not in ("orders", "refused", "files")}
    return r


def others(result, name, index):
    """The other orders' rulings, without their index (it shifts when an
    order is taken out)."""
    out = []
    for o in result["orders"]:
        if o["file"] == "orders/" + name and o["index"] == index:
            continue
        o = dict(o)
        del o["index"]
        out.append(o)
    return out


def mutations(order):
    """(description, new order, must be illegal)."""
    ids = None
    for key, val in order.items():
        m = copy.deepcopy(order)
        del m[key]
        yield "without %s" % key, m, key in REQUIRED
        if isinstance(val, str):
            retyped, wrong = 7, "zz-nowhere"
        elif isinstance(val, bool):
            retyped, wrong = "true", None
        elif isinstance(val, int):
            retyped, wrong = str(val), 0
        elif isinstance(val, list):
            retyped, wrong = {"x": 1}, ["zz-nowhere"]
        else:
            retyped, wrong = [1], "zz-nowhere"
        m = copy.deepcopy(order)
        m[key] = retyped
        yield "%s retyped" % key, m, True
        if key == "id":
            continue    # any other string is a good id
        if wrong is not None:
            m = copy.deepcopy(order)
            m[key] = wrong
            yield "%s wrong" % key, m, True
        # The members of a maneuver (arcane-legions), likewise.
        if isinstance(val, list) and val and isinstance(val[0], dict):
            for what, sub, bad in mutations(val[0]):
                m = copy.deepcopy(order)
                m[key][0] = sub
                yield "%s/0 %s" % (key, what), m, bad


def located(msg, name, index):
    return re.match(r"^orders/%s:[0-9]+:[0-9]+: .+ at /orders/%d(/.*)?$" %
                    (re.escape(name), index), msg) is not None


# 1. Every member of an order of each kind, removed, retyped, wrong.
for case, name, index in ORDERS:
    files = load(case)
    base = copy.deepcopy(files)
    del base[name]["orders"][index]
    st, want, want_next = run(case, base)
    if st != 0:
        fail("%s without order %d: exit %d" % (case, index, st))
        continue
    order = files[name]["orders"][index]
    for what, m, illegal in mutations(order):
        doc = copy.deepcopy(files)
        doc[name]["orders"][index] = m
        label = "%s %s/%d %s" % (case, name, index, what)
        st, got, got_next = run(case, doc)
        if st != 0:
            fail("%s: exit %d: %s" % (label, st, got.strip()[:200]))
            continue
        if not illegal:
            ok()
            continue
        mine = [o for o in got["orders"] if o["file"] == "orders/" + name
                and o["index"] == index]
        if len(mine) != 1 or mine[0]["status"] != "illegal":
            fail("%s: not illegal: %s" % (label, mine))
            continue
        if not located(mine[0]["message"], name, index):
            fail("%s: message not located: %s" % (label,
                                                  mine[0]["message"]))
            continue
        if got["refused"] != {"orders": 1, "files": 0}:
            fail("%s: refused %s" % (label, got["refused"]))
            continue
        if others(got, name, index) != others(want, name, -1):
            fail("%s: the other orders are ruled otherwise" % label)
            continue
        if rest(got) != rest(want) or got_next != want_next:
            fail("%s: the turn differs from the one without it" % label)
            continue
        ok()

# 2. Another player's unit: nothing changes but the order's own ruling.
FOREIGN = [
    # case, file that gets the order, order given
    ("examples/aeonis", "red.json",
     {"id": "fx", "units": ["b-inf-1"], "move": ["0404", "0403"]}),
    ("examples/aeonis", "red.json",
     {"id": "fx", "units": ["r-inf-1", "b-arc-1"], "attack": "0704"}),
    ("examples/aeonis", "blue.json",
     {"id": "fx", "units": ["r-cav-1"], "move": ["0202", "0303", "0403"]}),
    ("examples/morne-plaine", "french.json",
     {"id": "fx", "units": ["ai1"], "retreat": "0302"}),
    ("examples/morne-plaine", "allies.json",
     {"id": "fx", "units": ["fc1"], "move": ["0306", "0305", "0304"]}),
    ("examples/xconq", "red.json",
     {"id": "fx", "units": ["b1"], "leave_world": "0302"}),
    ("examples/xconq", "blue.json",
     {"id": "fx", "units": ["r1"], "move": ["0203", "0303", "0304"]}),
    ("examples/arcane-legions", "red.json",
     {"id": "fx", "units": ["b1"], "move": [{"step": "back"}]}),
    ("examples/arcane-legions", "blue.json",
     {"id": "fx", "units": ["r1"], "move": [{"step": "left"}],
      "snap": "left"}),
    ("examples/arcane-legions", "red.json",
     {"id": "fx", "units": ["b1"], "breakaway": "r1", "lost": ["a"]}),
    ("examples/territory", "red.json",
     {"id": "fx", "armies": 2, "move": ["Crown", "Dale"]}),
]
for case, name, order in FOREIGN:
    files = load(case)
    st, want, want_next = run(case, files)
    for at in (0, len(files[name]["orders"])):
        doc = copy.deepcopy(files)
        doc[name]["orders"].insert(at, order)
        label = "%s: %s in %s at %d" % (case, json.dumps(order), name, at)
        st, got, got_next = run(case, doc)
        if st != 0:
            fail("%s: exit %d" % (label, st))
            continue
        mine = [o for o in got["orders"] if o["id"] == "fx"]
        if len(mine) != 1 or mine[0]["status"] != "illegal" or \
                mine[0]["reason"] not in ("foreign_unit", "not_owned"):
            fail("%s: not refused: %s" % (label, mine))
            continue
        theirs = [dict(o, index=None) for o in got["orders"]
                  if o["id"] != "fx"]
        if theirs != [dict(o, index=None) for o in want["orders"]]:
            fail("%s: the other orders are ruled otherwise" % label)
            continue
        if rest(got) != rest(want) or got_next != want_next:
            fail("%s: it changed the turn" % label)
            continue
        ok()

shutil.rmtree(tmp, ignore_errors=True)
print("refusals: %d passed, %d failed" % (passed, failed))
sys.exit(failed > 0)
