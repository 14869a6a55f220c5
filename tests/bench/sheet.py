#!/usr/bin/env python3
"""make bench's order sheet (issue 32): "sheet.py PAGE [RUNS]" opens the
page in headless Chromium (tests/cdp.py) RUNS times (default 3) and
prints the best time, in ms, from the navigation to the page ready to
click (the load event, after which its script has set
document.body.dataset.ready), and the best time of a first click on one
of the player's units until its reach is drawn: "READY_MS CLICK_MS".
Exits 77 when Chromium is not installed, 1 when the page never says it
is ready."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import cdp  # noqa: E402


def main():
    page = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    chromium = cdp.chromium()
    if chromium is None:
        return 77
    tmp = tempfile.mkdtemp()
    b = cdp.Browser(chromium, tmp)
    ready = click = None
    try:
        b.page("Emulation.setDeviceMetricsOverride", {
            "width": 1400, "height": 900, "deviceScaleFactor": 1,
            "mobile": False})
        for _ in range(runs):
            b.call("Page.navigate", {"url": "about:blank"}, b.session)
            b.wait("Page.loadEventFired")
            t0 = time.monotonic()
            b.open(page)
            ok = b.evaluate("document.body.dataset.ready")
            t1 = time.monotonic()
            if ok != "1":
                return 1
            ms = (t1 - t0) * 1000
            ready = ms if ready is None else min(ready, ms)
            # A first click on a unit: its reach drawn (the script runs
            # in the click's handler, before the call returns).
            xy = b.evaluate("""(function () {
                var e = document.querySelector("[data-unit].mine");
                if (!e) return null;
                var r = e.getBoundingClientRect();
                return [r.left + r.width / 2, r.top + r.height / 2]; })()""")
            if xy is None:
                continue
            t0 = time.monotonic()
            for t in ("mousePressed", "mouseReleased"):
                b.page("Input.dispatchMouseEvent", {
                    "type": t, "x": xy[0], "y": xy[1], "button": "left",
                    "clickCount": 1})
            n = b.evaluate("document.querySelectorAll('.reach').length")
            t1 = time.monotonic()
            ms = (t1 - t0) * 1000
            if n:
                click = ms if click is None else min(click, ms)
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d %d" % (round(ready), round(click) if click is not None
                     else -1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
