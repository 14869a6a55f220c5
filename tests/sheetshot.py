#!/usr/bin/env python3
"""The README's picture of the order sheet (doc/sheet.png): "sheetshot.py
SHEET PNG UNIT CELL..." opens SHEET in headless Chromium (tests/cdp.py),
clicks UNIT (a unit's id, or a territory's name) and then each CELL as a player would, and saves the window
(1200 x 640 pixels) as PNG.  The README says how it was made."""
import base64
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402


def click(b, selector):
    xy = b.evaluate("""(function () {
        var r = document.querySelector(%r).getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; })()""" %
                    selector)
    for t in ("mousePressed", "mouseReleased"):
        b.page("Input.dispatchMouseEvent", {"type": t, "x": xy[0],
                                            "y": xy[1], "button": "left",
                                            "clickCount": 1})


def main():
    sheet, png, unit = sys.argv[1:4]
    tmp = tempfile.mkdtemp()
    b = cdp.Browser(cdp.chromium(), tmp)
    try:
        b.page("Emulation.setDeviceMetricsOverride", {
            "width": 1200, "height": 640, "deviceScaleFactor": 1,
            "mobile": False})
        b.open(sheet)
        b.evaluate("localStorage.clear()")
        b.call("Page.reload", {}, b.session)
        b.wait("Page.loadEventFired")
        # A unit, or (territory) the territory whose armies move.
        click(b, '[data-unit="%s"]' % unit if b.evaluate(
            'document.querySelector(\'[data-unit="%s"]\') !== null' % unit)
            else '[data-cell="%s"]' % unit)
        for cell in sys.argv[4:]:
            click(b, '[data-cell="%s"]' % cell)
        shot = b.page("Page.captureScreenshot", {"format": "png"})
        with open(png, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
