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

/* First: what became of the player's orders. */
static void
fate(struct letter *l, json_t *L)
{
	json_t		*f = jw_ok(json_object()), *probs;
	const json_t	*a = get(l->r, "files"), *o;
	size_t		 i, k;
	long long	 n = 0, m = 0;
	const char	*st = "none";

	jw_set(L, "orders", f);
	probs = jw_ok(json_array());
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (!is(get(o, "player"), l->me))
			continue;
		if (is(get(o, "status"), "refused")) {
			const json_t *p = get(o, "problems");

			st = "refused";
			jw_set(f, "file", jw_ok(json_string(sv(get(o,
			    "file")))));
			for (k = 0; k < json_array_size(p); k++) {
				const json_t *q = json_array_get(p, k);

				say(l, probs, "%s: %s",
				    reason(l, get(q, "reason")),
				    sv(get(q, "message")));
			}
		} else if (strcmp(st, "refused") != 0)
			st = "read";
	}
	a = get(l->r, "orders");
	for (i = 0; i < json_array_size(a); i++) {
		o = json_array_get(a, i);
		if (!is(get(o, "player"), l->me))
			continue;
		n++;
		m += is(get(o, "status"), "refused");
	}
	jw_set(f, "status", jw_ok(json_string(st)));
	jw_set(f, "read", jw_ok(json_integer(n)));
	jw_set(f, "refused", jw_ok(json_integer(m)));
	if (strcmp(st, "refused") == 0)
		jw_set(f, "says", jw_ok(json_string(t_printf(l->t,
		    "Your orders file %s %s refused: your units %s.",
		    sv(get(f, "file")), l->check ? "would be" : "was",
		    l->check ? "would hold" : "held"))));
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
		    "%s read, %lld refused.", count(l, n, "orders"), m))));
	jw_set(f, "problems", probs);
}

/* The charge an order of the player's made, if any. */
static const json_t *
charge_of(struct letter *l, const json_t *o)
{
	const json_t	*a = get(l->full, "charges"), *c;
	size_t		 i;

	for (i = 0; i < json_array_size(a); i++) {
		c = json_array_get(a, i);
		if (is(get(c, "order"), sv(get(o, "id"))) &&
		    is(get(c, "order_player"), l->me))
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
		return t_printf(l->t, "rolled %lld, could hold on no roll",
		    roll);
	return t_printf(l->t, "rolled %lld, held on %lld or less", roll,
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
		    sv(get(o, "id"))) && is(get(e, "player"), l->me) &&
		    json_is_string(get(e, "by")))
			return sv(get(e, "by"));
	}
	return NULL;
}

/* Their orders: each one's headline. */
static void
headlines(struct letter *l, json_t *L)
{
	json_t		*h = jw_ok(json_array()), *e;
	const json_t	*a = get(l->r, "orders"), *o, *p, *u, *c;
	const char	*z;
	size_t		 i, k;

	jw_set(L, "headlines", h);
	for (i = 0; i < json_array_size(a); i++) {
		const char	*who, *to = "", *out, *st;

		o = json_array_get(a, i);
		if (!is(get(o, "player"), l->me))
			continue;
		st = sv(get(o, "status"));
		who = join(l, get(o, "units"), 0, ",");
		if (*who == '\0' && json_is_integer(get(o, "armies")))
			who = count(l, json_integer_value(get(o, "armies")),
			    "armies");
		p = get(o, "path");
		if (json_array_size(p) > 0)
			to = t_printf(l->t, " to %s", sv(json_array_get(p,
			    json_array_size(p) - 1)));
		else if (json_is_string(get(o, "target")))
			to = t_printf(l->t, " at %s", sv(get(o, "target")));
		/* Where the order's first unit stands, if on its path
		 * before the end: it stopped short. */
		u = json_array_size(get(o, "units")) > 0 ? unit(l,
		    sv(json_array_get(get(o, "units"), 0))) : NULL;
		k = json_array_size(p);
		if (u != NULL && k > 1 && (strcmp(st, "done") == 0 ||
		    strcmp(st, "failed") == 0))
			for (k = 0; k + 1 < json_array_size(p); k++)
				if (is(json_array_get(p, k), where(l, u)))
					break;
		if (k + 1 < json_array_size(p) && k > 0 &&
		    (z = zone_of(l, o)) != NULL)
			out = t_printf(l->t, "%s%sstopped at %s: entered the "
			    "zone of control of %s (zoc_stop); %s not entered",
			    strcmp(st, "done") == 0 ? "" : st,
			    strcmp(st, "done") == 0 ? "" : ", ",
			    sv(json_array_get(p, k)), z,
			    join(l, p, k + 1, ", "));
		else if (k + 1 < json_array_size(p) && k > 0)
			out = t_printf(l->t, "%s%sstopped at %s: %s; %s not "
			    "entered", strcmp(st, "done") == 0 ? "" : st,
			    strcmp(st, "done") == 0 ? "" : ", ",
			    sv(json_array_get(p, k)),
			    reason(l, get(o, "reason")),
			    join(l, p, k + 1, ", "));
		else if (k + 1 < json_array_size(p) && u != NULL &&
		    strcmp(st, "illegal") != 0 && strcmp(st, "refused") != 0)
			out = t_printf(l->t, "%s, did not move: %s", st,
			    reason(l, get(o, "reason")));
		else if (strcmp(st, "done") == 0)
			out = is(get(o, "reason"), "ok") ? "done" :
			    t_printf(l->t, "done: %s", reason(l, get(o,
			    "reason")));
		else
			out = t_printf(l->t, "%s: %s", st, reason(l, get(o,
			    "reason")));
		if (l->check && strncmp(sv(get(o, "reason")), "depends_on",
		    10) == 0)
			out = reason(l, get(o, "reason"));
		else if (l->check)
			out = strcmp(st, "legal") == 0 ? (is(get(o, "reason"),
			    "ok") ? "would be carried out" : t_printf(l->t,
			    "would be carried out: %s", reason(l, get(o,
			    "reason")))) : t_printf(l->t, "would be %s: %s",
			    strcmp(st, "failed") == 0 ? "refused at its moment" :
			    strcmp(st, "illegal") == 0 ? "refused as illegal" :
			    st, reason(l, get(o, "reason")));
		if ((c = charge_of(l, o)) != NULL)
			out = t_printf(l->t, "%s; charged %s at %s: %s", out,
			    sv(get(c, "target")), sv(get(c, "at")),
			    outcome(l, c));
		e = say(l, h, "%s: %s %s%s: %s", sv(get(o, "id")),
		    sv(get(o, "kind")), who, to, out);
		jw_set(e, "what", jw_ok(json_string(t_printf(l->t,
		    "%s: %s %s%s", sv(get(o, "id")), sv(get(o, "kind")), who,
		    to))));
		jw_set(e, "outcome", jw_ok(json_string(out)));
		jw_set(e, "order", jw_ok(json_string(sv(get(o, "id")))));
		jw_set(e, "status", jw_ok(json_string(st)));
		jw_set(e, "detail", jw_ok(json_string(sv(get(o,
		    "message")))));
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
	return t_printf(l->t, "(%s)", words(l, sv(c)));
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

	if (!json_is_string(get(o, "target")) || is(get(o, "at"), at))
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
		    is(get(q, "at"), at))
			continue;
		if (k < i)
			return;
		n += json_integer_value(get(q, cx));
	}
	event(l, ev, at, "invaded", t_printf(l->t, "invaded by %s, held; "
	    "%s lost %s", pl, pl, count(l, n, cx)));
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
			if (*at == '\0' && u != NULL)
				at = where(l, u);
			event(l, ev, at, "lost", t_printf(l->t,
			    "%s lost %lld strength %s", sv(get(o, "unit")),
			    (long long)json_integer_value(get(o,
			    "strength")), cause(l, get(o, "cause"))));
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
		if (is(f, l->me))
			event(l, ev, sv(get(o, "cell")), "lost_ground",
			    t_printf(l->t, "lost to %s (%s)", json_is_null(to) ?
			    "no one" : sv(to), words(l, sv(get(o, "why")))));
		else if (is(to, l->me))
			took(l, L, sv(get(o, "cell")), sv(get(o, "why")));
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
		e = say(l, d, "a d%lld: %lld, %s",
		    (long long)json_integer_value(get(o, "sides")),
		    (long long)json_integer_value(get(o, "value")), why);
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
		if (!json_is_integer(m))
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
		else
			e = say(l, ls, "%s %s at %s: %s", sv(get(o, "id")),
			    sv(get(o, "type")), where(l, o),
			    numbers(l, o, cx));
		jw_set(e, "unit", jw_ok(json_string(sv(get(o, "id")))));
		jw_set(e, "at", jw_ok(json_string(where(l, o))));
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
    json_t *full)
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
		fputs("\nNothing is adjudicated in a check: this says what "
		    "the run would do.\n", fp);
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
}
