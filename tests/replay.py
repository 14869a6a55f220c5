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
  - at the start the board is the map's, and at the last step the
    result's, everything its picture shows: the title is the picture's
    (--svg, not "turn N begins"), each cell's owner (the colour of its
    outline, a territory's ring, named by the picture's legend), a
    territory's armies ("armies N" in its circle), each cell's features
    (the text in it), each unit's mark (above) and its strength (the
    number its badge ends in); the umpire's page sets no cell at the last
    step that its steps did not ("cfixed": 0);
  - after each step, what its line says changed is drawn so: an "owner"
    line's cell in the new owner's colour, a "destroyed" feature gone, a
    territory's armies after an "arrive" or a "raise" up by that many, a
    garrison's "loss" down to what is left, a unit's "loss" its strength
    what is left, its mark faded ("eliminated") at 0;
  - after each step, #info says the line's event, its order ("ID
    (PLAYER)"), its units, its cost
    ("cost", with "total": "C (T in all)") and the ruling of its order
    (the result's status and message); #rp-hl outlines exactly the cells
    the line names, and the marks of class "cur" are exactly the units
    it is about, and they are in the board's view (scrolled there);
    the line of class "cur" is in view in the trace;
  - a click on a line of the trace goes to its step, and so does Enter
    on a line reached with Tab;
  - first, previous and last work, and so do the keys Home, Left, Right
    and End; at the start every mark is at the unit's "from"; first and
    previous are disabled at the start, next and last at the end, where
    Left and Right go no further;
  - a player's page (--for P) has the player's cut of the trace, line for
    line, with a line for each of the player's own gains, losses of the
    player's units and features the player's orders destroyed (the
    player's report); stepped through, each line's change is drawn, and
    each cell it names as the umpire's page draws it after that line.

Usage: replay.py TOP ARBITER.  One TAP line per case; ends "replay: N
passed, N failed".  Without Chromium: "replay: skipped", exit 0 when
REPLAY_SKIP_OK is set, else 77."""
import glob
import html
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
# Cases run whatever the choice: a player's page of a territory turn with
# an invasion, a feature destroyed and owners changed (a review found
# none of it drawn at the last step), an aeonis turn of claims.
MUST = {"territory/for-hidden", "aeonis/a-flying", "aeonis/for-hidden"}
KEYS = {"Home": 36, "End": 35, "ArrowLeft": 37, "ArrowRight": 39,
        "Tab": 9, "Enter": 13}


def case_args(d):
    """The args of case d to keep and the player of its --for (or None),
    or None when the case does not fit (an option of another mode, a
    key, an expected error)."""
    if os.path.exists(os.path.join(d, "umpire.key")) or \
            not os.path.exists(os.path.join(d, "expected.json")) or \
            os.path.exists(os.path.join(d, "expected.status")):
        return None
    out = []
    player = None
    try:
        toks = open(os.path.join(d, "args")).read().split()
    except OSError:
        toks = []
    i = 0
    while i < len(toks):
        t = toks[i]
        name, eq, val = t.partition("=")
        if name == "--for":
            player = val if eq else toks[i + 1]
            i += 1 if eq else 2
            continue
        if name not in KEEP:
            return None
        out.append(t)
        if KEEP[name] and not eq:
            i += 1
            out.append(toks[i])
        i += 1
    return out, player


def pick():
    """Per rule system, up to PER cases: eliminations, retreats, a change
    of owner or a feature destroyed, then the longest traces; and the
    cases named in MUST."""
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
            board = bool(r.get("ownership") or r.get("destroyed"))
            scored.append((-len(text), elim, retreat, board, d, a))
        scored.sort()
        # An elimination, a retreat, a board changed, then the longest
        # results.
        chosen = [x for x in scored if x[1]][:1]
        chosen += [x for x in scored if x[2] and x not in chosen][:1]
        chosen += [x for x in scored if x[3] and x not in chosen][:1]
        chosen += [x for x in scored if x not in chosen][:PER - len(chosen)]
        chosen += [x for x in scored if x not in chosen and
                   os.path.relpath(x[4], os.path.join(TOP, "fixtures"))
                   in MUST]
        cases += [(rs, x[4], x[5][0], x[5][1]) for x in chosen]
    return cases


class Page:
    def __init__(self, b):
        self.b = b
        self.players = []	# the full names, for the legend's cut ones
        self.drawn = set()	# the cells the page's picture draws

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

    def press(self, k):
        """Key k as a key that is not a character (rawKeyDown): Tab moves
        the focus."""
        for kind in ("rawKeyDown", "keyUp"):
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


    def board(self, feats):
        """What the picture shows of the board: its title, each cell's
        owner (the stroke of its outline, a hex's polygon of class
        "owner" or a territory's ring, named by the legend's swatches),
        a territory's armies (the text "armies N" in it) and the words
        of the text in it made of feature names (feats).  Read from the
        drawing only, not from the page's data or attributes."""
        return self.ev("""(function(F,P){
var svg=document.querySelector('#board svg'),out={owner:{},armies:{},
 features:{},title:null};
var hl=document.getElementById('rp-hl');
function mine(e){return !(hl&&hl.contains(e))&&!e.closest('g[data-unit]');}
var col={},ts=[].slice.call(svg.querySelectorAll('text')).filter(mine);
ts.forEach(function(t){if(out.title===null&&t.getAttribute('font-size')==='16')
 out.title=t.textContent;});
for(var i=0;i<ts.length;i++)if(ts[i].textContent==='Players'){
 for(var e=ts[i].nextElementSibling;e&&e.tagName==='rect';){var n=e.nextElementSibling;
  if(!n||n.tagName!=='text')break;col[e.getAttribute('fill').toLowerCase()]=n.textContent;
  e=n.nextElementSibling;}break;}
function who(c){c=(c||'').toLowerCase();if(!(c in col))return null;var n=col[c];
 if(n.slice(-1)==='\u2026')P.forEach(function(q){if(q.indexOf(n.slice(0,-1))===0)n=q;});
 return n;}
var cells=[].slice.call(svg.querySelectorAll('[data-cell]')).filter(mine),byx={};
cells.forEach(function(c){var b=c.getBBox(),x=Math.round(b.x+b.width/2);
 var o={l:c.getAttribute('data-cell'),x:b.x+b.width/2,y:b.y+b.height/2,b:b,e:c};
 (byx[x]=byx[x]||[]).push(o);
 if(c.tagName==='circle')out.owner[o.l]=c.getAttribute('stroke-width')==='4'?
  who(c.getAttribute('stroke')):null;
 else out.owner[o.l]=null;});
function at(x,y,tight){var r=Math.round(x);for(var d=-3;d<=3;d++){var l=byx[r+d]||[];
 for(var k=0;k<l.length;k++){var o=l[k];if(Math.abs(o.x-x)<=3&&(tight?
 Math.abs(o.y-y)<=3:y>=o.b.y&&y<=o.b.y+o.b.height))return o;}}return null;}
svg.querySelectorAll('polygon.owner').forEach(function(p){if(!mine(p))return;
 var s=p.getAttribute('stroke');if(!s||s==='none'||getComputedStyle(p).display==='none'
 ||getComputedStyle(p).visibility==='hidden')return;
 var b=p.getBBox(),o=at(b.x+b.width/2,b.y+b.height/2,true);
 if(o)out.owner[o.l]=who(s);});
ts.forEach(function(t){var b=t.getBBox(),o=at(b.x+b.width/2,b.y+b.height/2,false);
 if(!o)return;var s=t.textContent,m=/^armies (-?\d+)$/.exec(s);
 if(m){out.armies[o.l]=+m[1];return;}
 var w=s.split(' ');if(s!==''&&w.every(function(x){return F.indexOf(x)>=0;}))
  out.features[o.l]=(out.features[o.l]||[]).concat(w);});
return out;})(%s,%s)""" % (json.dumps(sorted(feats)),
                                      json.dumps(self.players)))

    def strengths(self):
        """Each unit's strength as its mark says it: the number its
        badge's text ends in."""
        return self.ev("""(function(){var o={};
document.querySelectorAll('#board svg g[data-unit]').forEach(function(g){
 var ts=g.querySelectorAll('text'),v=null;
 for(var k=ts.length-1;k>=0;k--){var m=/ (-?\d+)$/.exec(ts[k].textContent);
  if(m){v=+m[1];break;}}
 o[g.getAttribute('data-unit')]=v;});return o;})()""")

    def info(self):
        """#info's parts, the units of class cur, and the cells #rp-hl
        outlines (the cells whose centre its outlines' centres are)."""
        return self.ev("""(function(){
function t(id){var e=document.getElementById(id);return e?e.textContent:null;}
var svg=document.querySelector('#board svg'),hl=document.getElementById('rp-hl'),
 cells={},out=[];
svg.querySelectorAll('[data-cell]').forEach(function(c){if(hl&&hl.contains(c))return;
 var b=c.getBBox();cells[c.getAttribute('data-cell')]=[b.x+b.width/2,b.y+b.height/2];});
if(hl)[].forEach.call(hl.children,function(e){if(e.tagName==='polyline')return;
 var r=e.getBoundingClientRect(),m=svg.getScreenCTM().inverse(),
  p=svg.createSVGPoint();p.x=r.x+r.width/2;p.y=r.y+r.height/2;p=p.matrixTransform(m);
 for(var l in cells)if(Math.abs(cells[l][0]-p.x)<=2&&Math.abs(cells[l][1]-p.y)<=2)
  {out.push(l);return;}out.push('?');});
var lis=document.querySelectorAll('#trace li'),tr=document.getElementById('trace'),
 vis=null;
for(var i=0;i<lis.length;i++)if(lis[i].classList.contains('cur')){
 var a=lis[i].getBoundingClientRect(),b=tr.getBoundingClientRect();
 vis=a.top>=b.top-1&&a.bottom<=b.bottom+1&&a.top>=-1&&
  a.bottom<=window.innerHeight+1;}
var u=null;[hl].concat([].slice.call(svg.querySelectorAll('g[data-unit].cur')))
 .forEach(function(e){if(!e||!e.firstChild)return;var b=e.getBoundingClientRect();
 if(!b.width&&!b.height)return;u=u?[Math.min(u[0],b.left),Math.min(u[1],b.top),
 Math.max(u[2],b.right),Math.max(u[3],b.bottom)]:[b.left,b.top,b.right,b.bottom];});
var q=document.getElementById('board').getBoundingClientRect(),inview=true;
if(u){var x=(u[0]+u[2])/2,y=(u[1]+u[3])/2;inview=x>=q.left&&x<=q.right&&
 y>=q.top&&y<=Math.min(q.bottom,window.innerHeight);}
return {ev:t('ev'),order:t('order'),units:t('units'),inview:inview,cost:t('cost'),ruling:t('ruling'),
 cur:[].map.call(document.querySelectorAll('#board svg g[data-unit].cur'),
  function(g){return g.getAttribute('data-unit');}).sort(),
 cells:out.sort(),visible:vis,
 disabled:['first','prev','next','last'].map(function(b){
  return document.getElementById(b).disabled;})};})()""")

    def click_line(self, i):
        """A real click on line i of the trace, scrolled into view."""
        r = self.ev("(function(){var l=document.querySelectorAll("
                    "'#trace li')[%d];l.scrollIntoView({block:'center'});"
                    "var r=l.getBoundingClientRect();return [r.x+8,"
                    "r.y+r.height/2];})()" % i)
        for kind in ("mousePressed", "mouseReleased"):
            self.b.page("Input.dispatchMouseEvent", {
                "type": kind, "x": r[0], "y": r[1], "button": "left",
                "clickCount": 1})


FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def fields(line):
    """A line of the text trace: its event and its fields (quoted values
    unquoted, "-" as None)."""
    ev, _, rest = line.partition(": ")
    f = {}
    for k, v in FIELD.findall(rest):
        f[k] = json.loads(v) if v.startswith('"') else \
            None if v == "-" else v
    return ev, f


def board_of(m, graph):
    """A map's board (a map file's or a next map's): each cell's owner,
    armies (a territory's, else none) and features."""
    cells = m.get("cells") or {}
    out = {"owner": {}, "armies": {}, "features": {}}
    names = m.get("board", {}).get("territories") or list(cells)
    for l in names:
        c = cells.get(l, {})
        out["owner"][l] = c.get("owner")
        if graph:
            out["armies"][l] = c.get("armies", 0)
        out["features"][l] = sorted(c.get("features", []))
    return out


def board_faults(got, want, title=None):
    """The board a page shows (Page.board()) against want (board_of())."""
    bad = []
    if title is not None and got["title"] != title:
        bad.append("the title says %r, the picture %r" % (got["title"],
                                                         title))
    for l, o in sorted(want["owner"].items()):
        if l in got["owner"] and got["owner"][l] != o:
            bad.append("%s is drawn %s's, not %s's" % (
                l, got["owner"][l], o))
    for l, n in sorted(want["armies"].items()):
        if got["armies"].get(l) != n:
            bad.append("%s has armies %s drawn, not %s" % (
                l, got["armies"].get(l), n))
    for l, f in sorted(want["features"].items()):
        g = sorted(got["features"].get(l, []))
        if l in got["owner"] and g != f:
            bad.append("%s has features %s drawn, not %s" % (l, g, f))
    return bad


def line_faults(p, line, prev, now, units_of):
    """What the line of a step says changed, drawn after it: prev and
    now the boards before and after (Page.board())."""
    ev, f = fields(line)
    bad = []
    if ev == "owner" and "cell" in f and now["owner"].get(f["cell"]) != \
            f.get("to"):
        bad.append("%s: %s drawn %s's" % (line[:60], f["cell"],
                                          now["owner"].get(f["cell"])))
    if ev == "destroyed" and f.get("feature") in \
            now["features"].get(f.get("cell"), []):
        bad.append("%s: still drawn" % line[:60])
    for key, n in (("to", "armies"), ("cell", "armies")):
        if ev in ("arrive", "raise") and key in f and n in f and \
                f[key] in prev["armies"] and (ev == "arrive") == (
                    key == "to"):
            if now["armies"].get(f[key]) != prev["armies"][f[key]] + \
                    int(f[n]):
                bad.append("%s: %s has armies %s drawn, was %s" % (
                    line[:60], f[key], now["armies"].get(f[key]),
                    prev["armies"][f[key]]))
    # A unit's loss: its strength, and at 0 its mark faded.
    if ev == "loss" and f.get("unit") and "left" in f:
        st = p.strengths().get(f["unit"])
        m = p.marks().get(f["unit"])
        if st is not None and st != int(f["left"]):
            bad.append("%s: %s's strength drawn %s" % (line[:60], f["unit"],
                                                       st))
        if m is not None and (m["state"] == "eliminated") != (
                int(f["left"]) <= 0):
            bad.append("%s: %s is %s" % (line[:60], f["unit"],
                                         m["state"] or "on the board"))
    if ev == "loss" and "order" not in f and "unit" not in f and \
            f.get("at") in now["armies"] and \
            now["armies"][f["at"]] != int(f["left"]):
        bad.append("%s: %s has armies %s drawn" % (
            line[:60], f["at"], now["armies"][f["at"]]))
    return bad


def info_faults(inf, line, rulings, order_units, units, labels):
    """#info and the highlight after the step of line (its fields)."""
    ev, f = fields(line)
    bad = []
    if inf["ev"] != ev:
        bad.append("#ev says %r, the line %r" % (inf["ev"], ev))
    cost = ""
    if "cost" in f:
        cost = f["cost"] if "total" not in f else "%s (%s in all)" % (
            f["cost"], f["total"])
    if inf["cost"] != cost:
        bad.append("#cost says %r, the line %r" % (inf["cost"], cost))
    key = (f.get("player"), f.get("order"))
    want = "%s (%s)" % (f["order"], f.get("player")) if "order" in f \
        else ""
    if inf["order"] != want:
        bad.append("#order says %r, the line %r" % (inf["order"], want))
    want = rulings.get(key, "") if "order" in f else ""
    if inf["ruling"] != want:
        bad.append("#ruling says %r, the ruling %r" % (inf["ruling"],
                                                       want))
    # The units: the one the line names, else its order's; and a
    # charge's charger and target.
    us = [f["unit"]] if f.get("unit") in units else \
        order_units.get(key, []) if "order" in f else []
    us = list(us) + [f[k] for k in ("charger", "target")
                     if f.get(k) in units and f[k] not in us]
    if inf["units"] != ", ".join(us) or inf["cur"] != sorted(set(us)):
        bad.append("units %r, marked %s, not %s" % (inf["units"],
                                                    inf["cur"], us))
    cells = sorted({v for k, v in f.items() if isinstance(v, str) and
                    v in labels and k not in ("order", "player", "unit",
                                              "charger", "target")} |
                   ({f["target"]} if f.get("target") in labels and
                    f.get("target") not in units else set()))
    if inf["cells"] != cells:
        bad.append("#rp-hl outlines %s, the line names %s" % (
            inf["cells"], cells))
    if inf["visible"] is not True:
        bad.append("the current line is not in view")
    if not inf["inview"]:
        bad.append("what the step highlights is not in the board's view")
    return bad


def near(a, b):
    return all(abs(float(x) - float(y)) <= 0.002 for x, y in zip(a, b))


def where(u, key):
    """The result's position of unit u under key ("at"/"from", or a
    table's "pose"/"start") as the page's data-at says it."""
    p = u.get(key)
    if isinstance(p, dict):
        return [p.get("x"), p.get("y"), p.get("facing")]
    return p


def marks_faults(m, drawn, units, after):
    """The marks m (Page.marks()) against the result's units; a unit that
    starts in a cell the picture does not draw (a region's, --svg-region)
    has none."""
    bad = []
    for u in units:
        k = m.get(u["id"])
        table = isinstance(u.get("pose"), dict)
        want = where(u, ("pose" if table else "at") if after else
                     ("start" if table else "from"))
        if k is None and not table and u.get("from") not in drawn:
            continue
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


def svg_title(path):
    m = re.search(r'<text [^>]*font-size="16"[^>]*>([^<]*)</text>',
                  open(path).read())
    return html.unescape(m.group(1)) if m else None


def one(p, tmp, rs, d, args, forp):
    """The faults of case d (forp: the player of its --for, or None)."""
    bad = []
    page = os.path.join(tmp, "page.html")
    tt = os.path.join(tmp, "trace.txt")
    res = os.path.join(tmp, "result.json")
    nxt = os.path.join(tmp, "next.json")
    orders = sorted(glob.glob(os.path.join(d, "orders", "*")))
    pic = os.path.join(tmp, "turn.svg")
    for f in (page, tt, res, pic, nxt):
        if os.path.exists(f):
            os.unlink(f)
    r = subprocess.run([ARB] + args + ["--replay", page, "--trace-file",
                                       tt, "--text", "-o", res, "--svg", pic,
                                       "-n", nxt, "map.json"] + orders,
                       cwd=d, capture_output=True)
    if r.returncode != 0:
        return ["arbiter: exit %d: %s" % (r.returncode,
                                          r.stderr.decode()[:200])]
    lines = open(tt).read().splitlines()
    result = json.load(open(res))
    units = result.get("units", [])
    unit_ids = {u["id"] for u in units}
    rulings = {(o.get("player"), o.get("id")): "%s: %s" % (
        o.get("status"), o.get("message", "")) for o in
        result.get("orders", [])}
    order_units = {(o.get("player"), o.get("id")): o.get("units", [])
                   for o in result.get("orders", [])}
    m0 = json.load(open(os.path.join(d, "map.json")))
    m1 = json.load(open(nxt))
    graph = m0.get("board", {}).get("grid") == "graph"
    start, end = board_of(m0, graph), board_of(m1, graph)
    feats = {x for b in (start, end) for v in b["features"].values()
             for x in v}
    p.players = list(m0.get("players", {}))
    p.b.open(page)
    got = p.ev("Array.prototype.map.call(document.querySelectorAll("
               "'#trace li'),function(l){return l.textContent;})")
    if got != lines:
        bad.append("the page's trace is not the text trace (%d lines, "
                   "%d)" % (len(got), len(lines)))
    n = max(len(lines), 1)
    data = p.ev("JSON.parse(document.getElementById('replay-data')"
                ".textContent)")
    if data.get("fixed") != 0:
        bad.append("the last step set %s unit(s) the steps did not" %
                   data.get("fixed"))
    if data.get("cfixed") != 0:
        bad.append("the last step set %s cell(s) the steps did not" %
                   data.get("cfixed"))
    labels = set(p.ev("[].map.call(document.querySelectorAll('#board svg "
                      "[data-cell]'),function(c){return c.getAttribute("
                      "'data-cell');})"))
    p.drawn = labels
    s = p.state()
    if s["step"] != 0 or s["label"] != "start (step 0 of %d)" % n or \
            s["cur"]:
        bad.append("at the start: %s" % s)
    bad += ["start: " + x for x in marks_faults(p.marks(), p.drawn, units, False)]
    prev = p.board(feats)
    bad += ["start: " + x for x in board_faults(prev, start)]
    inf = p.info()
    if inf["disabled"] != [True, True, False, False] and lines:
        bad.append("start: buttons disabled %s" % inf["disabled"])
    seen = []
    ump = {}	# the board after each line, as the umpire's page draws it
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
        if lines:
            now = p.board(feats)
            bad += ["click %d: %s" % (k, x) for x in
                    line_faults(p, lines[k - 1], prev, now, order_units)]
            prev = now
            ump[k - 1] = now
            bad += ["click %d: %s" % (k, x) for x in
                    info_faults(p.info(), lines[k - 1], rulings,
                                order_units, unit_ids, labels)]
    if lines and seen != list(range(len(lines))):
        bad.append("the events shown: not each once in order")
    p.click("next")	# at the end: nothing
    if p.state()["step"] != n:
        bad.append("next at the last step moved")
    p.key("ArrowRight")
    if p.state()["step"] != n:
        bad.append("Right at the last step moved")
    if p.info()["disabled"] != [False, False, True, True] and lines:
        bad.append("last: buttons disabled %s" % p.info()["disabled"])
    bad += last_faults(p, units, end, feats, svg_title(pic), "last")
    if rs == "arcane-legions":
        bad += ["last: " + x for x in bases_faults(p, open(pic).read())]
    p.click("first")
    if p.state()["step"] != 0:
        bad.append("first: step %s" % p.state()["step"])
    bad += ["first: " + x for x in marks_faults(p.marks(), p.drawn, units, False)]
    bad += ["first: " + x for x in board_faults(p.board(feats), start)]
    p.key("ArrowLeft")
    if p.state()["step"] != 0:
        bad.append("Left at the start moved")
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
    bad += ["keys: " + x for x in marks_faults(p.marks(), p.drawn, units, True)]
    # A click on a line: its step.
    for i in sorted({0, len(lines) // 2, len(lines) - 1}):
        if not lines:
            break
        p.click_line(i)
        s = p.state()
        if s["step"] != i + 1 or s["cur"] != [i]:
            bad.append("a click on line %d: step %s, line(s) %s" % (
                i + 1, s["step"], s["cur"]))
    # The keyboard on the lines: Tab from the last button reaches the
    # first line (past the board, which scrolls), Tab again the next,
    # and Enter goes to its step.
    if lines:
        p.key("Home")	# the last button enabled, to take the focus
        p.ev("document.getElementById('last').focus()")
        at = "[].indexOf.call(document.querySelectorAll('#trace li')," \
            "document.activeElement)"
        for t in range(4):
            p.press("Tab")
            if p.ev(at) >= 0:
                break
        for i in range(min(len(lines), 2)):
            if i > 0:
                p.press("Tab")
            if p.ev(at) != i:
                bad.append("Tab %d: the focus is not on line %d" % (
                    i + 1, i + 1))
                break
            p.press("Enter")
            s = p.state()
            if s["step"] != i + 1 or s["cur"] != [i]:
                bad.append("Enter on line %d: step %s, line(s) %s" % (
                    i + 1, s["step"], s["cur"]))
    # A player's page: the player's cut of the trace, and at its last
    # step the board after the turn.
    pl = [forp] if forp else sorted(
        {u["player"] for u in units} or set(result.get("players", {})))
    if pl:
        ppic = os.path.join(tmp, "player.svg")
        pres = os.path.join(tmp, "player.json")
        r = subprocess.run([ARB] + args + ["--for", pl[0], "--replay",
                                           page, "--trace-file", tt,
                                           "--text", "-o", "/dev/null",
                                           "--svg", ppic,
                                           "map.json"] + orders, cwd=d,
                           capture_output=True)
        if r.returncode != 0:
            bad.append("--for %s: exit %d" % (pl[0], r.returncode))
        else:
            p.b.open(page)
            got = p.ev("Array.prototype.map.call(document.querySelectorAll("
                       "'#trace li'),function(l){return l.textContent;})")
            plines = open(tt).read().splitlines()
            if got != plines:
                bad.append("--for %s: the page's trace is not the "
                           "player's" % pl[0])
            prev = p.board(feats)
            bad += ["--for %s start: %s" % (pl[0], x) for x in
                    board_faults(prev, start)]
            bad += ["--for %s %s" % (pl[0], x) for x in
                    player_steps(p, plines, lines, ump, prev, feats,
                                 order_units, labels)]
            subprocess.run([ARB] + args + ["--for", pl[0], "-o", pres,
                                           "map.json"] + orders, cwd=d,
                           capture_output=True)
            bad += ["--for %s: %s" % (pl[0], x) for x in
                    own_faults(json.load(open(pres)), pl[0], plines)]
            p.key("End")
            bad += last_faults(p, units, end, feats, svg_title(ppic),
                               "--for %s last" % pl[0])
    return bad


def player_steps(p, plines, lines, ump, prev, feats, order_units,
                 labels):
    """A player's page step by step (the start shown, prev): after each
    step what its line says changed is drawn so (line_faults()), and each
    cell the line names is drawn as the umpire's page draws it after the
    same line (ump: the board after each of the umpire's lines), but for
    the armies of a territory the player's line does not take (a
    territory another player's hidden orders move from or into is not
    the player's to see): a territory the player's invasion empties
    (neutralized) and then takes (an arrive) holds what the umpire's
    page says (a review found it showing the defender's armies, and
    then those plus the invader's)."""
    bad = []
    j = 0
    for k, line in enumerate(plines, 1):
        p.key("ArrowRight")
        now = p.board(feats)
        bad += ["step %d: %s" % (k, x) for x in
                line_faults(p, line, prev, now, order_units)]
        prev = now
        while j < len(lines) and lines[j] != line:
            j += 1
        if j == len(lines):
            bad.append("step %d: %r is not a line of the umpire's trace" %
                       (k, line[:60]))
            break
        if j not in ump:
            continue
        ev, f = fields(line)
        named = sorted({v for key, v in f.items() if isinstance(v, str) and
                        v in labels and key not in ("order", "player")})
        for c in named:
            for what in ("owner", "features"):
                if now[what].get(c) != ump[j][what].get(c):
                    bad.append("step %d (%s): %s's %s drawn %s, the "
                               "umpire's page %s" % (
                                   k, line[:40], c, what, now[what].get(c),
                                   ump[j][what].get(c)))
            taken = (ev == "owner" and f.get("why") == "neutralized") or \
                (ev == "arrive" and f.get("why") == "invasion" and
                 f.get("to") == c)
            if taken and now["armies"].get(c) != ump[j]["armies"].get(c):
                bad.append("step %d (%s): %s has armies %s drawn, the "
                           "umpire's page %s" % (
                               k, line[:40], c, now["armies"].get(c),
                               ump[j]["armies"].get(c)))
        j += 1
    return bad


def own_faults(rep, me, plines):
    """The player's own gains and the losses of the player's own units
    (the player's report, rep: "gains", "losses") and the features the
    player's orders destroyed ("destroyed") each have a line of the
    player's cut, so that the page shows each at its step (a review
    found them set at the last step only, beside an unrelated line)."""
    bad = []
    evs = [fields(l) for l in plines]
    mine = {u["id"] for u in rep.get("units", []) if u.get("player") == me}
    for g in rep.get("gains", []):
        if g.get("player") == me and not any(
                e == "raise" and f.get("cell") == g.get("at") for e, f in
                evs):
            bad.append("no line for the gain %s" % g)
    for l in rep.get("losses", []):
        if l.get("unit") in mine and not any(
                e == "loss" and f.get("unit") == l["unit"] for e, f in evs):
            bad.append("no line for the loss %s" % l)
    for d in rep.get("destroyed", []):
        if d.get("order_player") == me and not any(
                e == "destroyed" and f.get("cell") == d.get("cell") and
                f.get("feature") == d.get("feature") for e, f in evs):
            bad.append("no line for the destroyed %s" % d)
    return bad


def last_faults(p, units, end, feats, title, what):
    """At the last step: the board after the turn, as its picture."""
    bad = [what + ": " + x for x in marks_faults(p.marks(), p.drawn, units, True)]
    bad += [what + ": " + x for x in board_faults(p.board(feats), end,
                                                  title)]
    st = p.strengths()
    for u in units:
        if u["id"] in st and st[u["id"]] != u.get("strength"):
            bad.append("%s: %s's strength drawn %s, not %s" % (
                what, u["id"], st[u["id"]], u.get("strength")))
    return bad


def phone(b, tmp):
    """On a phone's screen (390 x 844): the board the screen's width, the
    step and the trace under it (a review found the board cut off beside
    the trace, and its lines broken mid-word); the keys step without
    scrolling the page."""
    # The demo turn: a trace of 22 lines, longer than the screen.
    page = os.path.join(tmp, "phone.html")
    d = os.path.join(TOP, "fixtures", "aeonis", "demo-turn")
    r = subprocess.run([ARB, "--replay", page, "-o", "/dev/null",
                        "map.json"] + sorted(glob.glob(os.path.join(
                            d, "orders", "*"))), cwd=d, capture_output=True)
    if r.returncode != 0:
        return ["on a phone: arbiter: exit %d" % r.returncode]
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
        # Stepping scrolls the trace, not the page: the board stays on
        # the screen (the page's scrollIntoView() took it off).
        p = Page(b)
        bad = []
        for k in ("End", "Home", "ArrowRight", "End"):
            p.key(k)
            y = b.evaluate("window.scrollY")
            if y != 0:
                bad.append("on a phone: key %s scrolled the page by %s "
                           "pixels" % (k, y))
    finally:
        b.page("Emulation.setDeviceMetricsOverride", {
            "width": 1400, "height": 900, "deviceScaleFactor": 1,
            "mobile": False})
    if r[0] >= 370 and r[1] >= 370 and r[2] >= r[3] - 1:
        return bad
    return bad + ["on a phone: board, side width, side top, board bottom "
                  "%s" % r]


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
        for i, (rs, d, args, forp) in enumerate(pick(), 1):
            name = os.path.relpath(d, os.path.join(TOP, "fixtures"))
            try:
                bad = one(p, tmp, rs, d, args, forp)
                if i == 1:
                    bad += phone(b, tmp)
            except OSError as e:
                bad = [str(e)]
            if bad:
                nfail += 1
                print("not ok %d - %s" % (i, name))
                for x in bad[:int(os.environ.get("REPLAY_SHOW", "12"))]:
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
