#!/usr/bin/env python3
"""tests/post.sh's reader: parses a message that `arbiter game send`
filed, with Python's email package (policy=default), against the
description it was made from.

    post.py DIR DESCRIPTION.json MESSAGE.eml

Checks the headers as given (From, To, Subject decoded from RFC 2047,
Date, Message-ID, In-Reply-To and References, MIME-Version,
Auto-Submitted), that the
message is 7-bit with lines of at most 998 bytes, none of which begins
with "From " (an mbox would quote it), the body (text/plain,
charset utf-8) equal to the description's, and each attachment in turn:
its type, base64, "attachment" with its file name, and its bytes equal
to DIR/FILE's.  Prints one line a problem; exits 1 if there was one."""

import email
import email.policy
import email.utils
import json
import os
import sys


def main():
    top, desc_path, eml_path = sys.argv[1:4]
    with open(desc_path, encoding="utf-8") as f:
        d = json.load(f)
    with open(eml_path, "rb") as f:
        raw = f.read()
    problems = []

    def want(what, got, expected):
        if got != expected:
            problems.append("%s: %r, expected %r" % (what, got, expected))

    if any(b > 127 for b in raw):
        problems.append("a byte above 127 (not 7-bit)")
    if any(len(line) > 998 for line in raw.split(b"\n")):
        problems.append("a line longer than 998 bytes")
    # A line that begins "From " is quoted (">From ") by an mbox on its
    # way, which changes the body.
    if any(line.startswith(b"From ") for line in raw.split(b"\n")):
        problems.append('a line that begins with "From "')
    m = email.message_from_bytes(raw, policy=email.policy.default)
    for defect in m.defects:
        problems.append("defect: %r" % defect)
    want("From", [a.addr_spec for a in m["From"].addresses],
         [email.utils.parseaddr(d["from"])[1]])
    want("To", [a.addr_spec for a in m["To"].addresses],
         [email.utils.parseaddr(t)[1] for t in d["to"]])
    want("Subject", str(m["Subject"]), d["subject"])
    want("Date", m["Date"].datetime.isoformat().replace("+00:00", "Z"),
         d["date"])
    want("Message-ID", str(m["Message-ID"]), d["message_id"])
    want("In-Reply-To", m["In-Reply-To"] and str(m["In-Reply-To"]),
         d.get("in_reply_to"))
    want("References", m["References"] and str(m["References"]),
         d.get("in_reply_to"))
    want("MIME-Version", str(m["MIME-Version"]), "1.0")
    want("Auto-Submitted", m["Auto-Submitted"] and str(m["Auto-Submitted"]),
         "auto-generated")
    want("Content-Type", m.get_content_type(), "multipart/mixed")
    parts = list(m.iter_parts())
    attach = d.get("attach", [])
    want("parts", len(parts), 1 + len(attach))
    if parts:
        body = parts[0]
        want("body type", body.get_content_type(), "text/plain")
        want("body charset", body.get_content_charset(), "utf-8")
        want("body disposition", body.get_content_disposition(), None)
        want("body", body.get_content(), d["body"])
    for i, (p, a) in enumerate(zip(parts[1:], attach)):
        what = "attachment %d (%s)" % (i + 1, a["file"])
        want(what + " type", p.get_content_type(), a["type"])
        want(what + " encoding", p["Content-Transfer-Encoding"], "base64")
        want(what + " disposition", p.get_content_disposition(),
             "attachment")
        want(what + " file name", p.get_filename(),
             a.get("name", os.path.basename(a["file"])))
        with open(os.path.join(top, a["file"]), "rb") as f:
            want(what + " bytes", p.get_payload(decode=True), f.read())
    for p in problems:
        print("%s: %s" % (eml_path, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
