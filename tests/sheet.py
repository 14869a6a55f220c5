#!/usr/bin/env python3
"""The order sheet (issue 32; arbiter(1), --sheet) driven in headless
Chromium over the DevTools pipe (tests/cdp.py), as a player would:

  - for random turns of every rule system whose units move from cell to
    cell (tests/prop turn RULESET SEED DIR), the sheet of a player of the
    turn's next map: a real click (Input.dispatchMouseEvent at the centre
    of the element's getBoundingClientRect()) on one of the player's
    units (or territories), then on a random sequence of cells, reachable
    and not; after each, the cost the page shows and its orders text
    (#orders); a click on a cell out of reach changes nothing and says
    why; at the end the orders text is given to `arbiter --check` against
    the next map, which must rule the order legal at exactly the cost the
    page showed (the order's "cost" in the result);
  - a sheet of several orders (every group of the player that can move)
    checked the same way, each order legal at the page's cost;
  - a reload keeps the draft (localStorage);
  - keyboard alone: Tab to a unit, Enter, arrow keys, Enter, Delete and
    Escape;
  - arcane-legions (units on a table): a unit's maneuver made by its
    buttons is read by --check;
  - every sheet is one well-formed page with nothing from elsewhere: no
    src= or href= to anything, no http(s) address but the SVG namespaces.

Usage: sheet.py [-v]; $ARBITER is the program, $SHEET_N the seeds per
rule system (default 3).  Prints TAP lines and "sheet: N passed, N
failed"; without Chromium, skipped (exit 77, or 0 with SHEET_SKIP_OK).
"""
import html.parser
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARBITER = os.environ.get("ARBITER", os.path.join(TOP, "arbiter"))
PROP = os.path.join(TOP, "tests", "prop")
WALKING = ["aeonis", "territory", "morne-plaine", "xconq"]
NS_OK = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink",
         "http://www.w3.org/XML/1998/namespace"}
KEYS = {"Tab": 9, "Enter": 13, "Escape": 27, "Delete": 46,
        "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40}

passed = failed = 0


def report(ok, what, detail=""):
    global passed, failed
    n = passed + failed + 1
    if ok:
        passed += 1
        print("ok %d - %s" % (n, what))
    else:
        failed += 1
        print("not ok %d - %s" % (n, what))
        if detail:
            for line in str(detail).splitlines()[:20]:
                print("#   " + line)


def run(args, cwd):
    """A command; tests/prop's leaks (a test tool's) are not looked for,
    arbiter's are (make check's ASAN_OPTIONS)."""
    env = dict(os.environ)
    if args[0] == PROP:
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                          env=env)


def make_turn(rs, seed, d):
    """A random turn run; the next map and the players who have units
    (or territories) on it.  None when the turn is not made."""
    os.makedirs(d, exist_ok=True)
    if run([PROP, "turn", rs, str(seed), d], d).returncode != 0:
        return None
    orders = sorted(os.path.join("orders", f) for f in
                    os.listdir(os.path.join(d, "orders")))
    r = run([ARBITER, "-n", "next.json", "-o", "result.json", "map.json"] +
            orders, d)
    if r.returncode != 0:
        return None
    with open(os.path.join(d, "next.json")) as f:
        m = json.load(f)
    return m


def sheet(d, player, name):
    """The player's sheet of the turn in d; the path, or None."""
    orders = sorted(os.path.join("orders", f) for f in
                    os.listdir(os.path.join(d, "orders")))
    r = run([ARBITER, "-o", "/dev/null", "--for", player, "--sheet", name,
             "map.json"] + orders, d)
    if r.returncode != 0:
        report(False, "%s: --for %s --sheet" % (d, player), r.stderr)
        return None
    return os.path.join(d, name)


def check(d, player, text):
    """`arbiter --check` of an orders text on the next map: its orders,
    or the failure."""
    p = os.path.join(d, "orders-%s.txt" % player)
    with open(p, "w") as f:
        f.write(text)
    r = run([ARBITER, "--check", "next.json", "%s=%s" % (player, p)], d)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {"error": r.stderr}


class Page:
    def __init__(self, b):
        self.b = b

    def ev(self, js):
        return self.b.evaluate(js)

    def centre(self, selector):
        """Scrolls the element into view; its centre in the viewport."""
        return self.ev("""(function () {
            var e = document.querySelector(%s);
            if (!e) return null;
            e.scrollIntoView({block: "center", inline: "center"});
            var r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        })()""" % json.dumps(selector))

    def click(self, selector):
        xy = self.centre(selector)
        if xy is None:
            return False
        for t in ("mousePressed", "mouseReleased"):
            self.b.page("Input.dispatchMouseEvent", {
                "type": t, "x": xy[0], "y": xy[1], "button": "left",
                "clickCount": 1})
        return True

    def key(self, k):
        code = KEYS[k]
        for t in ("keyDown", "keyUp"):
            p = {"type": t, "key": k, "code": k,
                 "windowsVirtualKeyCode": code,
                 "nativeVirtualKeyCode": code}
            if t == "keyDown" and k == "Enter":
                p["text"] = "\r"
            self.b.page("Input.dispatchKeyEvent", p)

    def orders(self):
        return self.ev('document.getElementById("orders").textContent')

    def status(self):
        return self.ev('document.getElementById("status").textContent')

    def cost(self):
        """The cost the page shows for the path being made, or None."""
        v = self.ev('(document.getElementById("path") || {dataset: {}})'
                    '.dataset.cost')
        return int(v) if v not in (None, "") else None


def q(w):
    """A word of the text form, quoted where it must be (as the page
    does, arbiter-orders(5))."""
    return w if re.match(r"^[A-Za-z0-9_.-]+$", w) and not re.match(
        r"^[-+]?[0-9.]+$", w) else '"%s"' % w.replace('"', '""')


def cellsel(label):
    return '[data-cell="%s"]' % label.replace('"', '\\"')


def unitsel(uid):
    return '[data-unit="%s"]' % uid.replace('"', '\\"')


def pick_group(p, data, g):
    """Clicks what picks group g: a unit of it, or its territory."""
    if data["count"]:
        return p.click(cellsel(data["labels"][g["at"]]))
    return p.click(unitsel(g["u"][0]))


def order_lines(text):
    return [ln for ln in text.splitlines()[1:] if ln and ln != "end"]


def spent(o):
    """What an order of a --check result spends, in --reach's unit: its
    "cost" (aeonis AP, morne-plaine MP); in xconq the acp its actions
    use; in territory its steps (reach counts the steps of a move)."""
    if "cost" in o:
        return o["cost"]
    if o.get("actions"):
        return o["actions"][0]["acp_before"] - o["actions"][-1]["acp_after"]
    if "armies" in o and "path" in o:
        return len(o["path"]) - 1
    return None


def checked(d, player, text, costs, what):
    """--check of text: every order legal, at the costs given."""
    res = check(d, player, text)
    got = [(o.get("status"), spent(o)) for o in res.get("orders", [])]
    want = [("legal", c) for c in costs]
    report(got == want, what + ": --check rules every order legal at the "
           "page's cost", "page: %s\ncheck: %s\n%s" % (
               want, got, text + json.dumps(res.get("orders", res))[:1500]))


def sure_ends(g):
    """The cells a group may end in whose cheapest path no roll may
    stop (flag 2, "tested": such a path is not sure to be legal under
    --check)."""
    return [e for e in g["e"] if not (len(e) > 2 and e[2] & 2)]


def pick_part(p, data, g):
    """Picks group g: a unit of it, or its territory; a stack's unit
    alone by its button."""
    pick_group(p, data, g)
    if "of" in g:
        return p.ev("""(function () {
            var b = [].filter.call(document.querySelectorAll("#kinds button"),
                function (x) { return x.textContent === %s; });
            if (!b.length) return false;
            b[0].click(); return true; })()""" % json.dumps(
            " ".join(g["u"]) + " alone"))
    return True


def line_cost(ln):
    m = re.search(r"  # cost (-?[0-9]+)", ln)
    return int(m.group(1)) if m else None


def checked_lines(d, player, text, what):
    """--check of a sheet's orders text: every order written legal at
    the cost its line says ("# cost N"); one a roll may stop ("a roll
    may stop it") need only not be illegal.  The lines the page wrote
    as comments are no orders."""
    lines = [ln for ln in order_lines(text) if not ln.startswith("#")]
    res = check(d, player, text)
    got = res.get("orders", [])
    bad = []
    if len(got) != len(lines):
        bad.append("%d orders written, %d checked" % (len(lines), len(got)))
    for ln, o in zip(lines, got):
        if "a roll may stop it" in ln:
            if o.get("status") == "illegal":
                bad.append("illegal: " + ln)
        elif (o.get("status"), spent(o)) != ("legal", line_cost(ln)):
            bad.append("%s: %s %s" % (ln, o.get("status"), spent(o)))
    report(not bad, what + ": --check rules every order legal at the "
           "page's cost", "\n".join(bad) + "\n" + text +
           json.dumps(got)[:1500])
    return len(lines)


def random_path(p, d, data, player, rng, what):
    """One group (or a stack's unit alone), a path built click by click
    on random cells, in its reach from the start and not: after each
    click that changes the orders text, --check rules the order legal at
    the cost the page shows (#path's data-cost, the line's "# cost");
    a click that adds nothing says why; a click on a cell out of the
    start's reach adds nothing."""
    movable = [i for i, g in enumerate(data["groups"])
               if g["b"] >= 0 and sure_ends(g)]
    if not movable:
        return False
    gi = rng.choice(movable)
    g = data["groups"][gi]
    p.ev('localStorage.clear(); document.getElementById("clear").click()')
    if not pick_part(p, data, g):
        report(False, what + ": a button for %s alone" % " ".join(g["u"]))
        return True
    ends = {e[0] for e in g["e"]}
    labels = data["labels"]
    own = {g2["at"] for g2 in data["groups"]}
    ok = True
    n = 0
    for k in range(rng.randint(3, 8)):
        before = p.orders()
        if rng.random() < 0.75:
            c = rng.choice(sorted(ends))
        else:
            outs = [c for c in range(len(labels)) if c not in ends and
                    c not in own]
            if not outs:
                continue
            c = rng.choice(outs)
        p.click(cellsel(labels[c]))
        text = p.orders()
        st = p.status()
        if c not in ends and c != g["at"]:
            if text != before or "refused" not in st:
                ok = False
                report(False, "%s: a click on %s, out of reach, adds "
                       "nothing and says why" % (what, labels[c]),
                       st + "\n" + text)
            continue
        if text == before:
            if "refused" not in st and "where the path ends" not in st:
                ok = False
                report(False, "%s: a click on %s that adds nothing says "
                       "why" % (what, labels[c]), st + "\n" + text)
            continue
        lines = order_lines(text)
        cost = p.cost()
        if len(lines) != 1 or (cost is None) != lines[0].startswith("#") \
                or (cost is not None and line_cost(lines[0]) != cost):
            ok = False
            report(False, "%s: after %s, one order, its cost shown, or "
                   "a comment while the path cannot end there" % (
                       what, labels[c]), "%s\n%s" % (cost, text))
            continue
        if cost is not None:
            n += checked_lines(d, player, text, "%s: click %d, %s" % (
                what, k + 1, labels[c]))
    if n == 0:
        # Nothing was written: a path to a sure end, from the start.
        p.ev('localStorage.clear(); document.getElementById("clear")'
             '.click()')
        pick_part(p, data, g)
        e = rng.choice(sure_ends(g))
        p.click(cellsel(labels[e[0]]))
        report(p.cost() == e[1], "%s: the cost shown for %s, from the "
               "start, is --reach's" % (what, labels[e[0]]), "page %s, "
               "reach %s" % (p.cost(), e[1]))
        checked_lines(d, player, p.orders(), what + ": to " + labels[e[0]])
    if ok:
        report(True, "%s: a path click by click, clicks out of reach "
               "refused" % what)
    return True


def several(p, d, data, player, rng, what):
    """Every group that can move, a path each of one to three clicks, in
    turn; then every order written checked as one sheet: legal at the
    cost the page gives it after the orders before it."""
    p.ev('localStorage.clear(); document.getElementById("clear").click()')
    n = 0
    for g in data["groups"]:
        if g["b"] < 0 or not sure_ends(g) or "of" in g:
            continue
        pick_part(p, data, g)
        for _ in range(rng.randint(1, 3)):
            e = rng.choice(sure_ends(g))
            p.click(cellsel(data["labels"][e[0]]))
        n += 1
        p.key("Escape")
    if n < 2:
        return
    text = p.orders()
    checked_lines(d, player, text, what + ": a sheet of %d groups' "
                  "orders" % n)


def keyboard(p, d, data, player, what):
    """Tab to a unit that can move, Enter; the arrow keys toward a cell
    of its reach (each the key whose way is nearest the cell's), Enter;
    --check.  Then Delete and Escape."""
    p.ev('localStorage.clear(); document.getElementById("clear").click();'
         'document.activeElement && document.activeElement.blur()')
    unit_group = {u[0]: u[2] for u in data["units"]}
    at_group = {g["at"]: i for i, g in enumerate(data["groups"])}
    g = None
    for _ in range(300):
        p.key("Tab")
        a = p.ev('(function () { var e = document.activeElement;'
                 ' return e && e.dataset ? [e.dataset.unit || null,'
                 ' e.dataset.cell || null] : null; })()')
        if a is None:
            continue
        gi = unit_group.get(a[0], -1) if a[0] else at_group.get(
            data["labels"].index(a[1]) if a[1] in data["labels"] else -1,
            -1)
        if gi >= 0 and data["groups"][gi]["b"] >= 0 and any(
                not (len(e) > 2 and e[2] & 2)
                for e in data["groups"][gi]["e"]):
            g = data["groups"][gi]
            break
    if g is None:
        report(True, what + ": keyboard: Tab finds no unit that can move "
               "(nothing to check)")
        return
    p.key("Enter")
    target = [e for e in g["e"] if not (len(e) > 2 and e[2] & 2)][0][0]
    tl = data["labels"][target]
    for _ in range(30):
        v = p.ev("""(function () {
            var c = document.querySelector(".cursor"),
                t = document.querySelector(%s);
            if (!c || !t) return null;
            var a = c.getBoundingClientRect(), b = t.getBoundingClientRect();
            return [c.dataset.cell, b.left + b.width / 2 - a.left -
                a.width / 2, b.top + b.height / 2 - a.top - a.height / 2];
        })()""" % json.dumps(cellsel(tl)))
        if v is None or v[0] == tl:
            break
        dx, dy = v[1], v[2]
        p.key(max([("ArrowRight", dx), ("ArrowLeft", -dx),
                   ("ArrowDown", dy), ("ArrowUp", -dy)],
                  key=lambda k: k[1])[0])
    p.key("Enter")
    cost = p.cost()
    text = p.orders()
    if cost is None:
        report(False, what + ": keyboard: the arrows and Enter make a "
               "path to " + tl, p.status() + "\n" + text)
        return
    checked(d, player, text, [cost], what + ": keyboard")
    p.key("Delete")
    after = p.orders()
    report(after != text, what + ": Delete takes back a step", after)
    p.key("Escape")
    report(p.ev('document.querySelectorAll(".reach").length') == 0,
           what + ": Escape lets the unit go")


def kinds(p, d, data, player, rng, what):
    """Each order kind of the rule system but its path, by its button
    and a cell: "to" legal at the cost of the cell's reach, the others
    read by --check as orders of their kind (the rules then rule them)."""
    movable = [g for g in data["groups"] if g["b"] >= 0 and any(
        not (len(e) > 2 and e[2] & 2) for e in g["e"])]
    if not movable:
        return
    g = rng.choice(movable)
    cellkinds = [k[0] for k in data["kinds"] if k[1] == "cell"] + ["to"]
    for k in cellkinds:
        p.ev('localStorage.clear(); document.getElementById("clear")'
             '.click()')
        pick_part(p, data, g)
        button = k.replace("_", " ")
        if not p.ev("""(function () {
            var b = [].filter.call(document.querySelectorAll("#kinds button"),
                function (x) { return x.textContent === %s; });
            if (!b.length) return false;
            b[0].click(); return true; })()""" % json.dumps(button)):
            report(False, "%s: a button for %s" % (what, k))
            continue
        if k == "to":
            e = rng.choice([e for e in g["e"] if not (len(e) > 2 and
                                                      e[2] & 2)])
            p.click(cellsel(data["labels"][e[0]]))
            text = p.orders()
            checked(d, player, text, [e[1]],
                    what + ": a to order by its button")
            continue
        # A cell next to it, one of its reach, or any: the page writes
        # the order, which --check reads as one of its kind, or refuses
        # it for the reason --check gives.
        near = [c for c in range(len(data["labels"]))
                if data.get("cols") and abs(c % data["cols"] - g["at"] %
                                            data["cols"]) <= 1 and
                abs(c // data["cols"] - g["at"] // data["cols"]) <= 1]
        c = rng.choice([c for c in near if c != g["at"]] or
                       [e[0] for e in g["e"]] or [g["at"]]) \
            if rng.random() < 0.7 else rng.randrange(len(data["labels"]))
        before = p.orders()
        p.click(cellsel(data["labels"][c]))
        text = p.orders()
        if text == before:
            hdr = text.splitlines()[0]
            o = check(d, player, "%s\n%s %s %s\nend\n" % (
                hdr, " ".join(g["u"]) if not data["count"] else "%d %s" % (
                    g["n"], data["count"]), k, q(data["labels"][c]))).get(
                "orders", [])
            why = o[0].get("reason") if o else None
            report("refused" in p.status() and why is not None and
                   why in p.status(), "%s: a %s order on %s by its button "
                   "refused for --check's reason (%s)" % (
                       what, k, data["labels"][c], why),
                   p.status() + "\n" + json.dumps(o)[:600])
            continue
        res = check(d, player, text)
        o = res.get("orders", [])
        report(len(o) == 1 and o[0].get("kind") == k and o[0].get(
            "reason") not in ("bad_order", "unknown_kind", "unknown_cell")
            and res.get("refused", {}).get("files") == 0,
            "%s: a %s order by its button, read by --check (%s)" % (
                what, k, o[0].get("status") if o else "none"),
            text + json.dumps(o)[:600])


def split(p, d, data, player, rng, what):
    """Territory: one territory's armies in two orders (the count, then
    "another order"), each legal at its cost, the counts as given; a
    count above what is left refused."""
    gs = [g for g in data["groups"] if g.get("n", 0) >= 2 and len(
        [e for e in g["e"] if not (len(e) > 2 and e[2] & 2)]) >= 1]
    if not gs:
        return
    g = rng.choice(gs)
    ends = [e for e in g["e"] if not (len(e) > 2 and e[2] & 2)]
    p.ev('localStorage.clear(); document.getElementById("clear").click()')
    pick_part(p, data, g)

    def count(v):
        p.ev("""(function () { var n = document.getElementById("count");
            n.value = %d; n.dispatchEvent(new Event("change")); })()""" % v)
    count(1)
    e1 = rng.choice(ends)
    p.click(cellsel(data["labels"][e1[0]]))
    c1 = p.cost()
    p.ev("""[].filter.call(document.querySelectorAll("#kinds button"),
        function (x) { return x.textContent === "another order"; })[0]
        .click()""")
    before = p.orders()
    count(g["n"])
    report(p.orders() == before and "refused" in p.status(), what +
           ": a count above the armies left is refused", p.status())
    e2 = rng.choice(ends)
    p.click(cellsel(data["labels"][e2[0]]))
    c2 = p.cost()
    text = p.orders()
    res = check(d, player, text)
    got = [(o.get("status"), spent(o), o.get("armies"))
           for o in res.get("orders", [])]
    want = [("legal", c1, 1), ("legal", c2, g["n"] - 1)]
    report(got == want, what + ": a territory's armies in two orders, "
           "each legal at the page's cost", "page %s\ncheck %s\n%s" % (
               want, got, text))


class Shape(html.parser.HTMLParser):
    """Counts unclosed elements of a page (HTML's void ones aside)."""
    VOID = {"meta", "br", "input", "link", "img", "hr"}

    def __init__(self):
        super().__init__()
        self.stack = []
        self.bad = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.bad.append("</%s> closes <%s>" % (
                tag, self.stack[-1] if self.stack else "nothing"))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()


def well_formed(path, what):
    with open(path, encoding="utf-8") as f:
        s = f.read()
    faults = []
    for u in set(re.findall(r"https?://[^\"'\s<>)]*", s)):
        if u not in NS_OK:
            faults.append("an address: " + u)
    for m in re.finditer(r"\s(?:xlink:)?(src|href)\s*=\s*[\"']", s):
        faults.append("%s= at %d" % (m.group(1), m.start()))
    sh = Shape()
    sh.feed(s)
    sh.close()
    if sh.stack:
        faults.append("left open: " + " ".join(sh.stack))
    faults += sh.bad[:5]
    if not s.startswith("<!DOCTYPE html>"):
        faults.append("no doctype")
    report(not faults, what + ": one well-formed page, nothing from "
           "elsewhere", "\n".join(faults))


def command_line(tmp):
    """--sheet's place on the command line (arbiter(1))."""
    d = os.path.join(tmp, "cli")
    if make_turn("aeonis", 1, d) is None:
        report(False, "command line: a turn to write sheets of")
        return
    orders = sorted(os.path.join("orders", f) for f in
                    os.listdir(os.path.join(d, "orders")))
    players = list(json.load(open(os.path.join(d, "next.json")))["players"])
    for args, what in (([], "without --for"),
                       (["--for", "all"], "with --for all, no --outdir")):
        r = run([ARBITER, "-o", "/dev/null", "--sheet", "x.html"] + args +
                ["map.json"] + orders, d)
        report(r.returncode == 64 and not os.path.exists(
            os.path.join(d, "x.html")), "--sheet %s: 64, nothing written" %
            what, "exit %d: %s" % (r.returncode, r.stderr))
    r = run([ARBITER, "--check", "--for", players[0], "--sheet", "c.html",
             "map.json"] + orders, d)
    report(r.returncode in (0, 1) and not os.path.exists(
        os.path.join(d, "c.html")), "--sheet under --check: not written "
        "(no next map)", "exit %d: %s" % (r.returncode, r.stderr))
    # All or none: with another output that cannot be written, no sheet.
    r = run([ARBITER, "-o", os.path.join(d, "no", "such", "r.json"),
             "--for", players[0], "--sheet", "n.html", "map.json"] +
            orders, d)
    report(r.returncode == 73 and not os.path.exists(
        os.path.join(d, "n.html")), "--sheet with an output that cannot "
        "be written: 73, no sheet (all or none)", "exit %d: %s" % (
            r.returncode, r.stderr))
    r = run([ARBITER, "-o", "/dev/null", "--for", players[0], "--sheet",
             "map.json", "map.json"] + orders, d)
    report(r.returncode == 64, "--sheet naming the map: 64",
           "exit %d: %s" % (r.returncode, r.stderr))
    od = os.path.join(d, "out")
    os.mkdir(od)
    r = run([ARBITER, "-o", "/dev/null", "--for", "all", "--outdir", od,
             "--sheet", "all.html", "map.json"] + orders, d)
    got = sorted(f for f in os.listdir(od) if f.endswith(".sheet.html"))
    report(r.returncode == 0 and got == sorted(
        p + ".sheet.html" for p in players) and not os.path.exists(
        os.path.join(d, "all.html")), "--for all --outdir --sheet: "
        "DIR/PLAYER.sheet.html for every player, FILE not written",
        "exit %d: %s %s" % (r.returncode, r.stderr, got))
    for f in got:
        well_formed(os.path.join(od, f), "--outdir " + f)


def phone(b, p, path, what):
    """On a phone's screen (390 x 844) the board is as wide as the screen
    and the panel under it, not beside it (a review found the board an
    82-pixel strip beside a fixed panel)."""
    b.page("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1,
        "mobile": True})
    try:
        b.open(path)
        r = p.ev('(function () { var bd = document.getElementById("board")'
                 '.getBoundingClientRect(), pn = document.getElementById('
                 '"panel").getBoundingClientRect(); return [bd.width, '
                 'pn.width, pn.top, bd.bottom]; })()')
        report(r[0] >= 370 and r[1] >= 370 and r[2] >= r[3] - 1,
               what + ": on a phone, the board the screen's width and "
               "the panel under it", "board, panel width, panel top, "
               "board bottom: %s" % r)
    finally:
        b.page("Emulation.setDeviceMetricsOverride", {
            "width": 1400, "height": 900, "deviceScaleFactor": 1,
            "mobile": False})


def fixture_sheet(tmp, case, player, orders=True, edit=None):
    """The sheet of a casebook case's turn for player: (dir, sheet);
    with orders=False the turn is run with no orders; edit(next map)
    may change the next map, which is then run once more, with no
    orders, for the sheet."""
    src = os.path.join(TOP, "fixtures", case)
    d = os.path.join(tmp, "fx-" + case.replace("/", "-") + "-" + player)
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(src, "map.json"), os.path.join(d, "map.json"))
    od = os.path.join(src, "orders")
    args = []
    if orders and os.path.isdir(od):
        args = sorted(os.path.join(od, f) for f in os.listdir(od))
    r = run([ARBITER, "-o", "/dev/null", "-n", "next.json", "--for", player,
             "--sheet", "sheet.html", "map.json"] + args, d)
    if r.returncode == 0 and edit is not None:
        with open(os.path.join(d, "next.json")) as f:
            m = json.load(f)
        edit(m)
        with open(os.path.join(d, "map.json"), "w") as f:
            json.dump(m, f)
        r = run([ARBITER, "-o", "/dev/null", "-n", "next.json", "--for",
                 player, "--sheet", "sheet.html", "map.json"], d)
    if r.returncode != 0:
        report(False, "%s: --for %s --sheet" % (case, player), r.stderr)
        return None, None
    return d, os.path.join(d, "sheet.html")


def check_to(d, player, text):
    """--check's orders of a text (a reason asked of the rules)."""
    return check(d, player, text).get("orders", [])


def reviewed(b, p, tmp):
    """The review's findings of 2026-11-28 (doc/OPEN.md, issue 32), each
    as the player met it."""
    hdr = None

    def fresh(path):
        b.open(path)
        p.ev('localStorage.clear(); document.getElementById("clear")'
             '.click()')
        return json.loads(p.ev(
            'document.getElementById("sheet-data").textContent'))

    def header(path):
        return p.orders().splitlines()[0]

    # 1. Clicks build the path step by step from its end: c1 through
    # 0202 to 0103 is no charge (3 MP), not the cheapest path to 0103.
    d, path = fixture_sheet(tmp, "morne-plaine/reach-charge", "french")
    if path:
        fresh(path)
        p.click(unitsel("c1"))
        p.click(cellsel("0202"))
        p.click(cellsel("0103"))
        text = p.orders()
        report("c1 move 0101 0201 0202 0103 " in text and p.cost() == 3,
               "morne-plaine reach-charge: c1 by 0202 to 0103, a path "
               "built click by click (no charge)", text)
        checked(d, "french", text, [3], "morne-plaine reach-charge: c1 "
                "0201 0202 0103")
        # 4. An enemy's hex: the reason --check gives for it.
        fresh(path)
        p.click(unitsel("c1"))
        before = p.orders()
        p.click(cellsel("0104"))
        hdr1 = p.orders().splitlines()[0]
        o = check_to(d, "french", "%s\nc1 to 0104\nend\n" % hdr1)
        why = o[0].get("reason") if o else None
        if why == "no_route":
            why = o[0].get("message", "").rsplit(": ", 1)[-1]
        report(p.orders() == before and why is not None and
               why in p.status(), "morne-plaine reach-charge: c1 to 0104 "
               "(a1's hex) refused for --check's reason (%s)" % why,
               p.status() + "\n" + json.dumps(o)[:600])
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red")
    if path:
        data = fresh(path)
        hdr = header(path)
        p.click(unitsel("r-cav-1"))
        p.click(cellsel("0503"))
        c1 = p.cost()
        # r-cav-1's Movement Range is 2: no path by 0503 reaches 0404
        # (the page once wrote 0403 0404, the waypoint dropped).
        p.click(cellsel("0404"))
        o = check_to(d, "red", "%s\nr-cav-1 move 0403 0503 0403 0404\nend\n"
                     % hdr)
        why = o[0].get("reason") if o else None
        text = p.orders()
        report("r-cav-1 move 0403 0503  #" in text and why is not None and
               why in p.status(), "aeonis for-hidden: 0503 then 0404 keeps "
               "the waypoint, and refuses 0404 for --check's reason (%s)" %
               why, p.status() + "\n" + text)
        p.click(cellsel("0502"))
        text = p.orders()
        report("r-cav-1 move 0403 0503 0502 " in text and c1 is not None and
               p.cost() is not None and p.cost() > c1, "aeonis for-hidden: "
               "0503 then 0502, the running cost grows with the path",
               "%s %s\n%s" % (c1, p.cost(), text))
        checked(d, "red", text, [p.cost()], "aeonis for-hidden: r-cav-1 "
                "by 0503 to 0502")
        # 4. A cell out of reach: the reason --check gives for it.
        for c in ("0603", "0101", "0804"):
            fresh(path)
            p.click(unitsel("r-cav-1"))
            before = p.orders()
            p.click(cellsel(c))
            o = check_to(d, "red", "%s\nr-cav-1 to %s\nend\n" % (hdr, c))
            why = o[0].get("reason") if o else None
            if why == "no_route":
                why = o[0].get("message", "").rsplit(": ", 1)[-1]
            report(p.orders() == before and why is not None and
                   why in p.status(), "aeonis for-hidden: r-cav-1 to %s "
                   "refused for --check's reason (%s)" % (c, why),
                   p.status() + "\n" + json.dumps(o)[:600])
        # 5. Cell orders checked before they are written.
        for k, c in (("attack", "0806"), ("translocate", "0805"),
                     ("reinforce", "0102")):
            fresh(path)
            p.click(unitsel("r-cav-1"))
            p.ev("""[].filter.call(document.querySelectorAll("#kinds button"),
                function (x) { return x.textContent === %s; })[0]
                .click()""" % json.dumps(k))
            before = p.orders()
            p.click(cellsel(c))
            o = check_to(d, "red", "%s\nr-cav-1 %s %s\nend\n" % (hdr, k, c))
            why = o[0].get("reason") if o else None
            report(p.orders() == before and why is not None and
                   why in p.status(), "aeonis for-hidden: %s %s refused "
                   "before it is written (%s)" % (k, c, why),
                   p.status() + "\n" + p.orders())
    # 2. Later orders priced after the earlier ones; an earlier one
    # changed re-prices the later.
    def ap4(m):
        m["players"]["red"]["ap"] = 4
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red", edit=ap4)
    if path:
        fresh(path)
        for u, c in (("r-cav-1", "0305"), ("r-inf-1", "0102")):
            p.click(unitsel(u))
            p.click(cellsel(c))
            p.key("Escape")
        p.click(unitsel("r-cav-1"))
        p.click(cellsel("0505"))
        p.key("Escape")
        text = p.orders()
        res = check(d, "red", text)
        bad = [o for o in res.get("orders", []) if o.get("status") !=
               "legal"]
        report("left -" not in text and not bad and "error" not in res,
               "aeonis, 4 AP: an earlier order changed, the later one "
               "re-priced or marked, never written overspent", text +
               json.dumps(bad)[:600])
    d, path = fixture_sheet(tmp, "morne-plaine/for-hidden", "red")
    if path:
        fresh(path)
        p.click(unitsel("r-cav"))
        p.click(cellsel("0204"))
        c1 = p.cost()
        p.key("Escape")
        p.click(unitsel("r-inf"))
        before = p.orders()
        p.click(cellsel("0204"))
        report(p.orders() == before and "occupied" in p.status(),
               "morne-plaine for-hidden: r-inf to 0204, where r-cav's "
               "order ends, refused (occupied)", p.status() + "\n" +
               p.orders())
        p.click(cellsel("0203"))
        c2 = p.cost()
        text = p.orders()
        with open(os.path.join(d, "first.txt"), "w") as f:
            f.write("%s\nr-cav move %s\nend\n" % (header(path), " ".join(
                re.search(r"r-cav move ([0-9 ]+?)  #", text).group(1)
                .split())))
        r = run([ARBITER, "--reach", "r-inf", "next.json",
                 "red=first.txt"], d)
        want = None
        try:
            for c in json.loads(r.stdout).get("cells", []):
                if c.get("cell") == "0203":
                    want = c.get("cost")
        except ValueError:
            pass
        report(c2 is not None and c2 == want, "morne-plaine for-hidden: "
               "r-inf to 0203 after r-cav's order costs what --reach with "
               "that order gives (%s)" % want, "page %s\n%s" % (c2, text))
        checked(d, "red", text, [c1, c2], "morne-plaine for-hidden: two "
                "orders that meet")
    # 3. An aeonis stack split: a unit of it ordered alone.
    d, path = fixture_sheet(tmp, "aeonis/a-group-split", "red",
                            orders=False)
    if path:
        fresh(path)
        p.click(unitsel("r-inf-5"))
        alone = p.ev("""(function () {
            var b = [].filter.call(document.querySelectorAll("#kinds button"),
                function (x) { return /r-inf-6 alone/.test(x.textContent); });
            if (!b.length) return false;
            b[0].click(); return true; })()""")
        p.click(cellsel("0401"))
        text = p.orders()
        report(alone and "r-inf-6 move 0501 0401 " in text and
               "r-inf-5" not in text.split("\n", 1)[1],
               "aeonis a-group-split: a unit of a stack ordered alone", text)
        if alone:
            checked(d, "red", text, [p.cost()], "aeonis a-group-split: "
                    "r-inf-6 alone")
        # The stack moved first, then r-inf-6 alone: its second move
        # would begin where the first ends, which the page does not
        # price; it is written as a comment, not as an order.
        fresh(path)
        p.click(unitsel("r-inf-5"))
        p.click(cellsel("0502"))
        p.key("Escape")
        p.click(unitsel("r-inf-5"))
        p.ev("""[].filter.call(document.querySelectorAll("#kinds button"),
            function (x) { return /r-inf-6 alone/.test(x.textContent); })[0]
            .click()""")
        p.click(cellsel("0401"))
        text = p.orders()
        lines = order_lines(text)
        report(len(lines) == 2 and lines[1].startswith("# r-inf-6 move"),
               "aeonis a-group-split: the stack, then r-inf-6 alone: the "
               "second move written as a comment", text)
        checked_lines(d, "red", text, "aeonis a-group-split: the stack, "
                      "then r-inf-6 alone")
    # 7. Keyboard: panel buttons keep the focus in the panel; a
    # breakaway's target is reached by Tab and picked by Enter.
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red")
    if path:
        fresh(path)
        p.click(unitsel("r-cav-1"))
        p.ev("""(function () { var b = [].filter.call(
            document.querySelectorAll("#kinds button"), function (x) {
            return x.textContent === "attack"; })[0]; b.focus(); })()""")
        p.key("Enter")
        tag = p.ev("document.activeElement.tagName + ' ' + "
                   "(document.activeElement.closest('#panel') ? 'panel' "
                   ": '')")
        report(tag != "BODY " and "panel" in tag, "aeonis: a panel "
               "button pressed by Enter leaves the focus in the panel",
               tag)
    # 6. arcane-legions: every choice of a maneuver and of the order by
    # the page's controls, read by --check as given (r1, a formation
    # with 2 mp: a turn off its front costs 2).
    d, path = fixture_sheet(tmp, "arcane-legions/svg-breakaways", "red")
    if path:
        fresh(path)
        p.click(unitsel("r1"))
        ok = p.ev("""(function () {
            var set = {off: "front", off_notch: "left", corner: "left",
                notch: "near", snap: "left", slide: "right", object: "b1"};
            for (var k in set) {
                var e = document.getElementById(k);
                if (!e) return k;
                e.value = set[k];
                e.dispatchEvent(new Event("change"));
            }
            var b = [].filter.call(document.querySelectorAll("#extra button"),
                function (x) { return x.textContent === "turn right 90"; });
            if (!b.length) return "turn right 90";
            b[0].click();
            return "ok"; })()""")
        text = p.orders()
        o = check(d, "red", text).get("orders", [])
        m = o[0].get("maneuvers", [{}])[0] if o else {}
        report(ok == "ok" and o and "off front off_notch left corner left "
               "notch near" in o[0].get("text", "") and o[0].get("snap") ==
               "left" and o[0].get("slide") == "right" and
               o[0].get("object") == "b1" and m.get("kind") == "turn",
               "arcane-legions svg-breakaways: off_notch, corner, notch, "
               "snap, slide and object by the page's controls, read by "
               "--check (%s)" % ok, text + json.dumps(o)[:800])
        tally(p, d, json.loads(p.ev('document.getElementById('
                                    '"sheet-data").textContent')), "red",
              "r1", "arcane-legions svg-breakaways")
    d, path = fixture_sheet(tmp, "arcane-legions/svg-breakaways", "red")
    if path:
        data = fresh(path)
        mine = [u[0] for u in data["units"]]
        p.click(unitsel(mine[0]))
        p.ev("""[].filter.call(document.querySelectorAll("#kinds button"),
            function (x) { return x.textContent === "breakaway"; })[0]
            .click()""")
        target = None
        for _ in range(60):
            p.key("Tab")
            a = p.ev("(document.activeElement.dataset || {}).unit || null")
            if a is not None and a not in mine:
                target = a
                break
        if target is not None:
            p.key("Enter")
        text = p.orders()
        report(target is not None and ("breakaway %s" % target) in text,
               "arcane-legions svg-breakaways: the breakaway's target "
               "reached by Tab and picked by Enter", "%s\n%s" % (target,
                                                                 text))


def kind_button(p, k):
    """Presses the panel's button of a kind (or of other words)."""
    return p.ev("""(function () { var b = [].filter.call(
        document.querySelectorAll("#kinds button"), function (x) {
        return x.textContent === %s; }); if (!b.length) return false;
        b[0].click(); return true; })()""" % json.dumps(k))


def left_as_checked(d, player, text, n, what):
    """The text's n orders legal by --check, and the "left" the page
    wrote of each its "ap_left"."""
    res = check(d, player, text)
    o = res.get("orders", [])
    lines = order_lines(text)
    bad = [x for x in o if x.get("status") != "legal"]
    wrong = []
    for ln, x in zip(lines, o):
        m = re.search(r"left (-?[0-9]+)", ln)
        if m and x.get("ap_left") is not None and int(m.group(1)) != \
                x.get("ap_left"):
            wrong.append((ln, x.get("ap_left")))
    report(len(o) == len(lines) == n and not bad and not wrong, what,
           text + json.dumps(bad or wrong)[:600])


def reviewed2(b, p, tmp):
    """The second review's findings of 2026-11-28 (doc/OPEN.md, issue
    32), each as the player met it."""
    def fresh(path):
        b.open(path)
        p.ev('localStorage.clear(); document.getElementById("clear")'
             '.click()')

    # 1. AP a translocate or a reinforce spends are taken off the pool
    # for the orders after it (red has 4 AP: after a translocate, 3).
    def ap4(m):
        m["players"]["red"]["ap"] = 4
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red", edit=ap4)
    if path:
        fresh(path)
        p.click(unitsel("r-inf-1"))
        kind_button(p, "translocate")
        p.click(cellsel("0102"))
        p.key("Escape")
        p.key("Escape")
        p.click(unitsel("r-cav-1"))
        p.click(cellsel("0505"))
        st = p.status()
        p.key("Escape")
        text = p.orders()
        # 0505 costs r-cav-1 4 AP: written, --check must find it legal;
        # refused, for the reason --check gives.
        why = check_to(d, "red", "%s\nr-inf-1 translocate 0102\nr-cav-1 "
                       "to 0505\nend\n" % text.splitlines()[0])
        if len(why) > 1 and why[1].get("reason") == "no_route":
            why = why[1].get("message", "").rsplit(": ", 1)[-1]
        else:
            why = why[1].get("reason") if len(why) > 1 else None
        if "r-cav-1" in text:
            left_as_checked(d, "red", text, 2, "aeonis, 4 AP: a translocate "
                            "(1 AP), then r-cav-1 to 0505: the AP left "
                            "after the translocate, as --check has them")
        else:
            report(why is not None and why in st, "aeonis, 4 AP: a "
                   "translocate (1 AP), then r-cav-1 to 0505 refused for "
                   "--check's reason (%s)" % why, st + "\n" + text)
        p.click(unitsel("r-cav-1"))
        p.click(cellsel("0404"))
        p.key("Escape")
        left_as_checked(d, "red", p.orders(), 2, "aeonis, 4 AP: a "
                        "translocate (1 AP), then r-cav-1 to 0404: the AP "
                        "left after the translocate, as --check has them")
    d, path = fixture_sheet(tmp, "aeonis/p-reinforce", "red",
                            orders=False)
    if path:
        fresh(path)
        p.click(unitsel("r-inf-1"))
        kind_button(p, "reinforce")
        p.click(cellsel("0505"))
        p.key("Escape")
        p.key("Escape")
        p.click(unitsel("r-lord"))
        p.click(cellsel("0104"))
        p.key("Escape")
        left_as_checked(d, "red", p.orders(), 2, "aeonis p-reinforce: a "
                        "reinforce (2 AP), then r-lord to 0104: the AP "
                        "left, as --check has them")
    # 5. Keyboard: a kind's button pressed by Enter keeps the focus, and
    # the arrow cursor's cell is then picked by Enter, not the button
    # pressed again.
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red")
    if path:
        fresh(path)
        p.ev("document.activeElement && document.activeElement.blur()")
        found = False
        for _ in range(80):
            p.key("Tab")
            if p.ev("(document.activeElement.dataset || {}).unit || ''") \
                    == "r-cav-1":
                found = True
                break
        p.key("Enter")
        for _ in range(40):
            p.key("Tab")
            if p.ev("document.activeElement.tagName + ' ' + "
                    "document.activeElement.textContent") == \
                    "BUTTON attack":
                break
        p.key("Enter")
        p.key("ArrowRight")
        p.key("ArrowDown")
        cell = p.ev('(document.querySelector(".cursor") || {dataset: {}})'
                    '.dataset.cell || ""')
        p.key("Enter")
        st = p.status()
        report(found and cell and ("attack " + cell) in st and
               "Pick the cell" not in st, "aeonis for-hidden: attack's "
               "button by Enter, the arrows, Enter: the cursor's cell "
               "(%s) picked" % cell, st + "\n" + p.orders())
    # 3. xconq: leave_world checked before it is written, for the
    # reason --check gives (a cell off the edge: not_at_edge), and one
    # after a move of the same unit not written unchecked.
    d, path = fixture_sheet(tmp, "xconq/w-leave", "red", orders=False)
    if path:
        fresh(path)
        hdr = p.orders().splitlines()[0]
        p.click(unitsel("r1"))
        kind_button(p, "leave world")
        before = p.orders()
        p.click(cellsel("0303"))
        o = check_to(d, "red", "%s\nr1 leave_world 0303\nend\n" % hdr)
        why = o[0].get("reason") if o else None
        report(p.orders() == before and why is not None and
               why in p.status(), "xconq w-leave: r1 leave_world 0303 "
               "refused before it is written (%s)" % why,
               p.status() + "\n" + p.orders())
        fresh(path)
        p.click(unitsel("r2"))
        p.click(cellsel("0403"))
        p.key("Escape")
        p.click(unitsel("r2"))
        kind_button(p, "leave world")
        p.click(cellsel("0501"))
        p.key("Escape")
        text = p.orders()
        lines = [ln for ln in order_lines(text) if not ln.startswith("#")]
        o = check_to(d, "red", text)
        bad = [x for x in o if x.get("status") != "legal"]
        report(len(o) == len(lines) and not bad, "xconq w-leave: r2 to "
               "0403, then leave_world 0501: no order written that "
               "--check refuses", text + json.dumps(bad)[:600])
    # 4. arcane-legions: a step's distance outside what --check reads
    # (more than 0, at most 1; a number) refused, not written.
    d, path = fixture_sheet(tmp, "arcane-legions/svg-breakaways", "red")
    if path:
        for v in ("0", "2.5", "99999", "-3", "abc", ""):
            fresh(path)
            p.click(unitsel("r1"))
            before = p.orders()
            p.ev("""(function () { var d = document.getElementById(
                "distance"); d.type = "text"; d.value = %s;
                d.dispatchEvent(new Event("change"));
                [].filter.call(document.querySelectorAll("#extra button"),
                function (x) { return x.textContent === "step forward";
                })[0].click(); })()""" % json.dumps(v))
            report(p.orders() == before and "bad_order" in p.status(),
                   "arcane-legions svg-breakaways: a step of distance %r "
                   "refused (bad_order)" % v, p.status() + "\n" +
                   p.orders())
    # 9. aeonis: a stack's unit ordered alone, then the stack: the
    # stack's move says why it is no order, no "cost undefined".
    d, path = fixture_sheet(tmp, "aeonis/a-group-split", "red",
                            orders=False)
    if path:
        fresh(path)
        p.click(unitsel("r-inf-5"))
        kind_button(p, "r-inf-6 alone")
        p.click(cellsel("0401"))
        p.key("Escape")
        p.click(unitsel("r-inf-5"))
        p.click(cellsel("0502"))
        st = p.status()
        text = p.orders()
        shown = p.ev('document.getElementById("panel").textContent')
        report(not re.search(r"undefined|NaN", st + text + shown) and
               "r-inf-6 moves in an order above" in st, "aeonis "
               "a-group-split: r-inf-6 alone, then the stack to 0502: "
               "why it is no order, no cost undefined", st + "\n" + text)
        checked_lines(d, "red", text, "aeonis a-group-split: r-inf-6 "
                      "alone, then the stack")
    # 2. A cell order on a hex an earlier order of the player's reaches
    # (and may claim) is not refused: written, said left to --check,
    # which rules it legal.
    d, path = fixture_sheet(tmp, "aeonis/for-hidden", "red")
    if path:
        fresh(path)
        p.click(unitsel("r-inf-1"))
        p.click(cellsel("0104"))
        p.key("Escape")
        p.click(unitsel("r-cav-1"))
        kind_button(p, "translocate")
        p.click(cellsel("0104"))
        st = p.status()
        text = p.orders()
        o = check_to(d, "red", text)
        bad = [x for x in o if x.get("status") != "legal"]
        report("r-cav-1 translocate 0104" in text and "--check" in st and
               len(o) == 2 and not bad, "aeonis for-hidden: r-inf-1 to "
               "0104, then r-cav-1 translocate 0104: written, left to "
               "--check, which rules it legal", st + "\n" + text +
               json.dumps(bad)[:600])


def main():
    chromium = cdp.chromium()
    n = int(os.environ.get("SHEET_N", "3"))
    tmp = tempfile.mkdtemp()
    command_line(tmp)
    if chromium is None:
        shutil.rmtree(tmp, ignore_errors=True)
        print("# chromium is not installed (tests/deps.sh --test)")
        print("sheet: %d passed, %d failed, the pages not opened" % (
            passed, failed))
        return 1 if failed else 0 if os.environ.get("SHEET_SKIP_OK") \
            else 77
    b = cdp.Browser(chromium, tmp)
    b.page("Emulation.setDeviceMetricsOverride", {
        "width": 1400, "height": 900, "deviceScaleFactor": 1,
        "mobile": False})
    p = Page(b)
    try:
        reviewed(b, p, tmp)
        reviewed2(b, p, tmp)
        for rs in WALKING + ["arcane-legions"]:
            for seed in range(1, n + 1):
                d = os.path.join(tmp, "%s-%d" % (rs, seed))
                what = "%s seed %d" % (rs, seed)
                m = make_turn(rs, seed, d)
                if m is None:
                    report(False, what + ": tests/prop turn and its run")
                    continue
                players = list(m["players"])
                player = players[seed % len(players)]
                path = sheet(d, player, "sheet.html")
                if path is None:
                    continue
                well_formed(path, what)
                b.open(path)
                data = json.loads(p.ev(
                    'document.getElementById("sheet-data").textContent'))
                report(p.ev("document.body.dataset.ready") == "1",
                       what + ": the page is ready")
                if rs == "arcane-legions":
                    arcane(p, d, data, player, what)
                    continue
                rng = random.Random("%s/%d" % (rs, seed))
                if not random_path(p, d, data, player, rng, what):
                    report(True, what + ": %s has nothing that can move "
                           "(nothing to click)" % player)
                    continue
                # The draft survives a reload.
                text = p.orders()
                b.events = []
                p.ev('document.body.dataset.ready = "old"')
                b.call("Page.reload", {}, b.session)
                b.wait("Page.loadEventFired")
                # The new page's script has run (marked "1"; the old page
                # was marked "old": a load event read early once had the
                # page read half made).
                for _ in range(100):
                    if p.ev("document.body && document.body.dataset.ready"
                            " || ''") == "1":
                        break
                    time.sleep(0.1)
                report(p.orders() == text, what + ": a reload keeps the "
                       "draft", p.orders())
                several(p, d, data, player, rng, what)
                keyboard(p, d, data, player, what)
                kinds(p, d, data, player, rng, what)
                if data["count"]:
                    split(p, d, data, player, rng, what)
                if seed == 1:
                    phone(b, p, path, what)
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("sheet: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def arcane(p, d, data, player, what):
    """A maneuver made by the buttons, read by --check."""
    if not data["units"]:
        return
    # A unit with the movement points for a step forward (the page
    # refuses one over them: tally() below).
    can = [u for u in data["units"] if len(u) > 4 and u[3] >= u[4][0]]
    if not can:
        report(True, what + ": no unit has the mp for a step (nothing to "
               "check but the tally)")
        tally(p, d, data, player, data["units"][0][0], what)
        return
    p.ev('localStorage.clear(); document.getElementById("clear").click()')
    p.click(unitsel(can[0][0]))
    clicked = p.ev("""(function () {
        var b = [].slice.call(document.querySelectorAll("#extra button"))
            .filter(function (x) { return x.textContent === "step forward"; });
        if (!b.length) return false;
        b[0].click(); return true; })()""")
    text = p.orders()
    report(clicked and len(order_lines(text)) == 1, what + ": a maneuver "
           "by its button", text)
    # A breakaway: its button, then the enemy unit clicked.
    enemy = p.ev("""(function () {
        var mine = %s, all = document.querySelectorAll("[data-unit]");
        for (var i = 0; i < all.length; i++)
            if (mine.indexOf(all[i].dataset.unit) < 0)
                return all[i].dataset.unit;
        return null; })()""" % json.dumps([u[0] for u in data["units"]]))
    if enemy is not None:
        p.ev("""[].filter.call(document.querySelectorAll("#kinds button"),
            function (x) { return x.textContent === "breakaway"; })[0]
            .click()""")
        p.click(unitsel(enemy))
        t2 = p.orders()
        res = check(d, player, t2)
        o = res.get("orders", [])
        report(len(o) == 2 and o[1].get("kind") == "breakaway" and
               o[1].get("reason") not in ("bad_order", "unknown_kind",
                                          "unknown_unit"),
               what + ": a breakaway on %s by its button and a click, read "
               "by --check" % enemy, t2 + json.dumps(o)[:600])
    res = check(d, player, text)
    o = res.get("orders", [{}])
    report(len(o) == 1 and o[0].get("reason") not in (
        "bad_order", "unknown_kind", "unknown_unit") and
        res.get("refused", {}).get("files") == 0,
        what + ": --check reads the maneuver (%s)" % (
            o[0].get("status") if o else "none"), json.dumps(res)[:800])
    tally(p, d, data, player, data["units"][0][0], what)


def tally(p, d, data, player, uid, what):
    """arcane-legions: the MP tally.  Steps forward by their button until
    the page refuses one (insufficient_mp): those made cost no more than
    the unit's movement points (--check: no maneuver refused for
    insufficient_mp), and one more would."""
    p.ev('localStorage.clear(); document.getElementById("clear").click()')
    p.click(unitsel(uid))
    n = 0
    for _ in range(40):
        before = p.orders()
        p.ev("""[].filter.call(document.querySelectorAll("#extra button"),
            function (x) { return x.textContent === "step forward"; })[0]
            .click()""")
        if p.orders() == before:
            break
        n += 1
    st = p.status()
    text = p.orders()
    res = check(d, player, text)
    o = res.get("orders", [])
    over = [m for x in o for m in x.get("maneuvers", [])
            if m.get("reason") == "insufficient_mp"]
    mp = o[0].get("mp") if o else None
    price = o[0]["maneuvers"][0].get("cost") if o and o[0].get(
        "maneuvers") and o[0]["maneuvers"][0].get("made") else None
    if o and "maneuvers" not in o[0]:
        # Ruled before its maneuvers (insufficient_op): the unit's
        # movement points and price as the page has them from the C
        # code (rules.h, man_prices).
        u = [x for x in data["units"] if x[0] == uid][0]
        mp, price = u[3], u[4][0]
    report("insufficient_mp" in st and not over and (
        n == 0 or (mp is not None and price is not None and
                   n * price <= mp < (n + 1) * price) or
        o[0].get("reason") == "movement_ended"),
        what + ": the MP tally: %d steps forward, the next refused "
        "(insufficient_mp), as --check prices them" % n,
        "%s\n%s\nmp %s price %s\n%s" % (st, text, mp, price,
                                          json.dumps(o)[:800]))


if __name__ == "__main__":
    sys.exit(main())
