#!/usr/bin/env python3
"""Orders as text (issue 27), a property over the casebook: for every
case's orders files, JSON -> text -> JSON gives the same orders
(arbiter --orders-text, then --orders-json), and the turn run on the
texts gives the result it gives on the JSON, apart from the files'
names, digests and form and where the problems are (tests/twin.py).

And the same for random turns of every rule system (tests/prop, seeds 1
to N, with the trace).

usage: textprop.py TOP ARBITER PROP N [CASE-SUBSTRING]
Prints one TAP line per case and turn."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import twin  # noqa: E402


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def same_orders(a, b):
    """Orders files alike: members beginning with _ and $schema aside."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if not k.startswith('_') and k != '$schema'}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(a) == strip(b)


def main():
    top, arbiter = sys.argv[1], os.path.abspath(sys.argv[2])
    prop, nprop = os.path.abspath(sys.argv[3]), int(sys.argv[4])
    only = sys.argv[5] if len(sys.argv) > 5 else ''
    n = bad = 0
    root = os.path.join(top, 'fixtures')
    with tempfile.TemporaryDirectory() as tmp:
        for rs in ('aeonis', 'territory', 'morne-plaine', 'xconq',
                   'arcane-legions'):
            for sd in range(1, nprop + 1):
                d = os.path.join(tmp, 'prop-%s-%d' % (rs, sd))
                subprocess.run([prop, 'turn', rs, str(sd), d], check=True)
                files = sorted(os.listdir(os.path.join(d, 'orders')))
                n += 1
                why = check(arbiter, d, files, ['-t'], tmp)
                name = 'prop turn %s %d' % (rs, sd)
                if why:
                    bad += 1
                    print('not ok %d - %s: %s' % (n, name, why))
                else:
                    print('ok %d - %s' % (n, name))
        for rs in sorted(os.listdir(root)):
            for case in sorted(os.listdir(os.path.join(root, rs))):
                d = os.path.join(root, rs, case)
                od = os.path.join(d, 'orders')
                if (not os.path.isfile(os.path.join(d, 'map.json')) or
                        not os.path.isdir(od) or only not in d):
                    continue
                files = sorted(f for f in os.listdir(od)
                               if f.endswith('.json'))
                if not files:
                    continue
                args = []
                if os.path.isfile(os.path.join(d, 'args')):
                    with open(os.path.join(d, 'args')) as f:
                        args = f.read().split()
                if '--reach' in args or '--for' in args:
                    continue
                n += 1
                why = check(arbiter, d, files, args, tmp)
                name = '%s/%s' % (rs, case)
                if why:
                    bad += 1
                    print('not ok %d - %s: %s' % (n, name, why))
                else:
                    print('ok %d - %s' % (n, name))
    print('1..%d' % n)
    print('textprop: %d passed, %d failed' % (n - bad, bad))
    return 1 if bad else 0


def check(arbiter, d, files, args, tmp):
    rc1, out1, _ = run([arbiter] + args + ['map.json'] +
                       ['orders/' + f for f in files], d)
    try:
        r1 = json.loads(out1)
    except ValueError:
        return None     # the map or an operand is the error: no ruling
    ref = r1.get('refused', {})
    if ref.get('orders', 0) or ref.get('files', 0):
        return None     # orders that cannot be read: no text says them
    texts = []
    for f in files:
        src = os.path.join('orders', f)
        with open(os.path.join(d, src), 'rb') as fp:
            orig = json.loads(fp.read().decode('utf-8-sig'))
        rc, out, err = run([arbiter, '--orders-text', 'map.json', src], d)
        if rc != 0:
            return '--orders-text %s: %s' % (f, err.decode().strip())
        txt = os.path.join(tmp, f[:-5] + '.txt')
        with open(txt, 'wb') as fp:
            fp.write(out)
        rc, back, err = run([arbiter, '--orders-json', 'map.json', txt], d)
        if rc != 0:
            return '--orders-json %s: %s' % (f, err.decode().strip())
        if not same_orders(orig, json.loads(back)):
            return 'JSON -> text -> JSON changed %s' % f
        texts.append(txt)
    rc2, out2, _ = run([arbiter] + args + ['map.json'] + texts, d)
    if rc1 != rc2:
        return 'exit %d as JSON, %d as text' % (rc1, rc2)
    diff = twin.first_diff(twin.norm(r1), twin.norm(json.loads(out2)))
    if diff is not None:
        return 'the results differ at %s' % diff
    return None


if __name__ == '__main__':
    sys.exit(main())
