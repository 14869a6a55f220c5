/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The history page of a game folder, DIR/index.html (arbiter-game(1)):
 * one section per turn run, newest first, with the turn's picture, who
 * sent orders and who did not, the refusals, and links to the result,
 * the trace, the summary and each letter.  Self-contained: its style is
 * inline, every link and picture is relative to DIR.
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"

static void
esc(FILE *fp, const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		switch (*s) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			fputc(*s, fp);
		}
}

static const char *
str(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

static void
section(FILE *fp, const json_t *g, long n, const char *base)
{
	char		 tn[32], path[PATH_MAX];
	json_t		*r, *f, *o, *p, *pr;
	size_t		 i, k, nref = 0;
	struct stat	 st;
	bool		 sent;

	game_turnname(n, tn, sizeof(tn));
	snprintf(path, sizeof(path), "%.2000s/result.json", base);
	r = json_load_file(path, 0, NULL);
	fprintf(fp, "<section id=\"turn-%ld\">\n<h2>Turn %ld</h2>\n", n, n);
	fprintf(fp, "<figure><a href=\"turns/%s/turn.svg\"><img "
	    "src=\"turns/%s/turn.png\" alt=\"the board of turn %ld, as the "
	    "umpire sees it\"></a></figure>\n", tn, tn, n);
	fprintf(fp, "<table>\n<tr><th>player</th><th>orders</th>"
	    "<th>letter</th></tr>\n");
	json_array_foreach(json_object_get(g, "players"), i, p) {
		sent = false;
		json_array_foreach(json_object_get(r, "files"), k, f)
			if (strcmp(str(f, "player"), str(p, "name")) == 0)
				sent = true;
		fprintf(fp, "<tr><td>");
		esc(fp, str(p, "name"));
		fprintf(fp, "</td><td class=\"%s\">%s</td><td><a href=\""
		    "turns/%s/players/", sent ? "sent" : "none", sent ?
		    "sent orders" : "no orders received: units held", tn);
		esc(fp, str(p, "name"));
		fprintf(fp, "/letter.txt\">letter</a>, <a href=\"turns/%s/"
		    "players/", tn);
		esc(fp, str(p, "name"));
		fprintf(fp, "/report.json\">report</a></td></tr>\n");
	}
	fprintf(fp, "</table>\n<h3>Refusals</h3>\n<ul>\n");
	json_array_foreach(json_object_get(r, "files"), i, f) {
		if (strcmp(str(f, "status"), "refused") != 0)
			continue;
		json_array_foreach(json_object_get(f, "problems"), k, pr) {
			fprintf(fp, "<li>");
			esc(fp, str(f, "player"));
			fprintf(fp, ": the whole file refused: ");
			esc(fp, str(pr, "message"));
			fprintf(fp, "</li>\n");
			nref++;
		}
	}
	json_array_foreach(json_object_get(r, "orders"), i, o) {
		if (strcmp(str(o, "status"), "illegal") != 0 &&
		    strcmp(str(o, "status"), "failed") != 0)
			continue;
		fprintf(fp, "<li>");
		esc(fp, str(o, "player"));
		fprintf(fp, " order ");
		esc(fp, str(o, "id"));
		fprintf(fp, ": %s, ", strcmp(str(o, "status"), "failed") == 0 ?
		    "failed" : "illegal");
		esc(fp, str(o, "reason"));
		fprintf(fp, ": ");
		esc(fp, str(o, "message"));
		fprintf(fp, "</li>\n");
		nref++;
	}
	if (nref == 0)
		fprintf(fp, "<li>none</li>\n");
	fprintf(fp, "</ul>\n<p class=\"files\"><a href=\"turns/%s/"
	    "result.json\">result</a> &middot; <a href=\"turns/%s/"
	    "summary.txt\">summary</a> &middot; <a href=\"turns/%s/"
	    "trace.txt\">trace</a> &middot; <a href=\"turns/%s/"
	    "trace.jsonl\">trace (JSON Lines)</a> &middot; <a href=\""
	    "turns/%s/map.json\">map</a></p>\n</section>\n", tn, tn, tn, tn,
	    tn);
	(void)st;
	json_decref(r);
}

int
game_page(FILE *fp, const char *dir, const json_t *g, long staged,
    const char *stage)
{
	const json_t	*v = json_object_get(g, "turn");
	long		 open, n;
	char		 base[PATH_MAX], tn[32];
	struct stat	 st;

	open = json_is_integer(v) ? (long)json_integer_value(v) : 1;
	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>");
	esc(fp, str(g, "game"));
	fprintf(fp, ": the game's history</title>\n<style>\n"
	    "body { font-family: sans-serif; max-width: 60em; margin: auto; "
	    "padding: 1em; color: #222; background: #fff; }\n"
	    "section { border-top: 1px solid #999; margin-top: 2em; }\n"
	    "figure { margin: 1em 0; }\n"
	    "img { max-width: 100%%; height: auto; border: 1px solid #ccc; "
	    "}\n"
	    "table { border-collapse: collapse; }\n"
	    "th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; "
	    "text-align: left; }\n"
	    "td.none { color: #a00; }\n"
	    "</style>\n</head>\n<body>\n<h1>");
	esc(fp, str(g, "game"));
	fprintf(fp, "</h1>\n<p>Ruleset ");
	esc(fp, str(g, "ruleset"));
	fprintf(fp, "; turn %ld is open, its deadline ", open);
	esc(fp, str(g, "deadline"));
	fprintf(fp, ".  Umpire: ");
	esc(fp, str(g, "umpire"));
	fprintf(fp, ".</p>\n");
	for (n = open - 1; n >= 1; n--) {
		game_turnname(n, tn, sizeof(tn));
		if (n == staged)
			snprintf(base, sizeof(base), "%s", stage);
		else
			snprintf(base, sizeof(base), "%s/turns/%s", dir, tn);
		{
			char	 p[PATH_MAX];

			snprintf(p, sizeof(p), "%.2000s/result.json", base);
			if (stat(p, &st) != 0)
				continue;
		}
		section(fp, g, n, base);
	}
	fprintf(fp, "</body>\n</html>\n");
	return ferror(fp) ? -1 : 0;
}
