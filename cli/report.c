/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * What a turn writes: its outputs (the result, the next map, the trace,
 * pictures and players' reports), the --check --text report, --for,
 * --orders-json and --orders-text, and --reach.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arbiter.h"
#include "cli.h"

/* --check --text: the result as a report a player can read in a mail. */
bool	report_text;

static const char *
jstr(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* A blank line, then prefix and text in lines of at most 72 columns. */
static void
wrap(FILE *fp, const char *prefix, const char *text)
{
	size_t	 col, n;
	bool	 first = true;	/* the first word of its line */

	fprintf(fp, "\n%s", prefix);
	col = strlen(prefix);
	while (*text != '\0') {
		n = strcspn(text, " ");
		if (!first && col + 1 + n > 72) {
			fputc('\n', fp);
			col = 0;
		} else if (!first) {
			fputc(' ', fp);
			col++;
		}
		first = false;
		fwrite(text, 1, n, fp);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', fp);
}

static void
text_report(const json_t *r, FILE *fp)
{
	const json_t	*f, *o, *pr, *rf;
	size_t		 i, k, nf, n[3] = { 0, 0, 0 };
	const char	*st;

	fprintf(fp, "arbiter --check: turn %" JSON_INTEGER_FORMAT " of %s\n",
	    json_integer_value(json_object_get(r, "turn")), jstr(r,
	    "ruleset"));
	wrap(fp, "Assumed: ", jstr(r, "assumed"));
	json_array_foreach(json_object_get(r, "files"), i, f) {
		const json_t *pl = json_object_get(f, "player");

		if (json_object_get(f, "status") == NULL)
			continue;	/* the map, the rolls: no orders */
		fprintf(fp, "\n%s (%s): %s\n", jstr(f, "file"),
		    json_is_string(pl) ? json_string_value(pl) :
		    "player not known", strcmp(jstr(f, "status"),
		    "refused") != 0 ? "read" : json_is_string(pl) ?
		    "refused whole: this player's units hold" :
		    "refused whole");
		if (strcmp(jstr(f, "status"), "refused") == 0)
			json_array_foreach(json_object_get(f, "problems"), k,
			    pr)
				fprintf(fp, "  problem: %s (%s)\n",
				    jstr(pr, "message"), jstr(pr, "reason"));
		json_array_foreach(json_object_get(r, "orders"), k, o) {
			if (strcmp(jstr(o, "file"), jstr(f, "file")) != 0)
				continue;
			st = jstr(o, "status");
			n[strcmp(st, "legal") == 0 ? 0 : strcmp(st,
			    "illegal") == 0 ? 1 : 2]++;
			fprintf(fp, "  order %s: %s", jstr(o, "id"), st);
			/* A legal order's reason only when it says more
			 * (depends_on_dice, depends_on_orders). */
			if (strcmp(st, "legal") != 0 ||
			    strcmp(jstr(o, "reason"), "ok") != 0)
				fprintf(fp, ", %s", jstr(o, "reason"));
			/* An orders text's order, as it was understood. */
			if (json_is_string(json_object_get(o, "text")))
				fprintf(fp, "\n    as read: %s", jstr(o,
				    "text"));
			fprintf(fp, "\n    %s\n", jstr(o, "message"));
		}
	}
	rf = json_object_get(r, "refused");
	i = (size_t)json_integer_value(json_object_get(rf, "orders"));
	nf = (size_t)json_integer_value(json_object_get(rf, "files"));
	fprintf(fp, "\nIn all: %zu legal, %zu illegal, %zu failed; %zu "
	    "order%s could not be read, %zu file%s refused whole.\n", n[0],
	    n[1], n[2], i, i == 1 ? "" : "s", nf, nf == 1 ? " was" :
	    "s were");
	/* As a player's letter counts: refused, ruled illegal. */
	k = n[0] + n[1] + n[2];
	fprintf(fp, "%zu order%s read, %zu refused\n", k, k == 1 ? "" : "s",
	    n[1]);
}

/* Writes the result, as a text report when asked. */
static int
write_result(struct arb_turn *t, bool trace, FILE *fp, struct arb_error *e)
{
	json_error_t	 je;
	json_t		*r;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*mem;
	int		 rc;

	if (!report_text)
		return arb_turn_write_result(t, trace ? ARB_RESULT_TRACE : 0,
		    fp, e);
	memset(e, 0, sizeof(*e));
	if ((mem = open_memstream(&buf, &len)) == NULL) {
		e->code = ARB_ENOMEM;
		snprintf(e->text, sizeof(e->text), "out of memory");
		return -1;
	}
	rc = arb_turn_write_result(t, 0, mem, e);
	if (fclose(mem) != 0 && rc == 0) {
		e->code = ARB_ENOMEM;
		snprintf(e->text, sizeof(e->text), "out of memory");
		rc = -1;
	}
	if (rc == 0) {
		if ((r = json_loadb(buf, len, 0, &je)) == NULL) {
			e->code = ARB_EINTERNAL;
			snprintf(e->text, sizeof(e->text), "the result does "
			    "not read back: %s", je.text);
			rc = -1;
		} else {
			text_report(r, fp);
			json_decref(r);
			if (ferror(fp)) {
				e->code = ARB_EWRITE;
				snprintf(e->text, sizeof(e->text), "%s",
				    strerror(errno));
				rc = -1;
			}
		}
	}
	free(buf);
	return rc;
}

/* Writes output i of the turn to fp; 0, or an exit status after a
 * message. */
static int
write_one(struct arb_turn *t, const struct out *o, int i, bool trace,
    bool textual, FILE *fp)
{
	struct arb_error e;
	int		 rc;

	arb_turn_svg_region(t, svg_region);
	switch (wkind[i]) {
	case W_RESULT:
		rc = write_result(t, trace, fp, &e);
		break;
	case W_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case W_TRACE:
		rc = wwho[i] < 0 ? arb_turn_write_trace(t, textual, fp, &e) :
		    arb_turn_write_trace_for(t, wwho[i], textual, fp, &e);
		break;
	case W_PNG:
		rc = arb_turn_write_png(t, 0, wwho[i], png_width, fp, &e);
		break;
	case W_REPLAY:
		rc = arb_turn_write_replay(t, wwho[i], fp, &e);
		break;
	case W_SHEET:
		rc = arb_turn_write_sheet(t, wwho[i], fp, &e);
		break;
	case W_SVG:
	case W_SVGNEXT:
	case W_SVGSTART:
		rc = arb_turn_write_svg(t, wkind[i] == W_SVGNEXT ?
		    ARB_SVG_NEXT : wkind[i] == W_SVGSTART ? ARB_SVG_START : 0,
		    wwho[i], fp, &e);
		break;
	default:
		rc = arb_turn_write_view(t, wwho[i], (wkind[i] == W_VIEWTEXT ?
		    ARB_VIEW_TEXT : 0) | (trace ? ARB_VIEW_TRACE : 0), fp, &e);
	}
	if (rc == 0)
		return 0;
	if (e.code != ARB_EWRITE)
		return report(&e);
	fprintf(stderr, "%s: cannot write %s: %s\n", progname,
	    fp == stdout ? "standard output" : o->path, e.text);
	return EXIT_CANTCREAT;
}

/*
 * Writes the outputs: the result, the next map, the trace (NULL names are
 * not written).  Files first, all in place or none; standard output last.
 */
int
write_all(struct arb_turn *t, const char *const names[], bool trace,
    bool textual)
{
	static struct out outs[NOUTS];
	int		 i, rc = 0;

	for (i = 0; i < nnames; i++)
		memset(&outs[i], 0, sizeof(outs[i]));
	for (i = 0; rc == 0 && i < nnames; i++)
		if (names[i] != NULL)
			rc = out_open(&outs[i], names[i], i);
	for (i = 0; rc == 0 && i < nnames; i++)
		if (outs[i].fp != NULL && outs[i].fp != stdout)
			rc = write_one(t, &outs[i], i, trace, textual,
			    outs[i].fp);
	for (i = 0; rc == 0 && i < nnames; i++)
		rc = out_finish(&outs[i]);
	if (rc == 0) {
		hold(true);
		if (!commit(outs, nnames))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	for (i = 0; i < nnames; i++)
		out_release(&outs[i]);
	/* Standard output last, once the files are safely in place. */
	for (i = 0; rc == 0 && i < nnames; i++) {
		if (names[i] == NULL || strcmp(names[i], "-") != 0)
			continue;
		rc = write_one(t, &outs[i], i, trace, textual, stdout);
		if (rc == 0 && fflush(stdout) != 0) {
			fprintf(stderr, "%s: cannot write standard output: "
			    "%s\n", progname, strerror(errno));
			rc = EXIT_CANTCREAT;
		}
	}
	return rc;
}

/*
 * --for: the player's report in place of the result (and their picture
 * for --svg), or with "all" every player's report in outdir, named
 * PLAYER.json, PLAYER.txt and, with --svg, PLAYER.svg.  An unknown
 * player is a usage error (64), with the nearest name; a player's name
 * that cannot be a file's (a slash, a control character, "." or "..")
 * is bad data (65).
 */
int
for_players(struct arb_turn *t, const char *forp, const char *outdir,
    const char *names[], char **paths, int *npaths, bool svg, bool png,
    bool next, bool svgnext, bool replay, bool sheet)
{
	/* The report, the letter, the picture (SVG and PNG), the next map,
	 * the picture of the next board, the replay page and the order
	 * sheet. */
	static const char *const ext[8] = { "json", "txt", "svg", "png",
	    "next.json", "next.svg", "replay.html", "sheet.html" };
	static const int kind[8] = { W_VIEW, W_VIEWTEXT, W_SVG, W_PNG,
	    W_NEXT, W_SVGNEXT, W_REPLAY, W_SHEET };
	const char	*hint, *name;
	const unsigned char *c;
	int		 p, i, k;

	if (outdir == NULL) {
		if ((p = arb_turn_find_player(t, forp, &hint)) < 0) {
			fprintf(stderr, "%s: --for: no player \"%s\" on this "
			    "map%s%s%s\n", progname, forp, hint != NULL ?
			    " (did you mean \"" : "", hint != NULL ? hint : "",
			    hint != NULL ? "\"?)" : "");
			return EXIT_USAGE;
		}
		/* The trace too is cut to what the player may see. */
		for (i = 0; i < nnames; i++)
			if (wkind[i] == W_VIEW || wkind[i] == W_VIEWTEXT ||
			    wkind[i] == W_SVG || wkind[i] == W_PNG ||
			    wkind[i] == W_TRACE || wkind[i] == W_REPLAY ||
			    wkind[i] == W_SHEET)
				wwho[i] = p;
		return 0;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		for (c = (const unsigned char *)name; *c != '\0'; c++)
			if (*c == '/' || *c < ' ' || *c == 127)
				break;
		if (*c != '\0' || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0) {
			fprintf(stderr, "%s: --outdir: player \"%s\" cannot "
			    "name a file\n", progname, name);
			return EXIT_DATA;
		}
		for (k = 0; k < 8; k++) {
			char	*path;

			if ((k == 2 && !svg) || (k == 3 && !png) ||
			    (k == 4 && !next) || (k == 5 && !(next && svgnext)) ||
			    (k == 6 && !replay) || (k == 7 && !(next && sheet)))
				continue;
			if (nnames >= NOUTS || (path = malloc(strlen(outdir) +
			    strlen(name) + strlen(ext[k]) + 3)) == NULL)
				return nomem();
			sprintf(path, "%s/%s.%s", outdir, name, ext[k]);
			paths[(*npaths)++] = path;
			wkind[nnames] = kind[k];
			wwho[nnames] = p;
			names[nnames++] = path;
		}
	}
	return 0;
}

/*
 * --orders-json, --orders-text map.json orders: the orders file written
 * back, as JSON or as canonical text, to standard output.
 */
int
orders_form(struct arb_turn *t, char **argv, bool text)
{
	struct arb_error e;
	char		*buf;
	size_t		 len;
	int		 rc;

	if ((buf = slurp(argv[0], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ? "<stdin>" :
	    argv[0], buf, len, &e);
	free(buf);
	if (rc != 0)
		return report(&e);
	if ((buf = slurp(argv[1], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_write_orders(t, argv[1], buf, len, text ?
	    ARB_ORDERS_TEXT : 0, stdout, &e);
	free(buf);
	if (rc != 0) {
		if (e.code != ARB_EWRITE)
			return report(&e);
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, e.text);
		return EXIT_CANTCREAT;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, strerror(errno));
		return EXIT_CANTCREAT;
	}
	return 0;
}

/*
 * --reach UNIT map.json [player=orders.json]: where the unit can end its
 * move (arbiter(1)); one output, all or nothing.
 */
int
reach_query(struct arb_turn *t, int argc, char **argv, const char *unit,
    const char **with, int nwith, const char *output, bool textual)
{
	struct operand	 op;
	struct out	 out;
	struct arb_error e;
	const char	*names[3];
	char		*text;
	size_t		 len;
	int		 rc = 0, nfiles = 0;

	memset(&op, 0, sizeof(op));
	if (argc == 2) {
		char	*eq = strchr(argv[1], '=');

		op.path = argv[1];
		if (eq != NULL && eq != argv[1] && memchr(argv[1], '/',
		    (size_t)(eq - argv[1])) == NULL) {
			*eq = '\0';
			op.player = argv[1];
			op.path = eq + 1;
		}
		if (strcmp(op.path, "-") == 0) {
			fprintf(stderr, "%s: only the map can be read from "
			    "standard input\n", progname);
			return EXIT_USAGE;
		}
	}
	names[0] = output;
	names[1] = names[2] = NULL;
	if ((rc = check_names(argv[0], &op, argc - 1, names, NULL, NULL)) !=
	    0)
		return rc;
	catch_fatal();
	if ((text = slurp(argv[0], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ? "<stdin>" :
	    argv[0], text, len, &e);
	free(text);
	if (rc != 0)
		return report_map(t, &e);
	if (!arb_turn_walks(t)) {
		fprintf(stderr, "%s: %s: %s moves on an open table, not from "
		    "cell to cell: --reach has nothing to list\n", progname,
		    argv[0], arb_turn_ruleset(t));
		return EXIT_USAGE;
	}
	if (argc == 2) {
		if ((text = slurp(op.path, &len, &rc)) == NULL)
			return rc;
		rc = arb_turn_load_orders(t, op.path, op.player, text, len,
		    &e);
		free(text);
		if (rc != 0)
			return report(&e);
		/* The orders before the unit's are played out: a file
		 * with problems would give a reach from another state
		 * than the player means, so every problem is listed and
		 * nothing is answered. */
		if (arb_turn_refused(t, &nfiles) > 0 || nfiles > 0) {
			struct arb_error pe;
			size_t	 k;

			for (k = 0; arb_turn_problem(t, k, &pe) == 0; k++)
				report(&pe);
			fprintf(stderr, "%s: --reach: %s has problems; mend "
			    "them first\n", progname, op.path);
			return EXIT_DATA;
		}
	}
	if (arb_turn_reach(t, unit, with, nwith, &e) != 0)
		return report(&e);
	memset(&out, 0, sizeof(out));
	if ((rc = out_open(&out, output, 0)) == 0 && out.fp != stdout &&
	    arb_turn_write_reach(t, textual, out.fp, &e) != 0)
		rc = e.code == ARB_EWRITE ? EXIT_CANTCREAT : report(&e);
	if (rc == 0)
		rc = out_finish(&out);
	if (rc == 0) {
		hold(true);
		if (!commit(&out, 1))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	out_release(&out);
	if (rc == 0 && strcmp(output, "-") == 0) {
		if (arb_turn_write_reach(t, textual, stdout, &e) != 0)
			rc = e.code == ARB_EWRITE ? EXIT_CANTCREAT :
			    report(&e);
		else if (fflush(stdout) != 0)
			rc = EXIT_CANTCREAT;
		if (rc == EXIT_CANTCREAT)
			fprintf(stderr, "%s: cannot write standard output: "
			    "%s\n", progname, strerror(errno));
	}
	return rc;
}
