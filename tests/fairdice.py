#!/usr/bin/env python3
"""The fair dice of arbiter-rules(7), written again from the manual with
Python's own hmac and hashlib, for the tests: derive R, the seed and the
commitment for a game and turn from a secret file, and replay d-sided
draws from a seed with splitmix64.

    fairdice.py derive SECRETFILE GAME TURN   -> "R seed commitment"
    fairdice.py draws SEED SIDES...           -> the values, one a line
"""
import hashlib
import hmac
import sys

M64 = (1 << 64) - 1


def derive(key, game, turn):
    r = hmac.new(key, b"arbiter-dice-1\n" + game.encode() + b"\n" +
                 str(turn).encode(), hashlib.sha256).digest()
    seed = int.from_bytes(r[:8], "big") % ((1 << 63) - 1)
    return r.hex(), seed, hashlib.sha256(r).hexdigest()


def draws(seed, sides):
    state = seed
    out = []
    for d in sides:
        limit = M64 - M64 % d
        while True:
            state = (state + 0x9e3779b97f4a7c15) & M64
            z = state
            z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
            z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
            z ^= z >> 31
            if z < limit:
                break
        out.append(z % d + 1)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "derive":
        key = bytes.fromhex(open(sys.argv[2]).read().strip())
        print(*derive(key, sys.argv[3], int(sys.argv[4])))
    else:
        for v in draws(int(sys.argv[2]), [int(s) for s in sys.argv[3:]]):
            print(v)
