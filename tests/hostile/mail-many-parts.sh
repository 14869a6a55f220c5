#!/bin/sh
# Hostile input (issue 27, Mail): a multipart of 199000 empty parts (a
# boundary line and a blank line each), under 1 MB: GMime keeps an object
# a part (some 1.3 KB each), so the parts, not the bytes, cost; a mail of
# more than 10000 part boundaries is refused (bad_mail) before GMime
# parses it.  Its type is written "multipart (x)/mixed", which no search
# for the word "multipart/" finds.
# (The file is named .json; it is read as a mail by what it holds.)
#
#	sh tests/hostile/mail-many-parts.sh DIR
dir=${1:?usage: mail-many-parts.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir/orders" || exit 1
cp "$top/fixtures/aeonis/demo-turn/map.json" "$dir/map.json" || exit 1
{
	printf 'From: red@example.org\nMIME-Version: 1.0\n'
	printf 'Content-Type: multipart (x)/mixed; boundary=q\n\n'
	awk 'BEGIN { for (i = 0; i < 199000; i++) print "--q\n" }'
	printf -- '--q\nContent-Type: text/plain\n\n'
	printf 'arbiter orders red turn 4\nend\n--q--\n'
} >"$dir/orders/red.json"
echo 0 >"$dir/status"
cat >"$dir/check" <<'CHECK'
grep -q '"bad_mail"' result.json &&
    grep -q 'more than 10000 part boundaries' result.json
CHECK
