#!/bin/sh
# make install puts the program, the library, its header, its pkg-config
# file, the manuals, the JSON Schemas and the example games under DESTDIR;
# a small program (tests/embed.c) built against the installed copy alone,
# found with pkg-config, writes the same result as the program; make
# uninstall takes everything away again.
# Ends with "install: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 70
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}

make -s install DESTDIR="$tmp/root" PREFIX=/opt/arb >"$tmp/log" 2>&1
ok $? "make install"
for f in bin/arbiter lib/libarbiter.a lib/pkgconfig/arbiter.pc \
    include/arbiter.h share/man/man1/arbiter.1 share/man/man1/arbiter-game.1 \
    share/man/man5/arbiter-map.5 \
    share/man/man7/arbiter-rules.7 share/arbiter/schema/map.schema.json \
    share/arbiter/schema/orders.schema.json \
    share/arbiter/schema/result.schema.json \
    share/doc/arbiter/examples/aeonis/orders/red.json; do
	test -f "$tmp/root/opt/arb/$f"
	ok $? "installed $f"
done
cmp -s examples/xconq/map.json \
    "$tmp/root/opt/arb/share/doc/arbiter/examples/xconq/map.json"
ok $? "installed the example games as they are in examples/"
# The installed files alone: pkg-config told where the copy lies.
pc="pkg-config --define-variable=prefix=$tmp/root/opt/arb"
export PKG_CONFIG_PATH="$tmp/root/opt/arb/lib/pkgconfig"
flags=$($pc --static --cflags --libs arbiter 2>"$tmp/log")
ok $? "pkg-config finds arbiter: $(cat "$tmp/log")"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$tmp/embed" tests/embed.c \
    $flags >"$tmp/log" 2>&1
ok $? "tests/embed.c builds against the installed copy: $(head -3 "$tmp/log")"
demo=fixtures/aeonis/demo-turn
(cd "$demo" && "$tmp/embed" map.json orders/blue.json orders/red.json) \
    >"$tmp/embed.json" 2>"$tmp/log"
ok $? "the embedded library adjudicates: $(head -3 "$tmp/log")"
(cd "$demo" && "$top/arbiter" map.json orders/blue.json orders/red.json) \
    >"$tmp/arbiter.json"
cmp -s "$tmp/embed.json" "$tmp/arbiter.json"
ok $? "the embedded library writes the program's result"
make -s uninstall DESTDIR="$tmp/root" PREFIX=/opt/arb >"$tmp/log" 2>&1
ok $? "make uninstall"
test -z "$(find "$tmp/root" -type f)"
ok $? "uninstall leaves no file: $(find "$tmp/root" -type f | head -3)"
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
