#!/usr/bin/env python3
"""Orders as text (issue 27): a result and its twin's are the same apart
from the orders files' names, digests and form (a mail's "mail" member
among it), the canonical lines a
text's orders carry ("text"), and where in its file each problem is.

usage: twin.py result.json twin-result.json
Exits 0 when they are the same so, 1 with the first difference."""
import json
import re
import sys

LOC = re.compile(r'^\S.*?:\d+:\d+: (.*?)( at /\S*)?$', re.S)


def norm(v):
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()
                if k not in ('file', 'sha256', 'form', 'mail', 'text',
                             'line', 'column')}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, str):
        m = LOC.match(v)
        return m.group(1) if m else v
    return v


def first_diff(a, b, path=''):
    if type(a) is not type(b):
        return path or '/'
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return path + '/' + k
            d = first_diff(a[k], b[k], path + '/' + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path + ' (length)'
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, '%s/%d' % (path, i))
            if d:
                return d
        return None
    return None if a == b else path or '/'


def main():
    with open(sys.argv[1]) as f:
        a = norm(json.load(f))
    with open(sys.argv[2]) as f:
        b = norm(json.load(f))
    d = first_diff(a, b)
    if d is not None:
        print('differs from its twin at %s' % d)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
