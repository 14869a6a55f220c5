/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode's turns (arbiter-game(1)): run (and --preview) and
 * redo adjudicate a turn into the stage, with every output of its
 * folder, the summary, the mails and the history page, and commit it;
 * verify replays every turn run without the key.
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
#include <time.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <jansson.h>
#include <sodium.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"
#include "gameint.h"

/* The turn a queued mail tells of, when it is a turn's letter or summary,
 * a redo's or a preview's (the turn folder its attachments lie in, or
 * its subject's "turn N]"), or with ack, an acknowledgement's (the turn
 * its orders are for); 0 for any other (a mail filed aside), and for
 * what cannot be read. */
static long
mail_turn_of(const char *path, bool ack)
{
	json_t		*d, *f;
	const char	*kind, *file, *subj, *p;
	size_t		 i;
	long		 turn = 0;

	if ((d = json_load_file(path, 0, NULL)) == NULL)
		return 0;
	kind = json_string_value(json_object_get(d, "kind"));
	if (ack && kind != NULL && strcmp(kind, "ack") == 0) {
		subj = json_string_value(json_object_get(d, "subject"));
		if (subj != NULL && (p = strstr(subj, " turn ")) != NULL)
			turn = strtol(p + 6, NULL, 10);
	} else if (kind != NULL && (strcmp(kind, "turn") == 0 ||
	    strcmp(kind, "redo") == 0 || strcmp(kind, "preview") == 0)) {
		json_array_foreach(json_object_get(d, "attach"), i, f) {
			file = json_string_value(json_object_get(f, "file"));
			if (file != NULL && (strncmp(file, "turns/", 6) == 0 ||
			    strncmp(file, "preview/", 8) == 0))
				turn = strtol(strchr(file, '/') + 1, NULL, 10);
		}
		subj = json_string_value(json_object_get(d, "subject"));
		if (turn == 0 && subj != NULL && (p = strstr(subj, " turn ")) !=
		    NULL)
			turn = strtol(p + 6, NULL, 10);
	}
	json_decref(d);
	return turn;
}

static long
mail_turn(const char *path)
{
	return mail_turn_of(path, false);
}

/*
 * The turn's preview withdrawn (into the commit, removed with it): its
 * folder, and its mail to the umpire if still queued (a preview of a
 * turn since run, or replaced, must not go out).
 */
static void
withdraw_preview(struct game *g, long n, const char *dir)
{
	char		 path[PATH_MAX], old[PATH_MAX], **v;
	const char	*kind;
	size_t		 k, nv;
	json_t		*d;

	if (exists(dir))
		plan_add(g, dir, COMMIT "/old-preview");
	v = list_dir("outbox", &nv);
	for (k = 0; v != NULL && k < nv; k++) {
		xsnprintf(path, sizeof(path), "outbox/%s", v[k]);
		if (mail_turn(path) != n ||
		    (d = json_load_file(path, 0, NULL)) == NULL)
			continue;
		kind = json_string_value(json_object_get(d, "kind"));
		if (kind != NULL && strcmp(kind, "preview") == 0) {
			xsnprintf(old, sizeof(old), COMMIT
			    "/old-preview-mail/%s", v[k]);
			plan_add(g, path, old);
		}
		json_decref(d);
	}
	free_list(v, nv);
}

/* One output of a turn, by kind. */
enum okind { O_RESULT, O_TRACE, O_TRACEJ, O_SVG, O_PNG, O_NEXT, O_VIEW,
    O_LETTER, O_SVGNEXT, O_PNGNEXT, O_REPLAY, O_SHEET };

static int
output(struct arb_turn *t, const char *path, enum okind k, int p)
{
	struct arb_error e;
	FILE		*fp;
	int		 rc = -1;

	if ((fp = wopen(path)) == NULL)
		return cantwrite(path);
	switch (k) {
	case O_RESULT:
		rc = arb_turn_write_result(t, 0, fp, &e);
		break;
	case O_TRACE:
	case O_TRACEJ:
		rc = arb_turn_write_trace(t, k == O_TRACE, fp, &e);
		break;
	case O_SVG:
	case O_SVGNEXT:
		rc = arb_turn_write_svg(t, k == O_SVGNEXT ? ARB_SVG_NEXT : 0,
		    p, fp, &e);
		break;
	case O_PNG:
	case O_PNGNEXT:
		rc = arb_turn_write_png(t, k == O_PNGNEXT ? ARB_SVG_NEXT : 0,
		    p, 0, fp, &e);
		break;
	case O_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case O_REPLAY:
		rc = arb_turn_write_replay(t, p, fp, &e);
		break;
	case O_SHEET:
		rc = arb_turn_write_sheet(t, p, fp, &e);
		break;
	case O_VIEW:
	case O_LETTER:
		rc = arb_turn_write_view(t, p, k == O_LETTER ? ARB_VIEW_TEXT :
		    0, fp, &e);
		break;
	}
	if (rc != 0) {
		fclose(fp);
		if (e.code == ARB_EWRITE) {
			fprintf(stderr, "%s: game: cannot write %s: %s\n",
			    progname, path, e.text);
			return EXIT_CANTCREAT;
		}
		return report(&e);
	}
	if (wclose(fp, path) != 0)
		return cantwrite(path);
	return 0;
}

/* What a turn's result says of its players: who sent orders, and the
 * summary's text. */
struct turninfo {
	char	*summary;
	char	 sent[1024], none[1024];	/* names, ", "-separated */
};

static void
addname(char *list, size_t size, const char *name)
{
	size_t	 n = strlen(list);

	xsnprintf(list + n, size - n, "%s%s", n > 0 ? ", " : "", name);
}

static int
summarize(struct game *g, long n, const char *resultpath, const char *how,
    struct turninfo *ti)
{
	json_t		*r, *f, *o, *pr;
	json_error_t	 je;
	struct text	 s;
	size_t		 i, k;
	int		 p, refusals = 0;
	char		 when[32];
	bool		 sent;

	memset(ti, 0, sizeof(*ti));
	if ((r = json_load_file(resultpath, 0, &je)) == NULL) {
		fprintf(stderr, "%s: game: %s: %s\n", progname, resultpath,
		    je.text);
		return EXIT_INTERNAL;
	}
	for (p = 0; p < g->nplayers; p++) {
		sent = false;
		json_array_foreach(json_object_get(r, "files"), i, f)
			if (strcmp(jget(f, "player"), player_name(g, p)) == 0)
				sent = true;
		addname(sent ? ti->sent : ti->none, sizeof(ti->sent),
		    player_name(g, p));
	}
	if (!text_open(&s)) {
		json_decref(r);
		return nomem();
	}
	iso(g->now, when, sizeof(when));
	fprintf(s.fp, "Game %s, turn %ld (%s): the umpire's summary.\n"
	    "Run at %s%s.\n\n", g->name, n, jget(r, "ruleset"), when, how);
	fprintf(s.fp, "Orders received from: %s\n", ti->sent[0] != '\0' ?
	    ti->sent : "nobody");
	fprintf(s.fp, "No orders received from: %s\n", ti->none[0] != '\0' ?
	    ti->none : "nobody (every player sent orders)");
	fprintf(s.fp, "\nRefusals:\n");
	json_array_foreach(json_object_get(r, "files"), i, f) {
		if (strcmp(jget(f, "status"), "refused") != 0)
			continue;
		json_array_foreach(json_object_get(f, "problems"), k, pr) {
			fprintf(s.fp, "  %s: the whole file refused: %s (%s)\n",
			    jget(f, "player"), jget(pr, "message"),
			    jget(pr, "reason"));
			refusals++;
		}
	}
	json_array_foreach(json_object_get(r, "orders"), i, o) {
		if (strcmp(jget(o, "status"), "illegal") != 0 &&
		    strcmp(jget(o, "status"), "failed") != 0)
			continue;
		fprintf(s.fp, "  %s order %s: %s, %s: %s\n", jget(o, "player"),
		    jget(o, "id"), jget(o, "status"), jget(o, "reason"),
		    jget(o, "message"));
		refusals++;
	}
	if (refusals == 0)
		fprintf(s.fp, "  none\n");
	fprintf(s.fp, "\nThe orders:\n");
	i = 0;
	json_array_foreach(json_object_get(r, "orders"), k, o) {
		fprintf(s.fp, "  %s order %s: %s: %s\n", jget(o, "player"),
		    jget(o, "id"), jget(o, "status"), jget(o, "message"));
		i++;
	}
	if (i == 0)
		fprintf(s.fp, "  none\n");
	json_decref(r);
	if (!text_close(&s)) {
		free(s.s);
		return nomem();
	}
	ti->summary = s.s;
	return 0;
}

enum mode { M_RUN, M_PREVIEW, M_REDO };

/*
 * Turn n adjudicated from the files of src (map.json, orders/PLAYER.eml)
 * into out: every output of the turn's folder, and the next map as
 * nextmap.  0, or an exit status after a message.
 */
static int
adjudicate(long n, const char *src, const char *out, const char *nextmap)
{
	static const struct { const char *name; enum okind k; } umpire[] = {
		{ "result.json", O_RESULT }, { "trace.txt", O_TRACE },
		{ "trace.jsonl", O_TRACEJ }, { "turn.svg", O_SVG },
		{ "turn.png", O_PNG }, { "replay.html", O_REPLAY } }, each[] = {
		{ "letter.txt", O_LETTER }, { "report.json", O_VIEW },
		{ "turn.svg", O_SVG }, { "turn.png", O_PNG },
		{ "next.json", O_NEXT }, { "next.svg", O_SVGNEXT },
		{ "next.png", O_PNGNEXT }, { "replay.html", O_REPLAY },
		{ "sheet.html", O_SHEET } };
	struct arb_turn	*t;
	struct arb_error e;
	unsigned char	 key[ARB_SECRET_LEN];
	char		 path[PATH_MAX], *buf;
	const char	*name;
	size_t		 len, i;
	int		 p, rc;

	(void)n;
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	no_dumps();
	if ((rc = read_secret("umpire.key", key)) != 0) {
		arb_turn_free(t);
		return rc;
	}
	arb_turn_set_secret(t, key);
	wipe(key, sizeof(key));
	xsnprintf(path, sizeof(path), "%s/map.json", src);
	if ((buf = readall(path, &len)) == NULL) {
		rc = errno == ENOMEM ? nomem() : EXIT_NOINPUT;
		if (rc == EXIT_NOINPUT)
			fprintf(stderr, "%s: game: %s: %s\n", progname, path,
			    strerror(errno));
		goto out;
	}
	rc = arb_turn_load_map(t, "map.json", buf, len, &e);
	free(buf);
	if (rc != 0) {
		rc = report_map_as(t, &e, path);
		goto out;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		char	 file[PATH_MAX];

		xsnprintf(path, sizeof(path), "%s/orders/%s.eml", src, name);
		/* No mail: the player sent none, and holds.  Any other
		 * failure is the run's, never a player's silence. */
		if ((buf = readall(path, &len)) == NULL) {
			if (errno == ENOENT)
				continue;
			rc = errno == ENOMEM ? nomem() : EXIT_NOINPUT;
			if (rc == EXIT_NOINPUT)
				fprintf(stderr, "%s: game: %s: %s\n", progname,
				    path, strerror(errno));
			goto out;
		}
		xsnprintf(file, sizeof(file), "orders/%s.eml", name);
		rc = arb_turn_load_orders(t, file, name, buf, len, &e);
		free(buf);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (arb_turn_run(t, ARB_TRACE, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	for (i = 0; i < sizeof(umpire) / sizeof(umpire[0]); i++) {
		xsnprintf(path, sizeof(path), "%s/%s", out, umpire[i].name);
		if ((rc = output(t, path, umpire[i].k, -1)) != 0)
			goto out;
		if (i == 0)
			fail_at("result");
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++)
		for (i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
			xsnprintf(path, sizeof(path), "%s/players/%s/%s", out,
			    name, each[i].name);
			if ((rc = output(t, path, each[i].k, p)) != 0)
				goto out;
		}
	fail_at("players");
	rc = output(t, nextmap, O_NEXT, -1);
out:
	arb_turn_free(t);
	return rc;
}

/* The mails of a turn that was run: each player's letter, the umpire's
 * summary (or, for a preview, the umpire's alone). */
static int
turn_mails(struct game *g, long n, const char *dir, enum mode mode,
    const struct turninfo *ti, time_t deadline)
{
	char		 dl[32];
	char		 path[PATH_MAX], subject[256], a[9][PATH_MAX];
	char		 nm[5][64], *letter;
	const char	*att[16];
	struct text	 b;
	int		 i, rc;

	xsnprintf(nm[0], sizeof(nm[0]), "turn-%ld.png", n);
	xsnprintf(nm[1], sizeof(nm[1]), "turn-%ld.svg", n);
	xsnprintf(nm[2], sizeof(nm[2]), "map-turn-%ld.json", n + 1);
	xsnprintf(nm[3], sizeof(nm[3]), "replay-turn-%ld.html", n);
	xsnprintf(nm[4], sizeof(nm[4]), "orders-turn-%ld.html", n + 1);
	for (i = 0; mode != M_PREVIEW && i < g->nplayers; i++) {
		const char *pn = player_name(g, i);

		xsnprintf(path, sizeof(path), STAGE "/t/players/%s/letter.txt",
		    pn);
		if ((letter = readall(path, NULL)) == NULL)
			return cantwrite(path);
		if (!text_open(&b)) {
			free(letter);
			return nomem();
		}
		fprintf(b.fp, "Game %s, turn %ld%s.\n", g->name, n,
		    mode == M_REDO ? ": the umpire re-ran this turn, and this "
		    "letter replaces the one sent before; orders sent for "
		    "later turns must be sent again" : "");
		fprintf(b.fp, "No orders received from: %s%s.\n",
		    ti->none[0] != '\0' ? ti->none : "nobody",
		    ti->none[0] != '\0' ? " (their units held)" : "");
		iso(deadline, dl, sizeof(dl));
		fprintf(b.fp, "Orders for turn %ld are due by %s.\n\n", n + 1,
		    dl);
		fputs(letter, b.fp);
		free(letter);
		if (!text_close(&b)) {
			free(b.s);
			return nomem();
		}
		xsnprintf(a[0], sizeof(a[0]), "%s/players/%s/turn.png", dir,
		    pn);
		xsnprintf(a[1], sizeof(a[1]), "%s/players/%s/turn.svg", dir,
		    pn);
		xsnprintf(a[2], sizeof(a[2]), "%s/players/%s/next.json", dir,
		    pn);
		att[0] = a[0], att[1] = "image/png", att[2] = nm[0];
		att[3] = a[1], att[4] = "image/svg+xml", att[5] = nm[1];
		xsnprintf(a[3], sizeof(a[3]), "%s/players/%s/replay.html",
		    dir, pn);
		att[6] = a[2], att[7] = "application/json", att[8] = nm[2];
		xsnprintf(a[4], sizeof(a[4]), "%s/players/%s/sheet.html",
		    dir, pn);
		att[9] = a[3], att[10] = "text/html", att[11] = nm[3];
		att[12] = a[4], att[13] = "text/html", att[14] = nm[4];
		att[15] = NULL;
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s", g->name,
		    n, mode == M_REDO ? "the turn re-run: your letter" :
		    "your letter");
		rc = queue(g, mode == M_REDO ? "redo" : "turn",
		    player_addr(g, i), n, pn, subject, b.s, NULL, att);
		free(b.s);
		if (rc != 0)
			return cantwrite(STAGE "/outbox");
	}
	if (!text_open(&b))
		return nomem();
	if (mode == M_PREVIEW)
		fprintf(b.fp, "A preview of turn %ld: nothing was sent to the "
		    "players and the turn is still open.  Its files are in "
		    "%s; the letters are attached.\n\n", n, dir);
	fputs(ti->summary, b.fp);
	if (!text_close(&b)) {
		free(b.s);
		return nomem();
	}
	xsnprintf(a[0], sizeof(a[0]), "%s/turn.png", dir);
	xsnprintf(a[1], sizeof(a[1]), "%s/turn.svg", dir);
	xsnprintf(a[2], sizeof(a[2]), "%s/result.json", dir);
	att[0] = a[0], att[1] = "image/png", att[2] = nm[0];
	att[3] = a[1], att[4] = "image/svg+xml", att[5] = nm[1];
	att[6] = a[2], att[7] = "application/json", att[8] = "result.json";
	att[9] = NULL;
	if (mode == M_PREVIEW) {
		/* The letters, as the players would get them. */
		static const char *pa[3 * 32 + 10];
		static char pp[32][PATH_MAX], pl[32][96];
		int	 k = 9;

		memcpy(pa, att, 9 * sizeof(*att));
		for (i = 0; i < g->nplayers && i < 32; i++) {
			xsnprintf(pp[i], sizeof(pp[i]), "%s/players/%s/"
			    "letter.txt", dir, player_name(g, i));
			xsnprintf(pl[i], sizeof(pl[i]), "letter-%s.txt",
			    player_name(g, i));
			pa[k++] = pp[i];
			pa[k++] = "text/plain";
			pa[k++] = pl[i];
		}
		pa[k] = NULL;
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] preview",
		    g->name, n);
		rc = queue(g, "preview", g->umpire, n, NULL, subject, b.s,
		    NULL, pa);
	} else {
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s",
		    g->name, n, mode == M_REDO ? "the turn re-run: summary" :
		    "summary");
		rc = queue(g, mode == M_REDO ? "redo" : "turn", g->umpire, n,
		    NULL, subject, b.s, NULL, att);
	}
	free(b.s);
	return rc != 0 ? cantwrite(STAGE "/outbox") : 0;
}

/* Copies the inputs of turn folder src (map.json, mail/, orders/) into
 * dst. */
static int
link_inputs(const char *src, const char *dst)
{
	static const char *const sub[2] = { "mail", "orders" };
	char	 a[PATH_MAX], b[PATH_MAX], **v;
	size_t	 n, k;
	int	 i;

	xsnprintf(a, sizeof(a), "%s/map.json", src);
	xsnprintf(b, sizeof(b), "%s/map.json", dst);
	if (stage_copy(a, b) != 0)
		return cantwrite(b);
	for (i = 0; i < 2; i++) {
		xsnprintf(b, sizeof(b), "%s/%s", dst, sub[i]);
		if (mkdirs(b, true) != 0)
			return cantwrite(b);
		xsnprintf(a, sizeof(a), "%s/%s", src, sub[i]);
		v = list_dir(a, &n);
		for (k = 0; k < n; k++) {
			xsnprintf(a, sizeof(a), "%s/%s/%s", src, sub[i], v[k]);
			xsnprintf(b, sizeof(b), "%s/%s/%s", dst, sub[i], v[k]);
			if (stage_copy(a, b) != 0) {
				free_list(v, n);
				return cantwrite(b);
			}
		}
		free_list(v, n);
	}
	return 0;
}

/* Turn n (the open one, or for redo an earlier one) run into the stage
 * and committed. */
static int
run_turn(struct game *g, long n, enum mode mode)
{
	char		 tn[32], nn[32], src[PATH_MAX], dst[PATH_MAX];
	char		 path[PATH_MAX], dl[32], **v;
	const char	*how = "";
	struct turninfo	 ti;
	size_t		 k, nv;
	long		 m;
	time_t		 period = jint(g->j, "period_days", 7) * 86400;
	time_t		 deadline = g->now + period;
	int		 rc;

	/* Due (cron runs a turn within the hour after its deadline, or
	 * later): the next deadline is whole periods after this one, the
	 * first still ahead, so that the game keeps its hour.  Run early or
	 * redone: the period from now. */
	if (mode != M_REDO && g->deadline <= g->now && period > 0)
		deadline = g->deadline + ((g->now - g->deadline) / period + 1) *
		    period;

	memset(&ti, 0, sizeof(ti));
	game_turnname(n, tn, sizeof(tn));
	game_turnname(n + 1, nn, sizeof(nn));
	xsnprintf(src, sizeof(src), "turns/%s", tn);
	if (mkdirs(STAGE "/t", true) != 0 ||
	    mkdirs(STAGE "/next/mail", true) != 0 ||
	    mkdirs(STAGE "/next/orders", true) != 0)
		return cantwrite(STAGE);
	if ((rc = adjudicate(n, src, STAGE "/t",
	    STAGE "/next/map.json")) != 0)
		return rc;
	if (mode == M_PREVIEW)
		how = "; a preview: nothing was sent to the players";
	else if (mode == M_REDO)
		how = "; re-run by the umpire (redo)";
	if ((rc = summarize(g, n, STAGE "/t/result.json", how, &ti)) != 0)
		return rc;
	if (wfile(STAGE "/t/summary.txt", ti.summary,
	    strlen(ti.summary)) != 0) {
		rc = cantwrite(STAGE "/t/summary.txt");
		goto out;
	}
	if (mode == M_PREVIEW) {
		xsnprintf(dst, sizeof(dst), "preview/%s", tn);
		if ((rc = turn_mails(g, n, dst, mode, &ti, deadline)) != 0)
			goto out;
		/* The preview before, replaced, and its mail if still
		 * queued (it would go out with this preview's files). */
		withdraw_preview(g, n, dst);
		plan_add(g, STAGE "/t", dst);
		rc = gm_commit(g);
		if (rc == 0)
			printf("turn %ld previewed in %s: a mail to the "
			    "umpire queued; the turn is still open\n", n, dst);
		goto out;
	}
	if ((rc = turn_mails(g, n, src, mode, &ti, deadline)) != 0)
		goto out;
	if (mode == M_RUN) {
		xsnprintf(dst, sizeof(dst), "preview/%s", tn);
		withdraw_preview(g, n, dst);
		v = list_dir(STAGE "/t", &nv);
		for (k = 0; k < nv; k++) {
			xsnprintf(path, sizeof(path), STAGE "/t/%s", v[k]);
			xsnprintf(dst, sizeof(dst), "%s/%s", src, v[k]);
			plan_add(g, path, dst);
		}
		free_list(v, nv);
	} else {
		/* redo: the turn and the later ones moved aside, the turn
		 * made again from its inputs. */
		if ((rc = link_inputs(src, STAGE "/t")) != 0)
			goto out;
		/* The mails still queued for those turns (letters,
		 * summaries, previews) go aside with them, never sent:
		 * they tell the turn as it was, or name its files. */
		v = list_dir("outbox", &nv);
		for (k = 0; v != NULL && k < nv; k++) {
			/* An acknowledgement of orders for a later turn:
			 * those orders go aside with their turn. */
			xsnprintf(path, sizeof(path), "outbox/%s", v[k]);
			if (mail_turn(path) < n && mail_turn_of(path, true) <=
			    n)
				continue;
			xsnprintf(dst, sizeof(dst), "redone/outbox-%s/%s",
			    g->stamp, v[k]);
			if (plan_add(g, path, dst) != 0) {
				free_list(v, nv);
				rc = nomem();
				goto out;
			}
		}
		free_list(v, nv);
		for (m = n; m < g->turn + 1; m++) {
			char	 mn[32];

			game_turnname(m, mn, sizeof(mn));
			xsnprintf(path, sizeof(path), "turns/%s", mn);
			xsnprintf(dst, sizeof(dst), "redone/%s-%s", mn,
			    g->stamp);
			/* A name not taken: two redos within one second (or
			 * under one ARB_GAME_NOW) are -2, -3, ... */
			for (k = 2; exists(dst); k++)
				xsnprintf(dst, sizeof(dst), "redone/%s-%s-%zu",
				    mn, g->stamp, k);
			if (exists(path))
				plan_add(g, path, dst);
		}
		plan_add(g, STAGE "/t", src);
	}
	xsnprintf(dst, sizeof(dst), "turns/%s", nn);
	plan_add(g, STAGE "/next", dst);
	if ((rc = stage_game(g, n + 1, deadline, jint(g->j, "redone", 0) +
	    (mode == M_REDO), n)) != 0)
		goto out;
	rc = gm_commit(g);
	if (rc == 0) {
		iso(deadline, dl, sizeof(dl));
		printf("turn %ld %s; %d mails queued; turn %ld opens, "
		    "deadline %s\n", n, mode == M_REDO ? "re-run" : "run",
		    g->queued, n + 1, dl);
	}
out:
	free(ti.summary);
	return rc;
}

/* run DIR [--now] [--preview] */
int
cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "now", no_argument, NULL, 'n' },
		{ "preview", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	int		 states[256], problems[256], c, i, rc, ready = 0;
	bool		 now = false, preview = false;
	char		 dl[32];

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'n':
			now = true;
			break;
		case 'p':
			preview = true;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s game run DIR [--now] [--preview]\n",
		    progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[optind], &g, true)) != 0)
		goto out;
	/* Given again by hand after a failure that came after its commit:
	 * that run is finished now, and this one does no more (it would
	 * run the next turn at once). */
	if (now && game_finished) {
		printf("the command interrupted after its commit is finished "
		    "(turn %ld is open); nothing more was done: give it again "
		    "to run turn %ld now\n", g.turn, g.turn);
		goto out;
	}
	if (!now && !preview && g.now < g.deadline) {
		if ((rc = player_states(&g, states, problems)) != 0)
			goto out;
		for (i = 0; i < g.nplayers; i++)
			ready += states[i] == 2;
		iso(g.deadline, dl, sizeof(dl));
		if (!json_is_true(json_object_get(g.j, "early")) ||
		    ready < g.nplayers) {
			printf("turn %ld runs at its deadline, %s (%d of %d "
			    "players ready): nothing done\n", g.turn, dl,
			    ready, g.nplayers);
			goto out;
		}
		printf("every player is ready: turn %ld runs early\n",
		    g.turn);
	}
	rc = run_turn(&g, g.turn, preview ? M_PREVIEW : M_RUN);
out:
	if (rc != 0)
		rm_rf(STAGE);
	leave(&g);
	return rc;
}

/* redo DIR TURN */
int
cmd_redo(int argc, char **argv)
{
	struct game	 g;
	long		 n;
	char		*end, tn[32], path[PATH_MAX];
	int		 rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s game redo DIR TURN\n", progname);
		return EXIT_USAGE;
	}
	n = strtol(argv[2], &end, 10);
	if (*end != '\0' || n < 1) {
		fprintf(stderr, "%s: game redo: TURN: a turn number\n",
		    progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[1], &g, true)) != 0)
		goto out;
	if (game_finished) {
		printf("the command interrupted after its commit is finished "
		    "(turn %ld is open); nothing more was done: give the redo "
		    "again if it is still wanted\n", g.turn);
		goto out;
	}
	game_turnname(n, tn, sizeof(tn));
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	if (n >= g.turn || !exists(path)) {
		fprintf(stderr, "%s: game redo: turn %ld has not been run "
		    "(the open turn is %ld)\n", progname, n, g.turn);
		rc = EXIT_DATA;
		goto out;
	}
	rc = run_turn(&g, n, M_REDO);
out:
	if (rc != 0)
		rm_rf(STAGE);
	leave(&g);
	return rc;
}

/* A file compared with the bytes a replay wrote: NULL when the same,
 * else why not. */
static const char *
same_bytes(const char *path, const char *got, size_t gotlen, char *why,
    size_t size)
{
	char	*want;
	size_t	 len, i;

	if ((want = readall(path, &len)) == NULL) {
		xsnprintf(why, size, "%s: %s", path, strerror(errno));
		return why;
	}
	for (i = 0; i < len && i < gotlen && want[i] == got[i]; i++)
		continue;
	free(want);
	if (i == len && i == gotlen)
		return NULL;
	xsnprintf(why, size, "%s differs from the replay at byte %zu", path,
	    i);
	return why;
}

/* Turn n replayed without the key: 0 when its result, trace and next
 * map are the same bytes, 1 when not (said), else an exit status. */
static int
verify_turn(long n)
{
	struct arb_turn	*t;
	struct arb_error e;
	struct text	 r, tr, nx;
	char		 tn[32], nn[32], path[PATH_MAX], why[PATH_MAX + 64];
	char		*buf;
	const char	*name, *bad = NULL;
	size_t		 len;
	int		 p, rc;

	game_turnname(n, tn, sizeof(tn));
	game_turnname(n + 1, nn, sizeof(nn));
	memset(&r, 0, sizeof(r));
	memset(&tr, 0, sizeof(tr));
	memset(&nx, 0, sizeof(nx));
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	arb_turn_threads(t, 1);
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	/* The value the result reveals, and the next map's commitment it
	 * records (arbiter --rerun). */
	if ((rc = replay_from(t, path)) != 0)
		goto out;
	xsnprintf(path, sizeof(path), "turns/%s/map.json", tn);
	if ((buf = readall(path, &len)) == NULL) {
		rc = EXIT_NOINPUT;
		fprintf(stderr, "%s: game verify: %s: %s\n", progname, path,
		    strerror(errno));
		goto out;
	}
	rc = arb_turn_load_map(t, "map.json", buf, len, &e);
	free(buf);
	if (rc != 0) {
		rc = report_map_as(t, &e, path);
		goto out;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		char	 file[PATH_MAX];

		xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn,
		    name);
		if ((buf = readall(path, &len)) == NULL)
			continue;
		xsnprintf(file, sizeof(file), "orders/%s.eml", name);
		rc = arb_turn_load_orders(t, file, name, buf, len, &e);
		free(buf);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (arb_turn_run(t, ARB_TRACE, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if (!text_open(&r) || !text_open(&tr) || !text_open(&nx)) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_write_result(t, 0, r.fp, &e) != 0 ||
	    arb_turn_write_trace(t, 0, tr.fp, &e) != 0 ||
	    arb_turn_write_next(t, nx.fp, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if (!text_close(&r) || !text_close(&tr) || !text_close(&nx)) {
		rc = nomem();
		goto out;
	}
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	bad = same_bytes(path, r.s, r.len, why, sizeof(why));
	xsnprintf(path, sizeof(path), "turns/%s/trace.jsonl", tn);
	if (bad == NULL)
		bad = same_bytes(path, tr.s, tr.len, why, sizeof(why));
	xsnprintf(path, sizeof(path), "turns/%s/map.json", nn);
	if (bad == NULL)
		bad = same_bytes(path, nx.s, nx.len, why, sizeof(why));
	if (bad == NULL)
		printf("ok turn %ld: its result, trace and next map replay to "
		    "the same bytes without the key\n", n);
	else
		printf("not ok turn %ld: %s\n", n, bad);
	rc = bad != NULL;
out:
	if (r.fp != NULL)
		fclose(r.fp);
	if (tr.fp != NULL)
		fclose(tr.fp);
	if (nx.fp != NULL)
		fclose(nx.fp);
	free(r.s);
	free(tr.s);
	free(nx.s);
	arb_turn_free(t);
	if (rc > 1)
		printf("not ok turn %ld: it could not be replayed (above)\n",
		    n);
	return rc;
}

/* verify DIR */
int
cmd_verify(int argc, char **argv)
{
	struct game	 g;
	long		 n;
	int		 rc, bad = 0, first = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s game verify DIR\n", progname);
		return EXIT_USAGE;
	}
	/* No lock and no key: anyone with a copy of the folder can. */
	if ((rc = enter(argv[1], &g, false)) != 0) {
		leave(&g);
		return rc;
	}
	/* The game's turns are those of turns/ from the first (a game may
	 * begin at any turn its map says), to the last there: every one
	 * before the open turn of game.json has its result, and none after
	 * it is there.  A removed result, or a game.json set back, is not
	 * ok. */
	{
		char	**v;
		size_t	  nv, k;
		long	  lo = 0, hi = 0, m;
		char	 *end;

		v = list_dir("turns", &nv);
		for (k = 0; v != NULL && k < nv; k++) {
			m = strtol(v[k], &end, 10);
			if (*end != '\0' || m < 1)
				continue;
			if (lo == 0 || m < lo)
				lo = m;
			if (m > hi)
				hi = m;
		}
		free_list(v, nv);
		if (lo == 0)
			lo = g.turn;
		for (n = lo; n < g.turn || n <= hi; n++) {
			char	 tn[32], path[PATH_MAX];

			game_turnname(n, tn, sizeof(tn));
			xsnprintf(path, sizeof(path), "turns/%s/result.json",
			    tn);
			if (n >= g.turn) {
				if (n > g.turn || exists(path)) {
					printf("not ok turn %ld: in turns/, but "
					    "game.json says turn %ld is open\n",
					    n, g.turn);
					bad++;
					first = first != 0 ? first : 1;
				}
				continue;
			}
			if (!exists(path)) {
				printf("not ok turn %ld: no %s\n", n, path);
				bad++;
				first = first != 0 ? first : 1;
				continue;
			}
			rc = verify_turn(n);
			if (rc != 0) {
				bad++;
				if (first == 0)
					first = rc;
			}
		}
		n = g.turn - lo;
	}
	printf("verify: %ld turn%s, %d not ok\n", n, n == 1 ? "" : "s",
	    bad);
	leave(&g);
	return first;
}
