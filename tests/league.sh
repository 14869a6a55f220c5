#!/bin/sh
# A league under GNU parallel (issue 31; README, A league): LEAGUE_GAMES
# games (default 200) made with `arbiter game new`, one of them broken (its
# open turn's map spoilt), all run at once with
#	parallel --joblog FILE --tag arbiter game run --now ::: games/*
# The broken game fails alone, with its reason in parallel's output and
# its exit status in the joblog, and is left as it was; every other game's
# turn is run and the next one opened; a second pass before the new
# deadlines changes nothing.  About 30 s of processor time in all (200
# new, 200 runs, parallel's own).  Then the across-machines form on
# LEAGUE_REMOTE games (default 10, one broken): parallel's -S with --ssh
# pointed at a stand-in that runs the command here, in a folder of its
# own standing for the other machine, the game folders carried there and
# back by --transferfile and --return (rsync) and removed there by
# --cleanup.  Uses ./arbiter (ARBITER to change it): 200 games under the
# sanitizers would take minutes, and tests/post.sh and the game's own
# tests run them.  Prints "not ok" lines and "league: N passed, N failed".
top=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$top/arbiter}
case $arbiter in /*) ;; *) arbiter=$top/$arbiter ;; esac
ngames=${LEAGUE_GAMES:-200}
nremote=${LEAGUE_REMOTE:-10}
tmp=$(mktemp -d) || exit 70
trap '[ -n "$LEAGUE_KEEP" ] || rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $what"
		[ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | head -8
	fi
}

if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "not ok - GNU parallel is not installed (make check installs" \
	    "it: tests/deps.sh)"
	echo "league: 0 passed, 1 failed"
	exit 1
fi
cd "$tmp" || exit 70
# A small game: two players, a unit each, on 3 x 2 hexes.
map=$tmp/map.json
cat >"$map" <<'EOF'
{
  "arbiter": 1,
  "ruleset": "aeonis",
  "turn": 1,
  "seed": 31,
  "board": { "grid": "hex", "cols": 3, "rows": 2, "default": "plains" },
  "players": { "red": { "ap": 4 }, "blue": { "ap": 4 } },
  "turn_order": ["red", "blue"],
  "units": [
    { "id": "r1", "player": "red", "type": "infantry", "at": "0101",
      "strength": 2 },
    { "id": "b1", "player": "blue", "type": "infantry", "at": "0302",
      "strength": 2 }
  ]
}
EOF

# league DIR N: N games in DIR/gNNN, made by arbiter game new in parallel.
league() {
	mkdir -p "$1"
	seq -w 1 "$2" | sed 's/^/g/' | parallel --will-cite \
	    --joblog "$1.newlog" "$arbiter" game new "$1/{}" "$map" \
	    --player red=red-{}@example.org --player blue=blue-{}@example.org \
	    --umpire umpire@example.org >/dev/null 2>"$tmp/err"
}

# open_turn GAME: the open turn's folder name (game.json's "turn").
open_turn() {
	printf '%04d' "$(sed -n 's/^ *"turn": *\([0-9]*\).*/\1/p' \
	    "$1/game.json")"
}

# spoil GAME: the open turn's map is no longer JSON.
spoil() {
	echo '{ "arbiter": 1, "ruleset": ' >"$1/turns/$(open_turn "$1")/map.json"
}

# sums GAME: every file of GAME with its checksum.
sums() {
	(cd "$1" && find . -type f ! -name lock | sort | xargs sha256sum)
}

# joblog_ok LOG N BAD: N jobs, all exit 0 but the one of game BAD.
joblog_ok() {
	awk -v n="$2" -v bad="$3" -F '\t' '
	    NR > 1 { jobs++
		if ($7 != 0) { failed++; if ($9 !~ bad "$") other++ }
		else if ($9 ~ bad "$") other++ }
	    END { exit !(jobs == n && failed == 1 && other == 0) }' "$1"
}

# ---- The league, here.
start=$(date +%s)
league games "$ngames"
check "$ngames games made by arbiter game new" \
    test "$(ls games | wc -l)" -eq "$ngames"
check "every new exited 0 (joblog)" \
    test "$(awk -F '\t' 'NR > 1 && $7 != 0' games.newlog | wc -l)" -eq 0
bad=g$(seq -w 1 "$ngames" | sed -n "$(((ngames + 1) / 2))p")
spoil "games/$bad"
sums "games/$bad" >bad.before
turn=$(open_turn games/g$(seq -w 1 "$ngames" | sed -n 1p))
parallel --will-cite --joblog joblog --tag "$arbiter" game run --now \
    ::: games/* >out 2>err
rc=$?
check "parallel's status: one game failed" test "$rc" -eq 1
check "the joblog: $ngames jobs, only $bad failed" \
    joblog_ok joblog "$ngames" "games/$bad"
check "the broken game's reason, tagged with its name" \
    grep -q "^games/$bad	.*map.json" err
check "nothing else on standard error" \
    test "$(grep -vc "^games/$bad	" err)" -eq 0
sums "games/$bad" >bad.after
check "the broken game left as it was" cmp -s bad.before bad.after
next=$(printf '%04d' $(($(echo "$turn" | sed 's/^0*//') + 1)))
n=0
for g in games/*; do
	[ "$g" = "games/$bad" ] && continue
	[ -f "$g/turns/$turn/result.json" ] &&
	    [ -f "$g/turns/$next/map.json" ] &&
	    [ "$(open_turn "$g")" = "$next" ] &&
	    [ -n "$(ls "$g/outbox")" ] && n=$((n + 1))
done
check "every other game ran its turn and opened the next ($n)" \
    test "$n" -eq $((ngames - 1))
elapsed=$(($(date +%s) - start))
echo "# $ngames games made and run in $elapsed s"

# A second pass as cron makes it, before the new deadlines, over the
# first 20 games (tests/game.sh checks a run before the deadline byte for
# byte): every game waits and nothing changes.
sums games/g$(seq -w 1 "$ngames" | sed -n 1p) >one.before
ls -d games/* | head -n 20 >pass2
parallel --will-cite --joblog joblog2 --tag "$arbiter" game run \
    :::: pass2 >out 2>err
check "a second pass before the deadline: every game waits (exit 0)" \
    test "$(awk -F '\t' 'NR > 1 && $7 == 0' joblog2 | wc -l)" -eq \
    "$(wc -l <pass2)"
sums games/g$(seq -w 1 "$ngames" | sed -n 1p) >one.after
check "a second pass before the deadline changes nothing" \
    cmp -s one.before one.after
# A third pass as cron makes it, a week and an hour on, README's line
# as it is (no --now): every game is due, and runs.
first=games/g$(seq -w 1 "$ngames" | sed -n 1p)
due=$(sed -n 's/^ *"deadline": *"\(.*\)".*/\1/p' "$first/game.json")
later=$(date -u -d "$due 1 hour" +%Y-%m-%dT%H:%M:%SZ)
grep -v "/$bad\$" pass2 >pass3
ARB_GAME_NOW=$later parallel --will-cite --joblog joblog3 --tag "$arbiter" \
    game run :::: pass3 >out 2>err
check "a pass at the deadline: every game ran (exit 0)" \
    test "$(awk -F '\t' 'NR > 1 && $7 == 0' joblog3 | wc -l)" -eq \
    "$(wc -l <pass3)"
third=$(printf '%04d' $(($(echo "$next" | sed 's/^0*//') + 1)))
n=0
while read -r g; do
	[ "$(open_turn "$g")" = "$third" ] && n=$((n + 1))
done <pass3
check "a pass at the deadline: each game's next turn open ($n)" \
    test "$n" -eq "$(wc -l <pass3)"

# ---- Across machines: ssh is a stand-in that drops the host and runs the
# command in $tmp/remote, the other machine's home folder.
# GNU parallel's --cleanup removes ./.parallel/tmp and ./.parallel there
# when they are left empty, while another job on that machine may be
# between creating them and entering its folder ("mkdir: cannot create
# directory './.parallel/tmp'"): README's set-up of each machine keeps a
# file there, as here.
mkdir -p remote/.parallel/tmp
touch remote/.parallel/tmp/.keep
cat >fakessh <<EOF
#!/bin/sh
# ssh [options] HOST [--] COMMAND...: COMMAND, in $tmp/remote.
echo "\$*" >>"$tmp/ssh.log"
while [ \$# -gt 0 ]; do
	case \$1 in
	-l|-o|-p|-i|-F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift
[ "\$1" = -- ] && shift
cd "$tmp/remote" || exit 255
# sshd runs the command with SHELL set to the user's login shell, and
# parallel's remote wrapper execs \$SHELL: a CI job's environment may have
# none.
SHELL=\$(getent passwd "\$(id -u)" | cut -d: -f7)
export SHELL=\${SHELL:-/bin/sh}
# SAME_SECOND: the files going back bear that time, as the folder here
# does (a turn run the second its game was made), so that rsync's quick
# check would pass over those of the same size.
case "\$*" in
*"rsync --server --sender"*)
	[ -n "\$SAME_SECOND" ] &&
	    find .parallel -type f -exec touch -d "@\$SAME_SECOND" {} + ;;
esac
exec sh -c "\$*"
EOF
chmod +x fakessh
league away "$nremote"
rbad=g$(seq -w 1 "$nremote" | sed -n "$(((nremote + 1) / 2))p")
spoil "away/$rbad"
sums "away/$rbad" >rbad.before
# rsync's quick check passes over a file of the same size and the same
# second (without --checksum, "turn": 1 to "turn": 2 in a game.json written
# the second it was made would not come back): every file here and there
# bears the same time.
SAME_SECOND=$(date +%s)
export SAME_SECOND
find away -type f -exec touch -d "@$SAME_SECOND" {} +
PARALLEL_RSYNC_OPTS='-rlDzR --checksum' parallel --will-cite \
    --ssh "$tmp/fakessh" -S 2/elsewhere --wd ... \
    --transferfile {} --return {} --cleanup --joblog rjoblog --tag \
    "$arbiter" game run --now {} ::: away/* >out 2>err
rc=$?
check "across machines: parallel's status: one game failed" test "$rc" -eq 1
check "across machines: the joblog: $nremote jobs, only $rbad failed" \
    joblog_ok rjoblog "$nremote" "away/$rbad"
check "across machines: each job ran on the host given" \
    test "$(awk -F '\t' 'NR > 1 && $2 == "elsewhere"' rjoblog | wc -l)" \
    -eq "$nremote"
check "across machines: the broken game's reason, tagged" \
    grep -q "^away/$rbad	.*map.json" err
check "across machines: the games went there by rsync" \
    grep -q 'rsync --server ' ssh.log
check "across machines: and came back by rsync" \
    grep -q 'rsync --server --sender' ssh.log
n=0
for g in away/*; do
	[ "$g" = "away/$rbad" ] && continue
	[ -f "$g/turns/$turn/result.json" ] &&
	    [ -f "$g/turns/$next/map.json" ] &&
	    [ "$(open_turn "$g")" = "$next" ] &&
	    [ -f "$g/turns/$turn/players/red/turn.png" ] &&
	    [ -n "$(ls "$g/outbox")" ] && n=$((n + 1)) && continue
	echo "# $g: turn $(open_turn "$g"); turns: $(ls "$g/turns" |
	    tr '\n' ' '); outbox: $(ls "$g/outbox" | wc -l) mails"
done
check "across machines: every other game's turn came back ($n)" \
    test "$n" -eq $((nremote - 1))
sums "away/$rbad" >rbad.after
check "across machines: the broken game came back as it was" \
    cmp -s rbad.before rbad.after
check "across machines: nothing left on the other machine" \
    test -z "$(find remote -mindepth 1 -name 'g*' | head -1)"
check "across machines: the umpire's key still 0600" \
    test "$(stat -c %a away/g$(seq -w 1 "$nremote" | sed -n 1p)/umpire.key)" \
    = 600

echo "league: $pass passed, $fail failed"
[ $fail -eq 0 ]
