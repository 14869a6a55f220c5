#!/usr/bin/env python3
"""The history page of a game folder (arbiter-game(1), issue 31), loaded
in headless Chromium (tests/cdp.py): every picture of the page is drawn
(complete, a natural width above 0), and every link, opened in the
browser in turn, loads without an error and from inside the folder.

usage: history.py DIR

One TAP line for the pictures, one a link, then
"history: N passed, N failed".  Without Chromium: "history: skipped",
exit 0 when HISTORY_SKIP_OK is set, else 77.
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

PICTURES = """(() => Array.from(document.images).map(i =>
    [i.getAttribute('src'), i.complete && i.naturalWidth > 0]))()"""
LINKS = """(() => Array.from(document.querySelectorAll('a[href]')).map(a =>
    [a.getAttribute('href'), a.href]))()"""


def main():
    if len(sys.argv) != 2:
        print("usage: history.py DIR", file=sys.stderr)
        return 64
    d = os.path.realpath(sys.argv[1])
    page = os.path.join(d, "index.html")
    chromium = cdp.chromium()
    if chromium is None:
        print("# chromium is not installed (tests/deps.sh --test)")
        print("history: skipped")
        return 0 if os.environ.get("HISTORY_SKIP_OK") else 77
    tmp = tempfile.mkdtemp()
    b = cdp.Browser(chromium, tmp)
    n = passed = failed = 0

    def report(ok, what):
        nonlocal n, passed, failed
        n += 1
        if ok:
            passed += 1
            print("ok %d - %s" % (n, what))
        else:
            failed += 1
            print("not ok %d - %s" % (n, what))
    try:
        b.open(page)
        pics = b.evaluate(PICTURES)
        links = b.evaluate(LINKS)
        bad = [src for src, ok in pics if not ok]
        report(len(pics) > 0 and not bad, "%d pictures drawn%s" % (
            len(pics), ": not " + ", ".join(bad) if bad else ""))
        report(len(links) > 0, "%d links" % len(links))
        for rel, url in links:
            inside = url.startswith("file://" + d + "/")
            r = b.page("Page.navigate", {"url": url})
            err = r.get("errorText", "")
            if not err:
                b.wait("Page.loadEventFired")
            report(inside and not err, "%s%s%s" % (
                rel, "" if inside else ": outside the folder",
                ": " + err if err else ""))
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("history: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
