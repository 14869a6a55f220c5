/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): a player's letter (arbiter-result(5), A
 * player's report, "letter"), the turn as the player may know it, in
 * lines of words, put into the player's report and written as text from
 * there.  It is built from the report as cut for the player (view.c) and,
 * for what was done to the player's own units, from the whole result: of
 * it only units, cells, dice and numbers are written, never an order of
 * another player's, so that "reveal_orders": false holds.  It names no
 * rule system: it reads the members the result has.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "json/doc.h"

struct letter {
	struct arb_turn	*t;
	const char	*me;
	bool		 reveal;
	json_t		*r;		/* the report, cut */
	json_t		*full;		/* the whole result */
	json_t		*hidden;	/* other players' order ids, hidden */
	bool		 check;		/* a check: what the run would do */
	const struct nextview *nv;	/* the next map's, or NULL */
};

static bool
is(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

static const char *
sv(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

static const json_t *
get(const json_t *o, const char *k)
{
	return json_object_get(o, k);
}

/* A line of the letter: {"says": text} added to arr, returned. */
static json_t * __attribute__((format(printf, 3, 4)))
say(struct letter *l, json_t *arr, const char *fmt, ...)
{
	va_list	 ap;
	json_t	*o = jw_ok(json_object());
	char	*s;

	va_start(ap, fmt);
	s = t_vprintf(l->t, fmt, ap);
	va_end(ap);
	jw_add(arr, o);
	jw_set(o, "says", jw_ok(json_string(s)));
	return o;
}

/* "1 army", "2 armies", "1 order", "3 orders". */
static const char *
count(struct letter *l, long long n, const char *many)
{
	size_t	 k = strlen(many);
	char	*one = t_strdup(l->t, many);

	if (n != 1)
		return t_printf(l->t, "%lld %s", n, many);
	if (k > 3 && strcmp(many + k - 3, "ies") == 0)
		strcpy(one + k - 3, "y");
	else if (k > 1 && many[k - 1] == 's')
		one[k - 1] = '\0';
	return t_printf(l->t, "1 %s", one);
}

/* A member's name in words: "armies_lost" "armies lost", "mv" "MV". */
static const char *
words(struct letter *l, const char *key)
{
	char	*s = t_strdup(l->t, key), *p, *w;

	/* A word of three letters or fewer is an abbreviation: AP, MV. */
	for (w = p = s;; p++)
		if (*p == '_' || *p == '\0') {
			if (p - w <= 3)
				for (; w < p; w++)
					*w = (char)(*w >= 'a' && *w <= 'z' ?
					    *w - 'a' + 'A' : *w);
			if (*p == '\0')
				break;
			*p = ' ';
			w = p + 1;
		}
	return s;
}

/* The elements of an array of strings, joined. */
static const char *
join(struct letter *l, const json_t *a, size_t from, const char *sep)
{
	const char	*s = "";
	size_t		 i;

	for (i = from; i < json_array_size(a); i++)
		s = t_printf(l->t, "%s%s%s", s, i > from ? sep : "",
		    sv(json_array_get(a, i)));
	return s;
}

static const json_t *
unit(const struct letter *l, const char *id)
{
	const json_t	*a = get(l->r, "units");
	size_t		 i;

	for (i = 0; i < json_array_size(a); i++)
		if (is(get(json_array_get(a, i), "id"), id))
			return json_array_get(a, i);
	return NULL;
}

static bool
my_unit(const struct letter *l, const json_t *id)
{
	const json_t	*u = json_is_string(id) ? unit(l, sv(id)) : NULL;

	return u != NULL && is(get(u, "player"), l->me);
}

/* Where a unit stands: its hex, or its place on the table. */
static const char *
where(struct letter *l, const json_t *u)
{
	const json_t	*p = get(u, "pose");

	if (json_is_string(get(u, "at")))
		return sv(get(u, "at"));
	if (json_is_object(p))
		return t_printf(l->t, "(%g, %g) facing %g",
		    json_number_value(get(p, "x")),
		    json_number_value(get(p, "y")),
		    json_number_value(get(p, "facing")));
	return "off the board";
}

/* "blue's", "allies'". */
static const char *
poss(struct letter *l, const char *name)
{
	size_t	 n = strlen(name);

	return t_printf(l->t, "%s%s", name, n > 0 && name[n - 1] == 's' ?
	    "'" : "'s");
}

/* A reason code with its words beside it. */
static const char *
reason(struct letter *l, const json_t *code)
{
	enum reason	 r = reason_find(sv(code));

	if (r == R_NREASONS)
		return sv(code);
	return t_printf(l->t, "%s (%s)", reason_says(r), sv(code));
}

/* Whether the word w stands in s on its own (not inside a longer id). */
static bool
has_word(const char *s, const char *w)
{
	size_t		 n = strlen(w);
	const char	*p;

	if (n == 0)
		return false;
	for (p = s; (p = strstr(p, w)) != NULL; p++) {
		bool	 b = p == s || strchr(" ,;:()'\"", p[-1]) != NULL;
		bool	 a = p[n] == '\0' || strchr(" ,;:()'\"", p[n]) != NULL;

		if (a && b)
			return true;
	}
	return false;
}

/* A refused file's problems, each a line of probs. */
static void
problems(struct letter *l, json_t *probs, const json_t *o)
{
	const json_t	*p = get(o, "problems");
	size_t		 k;

	for (k = 0; k < json_array_size(p); k++) {
		const json_t *q = json_array_get(p, k);

		say(l, probs, "%s: %s", reason(l, get(q, "reason")),
		    sv(get(q, "message")));
	}
}

/*
 * First: what became of the player's orders.  A file refused before its
 * player could be told (not JSON, a mail of HTML only, a quoted header)
 * is named to each player who had no file read, since it may be theirs.
 */
static void
fate(struct letter *l, json_t *L)
{
	json_t		*f = jw_ok(json_object()), *probs;
	const json_t	*a = get(l->r, "files"), *o;
	size_t		 i;
	long long	 n = 0, m = 0, fl = 0;
	const char	*st = "none", *unbound = "";

	jw_set(L, "orders", f);
	probs = jw_ok(json_array());
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (!is(get(o, "player"), l->me))
			continue;
		if (is(get(o, "status"), "refused")) {
			st = "refused";
			jw_set(f, "file", jw_ok(json_string(sv(get(o,
			    "file")))));
			problems(l, probs, o);
		} else if (strcmp(st, "refused") != 0)
			st = "read";
	}
	for (i = 0; i < json_array_size(a) && strcmp(st, "none") == 0; i++) {
		o = json_array_get(a, i);
		if (!json_is_null(get(o, "player")) ||
		    !is(get(o, "status"), "refused"))
			continue;
		unbound = t_printf(l->t, "%s%s%s", unbound, *unbound ? ", " :
		    "", sv(get(o, "file")));
		problems(l, probs, o);
	}
	if (*unbound != '\0') {
		st = "unknown";
		jw_set(f, "file", jw_ok(json_string(unbound)));
	}
	a = get(l->r, "orders");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (!is(get(o, "player"), l->me))
			continue;
		n++;
		/* Refused: ruled illegal, or not read at all (which a
		 * run rules illegal too). */
		m += is(get(o, "status"), "illegal");
		fl += is(get(o, "status"), "failed");
	}
	jw_set(f, "status", jw_ok(json_string(st)));
	jw_set(f, "read", jw_ok(json_integer(n)));
	jw_set(f, "refused", jw_ok(json_integer(m)));
	jw_set(f, "failed", jw_ok(json_integer(fl)));
	if (strcmp(st, "refused") == 0)
		jw_set(f, "says", jw_ok(json_string(t_printf(l->t,
		    "Your orders file %s %s refused: your units %s.",
		    sv(get(f, "file")), l->check ? "would be" : "was",
		    l->check ? "would hold" : "held"))));
	else if (strcmp(st, "unknown") == 0)
		jw_set(f, "says", jw_ok(json_string(t_printf(l->t,
		    "No orders of yours %s read.  %s %s refused before its "
		    "player could be told; if it was yours, send it again "
		    "corrected.  Your units %s.", l->check ? "could be" :
		    "were", strchr(unbound, ',') != NULL ? "These files" :
		    "This file", strchr(unbound, ',') != NULL ?
		    t_printf(l->t, "(%s) were", unbound) : t_printf(l->t,
		    "(%s) was", unbound), l->check ? "would hold" : "held"))));
	else if (strcmp(st, "none") == 0)
		jw_set(f, "says", jw_ok(json_string(l->check ? "No orders "
		    "received: your units would hold." : "No orders received: "
		    "your units held.")));
	else if (n == 0)
		jw_set(f, "says", jw_ok(json_string(l->check ? "Your orders "
		    "file holds no orders: your units would hold." : "Your "
		    "orders file held no orders: your units held.")));
	else
		jw_set(f, "says", jw_ok(json_string(t_printf(l->t,
		    "%s read, %lld %s%s.", count(l, n, "orders"), m,
		    l->check ? "would be refused" : "refused", fl == 0 ? "" :
		    t_printf(l->t, ", %lld %s", fl, l->check ? "would fail" :
		    "failed")))));
	jw_set(f, "problems", probs);
}

/* The charge order o made, if any (another player's only when orders
 * are revealed: o is then in the report). */
static const json_t *
charge_of(struct letter *l, const json_t *o)
{
	const json_t	*a = get(l->full, "charges"), *c;
	size_t		 i;

	for (i = 0; i < json_array_size(a); i++) {
		c = json_array_get(a, i);
		if (is(get(c, "order"), sv(get(o, "id"))) &&
		    is(get(c, "order_player"), sv(get(o, "player"))))
			return c;
	}
	return NULL;
}

/* A morale test in words: the roll and what it needed. */
static const char *
test(struct letter *l, const json_t *c)
{
	long long	 roll = json_integer_value(get(c, "roll"));
	long long	 need = json_integer_value(get(c, "morale")) -
			    json_integer_value(get(c, "cs_difference"));

	if (need < 1)
		return t_printf(l->t, "rolled %lld; no roll could hold it",
		    roll);
	return t_printf(l->t, "rolled %lld, needed %lld or less to hold", roll,
	    need);
}

static const char *
outcome(struct letter *l, const json_t *c)
{
	const char	*tg = sv(get(c, "target"));
	const json_t	*mv = get(c, "mv_lost"), *cs = get(c, "cs_lost");
	const char	*lost = "";

	if (json_integer_value(mv) > 0)
		lost = t_printf(l->t, ", lost %lld MV",
		    (long long)json_integer_value(mv));
	if (json_integer_value(cs) > 0)
		lost = t_printf(l->t, "%s, lost %lld strength", lost,
		    (long long)json_integer_value(cs));
	if (is(get(c, "outcome"), "held"))
		return t_printf(l->t, "%s held", tg);
	if (is(get(c, "outcome"), "retreated"))
		return t_printf(l->t, "%s retreated to %s%s", tg,
		    sv(get(c, "retreat")), lost);
	if (is(get(c, "outcome"), "eliminated"))
		return t_printf(l->t, "%s was eliminated%s%s%s", tg,
		    json_is_string(get(c, "why")) ? " (" : "",
		    sv(get(c, "why")), json_is_string(get(c, "why")) ? ")" :
		    "");
	return t_printf(l->t, "%s: %s", tg, sv(get(c, "outcome")));
}

/* The unit whose zone of control cut the player's order o short: the
 * trace's first zoc event of the order, when the run kept a trace and the
 * order's reason is zoc_stop; else NULL. */
static const char *
zone_of(struct letter *l, const json_t *o)
{
	const json_t	*a = get(l->full, "trace"), *e;
	size_t		 i;

	if (!is(get(o, "reason"), "zoc_stop"))
		return NULL;
	for (i = 0; i < json_array_size(a); i++) {
		e = json_array_get(a, i);
		if (is(get(e, "ev"), "zoc") && is(get(e, "order"),
		    sv(get(o, "id"))) && is(get(e, "player"),
		    sv(get(o, "player"))) &&
		    json_is_string(get(e, "by")))
			return sv(get(e, "by"));
	}
	return NULL;
}

/* The index of cell c on the path p, or the path's size. */
static size_t
on_path(const json_t *p, const json_t *c)
{
	size_t	 k;

	for (k = 0; k < json_array_size(p); k++)
		if (json_equal(json_array_get(p, k), (json_t *)c))
			break;
	return k;
}

/* The roll that stuck unit id at cell c, if a draw names both: ", a d4
 * rolled 2"; else "". */
static const char *
roll_at(struct letter *l, const char *id, const char *c)
{
	const json_t	*a = get(get(l->full, "dice"), "draws"), *d;
	size_t		 i;

	for (i = 0; i < json_array_size(a); i++) {
		d = json_array_get(a, i);
		if (has_word(sv(get(d, "why")), id) && has_word(sv(get(d,
		    "why")), c) && json_is_string(get(d, "decided")))
			return t_printf(l->t, ", a d%lld rolled %lld",
			    (long long)json_integer_value(get(d, "sides")),
			    (long long)json_integer_value(get(d, "value")));
	}
	return "";
}

/* An order that could not be read: its reason is one of reading's. */
static bool
unread(const json_t *o)
{
	enum reason	 r = reason_find(sv(get(o, "reason")));

	return r >= R_UNKNOWN_UNIT && r <= R_BAD_ORDER;
}

/*
 * What a run did with the player's order o, in words: its status, where
 * it stopped short ("stopped_at") and why, what came of the armies it
 * moved ("arrived", "lost").
 */
static const char *
ran(struct letter *l, const json_t *o, const char *who)
{
	const char	*st = sv(get(o, "status")), *z, *pre;
	const json_t	*p = get(o, "path"), *stop = get(o, "stopped_at");
	size_t		 k = json_is_string(stop) ? on_path(p, stop) : 0;
	bool		 done = strcmp(st, "done") == 0;

	if (unread(o))
		return t_printf(l->t, "not read: %s", reason(l,
		    get(o, "reason")));
	pre = done ? "" : t_printf(l->t, "%s, ", st);
	if (json_is_string(stop) && k == 0)
		return t_printf(l->t, "%sdid not move: %s", pre, reason(l,
		    get(o, "reason")));
	if (json_is_string(stop) && k < json_array_size(p)) {
		const char *why = (z = zone_of(l, o)) != NULL ?
		    t_printf(l->t, "entered the zone of control of %s", z) :
		    t_printf(l->t, "%s%s", reason(l, get(o, "reason")),
		    roll_at(l, who, sv(stop)));

		return t_printf(l->t, "%sstopped at %s: %s; %s not entered",
		    pre, sv(stop), why, join(l, p, k + 1, ", "));
	}
	if (done && json_integer_value(get(o, "lost")) > 0 &&
	    json_is_integer(get(o, "arrived")))
		return json_integer_value(get(o, "arrived")) == 0 ?
		    t_printf(l->t, "done, but none arrived: %s lost",
		    count(l, json_integer_value(get(o, "lost")),
		    "armies")) : t_printf(l->t, "done, but only %lld "
		    "arrived: %s lost",
		    (long long)json_integer_value(get(o, "arrived")),
		    count(l, json_integer_value(get(o, "lost")), "armies"));
	if (done)
		return is(get(o, "reason"), "ok") ? "done" : t_printf(l->t,
		    "done: %s", reason(l, get(o, "reason")));
	return t_printf(l->t, "%s: %s", st, reason(l, get(o, "reason")));
}

/* What a check says the run would do with the order o. */
static const char *
would(struct letter *l, const json_t *o)
{
	const char	*st = sv(get(o, "status"));

	if (unread(o))
		return t_printf(l->t, "would not be read: %s", reason(l,
		    get(o, "reason")));
	if (strncmp(sv(get(o, "reason")), "depends_on", 10) == 0)
		return t_printf(l->t, "%s: %s", strcmp(st, "legal") == 0 ?
		    "would be carried out or not" : "would be refused or not",
		    reason(l, get(o, "reason")));
	if (strcmp(st, "legal") == 0)
		return is(get(o, "reason"), "ok") ? "would be carried out" :
		    t_printf(l->t, "would be carried out: %s", reason(l,
		    get(o, "reason")));
	return t_printf(l->t, "would be %s: %s", strcmp(st, "failed") == 0 ?
	    "refused at its moment" : strcmp(st, "illegal") == 0 ?
	    "refused as illegal" : st, reason(l, get(o, "reason")));
}

/*
 * The headline of order o: what it was ("m1: move c1 to 0304", "b3:
 * attack 0403 with b-inf-1"; a "to" order names its destination, found
 * path or not) and what came of it; another player's (revealed orders
 * only) with its player's name.
 */
static void
headline(struct letter *l, json_t *h, const json_t *o)
{
	const char	*who, *what, *out;
	const json_t	*p = get(o, "path"), *c;
	bool		 mine = is(get(o, "player"), l->me);
	json_t		*e;

	who = join(l, get(o, "units"), 0, ",");
	if (*who == '\0' && json_is_integer(get(o, "armies")))
		who = count(l, json_integer_value(get(o, "armies")), "armies");
	/* An id of digits is the order's place in the file (a text's
	 * default): "order 0". */
	what = t_printf(l->t, "%s%s%s%s%s%s", mine ? "" : poss(l, sv(get(o,
	    "player"))), mine ? "" : " ", strspn(sv(get(o, "id")),
	    "0123456789") == strlen(sv(get(o, "id"))) ? "order " : "",
	    sv(get(o, "id")), json_is_string(get(o, "kind")) ? ": " : "",
	    sv(get(o, "kind")));
	if (json_is_string(get(o, "target")))
		what = t_printf(l->t, "%s %s%s%s", what, sv(get(o, "target")),
		    *who ? " with " : "", who);
	else {
		if (*who != '\0')
			what = t_printf(l->t, "%s %s", what, who);
		if (json_is_string(get(o, "to")))
			what = t_printf(l->t, "%s to %s", what,
			    sv(get(o, "to")));
		else if (json_array_size(p) > 0)
			what = t_printf(l->t, "%s to %s", what,
			    sv(json_array_get(p, json_array_size(p) - 1)));
	}
	out = l->check ? would(l, o) : ran(l, o, sv(json_array_get(get(o,
	    "units"), 0)));
	if ((c = charge_of(l, o)) != NULL)
		out = t_printf(l->t, "%s; charged %s at %s: %s", out,
		    sv(get(c, "target")), sv(get(c, "at")), outcome(l, c));
	e = say(l, h, "%s: %s", what, out);
	jw_set(e, "what", jw_ok(json_string(what)));
	jw_set(e, "outcome", jw_ok(json_string(out)));
	jw_set(e, "order", jw_ok(json_string(sv(get(o, "id")))));
	if (!mine)
		jw_set(e, "player", jw_ok(json_string(sv(get(o, "player")))));
	jw_set(e, "status", jw_ok(json_string(sv(get(o, "status")))));
	jw_set(e, "detail", jw_ok(json_string(sv(get(o, "message")))));
}

/* Their orders, each one's headline; the others' too when revealed. */
static void
headlines(struct letter *l, json_t *L)
{
	json_t		*h = jw_ok(json_array()), *x = NULL;
	const json_t	*a = get(l->r, "orders"), *o;
	size_t		 i;

	jw_set(L, "headlines", h);
	if (l->reveal) {
		x = jw_ok(json_array());
		jw_set(L, "others", x);
	}
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (is(get(o, "player"), l->me))
			headline(l, h, o);
		else if (x != NULL)
			headline(l, x, o);
	}
}

static void
event(struct letter *l, json_t *ev, const char *at, const char *kind,
    const char *says)
{
	json_t	*e = say(l, ev, "%s: %s", at, says);

	jw_set(e, "at", jw_ok(json_string(at)));
	jw_set(e, "what", jw_ok(json_string(kind)));
}

/* Ground now the player's: one line for each reason, its cells. */
static void
took(struct letter *l, json_t *L, const char *cell, const char *why)
{
	json_t	*g = json_object_get(L, "ground"), *e, *cs;
	size_t	 i;

	if (g == NULL) {
		g = jw_ok(json_array());
		jw_set(L, "ground", g);
	}
	for (i = 0; i < json_array_size(g); i++)
		if (is(get(json_array_get(g, i), "why"), why))
			break;
	if (i == json_array_size(g)) {
		e = say(l, g, "%s", "");
		jw_set(e, "why", jw_ok(json_string(why)));
		jw_set(e, "cells", jw_ok(json_array()));
	}
	e = json_array_get(g, i);
	cs = json_object_get(e, "cells");
	jw_add(cs, jw_ok(json_string(cell)));
	jw_set(e, "says", jw_ok(json_string(t_printf(l->t, "%s: %s",
	    words(l, why), join(l, cs, 0, ", ")))));
}

static const char *
cause(struct letter *l, const json_t *c)
{
	if (is(c, "charge"))
		return "in a charge";
	if (is(c, "skirmish") || is(c, "loop"))
		return "in a skirmish";
	if (is(c, "breakaway"))
		return "in a breakaway attack";
	if (is(c, "invasion"))
		return "invading";
	if (is(c, "penalty"))
		return "to the invasion penalty";
	if (is(c, "watchtower"))
		return "to the watchtower";
	return t_printf(l->t, "(%s)", words(l, sv(c)));
}

/* A loss of an invasion of the territory fought for (its price, its
 * watchtower's, its rounds), not of a meeting on the way. */
static bool
invading(const json_t *c)
{
	return is(c, "invasion") || is(c, "penalty") || is(c, "watchtower");
}

/*
 * Another player's armies lost against a territory the player holds
 * after the turn, coming from elsewhere: an invasion held.  Said once for
 * the invader and the territory, at its first loss there, with all it
 * lost there.
 */
static void
invaded(struct letter *l, json_t *ev, const json_t *a, size_t i,
    const char *cx)
{
	const json_t	*o = json_array_get(a, i), *q, *cl = get(l->r, "cells");
	const char	*at = sv(get(o, "target")), *pl = sv(get(o, "player"));
	long long	 n = 0;
	size_t		 k;
	bool		 held = false;

	if (!json_is_string(get(o, "target")) || is(get(o, "at"), at) ||
	    !invading(get(o, "cause")))
		return;
	for (k = 0; k < json_array_size(cl); k++)
		held = held || (is(get(json_array_get(cl, k), "cell"), at) &&
		    is(get(json_array_get(cl, k), "owner"), l->me));
	/* Not taken this turn: the player's before the invasion too. */
	q = get(l->r, "ownership");
	for (k = 0; k < json_array_size(q); k++)
		held = held && !(is(get(json_array_get(q, k), "cell"), at) &&
		    is(get(json_array_get(q, k), "to"), l->me));
	if (!held)
		return;
	for (k = 0; k < json_array_size(a); k++) {
		q = json_array_get(a, k);
		if (!is(get(q, "player"), pl) || !is(get(q, "target"), at) ||
		    is(get(q, "at"), at) || !invading(get(q, "cause")))
			continue;
		if (k < i)
			return;
		n += json_integer_value(get(q, cx));
	}
	event(l, ev, at, "invaded", t_printf(l->t, "invaded by %s, held; "
	    "%s lost %s", pl, pl, count(l, n, cx)));
}

/* Another player's units whose order caused the loss o: " by blue's
 * b1"; "" for the player's own or no order.  The order is looked up in
 * the whole result; only its units are named, never its id. */
static const char *
by(struct letter *l, const json_t *o)
{
	const json_t	*a = get(l->full, "orders"), *q;
	size_t		 i;

	if (!json_is_string(get(o, "order_player")) ||
	    is(get(o, "order_player"), l->me))
		return "";
	for (i = 0; i < json_array_size(a); i++) {
		q = json_array_get(a, i);
		if (is(get(q, "id"), sv(get(o, "order"))) && is(get(q,
		    "player"), sv(get(o, "order_player"))) &&
		    json_array_size(get(q, "units")) > 0)
			return t_printf(l->t, " by %s %s", poss(l, sv(get(q,
			    "player"))), join(l, get(q, "units"), 0, ", "));
	}
	return t_printf(l->t, " by %s", sv(get(o, "order_player")));
}

/* Whether the player held cell c before the turn: its first change of
 * owner was from them, or it has none and they hold it now. */
static bool
held_before(struct letter *l, const char *c)
{
	const json_t	*a = get(l->r, "ownership"), *cl = get(l->r, "cells");
	size_t		 i;

	for (i = 0; i < json_array_size(a); i++)
		if (is(get(json_array_get(a, i), "cell"), c))
			return is(get(json_array_get(a, i), "from"), l->me);
	for (i = 0; i < json_array_size(cl); i++)
		if (is(get(json_array_get(cl, i), "cell"), c))
			return is(get(json_array_get(cl, i), "owner"), l->me);
	return false;
}

/* What was done to them, each where it happened. */
static void
done_to(struct letter *l, json_t *L)
{
	json_t		*ev = jw_ok(json_array());
	const json_t	*a, *o, *u;
	size_t		 i, k;
	const char	*cx = l->t->rs->cell_x != NULL ?
			    l->t->rs->cell_x[0].name : "armies";

	jw_set(L, "events", ev);
	jw_set(L, "ground", jw_ok(json_array()));
	a = get(l->full, "charges");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (!my_unit(l, get(o, "target")))
			continue;
		event(l, ev, sv(get(o, "at")), "charged", t_printf(l->t,
		    "%s charged by %s from %s: %s (%s)",
		    sv(get(o, "target")), sv(get(o, "charger")),
		    sv(get(o, "from")), outcome(l, o), test(l, o)));
	}
	a = get(l->r, "attacks");
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *d;

		o = json_array_get(a, i);
		d = get(o, "defenders");
		if (is(get(o, "player"), l->me))
			continue;
		for (k = 0; k < json_array_size(d); k++)
			if (my_unit(l, json_array_get(d, k)))
				event(l, ev, sv(get(o, "target")), "attacked",
				    t_printf(l->t, "%s attacked by %s from %s",
				    sv(json_array_get(d, k)), join(l,
				    get(o, "units"), 0, ","),
				    sv(get(o, "from"))));
	}
	a = get(l->r, "losses");
	for (i = 0; i < json_array_size(a); i++) {
		const char	*at, *pl = sv(get(o = json_array_get(a, i),
				    "player"));

		at = json_is_string(get(o, "target")) ? sv(get(o, "target")) :
		    sv(get(o, "at"));
		if (json_is_string(get(o, "unit"))) {
			if (strcmp(pl, l->me) != 0)
				continue;
			u = unit(l, sv(get(o, "unit")));
			/* Where it stood when it lost: the loss says, or
			 * (older results) where it ended. */
			if (*at == '\0' && json_is_object(get(o, "pose")))
				at = where(l, o);
			if (*at == '\0' && u != NULL)
				at = where(l, u);
			event(l, ev, at, "lost", t_printf(l->t,
			    "%s lost %lld strength %s%s", sv(get(o, "unit")),
			    (long long)json_integer_value(get(o,
			    "strength")), cause(l, get(o, "cause")),
			    by(l, o)));
			continue;
		}
		if (strcmp(pl, l->me) == 0 && is(get(o, "cause"), "loop")) {
			/* Armies that met armies coming the other way: on
			 * the border, between where each set out. */
			event(l, ev, t_printf(l->t, "between %s and %s",
			    sv(get(o, "at")), at), "lost", t_printf(l->t,
			    "%s lost in a skirmish with armies coming the "
			    "other way", count(l, json_integer_value(get(o,
			    cx)), cx)));
			continue;
		}
		if (strcmp(pl, l->me) == 0) {
			event(l, ev, at, "lost", t_printf(l->t, "%s lost %s%s%s",
			    count(l, json_integer_value(get(o, cx)), cx),
			    is(get(o, "at"), at) && is(get(o, "cause"),
			    "invasion") ? "defending against an invasion" :
			    cause(l, get(o, "cause")),
			    is(get(o, "at"), at) ? "" : ", from ",
			    is(get(o, "at"), at) ? "" : sv(get(o, "at"))));
			continue;
		}
		invaded(l, ev, a, i, cx);
	}
	a = get(l->r, "gains");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (is(get(o, "player"), l->me))
			event(l, ev, sv(get(o, "at")), "gained",
			    t_printf(l->t, "%s gained (%s)", count(l,
			    json_integer_value(get(o, cx)), cx),
			    words(l, sv(get(o, "cause")))));
	}
	a = get(l->r, "ownership");
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *f, *to;

		o = json_array_get(a, i);
		f = get(o, "from");
		to = get(o, "to");
		if (is(f, l->me)) {
			const json_t	*n = NULL;

			/* Emptied, then claimed: taken by the claimer. */
			for (k = i + 1; k < json_array_size(a) && n == NULL;
			    k++)
				if (is(get(json_array_get(a, k), "cell"),
				    sv(get(o, "cell"))) && json_is_null(get(
				    json_array_get(a, k), "from")))
					n = json_array_get(a, k);
			if (json_is_null(to) && n != NULL &&
			    json_is_string(get(n, "to")))
				event(l, ev, sv(get(o, "cell")), "lost_ground",
				    t_printf(l->t, "taken by %s (%s, then %s)",
				    sv(get(n, "to")), words(l, sv(get(o,
				    "why"))), words(l, sv(get(n, "why")))));
			else
				event(l, ev, sv(get(o, "cell")), "lost_ground",
				    json_is_null(to) ? t_printf(l->t, "lost: "
				    "no one holds it now (%s)", words(l,
				    sv(get(o, "why")))) : t_printf(l->t,
				    "lost to %s (%s)", sv(to), words(l,
				    sv(get(o, "why")))));
		} else if (is(to, l->me))
			took(l, L, sv(get(o, "cell")), sv(get(o, "why")));
	}
	a = get(l->r, "destroyed");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (held_before(l, sv(get(o, "cell"))))
			event(l, ev, sv(get(o, "cell")), "destroyed",
			    t_printf(l->t, "your %s was destroyed%s",
			    sv(get(o, "feature")), by(l, o)));
	}
	a = get(l->r, "units");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (is(get(o, "player"), l->me) &&
		    is(get(o, "status"), "eliminated"))
			event(l, ev, where(l, o), "eliminated",
			    t_printf(l->t, "%s was eliminated",
			    sv(get(o, "id"))));
	}
}

/* The dice that touched them: the draws whose reason names a unit of
 * theirs (and, orders hidden, no order of another player's). */
static void
dice(struct letter *l, json_t *L)
{
	json_t		*d = jw_ok(json_array()), *e;
	const json_t	*a = get(get(l->full, "dice"), "draws"), *o, *us;
	size_t		 i, k;

	jw_set(L, "dice", d);
	us = get(l->r, "units");
	for (i = 0; i < json_array_size(a); i++) {
		const char	*why;
		bool		 mine = false;

		o = json_array_get(a, i);
		why = sv(get(o, "why"));
		for (k = 0; k < json_array_size(us) && !mine; k++) {
			const json_t *u = json_array_get(us, k);

			mine = is(get(u, "player"), l->me) &&
			    has_word(why, sv(get(u, "id")));
		}
		for (k = 0; k < json_array_size(l->hidden) && mine; k++)
			mine = !has_word(why, sv(json_array_get(l->hidden,
			    k)));
		if (!mine)
			continue;
		/* "a d4 rolled 2: not stuck (fi1 enters the marsh at
		 * 0302: stuck on a 1)": what it decided first. */
		e = say(l, d, "a d%lld rolled %lld%s%s (%s)",
		    (long long)json_integer_value(get(o, "sides")),
		    (long long)json_integer_value(get(o, "value")),
		    json_is_string(get(o, "decided")) ? ": " : "",
		    sv(get(o, "decided")), why);
		jw_set(e, "sides", json_incref((json_t *)get(o, "sides")));
		jw_set(e, "value", json_incref((json_t *)get(o, "value")));
	}
}

/* The numbers of a unit or cell: its integer members, in words. */
static const char *
numbers(struct letter *l, const json_t *o, const char *cx)
{
	const char	*key, *s = "";
	json_t		*m;

	json_object_foreach((json_t *)o, key, m) {
		const struct ufield *x = l->t->rs->unit_x;
		size_t	 kn = strlen(key);

		/* An object of counters: "supplies (fuel 0)". */
		if (json_is_object(m) && json_object_size(m) > 0) {
			const char	*k2, *in = "";
			json_t		*n;
			bool		 all = true;

			json_object_foreach(m, k2, n) {
				all = all && json_is_integer(n);
				in = t_printf(l->t, "%s%s%s %lld", in, *in ?
				    ", " : "", words(l, k2),
				    (long long)json_integer_value(n));
			}
			if (all)
				s = t_printf(l->t, "%s%s%s (%s)", s, *s ? ", " :
				    "", words(l, key), in);
			continue;
		}
		if (!json_is_integer(m))
			continue;
		/* What is left of this turn's allowance is not the next
		 * turn's (ACP left). */
		if (kn > 5 && strcmp(key + kn - 5, "_left") == 0)
			continue;
		for (; x != NULL && x->name != NULL; x++)
			if (x->quiet && strcmp(x->name, key) == 0 &&
			    json_integer_value(m) == x->dflt)
				break;
		if (x != NULL && x->name != NULL)
			continue;
		if (strcmp(key, cx) == 0)
			s = t_printf(l->t, "%s%s%s", s, *s ? ", " : "",
			    count(l, json_integer_value(m), cx));
		else
			s = t_printf(l->t, "%s%s%s %lld", s, *s ? ", " : "",
			    words(l, key), (long long)json_integer_value(m));
	}
	return s;
}

/* "ap 8, mana 3" in words: "AP 8, mana 3". */
static const char *
pools(struct letter *l, const char *s)
{
	const char	*o = "", *sp, *e;

	for (; *s != '\0'; s = *e ? e + 2 : e) {
		if ((e = strstr(s, ", ")) == NULL)
			e = s + strlen(s);
		if ((sp = memchr(s, ' ', (size_t)(e - s))) == NULL)
			sp = e;
		o = t_printf(l->t, "%s%s%s%.*s", o, *o ? ", " : "",
		    words(l, t_printf(l->t, "%.*s", (int)(sp - s), s)),
		    (int)(e - sp), sp);
	}
	return o;
}

static void
stand_player(struct letter *l, json_t *b, const char *who)
{
	json_t		*g = jw_ok(json_object()), *ls = jw_ok(json_array());
	const json_t	*a, *o;
	size_t		 i;
	const char	*cx = l->t->rs->cell_x != NULL ?
			    l->t->rs->cell_x[0].name : "";

	jw_add(b, g);
	jw_set(g, "player", who != NULL ? jw_ok(json_string(who)) :
	    jw_ok(json_null()));
	jw_set(g, "lines", ls);
	a = get(l->r, "units");
	for (i = 0; i < json_array_size(a); i++) {
		json_t *e;

		o = json_array_get(a, i);
		if (who == NULL || !is(get(o, "player"), who))
			continue;
		if (is(get(o, "status"), "eliminated"))
			e = say(l, ls, "%s %s: eliminated", sv(get(o, "id")),
			    sv(get(o, "type")));
		else if (is(get(o, "status"), "left_world"))
			e = say(l, ls, "%s %s: left the world (from %s)",
			    sv(get(o, "id")), sv(get(o, "type")), where(l, o));
		else
			e = say(l, ls, "%s %s at %s: %s", sv(get(o, "id")),
			    sv(get(o, "type")), where(l, o),
			    numbers(l, o, cx));
		jw_set(e, "unit", jw_ok(json_string(sv(get(o, "id")))));
		jw_set(e, "at", jw_ok(json_string(where(l, o))));
	}
	for (i = 0; who != NULL && l->nv != NULL && i < l->t->players.n; i++)
		if (strcmp(l->t->players.v[i].name, who) == 0) {
			json_t *e;

			if (l->nv->pools[i] != NULL) {
				e = say(l, ls, "next turn: %s%s%s",
				    pools(l, l->nv->pools[i]),
				    l->nv->lists[i] != NULL ? "; " : "",
				    l->nv->lists[i] != NULL ? l->nv->lists[i] :
				    "");
				jw_set(e, "points", jw_ok(json_string(
				    l->nv->pools[i])));
			}
			if (l->nv->held[i] != NULL) {
				e = say(l, ls, "holds %s", l->nv->held[i]);
				jw_set(e, "holds", jw_ok(json_string(
				    l->nv->held[i])));
			}
		}
	a = get(l->r, "cells");
	for (i = 0; i < json_array_size(a); i++) {
		json_t		*e;
		const json_t	*f;
		const char	*fs;

		o = json_array_get(a, i);
		if (who == NULL ? !json_is_null(get(o, "owner")) :
		    !is(get(o, "owner"), who))
			continue;
		f = get(o, "features");
		fs = json_array_size(f) > 0 ? t_printf(l->t, " (%s)",
		    join(l, f, 0, ", ")) : "";
		e = say(l, ls, "%s: %s%s", sv(get(o, "cell")),
		    numbers(l, o, cx), fs);
		jw_set(e, "cell", jw_ok(json_string(sv(get(o, "cell")))));
	}
}

/* What they can see after the turn, grouped by player, theirs first;
 * then the territories no one holds. */
static void
stand(struct letter *l, json_t *L)
{
	json_t		*b = jw_ok(json_array());
	const json_t	*ps = get(l->full, "players");
	const char	*key;
	json_t		*m;
	size_t		 i;

	jw_set(L, "board", b);
	stand_player(l, b, l->me);
	json_object_foreach((json_t *)ps, key, m)
		if (strcmp(key, l->me) != 0)
			stand_player(l, b, key);
	for (i = 0; i < json_array_size(get(l->r, "cells")); i++)
		if (json_is_null(get(json_array_get(get(l->r, "cells"), i),
		    "owner"))) {
			stand_player(l, b, NULL);
			break;
		}
}

/* Their points in words: "8 AP: 4 spent, 4 left". */
static void
points(struct letter *l, json_t *L)
{
	json_t		*pa = jw_ok(json_array()), *m, *n, *e;
	const json_t	*v = get(get(l->r, "players"), l->me);
	const char	*key, *k2;

	jw_set(L, "points", pa);
	json_object_foreach((json_t *)v, key, m) {
		size_t		 kn = strlen(key);
		const char	*s, *more = "";
		bool		 part = false;

		if (!json_is_integer(m))
			continue;
		/* A member named after an earlier one (ap_left) is said
		 * with it. */
		json_object_foreach((json_t *)v, k2, n) {
			size_t	 n2 = strlen(k2);

			if (strcmp(k2, key) == 0)
				break;
			if (n2 < kn && strncmp(key, k2, n2) == 0 &&
			    key[n2] == '_')
				part = true;
		}
		if (part)
			continue;
		json_object_foreach((json_t *)v, k2, n)
			if (json_is_integer(n) && strncmp(k2, key, kn) == 0 &&
			    k2[kn] == '_')
				more = t_printf(l->t, "%s%s%lld %s", more,
				    *more ? ", " : ": ",
				    (long long)json_integer_value(n),
				    words(l, k2 + kn + 1));
		s = count(l, json_integer_value(m), words(l, key));
		e = say(l, pa, "%s%s", s, more);
		jw_set(e, "name", jw_ok(json_string(key)));
		jw_set(e, "value", json_incref(m));
	}
}

/*
 * Builds the letter into r (the report cut for me) from it and from full
 * (the whole result).
 */
void
letter_build(struct arb_turn *t, const char *me, bool reveal, json_t *r,
    json_t *full, const struct nextview *nv)
{
	struct letter	 l;
	json_t		*L = jw_ok(json_object());
	const json_t	*a = get(full, "orders");
	size_t		 i;

	l.t = t;
	l.me = me;
	l.reveal = reveal;
	l.r = r;
	l.full = full;
	l.check = json_is_true(get(r, "check"));
	l.nv = nv;
	jw_set(r, "letter", L);
	l.hidden = jw_ok(json_array());
	jw_set(L, "", l.hidden);
	if (!reveal)
		for (i = 0; i < json_array_size(a); i++)
			if (!is(get(json_array_get(a, i), "player"), me))
				jw_add(l.hidden, json_incref((json_t *)get(
				    json_array_get(a, i), "id")));
	fate(&l, L);
	headlines(&l, L);
	done_to(&l, L);
	dice(&l, L);
	stand(&l, L);
	points(&l, L);
	json_object_del(L, "");
}

/*
 * One line of the letter, folded at spaces to WIDTH columns for a phone's
 * screen, its later lines hang columns further in.  A word longer than the
 * line is not cut.  Columns are counted in characters (UTF-8).
 */
#define WIDTH	64

static void
put_line(FILE *fp, const char *indent, size_t hang, const char *s)
{
	size_t	 col, w, len, in = strlen(indent);
	const char *p, *e;
	bool	 first = true;

	while (*s != '\0') {
		fprintf(fp, "%s%*s", indent, first ? 0 : (int)hang, "");
		col = in + (first ? 0 : hang);
		first = false;
		for (p = s, e = NULL, w = col;; p++) {
			if (*p == ' ' || *p == '\0') {
				if (w > WIDTH && e != NULL)
					break;
				e = p;
				if (*p == '\0')
					break;
			}
			if (((unsigned char)*p & 0xc0) != 0x80)
				w++;
		}
		len = (size_t)(e - s);
		fwrite(s, 1, len, fp);
		fputc('\n', fp);
		s = e;
		while (*s == ' ')
			s++;
	}
}

static void
lines(FILE *fp, const json_t *a, const char *indent, const char *none)
{
	size_t	 i;

	for (i = 0; i < json_array_size(a); i++)
		put_line(fp, indent, 2, sv(get(json_array_get(a, i),
		    "says")));
	if (i == 0 && none != NULL)
		fprintf(fp, "%s%s\n", indent, none);
}

/* The other players' orders, when the game reveals them. */
static void
others(const json_t *L, FILE *fp)
{
	const json_t	*a = get(L, "others"), *g;
	size_t		 i;

	if (!json_is_array(a)) {
		fputs("\nThe other players' orders are kept secret in this "
		    "game.\n", fp);
		return;
	}
	fputs("\nThe other players' orders\n", fp);
	for (i = 0; i < json_array_size(a); i++) {
		g = json_array_get(a, i);
		put_line(fp, "  ", 4, sv(get(g, "what")));
		put_line(fp, "    ", 0, sv(get(g, "outcome")));
	}
	if (i == 0)
		fputs("  none\n", fp);
}

/* The letter as text: each line of the JSON letter, under its heading. */
void
letter_text(struct arb_turn *t, const char *me, const json_t *r, FILE *fp)
{
	const json_t	*L = get(r, "letter"), *a, *g;
	size_t		 i;
	bool		 check = json_is_true(get(r, "check"));

	fprintf(fp, "%s, turn %d: the %s for %s\n", t->rs->name,
	    t->number, check ? "check" : "letter", me);
	fputs("\n", fp);
	put_line(fp, "", 0, sv(get(get(L, "orders"), "says")));
	lines(fp, get(get(L, "orders"), "problems"), "  ", NULL);
	fputs("\nYour orders\n", fp);
	a = get(L, "headlines");
	for (i = 0; i < json_array_size(a); i++) {
		g = json_array_get(a, i);
		put_line(fp, "  ", 4, sv(get(g, "what")));
		put_line(fp, "    ", 0, sv(get(g, "outcome")));
		if (*sv(get(g, "detail")) != '\0')
			put_line(fp, "      ", 0, sv(get(g, "detail")));
	}
	if (i == 0)
		fputs("  none\n", fp);
	if (check) {
		fputs("\n", fp);
		put_line(fp, "", 0, "Nothing is adjudicated in a check: this "
		    "says what the run would do.");
		if (*sv(get(r, "assumed")) != '\0')
			put_line(fp, "", 0, t_printf(t, "It assumed that %s.",
			    sv(get(r, "assumed"))));
		return;
	}
	fputs("\nWhat happened to you\n", fp);
	lines(fp, get(L, "events"), "  ", "nothing");
	if (json_array_size(get(L, "ground")) > 0) {
		fputs("\nGround now yours\n", fp);
		lines(fp, get(L, "ground"), "  ", NULL);
	}
	if (json_array_size(get(L, "dice")) > 0) {
		fputs("\nThe dice that touched you\n", fp);
		lines(fp, get(L, "dice"), "  ", NULL);
	}
	fputs("\nWhere everyone stands\n", fp);
	a = get(L, "board");
	for (i = 0; i < json_array_size(a); i++) {
		g = json_array_get(a, i);
		if (json_is_null(get(g, "player")))
			fputs("  no one's\n", fp);
		else
			fprintf(fp, "  %s%s\n", sv(get(g, "player")),
			    is(get(g, "player"), me) ? " (you)" : "");
		lines(fp, get(g, "lines"), "    ", "nothing");
	}
	fputs("\nYour points\n", fp);
	lines(fp, get(L, "points"), "  ", "none kept by this rule system");
	others(L, fp);
}
