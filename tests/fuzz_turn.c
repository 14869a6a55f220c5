/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The fuzz target for a whole turn: a map and the orders files of several
 * players in one input.  The input is cut at every occurrence of the four
 * bytes "\n%%\n" (a line "%%", which no JSON text contains): the first
 * part is the map, each later part one orders file, at most MAXFILES of
 * them; an input with more parts is ignored.  Orders file k (from 1) is
 * named "orders/k.json" whatever its place in a run, and speaks for the
 * player it names.
 *
 * Besides running without a sanitizer report, a turn that loads must:
 *   (a) give the same bytes when run again on a fresh turn, its orders
 *	 read ahead on a second thread (arb_turn_load_map_ahead()): the
 *	 result with its trace, the next map, the trace as JSON Lines and
 *	 as text;
 *   (b) write a next map that loads again, and runs without orders;
 *   (c) run without an error: arbiter checks that the forces balance
 *	 and reports ARB_EINTERNAL when they do not (bad data found by the
 *	 run, a map committed to its dice without the key, is a refusal);
 *   (d) agree with --check (ARB_CHECK): every order whose status is
 *	 "done" in the result of the real run, matched by its "file" and
 *	 "index" members, has the status "legal" in the result of the check;
 *   (e) give the same result, next map and trace bytes when the orders
 *	 files are loaded in the reverse order;
 *   (f) draw the umpire's pictures (of the turn and of the next) here,
 *	 and in (g) one player's (the input's length modulo the players
 *	 picks the player), and write that player's report (JSON with its
 *	 trace, and text) and trace cut (JSON Lines and text): every
 *	 picture well-formed XML (checked here: one root, balanced tags,
 *	 quoted attributes, known entities, no NUL or control byte,
 *	 UTF-8) and inert (no script, foreignObject, event handler
 *	 attribute, DOCTYPE or processing instruction; every href a "#"
 *	 fragment, but on an image, where a data:image URL or the map's
 *	 own background is allowed; no url() but of a fragment), every
 *	 JSON output JSON, every text UTF-8 without NUL;
 *   (g) hide the orders: the turn once more with the map's reveal_orders
 *	 set false and every order's id replaced by a token of its own
 *	 (the map and files rewritten through jansson, when they parse):
 *	 no player's outputs of (f) hold a token of another player's
 *	 order;
 *   (h) answer a reach query (arb_turn_reach()) for the unit, or the
 *	 cell, of the first order in the result, after that player's
 *	 orders file, with one thread and with the look-ahead thread
 *	 started at once (REACH_AHEAD_ALWAYS, where the rule system has
 *	 one): the same bytes, JSON and text, or the same refusal.
 * (f) to (h) are skipped for a board too large to draw or search fast
 * (MAXDRAW, MAXLAYOUT, MAXREACH), and (g) picks among the first MAXVIEWS
 * players only, so that an input costs a millisecond or so (without the
 * sanitizers; five times the cost of (a) to (e)).
 * A broken rule is a finding: the target prints it and calls abort().
 * The environment variable FUZZ_TURN_LAX may list rule systems, separated
 * by commas, for which (e) is not checked (a known bug being fixed).
 *
 * Built by `make fuzz-turn` with clang -fsanitize=fuzzer; tests/fuzz_main.c
 * replays tests/corpus/turn/ and tests/crashes/turn/ through it in make
 * check.  See tests/fuzz/README.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "arbiter.h"
#include "format/format.h"	/* the board's size; reach_ahead() */

#define MAXFILES 8
#define MAXDRAW	1024		/* cells, or units: larger is not drawn */
#define MAXLAYOUT 64		/* territories laid out by Graphviz */
#define MAXREACH 400		/* cells of a reach query */
#define MAXVIEWS 8		/* players whose outputs are written */
#define RUN_AHEAD 0x100		/* run(): arb_turn_load_map_ahead() */
#define SEP	"\n%%\n"
#define SEPLEN	4

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct part {
	const char	*text;
	size_t		 len;
	char		 name[32];
};

enum { O_RESULT, O_NEXT, O_TRACE, O_TEXT, NOUT };

static const char *const outname[NOUT] = {
	"result", "next map", "trace", "text trace"
};

/* What one run wrote. */
struct outs {
	char	*buf[NOUT];
	size_t	 len[NOUT];
	char	 ruleset[32];
};

/* (f) and (g): what a run draws and reports, and what it must hide. */
struct extra {
	const char	 *bg;		/* the map's background, or NULL */
	int		  umpire;	/* the umpire's pictures, not the
					 * players' outputs */
	unsigned	  pick;		/* the player whose outputs are
					 * written: pick modulo the players */
	size_t		  ntok;		/* (g): the orders' tokens */
	char		**tok;
	const char	**owner;	/* the player of each, or NULL */
};

static void
finding(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_turn: finding: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	abort();
}

static void
outs_free(struct outs *o)
{
	int	 i;

	for (i = 0; i < NOUT; i++) {
		free(o->buf[i]);
		o->buf[i] = NULL;
	}
}

/* Writes one output of t into o->buf[which]; a failure is a finding. */
static void
capture(struct arb_turn *t, struct outs *o, int which, int rflags)
{
	struct arb_error e;
	FILE		*fp;
	int		 rc = -1;

	if ((fp = open_memstream(&o->buf[which], &o->len[which])) == NULL)
		finding("open_memstream", NULL);
	switch (which) {
	case O_RESULT:
		rc = arb_turn_write_result(t, rflags, fp, &e);
		break;
	case O_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case O_TRACE:
		rc = arb_turn_write_trace(t, 0, fp, &e);
		break;
	case O_TEXT:
		rc = arb_turn_write_trace(t, 1, fp, &e);
		break;
	}
	if (fclose(fp) != 0)
		finding("fclose", NULL);
	/* The last turn a map can have has no next map (arbiter-map(5)):
	 * bad data at /turn, and nothing to reload. */
	if (rc != 0 && which == O_NEXT && e.code == ARB_EDATA &&
	    strcmp(e.pointer, "/turn") == 0) {
		o->len[O_NEXT] = 0;
		return;
	}
	if (rc != 0)
		finding("cannot write the output", e.text);
}

/* Whether s[0 .. n-1] is UTF-8 (no overlong form, no surrogate) without
 * NUL. */
static int
utf8_ok(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned long	 cp;
	size_t		 i = 0, k, len;

	while (i < n) {
		if (s[i] == 0)
			return 0;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (s[i] >= 0xc2 && s[i] <= 0xdf)
			len = 1;
		else if (s[i] >= 0xe0 && s[i] <= 0xef)
			len = 2;
		else if (s[i] >= 0xf0 && s[i] <= 0xf4)
			len = 3;
		else
			return 0;
		if (n - i <= len)
			return 0;
		cp = s[i] & (0x3fu >> len);
		for (k = 1; k <= len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x800) || (len == 3 && (cp < 0x10000 ||
		    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len + 1;
	}
	return 1;
}

/* Where needle is in s[0 .. n-1], or NULL. */
static const char *
find(const char *s, size_t n, const char *needle)
{
	size_t	 k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (s[i] == needle[0] && memcmp(s + i, needle, k) == 0)
			return s + i;
	return NULL;
}

/* Whether s holds needle, in any case. */
static int
has_ci(const char *s, const char *needle)
{
	size_t	 k = strlen(needle);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, needle, k) == 0)
			return 1;
	return 0;
}

/* The XML checker of (f): a picture as arbiter writes one. */
struct xml {
	const char	*s, *end, *p;
	const char	*what;		/* which picture */
	const char	*bg;		/* the map's background, or NULL */
};

static void
xml_bad(const struct xml *x, const char *why)
{
	char	 msg[200];

	snprintf(msg, sizeof(msg), "%s: %s at byte %zu", x->what, why,
	    (size_t)(x->p - x->s));
	finding("a picture is not well-formed, or not inert", msg);
}

static int
xml_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void
xml_skip(struct xml *x)
{
	while (x->p < x->end && xml_space(*x->p))
		x->p++;
}

/* A name at x->p, passed; its length. */
static size_t
xml_name(struct xml *x)
{
	const char	*q = x->p;
	size_t		 n;

	if (q < x->end && (isalpha((unsigned char)*q) || *q == '_' ||
	    *q == ':'))
		for (q++; q < x->end && (isalnum((unsigned char)*q) ||
		    *q == '.' || *q == '_' || *q == ':' || *q == '-'); q++)
			;
	if (q == x->p)
		xml_bad(x, "a name expected");
	n = (size_t)(q - x->p);
	x->p = q;
	return n;
}

static int
xml_char(unsigned long c)
{
	return c == 9 || c == 10 || c == 13 || (c >= 0x20 && c <= 0xd7ff) ||
	    (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/* The reference at x->p ('&'), passed: the character it stands for. */
static unsigned long
xml_ref(struct xml *x)
{
	static const char *const named[] = { "lt;", "gt;", "amp;", "quot;",
		"apos;" };
	static const char chars[] = "<>&\"'";
	const char	*q = x->p + 1, *d;
	unsigned long	 c = 0;
	size_t		 n = (size_t)(x->end - q), i, k;
	int		 hex;

	if (n > 0 && *q == '#') {
		hex = n > 1 && q[1] == 'x';
		for (d = q + 1 + hex; d < x->end && c <= 0x10ffff &&
		    (hex ? isxdigit((unsigned char)*d) :
		    isdigit((unsigned char)*d)); d++)
			c = c * (hex ? 16 : 10) + (unsigned long)(isdigit(
			    (unsigned char)*d) ? *d - '0' :
			    tolower((unsigned char)*d) - 'a' + 10);
		if (d == q + 1 + hex || d >= x->end || *d != ';' ||
		    !xml_char(c))
			xml_bad(x, "a bad character reference");
		x->p = d + 1;
		return c;
	}
	for (i = 0; i < 5; i++) {
		k = strlen(named[i]);
		if (n >= k && memcmp(q, named[i], k) == 0) {
			x->p = q + k;
			return (unsigned char)chars[i];
		}
	}
	xml_bad(x, "an unknown entity, or a bare &");
	return 0;
}

/* An attribute's quoted value at x->p, passed: its text, references
 * replaced (the caller frees it). */
static char *
xml_value(struct xml *x)
{
	char		*v, *w, q;
	unsigned long	 c;

	if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
		xml_bad(x, "an attribute without a quoted value");
	q = *x->p++;
	if ((v = w = malloc((size_t)(x->end - x->p) + 1)) == NULL)
		finding("malloc", NULL);
	while (x->p < x->end && *x->p != q) {
		if (*x->p == '<')
			xml_bad(x, "a < in an attribute");
		if (*x->p != '&') {
			*w++ = *x->p++;
			continue;
		}
		c = xml_ref(x);		/* as UTF-8 */
		if (c < 0x80)
			*w++ = (char)c;
		else if (c < 0x800) {
			*w++ = (char)(0xc0 | c >> 6);
			*w++ = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			*w++ = (char)(0xe0 | c >> 12);
			*w++ = (char)(0x80 | (c >> 6 & 0x3f));
			*w++ = (char)(0x80 | (c & 0x3f));
		} else {
			*w++ = (char)(0xf0 | c >> 18);
			*w++ = (char)(0x80 | (c >> 12 & 0x3f));
			*w++ = (char)(0x80 | (c >> 6 & 0x3f));
			*w++ = (char)(0x80 | (c & 0x3f));
		}
	}
	if (x->p >= x->end)
		xml_bad(x, "an unclosed attribute value");
	x->p++;
	*w = '\0';
	return v;
}

/* A name's part after its prefix (xlink:href: href). */
static void
xml_local(const char *name, size_t n, char *out, size_t size)
{
	const char	*c = memchr(name, ':', n);

	if (c != NULL) {
		n -= (size_t)(c + 1 - name);
		name = c + 1;
	}
	snprintf(out, size, "%.*s", (int)n, name);
}

/* Inert: the attribute an (of element el, local names) with value v. */
static void
xml_inert(struct xml *x, const char *el, const char *an, const char *v)
{
	const char	*u;

	if (strncasecmp(an, "on", 2) == 0)
		xml_bad(x, "an event handler attribute");
	if (strcasecmp(an, "href") == 0 || strcasecmp(an, "src") == 0) {
		if (v[0] != '#' && !(strcasecmp(el, "image") == 0 &&
		    (strncmp(v, "data:image/", 11) == 0 || (x->bg != NULL &&
		    strcmp(v, x->bg) == 0))))
			xml_bad(x, "an href that is not a fragment, a data "
			    "image or the map's background");
	}
	for (u = v; (u = strchr(u, '(')) != NULL; u++)
		if (u - v >= 3 && strncasecmp(u - 3, "url(", 4) == 0 &&
		    u[1 + strspn(u + 1, " \t\n\r\"'")] != '#')
			xml_bad(x, "a url() not of a fragment");
	if (strcasecmp(an, "style") == 0 && (has_ci(v, "@import") ||
	    has_ci(v, "expression(")))
		xml_bad(x, "a style that loads or runs");
}

/* (f): a picture: well-formed XML, and inert. */
static void
svg_check(const char *buf, size_t len, const char *bg, const char *what)
{
	static const char *const active[] = { "script", "foreignObject",
		"iframe", "embed", "object", "handler", "listener", "set",
		"animate", "animateMotion", "animateTransform", "style" };
	struct xml	 x;
	const char	*nm[64], *an[64], *q;
	size_t		 nl[64], al[64], n, i, na;
	char		 el[64], loc[64], *v;
	int		 depth = 0, roots = 0, sp;

	x.s = x.p = buf;
	x.end = buf + len;
	x.what = what;
	x.bg = bg;
	if (!utf8_ok(buf, len))
		xml_bad(&x, "not UTF-8, or a NUL");
	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] < 0x20 && !xml_space(buf[i])) {
			x.p = buf + i;
			xml_bad(&x, "a control byte");
		}
	if (len >= 6 && memcmp(buf, "<?xml ", 6) == 0) {
		if ((q = find(buf, len, "?>")) == NULL)
			xml_bad(&x, "an unclosed XML declaration");
		x.p = q + 2;
	}
	while (x.p < x.end) {
		if (*x.p != '<') {
			if (depth == 0 && !xml_space(*x.p))
				xml_bad(&x, "text outside the root");
			if (*x.p == '&')
				(void)xml_ref(&x);
			else
				x.p++;
			continue;
		}
		if ((size_t)(x.end - x.p) >= 4 && memcmp(x.p, "<!--", 4) == 0) {
			q = find(x.p + 4, (size_t)(x.end - x.p - 4), "--");
			if (q == NULL || q + 2 >= x.end || q[2] != '>')
				xml_bad(&x, "a comment unclosed, or with --");
			x.p = q + 3;
			continue;
		}
		if (x.p + 1 < x.end && (x.p[1] == '!' || x.p[1] == '?'))
			xml_bad(&x, "a DOCTYPE, CDATA section or processing "
			    "instruction");
		if (x.p + 1 < x.end && x.p[1] == '/') {
			x.p += 2;
			q = x.p;
			n = xml_name(&x);
			if (depth == 0 || nl[depth - 1] != n ||
			    memcmp(nm[depth - 1], q, n) != 0)
				xml_bad(&x, "an end tag that does not match");
			depth--;
			xml_skip(&x);
			if (x.p >= x.end || *x.p != '>')
				xml_bad(&x, "an unclosed end tag");
			x.p++;
			continue;
		}
		x.p++;
		q = x.p;
		n = xml_name(&x);
		if (depth == 0 && roots++ > 0)
			xml_bad(&x, "a second root element");
		xml_local(q, n, el, sizeof(el));
		for (i = 0; strchr("sSfFiIeEoOhHlLaA", el[0]) != NULL &&
		    i < sizeof(active) / sizeof(active[0]); i++)
			if (strcasecmp(el, active[i]) == 0)
				xml_bad(&x, "an element that can run or load");
		for (na = 0;;) {
			sp = x.p < x.end && xml_space(*x.p);
			xml_skip(&x);
			if (x.p >= x.end)
				xml_bad(&x, "an unclosed tag");
			if (*x.p == '>') {
				if (depth == 64)
					xml_bad(&x, "elements 64 deep");
				nm[depth] = q;
				nl[depth++] = n;
				x.p++;
				break;
			}
			if (*x.p == '/') {
				if (x.p + 1 >= x.end || x.p[1] != '>')
					xml_bad(&x, "a / in a tag");
				x.p += 2;
				break;
			}
			if (!sp)
				xml_bad(&x, "no space before an attribute");
			an[na] = x.p;
			al[na] = xml_name(&x);
			for (i = 0; i < na; i++)
				if (al[i] == al[na] && memcmp(an[i], an[na],
				    al[i]) == 0)
					xml_bad(&x, "an attribute twice");
			xml_local(an[na], al[na], loc, sizeof(loc));
			if (na < 63)
				na++;
			xml_skip(&x);
			if (x.p >= x.end || *x.p != '=')
				xml_bad(&x, "an attribute without =");
			x.p++;
			xml_skip(&x);
			v = xml_value(&x);
			xml_inert(&x, el, loc, v);
			free(v);
		}
	}
	if (depth != 0 || roots != 1)
		xml_bad(&x, roots == 0 ? "no root element" :
		    "elements left open");
}

/* (f): a JSON output (lines: JSON Lines), each text an object. */
static void
json_check(const char *buf, size_t len, int lines, const char *what)
{
	json_error_t	 je;
	json_t		*j;
	const char	*p = buf, *end = buf + len, *nl;
	char		 msg[300];

	if (!utf8_ok(buf, len))
		finding("an output is not UTF-8, or holds a NUL", what);
	while (p < end || (!lines && p == buf)) {
		nl = lines ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (nl == NULL)
			nl = end;
		if (nl > p || !lines) {
			j = json_loadb(p, (size_t)(nl - p),
			    JSON_REJECT_DUPLICATES, &je);
			if (!json_is_object(j)) {
				snprintf(msg, sizeof(msg), "%s: %s", what,
				    j == NULL ? je.text : "not an object");
				finding("an output is not JSON", msg);
			}
			json_decref(j);
		}
		p = nl + 1;
	}
}

/* (g): nothing of another player's orders in player p's output. */
static void
hidden(struct arb_turn *t, const struct extra *x, int p, const char *buf,
    size_t len, const char *what)
{
	const char	*me = arb_turn_player(t, p);
	char		 msg[300];
	size_t		 i;

	for (i = 0; i < x->ntok; i++) {
		if (x->owner[i] != NULL && strcmp(x->owner[i], me) == 0)
			continue;
		if (find(buf, len, x->tok[i]) == NULL)
			continue;
		snprintf(msg, sizeof(msg), "%s names %s (an order of %.40s)",
		    what, x->tok[i], x->owner[i] != NULL ? x->owner[i] :
		    "no player");
		finding("reveal_orders false, and a player's output names "
		    "another's order", msg);
	}
}

/* Writes a picture (W_SVG), a report (W_VIEW) or a trace cut (W_CUT)
 * of t; a failure is a finding. */
enum { W_SVG, W_VIEW, W_CUT };
static char *
write_out(struct arb_turn *t, int what, int player, int flags, size_t *len)
{
	struct arb_error e;
	char		*buf = NULL;
	FILE		*fp;
	int		 rc = -1;

	if ((fp = open_memstream(&buf, len)) == NULL)
		finding("open_memstream", NULL);
	if (what == W_SVG)
		rc = arb_turn_write_svg(t, flags, player, fp, &e);
	else if (what == W_VIEW)
		rc = arb_turn_write_view(t, player, flags, fp, &e);
	else
		rc = arb_turn_write_trace_for(t, player, flags, fp, &e);
	if (fclose(fp) != 0)
		finding("fclose", NULL);
	if (rc != 0)
		finding("cannot write a picture, report or trace cut",
		    e.text);
	return buf;
}

/* (f) and (g): every picture, report and trace cut of t. */
static void
views(struct arb_turn *t, const struct extra *x)
{
	static const struct {
		int		 what, flags, check;
		const char	*name;
	} out[] = {
		{ W_SVG, 0, 0, "picture" },
		{ W_SVG, ARB_SVG_NEXT, 0, "next picture" },
		{ W_VIEW, ARB_VIEW_TRACE, 1, "report" },
		{ W_VIEW, ARB_VIEW_TEXT, 3, "text report" },
		{ W_CUT, 0, 2, "trace cut" },
		{ W_CUT, 1, 3, "text trace cut" },
	};
	const struct board *b = &t->board;
	char		 what[120], *buf;
	size_t		 len, k;
	int		 np, p, draw, one;

	draw = t->units.n <= MAXDRAW && b->ncells <= (b->kind ==
	    BOARD_GRAPH && t->disp_x == NULL ? MAXLAYOUT : MAXDRAW);
	for (np = 0; np < MAXVIEWS && arb_turn_player(t, np) != NULL; np++)
		;
	one = np > 0 ? (int)(x->pick % (unsigned)np) : -1;
	for (p = -1; p < (x->umpire ? 0 : np); p++)
		for (k = 0; k < sizeof(out) / sizeof(out[0]); k++) {
			if ((out[k].what == W_SVG && !draw) || (p >= 0 &&
			    p != one) || (p < 0 && (out[k].what != W_SVG ||
			    !x->umpire)))
				continue;
			snprintf(what, sizeof(what), "%s%s %s (%s)",
			    p < 0 ? "the umpire" : arb_turn_player(t, p),
			    p < 0 ? "'s" : "'s", out[k].name,
			    arb_turn_ruleset(t));
			buf = write_out(t, out[k].what, p, out[k].flags, &len);
			switch (out[k].check) {
			case 0:
				svg_check(buf, len, x->bg, what);
				break;
			case 1:
			case 2:
				json_check(buf, len, out[k].check == 2, what);
				break;
			default:
				if (!utf8_ok(buf, len))
					finding("an output is not UTF-8, or "
					    "holds a NUL", what);
			}
			if (p >= 0 && x->ntok > 0)
				hidden(t, x, p, buf, len, what);
			free(buf);
		}
}

/*
 * Loads the map and the orders files in the order perm gives, runs the
 * turn with flags and writes its outputs (and, with x, those of (f) and
 * (g)).  Returns 0 when the input is refused (bad data, as arbiter would
 * report it); 1 when it ran.
 */
static int
run(const struct part *parts, const int *perm, int nfiles, int flags,
    struct outs *o, const struct extra *x)
{
	struct arb_turn	*t;
	struct arb_error e;
	struct arb_text	 ahead[MAXFILES];
	const char	*rs, *hint;
	size_t		 k;
	int		 i, rc;

	memset(o, 0, sizeof(*o));
	if ((t = arb_turn_new()) == NULL)
		finding("arb_turn_new", NULL);
	/* RUN_AHEAD (the rerun of (a)): the orders read ahead on a second
	 * thread while the map loads. */
	for (i = 0; i < nfiles; i++) {
		ahead[i].text = parts[1 + perm[i]].text;
		ahead[i].len = parts[1 + perm[i]].len;
	}
	if (flags & RUN_AHEAD)
		rc = arb_turn_load_map_ahead(t, "map.json", parts[0].text,
		    parts[0].len, ahead, (size_t)nfiles, &e);
	else
		rc = arb_turn_load_map(t, "map.json", parts[0].text,
		    parts[0].len, &e);
	flags &= ~RUN_AHEAD;
	if (rc != 0)
		goto refused;
	rs = arb_turn_ruleset(t);
	snprintf(o->ruleset, sizeof(o->ruleset), "%s", rs != NULL ? rs : "");
	for (i = 0; i < nfiles; i++) {
		const struct part *p = &parts[1 + perm[i]];

		if (arb_turn_load_orders(t, p->name, NULL, p->text, p->len,
		    &e) != 0)
			goto refused;
	}
	/* (c): an internal error, the forces' balance among them.  Bad
	 * data is a refusal: a map that commits to its dice cannot be
	 * adjudicated without the umpire's key (arbiter-rules(7), Dice). */
	if (arb_turn_run(t, flags, &e) != 0) {
		if (e.code == ARB_EDATA)
			goto refused;
		finding("arb_turn_run failed", e.text);
	}
	if (flags & ARB_CHECK)
		capture(t, o, O_RESULT, 0);
	else {
		capture(t, o, O_RESULT, ARB_RESULT_TRACE);
		capture(t, o, O_NEXT, 0);
		capture(t, o, O_TRACE, 0);
		capture(t, o, O_TEXT, 0);
	}
	if (x != NULL && x->umpire) {
		/* The rulings' counts and the problems, as arbiter(1) asks
		 * them; each player found by its name. */
		(void)arb_turn_illegal(t);
		(void)arb_turn_refused(t, &i);
		for (k = 0; arb_turn_problem(t, k, &e) == 0; k++)
			if (e.code != ARB_EDATA)
				finding("a problem that is not bad data",
				    e.text);
		for (i = 0; arb_turn_player(t, i) != NULL; i++)
			if (arb_turn_find_player(t, arb_turn_player(t, i),
			    &hint) != i)
				finding("a player not found by its name",
				    arb_turn_player(t, i));
	}
	if (x != NULL)
		views(t, x);
	arb_turn_free(t);
	return 1;
refused:
	if (e.code != ARB_EDATA)
		finding("loading failed, but not for bad data", e.text);
	arb_turn_free(t);
	return 0;
}

/* (a) and (e): the same bytes in each output. */
static void
compare(const struct outs *a, const struct outs *b, const char *what)
{
	char	 msg[64];
	int	 i;

	for (i = 0; i < NOUT; i++) {
		if (a->len[i] == b->len[i] && (a->len[i] == 0 ||
		    memcmp(a->buf[i], b->buf[i], a->len[i]) == 0))
			continue;
		snprintf(msg, sizeof(msg), "%s (%s)", outname[i],
		    a->ruleset);
		finding(what, msg);
	}
}

/* (b): the next map loads, and a turn with no orders runs on it. */
static void
reload(const struct outs *o)
{
	struct arb_turn	*t;
	struct arb_error e;

	if (o->len[O_NEXT] == 0)
		return;		/* the last turn: no next map */
	if ((t = arb_turn_new()) == NULL)
		finding("arb_turn_new", NULL);
	if (arb_turn_load_map(t, "next.json", o->buf[O_NEXT], o->len[O_NEXT],
	    &e) != 0)
		finding("the next map does not load", e.text);
	if (arb_turn_run(t, 0, &e) != 0)
		finding("the next map does not run", e.text);
	arb_turn_free(t);
}

/* The status of the order of file and index in the result's orders. */
static const char *
status_of(json_t *orders, const char *file, json_int_t index)
{
	json_t	*o;
	size_t	 i;

	json_array_foreach(orders, i, o) {
		const char *f = json_string_value(json_object_get(o, "file"));

		if (f != NULL && strcmp(f, file) == 0 &&
		    json_integer_value(json_object_get(o, "index")) == index)
			return json_string_value(json_object_get(o,
			    "status"));
	}
	return NULL;
}

/* (d): what the real run did, --check calls legal. */
static void
agree(const struct outs *real, const struct outs *check)
{
	json_error_t	 je;
	json_t		*r, *c, *ro, *co, *o;
	const char	*st, *file;
	char		 msg[128];
	size_t		 i;

	r = json_loadb(real->buf[O_RESULT], real->len[O_RESULT], 0, &je);
	c = json_loadb(check->buf[O_RESULT], check->len[O_RESULT], 0, &je);
	if (r == NULL || c == NULL)
		finding("the result is not JSON", je.text);
	ro = json_object_get(r, "orders");
	co = json_object_get(c, "orders");
	if (!json_is_array(ro) || !json_is_array(co) ||
	    json_array_size(ro) != json_array_size(co))
		finding("the results list different orders", real->ruleset);
	json_array_foreach(ro, i, o) {
		st = json_string_value(json_object_get(o, "status"));
		file = json_string_value(json_object_get(o, "file"));
		if (st == NULL || file == NULL)
			finding("an order without status or file", NULL);
		if (strcmp(st, "done") != 0)
			continue;
		st = status_of(co, file, json_integer_value(
		    json_object_get(o, "index")));
		if (st == NULL || strcmp(st, "legal") != 0) {
			snprintf(msg, sizeof(msg), "%s order %s is %s under "
			    "--check (%s)", file, json_string_value(
			    json_object_get(o, "id")), st != NULL ? st :
			    "missing", real->ruleset);
			finding("done, but not legal under --check", msg);
		}
	}
	json_decref(r);
	json_decref(c);
}

/* Whether FUZZ_TURN_LAX names the rule system rs. */
static int
lax(const char *rs)
{
	const char	*l = getenv("FUZZ_TURN_LAX"), *p;
	size_t		 n = strlen(rs);

	for (p = l; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
		p += strspn(p, ",");
		if (strncmp(p, rs, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/* An order's token, "Zq<file>k<index>Qv" (and a count, where that is
 * already in an input). */
static void
tok_unique(const struct part *parts, int nfiles, char *tok, size_t size,
    int k, size_t i)
{
	unsigned	 n;
	int		 m;
	bool		 seen;

	for (n = 0;; n++) {
		if (n == 0)
			snprintf(tok, size, "Zq%dk%zuQv", k, i);
		else
			snprintf(tok, size, "Zq%dk%zuQv%ux", k, i, n);
		seen = false;
		for (m = 0; m <= nfiles && !seen; m++)
			seen = find(parts[m].text, parts[m].len, tok) != NULL;
		if (!seen)
			return;
	}
}

/* (g): the turn again, the map's reveal_orders false and each order's id
 * a token of its own; nothing of another's in a player's outputs. */
static void
hide(const struct part *parts, int nfiles, const char *bg, unsigned pick)
{
	struct part	 hp[1 + MAXFILES];
	struct outs	 o;
	struct extra	 x;
	json_error_t	 je;
	json_t		*j[1 + MAXFILES], *ord, *v;
	char		*text[1 + MAXFILES];
	const char	*pl;
	size_t		 i, ntok = 0;
	int		 perm[MAXFILES], k;

	memset(&x, 0, sizeof(x));
	memset(text, 0, sizeof(text));
	for (k = 0; k <= nfiles; k++) {
		hp[k] = parts[k];
		j[k] = json_loadb(parts[k].text, parts[k].len,
		    JSON_REJECT_DUPLICATES, &je);
		if (k > 0 && (ord = json_object_get(j[k], "orders")) != NULL)
			ntok += json_array_size(ord);
	}
	if (!json_is_object(j[0]) ||
	    json_object_set_new(j[0], "reveal_orders", json_false()) != 0)
		goto out;
	if ((x.tok = calloc(ntok + 1, sizeof(*x.tok))) == NULL ||
	    (x.owner = calloc(ntok + 1, sizeof(*x.owner))) == NULL)
		finding("calloc", NULL);
	for (k = 0; k <= nfiles; k++) {
		if (k > 0 && json_is_object(j[k])) {
			pl = json_string_value(json_object_get(j[k],
			    "player"));
			ord = json_object_get(j[k], "orders");
			json_array_foreach(ord, i, v) {
				char	 tok[48];

				if (!json_is_object(v))
					continue;
				/* A token none of the inputs holds already
				 * (the fuzzer copies the dictionary's and
				 * its own into unit ids). */
				tok_unique(parts, nfiles, tok, sizeof(tok), k,
				    i);
				if (json_object_set_new(v, "id",
				    json_string(tok)) != 0 ||
				    (x.tok[x.ntok] = strdup(tok)) == NULL)
					finding("jansson", NULL);
				x.owner[x.ntok++] = pl;
			}
		}
		if (j[k] == NULL)
			continue;	/* not JSON: as it is */
		if ((text[k] = json_dumps(j[k], JSON_ENCODE_ANY)) == NULL)
			goto out;	/* a real that will not print */
		hp[k].text = text[k];
		hp[k].len = strlen(text[k]);
	}
	for (k = 0; k < nfiles; k++)
		perm[k] = k;
	x.bg = bg;
	x.pick = pick;
	if (run(hp, perm, nfiles, ARB_TRACE, &o, &x))
		outs_free(&o);
out:
	for (i = 0; i < x.ntok; i++)
		free(x.tok[i]);
	free(x.tok);
	free(x.owner);
	for (k = 0; k <= nfiles; k++) {
		json_decref(j[k]);
		free(text[k]);
	}
}

/* (h): one reach, with one thread (ahead 0) or with the look-ahead
 * thread at once; the answer (JSON, then text) or the refusal. */
static char *
reach_one(const struct part *parts, int file, const char *unit, int ahead,
    size_t *len, int *refused)
{
	struct arb_turn	*t;
	struct arb_error e;
	char		*buf = NULL;
	size_t		 jlen;
	FILE		*fp;

	if ((t = arb_turn_new()) == NULL)
		finding("arb_turn_new", NULL);
	if (arb_turn_load_map(t, "map.json", parts[0].text, parts[0].len,
	    &e) != 0)
		finding("the map does not load again", e.text);
	if (t->board.ncells > MAXREACH || t->units.n > MAXDRAW) {
		arb_turn_free(t);
		return NULL;
	}
	if (file > 0 && arb_turn_load_orders(t, parts[file].name, NULL,
	    parts[file].text, parts[file].len, &e) != 0)
		finding("an orders file does not load again", e.text);
	arb_turn_threads(t, ahead ? 2 : 1);
	if (ahead)
		reach_ahead(t, REACH_AHEAD_ALWAYS);
	if ((fp = open_memstream(&buf, len)) == NULL)
		finding("open_memstream", NULL);
	*refused = arb_turn_reach(t, unit, NULL, 0, &e) != 0;
	if (*refused) {
		if (e.code != ARB_EDATA)
			finding("a reach failed, but not for bad data",
			    e.text);
		fprintf(fp, "%s:%d:%d: %s: %s", e.file, e.line, e.column,
		    e.pointer, e.text);
	} else {
		if (arb_turn_write_reach(t, 0, fp, &e) != 0 || fflush(fp) != 0)
			finding("cannot write the reach", e.text);
		jlen = *len;
		json_check(buf, jlen, 0, "the reach");
		if (arb_turn_write_reach(t, 1, fp, &e) != 0)
			finding("cannot write the reach as text", e.text);
	}
	if (fclose(fp) != 0)
		finding("fclose", NULL);
	if (!*refused && !utf8_ok(buf, *len))
		finding("the reach is not UTF-8, or holds a NUL", NULL);
	arb_turn_free(t);
	return buf;
}

/* (h): the reach of the unit (or cell) of the first order in the result,
 * or of the first unit, after its player's orders file. */
static void
reach(const struct part *parts, int nfiles, const struct outs *first)
{
	json_error_t	 je;
	json_t		*r, *o, *u, *f;
	const char	*unit, *pl, *name;
	char		*a, *b;
	size_t		 alen, blen, i;
	int		 file = 0, ra, rb, k;

	r = json_loadb(first->buf[O_RESULT], first->len[O_RESULT], 0, &je);
	o = json_array_get(json_object_get(r, "orders"), 0);
	if ((u = json_array_get(json_object_get(o, "units"), 0)) == NULL)
		u = json_array_get(json_object_get(o, "path"), 0);
	if (u == NULL) {
		o = json_array_get(json_object_get(r, "units"), 0);
		u = json_object_get(o, "id");
	}
	unit = json_string_value(u);
	pl = json_string_value(json_object_get(o, "player"));
	if (unit == NULL || pl == NULL) {
		json_decref(r);
		return;
	}
	json_array_foreach(json_object_get(r, "files"), i, f) {
		name = json_string_value(json_object_get(f, "file"));
		if (name == NULL || strcmp(json_string_value(json_object_get(
		    f, "player")) != NULL ? json_string_value(json_object_get(
		    f, "player")) : "", pl) != 0)
			continue;
		for (k = 1; k <= nfiles; k++)
			if (strcmp(parts[k].name, name) == 0)
				file = k;
	}
	a = reach_one(parts, file, unit, 0, &alen, &ra);
	b = a != NULL ? reach_one(parts, file, unit, 1, &blen, &rb) : NULL;
	if (a != NULL && (ra != rb || alen != blen ||
	    memcmp(a, b, alen) != 0))
		finding("a reach with the look-ahead thread gives other bytes",
		    first->ruleset);
	free(a);
	free(b);
	json_decref(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part	 parts[1 + MAXFILES];
	struct outs	 first, again, check, rev;
	struct extra	 x;
	json_error_t	 je;
	json_t		*map;
	const char	*p = (const char *)data, *end = p + size, *q;
	int		 perm[MAXFILES], n = 0, i, ran;

	/* Cut the input into the map and the orders files. */
	for (;;) {
		q = NULL;
		if ((size_t)(end - p) >= SEPLEN)
			for (q = p; q + SEPLEN <= end; q++)
				if (memcmp(q, SEP, SEPLEN) == 0)
					break;
		if (q != NULL && q + SEPLEN > end)
			q = NULL;
		if (n == 1 + MAXFILES)
			return 0;
		parts[n].text = p;
		parts[n].len = q != NULL ? (size_t)(q - p) : (size_t)(end - p);
		if (n > 0)
			snprintf(parts[n].name, sizeof(parts[n].name),
			    "orders/%d.json", n);
		n++;
		if (q == NULL)
			break;
		p = q + SEPLEN;
	}
	for (i = 0; i < n - 1; i++)
		perm[i] = i;

	/* (f): the map's background, which its pictures may load. */
	memset(&x, 0, sizeof(x));
	x.umpire = 1;
	x.pick = (unsigned)size;
	map = json_loadb(parts[0].text, parts[0].len, 0, &je);
	x.bg = json_string_value(json_object_get(json_object_get(map,
	    "display"), "background"));
	ran = run(parts, perm, n - 1, ARB_TRACE, &first, &x);
	if (ran) {
		hide(parts, n - 1, x.bg, x.pick);	/* (g) */
		reach(parts, n - 1, &first);	/* (h) */
	}
	json_decref(map);
	if (!ran)
		return 0;
	/* (a) */
	if (!run(parts, perm, n - 1, ARB_TRACE | RUN_AHEAD, &again, NULL))
		finding("refused on the second run", NULL);
	compare(&first, &again, "a rerun gives other bytes");
	outs_free(&again);
	/* (b) */
	reload(&first);
	/* (d) */
	if (!run(parts, perm, n - 1, ARB_CHECK, &check, NULL))
		finding("refused under --check", NULL);
	agree(&first, &check);
	outs_free(&check);
	/* (e) */
	if (n > 2 && !lax(first.ruleset)) {
		for (i = 0; i < n - 1; i++)
			perm[i] = n - 2 - i;
		if (!run(parts, perm, n - 1, ARB_TRACE, &rev, NULL))
			finding("refused in the reverse order", NULL);
		compare(&first, &rev, "the reverse order gives other bytes");
		outs_free(&rev);
	}
	outs_free(&first);
	return 0;
}
