/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Writing the result, the next turn's map and the trace.  With load.c, the
 * only file that includes jansson.  Members are written in a fixed order
 * and lists in a fixed order (units by id, orders in adjudication order),
 * so the same turn always gives the same bytes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"

/* Reals are rounded to 0.001 before they are set (geom_round); 15
 * significant digits then print them back exactly ("1.061", not
 * "1.0609999999999999"). */
#define REALS	JSON_REAL_PRECISION(15)

/*
 * The turn whose output this thread is writing, for the allocation checks
 * below (a jansson constructor cannot be told which turn to jump back to)
 * and the sort of units by id.  Each writing entry point sets it; being
 * per thread, two turns can be written at once in two threads.
 */
static _Thread_local struct arb_turn *T;

void
emit_release(struct arb_turn *t)
{
	json_decref(t->json);
	t->json = NULL;
}

/* The jansson constructors return NULL only when memory runs out. */
static json_t *
ok(json_t *v)
{
	if (v == NULL)
		t_nomem(T);
	return v;
}

static void
set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, ok(v)) != 0)
		t_nomem(T);
}

static void
add(json_t *a, json_t *v)
{
	if (json_array_append_new(a, ok(v)) != 0)
		t_nomem(T);
}

static json_t *
str(const char *s)
{
	return ok(json_string_nocheck(s));
}

static json_t *
num(long i)
{
	return ok(json_integer(i));
}

static json_t *
cellv(struct arb_turn *t, int cell)
{
	char	 buf[32];

	return str(board_label(&t->board, cell, buf));
}

static json_t *
playerv(struct arb_turn *t, long p)
{
	return p < 0 ? ok(json_null()) : str(t->players.v[p].name);
}

/*
 * Fails the turn after writing to fp went wrong: with the system's reason
 * (errnum) when fp reports a write error, as running out of memory when
 * errnum says so, else as an encoding failure (a bug).
 */
static void
write_fail(struct arb_turn *t, FILE *fp, int errnum)
{
	if (errnum == ENOMEM)
		t_nomem(t);
	if (ferror(fp))
		t_fail(t, ARB_EWRITE, "%s", strerror(errnum != 0 ? errnum :
		    EIO));
	t_fail(t, ARB_EINTERNAL, "cannot encode the output");
}

/*
 * The writer.  jansson's dump is slow for what arbiter writes (a callback
 * per token, a loop check per container), so values are written here, in
 * jansson's own format to the byte (JSON_INDENT(2) or JSON_COMPACT,
 * JSON_REAL_PRECISION(15), keys in insertion order), into a buffer that
 * goes out in large writes.
 */
#define OUTBUF	65536

struct out {
	struct arb_turn	*t;
	FILE		*fp;
	bool		 first;	/* no element yet in the open array */
	size_t		 n;	/* bytes in buf */
	char		 buf[OUTBUF];
};

static void
o_flush(struct out *w)
{
	if (w->n > 0 && fwrite(w->buf, 1, w->n, w->fp) != w->n)
		write_fail(w->t, w->fp, errno);
	w->n = 0;
}

static void
o_put(struct out *w, const char *s, size_t n)
{
	if (n > OUTBUF - w->n) {
		o_flush(w);
		if (n > OUTBUF) {
			if (fwrite(s, 1, n, w->fp) != n)
				write_fail(w->t, w->fp, errno);
			return;
		}
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

static void
o_str(struct out *w, const char *s)
{
	o_put(w, s, strlen(s));
}

/* A newline and depth levels of two spaces. */
static void
o_indent(struct out *w, int depth)
{
	static const char sp[] = "\n                                ";
	size_t	 n = 2 * (size_t)depth;

	o_put(w, sp, 1);
	for (; n > sizeof(sp) - 2; n -= sizeof(sp) - 2)
		o_put(w, sp + 1, sizeof(sp) - 2);
	o_put(w, sp + 1, n);
}

/* The length of the UTF-8 character at s (n bytes left), 0 if broken. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t	 k, len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are broken. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* A JSON string, escaped as jansson escapes it. */
static void
o_string(struct out *w, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *e = s + len;
	const unsigned char *run = s;
	char		 seq[8];
	size_t		 k;

	o_put(w, "\"", 1);
	while (s < e) {
		if (*s >= 0x20 && *s != '"' && *s != '\\') {
			if ((k = utf8_len(s, (size_t)(e - s))) == 0)
				t_fail(w->t, ARB_EINTERNAL, "cannot encode the "
				    "output");
			s += k;
			continue;
		}
		o_put(w, (const char *)run, (size_t)(s - run));
		switch (*s) {
		case '"':  o_put(w, "\\\"", 2); break;
		case '\\': o_put(w, "\\\\", 2); break;
		case '\b': o_put(w, "\\b", 2); break;
		case '\f': o_put(w, "\\f", 2); break;
		case '\n': o_put(w, "\\n", 2); break;
		case '\r': o_put(w, "\\r", 2); break;
		case '\t': o_put(w, "\\t", 2); break;
		default:
			snprintf(seq, sizeof(seq), "\\u%04X", *s);
			o_put(w, seq, 6);
		}
		run = ++s;
	}
	o_put(w, (const char *)run, (size_t)(s - run));
	o_put(w, "\"", 1);
}

/* A real as jansson writes it with 15 digits: always with a dot or an
 * exponent, the exponent with no "+" and no leading zeros. */
static void
o_real(struct out *w, double d)
{
	char	 buf[64], *p, *q;

	snprintf(buf, sizeof(buf) - 2, "%.15g", d);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strcat(buf, ".0");
	if ((p = strchr(buf, 'e')) != NULL) {
		p++;			/* at the exponent's sign */
		q = p + 1;
		if (*p == '-')
			p++;		/* a minus stays */
		while (*q == '0')
			q++;
		memmove(p, q, strlen(q) + 1);
	}
	o_str(w, buf);
}

/* The value v at depth, pretty (two-space indents) or compact. */
static void
o_value(struct out *w, const json_t *v, int depth, bool pretty)
{
	char		 buf[32];
	const char	*key;
	size_t		 i, n;
	void		*it, *next;

	switch (json_typeof(v)) {
	case JSON_NULL:
		o_put(w, "null", 4);
		break;
	case JSON_TRUE:
		o_put(w, "true", 4);
		break;
	case JSON_FALSE:
		o_put(w, "false", 5);
		break;
	case JSON_INTEGER: {
		/* Digits from the right: no printf for every number. */
		json_int_t	 x = json_integer_value(v);
		unsigned long long u = x < 0 ? 0 - (unsigned long long)x :
		    (unsigned long long)x;
		char		*p = buf + sizeof(buf);

		do
			*--p = (char)('0' + u % 10);
		while ((u /= 10) > 0);
		if (x < 0)
			*--p = '-';
		o_put(w, p, (size_t)(buf + sizeof(buf) - p));
		break;
	}
	case JSON_REAL:
		o_real(w, json_real_value(v));
		break;
	case JSON_STRING:
		o_string(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		o_put(w, "[", 1);
		for (i = 0; i < n; i++) {
			if (i > 0)
				o_put(w, ",", 1);
			if (pretty)
				o_indent(w, depth + 1);
			o_value(w, json_array_get(v, i), depth + 1, pretty);
		}
		if (n > 0 && pretty)
			o_indent(w, depth);
		o_put(w, "]", 1);
		break;
	case JSON_OBJECT:
		o_put(w, "{", 1);
		for (it = json_object_iter((json_t *)v); it != NULL; it = next) {
			next = json_object_iter_next((json_t *)v, it);
			if (pretty)
				o_indent(w, depth + 1);
			key = json_object_iter_key(it);
			o_string(w, key, json_object_iter_key_len(it));
			o_put(w, pretty ? ": " : ":", pretty ? 2 : 1);
			o_value(w, json_object_iter_value(it), depth + 1,
			    pretty);
			if (next != NULL)
				o_put(w, ",", 1);
			else if (pretty)
				o_indent(w, depth);
		}
		o_put(w, "}", 1);
		break;
	}
}

/* A whole document and a newline. */
static void
dump(struct arb_turn *t, json_t *root, bool pretty, FILE *fp)
{
	struct out	*w = t_alloc(t, sizeof(*w));

	w->t = t;
	w->fp = fp;
	o_value(w, root, 0, pretty);
	o_put(w, "\n", 1);
	o_flush(w);
	if (ferror(fp))
		write_fail(t, fp, errno);
}

static const char *const status_names[] = {
	"pending", "legal", "done", "illegal", "failed"
};

static json_t *
units_of(struct arb_turn *t, const int *units, int n)
{
	json_t	*a = ok(json_array());
	int	 i;

	for (i = 0; i < n; i++)
		add(a, str(t->units.v[units[i]].id));
	return a;
}

static json_t *
order_json(struct arb_turn *t, const struct order *o)
{
	const struct okind	*k = &t->rs->order_kinds[o->kind];
	json_t			*j = ok(json_object()), *a;
	size_t			 i;

	set(j, "file", str(t->files.v[o->file].name));
	set(j, "index", num(o->index));
	set(j, "player", str(t->players.v[o->player].name));
	set(j, "id", str(o->id));
	set(j, "kind", str(k->key));
	set(j, "units", units_of(t, o->units, o->nunits));
	if (k->arg == OK_RULE)
		;	/* report_order writes what the order said */
	else if (k->arg == OK_PATH) {
		a = ok(json_array());
		for (i = 0; i < (size_t)o->ncells; i++)
			add(a, cellv(t, o->cells[i]));
		set(j, "path", a);
	} else
		set(j, "target", cellv(t, o->cells[0]));
	set(j, "status", str(status_names[o->status]));
	set(j, "reason", str(reason_name(o->reason)));
	if (o->rule != NULL)
		set(j, "rule", str(o->rule));
	set(j, "message", str(o->msg != NULL ? o->msg : ""));
	for (i = 0; i < o->nums.n; i++)
		set(j, o->nums.v[i].key, num(o->nums.v[i].val));
	if (t->rs->report_order != NULL)
		t->rs->report_order(t, o, (struct jv *)j);
	return j;
}

static json_t *
event_json(struct arb_turn *t, const struct tevent *te)
{
	json_t	*j = ok(json_object());
	int	 i;

	for (i = 0; i < te->nf; i++) {
		const struct tfield *f = &te->f[i];

		switch (f->type) {
		case TF_INT:
			set(j, f->key, num(f->i));
			break;
		case TF_STR:
			set(j, f->key, str(f->s));
			break;
		case TF_CELL:
			set(j, f->key, cellv(t, (int)f->i));
			break;
		case TF_BOOL:
			set(j, f->key, ok(json_boolean(f->i)));
			break;
		case TF_REAL:
			set(j, f->key, ok(json_real(f->d)));
			break;
		}
	}
	return j;
}

static int
by_id(const void *a, const void *b)
{
	const struct unit *ua = &T->units.v[*(const int *)a];
	const struct unit *ub = &T->units.v[*(const int *)b];

	return strcmp(ua->id, ub->id);
}

static json_t *
unit_json(struct arb_turn *t, int ui)
{
	const struct unit	*u = &t->units.v[ui];
	const struct ufield	*x = t->rs->unit_x;
	json_t			*j = ok(json_object());
	int			 k;

	set(j, "id", str(u->id));
	set(j, "player", str(t->players.v[u->player].name));
	set(j, "type", str(t->types.v[u->type].name));
	if (t->board.kind == BOARD_TABLE) {
		emit_set_pose((struct jv *)j, "start", &u->pose0);
		emit_set_pose((struct jv *)j, "pose", &u->pose);
	} else {
		set(j, "from", cellv(t, u->from));
		set(j, "at", cellv(t, u->at));
	}
	set(j, "strength", num(u->gone ? 0 : u->strength));
	for (k = 0; x != NULL && x[k].name != NULL; k++)
		set(j, x[k].name, num(u->x[k]));
	for (k = 0; t->rs->unit_marks != NULL &&
	    t->rs->unit_marks[k] != NULL; k++)
		if (u->marks >> k & 1)
			set(j, t->rs->unit_marks[k], ok(json_true()));
	if (t->rs->save_unit != NULL)
		t->rs->save_unit(t, ui, (struct jv *)j, false);
	set(j, "status", str(u->gone ? "eliminated" : u->left ? "left_world" :
	    u->moved ? "moved" : u->named ? "stayed" : "holding"));
	return j;
}

/*
 * The result is written as it is built, one member or array element at a
 * time, so that a large turn never holds the whole document in memory.
 * Each piece is a small jansson value dumped with JSON_INDENT(2) and moved
 * right to its depth; the bytes are those a dump of the whole tree would
 * give (strings never hold a raw newline, so every newline is jansson's).
 */
/*
 * Writes the piece v at depth and releases it.  The turn holds v while it
 * is written, so that if writing fails the entry point's emit_release()
 * frees it (t_fail() does not come back here).
 */
static void
put(struct out *w, json_t *v, int depth)
{
	w->t->json = v;
	o_value(w, v, depth, true);
	emit_release(w->t);
}

/* A member of the top object: ",\n  \"key\": value". */
static void
member(struct out *w, const char *key, json_t *v)
{
	o_str(w, ",\n  \"");
	o_str(w, key);
	o_str(w, "\": ");
	put(w, v, 1);
}

static void
open_array(struct out *w, const char *key)
{
	o_str(w, ",\n  \"");
	o_str(w, key);
	o_str(w, "\": [");
	w->first = true;
}

static void
element(struct out *w, json_t *v)
{
	o_str(w, w->first ? "\n    " : ",\n    ");
	w->first = false;
	put(w, v, 2);
}

static void
close_array(struct out *w)
{
	o_str(w, w->first ? "]" : "\n  ]");
}

static void
changes(struct out *w, const char *key, const struct ochange *v, size_t n,
    bool players)
{
	struct arb_turn	*t = w->t;
	json_t		*j;
	size_t		 i;

	open_array(w, key);
	for (i = 0; i < n; i++) {
		j = ok(json_object());
		set(j, "cell", cellv(t, v[i].cell));
		set(j, "from", players ? playerv(t, v[i].from) :
		    num(v[i].from));
		set(j, "to", players ? playerv(t, v[i].to) : num(v[i].to));
		set(j, "why", str(v[i].why));
		if (v[i].order >= 0)
			set(j, "order", str(t->orders.v[v[i].order].id));
		element(w, j);
	}
	close_array(w);
}

/* Cell features as an array of names. */
static json_t *
features(struct arb_turn *t, uint32_t f)
{
	json_t	*a = ok(json_array());
	int	 k;

	for (k = 0; k < t->board.nfeatures; k++)
		if (f >> k & 1)
			add(a, str(t->board.features[k]));
	return a;
}

/* Where a rule system counts forces in cells: every cell as it ends. */
static void
cells(struct out *w)
{
	struct arb_turn	*t = w->t;
	struct board	*b = &t->board;
	const struct ufield *cx = t->rs->cell_x;
	int		 c, k;

	open_array(w, "cells");
	for (c = 0; c < b->ncells; c++) {
		const struct cell *cl = &b->cells[c];
		json_t	*j = ok(json_object());

		set(j, "cell", cellv(t, c));
		set(j, "owner", playerv(t, cl->owner));
		for (k = 0; cx[k].name != NULL; k++)
			set(j, cx[k].name, num(b->cx[k][c]));
		set(j, "loyalty", num(cl->loyalty));
		set(j, "features", features(t, cl->features));
		element(w, j);
	}
	close_array(w);
}

/* A player's forces in cells: at the start, lost, at the end. */
static void
holdings(struct arb_turn *t, json_t *j, int p)
{
	struct board	*b = &t->board;
	const char	*name = t->rs->cell_x[0].name;
	long		 before = 0, after = 0, lost = 0, gained = 0;
	size_t		 i;
	int		 c;
	char		 key[64];

	for (c = 0; c < b->ncells; c++) {
		if (b->owner0[c] == p)
			before += b->cx0[0][c];
		if (b->cells[c].owner == p)
			after += b->cx[0][c];
	}
	for (i = 0; i < t->losses.n; i++)
		if (t->losses.v[i].player == p && t->losses.v[i].unit < 0)
			lost += t->losses.v[i].strength;
	for (i = 0; i < t->gains.n; i++)
		if (t->gains.v[i].player == p)
			gained += t->gains.v[i].strength;
	set(j, name, num(before));
	snprintf(key, sizeof(key), "%s_lost", name);
	set(j, key, num(lost));
	snprintf(key, sizeof(key), "%s_gained", name);
	set(j, key, num(gained));
	snprintf(key, sizeof(key), "%s_left", name);
	set(j, key, num(after));
}

void
emit_result(struct arb_turn *t, int flags, FILE *fp)
{
	const char *const *res = t->rs->player_res;
	const struct ufield *cx = t->rs->cell_x;
	struct out	*w0 = t_alloc(t, sizeof(*w0));
	json_t		*j, *p, *a;
	int		*idx;
	size_t		 i;
	int		 k;

	T = t;
	w0->t = t;
	w0->fp = fp;
#define w (*w0)
	o_str(&w, "{\n  \"arbiter\": 1");
	member(&w, "ruleset", str(t->rs->name));
	/* What made the ruling: the program, and its rulings' version. */
	member(&w, "program", str("arbiter " ARB_VERSION));
	member(&w, "rulings", str(t->rs->rulings));
	member(&w, "turn", num(t->number));
	member(&w, "seed", ok(json_integer((json_int_t)t->seed)));
	if (t->flags & ARB_CHECK)
		member(&w, "check", ok(json_true()));
	open_array(&w, "orders");
	for (i = 0; i < t->sequence.n; i++)
		element(&w, order_json(t, &t->orders.v[t->sequence.v[i]]));
	close_array(&w);
	if (!(t->flags & ARB_CHECK)) {
		open_array(&w, "attacks");
		for (i = 0; i < t->attacks.n; i++) {
			const struct attack *at = &t->attacks.v[i];
			const struct order *o = &t->orders.v[at->order];

			j = ok(json_object());
			set(j, "order", str(o->id));
			set(j, "player", str(t->players.v[o->player].name));
			set(j, "units", units_of(t, o->units, o->nunits));
			set(j, "from", cellv(t, at->from));
			set(j, "target", cellv(t, at->target));
			set(j, "defenders", units_of(t, at->defenders,
			    at->ndefenders));
			element(&w, j);
		}
		close_array(&w);
		idx = t_alloc(t, t->units.n * sizeof(int) + 1);
		for (i = 0; i < t->units.n; i++)
			idx[i] = (int)i;
		qsort(idx, t->units.n, sizeof(int), by_id);
		open_array(&w, "units");
		for (i = 0; i < t->units.n; i++)
			element(&w, unit_json(t, idx[i]));
		close_array(&w);
		open_array(&w, "losses");
		for (i = 0; i < t->losses.n; i++) {
			const struct loss *l = &t->losses.v[i];

			j = ok(json_object());
			if (l->unit >= 0)
				set(j, "unit", str(t->units.v[l->unit].id));
			set(j, "player", str(t->players.v[l->player].name));
			if (l->step > 0)
				set(j, "step", num(l->step));
			if (l->at >= 0)
				set(j, "at", cellv(t, l->at));
			if (l->target >= 0)
				set(j, "target", cellv(t, l->target));
			set(j, l->unit >= 0 ? "strength" : cx[0].name,
			    num(l->strength));
			set(j, "cause", str(l->cause));
			if (l->order >= 0)
				set(j, "order", str(t->orders.v[l->order].id));
			element(&w, j);
		}
		close_array(&w);
		changes(&w, "ownership", t->ownership.v, t->ownership.n, true);
		changes(&w, "loyalty", t->loyalty.v, t->loyalty.n, false);
		if (cx != NULL) {
			cells(&w);
			open_array(&w, "destroyed");
			for (i = 0; i < t->destroyed.n; i++) {
				const struct destroyed *d = &t->destroyed.v[i];

				j = ok(json_object());
				set(j, "cell", cellv(t, d->cell));
				set(j, "feature", str(t->board.features[
				    d->feature]));
				if (d->order >= 0)
					set(j, "order",
					    str(t->orders.v[d->order].id));
				element(&w, j);
			}
			close_array(&w);
			open_array(&w, "gains");
			for (i = 0; i < t->gains.n; i++) {
				const struct loss *g = &t->gains.v[i];

				j = ok(json_object());
				set(j, "player", str(t->players.v[
				    g->player].name));
				set(j, "at", cellv(t, g->at));
				set(j, cx[0].name, num(g->strength));
				set(j, "cause", str(g->cause));
				element(&w, j);
			}
			close_array(&w);
		}
		if (t->rs->report != NULL) {
			const char	*key;
			json_t		*v;

			j = ok(json_object());
			t->rs->report(t, (struct jv *)j);
			json_object_foreach(j, key, v)
				member(&w, key, json_incref(v));
			json_decref(j);
		}
		p = ok(json_object());
		for (i = 0; i < t->players.n; i++) {
			const struct player *pl = &t->players.v[i];

			j = ok(json_object());
			if (cx != NULL)
				holdings(t, j, (int)i);
			for (k = 0; res != NULL && res[k] != NULL; k++) {
				char key[64];

				set(j, res[k], num(pl->res0[k]));
				snprintf(key, sizeof(key), "%s_spent", res[k]);
				set(j, key, num(pl->res0[k] - pl->res[k]));
				snprintf(key, sizeof(key), "%s_left", res[k]);
				set(j, key, num(pl->res[k]));
			}
			set(p, pl->name, j);
		}
		member(&w, "players", p);
		j = ok(json_object());
		set(j, "seed", ok(json_integer((json_int_t)t->seed)));
		a = ok(json_array());
		for (i = 0; i < t->draws.n; i++) {
			json_t *d = ok(json_object());

			set(d, "sides", num(t->draws.v[i].sides));
			set(d, "value", num(t->draws.v[i].value));
			set(d, "why", str(t->draws.v[i].why));
			add(a, d);
		}
		set(j, "draws", a);
		member(&w, "dice", j);
	}
	if (flags & ARB_RESULT_TRACE) {
		open_array(&w, "trace");
		for (i = 0; i < t->trace.n; i++)
			element(&w, event_json(t, &t->trace.v[i]));
		close_array(&w);
	}
	o_str(&w, "\n}\n");
	o_flush(&w);
	if (ferror(fp))
		write_fail(t, fp, errno);
#undef w
}

/*
 * A value of the text trace: bare when it is a plain word, else quoted
 * with JSON's escapes, so that one event is always one line.
 */
static void
text_value(FILE *fp, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= ' ' || *p == '"' || *p == '\\' || *p == 127)
			break;
	if (*p == '\0' && s[0] != '\0') {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < ' ' || *p == 127)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

void
emit_trace(struct arb_turn *t, int text, FILE *fp)
{
	size_t	 i;
	int	 k;
	char	 buf[32];

	T = t;
	if (!text) {
		struct out	*w = t_alloc(t, sizeof(*w));

		w->t = t;
		w->fp = fp;
		for (i = 0; i < t->trace.n; i++) {
			t->json = event_json(t, &t->trace.v[i]);
			o_value(w, t->json, 0, false);
			o_put(w, "\n", 1);
			emit_release(t);
		}
		o_flush(w);
		if (ferror(fp))
			write_fail(t, fp, errno);
		return;
	}
	for (i = 0; i < t->trace.n; i++) {
		const struct tevent *te = &t->trace.v[i];

		/* "step: order=1 from=0304 to=0404 cost=2" */
		fprintf(fp, "%s:", te->f[0].s);
		for (k = 1; k < te->nf; k++) {
			const struct tfield *f = &te->f[k];

			if (f->type == TF_INT)
				fprintf(fp, " %s=%ld", f->key, f->i);
			else if (f->type == TF_BOOL)
				fprintf(fp, " %s=%s", f->key, f->i ? "yes" :
				    "no");
			else if (f->type == TF_REAL)
				fprintf(fp, " %s=%.15g", f->key, f->d);
			else {
				fprintf(fp, " %s=", f->key);
				text_value(fp, f->type == TF_CELL ?
				    board_label(&t->board, (int)f->i, buf) :
				    f->s);
			}
		}
		if (fputc('\n', fp) == EOF || ferror(fp))
			write_fail(t, fp, errno);
	}
}

/*
 * The next turn's map: what the map said, with the turn's outcome in it.
 * Terrain goes back in the form it came: rows with the legend where the map
 * had them, else cells.
 */
void
emit_next(struct arb_turn *t, FILE *fp)
{
	const char *const *res = t->rs->player_res;
	const struct ufield *x = t->rs->unit_x, *cx = t->rs->cell_x;
	struct board	*b = &t->board;
	json_t		*root, *j, *a, *c, *cells;
	size_t		 i;
	int		 k, ch;
	char		 legend_of[256];
	char		 key[2] = { 0, 0 };

	T = t;
	memset(legend_of, 0, sizeof(legend_of));
	root = t->json = ok(json_object());
	set(root, "arbiter", num(1));
	set(root, "ruleset", str(t->rs->name));
	/* Checked before anything is written (arb_turn_write_next). */
	set(root, "turn", num(t->number + 1));
	/* Seeds go round: the next after the largest a map may give is 0. */
	set(root, "seed", ok(json_integer((json_int_t)(t->seed <
	    (uint64_t)LONG_MAX - 1 ? t->seed + 1 : 0))));
	j = ok(json_object());
	if (b->kind == BOARD_GRAPH) {
		set(j, "grid", str("graph"));
		a = ok(json_array());
		for (i = 0; i < (size_t)b->ncells; i++)
			add(a, cellv(t, (int)i));
		set(j, "territories", a);
		a = ok(json_array());
		for (i = 0; i < (size_t)b->ncells; i++)
			for (k = b->adj_at[i]; k < b->adj_at[i + 1]; k++) {
				json_t *e;

				if (b->adj[k] < (int)i)
					continue;
				e = ok(json_array());
				add(e, cellv(t, (int)i));
				add(e, cellv(t, b->adj[k]));
				add(a, e);
			}
		set(j, "edges", a);
	} else if (b->kind == BOARD_TABLE) {
		set(j, "grid", str("table"));
		set(j, "width", ok(json_real(b->tw)));
		set(j, "height", ok(json_real(b->th)));
		a = ok(json_array());
		for (i = 0; i < b->pieces.n; i++) {
			json_t	*pc = ok(json_object()), *poly = ok(json_array());

			set(pc, "id", str(b->pieces.v[i].id));
			for (k = 0; k < b->pieces.v[i].n; k++) {
				json_t *cj = ok(json_array());

				add(cj, ok(json_real(b->pieces.v[i].p[k].x)));
				add(cj, ok(json_real(b->pieces.v[i].p[k].y)));
				add(poly, cj);
			}
			set(pc, "polygon", poly);
			add(a, pc);
		}
		if (b->pieces.n > 0)
			set(j, "pieces", a);
		else
			json_decref(a);
	} else {
		set(j, "grid", str("hex"));
		set(j, "cols", num(b->cols));
		set(j, "rows", num(b->rows));
	}
	if (b->nterrains > 0)
		set(j, "default", str(b->terrains[b->default_terrain]));
	if (b->odd_low)
		set(j, "layout", str("odd-low"));
	if (b->has_rows) {
		json_t	*l = ok(json_object());
		char	*row = t_alloc(t, (size_t)b->cols + 1);
		bool	 used[256] = { false };
		int	 r, col;

		for (ch = 33; ch < 127; ch++) {
			if (b->legend[ch] == NULL)
				continue;
			key[0] = (char)ch;
			set(l, key, str(b->legend[ch]));
			for (k = 0; k < b->nterrains; k++)
				if (strcmp(b->terrains[k], b->legend[ch]) == 0 &&
				    legend_of[k] == 0)
					legend_of[k] = (char)ch;
		}
		/* A terrain no legend character stands for (a cell given
		 * one in "cells") gets a free character, so that every row
		 * is whole. */
		for (i = 0; i < (size_t)b->ncells; i++)
			used[b->cells[i].terrain] = true;
		for (k = 0, ch = 33; k < b->nterrains; k++) {
			if (legend_of[k] != 0 || !used[k])
				continue;
			while (ch < 127 && (b->legend[ch] != NULL ||
			    ch == '"' || ch == '\\'))
				ch++;
			if (ch == 127)
				break;
			key[0] = (char)ch;
			set(l, key, str(b->terrains[k]));
			legend_of[k] = (char)ch++;
		}
		set(j, "legend", l);
		a = ok(json_array());
		for (r = 0; r < b->rows; r++) {
			for (col = 0; col < b->cols; col++) {
				int tr = b->cells[r * b->cols + col].terrain;

				row[col] = legend_of[tr] ? legend_of[tr] :
				    legend_of[b->default_terrain];
			}
			add(a, str(row));
		}
		set(j, "terrain", a);
	}
	set(root, "board", j);
	cells = ok(json_object());
	for (i = 0; i < (size_t)b->ncells; i++) {
		const struct cell *cl = &b->cells[i];
		bool	 terr = b->has_rows ? legend_of[cl->terrain] == 0 &&
		    cl->terrain != b->default_terrain :
		    cl->terrain != b->default_terrain;
		bool	 counted = false;
		char	 lbl[32];

		for (k = 0; cx != NULL && cx[k].name != NULL; k++)
			counted |= b->cx[k][i] != cx[k].dflt;
		if (!terr && cl->features == 0 && cl->owner < 0 &&
		    cl->loyalty == 0 && !counted)
			continue;
		c = ok(json_object());
		if (terr)
			set(c, "terrain", str(b->terrains[cl->terrain]));
		if (cl->features != 0)
			set(c, "features", features(t, cl->features));
		if (cl->owner >= 0)
			set(c, "owner", playerv(t, cl->owner));
		for (k = 0; cx != NULL && cx[k].name != NULL; k++)
			if (b->cx[k][i] != cx[k].dflt)
				set(c, cx[k].name, num(b->cx[k][i]));
		if (cl->loyalty != 0)
			set(c, "loyalty", num(cl->loyalty));
		set(cells, board_label(b, (int)i, lbl), c);
	}
	if (b->kind != BOARD_TABLE)
		set(root, "cells", cells);
	else
		json_decref(cells);
	if (b->sides.n > 0) {
		a = ok(json_array());
		for (i = 0; i < b->sides.n; i++) {
			json_t *s = ok(json_object()), *p = ok(json_array());

			add(p, cellv(t, b->sides.v[i].a));
			add(p, cellv(t, b->sides.v[i].b));
			set(s, "cells", p);
			set(s, "feature", str(b->sidefeats.v[
			    b->sides.v[i].feature]));
			add(a, s);
		}
		set(root, "hexsides", a);
	}
	if (b->conns.n > 0) {
		a = ok(json_array());
		for (i = 0; i < b->conns.n; i++) {
			json_t *s = ok(json_object()), *p = ok(json_array());

			set(s, "kind", str(b->conns.v[i].kind));
			for (k = 0; k < b->conns.v[i].ncells; k++)
				add(p, cellv(t, b->conns.v[i].cells[k]));
			set(s, "cells", p);
			add(a, s);
		}
		set(root, "connections", a);
	}
	j = ok(json_object());
	for (i = 0; i < t->players.n; i++) {
		const struct player *pl = &t->players.v[i];
		json_t	*pj = ok(json_object());

		for (k = 0; res != NULL && res[k] != NULL; k++)
			set(pj, res[k], num(t->rs->res_resets[k] ?
			    pl->res0[k] : pl->res[k]));
		if (pl->treaties != 0) {
			a = ok(json_array());
			for (k = 0; k < (int)t->players.n; k++)
				if (pl->treaties >> k & 1)
					add(a, str(t->players.v[k].name));
			set(pj, "treaties", a);
		}
		if (pl->ndisc > 0) {
			a = ok(json_array());
			for (k = 0; k < pl->ndisc; k++)
				add(a, str(pl->disc[k]));
			set(pj, "discoveries", a);
		}
		set(j, pl->name, pj);
	}
	set(root, "players", j);
	a = ok(json_array());
	for (i = 0; i < t->players.n; i++)
		add(a, str(t->players.v[t->turn_order[i]].name));
	set(root, "turn_order", a);
	t->rs->save(t, (struct jv *)root);
	a = ok(json_array());
	for (i = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];
		json_t *uj;

		if (u->gone || u->left)
			continue;
		uj = ok(json_object());
		set(uj, "id", str(u->id));
		set(uj, "player", str(t->players.v[u->player].name));
		set(uj, "type", str(t->types.v[u->type].name));
		if (b->kind == BOARD_TABLE) {
			/* Unrounded (15 digits): a pose rounded to 0.001
			 * could overlap what it touches by more than the
			 * tolerance, and the map would not load. */
			json_t	*pj = ok(json_object());

			set(pj, "x", ok(json_real(u->pose.x)));
			set(pj, "y", ok(json_real(u->pose.y)));
			set(pj, "facing", ok(json_real(u->pose.facing)));
			set(uj, "pose", pj);
		}
		else {
			set(uj, "at", cellv(t, u->at));
			set(uj, "strength", num(u->strength));
		}
		if (u->range >= 0)
			set(uj, "range", num(u->range));
		for (k = 0; x != NULL && x[k].name != NULL; k++)
			if (u->x[k] != x[k].dflt || u->has_x[k])
				set(uj, x[k].name, num(u->x[k]));
		for (k = 0; t->rs->unit_marks != NULL &&
		    t->rs->unit_marks[k] != NULL; k++)
			if ((u->marks & t->rs->marks_kept) >> k & 1)
				set(uj, t->rs->unit_marks[k], ok(json_true()));
		if (t->rs->save_unit != NULL)
			t->rs->save_unit(t, (int)i, (struct jv *)uj, true);
		add(a, uj);
	}
	set(root, "units", a);
	dump(t, root, true, fp);
	emit_release(t);
}

/* For the rule systems' save(): they write through these. */
void
emit_set_str(struct jv *obj, const char *key, const char *val)
{
	set((json_t *)obj, key, str(val));
}

struct jv *
emit_set_array(struct jv *obj, const char *key)
{
	json_t	*a = ok(json_array());

	set((json_t *)obj, key, a);
	return (struct jv *)a;
}

/* The object at key, made when there is none. */
struct jv *
emit_set_object(struct jv *obj, const char *key)
{
	json_t	*o = json_object_get((json_t *)obj, key);

	if (o == NULL) {
		o = ok(json_object());
		set((json_t *)obj, key, o);
	}
	return (struct jv *)o;
}

struct jv *
emit_add_object(struct jv *arr)
{
	json_t	*o = ok(json_object());

	add((json_t *)arr, o);
	return (struct jv *)o;
}

void
emit_add_str(struct jv *arr, const char *val)
{
	add((json_t *)arr, str(val));
}

void
emit_add_cell(struct arb_turn *t, struct jv *arr, int cell)
{
	add((json_t *)arr, cellv(t, cell));
}

void
emit_set_bool(struct jv *obj, const char *key, bool val)
{
	set((json_t *)obj, key, ok(json_boolean(val)));
}

void
emit_set_int(struct jv *obj, const char *key, long val)
{
	set((json_t *)obj, key, num(val));
}

void
emit_add_int(struct jv *arr, long val)
{
	add((json_t *)arr, num(val));
}

struct jv *
emit_add_array(struct jv *arr)
{
	json_t	*a = ok(json_array());

	add((json_t *)arr, a);
	return (struct jv *)a;
}

void
emit_set_real(struct jv *obj, const char *key, double val)
{
	set((json_t *)obj, key, ok(json_real(geom_round(val))));
}

void
emit_set_null(struct jv *obj, const char *key)
{
	set((json_t *)obj, key, ok(json_null()));
}

void
emit_set_pose(struct jv *obj, const char *key, const struct pose *p)
{
	json_t	*j = ok(json_object());

	set(j, "x", ok(json_real(geom_round(p->x))));
	set(j, "y", ok(json_real(geom_round(p->y))));
	/* 359.9996 rounds to 360, which is 0. */
	set(j, "facing", ok(json_real(geom_norm360(geom_round(p->facing)))));
	set((json_t *)obj, key, j);
}

void
emit_set_point(struct jv *obj, const char *key, struct pt p)
{
	json_t	*a = ok(json_array());

	add(a, ok(json_real(geom_round(p.x))));
	add(a, ok(json_real(geom_round(p.y))));
	set((json_t *)obj, key, a);
}

void
emit_add_real(struct jv *arr, double val)
{
	add((json_t *)arr, ok(json_real(geom_round(val))));
}
