/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode (arbiter-game(1)): `arbiter game COMMAND DIR ...`, a
 * folder per game that takes the players' mail in, runs its turns, queues
 * the mail that goes out and keeps the history.  Built on libarbiter's
 * public interface (arbiter.h) and the command line's shared parts
 * (cli.h); GMime reads the incoming mail's headers only.  This file has
 * the commands new, receive and status, and the dispatch; below it, each
 * calling only those before it: gamepage.c the history page, gamefs.c
 * the folder and its all-or-none commits, gamecheck.c a player's orders
 * read for the open turn, gamepost.c send, gamerun.c run, redo and
 * verify.
 */
#define _GNU_SOURCE	/* nftw's FTW_DEPTH, FTW_PHYS; timegm */

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <jansson.h>
#include <sodium.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"
#include "gameint.h"

/* new DIR MAP --player NAME=ADDRESS ... */
/*
 * The opening mail of each player (kind "open"): the game, its players
 * and deadline, how to send orders (the subject tag; text or JSON), the
 * player's units and a template of the first turn's orders bound to the
 * map, and the map attached.  mj is the committed map, text its bytes.
 */
static int
open_mails(struct game *g, const json_t *mj, const char *text, size_t len,
    long turn, const char *dl, const char *mapfile)
{
	const char	*attach[] = { mapfile, "application/json", "map.json",
	    NULL };
	unsigned char	 h[crypto_hash_sha256_BYTES];
	char		 subject[512], hex[17];
	const json_t	*u, *at, *pose;
	struct text	 b;
	size_t		 i, k;
	int		 p, rc, n;
	const char	*me;

	crypto_hash_sha256(h, (const unsigned char *)text, len);
	for (k = 0; k < 8; k++)
		sprintf(hex + 2 * k, "%02x", h[k]);
	for (p = 0; p < g->nplayers; p++) {
		me = player_name(g, p);
		if (!text_open(&b))
			return nomem();
		fprintf(b.fp, "Game %s (%s) begins.  You play %s.\n\n",
		    g->name, gstr(g->j, "ruleset"), me);
		fprintf(b.fp, "Send your orders for turn %ld before %s "
		    "(UTC).\n\nPlayers:\n", turn, dl);
		for (k = 0; k < (size_t)g->nplayers; k++)
			fprintf(b.fp, "  %s <%s>%s\n", player_name(g, (int)k),
			    player_addr(g, (int)k), (int)k == p ? " (you)" :
			    "");
		fprintf(b.fp, "Umpire: %s\n\n", g->umpire);
		fprintf(b.fp, "How to send them: reply to this mail, keeping "
		    "\"[%s turn %ld]\" in the subject, with your orders in "
		    "its text under the line \"arbiter orders %s turn %ld\", "
		    "one order a line (arbiter-orders(5)), or with a JSON "
		    "orders file attached.  Each mail is acknowledged with "
		    "the orders as understood; a later mail replaces an "
		    "earlier one; a player who sends nothing holds.  The map "
		    "is attached: \"arbiter --check map.json orders.txt\" "
		    "checks your orders, \"arbiter --reach UNIT map.json\" "
		    "shows where a unit can go.\n\n", g->name, turn, me, turn);
		fprintf(b.fp, "Your orders, to fill in (the lines with # are "
		    "notes):\n\narbiter orders %s turn %ld map %s\n", me, turn,
		    hex);
		n = 0;
		json_array_foreach(json_object_get(mj, "units"), i, u) {
			if (!json_is_string(json_object_get(u, "player")) ||
			    strcmp(json_string_value(json_object_get(u,
			    "player")), me) != 0)
				continue;
			n++;
			fprintf(b.fp, "# %s %s", gstr(u, "id") != NULL ?
			    gstr(u, "id") : "?", gstr(u, "type") != NULL ?
			    gstr(u, "type") : "");
			if (json_is_string(at = json_object_get(u, "at")))
				fprintf(b.fp, " at %s", json_string_value(at));
			else if ((pose = json_object_get(u, "pose")) != NULL)
				fprintf(b.fp, " at x %g, y %g, facing %g",
				    json_number_value(json_object_get(pose,
				    "x")), json_number_value(json_object_get(
				    pose, "y")), json_number_value(
				    json_object_get(pose, "facing")));
			if (json_is_integer(json_object_get(u, "strength")))
				fprintf(b.fp, ", strength %lld", (long long)
				    json_integer_value(json_object_get(u,
				    "strength")));
			fputc('\n', b.fp);
		}
		if (n == 0)
			fprintf(b.fp, "# (no units on the map)\n");
		fprintf(b.fp, "end\n");
		if (!text_close(&b)) {
			free(b.s);
			return nomem();
		}
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] the game "
		    "begins: your orders for turn %ld", g->name, turn, turn);
		rc = queue(g, "open", player_addr(g, p), turn, me, subject,
		    b.s, NULL, attach);
		free(b.s);
		if (rc != 0)
			return nomem();
	}
	return 0;
}

static int
cmd_new(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "player", required_argument, NULL, 'p' },
		{ "umpire", required_argument, NULL, 'u' },
		{ "from", required_argument, NULL, 'f' },
		{ "period", required_argument, NULL, 'P' },
		{ "deadline", required_argument, NULL, 'd' },
		{ "game", required_argument, NULL, 'g' },
		{ "send-command", required_argument, NULL, 's' },
		{ "no-early", no_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	struct arb_turn	*t = NULL;
	struct arb_error e;
	unsigned char	 key[ARB_SECRET_LEN];
	char		 hex[2 * ARB_SECRET_LEN + 2], map[PATH_MAX], tn[32];
	char		 dl[32], path[PATH_MAX], *text = NULL, *end, gname[256];
	const char	*umpire = "umpire@localhost", *from = NULL;
	const char	*game = NULL;
	const char	*sendcmd = "sendmail -t -i", *deadline = NULL, *s;
	char		*players[256];
	json_t		*j = NULL, *ps, *mj = NULL;
	size_t		 len;
	long		 period = 7, turn;
	int		 np = 0, c, i, k, rc, cwd = -1;
	bool		 early = true, made = false, in = false, hadlock = false;

	memset(&g, 0, sizeof(g));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'p':
			if (np == 256 || strchr(optarg, '=') == NULL) {
				fprintf(stderr, "%s: game new: --player "
				    "NAME=ADDRESS\n", progname);
				return EXIT_USAGE;
			}
			players[np++] = optarg;
			break;
		case 'u':
			umpire = optarg;
			break;
		case 'f':
			from = optarg;
			break;
		case 'P':
			period = strtol(optarg, &end, 10);
			if (*end != '\0' || period < 1 || period > 3650) {
				fprintf(stderr, "%s: game new: --period: "
				    "days, from 1 to 3650\n", progname);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			deadline = optarg;
			break;
		case 'g':
			game = optarg;
			break;
		case 's':
			sendcmd = optarg;
			break;
		case 'E':
			early = false;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 2 || np == 0) {
		fprintf(stderr, "usage: %s game new DIR MAP --player "
		    "NAME=ADDRESS ... [--umpire ADDRESS] [--from ADDRESS] "
		    "[--period DAYS] [--deadline TIME] [--game NAME] "
		    "[--send-command CMD] [--no-early]\n", progname);
		return EXIT_USAGE;
	}
	if (!get_now(&g))
		return EXIT_USAGE;
	if (deadline != NULL && !parse_iso(deadline, &g.deadline)) {
		fprintf(stderr, "%s: game new: --deadline: expected "
		    "YYYY-MM-DDTHH:MM:SSZ\n", progname);
		return EXIT_USAGE;
	}
	if (deadline == NULL)
		g.deadline = g.now + period * 86400;
	if (!safe_addr(umpire) || (from != NULL && !safe_addr(from))) {
		fprintf(stderr, "%s: game new: a bad mail address: %s\n",
		    progname, safe_addr(umpire) ? from : umpire);
		return EXIT_USAGE;
	}
	if (realpath(argv[optind + 1], map) == NULL) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind + 1], strerror(errno));
		return EXIT_NOINPUT;
	}
	if (game == NULL) {
		/* The folder's name. */
		xsnprintf(path, sizeof(path), "%s", argv[optind]);
		while ((len = strlen(path)) > 1 && path[len - 1] == '/')
			path[len - 1] = '\0';
		xsnprintf(gname, sizeof(gname), "%s", strrchr(path, '/') !=
		    NULL ? strrchr(path, '/') + 1 : path);
		game = gname;
	}
	/* The name is the subject tag "[NAME turn N]" that players' replies
	 * keep and mail filters match: printable ASCII without brackets or
	 * spaces, which no mail header encodes (RFC 2047 would encode a
	 * word of other characters whole, tag and all). */
	for (s = game; *s != '\0'; s++)
		if (*s <= ' ' || *s > '~' || *s == '[' || *s == ']')
			break;
	if (*s != '\0' || *game == '\0' || strlen(game) > 64) {
		fprintf(stderr, "%s: game new: the game's name \"%s\" is its "
		    "mails' subject tag: up to 64 printable ASCII characters, "
		    "no space or bracket (--game NAME)\n", progname, game);
		return EXIT_USAGE;
	}
	/* A new that fails leaves what was there: the folder it made and
	 * the lock it made are removed. */
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: game new: .: %s\n", progname,
		    strerror(errno));
		return EXIT_NOINPUT;
	}
	if (mkdir(argv[optind], 0755) == 0)
		made = true;
	else if (errno != EEXIST) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind], strerror(errno));
		close(cwd);
		return EXIT_CANTCREAT;
	}
	if (chdir(argv[optind]) != 0) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind], strerror(errno));
		rc = EXIT_NOINPUT;
		goto out;
	}
	in = true;
	hadlock = exists("lock");
	if ((rc = lock_dir(true)) != 0)
		goto out;
	if (exists("game.json")) {
		fprintf(stderr, "%s: game new: %s is a game already\n",
		    progname, argv[optind]);
		hadlock = true;		/* the game's own */
		rc = EXIT_CANTCREAT;
		goto out;
	}
	/* A folder that holds other files is not made a game's. */
	{
		char	**v;
		size_t	 n, m;
		bool	 other = false;

		v = list_dir(".", &n);
		for (m = 0; m < n; m++)
			if (strcmp(v[m], "lock") != 0)
				other = true;
		free_list(v, n);
		if (other) {
			fprintf(stderr, "%s: game new: %s is not empty\n",
			    progname, argv[optind]);
			rc = EXIT_CANTCREAT;
			goto out;
		}
	}
	no_dumps();
	if (arb_secret_new(key) != 0) {
		fprintf(stderr, "%s: game new: no random source\n", progname);
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < ARB_SECRET_LEN; i++)
		sprintf(hex + 2 * i, "%02x", key[i]);
	wipe(key, sizeof(key));
	hex[2 * ARB_SECRET_LEN] = '\n';
	hex[2 * ARB_SECRET_LEN + 1] = '\0';
	if (mkdirs(STAGE "/turns", true) != 0 || wfile(STAGE "/umpire.key",
	    hex, strlen(hex)) != 0 || chmod(STAGE "/umpire.key", 0600) != 0) {
		wipe(hex, sizeof(hex));
		rc = cantwrite(STAGE "/umpire.key");
		goto out;
	}
	wipe(hex, sizeof(hex));
	/* The map committed to its dice (arbiter --commit), which checks it
	 * as arbiter would. */
	if ((rc = commit_map(STAGE "/umpire.key", game, map,
	    STAGE "/map.json")) != 0)
		goto out;
	rc = EXIT_DATA;
	if ((text = readall(STAGE "/map.json", &len)) == NULL ||
	    (mj = json_loadb(text, len, 0, NULL)) == NULL ||
	    (t = arb_turn_new()) == NULL) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_load_map(t, "map.json", text, len, &e) != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	turn = jint(mj, "turn", 1);
	/* Every player of the map has one address; every name given is a
	 * player's; a name that cannot name a file is refused. */
	ps = json_array();
	for (k = 0; (s = arb_turn_player(t, k)) != NULL; k++) {
		const char	*addr = NULL;

		if (!safe_name(s)) {
			fprintf(stderr, "%s: game new: player \"%s\" cannot "
			    "name a file (letters, digits, '-', '_', '.', not "
			    "first)\n", progname, s);
			json_decref(ps);
			goto out;
		}
		for (i = 0; i < np; i++) {
			size_t	 n = (size_t)(strchr(players[i], '=') -
			    players[i]);

			if (strlen(s) == n && strncmp(players[i], s, n) == 0)
				addr = players[i] + n + 1;
		}
		if (addr == NULL || !safe_addr(addr)) {
			fprintf(stderr, "%s: game new: player %s needs %s "
			    "mail address: --player %s=ADDRESS\n", progname,
			    s, addr == NULL ? "a" : "a good", s);
			json_decref(ps);
			rc = EXIT_USAGE;
			goto out;
		}
		json_array_append_new(ps, json_pack("{s:s, s:s}", "name", s,
		    "address", addr));
	}
	/* Mail is filed by its sender: one player an address. */
	for (i = 0; i < np; i++)
		for (c = 0; c < i; c++)
			if (strcasecmp(strchr(players[i], '=') + 1,
			    strchr(players[c], '=') + 1) == 0) {
				fprintf(stderr, "%s: game new: --player %s "
				    "and --player %s: one address for two "
				    "players (mail is filed by its sender)\n",
				    progname, players[c], players[i]);
				json_decref(ps);
				rc = EXIT_USAGE;
				goto out;
			}
	for (i = 0; i < np; i++) {
		char	 nm[256];

		xsnprintf(nm, sizeof(nm), "%.*s", (int)(strchr(players[i],
		    '=') - players[i]), players[i]);
		if (arb_turn_find_player(t, nm, &s) < 0) {
			fprintf(stderr, "%s: game new: --player: no player "
			    "\"%s\" on this map\n", progname, nm);
			json_decref(ps);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	iso(g.deadline, dl, sizeof(dl));
	j = json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:i, s:b, s:i, s:s, "
	    "s:i}", "game", game, "ruleset", arb_turn_ruleset(t), "players",
	    ps, "umpire", umpire, "from", from != NULL ? from : umpire,
	    "send_command", sendcmd, "period_days", (int)period, "early",
	    early, "turn", (int)turn, "deadline", dl, "redone", 0);
	if (j == NULL) {
		rc = nomem();
		goto out;
	}
	g.j = j;
	g.name = game;
	game_turnname(turn, tn, sizeof(tn));
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/map.json", tn);
	if (mkdirs(path, false) != 0 || rename(STAGE "/map.json", path) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/mail", tn);
	if (mkdirs(path, true) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/orders", tn);
	if (mkdirs(path, true) != 0 || mkdirs(STAGE "/aside", true) != 0 ||
	    mkdirs(STAGE "/outbox", true) != 0 ||
	    mkdirs(STAGE "/sent", true) != 0) {
		rc = cantwrite(STAGE);
		goto out;
	}
	plan_add(&g, STAGE "/turns", "turns");
	plan_add(&g, STAGE "/aside", "aside");
	plan_add(&g, STAGE "/outbox", "outbox");
	plan_add(&g, STAGE "/sent", "sent");
	plan_add(&g, STAGE "/umpire.key", "umpire.key");
	/* Each player's opening mail, queued in the outbox planned above
	 * (its files are moved with it; their own moves then find them
	 * gone, which the commit takes as done). */
	g.umpire = umpire;
	g.from = from != NULL ? from : umpire;
	g.nplayers = (int)json_array_size(ps);
	g.seq = 1;
	xsnprintf(path, sizeof(path), "turns/%s/map.json", tn);
	if ((rc = open_mails(&g, mj, text, len, turn, dl, path)) != 0)
		goto out;
	/* The history page, of no turn yet. */
	if ((rc = stage_page(&g, 0)) != 0 ||
	    (rc = stage_game(&g, turn, g.deadline, 0, 0)) != 0)
		goto out;
	if ((rc = gm_commit(&g)) != 0)
		goto out;
	printf("game %s: turn %ld opens, deadline %s; players:", game, turn,
	    dl);
	for (k = 0; (s = arb_turn_player(t, k)) != NULL; k++)
		printf(" %s", s);
	printf("\n");
	rc = 0;
out:
	if (rc != 0 && in) {
		rm_rf(STAGE);
		if (!hadlock)
			unlink("lock");
	}
	if (cwd >= 0) {
		if (fchdir(cwd) == 0 && rc != 0 && made)
			rmdir(argv[optind]);
		close(cwd);
	}
	arb_turn_free(t);
	json_decref(mj);
	json_decref(j);
	free(g.plan);
	free(text);
	return rc;
}


static int
count_orders(struct game *g, long turn)
{
	char	 path[PATH_MAX], tn[32];
	int	 i, n = 0;

	game_turnname(turn, tn, sizeof(tn));
	for (i = 0; i < g->nplayers; i++) {
		xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn,
		    player_name(g, i));
		if (exists(path))
			n++;
	}
	return n;
}

/* Reads standard input: at most max bytes kept, the rest read and
 * counted in *total. */
static char *
read_stdin(size_t max, size_t *len, size_t *total)
{
	char	*buf, drain[65536];
	size_t	 n = 0, r;

	if ((buf = malloc(max + 1)) == NULL)
		return NULL;
	while (n < max && (r = fread(buf + n, 1, max - n, stdin)) > 0)
		n += r;
	*len = n;
	*total = n;
	while ((r = fread(drain, 1, sizeof(drain), stdin)) > 0)
		*total += r;
	buf[n] = '\0';
	return buf;
}

/* Whether a mail with this text is filed already, anywhere in DIR: in a
 * turn's mail/ or aside/.  Its path in found. */
static bool
filed(const char *buf, size_t len, const char *sha8, char *found,
    size_t size)
{
	char		**turns, **names, dir[PATH_MAX], path[PATH_MAX];
	char		*other;
	size_t		 nt, nn, i, k, olen, sl = strlen(sha8);
	bool		 yes = false;

	turns = list_dir("turns", &nt);
	for (i = 0; i <= nt && !yes; i++) {
		if (i < nt)
			xsnprintf(dir, sizeof(dir), "turns/%s/mail", turns[i]);
		else
			xsnprintf(dir, sizeof(dir), "aside");
		names = list_dir(dir, &nn);
		for (k = 0; k < nn && !yes; k++) {
			size_t	 l = strlen(names[k]);

			if (l < sl + 4 || strncmp(names[k] + l - sl - 4,
			    sha8, sl) != 0)
				continue;
			xsnprintf(path, sizeof(path), "%s/%s", dir, names[k]);
			if ((other = readall(path, &olen)) == NULL)
				continue;
			if (olen == len && memcmp(other, buf, len) == 0) {
				yes = true;
				xsnprintf(found, size, "%s", path);
			}
			free(other);
		}
		free_list(names, nn);
	}
	free_list(turns, nt);
	return yes;
}

/* The mail filed aside (aside/NAME.eml and NAME.why) and, unless quiet,
 * the umpire told. */
static int
aside_as(struct game *g, const char *name, const char *buf, size_t len,
    const char *why, const char *detail, bool quiet)
{
	char	 path[PATH_MAX], dst[PATH_MAX], line[600], body[2048];
	char	 subject[256];
	json_t	*w;

	xsnprintf(path, sizeof(path), STAGE "/%s.eml", name);
	xsnprintf(dst, sizeof(dst), "aside/%s.eml", name);
	if (wfile(path, buf, len) != 0 || plan_add(g, path, dst) != 0)
		return cantwrite(path);
	/* The reason on one line, without what the mail could inject. */
	xsnprintf(line, sizeof(line), "%s%s%s", why, detail != NULL ? ": " :
	    "", detail != NULL ? detail : "");
	if ((w = cleans(line, true)) == NULL)
		return nomem();
	xsnprintf(line, sizeof(line), "%s\n", json_string_value(w));
	xsnprintf(path, sizeof(path), STAGE "/%s.why", name);
	xsnprintf(dst, sizeof(dst), "aside/%s.why", name);
	if (wfile(path, line, strlen(line)) != 0 ||
	    plan_add(g, path, dst) != 0) {
		json_decref(w);
		return cantwrite(path);
	}
	xsnprintf(body, sizeof(body), "A mail was filed aside, not read as "
	    "orders:\n\n  aside/%s.eml\n  why: %s\n\nNothing else was done "
	    "with it.  If it holds a player's orders, save them as the "
	    "player's and give them to arbiter game receive again, or answer "
	    "the sender.\n", name, json_string_value(w));
	xsnprintf(subject, sizeof(subject), "[%s turn %ld] a mail filed aside",
	    g->name, g->turn);
	json_decref(w);
	if (!quiet && queue(g, "aside", g->umpire, g->turn, NULL, subject,
	    body, NULL, NULL) != 0)
		return cantwrite(STAGE "/outbox");
	printf("filed aside as aside/%s.eml: %s\n", name, why);
	return 0;
}

static int
aside(struct game *g, const char *name, const char *buf, size_t len,
    const char *why, const char *detail)
{
	return aside_as(g, name, buf, len, why, detail, false);
}

/* When a mail filed in turn tn's mail/ was received, from its name
 * (YYYYMMDDTHHMMSSZ-SHA8.eml); 0 when it is not there. */
static time_t
received_at(const char *buf, size_t len, const char *tn)
{
	unsigned char	 sum[crypto_hash_sha256_BYTES];
	char		 dir[PATH_MAX], sha8[9], when[32], **v;
	size_t		 n, k, l;
	time_t		 t = 0;

	crypto_hash_sha256(sum, (const unsigned char *)buf, len);
	xsnprintf(sha8, sizeof(sha8), "%02x%02x%02x%02x", sum[0], sum[1],
	    sum[2], sum[3]);
	xsnprintf(dir, sizeof(dir), "turns/%s/mail", tn);
	v = list_dir(dir, &n);
	for (k = 0; k < n && t == 0; k++) {
		l = strlen(v[k]);
		if (l != 16 + 1 + 8 + 4 || strncmp(v[k] + 17, sha8, 8) != 0)
			continue;
		/* YYYYMMDDTHHMMSSZ as YYYY-MM-DDTHH:MM:SSZ */
		xsnprintf(when, sizeof(when), "%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ",
		    v[k], v[k] + 4, v[k] + 6, v[k] + 9, v[k] + 11, v[k] + 13);
		if (!parse_iso(when, &t))
			t = 0;
	}
	free_list(v, n);
	return t;
}

/* The lines of s, each after prefix, at most ACK_LINES of them, then how
 * many more: an acknowledgement of a mail of many thousand orders stays a
 * mail that send takes (its description at most 4 MB). */
#define ACK_LINES	400
static void
capped(FILE *fp, const char *s, const char *prefix)
{
	const char	*nl;
	long		 n = 0, more = 0;

	while (*s != '\0') {
		nl = strchr(s, '\n');
		if (n++ < ACK_LINES)
			fprintf(fp, "%s%.*s\n", prefix, (int)(nl != NULL ?
			    nl - s : (long)strlen(s)), s);
		else
			more++;
		s = nl != NULL ? nl + 1 : s + strlen(s);
	}
	if (more > 0)
		fprintf(fp, "%s... and %ld more line%s (arbiter --check gives "
		    "them all)\n", prefix, more, more == 1 ? "" : "s");
}

static void
indent(FILE *fp, const char *s)
{
	capped(fp, s, "  ");
}

/* receive DIR < mail */
static int
cmd_receive(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "max-size", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	struct head	 h, old;
	struct check	 ck;
	struct text	 body;
	unsigned char	 sum[crypto_hash_sha256_BYTES];
	char		 name[64], sha8[9], found[PATH_MAX], tn[32];
	char		 path[PATH_MAX], dst[PATH_MAX], detail[600], date[32];
	char		 odate[32], dl[32], subject[256], *buf, *map = NULL;
	char		*end;
	const char	*why, *player = NULL, *subj;
	size_t		 len, total, maplen, max = MAXMAIL;
	json_t		*sj = NULL;
	int		 c, i, rc, had, n, pi = 0;
	bool		 noorders, older = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'm':
			max = strtoul(optarg, &end, 10);
			if (*end != '\0' || max < 1024 || max > 1L << 30) {
				fprintf(stderr, "%s: game receive: "
				    "--max-size: bytes, from 1024 to 2^30\n",
				    progname);
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s game receive DIR [--max-size "
		    "BYTES] < mail\n", progname);
		return EXIT_USAGE;
	}
	if ((buf = read_stdin(max, &len, &total)) == NULL)
		return nomem();
	memset(&h, 0, sizeof(h));
	memset(&old, 0, sizeof(old));
	memset(&ck, 0, sizeof(ck));
	if ((rc = enter(argv[optind], &g, true)) != 0) {
		free(buf);
		leave(&g);
		return rc == EXIT_CANTCREAT ? EXIT_TEMPFAIL : rc;
	}
	crypto_hash_sha256(sum, (const unsigned char *)buf, len);
	xsnprintf(sha8, sizeof(sha8), "%02x%02x%02x%02x", sum[0], sum[1],
	    sum[2], sum[3]);
	xsnprintf(name, sizeof(name), "%s-%s", g.stamp, sha8);
	game_turnname(g.turn, tn, sizeof(tn));
	if (filed(buf, len, sha8, found, sizeof(found))) {
		printf("filed already as %s: nothing done\n", found);
		rc = 0;
		goto out;
	}
	if (mkdirs(STAGE, true) != 0) {
		rc = cantwrite(STAGE);
		goto out;
	}
	if (total > len) {
		xsnprintf(detail, sizeof(detail), "%zu bytes, more than %zu; "
		    "the first %zu kept", total, max, len);
		rc = aside(&g, name, buf, len, "too large", detail);
		goto commit;
	}
	if (memchr(buf, '\0', len) != NULL) {
		rc = aside(&g, name, buf, len, "unreadable", "a NUL byte in "
		    "the mail");
		goto commit;
	}
	if (head_read(buf, len, &h, &why) != 0) {
		rc = aside(&g, name, buf, len, why, NULL);
		goto commit;
	}
	for (i = 0; i < g.nplayers; i++)
		if (strcasecmp(h.from, player_addr(&g, i)) == 0) {
			player = player_name(&g, i);
			pi = i;
		}
	/* A mail made by a program (every mail the game sends says so), or
	 * the game's own come back (its From is the game's, and no
	 * player's: an umpire who plays sends orders from it): filed aside
	 * and not answered, or the game and a mail system, or the game and
	 * itself, would write to each other for ever. */
	if (h.automatic || (player == NULL && g.from != NULL &&
	    strcasecmp(h.from, g.from) == 0)) {
		rc = aside_as(&g, name, buf, len, h.automatic ? "made by a "
		    "program (Auto-Submitted), not answered" : "the game's own "
		    "mail, not answered", h.from, true);
		goto commit;
	}
	if (player == NULL) {
		rc = aside(&g, name, buf, len, "unknown sender", h.from);
		goto commit;
	}
	/* The open turn's map that cannot be read (the umpire's to mend,
	 * said above), or memory run out: the mail is filed aside and the
	 * umpire told, never lost to a bounce. */
	xsnprintf(path, sizeof(path), "orders/%s.eml", player);
	if ((rc = read_map(&g, &map, &maplen)) != 0 ||
	    (rc = check_orders(map, maplen, player, path, buf, len,
	    &ck)) != 0) {
		if (rc == EXIT_CANTCREAT || rc == EXIT_TEMPFAIL)
			goto out;
		xsnprintf(detail, sizeof(detail), "the open turn (turns/%04ld) "
		    "could not be read, exit status %d: mend it, then give "
		    "this mail to receive again", g.turn, rc);
		rc = aside(&g, name, buf, len, "not read", detail);
		goto commit;
	}
	/* The subject, quoted in the acknowledgement, on one line. */
	if ((sj = cleans(h.subject != NULL ? h.subject : "", true)) == NULL) {
		rc = nomem();
		goto out;
	}
	subj = json_string_value(sj);
	if (strcmp(ck.reason, "bad_mail") == 0 || (strcmp(ck.reason,
	    "wrong_turn") == 0 && ck.turn > 0 && ck.turn < g.turn)) {
		bool	 late = strcmp(ck.reason, "bad_mail") != 0;

		if (late)
			xsnprintf(detail, sizeof(detail), "orders for turn "
			    "%ld, from %s; the open turn is %ld", ck.turn,
			    player, g.turn);
		else
			xsnprintf(detail, sizeof(detail), "from %s", player);
		if ((rc = aside(&g, name, buf, len, late ? "turn already run" :
		    "unreadable", detail)) != 0)
			goto out;
		if (!text_open(&body)) {
			rc = nomem();
			goto out;
		}
		fprintf(body.fp, "Game %s, turn %ld.\n\nYour mail \"%s\" %s, "
		    "so it was not read as orders: it was filed aside for the "
		    "umpire.\n", g.name, g.turn, subj, late ?
		    "holds orders for a turn that has been run already" :
		    "could not be read as a mail");
		if (ck.report != NULL && *ck.report != '\0') {
			fputc('\n', body.fp);
			capped(body.fp, ck.report, "");
		}
		if (!text_close(&body)) {
			free(body.s);
			rc = nomem();
			goto out;
		}
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] your mail "
		    "was not read", g.name, g.turn);
		rc = queue(&g, "ack", player_addr(&g, pi), g.turn, player,
		    subject, body.s, h.msgid, NULL);
		free(body.s);
		goto commit;
	}
	noorders = strcmp(ck.reason, "not_orders") == 0 ||
	    strcmp(ck.reason, "no_orders") == 0 ||
	    strcmp(ck.reason, "html_only") == 0;
	/* A mail is no later than its receipt: a Date ahead of the clock
	 * would make every later mail of the player older. */
	if (!h.dated || h.date > g.now)
		h.date = g.now;
	iso(h.date, date, sizeof(date));
	xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn, player);
	had = exists(path);
	if (had) {
		char	*ob;
		size_t	 ol;
		const char *ow;

		if ((ob = readall(path, &ol)) != NULL) {
			if (head_read(ob, ol, &old, &ow) == 0) {
				time_t	 rt = received_at(ob, ol, tn);

				if (rt == 0)
					rt = g.now;

				if (!old.dated || old.date > rt)
					old.date = rt;
				older = old.date > h.date;
			}
			free(ob);
		}
		iso(old.date, odate, sizeof(odate));
	}
	xsnprintf(path, sizeof(path), STAGE "/mail.eml");
	xsnprintf(dst, sizeof(dst), "turns/%s/mail/%s.eml", tn, name);
	if (wfile(path, buf, len) != 0 || plan_add(&g, path, dst) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	if (!noorders && !older) {
		xsnprintf(dst, sizeof(dst), "turns/%s/orders/%s.eml", tn,
		    player);
		if (stage_copy(STAGE "/mail.eml", STAGE "/orders.eml") != 0 ||
		    plan_add(&g, STAGE "/orders.eml", dst) != 0) {
			rc = cantwrite(STAGE "/orders.eml");
			goto out;
		}
	}
	/* An older mail's orders do not count: its problems are named at
	 * the file it is kept as (mail/NAME.eml), not at the player's
	 * orders. */
	if (older) {
		char	 mp[PATH_MAX];

		check_free(&ck);
		xsnprintf(mp, sizeof(mp), "mail/%s.eml", name);
		if ((rc = check_orders(map, maplen, player, mp, buf, len,
		    &ck)) != 0)
			goto out;
	}
	n = count_orders(&g, g.turn) + (!had && !noorders && !older ? 1 : 0);
	iso(g.deadline, dl, sizeof(dl));
	if (!text_open(&body)) {
		rc = nomem();
		goto out;
	}
	fprintf(body.fp, "Game %s, turn %ld, deadline %s.\n\n", g.name,
	    g.turn, dl);
	fprintf(body.fp, "Your mail \"%s\", dated %s, was received and "
	    "filed as turns/%s/mail/%s.eml.\n", subj, date, tn, name);
	if (older)
		fprintf(body.fp, "\nIt is older than the mail whose orders "
		    "count (dated %s): an older mail arriving late does not "
		    "replace a newer one, so the orders of the newer mail "
		    "still count, and the orders below do not.\n", odate);
	else if (noorders && had)
		fprintf(body.fp, "\nNo orders were found in it (%s), so the "
		    "orders you sent before still count.\n", ck.reason);
	else if (noorders)
		fprintf(body.fp, "\nNo orders were found in it (%s): you have "
		    "no orders for this turn yet.  Write them under a line "
		    "\"arbiter orders %s turn %ld\", or attach a JSON orders "
		    "file, and send them before the deadline.\n", ck.reason,
		    player, g.turn);
	else
		fprintf(body.fp, "\nThese orders now count for turn %ld%s.\n",
		    g.turn, had ? ", in place of those you sent before" : "");
	if (!noorders) {
		fprintf(body.fp, "\nYour orders as understood:\n\n");
		if (ck.canon != NULL)
			indent(body.fp, ck.canon);
		else
			fprintf(body.fp, "  (none could be read)\n");
	}
	/* A mail without orders: nothing to check, nothing to correct. */
	if (!noorders) {
		fprintf(body.fp, "\nThe orders checked against the turn's "
		    "map:\n");
		if (ck.report != NULL && *ck.report != '\0')
			capped(body.fp, ck.report, "");
		else
			fprintf(body.fp, "  no orders\n");
		if (ck.problems > 0 && older)
			fprintf(body.fp, "\n%d problem%s in this older "
			    "mail.\n", ck.problems, ck.problems == 1 ? "" :
			    "s");
		else if (ck.problems > 0)
			fprintf(body.fp, "\n%d problem%s: correct %s and send "
			    "all your orders again before the deadline.\n",
			    ck.problems, ck.problems == 1 ? "" : "s",
			    ck.problems == 1 ? "it" : "them");
		else
			fprintf(body.fp, "\nNo problems found.\n");
	}
	fprintf(body.fp, "\n%d of %d players have sent orders for turn %ld."
	    "\n", n, g.nplayers, g.turn);
	if (!text_close(&body)) {
		free(body.s);
		rc = nomem();
		goto out;
	}
	xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s", g.name,
	    g.turn, older ? "an older mail, not used" : noorders ?
	    "no orders found" : ck.problems > 0 ?
	    "orders received, with problems" : "orders received");
	rc = queue(&g, "ack", player_addr(&g, pi), g.turn, player, subject,
	    body.s, h.msgid, NULL);
	free(body.s);
	if (rc != 0) {
		rc = cantwrite(STAGE "/outbox");
		goto out;
	}
	printf("%s: %s from %s (%d of %d players have sent orders)\n",
	    name, older ? "an older mail, filed, "
	    "not used" : noorders ? "no orders, filed" : "orders filed",
	    player, n, g.nplayers);
commit:
	if (rc == 0)
		rc = gm_commit(&g);
out:
	if (rc != 0)
		rm_rf(STAGE);
	json_decref(sj);
	check_free(&ck);
	head_free(&h);
	head_free(&old);
	free(map);
	free(buf);
	leave(&g);
	return rc == EXIT_CANTCREAT ? EXIT_TEMPFAIL : rc;
}


/* "in 2 days 3 hours" or "passed". */
static void
until(time_t now, time_t when, char *buf, size_t size)
{
	long	 d = (long)(when - now);

	if (d <= 0)
		xsnprintf(buf, size, "passed");
	else
		xsnprintf(buf, size, "in %ld day%s %ld hour%s %ld minute%s",
		    d / 86400, d / 86400 == 1 ? "" : "s", d % 86400 / 3600,
		    d % 86400 / 3600 == 1 ? "" : "s", d % 3600 / 60,
		    d % 3600 / 60 == 1 ? "" : "s");
}

/* status DIR */
static int
cmd_status(int argc, char **argv)
{
	static const char *const said[3] = { "no orders",
	    "orders with problems", "ready" };
	struct game	 g;
	int		 states[256], problems[256], i, n = 0, rc;
	size_t		 nq, na;
	char		 dl[32], left[80], **q, **a;

	if (argc != 2) {
		fprintf(stderr, "usage: %s game status DIR\n", progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[1], &g, true)) != 0 ||
	    (rc = player_states(&g, states, problems)) != 0) {
		leave(&g);
		return rc;
	}
	iso(g.deadline, dl, sizeof(dl));
	until(g.now, g.deadline, left, sizeof(left));
	printf("game %s (%s), turn %ld, deadline %s (%s)\n", g.name,
	    jget(g.j, "ruleset"), g.turn, dl, left);
	for (i = 0; i < g.nplayers; i++) {
		printf("  %s: %s", player_name(&g, i), said[states[i]]);
		if (states[i] == 1)
			printf(" (%d problem%s)", problems[i], problems[i] ==
			    1 ? "" : "s");
		printf("\n");
		n += states[i] > 0;
	}
	q = list_dir("outbox", &nq);
	a = list_dir("aside", &na);
	printf("%d of %d players have sent orders; %s; %zu mail%s queued, "
	    "%zu filed aside\n", n, g.nplayers,
	    json_is_true(json_object_get(g.j, "early")) ?
	    "the turn runs early once every player is ready" :
	    "the turn runs at its deadline", nq, nq == 1 ? "" : "s", na / 2);
	free_list(q, nq);
	free_list(a, na);
	leave(&g);
	return 0;
}

static void
game_usage(FILE *fp)
{
	fprintf(fp, "usage: %s game new DIR MAP --player NAME=ADDRESS ... "
	    "[options]\n"
	    "       %s game receive DIR < mail\n"
	    "       %s game status DIR\n"
	    "       %s game run DIR [--now] [--preview]\n"
	    "       %s game redo DIR TURN\n"
	    "       %s game send DIR\n"
	    "       %s game verify DIR\n", progname, progname, progname,
	    progname, progname, progname, progname);
}

int
game_main(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **);
	} cmds[] = {
		{ "new", cmd_new }, { "receive", cmd_receive },
		{ "status", cmd_status }, { "run", cmd_run },
		{ "redo", cmd_redo }, { "send", game_send },
		{ "verify", cmd_verify }
	};
	size_t	 i;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		game_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	signal(SIGPIPE, SIG_IGN);
	umask(022);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			int	 rc, k;

			g_mime_init();
			rc = cmds[i].fn(argc - 1, argv + 1);
			/* Which game a failure is of, in a cron job's or a
			 * league's mail of many games: the folder named, the
			 * command's first operand (getopt_long() has put its
			 * operands last, from optind). */
			k = optind + 1;
			if (rc != 0 && rc != EXIT_USAGE && optind >= 1 &&
			    k < argc && argv[k][0] != '-')
				fprintf(stderr, "%s: game %s %s: exit %d (the "
				    "messages above are of this game)\n",
				    progname, argv[1], argv[k], rc);
			return rc;
		}
	fprintf(stderr, "%s: game: no command \"%s\"\n", progname, argv[1]);
	game_usage(stderr);
	return EXIT_USAGE;
}
