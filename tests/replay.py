#!/usr/bin/env python3
"""The replay page (issue 32; arbiter(1), --replay) in headless Chromium,
driven over the DevTools pipe (tests/cdp.py).  For casebook turns of
every rule system (per system a few cases, those with eliminations,
retreats and the longest traces first):

  - the page's trace is the text trace (--trace-file --text), line for
    line;
  - stepping with the next button (a real click, Input.dispatchMouseEvent
    at the button's centre) from the start shows every event once and in
    order: after click k the step number says "step k of N", exactly
    line k is highlighted, and every unit the step changes has its mark
    where the step puts it;
  - the steps alone bring every unit where the result has it: the
    umpire's page sets none at the last step that its steps did not
    ("fixed": 0);
  - at the last step every unit's mark stands where the result says: its
    data-at is the result's "at" (a table's pose within 0.002), it is
    drawn inside that cell (a table's base, moved and turned by the
    page, has the corners the picture of the turn, --svg, gives it,
    within a pixel), and its data-state is "eliminated" or
    "left_world" exactly when the result's status is;
  - first, previous and last work, and so do the keys Home, Left, Right
    and End; at the start every mark is at the unit's "from";
  - a player's page (--for P) has the player's cut of the trace, line for
    line.

Usage: replay.py TOP ARBITER.  One TAP line per case; ends "replay: N
passed, N failed".  Without Chromium: "replay: skipped", exit 0 when
REPLAY_SKIP_OK is set, else 77."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

TOP, ARB = [os.path.abspath(a) for a in sys.argv[1:3]]
SYSTEMS = ["aeonis", "territory", "morne-plaine", "xconq", "arcane-legions"]
PER = int(os.environ.get("REPLAY_PER", "4"))
# The options of a case's args that the runs here keep.
KEEP = {"-s": 1, "--seed": 1, "--rolls": 1, "-r": 1, "--ruleset": 1,
        "--threads": 1, "-t": 0, "--trace": 0}
KEYS = {"Home": 36, "End": 35, "ArrowLeft": 37, "ArrowRight": 39}


def case_args(d):
    """The args of case d to keep, or None when the case does not fit
    (an option of another mode, a key, an expected error)."""
    if os.path.exists(os.path.join(d, "umpire.key")) or \
            not os.path.exists(os.path.join(d, "expected.json")) or \
            os.path.exists(os.path.join(d, "expected.status")):
        return None
    out = []
    try:
        toks = open(os.path.join(d, "args")).read().split()
    except OSError:
        toks = []
    i = 0
    while i < len(toks):
        t = toks[i]
        name, eq, val = t.partition("=")
        if name not in KEEP:
            return None
        out.append(t)
        if KEEP[name] and not eq:
            i += 1
            out.append(toks[i])
        i += 1
    return out


def pick():
    """Per rule system, up to PER cases: eliminations, retreats, then the
    longest traces."""
    cases = []
    for rs in SYSTEMS:
        scored = []
        for d in sorted(glob.glob(os.path.join(TOP, "fixtures", rs, "*"))):
            a = case_args(d)
            if a is None or not glob.glob(os.path.join(d, "orders", "*")):
                continue
            try:
                r = json.load(open(os.path.join(d, "expected.json")))
            except ValueError:
                continue
            text = json.dumps(r)
            elim = any(u.get("status") == "eliminated"
                       for u in r.get("units", []))
            base = os.path.basename(d)
            retreat = "retreat" in base and "no-retreat" not in base
            scored.append((-len(text), elim, retreat, d, a))
        scored.sort()
        # An elimination, a retreat, then the longest results.
        chosen = [x for x in scored if x[1]][:1] + \
            [x for x in scored if x[2]][:1]
        chosen += [x for x in scored if x not in chosen][:PER - len(chosen)]
        cases += [(rs, x[3], x[4]) for x in chosen]
    return cases


class Page:
    def __init__(self, b):
        self.b = b

    def ev(self, js):
        return self.b.evaluate(js)

    def click(self, id):
        r = self.ev("(function(){var r=document.getElementById('%s')"
                    ".getBoundingClientRect();return [r.x+r.width/2,"
                    "r.y+r.height/2];})()" % id)
        for kind in ("mousePressed", "mouseReleased"):
            self.b.page("Input.dispatchMouseEvent", {
                "type": kind, "x": r[0], "y": r[1], "button": "left",
                "clickCount": 1})

    def key(self, k):
        for kind in ("keyDown", "keyUp"):
            self.b.page("Input.dispatchKeyEvent", {
                "type": kind, "key": k, "code": k,
                "windowsVirtualKeyCode": KEYS[k]})

    def state(self):
        return self.ev("""(function(){
var lis=document.querySelectorAll('#trace li'),cur=[];
for(var i=0;i<lis.length;i++)if(lis[i].classList.contains('cur'))cur.push(i);
return {step:+document.body.getAttribute('data-step'),
 label:document.getElementById('step').textContent,cur:cur};})()""")

    def marks(self):
        """Every unit's mark: data-at, data-state, and whether its box's
        centre lies in the cell it names (x) and its top in the cell's
        rows (y)."""
        return self.ev("""(function(){var o={};
document.querySelectorAll('#board svg g[data-unit]').forEach(function(g){
 var at=g.getAttribute('data-at'),st=g.getAttribute('data-state'),inside=null;
 var c=at===null?null:document.querySelector('#board svg [data-cell="'+CSS.escape(at)+'"]');
 if(c){var a=c.getBoundingClientRect(),r=(g.querySelector('rect')||g).getBoundingClientRect();
  var x=r.x+r.width/2;inside=x>=a.left-1&&x<=a.right+1&&r.top>=a.top-1&&r.top<=a.bottom+1;}
 o[g.getAttribute('data-unit')]={at:at,state:st,inside:inside};});
return o;})()""")


def near(a, b):
    return all(abs(float(x) - float(y)) <= 0.002 for x, y in zip(a, b))


def where(u, key):
    """The result's position of unit u under key ("at"/"from", or a
    table's "pose"/"start") as the page's data-at says it."""
    p = u.get(key)
    if isinstance(p, dict):
        return [p.get("x"), p.get("y"), p.get("facing")]
    return p


def marks_faults(m, units, after):
    bad = []
    for u in units:
        k = m.get(u["id"])
        table = isinstance(u.get("pose"), dict)
        want = where(u, ("pose" if table else "at") if after else
                     ("start" if table else "from"))
        if k is None:
            bad.append("%s: no mark" % u["id"])
            continue
        if table:
            got = (k["at"] or "").split(",")
            if len(got) != 3 or not near(got, want):
                bad.append("%s at %s, not %s" % (u["id"], k["at"], want))
        elif want is not None and k["at"] != want:
            bad.append("%s at %s, not %s" % (u["id"], k["at"], want))
        elif want is not None and k["inside"] is False:
            bad.append("%s is not drawn in %s" % (u["id"], want))
        want = u.get("status") if after and u.get("status") in (
            "eliminated", "left_world") else ""
        if k["state"] != want:
            bad.append("%s is %s, the result says %s" % (
                u["id"], k["state"] or "on the board", u.get("status")))
    return bad


def bases_faults(p, svg):
    """A table's bases on the page against the picture of the turn."""
    got = p.ev("""(function(){var o={};
document.querySelectorAll('#board svg g[data-unit]').forEach(function(g){
 var b=g.querySelector('polygon.base');if(!b)return;
 var m=g.transform.baseVal.consolidate(),r=[];
 for(var i=0;i<b.points.numberOfItems;i++){var q=b.points.getItem(i);
  if(m)q=q.matrixTransform(m.matrix);r.push([q.x,q.y]);}
 o[g.getAttribute('data-unit')]=r;});return o;})()""")
    bad = []
    for u, pts in sorted(got.items()):
        m = re.search(r'data-unit="%s">\s*<polygon class="base" '
                      r'points="([^"]*)"' % re.escape(u), svg)
        want = [[float(v) for v in xy.split(",")]
                for xy in m.group(1).split()] if m else []
        if len(want) != len(pts) or any(
                abs(a - c) > 1 or abs(b - d) > 1
                for (a, b), (c, d) in zip(pts, want)):
            bad.append("%s's base at %s, the picture's at %s" % (
                u, [[round(a), round(b)] for a, b in pts], want))
    return bad


def one(p, tmp, rs, d, args):
    """The faults of case d."""
    bad = []
    page = os.path.join(tmp, "page.html")
    tt = os.path.join(tmp, "trace.txt")
    res = os.path.join(tmp, "result.json")
    orders = sorted(glob.glob(os.path.join(d, "orders", "*")))
    pic = os.path.join(tmp, "turn.svg")
    for f in (page, tt, res, pic):
        if os.path.exists(f):
            os.unlink(f)
    r = subprocess.run([ARB] + args + ["--replay", page, "--trace-file",
                                       tt, "--text", "-o", res, "--svg", pic,
                                       "map.json"] + orders, cwd=d,
                       capture_output=True)
    if r.returncode != 0:
        return ["arbiter: exit %d: %s" % (r.returncode,
                                          r.stderr.decode()[:200])]
    lines = open(tt).read().splitlines()
    units = json.load(open(res)).get("units", [])
    p.b.open(page)
    got = p.ev("Array.prototype.map.call(document.querySelectorAll("
               "'#trace li'),function(l){return l.textContent;})")
    if got != lines:
        bad.append("the page's trace is not the text trace (%d lines, "
                   "%d)" % (len(got), len(lines)))
    n = max(len(lines), 1)
    fixed = p.ev("JSON.parse(document.getElementById('replay-data')"
                 ".textContent).fixed")
    if fixed != 0:
        bad.append("the last step set %s unit(s) the steps did not" % fixed)
    s = p.state()
    if s["step"] != 0 or s["label"] != "start (step 0 of %d)" % n or \
            s["cur"]:
        bad.append("at the start: %s" % s)
    bad += ["start: " + x for x in marks_faults(p.marks(), units, False)]
    seen = []
    for k in range(1, n + 1):
        p.click("next")
        s = p.state()
        if s["step"] != k or s["label"] != "step %d of %d" % (k, n):
            bad.append("click %d: %s" % (k, s))
            break
        seen += s["cur"]
        off = p.ev("""(function(){var D=JSON.parse(document.getElementById(
'replay-data').textContent),st=D.steps[%d],bad=[];
st.ch.forEach(function(c){var g=document.querySelector('#board svg g[data-unit="'+
CSS.escape(D.units[c[0]][0])+'"]');if(!g)return;var at=g.getAttribute('data-at');
if(typeof c[1]==='string'&&at!==c[1])bad.push(D.units[c[0]][0]+' at '+at+', not '+c[1]);});
return bad;})()""" % (k - 1))
        if off:
            bad.append("click %d: %s" % (k, off))
        if lines and s["cur"] != [k - 1]:
            bad.append("click %d: line(s) %s highlighted" % (k, s["cur"]))
            break
    if lines and seen != list(range(len(lines))):
        bad.append("the events shown: not each once in order")
    p.click("next")	# at the end: nothing
    if p.state()["step"] != n:
        bad.append("next at the last step moved")
    bad += ["last: " + x for x in marks_faults(p.marks(), units, True)]
    if rs == "arcane-legions":
        bad += ["last: " + x for x in bases_faults(p, open(pic).read())]
    p.click("first")
    if p.state()["step"] != 0:
        bad.append("first: step %s" % p.state()["step"])
    bad += ["first: " + x for x in marks_faults(p.marks(), units, False)]
    p.click("last")
    if p.state()["step"] != n:
        bad.append("last: step %s" % p.state()["step"])
    p.click("prev")
    if p.state()["step"] != n - 1:
        bad.append("previous: step %s" % p.state()["step"])
    for k, want in (("Home", 0), ("ArrowRight", 1), ("End", n),
                    ("ArrowLeft", n - 1), ("ArrowRight", n)):
        p.key(k)
        if p.state()["step"] != want:
            bad.append("key %s: step %s, not %d" % (k, p.state()["step"],
                                                    want))
    bad += ["keys: " + x for x in marks_faults(p.marks(), units, True)]
    # A player's page: the player's cut of the trace.
    pl = sorted({u["player"] for u in units} or
                set(json.load(open(res)).get("players", {})))
    if pl:
        r = subprocess.run([ARB] + args + ["--for", pl[0], "--replay",
                                           page, "--trace-file", tt,
                                           "--text", "-o", "/dev/null",
                                           "map.json"] + orders, cwd=d,
                           capture_output=True)
        if r.returncode != 0:
            bad.append("--for %s: exit %d" % (pl[0], r.returncode))
        else:
            p.b.open(page)
            got = p.ev("Array.prototype.map.call(document.querySelectorAll("
                       "'#trace li'),function(l){return l.textContent;})")
            if got != open(tt).read().splitlines():
                bad.append("--for %s: the page's trace is not the "
                           "player's" % pl[0])
            p.key("End")
            bad += ["--for %s last: %s" % (pl[0], x) for x in
                    marks_faults(p.marks(), units, True)]
    return bad


def phone(b, page):
    """On a phone's screen (390 x 844): the board the screen's width, the
    step and the trace under it (a review found the board cut off beside
    the trace, and its lines broken mid-word)."""
    b.page("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1,
        "mobile": True})
    try:
        b.open(page)
        r = b.evaluate('(function () { var bd = document.getElementById('
                       '"board").getBoundingClientRect(), sd = document.'
                       'getElementById("side").getBoundingClientRect(); '
                       'return [bd.width, sd.width, sd.top, bd.bottom]; })'
                       '()')
    finally:
        b.page("Emulation.setDeviceMetricsOverride", {
            "width": 1400, "height": 900, "deviceScaleFactor": 1,
            "mobile": False})
    if r[0] >= 370 and r[1] >= 370 and r[2] >= r[3] - 1:
        return []
    return ["on a phone: board, side width, side top, board bottom %s" % r]


def main():
    exe = cdp.chromium()
    if exe is None:
        print("replay: skipped (no Chromium)")
        return 0 if os.environ.get("REPLAY_SKIP_OK") else 77
    tmp = tempfile.mkdtemp()
    b = cdp.Browser(exe, tmp)
    p = Page(b)
    npass = nfail = 0
    try:
        for i, (rs, d, args) in enumerate(pick(), 1):
            name = os.path.relpath(d, os.path.join(TOP, "fixtures"))
            try:
                bad = one(p, tmp, rs, d, args)
                if i == 1:
                    bad += phone(b, os.path.join(tmp, "page.html"))
            except OSError as e:
                bad = [str(e)]
            if bad:
                nfail += 1
                print("not ok %d - %s" % (i, name))
                for x in bad[:12]:
                    print("#   " + x)
            else:
                npass += 1
                print("ok %d - %s" % (i, name))
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("replay: %d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


sys.exit(main())
