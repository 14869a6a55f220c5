#!/bin/sh
# Compiles the library's sources into objects under DIR, keeping lib/'s
# folders (lib/base/mem.c -> DIR/base/mem.o; cli/arbiter.c ->
# DIR/cli/arbiter.o), ${JOBS:-2} at a time, and fails if any does not
# compile; DIR/.cc then holds the command.  The Makefile's archives and
# the program use it:
#	sh tests/objs.sh DIR 'COMPILER AND FLAGS' SOURCE...
dir=$1
cc=$2
shift 2
# Quiet under make -s (GNU make puts its one-letter flags first).
flags=${MAKEFLAGS%% *}
case $flags in -*) quiet= ;; *s*) quiet=1 ;; *) quiet= ;; esac
rm -rf "$dir" || exit 1
for f in "$@"; do
	d=$(dirname "$dir/${f#lib/}")
	mkdir -p "$d" || exit 1
done
printf '%s\n' "$@" | xargs -P "${JOBS:-2}" -I @FILE@ sh -c '
	f=$2
	o=$1/${f#lib/}
	[ -n "$4" ] || echo "$3 -c -o ${o%.c}.o $f"
	eval "$3 -c -o \"\${o%.c}.o\" \"\$f\""' sh "$dir" @FILE@ "$cc" "$quiet" || exit 1
# The command every object of DIR was compiled with (make werror-build).
printf '%s\n' "$cc" >"$dir/.cc"
