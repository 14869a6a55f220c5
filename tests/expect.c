/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * expect: checks a result against the outcome worked out by hand in a
 * case's expect.txt, one fact a line.  For territory:
 *
 *	territory NAME owner PLAYER|neutral armies N loyalty N
 *	    watchtower yes|no bivouac yes|no
 *	order ID status STATUS reason REASON arrived N
 *	lost PLAYER N
 *	owner NAME FROM TO WHY
 *	destroyed NAME FEATURE
 *
 * For morne-plaine:
 *
 *	order ID status STATUS reason REASON [cost N mp_left N]
 *	unit ID at HEX strength N [mv N] [demoralised]
 *	unit ID eliminated
 *	owner HEX FROM TO
 *	draw SIDES VALUE
 *	charge CHARGER TARGET held|retreated HEX|eliminated
 *
 * (cost and mp_left for a move that moved its unit; mv for all but
 * leaders.)  For xconq:
 *
 *	order ID status STATUS reason REASON done K
 *	action ID K to HEX cost C mp A B acp X Y
 *	refused ID K to HEX reason REASON
 *	unit ID at HEX acp N
 *	unit ID left_world
 *	supply ID MATERIAL N
 *
 * For arcane-legions:
 *
 *	order ID status STATUS reason REASON
 *	move ID op N mp N mp_left N
 *	maneuver ID K made|skipped REASON cost C to X Y FACING
 *	snap ID K left|right
 *	slide ID K left|right DISTANCE
 *	breakaway ID made|failed REASON lost N
 *	unit ID pose X Y FACING figures N
 *	unit ID eliminated
 *	player NAME op_left N
 *
 * (a move line for each move order that was paid for; a maneuver line for
 * each of its maneuvers, "to" the pose after it; snap and slide lines for
 * each snap and slide made; an edge snap that did not turn has no snap
 * line.)  Numbers match within 0.002, so that a pose
 * worked out by hand to three decimals matches.
 *
 *	expect EXPECT.TXT RESULT.JSON
 *
 * The facts must match as a set, and the ownership changes and the dice in
 * order.
 * Lines starting with '#' and blank lines are skipped.  Exits 0 when they
 * match, 1 with the differences on standard output, 2 on bad input.
 */
#define _POSIX_C_SOURCE 200809L	/* strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

struct lines {
	char	**v;
	size_t	  n, cap;
};

static void
add(struct lines *l, const char *s)
{
	size_t	 len = strlen(s) + 1;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		if ((l->v = realloc(l->v, l->cap * sizeof(*l->v))) == NULL) {
			perror("expect");
			exit(2);
		}
	}
	if ((l->v[l->n] = malloc(len)) == NULL) {
		perror("expect");
		exit(2);
	}
	memcpy(l->v[l->n++], s, len);
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *
s(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "neutral";
}

static long
n(json_t *o, const char *key)
{
	return (long)json_integer_value(json_object_get(o, key));
}

static const char *
has(json_t *features, const char *name)
{
	size_t	 i;

	for (i = 0; i < json_array_size(features); i++)
		if (strcmp(json_string_value(json_array_get(features, i)),
		    name) == 0)
			return "yes";
	return "no";
}

/* A morne-plaine result's facts. */
static void
hex_facts(json_t *r, struct lines *got)
{
	json_t		*v, *x;
	char		 buf[512];
	size_t		 i, len;

	json_array_foreach(json_object_get(r, "orders"), i, v) {
		len = (size_t)snprintf(buf, sizeof(buf), "order %s status %s "
		    "reason %s", s(v, "id"), s(v, "status"), s(v, "reason"));
		if (json_object_get(v, "cost") != NULL &&
		    (strcmp(s(v, "status"), "done") == 0 ||
		    strcmp(s(v, "reason"), "stuck") == 0))
			snprintf(buf + len, sizeof(buf) - len, " cost %ld "
			    "mp_left %ld", n(v, "cost"), n(v, "mp_left"));
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "units"), i, v) {
		if (strcmp(s(v, "status"), "eliminated") == 0) {
			snprintf(buf, sizeof(buf), "unit %s eliminated",
			    s(v, "id"));
			add(got, buf);
			continue;
		}
		len = (size_t)snprintf(buf, sizeof(buf), "unit %s at %s "
		    "strength %ld", s(v, "id"), s(v, "at"), n(v, "strength"));
		if (strcmp(s(v, "type"), "leader") != 0)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    " mv %ld", n(v, "mv"));
		if (json_is_true(json_object_get(v, "demoralised")))
			snprintf(buf + len, sizeof(buf) - len, " demoralised");
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "ownership"), i, v) {
		snprintf(buf, sizeof(buf), "owner %s %s %s", s(v, "cell"),
		    s(v, "from"), s(v, "to"));
		add(got, buf);
	}
	x = json_object_get(json_object_get(r, "dice"), "draws");
	json_array_foreach(x, i, v) {
		snprintf(buf, sizeof(buf), "draw %ld %ld", n(v, "sides"),
		    n(v, "value"));
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "charges"), i, v) {
		len = (size_t)snprintf(buf, sizeof(buf), "charge %s %s %s",
		    s(v, "charger"), s(v, "target"), s(v, "outcome"));
		if (strcmp(s(v, "outcome"), "retreated") == 0)
			snprintf(buf + len, sizeof(buf) - len, " %s",
			    s(v, "retreat"));
		add(got, buf);
	}
}

/* The facts of the result, in the form of expect.txt. */
static void
facts(json_t *r, struct lines *got)
{
	json_t		*v, *x;
	const char	*key;
	char		 buf[512];
	size_t		 i;

	json_array_foreach(json_object_get(r, "cells"), i, v) {
		x = json_object_get(v, "features");
		snprintf(buf, sizeof(buf), "territory %s owner %s armies %ld "
		    "loyalty %ld watchtower %s bivouac %s", s(v, "cell"),
		    s(v, "owner"), n(v, "armies"), n(v, "loyalty"),
		    has(x, "watchtower"), has(x, "bivouac"));
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "orders"), i, v) {
		snprintf(buf, sizeof(buf), "order %s status %s reason %s "
		    "arrived %ld", s(v, "id"), s(v, "status"), s(v, "reason"),
		    n(v, "arrived"));
		add(got, buf);
	}
	json_object_foreach(json_object_get(r, "players"), key, v) {
		snprintf(buf, sizeof(buf), "lost %s %ld", key,
		    n(v, "armies_lost"));
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "ownership"), i, v) {
		snprintf(buf, sizeof(buf), "owner %s %s %s %s", s(v, "cell"),
		    s(v, "from"), s(v, "to"), s(v, "why"));
		add(got, buf);
	}
	json_array_foreach(json_object_get(r, "destroyed"), i, v) {
		snprintf(buf, sizeof(buf), "destroyed %s %s", s(v, "cell"),
		    s(v, "feature"));
		add(got, buf);
	}
}

/* An xconq result's facts. */
static void
xconq_facts(json_t *r, struct lines *got)
{
	json_t		*v, *a, *x;
	const char	*key;
	char		 buf[512];
	size_t		 i, k;

	json_array_foreach(json_object_get(r, "orders"), i, v) {
		snprintf(buf, sizeof(buf), "order %s status %s reason %s done "
		    "%ld", s(v, "id"), s(v, "status"), s(v, "reason"),
		    n(v, "done"));
		add(got, buf);
		json_array_foreach(json_object_get(v, "actions"), k, a) {
			snprintf(buf, sizeof(buf), "action %s %zu to %s cost "
			    "%ld mp %ld %ld acp %ld %ld", s(v, "id"), k + 1,
			    s(a, "to"), n(a, "cost"), n(a, "mp_before"),
			    n(a, "mp_after"), n(a, "acp_before"),
			    n(a, "acp_after"));
			add(got, buf);
		}
		if ((a = json_object_get(v, "refused")) != NULL) {
			snprintf(buf, sizeof(buf), "refused %s %ld to %s "
			    "reason %s", s(v, "id"), n(v, "done") + 1,
			    s(a, "to"), s(a, "reason"));
			add(got, buf);
		}
	}
	json_array_foreach(json_object_get(r, "units"), i, v) {
		if (strcmp(s(v, "status"), "left_world") == 0)
			snprintf(buf, sizeof(buf), "unit %s left_world",
			    s(v, "id"));
		else
			snprintf(buf, sizeof(buf), "unit %s at %s acp %ld",
			    s(v, "id"), s(v, "at"), n(v, "acp_left"));
		add(got, buf);
		json_object_foreach(json_object_get(v, "supplies"), key, x) {
			snprintf(buf, sizeof(buf), "supply %s %s %ld",
			    s(v, "id"), key, (long)json_integer_value(x));
			add(got, buf);
		}
	}
}

static double
d(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* An arcane-legions result's facts. */
static void
arcane_facts(json_t *r, struct lines *got)
{
	json_t		*v, *a, *p, *c;
	const char	*key;
	char		 buf[512];
	size_t		 i, k, j;

	json_array_foreach(json_object_get(r, "orders"), i, v) {
		snprintf(buf, sizeof(buf), "order %s status %s reason %s",
		    s(v, "id"), s(v, "status"), s(v, "reason"));
		add(got, buf);
		if (json_object_get(v, "target") != NULL) {
			snprintf(buf, sizeof(buf), "breakaway %s %s %s lost "
			    "%zu", s(v, "id"), strcmp(s(v, "status"),
			    "done") == 0 ? "made" : "failed", s(v, "reason"),
			    json_array_size(json_object_get(v, "lost")));
			add(got, buf);
			continue;
		}
		if (json_object_get(v, "order_points") == NULL)
			continue;
		snprintf(buf, sizeof(buf), "move %s op %ld mp %ld mp_left %ld",
		    s(v, "id"), n(v, "order_points"), n(v, "mp"),
		    n(v, "mp_left"));
		add(got, buf);
		json_array_foreach(json_object_get(v, "maneuvers"), k, a) {
			p = json_object_get(a, "to");
			snprintf(buf, sizeof(buf), "maneuver %s %zu %s %s cost "
			    "%ld to %.3f %.3f %.3f", s(v, "id"), k + 1,
			    json_is_true(json_object_get(a, "made")) ? "made" :
			    "skipped", s(a, "reason"), n(a, "cost"),
			    d(p, "x"), d(p, "y"), d(p, "facing"));
			add(got, buf);
			json_array_foreach(json_object_get(json_object_get(a,
			    "snap"), "candidates"), j, c)
				if (json_is_true(json_object_get(c, "made")) &&
				    strcmp(s(c, "sense"), "none") != 0) {
					snprintf(buf, sizeof(buf), "snap %s "
					    "%zu %s", s(v, "id"), k + 1,
					    s(c, "sense"));
					add(got, buf);
				}
			c = json_object_get(a, "slide");
			if (json_is_true(json_object_get(c, "made"))) {
				snprintf(buf, sizeof(buf), "slide %s %zu %s "
				    "%.3f", s(v, "id"), k + 1,
				    s(c, "direction"), d(c, "distance"));
				add(got, buf);
			}
		}
	}
	json_array_foreach(json_object_get(r, "units"), i, v) {
		p = json_object_get(v, "pose");
		if (strcmp(s(v, "status"), "eliminated") == 0)
			snprintf(buf, sizeof(buf), "unit %s eliminated",
			    s(v, "id"));
		else
			snprintf(buf, sizeof(buf), "unit %s pose %.3f %.3f "
			    "%.3f figures %zu", s(v, "id"), d(p, "x"),
			    d(p, "y"), d(p, "facing"),
			    json_array_size(json_object_get(v, "figures")));
		add(got, buf);
	}
	json_object_foreach(json_object_get(r, "players"), key, v) {
		snprintf(buf, sizeof(buf), "player %s op_left %ld", key,
		    n(v, "order_points_left"));
		add(got, buf);
	}
}

/* Two facts match when their words do, numbers within 0.002. */
static int
same(const char *a, const char *b)
{
	char	 x[1024], y[1024], *p, *q, *sp, *sq;

	snprintf(x, sizeof(x), "%s", a);
	snprintf(y, sizeof(y), "%s", b);
	p = strtok_r(x, " \t", &sp);
	q = strtok_r(y, " \t", &sq);
	for (; p != NULL && q != NULL; p = strtok_r(NULL, " \t", &sp),
	    q = strtok_r(NULL, " \t", &sq)) {
		char	*ep, *eq;
		double	 dp = strtod(p, &ep), dq = strtod(q, &eq);

		if (strcmp(p, q) == 0)
			continue;
		if (*ep != '\0' || *eq != '\0' || ep == p || eq == q ||
		    dp - dq > 0.002 || dq - dp > 0.002)
			return 0;
	}
	return p == NULL && q == NULL;
}

/* The lines that must keep their order (ownership changes, dice), as one
 * string. */
static void
owners(const struct lines *l, char *out, size_t size)
{
	size_t	 i, len = 0;

	out[0] = '\0';
	for (i = 0; i < l->n && len < size; i++)
		if (strncmp(l->v[i], "owner ", 6) == 0 ||
		    strncmp(l->v[i], "draw ", 5) == 0)
			len += (size_t)snprintf(out + len, size - len, "%s\n",
			    l->v[i]);
}

int
main(int argc, char *argv[])
{
	struct lines	 want = { NULL, 0, 0 }, got = { NULL, 0, 0 };
	static char	 ow[65536], og[65536];
	json_error_t	 je;
	json_t		*r;
	char		 buf[1024];
	size_t		 i, j;
	FILE		*fp;
	char		*used;
	int		 bad = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: expect EXPECT.TXT RESULT.JSON\n");
		return 2;
	}
	if ((fp = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(buf, sizeof(buf), fp) != NULL) {
		buf[strcspn(buf, "\r\n")] = '\0';
		if (buf[0] != '\0' && buf[0] != '#')
			add(&want, buf);
	}
	fclose(fp);
	if ((r = json_load_file(argv[2], 0, &je)) == NULL) {
		fprintf(stderr, "expect: %s:%d:%d: %s\n", argv[2], je.line,
		    je.column, je.text);
		return 2;
	}
	if (strcmp(s(r, "ruleset"), "morne-plaine") == 0)
		hex_facts(r, &got);
	else if (strcmp(s(r, "ruleset"), "xconq") == 0)
		xconq_facts(r, &got);
	else if (strcmp(s(r, "ruleset"), "arcane-legions") == 0)
		arcane_facts(r, &got);
	else
		facts(r, &got);
	json_decref(r);
	owners(&want, ow, sizeof(ow));
	owners(&got, og, sizeof(og));
	if (strcmp(ow, og) != 0) {
		printf("ownership changes or dice in another order:\nwant:\n%sgot:\n%s",
		    ow, og);
		bad = 1;
	}
	qsort(want.v, want.n, sizeof(char *), cmp);
	qsort(got.v, got.n, sizeof(char *), cmp);
	/* Each wanted fact takes the first unmatched fact it matches. */
	if ((used = calloc(got.n + 1, 1)) == NULL) {
		perror("expect");
		return 2;
	}
	for (i = 0; i < want.n; i++) {
		for (j = 0; j < got.n; j++)
			if (!used[j] && same(want.v[i], got.v[j]))
				break;
		if (j < got.n)
			used[j] = 1;
		else {
			printf("want: %s\n", want.v[i]);
			bad = 1;
		}
	}
	for (j = 0; j < got.n; j++)
		if (!used[j]) {
			printf("got:  %s\n", got.v[j]);
			bad = 1;
		}
	free(used);
	for (i = 0; i < want.n; i++)
		free(want.v[i]);
	for (i = 0; i < got.n; i++)
		free(got.v[i]);
	free(want.v);
	free(got.v);
	return bad;
}
