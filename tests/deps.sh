#!/bin/sh
# Installs what arbiter needs to build and test, where it is missing:
# jansson (libjansson-dev, found with pkg-config), libsodium
# (libsodium-dev: the fair dice' HMAC-SHA-256, SHA-256 and random bytes),
# Graphviz's library (libgraphviz-dev, pkg-config libgvc: the layout of a
# graph board's picture), librsvg and cairo (librsvg2-dev: the picture as
# PNG) with the font the pictures name (fonts-dejavu-core), libpng
# (libpng-dev: the PNG written at zlib's fastest level), GMime 3
# (libgmime-3.0-dev, pkg-config gmime-3.0: the orders found in a mail),
# mandoc (man page lint), python3 with python3-jsonschema (the schema
# check), GNU parallel and rsync (a league of games, README); and, with
# --test (make check only, not make demo), Chromium (chromium:
# tests/svg.sh renders the golden pictures with it), whose absence skips
# that rendering instead of failing, and clang with its sanitizers and
# libFuzzer (the fuzz replays built with clang).  Uses apt-get when it
# can; says what to install when
# it cannot.
#
# With --check (plain make), only what the build needs is looked for, and
# what is missing is said in one line, without installing anything.
if [ "$1" = --check ]; then
	need=
	command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
	pkg-config --exists jansson 2>/dev/null || need="$need libjansson-dev"
	pkg-config --exists libsodium 2>/dev/null ||
	    need="$need libsodium-dev"
	pkg-config --exists libgvc 2>/dev/null ||
	    need="$need libgraphviz-dev"
	pkg-config --exists librsvg-2.0 cairo 2>/dev/null ||
	    need="$need librsvg2-dev"
	pkg-config --exists libpng 2>/dev/null ||
	    need="$need libpng-dev"
	pkg-config --exists gmime-3.0 2>/dev/null ||
	    need="$need libgmime-3.0-dev"
	[ -z "$need" ] && exit 0
	echo "arbiter: cannot build: missing$need; install it (Debian:" \
	    "apt-get install$need) or run make demo, which does" >&2
	exit 1
fi
missing=
[ -n "$VALGRIND" ] && ! command -v valgrind >/dev/null 2>&1 &&
    missing="$missing valgrind"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
pkg-config --exists jansson 2>/dev/null || missing="$missing libjansson-dev"
pkg-config --exists libsodium 2>/dev/null ||
    missing="$missing libsodium-dev"
pkg-config --exists libgvc 2>/dev/null || missing="$missing libgraphviz-dev"
# librsvg and cairo rasterise the picture as PNG, in the font the SVG
# names (DejaVu Sans), so that the PNG is the same bytes each run.
pkg-config --exists librsvg-2.0 cairo 2>/dev/null ||
    missing="$missing librsvg2-dev"
pkg-config --exists libpng 2>/dev/null ||
    missing="$missing libpng-dev"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] ||
    missing="$missing fonts-dejavu-core"
pkg-config --exists gmime-3.0 2>/dev/null ||
    missing="$missing libgmime-3.0-dev"
command -v mandoc >/dev/null 2>&1 || missing="$missing mandoc"
# GNU parallel runs a league of games (README, A league; tests/league.sh);
# moreutils has a parallel of its own, which is not it.  rsync carries a
# game's folder to another machine and back (parallel's --transferfile
# and --return).
parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    missing="$missing parallel"
command -v rsync >/dev/null 2>&1 || missing="$missing rsync"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
# make check builds the fuzz replays with clang's sanitizers as well;
# libFuzzer (make fuzz) and the sanitizers' runtimes come with clang or,
# where they are a package of their own, with libclang-rt-dev.
if [ "$1" = --test ]; then
	if ! command -v clang >/dev/null 2>&1; then
		missing="$missing clang libclang-rt-dev"
	elif ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n)
	    { return 0; }' | clang -fsanitize=fuzzer,address,undefined -x c \
	    -o /dev/null - >/dev/null 2>&1; then
		missing="$missing libclang-rt-dev"
	fi
fi
# tests/schema.sh takes Debian's python3, or the PATH's, whichever has it.
# (version 4: Draft202012Validator; the probe is tests/schema.sh's).
probe='import jsonschema; jsonschema.Draft202012Validator'
if ! /usr/bin/python3 -c "$probe" >/dev/null 2>&1 &&
    ! python3 -c "$probe" >/dev/null 2>&1; then
	missing="$missing python3-jsonschema"
fi
# Chromium is tried on its own: a machine without it still builds and
# tests, and tests/svg.sh says that it skipped the rendering.
if [ "$1" = --test ] && [ -z "$SVG_NO_CHROMIUM" ] &&
    ! command -v chromium >/dev/null 2>&1 &&
    command -v apt-get >/dev/null 2>&1; then
	sudo=
	[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
	if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
		echo "arbiter: installing: chromium (for tests/svg.sh)"
		export DEBIAN_FRONTEND=noninteractive
		{ $sudo apt-get update -qq &&
		    $sudo apt-get install -y -qq chromium; } >/dev/null 2>&1 ||
		    echo "arbiter: chromium could not be installed:" \
		    "tests/svg.sh will not render the pictures" >&2
	fi
fi
[ -z "$missing" ] && exit 0

echo "arbiter: installing:$missing"
if command -v apt-get >/dev/null 2>&1; then
	sudo=
	[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
	if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
		export DEBIAN_FRONTEND=noninteractive
		$sudo apt-get update -qq &&
		    $sudo apt-get install -y -qq $missing >/dev/null &&
		    exit 0
	fi
fi
echo "arbiter: cannot install$missing by myself;" \
    "install them (Debian: apt-get install$missing) and run make again" >&2
exit 1
