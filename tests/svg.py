#!/usr/bin/env python3
"""The golden pictures (tests/svg.sh): every SVG given is parsed with a
real XML parser (xml.etree) and must be an <svg> with integer width and
height; then, unless --no-render, headless Chromium renders it to a PNG,
which must have the SVG's size and not be blank (at least 3 colours, and
at least 1% of the pixels not white).  The PNG is decoded here (zlib and
the five row filters of the PNG specification).  A picture given as
SVG=PNG also has arbiter's PNG of it (--png, librsvg): it must have the
SVG's size, and its mean difference from Chromium's rendering, over every
pixel and channel, must be under PNG_MEAN_MAX of 255 (the two draw the
same shapes and the same font; they differ in antialiasing and in how a
pattern is clipped at a shape's edge: 1.4 on the demo turn).  One TAP line
per picture, then "svg: N passed, N failed" (", N skipped")."""
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SVGNS = "{http://www.w3.org/2000/svg}"
PNG_MEAN_MAX = 6.0


def png_pixels(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA
    PNG, non-interlaced."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w = int.from_bytes(body[0:4], "big")
            h = int.from_bytes(body[4:8], "big")
            depth, ctype, interlace = body[8], body[9], body[12]
            if depth != 8 or ctype not in (2, 6) or interlace != 0:
                raise ValueError("PNG of depth %d, colour type %d, "
                                 "interlace %d" % (depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if w is None:
        raise ValueError("no IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
            elif f != 0:
                raise ValueError("PNG filter %d" % f)
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def check(path, chromium, tmp):
    path, _, ours = path.partition("=")
    root = ET.parse(path).getroot()
    if root.tag != SVGNS + "svg":
        return "the root is %s, not svg" % root.tag
    try:
        w, h = int(root.get("width")), int(root.get("height"))
    except (TypeError, ValueError):
        return "width and height are not integers"
    if chromium is None:
        return None
    png = os.path.join(tmp, "shot.png")
    if os.path.exists(png):
        os.remove(png)
    p = subprocess.run([chromium, "--headless", "--no-sandbox",
                        "--disable-gpu", "--hide-scrollbars",
                        "--user-data-dir=" + os.path.join(tmp, "profile"),
                        "--screenshot=" + png,
                        "--window-size=%d,%d" % (w, h),
                        "file://" + os.path.abspath(path)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=120)
    if not os.path.exists(png):
        return "chromium made no PNG (exit %d): %s" % (
            p.returncode, p.stdout.decode(errors="replace")[-300:])
    with open(png, "rb") as f:
        pw, ph, rows = png_pixels(f.read())
    if (pw, ph) != (w, h):
        return "the PNG is %dx%d, the SVG %dx%d" % (pw, ph, w, h)
    colours, ink = set(), 0
    for row in rows:
        for px in row:
            colours.add(px)
            if px != (255, 255, 255):
                ink += 1
    if len(colours) < 3 or ink * 100 < w * h:
        return "the PNG is blank (%d colours, %d pixels not white)" % (
            len(colours), ink)
    if ours:
        with open(ours, "rb") as f:
            ow, oh, orows = png_pixels(f.read())
        if (ow, oh) != (w, h):
            return "arbiter's PNG is %dx%d, the SVG %dx%d" % (ow, oh, w, h)
        diff = sum(abs(x - y) for ra, rb in zip(rows, orows)
                   for pa, pb in zip(ra, rb) for x, y in zip(pa, pb))
        mean = diff / (3.0 * w * h)
        if mean >= PNG_MEAN_MAX:
            return "arbiter's PNG differs from Chromium's rendering by " \
                "%.2f a channel on average (at most %.1f)" % (
                    mean, PNG_MEAN_MAX)
    return None


def one(path, chromium):
    """check() in a folder of its own (the PNG, Chromium's profile): the
    pictures are checked two at a time (JOBS), in processes, since
    Chromium's start and the PNG's decoding take the time."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            return check(path, chromium, tmp)
        except (ET.ParseError, ValueError, OSError, zlib.error,
                subprocess.TimeoutExpired) as e:
            return str(e)


def main():
    args = sys.argv[1:]
    render = True
    if args and args[0] == "--no-render":
        render, args = False, args[1:]
    chromium = None
    if render:
        for c in ("chromium", "chromium-browser"):
            for d in os.environ.get("PATH", "").split(os.pathsep):
                if os.access(os.path.join(d, c), os.X_OK):
                    chromium = os.path.join(d, c)
                    break
            if chromium:
                break
    passed = failed = skipped = 0
    with concurrent.futures.ProcessPoolExecutor(
            int(os.environ.get("JOBS", "2"))) as pool:
        for n, (path, why) in enumerate(zip(args, pool.map(
                one, args, [chromium] * len(args))), 1):
            if why:
                failed += 1
                print("not ok %d - %s: %s" % (n, path, why))
            else:
                passed += 1
                print("ok %d - %s%s" % (n, path, "" if chromium else
                                         " # parsed only"))
            if chromium is None:
                skipped += 1
    if chromium is None:
        print("# chromium is not installed (Debian: apt-get install "
              "chromium): the pictures were parsed but not rendered")
        print("svg: %d passed, %d failed, %d skipped" % (passed, failed,
                                                         skipped))
    else:
        print("svg: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
