#!/bin/sh
# Writes seed inputs for a fuzz target from the casebook (see README):
#
#	sh tests/fuzz/seeds.sh load|turn DIR
#
# load: each map.json with the role byte 0 before it, and each orders file
# with the role byte of the built-in map of its rule system (1 aeonis,
# 5 morne-plaine, 9 arcane-legions, 13 xconq, 3 territory; tests/fuzz_load.c).
# turn: each case with a map.json and orders (but no expected.err) as one
# input: the map, then each orders file after a line "%%"
# (tests/fuzz_turn.c), mails (orders/*.eml) among them.  mail: each mail
# of fixtures/mail/ and of the casebook's orders (tests/fuzz_mail.c).
# text: each orders text (orders/*.txt) with the role byte of the
# built-in map of tests/fuzz_text.c (1 territory, 2 arcane-legions, else
# 0).  The seed of fixtures/R/C is named R-C.
top=$(cd "$(dirname "$0")/../.." && pwd)
target=$1
dir=$2
if [ -z "$dir" ] || { [ "$target" != load ] && [ "$target" != turn ] &&
    [ "$target" != mail ] && [ "$target" != text ]; }
then
	echo "usage: sh tests/fuzz/seeds.sh load|turn|mail|text DIR" >&2
	exit 64
fi
mkdir -p "$dir" || exit 73
n=0
if [ "$target" = mail ]; then
	for o in "$top"/fixtures/mail/*.eml "$top"/fixtures/*/*/orders/*.eml; do
		[ -f "$o" ] || continue
		name=${o#"$top"/fixtures/}
		cp "$o" "$dir/$(echo "$name" | tr / -)" || exit 73
		n=$((n + 1))
	done
	echo "$n seeds in $dir"
	exit 0
fi
for map in "$top"/fixtures/*/*/map.json; do
	case=${map%/map.json}
	rs=${case%/*}
	rs=${rs##*/}
	name=$rs-${case##*/}
	if [ "$target" = text ]; then
		case $rs in
		territory)	role='\001' ;;
		arcane-legions)	role='\002' ;;
		*)		role='\000' ;;
		esac
		for o in "$case"/orders/*.txt; do
			[ -f "$o" ] || continue
			o1=${o##*/}
			{ printf "$role"; cat "$o"; } >"$dir/$name-${o1%.txt}"
			n=$((n + 1))
		done
		continue
	fi
	if [ "$target" = load ]; then
		case $rs in
		aeonis)		role='\001' ;;
		morne-plaine)	role='\005' ;;
		arcane-legions)	role='\011' ;;
		xconq)		role='\015' ;;
		*)		role='\003' ;;
		esac
		{ printf '\000'; cat "$map"; } >"$dir/$name-map"
		n=$((n + 1))
		for o in "$case"/orders/*.json; do
			[ -f "$o" ] || continue
			o1=${o##*/}
			{ printf "$role"; cat "$o"; } >"$dir/$name-${o1%.json}"
			n=$((n + 1))
		done
		continue
	fi
	[ -f "$case/expected.err" ] && continue
	set -- "$case"/orders/*.json "$case"/orders/*.txt "$case"/orders/*.eml
	any=
	for o in "$@"; do [ -f "$o" ] && any=1; done
	[ -n "$any" ] || continue
	{
		cat "$map"
		for o in "$@"; do
			[ -f "$o" ] || continue
			printf '\n%%%%\n'
			cat "$o"
		done
	} >"$dir/$name"
	n=$((n + 1))
done
echo "$n seeds in $dir"
