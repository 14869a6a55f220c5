#!/usr/bin/env python3
"""Hidden orders over random turns (issue 26, HD1; arbiter-result(5), A
player's report; arbiter-map(5), reveal_orders): for random valid turns
of every rule system (tests/prop turn ... contend: moves that head for
where another player's moves end), with "reveal_orders": false and every
order id replaced by a token of its own (random, unique in the turn),
none of a player's outputs holds a token of another player's orders:

  - the report, --for P -t (JSON, with the trace cut);
  - the report as text, --for P --text;
  - the trace cut, --for P --trace-file (JSON Lines, and --text);
  - the pictures, --for P --svg and --svg-next;
  - the replay page, --for P --replay, and the order sheet, --for P
    --sheet (issue 32); and a step of the replay page changes a cell
    only where its own line names it or P's own orders move: the others'
    hidden orders change the board at the last step only;
  - a check, --for P --check, and --for P --strict: standard output, and
    standard error (the stderr sub-check, below);
  - --for all --outdir with --svg, --svg-next, --replay and --sheet:
    every player's report, letter, picture, next map, next picture,
    replay page and sheet.

The letter (issue 28): in each player's report, the letter says every
thing of the turn that concerns the player (each of their orders, each
loss at its place, each charge on their units, each elimination, the
ground they lost or took, attacks on their units) and shows every unit
and territory of the report, each unit at its position.

Every message that names another player's order goes through order_ref()
(lib/model/model.c), which names the player, not the order; the cut of the
report (lib/format/view.c) drops the members that name one.  A first check
reads lib/: no other format string names an order as "order %s".

The stderr sub-check: with --for P, standard error holds P's problems only
(issue 26, HD2).  HIDDEN_STDERR=0 reports its failures as "# TODO HD2"
without counting them (for an arbiter older than that).

Usage: hidden.py TOP ARBITER PROP [N]  (N random turns a rule system,
default 12).  One TAP line per turn and player; ends "hidden: N passed, N
failed".  CASE=RULESET/SEED runs one turn and keeps its files in
/tmp/hidden-RULESET-SEED for a look."""
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOP, ARB, PROP = [os.path.abspath(a) for a in sys.argv[1:4]]
N = int(sys.argv[4]) if len(sys.argv) > 4 else 12
SYSTEMS = ["aeonis", "territory", "morne-plaine", "xconq", "arcane-legions"]
STDERR = os.environ.get("HIDDEN_STDERR", "1") == "1"
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def hide(d, rs, seed):
    """Makes the turn in d hide its orders and renames every order id to a
    token; returns {player: set of tokens}."""
    rng = random.Random("%s/%d" % (rs, seed))
    path = os.path.join(d, "map.json")
    m = json.load(open(path))
    m["reveal_orders"] = False
    json.dump(m, open(path, "w"), indent=1)
    used = set()
    tokens = {}
    for f in sorted(os.listdir(os.path.join(d, "orders"))):
        path = os.path.join(d, "orders", f)
        try:
            doc = json.load(open(path))
        except ValueError:
            continue
        if not isinstance(doc, dict) or \
                not isinstance(doc.get("player"), str) or \
                not isinstance(doc.get("orders"), list):
            continue
        mine = tokens.setdefault(doc["player"], set())
        for o in doc["orders"]:
            if not isinstance(o, dict):
                continue
            while True:
                tok = "hq" + "".join(rng.choice(ALNUM) for _ in range(10))
                if tok not in used:
                    break
            used.add(tok)
            mine.add(tok)
            # Half of them dressed as the example, a token
            # inside a longer id: only the token is looked for.
            o["id"] = tok if rng.random() < 0.5 else \
                "SECRET-%s-via-%04d" % (tok, rng.randrange(10000))
        # An order that repeats an id is refused, and its problem quotes
        # the id: in the player's own file only (and on standard error
        # for that player only, HD2).
        if doc["orders"] and isinstance(doc["orders"][0], dict) and \
                rng.random() < 0.5:
            doc["orders"].append(dict(doc["orders"][0]))
        json.dump(doc, open(path, "w"), indent=1)
    return sorted(m.get("players", {})), tokens


def run(d, args):
    p = subprocess.run([ARB] + args, cwd=d, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def leaks(text, theirs):
    return sorted(t for t in theirs if t in text)


def replay_faults(page, d, me):
    """A player's replay page changes a cell on a step only where the
    step's own line names the cell, or where the player's own orders
    move (their armies leaving a territory): what the others' hidden
    orders did to the board is shown at the last step only, with the
    board after the turn (issue 32)."""
    m = re.search(r'<script type="application/json" id="replay-data">'
                  r'(.*?)</script>', page, re.S)
    if m is None:
        return ["replay page: no data"]
    data = json.loads(m.group(1))
    mine = set()
    for f in os.listdir(os.path.join(d, "orders")):
        try:
            doc = json.load(open(os.path.join(d, "orders", f)))
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("player") == me:
            for o in doc.get("orders", []):
                if isinstance(o, dict) and isinstance(o.get("move"), list):
                    mine |= {c for c in o["move"] if isinstance(c, str)}
    bad = []
    for k, st in enumerate(data.get("steps", []), 1):
        for c in st.get("cc", []):
            if c[0] not in st.get("c", []) and c[0] not in mine:
                bad.append("replay page: step %d (%s) changes %s" % (
                    k, st.get("e"), c[0]))
    return bad


def turn(rs, seed):
    """Returns [(player, faults, stderr faults)], or a string on error."""
    keep = os.environ.get("CASE")
    tmp = tempfile.mkdtemp()
    try:
        d = os.path.join(tmp, "in")
        # contend: some moves head for the hexes where another player's
        # moves end, so that refusals name the orders that moved there.
        p = subprocess.run([PROP, "turn", rs, str(seed), d, "contend"],
                           capture_output=True)
        if p.returncode != 0:
            return "prop failed: " + p.stderr.decode()
        players, tokens = hide(d, rs, seed)
        files = ["map.json"] + ["orders/" + f for f in
                                sorted(os.listdir(os.path.join(d,
                                                               "orders")))]
        # The umpire's result lists the orders: the tokens are there to
        # be found (else the check below would prove nothing).
        st, so, se = run(d, files)
        umpire = json.loads(so) if st == 0 else {}
        alltok = set().union(*tokens.values()) if tokens else set()
        if st != 0 or (alltok and not leaks(so, alltok)):
            return "the umpire's result: exit %d, no token of the " \
                "orders in it" % st
        out = []
        for pl in players:
            theirs = set()
            for q, ts in tokens.items():
                if q != pl:
                    theirs |= ts
            bad, ebad = [], []
            tj = os.path.join(tmp, "trace.jsonl")
            tt = os.path.join(tmp, "trace.txt")
            svg = os.path.join(tmp, "p.svg")
            svgn = os.path.join(tmp, "n.svg")
            rp = os.path.join(tmp, "p.replay.html")
            sheet = os.path.join(tmp, "s.html")
            for f in (tj, tt, svg, svgn, rp, sheet):
                if os.path.exists(f):
                    os.unlink(f)
            st, so, se = run(d, ["--for", pl, "-t", "--trace-file", tj,
                                 "--svg", svg, "--svg-next", svgn,
                                 "--replay", rp, "--sheet", sheet] +
                             files)
            if st != 0:
                bad.append("--for %s -t: exit %d: %s" % (pl, st,
                                                         se[:200]))
            else:
                bad += letter_faults(json.loads(so), umpire, pl)
            for what, text in (("report", so),
                               ("trace file", open(tj).read() if
                                os.path.exists(tj) else ""),
                               ("picture", open(svg).read() if
                                os.path.exists(svg) else ""),
                               ("next picture", open(svgn).read() if
                                os.path.exists(svgn) else ""),
                               ("replay page", open(rp).read() if
                                os.path.exists(rp) else ""),
                               ("sheet", open(sheet).read() if
                                os.path.exists(sheet) else "")):
                if leaks(text, theirs):
                    bad.append("%s: %s" % (what, leaks(text, theirs)))
            if os.path.exists(rp):
                bad += replay_faults(open(rp).read(), d, pl)
            if st == 0 and not (os.path.exists(svg) and
                                os.path.exists(tj) and
                                os.path.exists(rp) and
                                os.path.exists(sheet)):
                bad.append("no trace file, picture, replay or sheet "
                           "written")
            if leaks(se, theirs):
                ebad.append("stderr of the run: %s" % leaks(se, theirs))
            st, so, se = run(d, ["--for", pl, "--text", "--trace-file", tt,
                                 "--text"] + files)
            if st != 0:
                bad.append("--for %s --text: exit %d" % (pl, st))
            for what, text in (("text report", so),
                               ("text trace", open(tt).read() if
                                os.path.exists(tt) else "")):
                if leaks(text, theirs):
                    bad.append("%s: %s" % (what, leaks(text, theirs)))
            for opt in ("--check", "--strict"):
                for extra in ([], ["--text"]):
                    st, so, se = run(d, ["--for", pl, opt] + extra + files)
                    if st not in (0, 1, 65):
                        bad.append("--for %s %s: exit %d" % (pl, opt, st))
                    if leaks(so, theirs):
                        bad.append("%s %s output: %s" % (
                            opt, " ".join(extra), leaks(so, theirs)))
                    if leaks(se, theirs):
                        ebad.append("%s %s stderr: %s" % (
                            opt, " ".join(extra), leaks(se, theirs)))
            out.append((pl, bad, ebad))
        # --for all --outdir: every player's files, the next map and the
        # next picture among them.
        od = os.path.join(tmp, "out")
        os.mkdir(od)
        st, so, se = run(d, ["--for", "all", "--outdir", od, "--svg",
                             os.path.join(tmp, "all.svg"), "--svg-next",
                             os.path.join(tmp, "all-next.svg"),
                             "--replay", os.path.join(tmp, "all.html"),
                             "--sheet", os.path.join(tmp, "sheet.html"),
                             "-o", os.path.join(tmp, "all.json")] + files)
        for pl, bad, ebad in out:
            theirs = set()
            for q, ts in tokens.items():
                if q != pl:
                    theirs |= ts
            if st != 0:
                bad.append("--for all --outdir: exit %d: %s" % (st,
                                                              se[:200]))
                continue
            for ext in ("json", "txt", "svg", "next.json", "next.svg",
                        "replay.html", "sheet.html"):
                f = os.path.join(od, "%s.%s" % (pl, ext))
                if not os.path.exists(f):
                    bad.append("--outdir: no %s.%s" % (pl, ext))
                elif leaks(open(f).read(), theirs):
                    bad.append("--outdir %s.%s: %s" % (
                        pl, ext, leaks(open(f).read(), theirs)))
        return out
    finally:
        if keep:
            dst = "/tmp/hidden-%s-%d" % (rs, seed)
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(tmp, dst)
        shutil.rmtree(tmp)


def letter_faults(r, umpire, me):
    """The letter (arbiter-result(5), A player's report, "letter") says
    every thing of the turn that concerns me and shows every unit and
    territory the report does, each with its position (issue 28)."""
    bad = []
    L = r.get("letter")
    if not isinstance(L, dict):
        return ["no letter in the report"]
    mine = {u["id"] for u in r.get("units", []) if u.get("player") == me}
    ev = L.get("events", [])

    def has(what, at=None, text=None):
        return any(e.get("what") == what and (at is None or
                                              e.get("at") == at) and
                   (text is None or text in e.get("says", ""))
                   for e in ev)

    lines = [x for g in L.get("board", []) for x in g.get("lines", [])]
    for u in r.get("units", []):
        if not any(x.get("unit") == u["id"] for x in lines):
            bad.append("letter: unit %s not on the board" % u["id"])
        elif isinstance(u.get("at"), str) and \
                u.get("status") != "eliminated" and \
                not any(x.get("unit") == u["id"] and
                        x.get("at") == u["at"] for x in lines):
            bad.append("letter: unit %s not at %s" % (u["id"], u["at"]))
    for u in r.get("units", []):
        if u.get("status") == "left_world" and not any(
                x.get("unit") == u["id"] and "left the world" in
                x.get("says", "") for x in lines):
            bad.append("letter: %s left the world, not said" % u["id"])
    for c in r.get("cells", []):
        if not any(x.get("cell") == c["cell"] for x in lines):
            bad.append("letter: territory %s not on the board" % c["cell"])
    n = sum(1 for o in r.get("orders", []) if o.get("player") == me)
    if len(L.get("headlines", [])) != n:
        bad.append("letter: %d headlines for %d orders" % (
            len(L.get("headlines", [])), n))
    lost = [x for x in r.get("losses", []) if x.get("player") == me]
    if sum(1 for e in ev if e.get("what") == "lost") != len(lost):
        bad.append("letter: not every loss of mine is said")
    for x in lost:
        at = x.get("target", x.get("at"))
        if x.get("cause") == "loop":
            at = "between %s and %s" % (x.get("at"), x.get("target"))
        elif isinstance(x.get("pose"), dict):
            p = x["pose"]
            at = "(%g, %g) facing %g" % (p["x"], p["y"], p["facing"])
        if isinstance(at, str) and not has("lost", at):
            bad.append("letter: the loss at %s is not said there" % at)
    # What became of the orders: refused counts the illegal (issue 28).
    ill = sum(1 for o in r.get("orders", []) if o.get("player") == me and
              o.get("status") == "illegal")
    if L.get("orders", {}).get("status") == "read" and \
            L["orders"].get("refused") != ill:
        bad.append("letter: %s refused for %d illegal" % (
            L["orders"].get("refused"), ill))
    # A stop short is headlined where it stopped (stopped_at).
    heads = {h.get("order"): h for h in L.get("headlines", [])}
    for o in r.get("orders", []):
        if o.get("player") != me or "stopped_at" not in o:
            continue
        out = heads.get(o["id"], {}).get("outcome", "")
        if ("stopped at %s:" % o["stopped_at"]) not in out and \
                "did not move" not in out:
            bad.append("letter: %s's stop at %s is not said" % (
                o["id"], o["stopped_at"]))
    # Orders hidden: no other player's order is headlined.
    if r.get("reveal_orders") is False and "others" in L:
        bad.append("letter: the others' orders, hidden, are headlined")
    # A feature destroyed in a territory held before the turn.
    for dd in r.get("destroyed", []):
        firsts = [o for o in r.get("ownership", [])
                  if o.get("cell") == dd.get("cell")]
        held = firsts[0].get("from") == me if firsts else any(
            c.get("cell") == dd.get("cell") and c.get("owner") == me
            for c in r.get("cells", []))
        if held and not has("destroyed", dd.get("cell"), dd.get("feature")):
            bad.append("letter: the %s of %s destroyed is not said" % (
                dd.get("feature"), dd.get("cell")))
    # The dice that touched me say what they decided.
    for dr in r.get("dice", {}).get("draws", []):
        if "decided" in dr and any(
                re.search(r"(^|[ ,;:()'\"])%s($|[ ,;:()'\"])" % re.escape(u),
                          dr.get("why", "")) for u in mine) and not any(
                ("rolled %d: %s" % (dr["value"], dr["decided"])) in
                x.get("says", "") for x in L.get("dice", [])):
            bad.append("letter: the d%d of %s does not say it decided %s"
                       % (dr["sides"], dr["why"], dr["decided"]))
    for c in umpire.get("charges", []):
        if c.get("target") in mine and not has("charged", c.get("at"),
                                                c.get("target")):
            bad.append("letter: the charge on %s is not said" %
                       c.get("target"))
    for u in r.get("units", []):
        if u["id"] in mine and u.get("status") == "eliminated" and \
                not has("eliminated", None, u["id"]):
            bad.append("letter: %s's elimination is not said" % u["id"])
    ground = {c for g in L.get("ground", []) for c in g.get("cells", [])}
    for o in r.get("ownership", []):
        if o.get("from") == me and not has("lost_ground", o.get("cell")):
            bad.append("letter: the loss of %s is not said" % o["cell"])
        if o.get("to") == me and o.get("cell") not in ground:
            bad.append("letter: %s taken is not said" % o["cell"])
    for a in r.get("attacks", []):
        if a.get("player") != me:
            for u in a.get("defenders", []):
                if u in mine and not has("attacked", a.get("target"), u):
                    bad.append("letter: the attack on %s is not said" % u)
    return bad


def sources():
    """The rule: order_ref() (lib/model/model.c) is the one place that
    writes "order ID" into a message; any other format string that names
    an order so ("order %s", "(order ") is a way round it.  An internal
    error (t_fail, ARB_EINTERNAL) is for the umpire, not a report."""
    bad = []
    pat = re.compile(r'"[^"\n]*(\border %s|\(order )[^"\n]*"')
    for dirpath, _, names in os.walk(os.path.join(TOP, "lib")):
        for f in sorted(names):
            if not f.endswith(".c"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, TOP)
            for i, line in enumerate(open(path), 1):
                if pat.search(line) and not (
                        rel == "lib/model/model.c" and
                        "t_printf(t, \"order %s\", o->id)" in line) and \
                        "ARB_EINTERNAL" not in line:
                    bad.append("%s:%d: %s" % (rel, i, line.strip()))
    return bad


jobs = []
only = os.environ.get("CASE")
for rs in SYSTEMS:
    for seed in range(1, N + 1):
        if only and only != "%s/%d" % (rs, seed):
            continue
        jobs.append((rs, seed))

n = passed = failed = todo = 0
if not only:
    n += 1
    src = sources()
    if src:
        failed += 1
        print("not ok %d - lib/ names orders in messages through "
              "order_ref() only" % n)
        for b in src[:5]:
            print("#   " + b)
    else:
        passed += 1
        print("ok %d - lib/ names orders in messages through order_ref() "
              "only" % n)
with concurrent.futures.ThreadPoolExecutor(
        int(os.environ.get("JOBS", "2"))) as pool:
    for (rs, seed), res in zip(jobs, pool.map(lambda j: turn(*j), jobs)):
        where = "%s random turn %d (tests/prop turn %s %d DIR)" % (
            rs, seed, rs, seed)
        if isinstance(res, str):
            n += 1
            failed += 1
            print("not ok %d - %s: %s" % (n, where, res))
            continue
        for pl, bad, ebad in res:
            n += 1
            name = "%s: %s's outputs hold no other player's order id" % (
                where, pl)
            if bad:
                failed += 1
                print("not ok %d - %s" % (n, name))
                for b in bad[:5]:
                    print("#   " + b)
            else:
                passed += 1
                print("ok %d - %s" % (n, name))
            n += 1
            name = "%s: %s's standard error holds no other player's " \
                "order id" % (where, pl)
            if not ebad:
                passed += 1
                print("ok %d - %s" % (n, name))
            elif STDERR:
                failed += 1
                print("not ok %d - %s" % (n, name))
                for b in ebad[:3]:
                    print("#   " + b)
            else:
                todo += 1
                print("not ok %d - %s # TODO HD2 (the cli branch): %s" %
                      (n, name, ebad[0][:120]))

print("1..%d" % n)
print("hidden: %d passed, %d failed%s" % (
    passed, failed, ", %d todo (stderr, HD2)" % todo if todo else ""))
sys.exit(1 if failed else 0)
