#!/usr/bin/env python3
"""Headless Chromium driven over the DevTools protocol, with the standard
library only: the browser the tests look at pictures and pages in
(tests/legibility.py, and the pages' tests).

Chromium is started with --headless and --remote-debugging-pipe; the
protocol runs on its file descriptors 3 (commands) and 4 (answers), one
JSON message ended by a NUL byte each way.  One page (a target attached
in flat mode) is opened; Browser.open() loads a file into it,
Browser.evaluate() runs a script in it, Browser.page() sends any other
command to it (Input.dispatchMouseEvent, Input.dispatchKeyEvent, ...).

chromium() finds the program, or returns None when it is not installed.
"""
import fcntl
import json
import os
import shutil
import subprocess


def chromium():
    """The path of Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """Headless Chromium over --remote-debugging-pipe."""

    def __init__(self, chromium, tmp):
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()

        def fds():
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(res_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--hide-scrollbars",
             "--remote-debugging-pipe",
             "--user-data-dir=" + os.path.join(tmp, "profile"),
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, "chromium.err"), "wb"),
            close_fds=False, preexec_fn=fds)
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b""
        self.n = 0
        self.events = []
        t = self.call("Target.createTarget", {"url": "about:blank"})
        s = self.call("Target.attachToTarget",
                      {"targetId": t["targetId"], "flatten": True})
        self.session = s["sessionId"]
        self.call("Page.enable", {}, self.session)

    def read(self):
        while b"\0" not in self.buf:
            d = os.read(self.res_r, 1 << 16)
            if not d:
                raise OSError("chromium closed its pipe")
            self.buf += d
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method, params, session=None):
        self.n += 1
        m = {"id": self.n, "method": method, "params": params}
        if session:
            m["sessionId"] = session
        data = json.dumps(m).encode() + b"\0"
        while data:
            data = data[os.write(self.cmd_w, data):]
        while True:
            r = self.read()
            if r.get("id") == self.n:
                if "error" in r:
                    raise OSError("%s: %s" % (method, r["error"]))
                return r["result"]
            self.events.append(r)

    def wait(self, method):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[:i + 1]
                    return e
            self.events = []
            self.events.append(self.read())

    def open(self, path):
        """Opens a file as the page and waits for its load event."""
        self.events = []
        self.call("Page.navigate", {"url": "file://" +
                                    os.path.abspath(path)}, self.session)
        self.wait("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of a script in the page (awaiting a promise)."""
        r = self.call("Runtime.evaluate", {"expression": expression,
                                           "awaitPromise": True,
                                           "returnByValue": True},
                      self.session)
        if "exceptionDetails" in r:
            raise OSError("the script failed: %s" %
                          json.dumps(r["exceptionDetails"])[:400])
        return r["result"].get("value")

    def page(self, method, params):
        """A DevTools call in the page's session (Input.*, Page.*)."""
        return self.call(method, params, self.session)

    def close(self):
        try:
            self.call("Browser.close", {})
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


