/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the result as one player may see it
 * (arbiter-result(5), A player's report).  The whole result is written,
 * read back and cut, so that whatever a rule system adds is cut by the
 * same rules without knowing it:
 *
 *  - the player's own orders, files and attacks stay in full;
 *  - of the other players', with the map's reveal_orders true (the
 *    default), their orders after adjudication stay too; with it false,
 *    their orders, files and attacks go, every member that names one of
 *    their orders goes with the member naming its player (X and
 *    X_player, and the matching elements of X and X_players; the target
 *    of an order goes with it), the other
 *    players' resources go (their spending tells their orders), the dice
 *    keep their values but not why they were rolled, the refusals are
 *    counted for the player alone, and the trace keeps only the events
 *    that name an order of the player's and no other's;
 *  - the board after the turn (units, losses, ownership, cells) stays.
 *
 * With VIEW_TEXT the same cut is written as plain text for a mail.
 * Both end with the template of the player's orders for the next turn
 * (struct tmpl), built from the next map as -n writes it.
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "base/fair.h"
#include "json/doc.h"

struct cut {
	const char	*me;
	bool		 reveal;
	json_t		*hold;		/* what is being built, held in r */
};

static bool
is(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

/* Whether an element of orders, files or attacks is someone else's. */
static bool
others(const struct cut *c, const json_t *v)
{
	const json_t	*p = json_object_get(v, "player");

	return !c->reveal && p != NULL && !is(p, c->me);
}

static void
keep_mine(const struct cut *c, json_t *arr)
{
	size_t	 i;

	for (i = 0; i < json_array_size(arr);)
		if (others(c, json_array_get(arr, i)))
			json_array_remove(arr, i);
		else
			i++;
}

/* Every member naming another player's order goes, with its player. */
static void
strip(const struct cut *c, json_t *v)
{
	const char	*key;
	json_t		*m, *gone;
	size_t		 i;
	char		 base[128];

	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++)
			strip(c, json_array_get(v, i));
		return;
	}
	if (!json_is_object(v))
		return;
	/* The keys to drop are listed first and dropped after: an object
	 * is not changed while it is walked. */
	gone = jw_ok(json_array());
	json_object_set_new(c->hold, "", gone);
	json_object_foreach(v, key, m) {
		size_t	 n = strlen(key);

		if (n > 7 && n - 7 < sizeof(base) &&
		    strcmp(key + n - 7, "_player") == 0) {
			memcpy(base, key, n - 7);
			base[n - 7] = '\0';
			if (json_object_get(v, base) != NULL && !is(m, c->me)) {
				/* The cell an order fought for is where it
				 * went: it goes with the order. */
				if (strcmp(base, "order") == 0)
					jw_add(gone, jw_ok(json_string("target")));
				jw_add(gone, jw_ok(json_string(base)));
				jw_add(gone, jw_ok(json_string(key)));
			}
		} else if (n > 8 && n - 8 < sizeof(base) &&
		    strcmp(key + n - 8, "_players") == 0 &&
		    json_is_array(m)) {
			json_t	*b;

			memcpy(base, key, n - 8);
			base[n - 8] = '\0';
			b = json_object_get(v, base);
			/* breakaways and breakaway_players */
			if (b == NULL) {
				snprintf(base + n - 8, sizeof(base) - (n - 8),
				    "s");
				b = json_object_get(v, base);
			}
			if (b == NULL || !json_is_array(b))
				continue;
			for (i = json_array_size(m); i-- > 0;)
				if (!is(json_array_get(m, i), c->me)) {
					json_array_remove(m, i);
					json_array_remove(b, i);
				}
		}
	}
	for (i = 0; i < json_array_size(gone); i++)
		json_object_del(v, json_string_value(json_array_get(gone, i)));
	json_object_del(c->hold, "");
	json_object_foreach(v, key, m)
		strip(c, m);
}

/* A trace event is kept when every order it names is the player's, or
 * when it names none and is the player's own gain ("raise" with the
 * player's name) or a loss of the player's own unit (what the report's
 * "gains" and "losses" hold for the player already): as display.c's
 * view_event(). */
static bool
event_mine(struct arb_turn *t, const struct cut *c, json_t *ev)
{
	const char	*key;
	json_t		*m, *p;
	char		 pk[160];
	bool		 named = false;

	json_object_foreach(ev, key, m) {
		size_t	 n = strlen(key);

		if (strcmp(key, "order") == 0)
			p = json_object_get(ev, "player");
		else if (n >= 5 && strcmp(key + n - 5, "order") == 0 &&
		    n + 8 < sizeof(pk)) {
			snprintf(pk, sizeof(pk), "%s_player", key);
			p = json_object_get(ev, pk);
		} else
			continue;
		if (p == NULL || !is(p, c->me))
			return false;
		named = true;
	}
	if (!named) {
		const char	*e = json_string_value(json_object_get(ev, "ev"));
		json_t		*u = json_object_get(ev, "unit");
		int		 k;

		if (e != NULL && strcmp(e, "raise") == 0)
			return (p = json_object_get(ev, "player")) != NULL &&
			    is(p, c->me);
		if (e != NULL && strcmp(e, "loss") == 0 && json_is_string(u) &&
		    (k = strmap_get(&t->unit_ids, json_string_value(u))) >= 0)
			return strcmp(t->players.v[t->units.v[k].player].name,
			    c->me) == 0;
	}
	return named;
}

static void
cut(struct arb_turn *t, struct cut *c, int player, json_t *r)
{
	json_t		*v, *out;
	size_t		 i;
	int		 ro = 0, rf = 0;

	if (c->reveal)
		return;
	/* Built values hang from r while they are built, so that a
	 * failure drops them with it. */
	c->hold = jw_ok(json_object());
	json_object_set_new(r, "", c->hold);
	keep_mine(c, json_object_get(r, "files"));
	keep_mine(c, json_object_get(r, "orders"));
	keep_mine(c, json_object_get(r, "attacks"));
	for (i = 0; i < t->orders.n; i++)
		ro += t->orders.v[i].refused && t->orders.v[i].player == player;
	for (i = 0; i < t->files.n; i++)
		rf += t->files.v[i].refused && t->files.v[i].player == player;
	if ((v = json_object_get(r, "refused")) != NULL) {
		jw_set(v, "orders", jw_ok(json_integer(ro)));
		jw_set(v, "files", jw_ok(json_integer(rf)));
	}
	if ((v = json_object_get(r, "players")) != NULL) {
		const char	*key;
		json_t		*m;
		void		*tmp;

		json_object_foreach_safe(v, tmp, key, m)
			if (strcmp(key, c->me) != 0)
				json_object_del(v, key);
	}
	if ((v = json_object_get(r, "dice")) != NULL &&
	    (v = json_object_get(v, "draws")) != NULL)
		for (i = 0; i < json_array_size(v); i++)
			json_object_del(json_array_get(v, i), "why");
	if ((v = json_object_get(r, "trace")) != NULL) {
		out = jw_ok(json_array());
		json_object_set_new(c->hold, "trace", out);
		for (i = 0; i < json_array_size(v); i++)
			if (event_mine(t, c, json_array_get(v, i)))
				jw_add(out, json_incref(json_array_get(v,
				    i)));
		json_object_set(r, "trace", out);
	}
	strip(c, r);
	json_object_del(r, "");
}

/* The value's text, for the plain report. */
static const char *
sv(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

/*
 * The template of the player's orders for the next turn (arbiter-result(5),
 * A player's report): the text form's header for the next map, with the
 * first 16 hex digits of the SHA-256 of the next map as -n writes it; a
 * comment line for the player's resources and one for each unit, and
 * each cell with counters the player owns, with what it has to spend;
 * an example order in the map's names.  Read from the next map, by the
 * rule system's tables.
 */
struct tmpl {
	const char	*header;
	const char	**lines;	/* "# ..." */
	size_t		 nlines, cap;
	const char	*example;	/* an order, or NULL */
	struct nextview	 nv;		/* for the letter */
};

/* A name as the text form writes it: in double quotes when it holds a
 * space, '#', ',', ':' or '"' (a '"' or '\\' escaped). */
static const char *
tname(struct arb_turn *t, const char *s)
{
	char	*q, *w;
	size_t	 n = strlen(s);

	if (n > 0 && strpbrk(s, " #,:\"") == NULL)
		return s;
	w = q = t_alloc(t, 2 * n + 3);
	*w++ = '"';
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			*w++ = '\\';
		*w++ = *s;
	}
	*w++ = '"';
	*w = '\0';
	return q;
}

/* A number with its rule-system word: "1 army", "3 armies". */
static const char *
counted(struct arb_turn *t, long n, const char *word)
{
	size_t	 k = strlen(word);

	if (n != 1 || k < 2 || word[k - 1] != 's')
		return t_printf(t, "%ld %s", n, word);
	if (k > 3 && strcmp(word + k - 3, "ies") == 0)
		return t_printf(t, "1 %.*sy", (int)(k - 3), word);
	return t_printf(t, "1 %.*s", (int)(k - 1), word);
}

/* Whether a unit of the list us stands on cell c. */
static bool
held(const struct board *b, const json_t *us, int c)
{
	char	 buf[32];
	size_t	 i;

	for (i = 0; i < json_array_size(us); i++)
		if (is(json_object_get(json_array_get(us, i), "at"),
		    board_label(b, c, buf)))
			return true;
	return false;
}

/* A neighbour of cell c on the board that no unit of us stands on (an
 * example order a check would not refuse for that), else any, or -1. */
static int
neighbour(const struct board *b, int c, const json_t *us)
{
	int	 out[6], n = 0, i;

	if (c < 0)
		return -1;
	if (b->kind == BOARD_HEX)
		n = board_neighbors(b, c, out);
	else if (b->kind == BOARD_GRAPH)
		for (i = b->adj_at[c]; i < b->adj_at[c + 1] && n < 6; i++)
			out[n++] = b->adj[i];
	for (i = 0; i < n; i++)
		if (!held(b, us, out[i]))
			return out[i];
	return n > 0 ? out[0] : -1;
}

/* "name V, name V" for each integer member of o named in the lists,
 * or "". */
static const char *
counters(struct arb_turn *t, const json_t *o, const struct ufield *x,
    const char *const *keys)
{
	const json_t	*v;
	const char	*s = "";

	for (; x != NULL && x->name != NULL; x++)
		if (json_is_integer(v = json_object_get(o, x->name)))
			s = t_printf(t, "%s%s%s %lld", s, *s ? ", " : "",
			    x->name, (long long)json_integer_value(v));
	for (; keys != NULL && *keys != NULL; keys++)
		if (json_is_integer(v = json_object_get(o, *keys)))
			s = t_printf(t, "%s%s%s %lld", s, *s ? ", " : "",
			    *keys, (long long)json_integer_value(v));
	return s;
}

/* Adds a line; the list doubles when full, so that a player with many
 * units costs memory in proportion (the arena keeps what it outgrew). */
static void
tline(struct arb_turn *t, struct tmpl *tp, const char *line)
{
	const char	**l;

	if (tp->nlines == tp->cap) {
		tp->cap = tp->cap == 0 ? 16 : 2 * tp->cap;
		l = t_alloc(t, tp->cap * sizeof(*l));
		if (tp->nlines > 0)
			memcpy(l, tp->lines, tp->nlines * sizeof(*l));
		tp->lines = l;
	}
	tp->lines[tp->nlines++] = line;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * What the next map n says of each player, for the letter: the points
 * they start the next turn with, and the cells they hold where cells
 * carry no counters (a territory's are in the report's cells).
 */
static void
next_view(struct arb_turn *t, const json_t *n, struct nextview *nv)
{
	const json_t	*cells = json_object_get(n, "cells"), *res, *v;
	const char	*const *r, *key, *s, **ks;
	json_t		*m;
	size_t		 p, k, i;

	ks = t_alloc(t, (json_object_size(cells) + 1) * sizeof(*ks));
	nv->pools = t_alloc(t, t->players.n * sizeof(*nv->pools));
	nv->held = t_alloc(t, t->players.n * sizeof(*nv->held));
	nv->lists = t_alloc(t, t->players.n * sizeof(*nv->lists));
	for (p = 0; p < t->players.n; p++) {
		const char *me = t->players.v[p].name;

		nv->pools[p] = nv->held[p] = nv->lists[p] = NULL;
		res = json_object_get(json_object_get(n, "players"), me);
		for (s = NULL, r = t->rs->player_res; r != NULL && *r != NULL;
		    r++)
			if (json_is_integer(v = json_object_get(res, *r)))
				s = t_printf(t, "%s%s%s %lld", s != NULL ? s :
				    "", s != NULL ? ", " : "", *r,
				    (long long)json_integer_value(v));
		nv->pools[p] = s;
		/* Lists of names the player has, as "discoveries". */
		s = NULL;
		json_object_foreach((json_t *)res, key, m) {
			const char	*in = NULL;

			if (!json_is_array(m) || json_array_size(m) == 0)
				continue;
			for (i = 0; i < json_array_size(m); i++)
				if (json_is_string(json_array_get(m, i)))
					in = t_printf(t, "%s%s%s", in != NULL ?
					    in : "", in != NULL ? ", " : "",
					    json_string_value(json_array_get(m,
					    i)));
			if (in != NULL)
				s = t_printf(t, "%s%s%s: %s", s != NULL ? s :
				    "", s != NULL ? "; " : "", key, in);
		}
		nv->lists[p] = s;
		if (t->rs->cell_x != NULL)
			continue;
		/* Sorted: the map's cells come in its own order. */
		k = 0;
		json_object_foreach((json_t *)cells, key, m)
			if (is(json_object_get(m, "owner"), me))
				ks[k++] = key;
		qsort(ks, k, sizeof(*ks), by_name);
		for (s = NULL, i = 0; i < k; i++)
			s = t_printf(t, "%s%s%s", s != NULL ? s : "",
			    s != NULL ? ", " : "", ks[i]);
		nv->held[p] = s;
	}
}

/* Builds the template, or returns false where there is no next turn to
 * write orders for (--check; the last turn a map can have). */
static bool
template_build(struct arb_turn *t, int player, struct tmpl *tp)
{
	const struct okind *k0 = &t->rs->order_kinds[0];
	const char	*me = t->players.v[player].name, *line, *key;
	const json_t	*v, *u, *res;
	const char	*const *r;
	unsigned char	 sha[32];
	char		 buf[32];
	json_t		*n, *cells, *m;
	json_error_t	 je;
	size_t		 i;
	long		 cnt;
	int		 c, d;

	memset(tp, 0, sizeof(*tp));
	if ((t->flags & ARB_CHECK) || t->number == INT_MAX)
		return false;
	t->vbuf = NULL;
	t->vlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL)
		t_nomem(t);
	emit_next(t, t->vmem);
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;
	fair_sha256(t->vbuf, t->vlen, sha);
	tp->header = t_printf(t, "arbiter orders %s turn %d map %.16s",
	    tname(t, me), t->number + 1, fair_hexstr(t, sha));
	jw_begin(&t->mem);
	t->wpooled = jv_pool(&t->wpool);
	n = t->json = jw_load(&t->mem, t->vbuf, t->vlen, &je);
	view_drop(t);
	if (n == NULL)
		t_fail(t, ARB_EINTERNAL, "the next map does not read back: %s",
		    je.text);
	/* The player's resources. */
	res = json_object_get(json_object_get(n, "players"), me);
	line = NULL;
	for (r = t->rs->player_res; r != NULL && *r != NULL; r++)
		if (json_is_integer(v = json_object_get(res, *r)))
			line = t_printf(t, "%s%s %s %lld", line != NULL ?
			    line : t_printf(t, "# %s:", tname(t, me)),
			    line != NULL ? "," : "", *r,
			    (long long)json_integer_value(v));
	if (line != NULL)
		tline(t, tp, line);
	next_view(t, n, &tp->nv);
	/* Each unit. */
	v = json_object_get(n, "units");
	for (i = 0; i < json_array_size(v); i++) {
		const json_t	*at, *pose;

		u = json_array_get(v, i);
		if (!is(json_object_get(u, "player"), me))
			continue;
		line = t_printf(t, "# %s %s", tname(t,
		    sv(json_object_get(u, "id"))), sv(json_object_get(u,
		    "type")));
		if (json_is_string(at = json_object_get(u, "at")))
			line = t_printf(t, "%s at %s", line, tname(t, sv(at)));
		else if ((pose = json_object_get(u, "pose")) != NULL)
			line = t_printf(t, "%s at x %g, y %g, facing %g", line,
			    json_number_value(json_object_get(pose, "x")),
			    json_number_value(json_object_get(pose, "y")),
			    json_number_value(json_object_get(pose,
			    "facing")));
		if (json_is_integer(json_object_get(u, "strength")))
			line = t_printf(t, "%s, strength %lld", line,
			    (long long)json_integer_value(json_object_get(u,
			    "strength")));
		key = counters(t, u, t->rs->unit_x, t->rs->unit_keys);
		tline(t, tp, *key ? t_printf(t, "%s, %s", line, key) : line);
		if (tp->example != NULL)
			continue;
		if (t->rs->example != NULL)
			tp->example = t_printf(t, "%s %s", tname(t,
			    sv(json_object_get(u, "id"))), t->rs->example);
		else if (k0->arg == OK_PATH && k0->count == NULL &&
		    json_is_string(at) && (d = neighbour(&t->board, c =
		    board_find(&t->board, sv(at)), v)) >= 0)
			tp->example = t_printf(t, "%s %s %s %s", tname(t,
			    sv(json_object_get(u, "id"))), k0->key,
			    tname(t, sv(at)), tname(t, board_label(&t->board,
			    d, buf)));
	}
	/* Each cell the player owns, where cells carry counters. */
	cells = json_object_get(n, "cells");
	if (t->rs->cell_x != NULL)
		json_object_foreach(cells, key, m) {
			if (!is(json_object_get(m, "owner"), me))
				continue;
			line = counters(t, m, t->rs->cell_x, NULL);
			tline(t, tp, t_printf(t, "# %s%s%s", tname(t, key),
			    *line != '\0' ? ": " : "", line));
			if (tp->example != NULL || k0->count == NULL ||
			    !json_is_integer(json_object_get(m, k0->count)) ||
			    (cnt = (long)json_integer_value(json_object_get(m,
			    k0->count))) < 1 ||
			    (d = neighbour(&t->board, board_find(&t->board,
			    key), NULL)) < 0)
				continue;
			tp->example = t_printf(t, "%s %s %s %s",
			    counted(t, cnt, k0->count), k0->key,
			    tname(t, key), tname(t, board_label(&t->board, d,
			    buf)));
		}
	emit_release(t);
	jv_pool(NULL);
	return true;
}

static void
template_text(const struct arb_turn *t, const struct tmpl *tp, FILE *fp)
{
	size_t	 i;

	fprintf(fp, "\nYour orders for turn %d: reply, copy the header line "
	    "below\n(without the quote marks a reply adds), write one order "
	    "to a\nline under it, and end with \"end\".\n", t->number + 1);
	fprintf(fp, "%s\n", tp->header);
	for (i = 0; i < tp->nlines; i++)
		fprintf(fp, "%s\n", tp->lines[i]);
	if (tp->example != NULL)
		fprintf(fp, "# for example: %s\n", tp->example);
	fputs("end\n", fp);
}

static json_t *
template_json(const struct tmpl *tp)
{
	json_t	*j = jw_ok(json_object()), *a;
	size_t	 i;

	jw_set(j, "header", jw_ok(json_string(tp->header)));
	a = jw_ok(json_array());
	jw_set(j, "lines", a);
	for (i = 0; i < tp->nlines; i++)
		jw_add(a, jw_ok(json_string(tp->lines[i])));
	if (tp->example != NULL)
		jw_set(j, "example", jw_ok(json_string(tp->example)));
	return j;
}

/*
 * The player's report: the result (with the trace under VIEW_TRACE)
 * written, read back, cut and written again.
 */
void
emit_view(struct arb_turn *t, int player, int flags, FILE *fp)
{
	struct cut	 c;
	struct tmpl	 tp;
	json_t		*r;
	json_error_t	 je;
	bool		 has_tmpl;
	const char	*key;
	json_t		*m, *full, *hold;

	c.me = t->players.v[player].name;
	c.reveal = view_reveals(t);
	has_tmpl = template_build(t, player, &tp);
	/* In the turn, where a failure finds them (view_drop). */
	t->vbuf = NULL;
	t->vlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL)
		t_nomem(t);
	/* With the trace whenever the run kept one: the letter reads it
	 * (the zone of control that stopped a move); it is dropped from the
	 * report after, unless asked for. */
	emit_result(t, (flags & VIEW_TRACE) || t->trace.n > 0 ?
	    ARB_RESULT_TRACE : 0, t->vmem);
	/* glibc's memory stream may lose its buffer at the last realloc
	 * and still close without an error. */
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;
	/* Read back into the turn's write pool, where a failure drops it
	 * (emit_release) and so does the end. */
	jw_begin(&t->mem);
	t->wpooled = jv_pool(&t->wpool);
	r = t->json = jw_load(&t->mem, t->vbuf, t->vlen, &je);
	view_drop(t);
	if (r == NULL)
		t_fail(t, ARB_EINTERNAL, "the result does not read back: %s",
		    je.text);
	/* The whole result, for the letter: held with r, so that a
	 * failure drops both. */
	hold = jw_ok(json_object());
	if (json_object_set(hold, "r", r) != 0) {
		json_decref(hold);
		jw_ok(NULL);		/* fails: r is still t->json */
	}
	t->json = hold;
	json_decref(r);
	full = jw_ok(json_deep_copy(r));
	jw_set(hold, "full", full);
	cut(t, &c, player, r);
	letter_build(t, c.me, c.reveal, r, full, has_tmpl ? &tp.nv : NULL);
	if (!(flags & VIEW_TRACE))
		json_object_del(r, "trace");
	if (flags & VIEW_TEXT) {
		letter_text(t, c.me, r, fp);
		if (has_tmpl)
			template_text(t, &tp, fp);
	} else {
		/* "for" and "reveal_orders" after "turn": they are added
		 * last, and the members after "turn" moved behind them. */
		const char	**ks = t_alloc(t, (json_object_size(r) + 1) *
				    sizeof(*ks));
		size_t		 nk = 0, i;
		bool		 after = false;

		json_object_foreach(r, key, m) {
			if (after)
				ks[nk++] = t_strdup(t, key);
			after = after || strcmp(key, "turn") == 0;
		}
		jw_set(r, "for", jw_ok(json_string(c.me)));
		jw_set(r, "reveal_orders", jw_ok(json_boolean(c.reveal)));
		for (i = 0; i < nk; i++) {
			m = json_incref(json_object_get(r, ks[i]));
			json_object_del(r, ks[i]);
			jw_set(r, ks[i], m);
		}
		if (has_tmpl)
			jw_set(r, "template", template_json(&tp));
		jw_dump(&t->mem, t, r, true, fp);
	}
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
	emit_release(t);
	jv_pool(NULL);
}

/* Closes and frees the result written to memory, if any. */
void
view_drop(struct arb_turn *t)
{
	if (t->vmem != NULL)
		fclose(t->vmem);
	free(t->vbuf);
	t->vmem = NULL;
	t->vbuf = NULL;
	t->vlen = 0;
	if (t->tmem != NULL)
		fclose(t->tmem);
	free(t->tbuf);
	t->tmem = NULL;
	t->tbuf = NULL;
	t->tlen = 0;
}

/* The player named, or -1 with *hint the nearest name (or NULL). */
int
view_player(struct arb_turn *t, const char *name, const char **hint)
{
	struct suggest	 sg;
	size_t		 i;

	*hint = NULL;
	for (i = 0; i < t->players.n; i++)
		if (strcmp(t->players.v[i].name, name) == 0)
			return (int)i;
	suggest_start(&sg, name);
	for (i = 0; i < t->players.n; i++)
		suggest_offer(&sg, t->players.v[i].name);
	*hint = sg.best;
	return -1;
}
