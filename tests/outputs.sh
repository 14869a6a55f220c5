#!/bin/sh
# Outputs under hostile and careless conditions (issue 11): all outputs in
# place or none, temporaries removed on a fatal signal, outputs that would
# overwrite each other or an input, permissions, symbolic links, the
# directory synced, running out of memory.  Failures that are hard to cause
# come from a small LD_PRELOAD library built here, as jq injects errors.
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
demo=$top/fixtures/aeonis/demo-turn
tmp=$(mktemp -d) || exit 70
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
umask 022

expect() {
	want=$1 what=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what: exit $got, expected $want"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
}

check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what"
	fi
}

# leftovers DIR: no NAME.XXXXXX file is left in DIR.
leftovers() {
	test -z "$(ls "$1" | grep '\.[A-Za-z0-9]\{6\}$')"
}

cd "$demo" || exit 70
d=$tmp/d
mkdir "$d"
"$arbiter" map.json orders/*.json >"$tmp/want" 2>/dev/null

# Outputs that are the same file as each other or as an input are refused
# before anything is read (nosuch.json is never opened).
expect 64 "-o x -n x" "$arbiter" -o "$d/x" -n "$d/x" nosuch.json
check "same file message" grep -q "^arbiter: $d/x: the next map is the same file as the result, $d/x\$" "$tmp/err"
expect 64 "-o x -n ./x" sh -c "cd '$d' && '$arbiter' -o x -n ./x '$demo/map.json'"
expect 64 "-o x --trace-file dir/../x" "$arbiter" -o "$d/x" --trace-file "$d/../d/x" map.json
# Standard input and output are files too: the map read from a file
# through "-" may not be replaced by -o, and two outputs may not both go
# to standard output under two names.
cp map.json "$d/m2.json"
expect 64 "-o m2 - < m2" sh -c "'$arbiter' -o '$d/m2.json' - <'$d/m2.json'"
check "the map read through - is kept" cmp -s map.json "$d/m2.json"
expect 64 "-o /dev/stdout -n -" sh -c "'$arbiter' -o /dev/stdout -n - map.json orders/*.json >'$d/both.json'"
rm -f "$d/m2.json" "$d/both.json"
# /dev/stdout names the file standard output goes to: written through, not
# replaced by a file renamed over the name.
expect 0 "-o /dev/stdout into a file" sh -c "'$arbiter' -o /dev/stdout map.json orders/*.json >'$d/through.json'"
check "-o /dev/stdout reached the redirected file" cmp -s "$d/through.json" "$tmp/want"
rm -f "$d/through.json"
# A name for a descriptor must name one open when arbiter starts: never a
# file arbiter itself opened later (the result's temporary took fd 3, and
# the next map went into it).  Standard output closed by the caller is
# /dev/null to arbiter, so -n /dev/stdout cannot reach the result either.
expect 73 "-n /dev/fd/3, fd 3 not open" "$arbiter" -o "$d/r3.json" -n /dev/fd/3 map.json orders/red.json orders/blue.json
check "fd 3 not open: the reason" grep -q "cannot create /dev/fd/3: Bad file descriptor" "$tmp/err"
check "fd 3 not open: no result" test ! -e "$d/r3.json"
expect 0 "-n /dev/stdout with standard output closed" sh -c "'$arbiter' -o '$d/r1.json' -n /dev/stdout map.json orders/red.json orders/blue.json >&-"
check "the result alone in its file" cmp -s "$d/r1.json" "$tmp/want"
rm -f "$d/r1.json"
# A reader that has gone away (a pipe whose read end is closed before
# arbiter starts, made with perl, which Debian always has): a write error,
# 73, and no temporary left.
mkdir "$d/p"
expect 73 "next map into a pipe with no reader" perl -e 'pipe(R, W) or die; close(R); open(STDOUT, ">&W") or die; exec(@ARGV) or die' "$arbiter" -o "$d/p/r.json" -n /dev/stdout map.json orders/red.json orders/blue.json
check "a closed pipe leaves no temporary" leftovers "$d/p"
check "a closed pipe: the reason" grep -q "Broken pipe" "$tmp/err"
rm -rf "$d/p"
cp map.json "$d/map.json"
ln "$d/map.json" "$d/hard.json"
ln -s map.json "$d/soft.json"
expect 64 "output is the map" "$arbiter" -o "$d/map.json" "$d/map.json"
expect 64 "output is a hard link to the map" "$arbiter" -o "$d/hard.json" "$d/map.json"
expect 64 "output is a symbolic link to the map" "$arbiter" -n "$d/soft.json" "$d/map.json"
expect 64 "map is a symbolic link to the output" "$arbiter" -o "$d/map.json" "$d/soft.json"
cp orders/red.json "$d/red.json"
expect 64 "output is an orders file" "$arbiter" -o "$d/red.json" map.json red="$d/red.json"
check "the map is untouched" cmp -s map.json "$d/map.json"
check "the orders are untouched" cmp -s orders/red.json "$d/red.json"
check "nothing created" test ! -e "$d/x"
expect 0 "two outputs to /dev/null" "$arbiter" -o /dev/null -n /dev/null map.json orders/*.json
rm -f "$d"/*

# An existing output keeps its permissions.
echo old >"$d/r.json"
chmod 600 "$d/r.json"
expect 0 "replace a 0600 output" "$arbiter" -o "$d/r.json" map.json orders/*.json
check "still 0600" test "$(ls -l "$d/r.json" | cut -c1-10)" = "-rw-------"
check "new contents" cmp -s "$d/r.json" "$tmp/want"

# A symbolic link named as an output is replaced by a regular file; the
# file it pointed to is left as it was.
echo old >"$d/target.json"
ln -s target.json "$d/link.json"
expect 0 "output through a symbolic link" "$arbiter" -o "$d/link.json" map.json orders/*.json
check "the link is now a regular file" test -f "$d/link.json" -a ! -h "$d/link.json"
check "the file it pointed to is unchanged" grep -qx old "$d/target.json"
rm -f "$d"/*

# The injection library: SHIM_RENAME_FAIL makes renaming onto a name that
# ends so fail with EIO, SHIM_NOMEM makes memory run out once an output is
# open, SHIM_LOG records renames and directory syncs, SHIM_MKSTEMP_FAIL
# makes a temporary file whose name holds it fail with EACCES (a folder
# that cannot be written to, even by root), SHIM_DIRSYNC_FAIL makes every
# directory sync fail with EIO.
cat >"$tmp/shim.c" <<'SHIM'
#define _GNU_SOURCE
#include <sys/stat.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int nomem;

static void
note(const char *what)
{
	const char *log = getenv("SHIM_LOG");
	int fd;

	if (log == NULL || (fd = open(log, O_WRONLY | O_APPEND | O_CREAT,
	    0644)) == -1)
		return;
	write(fd, what, strlen(what));
	close(fd);
}

FILE *
fdopen(int fd, const char *mode)
{
	static FILE *(*real)(int, const char *);
	FILE *fp;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fdopen");
	fp = real(fd, mode);
	if (getenv("SHIM_NOMEM") != NULL)
		nomem = 1;
	return fp;
}

void *
malloc(size_t n)
{
	static void *(*real)(size_t);

	if (nomem) {
		errno = ENOMEM;
		return NULL;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "malloc");
	return real(n);
}

void *
realloc(void *p, size_t n)
{
	static void *(*real)(void *, size_t);

	if (nomem) {
		errno = ENOMEM;
		return NULL;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "realloc");
	return real(p, n);
}

int
rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *bad = getenv("SHIM_RENAME_FAIL");
	size_t n = strlen(to);

	if (bad != NULL && n >= strlen(bad) &&
	    strcmp(to + n - strlen(bad), bad) == 0) {
		errno = EIO;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	note("rename\n");
	return real(from, to);
}

int
mkstemp(char *template)
{
	static int (*real)(char *);
	const char *bad = getenv("SHIM_MKSTEMP_FAIL");

	if (bad != NULL && strstr(template, bad) != NULL) {
		errno = EACCES;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "mkstemp");
	return real(template);
}

int
fsync(int fd)
{
	static int (*real)(int);
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		note("sync directory\n");
		if (getenv("SHIM_DIRSYNC_FAIL") != NULL) {
			errno = EIO;
			return -1;
		}
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}
SHIM
shim=
if ${CC:-cc} -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl \
    >/dev/null 2>&1; then
	shim=$tmp/shim.so
	# AddressSanitizer wants to come first; the shim only passes calls on.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
else
	echo "# skip: cannot build the injection library"
fi

if [ -n "$shim" ]; then
	# The second rename fails: the first output is put back.
	echo old-r >"$d/r.json"
	echo old-n >"$d/fails.json"
	expect 73 "second rename fails" env LD_PRELOAD="$shim" \
	    SHIM_RENAME_FAIL=fails.json "$arbiter" -o "$d/r.json" \
	    -n "$d/fails.json" map.json orders/*.json
	check "the first output has its old contents" grep -qx old-r "$d/r.json"
	check "the second output has its old contents" grep -qx old-n "$d/fails.json"
	check "no temporary or backup left" leftovers "$d"
	rm -f "$d/r.json"
	expect 73 "second rename fails, first is new" env LD_PRELOAD="$shim" \
	    SHIM_RENAME_FAIL=fails.json "$arbiter" -o "$d/r.json" \
	    -n "$d/fails.json" map.json orders/*.json
	check "the new first output is removed" test ! -e "$d/r.json"
	check "no temporary or backup left" leftovers "$d"
	rm -f "$d"/*

	# The directory is synced after the renames.
	expect 0 "directory synced" env LD_PRELOAD="$shim" \
	    SHIM_LOG="$tmp/log" "$arbiter" -o "$d/r.json" -n "$d/n.json" \
	    map.json orders/*.json
	check "a directory sync follows the renames" test \
	    "$(tail -n 1 "$tmp/log" 2>/dev/null)" = "sync directory"
	check "two renames, one directory" test \
	    "$(sort "$tmp/log" 2>/dev/null | uniq -c | tr -s ' ' | tr '\n' ,)" \
	    = " 2 rename, 1 sync directory,"
	rm -f "$d"/* "$tmp/log"

	# Memory runs out while writing: 70, and no file left.
	expect 70 "out of memory while writing" env LD_PRELOAD="$shim" \
	    SHIM_NOMEM=1 "$arbiter" -t -o "$d/r.json" map.json orders/*.json
	check "out of memory message" grep -qx "arbiter: out of memory" "$tmp/err"
	check "nothing left after running out of memory" test -z "$(ls "$d")"
fi

# Outputs spread over folders (issue 26): the umpire's layout puts the
# result and the trace in one folder, the next map, the picture and the
# players' mail in three others; it crashed once the outputs were in place
# (a table of three folders overrun).  Each output's bytes are those of a
# run that writes it alone.
E=$tmp/E L=$tmp/L
# tree ROOT: the folders of the layout, empty.
tree() {
	rm -rf "$1"
	mkdir -p "$1/archive/t1" "$1/t2" "$1/t1" "$1/mail/t1"
}
# spread ROOT [COMMAND...]: the layout under ROOT, run under COMMAND.
spread() {
	root=$1
	shift
	"$@" "$arbiter" -o "$root/archive/t1/result.json" \
	    -n "$root/t2/map.json" --svg "$root/t1/turn.svg" --for all \
	    --outdir "$root/mail/t1" --trace-file "$root/archive/t1/trace.txt" \
	    map.json orders/*.json
}
# strays ROOT: no NAME.XXXXXX file is left anywhere under ROOT.
strays() {
	test -z "$(find "$1" -name '*.??????' ! -name '*.json' 2>/dev/null)"
}
# aged ROOT: every file of the layout holds "old".
aged() {
	for f in archive/t1/result.json t2/map.json t1/turn.svg \
	    archive/t1/trace.txt mail/t1/red.json mail/t1/red.txt \
	    mail/t1/red.svg mail/t1/blue.json mail/t1/blue.txt \
	    mail/t1/blue.svg; do
		echo old >"$1/$f"
	done
}
# unchanged ROOT: every file of the layout still holds "old", and there
# is no other file.
unchanged() {
	test "$(find "$1" -type f | wc -l)" -eq 10 &&
	    test -z "$(find "$1" -type f -exec grep -Lx old {} +)"
}
tree "$E"
"$arbiter" -o "$E/archive/t1/result.json" map.json orders/*.json &&
"$arbiter" -o /dev/null -n "$E/t2/map.json" map.json orders/*.json &&
"$arbiter" -o /dev/null --svg "$E/t1/turn.svg" map.json orders/*.json &&
"$arbiter" -o /dev/null --trace-file "$E/archive/t1/trace.txt" map.json \
    orders/*.json &&
"$arbiter" --for all --outdir "$E/mail/t1" --svg /dev/null map.json \
    orders/*.json || exit 70
tree "$L"
expect 0 "outputs in four folders" spread "$L"
check "four folders: every output as written alone" diff -r "$E" "$L"
check "four folders: no temporary or backup left" strays "$L"
aged "$L"
expect 0 "outputs in four folders, over old files" spread "$L"
check "over old files: every output as written alone" diff -r "$E" "$L"
check "over old files: no temporary or backup left" strays "$L"
# A folder that does not exist: 73, and nothing anywhere changed.
aged "$L"
rm -rf "$L/mail/t1"
expect 73 "a missing folder among four" spread "$L"
check "a missing folder: its name" grep -q \
    "^arbiter: cannot create $L/mail/t1/red.json: No such file or directory" \
    "$tmp/err"
check "a missing folder: the others unchanged" test \
    "$(find "$L" -type f -exec grep -Lx old {} +)" = ""
check "a missing folder: no temporary left" strays "$L"
check "a missing folder: not created" test ! -e "$L/mail/t1"
# A target that is a folder: 73 before anything is renamed.
tree "$L"
aged "$L"
rm "$L/t1/turn.svg"
mkdir "$L/t1/turn.svg"
expect 73 "a target that is a folder" spread "$L"
check "a target that is a folder: the reason" grep -q \
    "^arbiter: cannot [a-z]* $L/t1/turn.svg: Is a directory" "$tmp/err"
check "a target that is a folder: the others unchanged" test \
    "$(find "$L" -type f -exec grep -Lx old {} + | wc -l)" -eq 0
check "a target that is a folder: no temporary or backup left" strays "$L"
check "a target that is a folder: still one" test -d "$L/t1/turn.svg"
# A full disk for one output: 73, the others unchanged.
if [ -w /dev/full ]; then
	tree "$L"
	aged "$L"
	expect 73 "the trace on a full device, among four folders" \
	    "$arbiter" -o "$L/archive/t1/result.json" -n "$L/t2/map.json" \
	    --svg "$L/t1/turn.svg" --for all --outdir "$L/mail/t1" \
	    --trace-file /dev/full map.json orders/*.json
	check "a full device: the reason" grep -q \
	    "^arbiter: cannot write /dev/full: No space left on device" \
	    "$tmp/err"
	rm "$L/archive/t1/trace.txt"
	check "a full device: the others unchanged" test \
	    "$(find "$L" -type f -exec grep -Lx old {} + | wc -l)" -eq 0
	check "a full device: no temporary or backup left" strays "$L"
fi
# A folder that may not be written to (as root, permissions do not stop
# a write: the injection library below stands in).
if [ "$(id -u)" -ne 0 ]; then
	tree "$L"
	aged "$L"
	chmod 555 "$L/mail/t1"
	expect 73 "an unwritable folder among four" spread "$L"
	chmod 755 "$L/mail/t1"
	check "an unwritable folder: the others unchanged" unchanged "$L"
	check "an unwritable folder: no temporary left" strays "$L"
fi
if [ -n "$shim" ]; then
	tree "$L"
	expect 0 "four folders, each synced once" spread "$L" env \
	    LD_PRELOAD="$shim" SHIM_LOG="$tmp/log"
	check "twelve renames, four directories" test \
	    "$(sort "$tmp/log" 2>/dev/null | uniq -c | tr -s ' ' | tr '\n' ,)" \
	    = " 12 rename, 4 sync directory,"
	rm -f "$tmp/log"
	tree "$L"
	aged "$L"
	expect 73 "an unwritable folder among four (injected)" spread "$L" \
	    env LD_PRELOAD="$shim" SHIM_MKSTEMP_FAIL=/mail/t1/blue
	check "an unwritable folder (injected): the reason" grep -q \
	    "^arbiter: cannot create $L/mail/t1/blue.json: Permission denied" \
	    "$tmp/err"
	check "an unwritable folder (injected): the others unchanged" \
	    unchanged "$L"
	check "an unwritable folder (injected): no temporary left" strays "$L"
	expect 73 "the last rename fails, four folders" spread "$L" env \
	    LD_PRELOAD="$shim" SHIM_RENAME_FAIL=blue.svg
	check "the last rename fails: all put back" unchanged "$L"
	check "the last rename fails: no temporary or backup left" strays "$L"
	expect 73 "syncing a folder fails, four folders" spread "$L" env \
	    LD_PRELOAD="$shim" SHIM_DIRSYNC_FAIL=1
	check "syncing fails: all put back" unchanged "$L"
	check "syncing fails: no temporary or backup left" strays "$L"
	tree "$L"
	expect 73 "syncing a folder fails, new files" spread "$L" env \
	    LD_PRELOAD="$shim" SHIM_DIRSYNC_FAIL=1
	check "syncing fails, new files: none left" test \
	    "$(find "$L" -type f | wc -l)" -eq 0
	expect 70 "out of memory, four folders" spread "$L" env \
	    LD_PRELOAD="$shim" SHIM_NOMEM=1
	check "out of memory, four folders: nothing left" test \
	    "$(find "$L" -type f | wc -l)" -eq 0
fi
# Every output option alone and together, into folders of their own and
# into one, new targets and then the same targets again: the exit status
# of arbiter(1), every output there, the second run the same bytes, and
# no temporary or backup anywhere.
cstatus=0
"$arbiter" --check map.json orders/*.json >/dev/null 2>&1 || cstatus=$?
n=0
while IFS='|' read -r st opts; do
	n=$((n + 1))
	[ "$st" = C ] && st=$cstatus
	rm -rf "$L"
	mkdir -p "$L/a" "$L/b" "$L/c" "$L/d" "$L/e" "$L/f"
	# shellcheck disable=SC2086
	expect "$st" "options $n ($opts), new targets" sh -c \
	    "cd '$L' && exec '$arbiter' $opts '$demo/map.json' '$demo'/orders/*.json"
	files=$(cd "$L" && find . -type f | sort)
	check "options $n ($opts): an output for each name" test \
	    "$(echo "$opts" | tr ' ' '\n' | grep -c '/')" -le \
	    "$(echo "$files" | grep -c .)"
	check "options $n: no temporary left" strays "$L"
	rm -rf "$tmp/first"
	cp -R "$L" "$tmp/first"
	expect "$st" "options $n ($opts), over its own outputs" sh -c \
	    "cd '$L' && exec '$arbiter' $opts '$demo/map.json' '$demo'/orders/*.json"
	check "options $n: the same bytes again" diff -r "$tmp/first" "$L"
	check "options $n: no backup left" strays "$L"
done <<'LIST'
0|-o a/r.json
0|-n b/n.json
0|--next b/n.json
0|--svg c/p.svg
0|--svg-next d/q.svg
0|--svg-start d/s.svg
0|--svg c/p.svg --svg-start c/s.svg --svg-next c/q.svg
0|--trace-file e/t.jsonl
0|--text --trace-file e/t.txt
0|-t -o a/r.json --trace-file a/t.jsonl
0|--for red -o a/red.json
0|--for red --text -o a/red.txt
0|--for red -o a/red.json --svg c/red.svg --trace-file e/red.jsonl
0|--for blue --text -o a/blue.txt --trace-file a/blue.txt.trace
0|--for all --outdir f
0|--for all --outdir f --svg c/p.svg
0|--for all --outdir f -o a/r.json
C|--check -o a/r.json
C|--check --text -o a/r.txt
C|--check --text -o a/r.txt --trace-file e/t.txt
C|--check -o a/r.json --svg c/p.svg --trace-file d/t.jsonl --for all --outdir e
0|-o a/r.json -n b/n.json --svg c/p.svg --svg-next d/q.svg --trace-file e/t.jsonl
0|-o a/r.json -n b/n.json --svg c/p.svg --svg-next d/q.svg --trace-file e/t.jsonl --for all --outdir f
0|-o a/r.json -n a/n.json --svg a/p.svg --svg-next a/q.svg --trace-file a/t.jsonl --for all --outdir a
0|-t -o a/r.json -n b/n.json --svg c/p.svg --svg-next c/q.svg --text --trace-file d/t.txt --for all --outdir e
0|--for red -o a/r.json -n b/n.json --svg c/p.svg --svg-next d/q.svg --text --trace-file e/t.txt
LIST

# A fatal signal while the outputs are written removes the temporaries.
# The next map goes to one FIFO and the trace to another: once the test has
# opened the first, the result's temporary file exists and arbiter waits
# for a reader of the second, which never comes until the signal.
mkfifo "$tmp/f1" "$tmp/f2" || exit 70
# killed SIGNAL: arbiter dies of SIGNAL and leaves nothing in $d.
killed() {
	sig=$1
	shift
	rm -f "$tmp/pid" "$tmp/status"
	(
		"$@" sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$tmp/pid" \
		    "$arbiter" -o "$d/r.json" -n "$tmp/f1" \
		    --trace-file "$tmp/f2" map.json orders/*.json 2>/dev/null
		echo $? >"$tmp/status"
		: >"$tmp/f1"	# if arbiter never opened it
	) &
	bg=$!
	exec 3<"$tmp/f1"
	kill -s "$sig" "$(cat "$tmp/pid")" 2>/dev/null
	# Lets a survivor go on (opening a FIFO to read and write does not
	# wait), so that the test fails instead of hanging.
	exec 4<>"$tmp/f2"
	wait "$bg"
	exec 3<&- 4<&-
	check "SIG$sig: killed by the signal" test \
	    "$(cat "$tmp/status")" -gt 128
	check "SIG$sig: no temporary file left" test -z "$(ls "$d")"
	rm -f "$d"/*
}
killed TERM
# Background jobs ignore SIGINT, and a test run under nohup(1) SIGHUP
# (arbiter leaves a signal ignored on entry ignored); perl (Essential on
# Debian) restores each.
if command -v perl >/dev/null 2>&1; then
	killed HUP perl -e '$SIG{HUP} = "DEFAULT"; exec @ARGV or exit 127' --
	killed INT perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or exit 127' --
else
	killed HUP
fi

# --threads (arbiter(1)): the same bytes on one thread and on two, for a
# turn (its orders parsed ahead or not) and for a reach large enough to
# look its hexes up ahead on a second thread; and its usage errors.
big=$tmp/big.json
{
	printf '{"arbiter": 1, "ruleset": "aeonis", "board": {"grid": "hex", '
	printf '"cols": 60, "rows": 60, "default": "plains"}, "players": '
	printf '{"red": {"ap": 90}, "blue": {"ap": 1}}, "units": [{"id": "r", '
	printf '"player": "red", "type": "infantry", "at": "3030", "range": 200}'
	i=0
	while [ $i -lt 60 ]; do
		printf ', {"id": "b%d", "player": "blue", "type": "infantry", ' $i
		printf '"at": "%02d%02d"}' $((1 + i * 7 % 60)) $((1 + i * 13 % 60))
		i=$((i + 1))
	done
	printf ']}\n'
} >"$big"
expect 0 "--threads 1 --reach" "$arbiter" --threads 1 -o "$tmp/r1.json" \
    --reach r "$big"
expect 0 "--reach, two threads" "$arbiter" -o "$tmp/r2.json" --reach r "$big"
check "--reach: the same bytes on one thread and two" \
    cmp -s "$tmp/r1.json" "$tmp/r2.json"
check "--reach: a large answer" test "$(grep -c '"cell"' "$tmp/r1.json")" \
    -gt 2000
expect 0 "--threads 1, a turn" "$arbiter" --threads 1 -t -o "$tmp/t1.json" \
    "$demo/map.json" "$demo"/orders/*.json
expect 0 "a turn, two threads" "$arbiter" --threads 2 -t \
    -o "$tmp/t2.json" "$demo/map.json" "$demo"/orders/*.json
check "a turn: the same bytes on one thread and two" \
    cmp -s "$tmp/t1.json" "$tmp/t2.json"
for bad in 0 -1 x 1x 1025 ''; do
	expect 64 "--threads '$bad'" "$arbiter" --threads "$bad" \
	    "$demo/map.json"
	check "--threads '$bad' says why" grep -q 'bad --threads' "$tmp/err"
done
expect 64 "--threads with --verify" "$arbiter" --threads 1 --verify "$tmp"

# --png (issue 29): the picture as PNG, with --svg and alone, for one
# player and for all, written whole and the same bytes each run.
p=$tmp/png
mkdir "$p"
expect 0 "--png" "$arbiter" --png "$p/u.png" --svg "$p/u.svg" -o /dev/null \
    "$demo/map.json" "$demo"/orders/*.json
check "--png writes a PNG" sh -c "head -c 8 '$p/u.png' | od -c | grep -q 'P   N   G'"
expect 0 "--png again" "$arbiter" --png "$p/u2.png" -o /dev/null \
    "$demo/map.json" "$demo"/orders/*.json
check "--png: the same bytes each run" cmp -s "$p/u.png" "$p/u2.png"
expect 0 "--png --png-width 320" "$arbiter" --png "$p/w.png" --png-width 320 \
    -o /dev/null "$demo/map.json" "$demo"/orders/*.json
check "--png-width: 320 pixels wide" test "$(od -An -tu1 -j16 -N4 "$p/w.png" | tr -s ' ' | sed 's/^ //')" = "0 0 1 64"
expect 0 "--for red --png" "$arbiter" --for red --png "$p/red.png" \
    -o "$p/red.json" "$demo/map.json" "$demo"/orders/*.json
check "a player's PNG is not the umpire's" sh -c "! cmp -s '$p/red.png' '$p/u.png'"
mkdir "$p/mail"
expect 0 "--for all --outdir --png" "$arbiter" --for all --outdir "$p/mail" \
    --png "$p/all.png" "$demo/map.json" "$demo"/orders/*.json
check "--outdir: each player's PNG" test -s "$p/mail/red.png" -a -s "$p/mail/blue.png"
check "--outdir: red's PNG is --for red's" cmp -s "$p/mail/red.png" "$p/red.png"
check "--outdir: no temporaries" leftovers "$p/mail"
for bad in 0 15 16385 x ''; do
	expect 64 "--png-width '$bad'" "$arbiter" --png "$p/x.png" \
	    --png-width "$bad" "$demo/map.json"
done
check "--png-width: nothing written" test ! -e "$p/x.png"
expect 64 "--png and -o the same file" "$arbiter" --png "$p/s" -o "$p/s" \
    "$demo/map.json"
# A picture too large to rasterise is bad data, with nothing written.
expect 65 "--png of a picture too large" "$arbiter" --png "$p/big.png" \
    --png-width 16384 -o "$p/big.json" "$demo/map.json" "$demo"/orders/*.json
check "the message says the limit" grep -q 'more than a PNG may be' "$tmp/err"
check "and nothing is written" test ! -e "$p/big.png" -a ! -e "$p/big.json"
check "nor left" leftovers "$p"


# --replay (issue 32): the replay page, the same bytes each run, naming
# no other file or address; for one player and for all, all or none with
# the other outputs; never an input or another output, nor a result.
r=$tmp/replay
mkdir "$r" "$r/mail"
expect 0 "--replay" "$arbiter" --replay "$r/u.html" -o /dev/null \
    "$demo/map.json" "$demo"/orders/*.json
check "--replay writes a page" grep -q '^<!DOCTYPE html>' "$r/u.html"
check "which names no other file or address" sh -c \
    "! grep -Eq '(src|href|url)=|@import|fetch\(' '$r/u.html'"
expect 0 "--replay again" "$arbiter" --replay "$r/u2.html" -o /dev/null \
    "$demo/map.json" "$demo"/orders/*.json
check "--replay: the same bytes each run" cmp -s "$r/u.html" "$r/u2.html"
expect 0 "--for red --replay" "$arbiter" --for red --replay "$r/red.html" \
    -o "$r/red.json" "$demo/map.json" "$demo"/orders/*.json
check "a player's page is not the umpire's" sh -c "! cmp -s '$r/red.html' '$r/u.html'"
expect 0 "--for all --outdir --replay" "$arbiter" --for all --outdir \
    "$r/mail" --replay "$r/all.html" "$demo/map.json" "$demo"/orders/*.json
check "--outdir: each player's page" test -s "$r/mail/red.replay.html" -a \
    -s "$r/mail/blue.replay.html"
check "--outdir: red's page is --for red's" cmp -s "$r/mail/red.replay.html" \
    "$r/red.html"
check "--outdir: and the umpire's is --replay's" cmp -s "$r/all.html" \
    "$r/u.html"
check "--outdir: no temporaries" leftovers "$r/mail"
expect 64 "--replay and -o the same file" "$arbiter" --replay "$r/s" \
    -o "$r/s" "$demo/map.json"
check "the message names the replay page" grep -q 'the replay page' \
    "$tmp/err"
expect 64 "--replay the map" "$arbiter" --replay "$demo/map.json" \
    "$demo/map.json"
check "--replay X.json: nothing written" test ! -e "$r/s"
expect 73 "--replay in a folder that is not there" "$arbiter" --replay \
    "$r/none/x.html" -o "$r/o.json" "$demo/map.json" "$demo"/orders/*.json
check "and nothing written" test ! -e "$r/o.json"

echo "outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
