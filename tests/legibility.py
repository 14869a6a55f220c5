#!/usr/bin/env python3
"""Legibility of the pictures (issue 29), measured in headless Chromium
from the page's own layout.

usage: legibility.py [-v] PICTURE.svg ...

Chromium is started once and driven over the DevTools protocol on its
pipe, with the standard library only (tests/cdp.py).
Each picture is opened as a page of its own (file://), its fonts loaded,
and a script in the page measures it with the browser's own boxes:

  - texts: every <text>; its box is the extent of its glyphs as laid out
    (getBBox: the advance widths, textLength applied) from the baseline
    (getStartPositionOfChar) 0.76 of its font size up to 0.24 down (the
    ascent of a lowercase "d" and the descent of DejaVu Sans), mapped to
    the page with getScreenCTM;
  - badges: a unit's shape (g.unit's rect, or its base on a table);
  - marks: every arrow or mark of the turn (.move, .target, .stop,
    .attack, .invaded, .fight, .charge, .tool, .eliminated, the ghost of a base
    where a table unit began), with the arrowhead of its marker-end
    (tested in the marker's own path with isPointInFill, the marker's
    placement computed as SVG places it: the path's last direction,
    markerUnits strokeWidth, refX/refY, viewBox).

Faults:
  overlap    two texts whose boxes meet (more than 0.5 pixel each way);
  covered    a text with a point (on a 1-pixel grid inside its box, 1
             pixel in from its edges) in a mark's stroke or fill or in an
             arrowhead, or under a badge drawn after it (a stack); the
             cross of an eliminated unit on its own badge, and the badge's
             own facing line, are the badge's;
  badge      a badge with a point (as above) in an arrowhead or in a mark
             other than the shaft of an arrow (a unit's arrow begins on
             its badge), or under another text's box;
  small      a text less than 8 pixels high (its font size times the
             page's scale) at the PNG's default width, which is the SVG's
             width (arbiter(1), --png).

One TAP line a picture (with -v, every fault), then
"legibility: N passed, N failed (N overlapping pairs, N covered texts,
N covered badges, N small texts)".  Exit 1 on any fault, 2 on a failure
to measure.  Without Chromium: "legibility: skipped", exit 0 when
LEGIBILITY_SKIP_OK is set, else 77.
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

SCRIPT = r"""
(async () => {
  await document.fonts.ready;
  const MARKS = ['move', 'target', 'rest', 'displaced', 'attack',
      'invaded', 'fight', 'charge',
      'tool', 'eliminated', 'base'];
  const cls = el => (el.getAttribute('class') || '').split(/\s+/);
  const toPage = (el, x, y) => {
    const m = el.getScreenCTM();
    return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  };
  const boxOf = (el, x, y, w, h) => {
    const ps = [toPage(el, x, y), toPage(el, x + w, y),
        toPage(el, x, y + h), toPage(el, x + w, y + h)];
    const xs = ps.map(p => p[0]), ys = ps.map(p => p[1]);
    return {x0: Math.min(...xs), y0: Math.min(...ys),
        x1: Math.max(...xs), y1: Math.max(...ys)};
  };
  const meet = (a, b, e) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > e
      && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > e;
  const grid = (b, f) => {
    for (let y = b.y0 + 1; y <= b.y1 - 1; y += 1)
      for (let x = b.x0 + 1; x <= b.x1 - 1; x += 1)
        if (f(x, y)) return true;
    return false;
  };
  const unitOf = el => el.closest('g.unit');
  const name = el => {
    const g = unitOf(el);
    const t = g ? g.querySelector('text') : null;
    return el.tagName + '.' + cls(el).join('.') + (t ? '[' + t.textContent
        + ']' : '');
  };
  const texts = [], badges = [], marks = [];
  for (const t of document.querySelectorAll('text')) {
    if (t.getNumberOfChars() === 0) continue;
    const fs = parseFloat(getComputedStyle(t).fontSize);
    const m = t.getScreenCTM();
    const bb = t.getBBox(), p = t.getStartPositionOfChar(0);
    texts.push({el: t, s: t.textContent, g: unitOf(t),
        px: fs * Math.hypot(m.c, m.d),
        box: boxOf(t, bb.x, p.y - 0.76 * fs, bb.width, fs)});
  }
  for (const g of document.querySelectorAll('g.unit')) {
    const r = g.querySelector('rect, polygon.base');
    if (r) {
      const bb = r.getBBox();
      const inv = r.getScreenCTM().inverse();
      badges.push({el: r, g: g, box: boxOf(r, bb.x, bb.y, bb.width,
          bb.height), has: (x, y) => r.isPointInFill(new DOMPoint(
          inv.a * x + inv.c * y + inv.e, inv.b * x + inv.d * y + inv.f))});
    }
  }
  for (const el of document.querySelectorAll('line, polyline, path, rect, ' +
      'circle, polygon')) {
    const c = cls(el);
    if (!MARKS.some(k => c.includes(k))) continue;
    const g = unitOf(el);
    if (g && !c.includes('eliminated')) continue;
    const cs = getComputedStyle(el);
    const sw = parseFloat(cs.strokeWidth) || 0;
    const mk = {el: el, g: g, name: name(el),
        shaft: c.includes('move') || c.includes('target') ||
            c.includes('rest') || c.includes('displaced'),
        stroke: cs.stroke !== 'none' && sw > 0, fill: cs.fill !== 'none',
        head: null};
    const bb = el.getBBox();
    const pad = sw / 2 + 1;
    mk.box = boxOf(el, bb.x - pad, bb.y - pad, bb.width + 2 * pad,
        bb.height + 2 * pad);
    const me = el.getAttribute('marker-end');
    if (me) {
      const id = me.replace(/^url\(#/, '').replace(/\)$/, '');
      const marker = document.getElementById(id);
      let pts = [];
      if (el.tagName === 'line')
        pts = [[+el.getAttribute('x1'), +el.getAttribute('y1')],
            [+el.getAttribute('x2'), +el.getAttribute('y2')]];
      else if (el.tagName === 'polyline')
        pts = el.getAttribute('points').trim().split(/\s+/).map(
            s => s.split(',').map(Number));
      if (marker && pts.length >= 2) {
        const e = pts[pts.length - 1];
        let i = pts.length - 2;
        while (i > 0 && pts[i][0] === e[0] && pts[i][1] === e[1]) i--;
        const th = Math.atan2(e[1] - pts[i][1], e[0] - pts[i][0]);
        const vb = marker.viewBox.baseVal;
        const k = sw * marker.markerWidth.baseVal.value /
            (vb && vb.width ? vb.width : 1);
        const rx = marker.refX.baseVal.value, ry = marker.refY.baseVal.value;
        const path = marker.querySelector('path, polygon');
        const m = el.getScreenCTM().inverse();
        mk.head = (x, y) => {
          const ux = m.a * x + m.c * y + m.e - e[0];
          const uy = m.b * x + m.d * y + m.f - e[1];
          const mx = (Math.cos(th) * ux + Math.sin(th) * uy) / k + rx;
          const my = (-Math.sin(th) * ux + Math.cos(th) * uy) / k + ry;
          return path.isPointInFill(new DOMPoint(mx, my));
        };
        const hr = k * Math.max(vb.width, vb.height) + 1;
        const ep = toPage(el, e[0], e[1]);
        mk.tip = ep;
        mk.hbox = {x0: ep[0] - hr, y0: ep[1] - hr, x1: ep[0] + hr,
            y1: ep[1] + hr};
      }
    }
    const inv = el.getScreenCTM().inverse();
    mk.body = (x, y) => {
      const p = new DOMPoint(inv.a * x + inv.c * y + inv.e,
          inv.b * x + inv.d * y + inv.f);
      return (mk.stroke && el.isPointInStroke(p)) ||
          (mk.fill && el.isPointInFill(p));
    };
    marks.push(mk);
  }
  /* What is painted over a mark hides it: a badge or a territory's
   * circle drawn after it. */
  const lids = [...document.querySelectorAll('g.unit rect, g.unit ' +
      'polygon.base, g.loss rect, g.stopped rect, g.tag rect, ' +
      'circle.territory')].map(el => {
    const bb = el.getBBox();
    const inv = el.getScreenCTM().inverse();
    return {el: el, box: boxOf(el, bb.x, bb.y, bb.width, bb.height),
        has: (x, y) => el.isPointInFill(new DOMPoint(
            inv.a * x + inv.c * y + inv.e, inv.b * x + inv.d * y + inv.f))};
  });
  const after = (a, b) => !!(a.compareDocumentPosition(b) &
      Node.DOCUMENT_POSITION_FOLLOWING);
  const hidden = (mk, x, y) => lids.some(l => after(mk.el, l.el) &&
      l.box.x0 <= x && x <= l.box.x1 && l.box.y0 <= y && y <= l.box.y1 &&
      l.has(x, y));
  const haloed = t => {
    const cs = getComputedStyle(t);
    return cs.stroke !== 'none' && parseFloat(cs.strokeWidth) >= 2 &&
        cs.paintOrder.startsWith('stroke');
  };
  const faults = [];
  const q = s => JSON.stringify(s);
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      if (meet(texts[i].box, texts[j].box, 0.5))
        faults.push(['overlap', q(texts[i].s) + ' and ' + q(texts[j].s)]);
  for (const t of texts) {
    if (t.px < 7.995)
      faults.push(['small', q(t.s) + ' is ' + t.px.toFixed(1) +
          ' pixels high']);
    for (const mk of marks) {
      if (mk.g && mk.g === t.g) continue;
      /* A text with a halo, painted over the mark, stays readable. */
      if (haloed(t.el) && after(mk.el, t.el)) continue;
      let hit = false;
      if (meet(mk.box, t.box, 0) && grid(t.box, (x, y) => mk.body(x, y) &&
          !hidden(mk, x, y)))
        hit = 'by';
      else if (mk.head && meet(mk.hbox, t.box, 0) && grid(t.box,
          (x, y) => mk.head(x, y) && !hidden(mk, x, y)))
        hit = 'by the arrowhead of';
      if (hit)
        faults.push(['covered', q(t.s) + ' ' + hit + ' ' + mk.name]);
    }
    for (const b of badges) {
      if (b.g === t.g || !meet(b.box, t.box, 0)) continue;
      if (t.g && !(t.el.compareDocumentPosition(b.el) &
          Node.DOCUMENT_POSITION_FOLLOWING))
        continue;
      if (!t.g && !(t.el.compareDocumentPosition(b.el) &
          Node.DOCUMENT_POSITION_FOLLOWING)) {
        /* A text drawn over a badge: the badge's fault below. */
        continue;
      }
      faults.push(['covered', q(t.s) + ' under the badge of ' +
          name(b.el)]);
    }
  }
  for (const b of badges) {
    for (const mk of marks) {
      if (mk.g === b.g) continue;
      let hit = false;
      if (!after(mk.el, b.el) && !mk.shaft && meet(mk.box, b.box, 0) &&
          grid(b.box, (x, y) => b.has(x, y) && mk.body(x, y)))
        hit = 'under';
      else if (mk.head && meet(mk.hbox, b.box, 0) && grid(b.box,
          (x, y) => b.has(x, y) && mk.head(x, y) && !hidden(mk, x, y)))
        hit = 'under the arrowhead of';
      if (hit)
        faults.push(['badge', name(b.el) + ' ' + hit + ' ' + mk.name]);
    }
    for (const t of texts)
      if (!t.g && meet(t.box, b.box, 0.5) &&
          (b.el.compareDocumentPosition(t.el) &
           Node.DOCUMENT_POSITION_FOLLOWING))
        faults.push(['badge', name(b.el) + ' under the text ' + q(t.s)]);
  }
  for (const mk of marks)
    if (mk.head && mk.tip && hidden(mk, mk.tip[0], mk.tip[1]))
      faults.push(['covered', 'the arrowhead of ' + mk.name +
          ' under a badge or a territory']);
  return {texts: texts.length, badges: badges.length, marks: marks.length,
      faults: faults};
})()
"""

KINDS = ("overlap", "covered", "badge", "small")


def measure(b, path):
    """The faults of one picture, measured in browser b."""
    b.open(path)
    return b.evaluate(SCRIPT)


def main():
    args = sys.argv[1:]
    verbose = False
    if args and args[0] == "-v":
        verbose, args = True, args[1:]
    chromium = cdp.chromium()
    if chromium is None:
        print("# chromium is not installed (tests/deps.sh --test)")
        print("legibility: skipped")
        return 0 if os.environ.get("LEGIBILITY_SKIP_OK") else 77
    passed = failed = 0
    total = dict.fromkeys(KINDS, 0)
    tmp = tempfile.mkdtemp()
    b = cdp.Browser(chromium, tmp)
    try:
        for n, path in enumerate(args, 1):
            try:
                v = measure(b, path)
            except (OSError, ValueError, KeyError) as e:
                print("not ok %d - %s: not measured: %s" % (n, path, e))
                return 2
            count = dict.fromkeys(KINDS, 0)
            for k, _ in v["faults"]:
                count[k] += 1
                total[k] += 1
            if v["faults"]:
                failed += 1
                print("not ok %d - %s: %s" % (n, path, ", ".join(
                    "%d %s" % (count[k], k) for k in KINDS if count[k])))
                if verbose:
                    for k, what in v["faults"]:
                        print("#   %s: %s" % (k, what))
            else:
                passed += 1
                print("ok %d - %s (%d texts, %d badges, %d marks)" % (
                    n, path, v["texts"], v["badges"], v["marks"]))
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("legibility: %d passed, %d failed (%d overlapping pairs, "
          "%d covered texts, %d covered badges, %d small texts)" % (
              passed, failed, total["overlap"], total["covered"],
              total["badge"], total["small"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
