#!/usr/bin/env python3
"""Players' reports and pictures from the command line (arbiter(1), --for,
--outdir, --svg; arbiter-result(5), A player's report; arbiter-map(5),
display and reveal_orders):
  - with reveal_orders false, no id, message or path of another player's
    orders is in a player's report (JSON and text), trace or picture;
    with it true they are (so the check can see them);
  - --for all --outdir writes PLAYER.json, .txt and .svg for every player,
    the same bytes as --for PLAYER, and PLAYER.next.json (the next map)
    and, with --svg-next, PLAYER.next.svg, all or none;
  - an unknown player is 64 with the nearest name; --outdir and --for all
    go together; an output over an input is refused;
  - display and reveal_orders are read with located messages;
  - ids and names from players are escaped in the picture.
Usage: views.py TOP ARBITER.  One TAP line per check, then
"views: N passed, N failed"."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOP, ARB = sys.argv[1], sys.argv[2]
n = passed = failed = 0


def ok(cond, name, detail=""):
    global n, passed, failed
    n += 1
    if cond:
        passed += 1
        print("ok %d - %s" % (n, name))
    else:
        failed += 1
        print("not ok %d - %s" % (n, name))
        if detail:
            for line in str(detail).splitlines()[:15]:
                print("#   " + line)


def arb(args, cwd):
    p = subprocess.run([ARB] + args, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def case_args(d):
    orders = sorted("orders/" + f for f in os.listdir(os.path.join(d,
                                                                   "orders")))
    return ["map.json"] + orders


def secrets(result, me):
    """Ids, messages and paths of the orders of players other than me."""
    ids, msgs, paths = set(), set(), []
    for o in result["orders"]:
        if o["player"] == me:
            continue
        ids.add(o["id"])
        if o.get("message"):
            msgs.add(o["message"])
        if len(o.get("path", [])) > 1:
            paths.append(o["path"])
    return ids, msgs, paths


def json_leaks(v, ids, msgs, paths, where=""):
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            out += json_leaks(x, ids, msgs, paths, where + "/" + k)
    elif isinstance(v, list):
        if v in paths:
            out.append("%s: a path %s" % (where, v))
        for i, x in enumerate(v):
            out += json_leaks(x, ids, msgs, paths, "%s/%d" % (where, i))
    elif isinstance(v, str) and (v in ids or v in msgs):
        out.append("%s: %s" % (where, v))
    elif isinstance(v, str):
        # An id inside a text: a message naming the order (issue 26).
        out += ["%s: id %s in %r" % (where, i, v) for i in sorted(ids)
                if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(i), v)]
    return out


def text_leaks(text, ids, msgs, paths):
    out = []
    for i in ids:
        if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(i), text):
            out.append("id " + i)
    out += ["message " + m for m in msgs if m in text]
    for p in paths:
        if "-".join(p) in text:
            out.append("path " + "-".join(p))
    return out


def svg_leaks(path, ids, msgs, nmine):
    root = ET.parse(path).getroot()
    out = []
    arrows = 0
    for e in root.iter():
        if e.text and (e.text in ids or e.text in msgs):
            out.append("text " + e.text)
        cls = e.get("class", "")
        if cls.startswith("move ") or cls.startswith("target "):
            arrows += 1
    if arrows != nmine:
        out.append("%d arrows, %d orders of the player's" % (arrows, nmine))
    return out


tmp = tempfile.mkdtemp()
try:
    # 1. Hidden orders: nothing of blue's in red's report.
    for rs in ("aeonis", "territory", "morne-plaine"):
        d = os.path.join(TOP, "fixtures", rs, "for-hidden")
        files = case_args(d)
        st, out, err = arb(files, d)
        full = json.loads(out)
        ids, msgs, paths = secrets(full, "red")
        ok(ids and msgs, "%s: blue has orders to hide" % rs)
        pic, tr = os.path.join(tmp, "p.svg"), os.path.join(tmp, "t.jsonl")
        st, out, err = arb(["--for", "red", "-t", "--svg", pic,
                            "--trace-file", tr] + files, d)
        ok(st == 0, "%s: --for red runs" % rs, err)
        rep = json.loads(out)
        ok(not json_leaks(rep, ids, msgs, paths),
           "%s: no order of blue's in red's report" % rs,
           json_leaks(rep, ids, msgs, paths))
        with open(tr) as f:
            evs = [json.loads(line) for line in f]
        ok(evs == rep["trace"] and not json_leaks(evs, ids, msgs, paths),
           "%s: red's trace file is red's report's trace" % rs)
        st, txt, err = arb(["--for", "red", "--text", "--trace-file", tr,
                            "--text"] + files, d)
        ok(st == 0 and not text_leaks(txt, ids, msgs, paths),
           "%s: no order of blue's in red's text report" % rs,
           text_leaks(txt, ids, msgs, paths))
        with open(tr) as f:
            ttxt = f.read()
        ok(not text_leaks(ttxt, ids, msgs, paths),
           "%s: nor in red's text trace" % rs, text_leaks(ttxt, ids, msgs,
                                                          paths))
        # The marks of blue's hidden orders are hidden too: an attack
        # ring only where red attacked, a fight mark only for a loss whose
        # order is red's (as the report keeps target only there).
        root = ET.parse(pic).getroot()
        # (Since issue 29 an invader's loss rings the territory invaded,
        # once, instead of crossing the way: a loss against another cell
        # is a cross when it is a skirmish's or a loop's, else its
        # target's ring; a ring for every territory fought in whose
        # losses the report keeps.)
        rings = sum(1 for e in root.iter() if e.get("class") == "attack")
        fights = sum(1 for e in root.iter() if e.get("class") == "fight")
        invaded = sum(1 for e in root.iter() if e.get("class") ==
                      "invaded")
        ok(rings == len(rep.get("attacks", [])) and fights == sum(
            1 for lo in rep["losses"] if "target" in lo and
            lo.get("at") != lo["target"] and
            lo.get("cause") in ("skirmish", "loop")) and invaded == len(
            {lo["target"] for lo in rep["losses"] if "target" in lo and
             (lo.get("at") == lo["target"] or
              lo.get("cause") not in ("skirmish", "loop"))}),
           "%s: red's picture marks no fight or attack of blue's hidden "
           "orders (%d rings, %d fights, %d invaded)" % (rs, rings, fights,
                                                        invaded))
        mine = sum(1 for o in full["orders"] if o["player"] == "red" and
                   ("path" in o or "target" in o))
        ok(not svg_leaks(pic, ids, msgs, mine),
           "%s: red's picture draws red's orders only" % rs,
           svg_leaks(pic, ids, msgs, mine))
        # The same turn with the orders revealed shows them.
        m = json.load(open(os.path.join(d, "map.json")))
        m["reveal_orders"] = True
        shutil.copytree(d, os.path.join(tmp, rs))
        with open(os.path.join(tmp, rs, "map.json"), "w") as f:
            json.dump(m, f)
        st, out, err = arb(["--for", "red", "-t"] + files,
                           os.path.join(tmp, rs))
        ok(json_leaks(json.loads(out), ids, msgs, paths),
           "%s: revealed, blue's orders are in red's report" % rs)

    # 2. --for all --outdir.
    d = os.path.join(TOP, "examples", "aeonis")
    files = case_args(d)
    od = os.path.join(tmp, "out")
    os.mkdir(od)
    st, out, err = arb(["--for", "all", "--outdir", od, "--svg",
                        os.path.join(tmp, "umpire.svg"), "--svg-next",
                        os.path.join(tmp, "umpire-next.svg")] + files, d)
    names = sorted(os.listdir(od))
    ok(st == 0 and out == "" and names == [
        "blue.json", "blue.next.json", "blue.next.svg", "blue.svg",
        "blue.txt", "red.json", "red.next.json", "red.next.svg", "red.svg",
        "red.txt"],
       "--for all --outdir writes every player's report, next map and "
       "next picture (issue 28)", (st, err, names))
    nxf = os.path.join(tmp, "next.json")
    arb(["-o", os.path.join(tmp, "r.json"), "-n", nxf] + files, d)
    nxt = open(nxf).read()
    for p in ("red", "blue"):
        pic = os.path.join(tmp, "one-next.svg")
        arb(["--for", p, "--svg-next", pic] + files, d)
        ok(open(os.path.join(od, p + ".next.json")).read() == nxt and
           open(os.path.join(od, p + ".next.svg")).read() ==
           open(pic).read(),
           "%s.next.json is the next map, %s.next.svg --for %s "
           "--svg-next's picture" % (p, p, p))
    od4 = os.path.join(tmp, "out4")
    os.mkdir(od4)
    st, out, err = arb(["--check", "--for", "all", "--outdir", od4] +
                       files, d)
    ok(sorted(os.listdir(od4)) == ["blue.json", "blue.txt", "red.json",
                                   "red.txt"],
       "--check --for all --outdir writes no next map", (st, err,
                                                        os.listdir(od4)))
    for p in ("red", "blue"):
        same = True
        for ext, extra in (("json", []), ("txt", ["--text"])):
            st, out, err = arb(["--for", p] + extra + files, d)
            same = same and open(os.path.join(od, p + "." + ext)).read() \
                == out
        pic = os.path.join(tmp, "one.svg")
        arb(["--for", p, "--svg", pic] + files, d)
        same = same and open(pic).read() == open(os.path.join(
            od, p + ".svg")).read()
        ok(same, "%s's files are --for %s's bytes" % (p, p))
    # All or none: a target that is a directory stops every file.
    od2 = os.path.join(tmp, "out2")
    os.makedirs(os.path.join(od2, "blue.txt"))
    st, out, err = arb(["--for", "all", "--outdir", od2] + files, d)
    ok(st == 73 and sorted(os.listdir(od2)) == ["blue.txt"],
       "--outdir: all or none (73)", (st, err, os.listdir(od2)))
    # An output over an input.
    od3 = os.path.join(tmp, "over")
    shutil.copytree(d, od3)
    before = open(os.path.join(od3, "orders", "red.json")).read()
    st, out, err = arb(["--for", "all", "--outdir", "orders"] + files, od3)
    ok(st == 64 and "same file" in err and before == open(os.path.join(
        od3, "orders", "red.json")).read(),
       "--outdir over the orders files is refused (64)", (st, err))

    # 3. Usage.
    st, out, err = arb(["--for", "rde"] + files, d)
    ok(st == 64 and 'did you mean "red"' in err and out == "",
       "an unknown player: 64 with the nearest name", (st, err))
    st, out, err = arb(["--outdir", tmp] + files, d)
    ok(st == 64, "--outdir without --for all: 64", err)
    st, out, err = arb(["--for", "all"] + files, d)
    ok(st == 64, "--for all without --outdir: 64", err)
    st, out, err = arb(["--svg", "-", "-o", "-"] + files, d)
    ok(st == 64 and "standard output" in err,
       "--svg - with the result on standard output: 64", err)
    st, out, err = arb(["--svg", "map.json"] + files, d)
    ok(st == 64 and "same file" in err, "--svg over the map: 64", err)
    nx = os.path.join(tmp, "next.svg")
    st, out, err = arb(["--check", "--svg-next", nx] + files, d)
    ok(st == 0 and not os.path.exists(nx),
       "--check draws no next board, as it writes no next map", err)

    # 4. display and reveal_orders, located.
    t = os.path.join(TOP, "examples", "territory")
    tm = json.load(open(os.path.join(t, "map.json")))
    hx = json.load(open(os.path.join(d, "map.json")))
    bad = [
        (tm, {"display": {"positions": {"Anvil": [0, 0]}}},
         "/display/positions", "no position for territory"),
        (tm, {"display": {"positions": {"Anvi": [0, 0]}}},
         "/display/positions/Anvi", 'did you mean "Anvil"'),
        (tm, {"display": {"positions": {"Anvil": [0, -1]}}},
         "/display/positions/Anvil/1", ""),
        (tm, {"display": {"positions": {"Anvil": [0]}}},
         "/display/positions/Anvil", ""),
        (tm, {"display": {"background": 3}}, "/display/background", ""),
        (tm, {"display": {"colour": 3}}, "/display/colour", ""),
        (hx, {"display": {"positions": {}}}, "/display/positions",
         "graph boards"),
        (hx, {"reveal_orders": "no"}, "/reveal_orders", ""),
    ]
    for base, extra, ptr, text in bad:
        m = dict(base)
        m.update(extra)
        path = os.path.join(tmp, "bad.json")
        with open(path, "w") as f:
            json.dump(m, f, indent=1)
        st, out, err = arb([path], tmp)
        ok(st == 65 and re.search(r"bad\.json:\d+:\d+: ", err) and
           (err.rstrip().endswith("at " + ptr) or ("at " + ptr + " ") in
            err) and text in err,
           "%s: 65, located at %s" % (json.dumps(extra)[:50], ptr),
           (st, err))

    # 5. Escaping: a unit id and a player name with XML's specials.
    m = json.loads(json.dumps(hx))
    odd = "r<&\"'>1"
    for u in m["units"]:
        if u["id"] == "r-cav-1":
            u["id"] = odd
    red = json.load(open(os.path.join(d, "orders", "red.json")))
    red["orders"][0]["units"] = [odd]
    red["orders"][0]["id"] = "o<&>"
    os.makedirs(os.path.join(tmp, "odd", "orders"))
    json.dump(m, open(os.path.join(tmp, "odd", "map.json"), "w"))
    json.dump(red, open(os.path.join(tmp, "odd", "orders", "red.json"),
                        "w"))
    pic = os.path.join(tmp, "odd.svg")
    st, out, err = arb(["--svg", pic, "map.json", "orders/red.json"],
                       os.path.join(tmp, "odd"))
    try:
        texts = [e.text for e in ET.parse(pic).getroot().iter()]
        good = st == 0 and odd in texts
    except ET.ParseError as e:
        good, err = False, str(e)
    ok(good, "ids with <, &, quotes are escaped in the picture", err)
    # U+FFFE and U+FFFF are valid JSON, not XML.
    m2 = json.loads(json.dumps(m))
    red2 = json.loads(json.dumps(red))
    for u in m2["units"]:
        if u["id"] == odd:
            u["id"] = "r\uffff\ufffe1"
    red2["orders"][0]["units"] = ["r\uffff\ufffe1"]
    os.makedirs(os.path.join(tmp, "odd2", "orders"))
    json.dump(m2, open(os.path.join(tmp, "odd2", "map.json"), "w"))
    json.dump(red2, open(os.path.join(tmp, "odd2", "orders", "red.json"),
                         "w"))
    st, out, err = arb(["--svg", pic, "map.json", "orders/red.json"],
                       os.path.join(tmp, "odd2"))
    try:
        ET.parse(pic)
        good = st == 0
    except ET.ParseError as e:
        good, err = False, str(e)
    ok(good, "U+FFFE and U+FFFF in an id leave the picture well-formed",
       err)

    # 6. A long name cut in the title stays whole UTF-8.
    long = "x" + "\u00e9" * 50
    m = json.loads(json.dumps(hx))
    m["players"][long] = m["players"].pop("red")
    m["turn_order"] = [long if p == "red" else p for p in m["turn_order"]]
    for u in m["units"]:
        if u["player"] == "red":
            u["player"] = long
    for c in m.get("cells", {}).values():
        if c.get("owner") == "red":
            c["owner"] = long
    red = json.load(open(os.path.join(d, "orders", "red.json")))
    red["player"] = long
    os.makedirs(os.path.join(tmp, "long", "orders"))
    with open(os.path.join(tmp, "long", "map.json"), "w") as f:
        json.dump(m, f)
    with open(os.path.join(tmp, "long", "orders", "red.json"), "w") as f:
        json.dump(red, f)
    pic = os.path.join(tmp, "long.svg")
    st, out, err = arb(["--for", long, "--svg", pic, "map.json",
                        "orders/red.json"], os.path.join(tmp, "long"))
    try:
        ET.parse(pic)
        good = st == 0
    except (ET.ParseError, OSError) as e:
        good, err = False, str(e)
    ok(good, "a long player name cut in the title stays UTF-8", err)

    # 7. Over the whole casebook, every order id renamed to a token of its
    # file (ZQ<file>X<n>) and reveal_orders false: no player's report
    # (the JSON with its trace) has a token of another player's file,
    # wherever it may hide (a message naming the order that moved a unit,
    # took a hex, charged, ...).  The program built for users, two cases
    # at a time.
    user_arb = os.path.join(TOP, "arbiter")
    jobs = []
    for rs in sorted(os.listdir(os.path.join(TOP, "fixtures"))):
        base = os.path.join(TOP, "fixtures", rs)
        for case in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            d = os.path.join(base, case)
            if not os.path.exists(os.path.join(d, "expected.json")) or \
                    os.path.exists(os.path.join(d, "args")) or \
                    os.path.exists(os.path.join(d, "umpire.key")) or \
                    len(os.listdir(os.path.join(d, "orders"))) < 2:
                continue
            jobs.append((rs + "/" + case, d))

    def hidden_case(job):
        name, d = job
        w = os.path.join(tmp, "scan-" + name.replace("/", "-"))
        shutil.copytree(d, w)
        m = json.load(open(os.path.join(w, "map.json")))
        m["reveal_orders"] = False
        json.dump(m, open(os.path.join(w, "map.json"), "w"))
        files = sorted(os.listdir(os.path.join(w, "orders")))
        for k, f in enumerate(files):
            path = os.path.join(w, "orders", f)
            try:
                doc = json.load(open(path))
            except ValueError:
                continue
            for i, o in enumerate(doc.get("orders", []) if
                                  isinstance(doc, dict) else []):
                if isinstance(o, dict) and "id" in o:
                    o["id"] = "ZQ%dX%d" % (k, i)
            json.dump(doc, open(path, "w"))
        args = ["map.json"] + ["orders/" + f for f in files]
        p = subprocess.run([user_arb] + args, cwd=w, capture_output=True)
        if p.returncode not in (0, 1):
            return None
        full = json.loads(p.stdout)
        mine = {}
        for o in full["orders"]:
            mt = re.match(r"ZQ(\d+)X", o["id"])
            if mt:
                mine.setdefault(o["player"], set()).add(mt.group(1))
        bad = []
        for pl in sorted(mine):
            p = subprocess.run([user_arb, "--for", pl, "-t"] + args, cwd=w,
                               capture_output=True)
            theirs = set(re.findall(r"ZQ(\d+)X", p.stdout.decode())) - \
                mine[pl]
            if p.returncode != 0 or theirs:
                bad.append("%s's report: exit %d, tokens of files %s" %
                           (pl, p.returncode, sorted(theirs)))
        return bad

    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        found = [(j[0], b) for j, b in zip(jobs, pool.map(hidden_case,
                                                          jobs)) if b]
    ok(jobs and not found, "the casebook with reveal_orders false and the "
       "order ids renamed: no player's report names another's order "
       "(%d cases)" % len(jobs),
       "\n".join("%s: %s" % (c, b[0]) for c, b in found))
finally:
    shutil.rmtree(tmp)

print("1..%d" % n)
print("views: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
