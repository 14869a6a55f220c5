/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Reading maps and orders.  With emit.c, the only file that includes
 * jansson.  Positions: jansson reports line and column for syntax errors
 * only; for a bad value in valid JSON we know its JSON Pointer, and locate()
 * scans the text again to find its line and column.  That costs nothing
 * unless there is an error.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"

#define J(v)	((json_t *)(v))
#define V(j)	((const struct jv *)(j))

void
ld_start(struct ld *ld, struct arb_turn *t, struct arb_error *e,
    const char *file, const char *text, size_t len)
{
	ld->t = t;
	ld->e = e;
	ld->file = file;
	ld->text = text;
	ld->len = len;
	ld->plen = ld->depth = 0;
	if (ld->ptr != NULL)
		ld->ptr[0] = '\0';
}

/*
 * The pointer grows as deep and long as the document (its buffers are
 * freed with the turn), so it is never cut and its depth is always exact.
 */
void
ld_push(struct ld *ld, const char *key)
{
	size_t	 n = 1;
	char	*p;

	for (p = (char *)key; *p != '\0'; p++)
		n += *p == '~' || *p == '/' ? 2 : 1;
	t_grow(ld->t, &ld->mark, &ld->mcap, ld->depth + 1,
	    sizeof(*ld->mark));
	ld->mark[ld->depth++] = ld->plen;
	t_grow(ld->t, &ld->ptr, &ld->pcap, ld->plen + n + 1, 1);
	p = ld->ptr + ld->plen;
	*p++ = '/';
	for (; *key != '\0'; key++) {
		if (*key == '~' || *key == '/') {
			*p++ = '~';
			*p++ = *key == '~' ? '0' : '1';
		} else
			*p++ = *key;
	}
	*p = '\0';
	ld->plen += n;
}

void
ld_pushi(struct ld *ld, size_t i)
{
	char	 buf[32];

	snprintf(buf, sizeof(buf), "%zu", i);
	ld_push(ld, buf);
}

void
ld_pop(struct ld *ld)
{
	if (ld->depth == 0)
		return;
	ld->plen = ld->mark[--ld->depth];
	ld->ptr[ld->plen] = '\0';
}

/* The pointer so far ("" at the top). */
static const char *
ld_where(const struct ld *ld)
{
	return ld->ptr != NULL ? ld->ptr : "";
}

/*
 * Copies the pointer p into dst; one too long to fit is cut at a character
 * boundary (never inside a UTF-8 sequence or a ~0/~1 escape) and ends in
 * "...", so a reader sees it was cut.
 */
static void
ld_cut(char *dst, size_t size, const char *p)
{
	size_t	 n = strlen(p);

	if (n < size) {
		memcpy(dst, p, n + 1);
		return;
	}
	n = size - 4;
	while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
		n--;
	if (n > 0 && p[n - 1] == '~')
		n--;
	memcpy(dst, p, n);
	memcpy(dst + n, "...", 4);
}

void
ld_fail(struct ld *ld, const char *fmt, ...)
{
	struct arb_error *e = ld->e;
	va_list		  ap;

	if (e->code == ARB_EOK) {
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", ld->file);
		ld_cut(e->pointer, sizeof(e->pointer), ld_where(ld));
		va_start(ap, fmt);
		vsnprintf(e->text, sizeof(e->text), fmt, ap);
		va_end(ap);
		utf8_mend(e->text);
		utf8_mend(e->pointer);
		e->line = e->column = 1;
		locate(ld->text, ld->len, ld_where(ld), &e->line,
		    &e->column);
	}
	longjmp(*ld->t->jmp, 1);
}

/* A short description of a value for messages: 5, "abc", an object. */
static const char *
describe(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		break;
	case JSON_REAL:
		/* A real, even 1.0, is no integer: keep it looking like one. */
		snprintf(buf, size, "%g", json_real_value(v));
		if (strpbrk(buf, ".e") == NULL && strlen(buf) + 3 <= size)
			strcat(buf, ".0");
		break;
	case JSON_STRING:
		snprintf(buf, size, "\"%.40s%s\"", json_string_value(v),
		    json_string_length(v) > 40 ? "..." : "");
		break;
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
		return "null";
	case JSON_ARRAY:
		return "an array";
	case JSON_OBJECT:
		return "an object";
	}
	return buf;
}

/*
 * Fails with "bad WHAT VALUE: expected WANT".  A what of "value" is
 * replaced by the key the pointer ends in, when that is a name.
 */
static void
expect(struct ld *ld, const json_t *v, const char *what, const char *want)
{
	const char	*last = strrchr(ld_where(ld), '/');
	char		 buf[64];

	if (strcmp(what, "value") == 0 && last != NULL && last[1] != '\0' &&
	    (last[1] < '0' || last[1] > '9') && strchr(last, '~') == NULL)
		what = last + 1;

	ld_fail(ld, "bad %s %s: expected %s", what, describe(v, buf,
	    sizeof(buf)), want);
}

const struct jv *
ld_get(const struct jv *obj, const char *key)
{
	return V(json_object_get(J(obj), key));
}

bool
ld_is_object(const struct jv *v)
{
	return json_is_object(J(v));
}

void *
ld_iter(const struct jv *obj)
{
	return json_object_iter(J(obj));
}

bool
ld_next(const struct jv *obj, void **iter, const char **key,
    const struct jv **val)
{
	if (*iter == NULL)
		return false;
	*key = json_object_iter_key(*iter);
	*val = V(json_object_iter_value(*iter));
	*iter = json_object_iter_next(J(obj), *iter);
	return true;
}

static bool
listed(const char *const *l, const char *key)
{
	for (; l != NULL && *l != NULL; l++)
		if (strcmp(*l, key) == 0)
			return true;
	return false;
}

/*
 * Every key of obj must be in a or b (either may be NULL); keys that start
 * with "_" are comments.  A misspelt key is an error, not a silent default.
 */
void
ld_keys(struct ld *ld, const struct jv *obj, const char *const *a,
    const char *const *b)
{
	const char	*key;
	json_t		*val;

	json_object_foreach(J(obj), key, val) {
		if (key[0] == '_' || listed(a, key) || listed(b, key))
			continue;
		ld_push(ld, key);
		ld_fail(ld, "unknown key \"%s\"", key);
	}
}

size_t
ld_len(struct ld *ld, const struct jv *arr)
{
	if (!json_is_array(J(arr)))
		expect(ld, J(arr), "value", "an array");
	return json_array_size(J(arr));
}

const struct jv *
ld_at(const struct jv *arr, size_t i)
{
	return V(json_array_get(J(arr), i));
}

long
ld_int(struct ld *ld, const struct jv *obj, const char *key, long dflt,
    long min, long max)
{
	const struct jv	*v = ld_get(obj, key);
	long		 i;

	if (v == NULL)
		return dflt;
	ld_push(ld, key);
	i = ld_intv(ld, v, key, min, max);
	ld_pop(ld);
	return i;
}

/* v itself, named what in messages; ld already points at it. */
long
ld_intv(struct ld *ld, const struct jv *jv, const char *what, long min,
    long max)
{
	json_t		*v = J(jv);
	json_int_t	 i;
	char		 want[64];

	i = json_is_integer(v) ? json_integer_value(v) : 0;
	if (!json_is_integer(v) || i < min || i > max) {
		if (max == LONG_MAX)
			snprintf(want, sizeof(want), "an integer >= %ld", min);
		else
			snprintf(want, sizeof(want),
			    "an integer from %ld to %ld", min, max);
		expect(ld, v, what, want);
	}
	return (long)i;
}

bool
ld_bool(struct ld *ld, const struct jv *obj, const char *key, bool dflt)
{
	json_t	*v = json_object_get(J(obj), key);

	if (v == NULL)
		return dflt;
	if (!json_is_boolean(v)) {
		ld_push(ld, key);
		expect(ld, v, key, "true or false");
	}
	return json_is_true(v);
}

const char *
ld_strv(struct ld *ld, const struct jv *v)
{
	if (!json_is_string(J(v)) || json_string_length(J(v)) == 0)
		expect(ld, J(v), "value", "a non-empty string");
	if (strlen(json_string_value(J(v))) != json_string_length(J(v)))
		ld_fail(ld, "string contains a NUL character");
	return t_strdup(ld->t, json_string_value(J(v)));
}

const char *
ld_str(struct ld *ld, const struct jv *obj, const char *key,
    const char *dflt)
{
	const struct jv	*v = ld_get(obj, key);
	const char	*s;

	if (v == NULL) {
		if (dflt == NULL) {
			ld_fail(ld, "missing \"%s\"", key);
		}
		return dflt;
	}
	ld_push(ld, key);
	s = ld_strv(ld, v);
	ld_pop(ld);
	return s;
}

int
ld_cellv(struct ld *ld, const struct jv *v)
{
	int	 c;

	if (!json_is_string(J(v)))
		expect(ld, J(v), "cell", "a cell label");
	c = board_find(&ld->t->board, json_string_value(J(v)));
	if (c < 0)
		ld_fail(ld, "unknown cell \"%.40s\"", json_string_value(J(v)));
	return c;
}

int
ld_playerv(struct ld *ld, const struct jv *v)
{
	int	 p;

	if (!json_is_string(J(v)))
		expect(ld, J(v), "player", "a player name");
	p = strmap_get(&ld->t->player_names, json_string_value(J(v)));
	if (p < 0)
		ld_fail(ld, "unknown player \"%.40s\"",
		    json_string_value(J(v)));
	return p;
}

/* A required member. */
double
ld_realv(struct ld *ld, const struct jv *jv, const char *what, double min,
    double max)
{
	double	 d;

	if (!json_is_number(J(jv)))
		expect(ld, J(jv), what, "a number");
	d = json_number_value(J(jv));
	if (!(d >= min && d <= max))
		ld_fail(ld, "%s %g out of range [%g, %g]", what, d, min, max);
	return d;
}

double
ld_real(struct ld *ld, const struct jv *obj, const char *key, double dflt,
    double min, double max)
{
	const struct jv	*v = ld_get(obj, key);
	double		 d;

	if (v == NULL)
		return dflt;
	ld_push(ld, key);
	d = ld_realv(ld, v, key, min, max);
	ld_pop(ld);
	return d;
}

int
ld_unitv(struct ld *ld, const struct jv *v)
{
	int	 u;

	if (!json_is_string(J(v)))
		expect(ld, J(v), "unit", "a unit id");
	if ((u = strmap_get(&ld->t->unit_ids, json_string_value(J(v)))) < 0)
		ld_fail(ld, "unknown unit \"%.40s\"",
		    json_string_value(J(v)));
	return u;
}

static const struct jv *
need(struct ld *ld, const struct jv *obj, const char *key)
{
	const struct jv	*v = ld_get(obj, key);

	if (v == NULL)
		ld_fail(ld, "missing \"%s\"", key);
	return v;
}

static const struct jv *
need_object(struct ld *ld, const struct jv *v)
{
	if (!json_is_object(J(v)))
		expect(ld, J(v), "value", "an object");
	return v;
}

/* Parses the text; a syntax error fails with jansson's position. */
static const struct jv *
parse(struct ld *ld)
{
	json_error_t	 je;
	json_t		*root;

	root = json_loadb(ld->text, ld->len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		struct arb_error *e = ld->e;

		if (json_error_code(&je) == json_error_out_of_memory)
			t_nomem(ld->t);
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", ld->file);
		snprintf(e->text, sizeof(e->text), "%s", je.text);
		e->line = je.line > 0 ? je.line : 1;
		e->column = je.column > 0 ? je.column : 1;
		longjmp(*ld->t->jmp, 1);
	}
	ld->t->json = root;
	ld->t->ld = ld;
	return need_object(ld, V(root));
}

static void
release(struct ld *ld)
{
	ld->t->ld = NULL;
	json_decref(J(ld->t->json));
	ld->t->json = NULL;
}

static const char *const map_keys[] = {
	"$schema", "arbiter", "ruleset", "turn", "seed", "board", "cells",
	"hexsides", "connections", "players", "turn_order", "units", NULL
};
static const char *const board_keys[] = {
	"grid", "cols", "rows", "default", "layout", "legend", "terrain", NULL
};
static const char *const table_keys[] = {
	"grid", "width", "height", "pieces", NULL
};
static const char *const graph_keys[] = {
	"grid", "territories", "edges", NULL
};
static const char *const cell_keys[] = {
	"terrain", "features", "owner", "loyalty", NULL
};
static const char *const player_keys[] = {
	"treaties", "discoveries", NULL
};
static const char *const unit_keys[] = {
	"id", "player", "type", "at", "strength", "range", NULL
};
static const char *const tunit_keys[] = {	/* on a table */
	"id", "player", "type", "pose", NULL
};

static int
terrain_v(struct ld *ld, const struct jv *v)
{
	const char	*name = ld_strv(ld, v);
	int		 i;

	for (i = 0; i < ld->t->board.nterrains; i++)
		if (strcmp(ld->t->board.terrains[i], name) == 0)
			return i;
	ld_fail(ld, "unknown terrain \"%.40s\"", name);
}

static int
by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* An edge as a key: its two cells in order, then its place in the list. */
struct edgekey {
	int	 lo, hi;
	size_t	 i;
};

static int
by_edge(const void *a, const void *b)
{
	const struct edgekey *x = a, *y = b;

	if (x->lo != y->lo)
		return (x->lo > y->lo) - (x->lo < y->lo);
	if (x->hi != y->hi)
		return (x->hi > y->hi) - (x->hi < y->hi);
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * The first of the n edges in pair[] that joins two cells an earlier one
 * joins already; only called once there is one, so that the error can
 * point at it.
 */
static size_t
edge_twice(struct arb_turn *t, const int *pair, size_t n)
{
	struct edgekey	*k = t_alloc(t, n * sizeof(*k));
	size_t		 i, first = n;

	for (i = 0; i < n; i++) {
		int x = pair[2 * i], y = pair[2 * i + 1];

		k[i].lo = x < y ? x : y;
		k[i].hi = x < y ? y : x;
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), by_edge);
	for (i = 1; i < n; i++)
		if (k[i].lo == k[i - 1].lo && k[i].hi == k[i - 1].hi &&
		    k[i].i < first)
			first = k[i].i;
	return first;
}

/*
 * A graph board: "territories" names the cells, "edges" lists the pairs
 * that touch.  Adjacency is kept as one sorted list per cell.
 */
static void
load_graph(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	struct board	*b = &t->board;
	const struct jv	*l, *e;
	size_t		 i, n;
	int		*deg, *pair;

	l = need(ld, bv, "territories");
	ld_push(ld, "territories");
	n = ld_len(ld, l);
	if (n == 0)
		ld_fail(ld, "no territories");
	if (n > 16L * 1000 * 1000)
		ld_fail(ld, "too many territories: %zu, at most 16000000", n);
	b->ncells = (int)n;
	b->names = t_alloc(t, n * sizeof(*b->names));
	for (i = 0; i < n; i++) {
		const char *name;

		ld_pushi(ld, i);
		name = ld_strv(ld, ld_at(l, i));
		if (strmap_get(&b->by_name, name) >= 0)
			ld_fail(ld, "territory \"%.40s\" named twice", name);
		b->names[i] = name;
		strmap_put(t, &b->by_name, name, (int)i);
		ld_pop(ld);
	}
	ld_pop(ld);

	l = need(ld, bv, "edges");
	ld_push(ld, "edges");
	n = ld_len(ld, l);
	deg = t_alloc(t, ((size_t)b->ncells + 1) * sizeof(int));
	pair = t_alloc(t, 2 * n * sizeof(int) + 1);
	for (i = 0; i < n; i++) {
		int k;

		ld_pushi(ld, i);
		e = ld_at(l, i);
		if (ld_len(ld, e) != 2)
			ld_fail(ld, "an edge joins two territories, not %zu",
			    ld_len(ld, e));
		for (k = 0; k < 2; k++) {
			ld_pushi(ld, (size_t)k);
			pair[2 * i + k] = ld_cellv(ld, ld_at(e, (size_t)k));
			ld_pop(ld);
		}
		if (pair[2 * i] == pair[2 * i + 1])
			ld_fail(ld, "territory \"%.40s\" cannot touch itself",
			    b->names[pair[2 * i]]);
		deg[pair[2 * i]]++;
		deg[pair[2 * i + 1]]++;
		ld_pop(ld);
	}
	b->adj_at = t_alloc(t, ((size_t)b->ncells + 1) * sizeof(int));
	for (i = 0; i < (size_t)b->ncells; i++)
		b->adj_at[i + 1] = b->adj_at[i] + deg[i];
	b->adj = t_alloc(t, 2 * n * sizeof(int) + 1);
	memset(deg, 0, (size_t)b->ncells * sizeof(int));
	for (i = 0; i < n; i++) {
		int x = pair[2 * i], y = pair[2 * i + 1];

		b->adj[b->adj_at[x] + deg[x]++] = y;
		b->adj[b->adj_at[y] + deg[y]++] = x;
	}
	for (i = 0; i < (size_t)b->ncells; i++) {
		int	 lo = b->adj_at[i], hi = b->adj_at[i + 1], k;

		qsort(b->adj + lo, (size_t)(hi - lo), sizeof(int), by_int);
		for (k = lo + 1; k < hi; k++)
			if (b->adj[k] == b->adj[k - 1]) {
				size_t j = edge_twice(t, pair, n);

				ld_pushi(ld, j);
				ld_fail(ld, "%s and %s are joined twice",
				    b->names[pair[2 * j]],
				    b->names[pair[2 * j + 1]]);
			}
	}
	ld_pop(ld);
}

/* A table: its size, and its terrain pieces as convex polygons. */
static void
load_table(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	struct board	*b = &t->board;
	const struct jv	*l, *v, *poly;
	size_t		 i, k;

	need(ld, bv, "width");
	need(ld, bv, "height");
	b->tw = ld_real(ld, bv, "width", 0, GEOM_EPS, 1e6);
	b->th = ld_real(ld, bv, "height", 0, GEOM_EPS, 1e6);
	if ((l = ld_get(bv, "pieces")) == NULL)
		return;
	ld_push(ld, "pieces");
	for (i = 0; i < ld_len(ld, l); i++) {
		static const char *const keys[] = { "id", "polygon", NULL };
		struct piece	*pc = VPUSH(t, b->pieces);

		ld_pushi(ld, i);
		v = need_object(ld, ld_at(l, i));
		ld_keys(ld, v, keys, NULL);
		pc->id = ld_str(ld, v, "id", NULL);
		if (strmap_get(&b->piece_ids, pc->id) >= 0) {
			ld_push(ld, "id");
			ld_fail(ld, "duplicate piece id \"%.40s\"", pc->id);
		}
		strmap_put(t, &b->piece_ids, pc->id, (int)i);
		poly = need(ld, v, "polygon");
		ld_push(ld, "polygon");
		pc->n = (int)ld_len(ld, poly);
		if (pc->n < 3 || pc->n > GEOM_MAXPTS)
			ld_fail(ld, "a polygon of %d corners: expected 3 to "
			    "%d", pc->n, GEOM_MAXPTS);
		pc->p = t_alloc(t, (size_t)pc->n * sizeof(*pc->p));
		for (k = 0; k < (size_t)pc->n; k++) {
			const struct jv *c = ld_at(poly, k);

			ld_pushi(ld, k);
			if (ld_len(ld, c) != 2)
				ld_fail(ld, "a corner is [x, y], not %zu "
				    "numbers", ld_len(ld, c));
			ld_pushi(ld, 0);
			pc->p[k].x = ld_realv(ld, ld_at(c, 0), "x", -1e6, 1e6);
			ld_pop(ld);
			ld_pushi(ld, 1);
			pc->p[k].y = ld_realv(ld, ld_at(c, 1), "y", -1e6, 1e6);
			ld_pop(ld);
			ld_pop(ld);
		}
		if (geom_convex(pc->p, pc->n) < 0)
			ld_fail(ld, "not a convex polygon (corners in order, "
			    "no three in a line; split a concave piece into "
			    "convex ones)");
		ld_pop(ld);
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* The board's shape: what rule systems need to name cells. */
static void
load_shape(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	struct board	*b = &t->board;
	const char	*grid, *layout, *want;
	long		 digits, n;

	ld_push(ld, "board");
	need_object(ld, bv);
	want = t->rs->board == BOARD_GRAPH ? "graph" :
	    t->rs->board == BOARD_TABLE ? "table" : "hex";
	grid = ld_str(ld, bv, "grid", NULL);
	if (strcmp(grid, want) != 0) {
		ld_push(ld, "grid");
		ld_fail(ld, "bad grid \"%.40s\": %s plays on \"%s\"", grid,
		    t->rs->name, want);
	}
	b->kind = t->rs->board;
	if (b->kind == BOARD_GRAPH) {
		ld_keys(ld, bv, graph_keys, NULL);
		load_graph(t, ld, bv);
		ld_pop(ld);
		return;
	}
	if (b->kind == BOARD_TABLE) {
		ld_keys(ld, bv, table_keys, NULL);
		load_table(t, ld, bv);
		ld_pop(ld);
		return;
	}
	ld_keys(ld, bv, board_keys, NULL);
	need(ld, bv, "cols");
	need(ld, bv, "rows");
	b->cols = (int)ld_int(ld, bv, "cols", 0, 1, 9999);
	b->rows = (int)ld_int(ld, bv, "rows", 0, 1, 9999);
	/* Every hex costs memory whether the map describes it or not, so a
	 * few bytes of map must not ask for gigabytes (arbiter-map(5)). */
	if ((long)b->cols * b->rows > MAXHEXES)
		ld_fail(ld, "board too large: %d hexes, at most %ld",
		    b->cols * b->rows, MAXHEXES);
	for (digits = 1, n = b->cols > b->rows ? b->cols : b->rows; n >= 10;
	    n /= 10)
		digits++;
	b->width = digits < 2 ? 2 : (int)digits;
	layout = ld_str(ld, bv, "layout", "even-low");
	if (strcmp(layout, "odd-low") == 0)
		b->odd_low = true;
	else if (strcmp(layout, "even-low") != 0) {
		ld_push(ld, "layout");
		ld_fail(ld, "bad layout \"%.40s\": expected \"even-low\" or "
		    "\"odd-low\"", layout);
	}
	b->ncells = b->cols * b->rows;
	ld_pop(ld);
}

/* The board's terrain, once the rule system has named its terrains. */
static void
load_board(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	const struct ufield *cx = t->rs->cell_x;
	struct board	*b = &t->board;
	const struct jv	*rows, *legend;
	const char	*key;
	const struct jv	*val;
	void		*it;
	int		 i, c, dflt;

	if (b->kind == BOARD_TABLE)
		return;
	ld_push(ld, "board");
	dflt = b->default_terrain;
	if (ld_get(bv, "default") != NULL) {
		ld_push(ld, "default");
		dflt = terrain_v(ld, ld_get(bv, "default"));
		ld_pop(ld);
	}
	b->default_terrain = dflt;
	b->cells = t_alloc(t, (size_t)b->ncells * sizeof(*b->cells));
	for (c = 0; c < b->ncells; c++) {
		b->cells[c].terrain = (uint8_t)dflt;
		b->cells[c].owner = -1;
		b->cells[c].first_unit = b->cells[c].last_unit = -1;
	}
	for (i = 0; cx != NULL && cx[i].name != NULL; i++) {
		b->cx[i] = t_alloc(t, (size_t)b->ncells * sizeof(int));
		for (c = 0; c < b->ncells; c++)
			b->cx[i][c] = cx[i].dflt;
	}
	legend = ld_get(bv, "legend");
	rows = ld_get(bv, "terrain");
	if (legend != NULL) {
		ld_push(ld, "legend");
		need_object(ld, legend);
		it = ld_iter(legend);
		while (ld_next(legend, &it, &key, &val)) {
			ld_push(ld, key);
			if (strlen(key) != 1 || key[0] < 33 || key[0] > 126)
				ld_fail(ld, "bad legend key \"%.40s\": "
				    "expected one printable ASCII character",
				    key);
			b->legend[(int)key[0]] =
			    b->terrains[terrain_v(ld, val)];
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	if (rows != NULL) {
		if (legend == NULL)
			ld_fail(ld, "terrain rows need a \"legend\"");
		ld_push(ld, "terrain");
		if (ld_len(ld, rows) != (size_t)b->rows)
			ld_fail(ld, "%zu terrain rows, the board has %d",
			    ld_len(ld, rows), b->rows);
		for (i = 0; i < b->rows; i++) {
			const char	*s;
			int		 x;

			ld_pushi(ld, (size_t)i);
			val = ld_at(rows, (size_t)i);
			if (!json_is_string(J(val)))
				expect(ld, J(val), "row", "a string");
			s = json_string_value(J(val));
			if (json_string_length(J(val)) != (size_t)b->cols)
				ld_fail(ld, "row of %zu cells, the board has "
				    "%d columns", json_string_length(J(val)),
				    b->cols);
			for (x = 0; x < b->cols; x++) {
				unsigned char ch = (unsigned char)s[x];

				if (ch >= 128 || b->legend[ch] == NULL)
					ld_fail(ld, "column %d: '%c' is not in "
					    "the legend", x + 1,
					    ch >= 33 && ch < 127 ? ch : '?');
				b->cells[i * b->cols + x].terrain = (uint8_t)
				    board_terrain(t, b->legend[ch]);
			}
			ld_pop(ld);
		}
		ld_pop(ld);
		b->has_rows = true;
	}
	ld_pop(ld);
}

static void
load_cells(struct arb_turn *t, struct ld *ld, const struct jv *cv)
{
	const struct ufield *x = t->rs->cell_x;
	const char	*xkeys[UNIT_X + 1] = { NULL };
	const char	*key;
	const struct jv	*val, *f;
	void		*it;
	size_t		 i;
	int		 k;

	for (k = 0; x != NULL && x[k].name != NULL; k++)
		xkeys[k] = x[k].name;

	ld_push(ld, "cells");
	need_object(ld, cv);
	it = ld_iter(cv);
	while (ld_next(cv, &it, &key, &val)) {
		struct cell	*c;
		int		 idx = board_find(&t->board, key);

		ld_push(ld, key);
		if (idx < 0)
			ld_fail(ld, "unknown cell \"%.40s\"", key);
		c = &t->board.cells[idx];
		need_object(ld, val);
		ld_keys(ld, val, cell_keys, xkeys);
		for (k = 0; xkeys[k] != NULL; k++)
			t->board.cx[k][idx] = (int)ld_int(ld, val, xkeys[k],
			    x[k].dflt, x[k].min, INT_MAX);
		if (ld_get(val, "terrain") != NULL) {
			ld_push(ld, "terrain");
			c->terrain = (uint8_t)terrain_v(ld,
			    ld_get(val, "terrain"));
			ld_pop(ld);
		}
		if ((f = ld_get(val, "features")) != NULL) {
			ld_push(ld, "features");
			for (i = 0; i < ld_len(ld, f); i++) {
				const char	*name;

				ld_pushi(ld, i);
				name = ld_strv(ld, ld_at(f, i));
				k = board_feature_find(&t->board, name);
				if (k < 0)
					ld_fail(ld, "unknown feature "
					    "\"%.40s\"", name);
				c->features |= 1u << k;
				ld_pop(ld);
			}
			ld_pop(ld);
		}
		if ((f = ld_get(val, "owner")) != NULL && !json_is_null(J(f))) {
			ld_push(ld, "owner");
			c->owner = (int16_t)ld_playerv(ld, f);
			ld_pop(ld);
		}
		c->loyalty = (int32_t)ld_int(ld, val, "loyalty", 0, INT_MIN,
		    INT_MAX);
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* An array of adjacent cells: the cells of a hexside or a connection. */
static int *
cell_chain(struct arb_turn *t, struct ld *ld, const struct jv *arr,
    size_t *n)
{
	int	*cells;
	size_t	 i;

	ld_push(ld, "cells");
	*n = ld_len(ld, arr);
	if (*n < 2)
		ld_fail(ld, "expected at least two cells");
	cells = t_alloc(t, *n * sizeof(*cells));
	for (i = 0; i < *n; i++) {
		ld_pushi(ld, i);
		cells[i] = ld_cellv(ld, ld_at(arr, i));
		if (i > 0 && !board_is_adjacent(&t->board, cells[i - 1],
		    cells[i]))
			ld_fail(ld, "cell %s is not adjacent to %s",
			    cell_name(t, cells[i]), cell_name(t, cells[i - 1]));
		ld_pop(ld);
	}
	ld_pop(ld);
	return cells;
}

static void
load_sides(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	static const char *const keys[] = { "cells", "feature", NULL };
	size_t		 i, n;
	const struct jv	*v;

	if ((arr = ld_get(arr, "hexsides")) != NULL) {
		ld_push(ld, "hexsides");
		for (i = 0; i < ld_len(ld, arr); i++) {
			struct hexside	*s = VPUSH(t, t->board.sides);
			const char	*feat;
			int		*cells;
			size_t		 k;

			ld_pushi(ld, i);
			v = need_object(ld, ld_at(arr, i));
			ld_keys(ld, v, keys, NULL);
			cells = cell_chain(t, ld, need(ld, v, "cells"), &n);
			if (n != 2) {
				ld_push(ld, "cells");
				ld_fail(ld, "a hexside joins two cells, not "
				    "%zu", n);
			}
			s->a = cells[0] < cells[1] ? cells[0] : cells[1];
			s->b = cells[0] < cells[1] ? cells[1] : cells[0];
			feat = ld_str(ld, v, "feature", NULL);
			for (k = 0; k < t->board.sidefeats.n; k++)
				if (strcmp(t->board.sidefeats.v[k], feat) == 0)
					break;
			if (k == t->board.sidefeats.n)
				*VPUSH(t, t->board.sidefeats) = feat;
			s->feature = (int)k;
			ld_pop(ld);
		}
		ld_pop(ld);
	}
}

static void
load_connections(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	static const char *const keys[] = { "kind", "cells", NULL };
	size_t		 i, n;

	ld_push(ld, "connections");
	for (i = 0; i < ld_len(ld, arr); i++) {
		struct connection	*c = VPUSH(t, t->board.conns);
		const struct jv		*v;

		ld_pushi(ld, i);
		v = need_object(ld, ld_at(arr, i));
		ld_keys(ld, v, keys, NULL);
		c->kind = ld_str(ld, v, "kind", NULL);
		c->cells = cell_chain(t, ld, need(ld, v, "cells"), &n);
		c->ncells = (int)n;
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_players(struct arb_turn *t, struct ld *ld, const struct jv *pv)
{
	const char *const *res = t->rs->player_res;
	const char	*key;
	const struct jv	*val, *l;
	void		*it;
	size_t		 i;
	int		 p, k;

	ld_push(ld, "players");
	need_object(ld, pv);
	/* Names first: treaties may name a player listed later. */
	it = ld_iter(pv);
	while (ld_next(pv, &it, &key, &val)) {
		struct player	*pl;

		ld_push(ld, key);
		if (key[0] == '\0')
			ld_fail(ld, "empty player name");
		/* The command line binds a file with "player=file". */
		if (strpbrk(key, "=/") != NULL)
			ld_fail(ld, "player name \"%.40s\" has \"%c\": a "
			    "name cannot hold \"=\" or \"/\"", key,
			    *strpbrk(key, "=/"));
		if (t->players.n == MAXPLAYERS)
			ld_fail(ld, "more than %d players", MAXPLAYERS);
		pl = VPUSH(t, t->players);
		pl->name = t_strdup(t, key);
		pl->ofile = -1;
		strmap_put(t, &t->player_names, pl->name, (int)t->players.n - 1);
		ld_pop(ld);
	}
	if (t->players.n == 0)
		ld_fail(ld, "no players");
	it = ld_iter(pv);
	for (p = 0; ld_next(pv, &it, &key, &val); p++) {
		struct player	*pl = &t->players.v[p];

		ld_push(ld, key);
		need_object(ld, val);
		ld_keys(ld, val, player_keys, res);
		for (k = 0; res != NULL && res[k] != NULL; k++)
			pl->res0[k] = pl->res[k] = ld_int(ld, val, res[k], 0, 0,
			    INT_MAX);
		if ((l = ld_get(val, "treaties")) != NULL) {
			ld_push(ld, "treaties");
			for (i = 0; i < ld_len(ld, l); i++) {
				int q;

				ld_pushi(ld, i);
				q = ld_playerv(ld, ld_at(l, i));
				if (q == p)
					ld_fail(ld, "a treaty with oneself");
				/* Either party's word binds both. */
				pl->treaties |= (uint64_t)1 << q;
				t->players.v[q].treaties |= (uint64_t)1 << p;
				ld_pop(ld);
			}
			ld_pop(ld);
		}
		if ((l = ld_get(val, "discoveries")) != NULL) {
			ld_push(ld, "discoveries");
			pl->ndisc = (int)ld_len(ld, l);
			pl->disc = t_alloc(t, (size_t)pl->ndisc *
			    sizeof(*pl->disc));
			for (i = 0; i < (size_t)pl->ndisc; i++) {
				ld_pushi(ld, i);
				pl->disc[i] = ld_strv(ld, ld_at(l, i));
				ld_pop(ld);
			}
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_turn_order(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*l = ld_get(root, "turn_order");
	size_t		 i, n = t->players.n;
	uint64_t	 seen = 0;

	t->turn_order = t_alloc(t, n * sizeof(int));
	if (l == NULL) {
		for (i = 0; i < n; i++)
			t->turn_order[i] = (int)i;
		return;
	}
	ld_push(ld, "turn_order");
	if (ld_len(ld, l) != n)
		ld_fail(ld, "turn order names %zu players, the map has %zu",
		    ld_len(ld, l), n);
	for (i = 0; i < n; i++) {
		int p;

		ld_pushi(ld, i);
		p = ld_playerv(ld, ld_at(l, i));
		if (seen >> p & 1)
			ld_fail(ld, "player \"%s\" named twice",
			    t->players.v[p].name);
		seen |= (uint64_t)1 << p;
		t->turn_order[i] = p;
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_pose(struct ld *ld, const struct jv *v, struct unit *u)
{
	static const char *const keys[] = { "x", "y", "facing", NULL };
	struct board	*b = &ld->t->board;

	ld_push(ld, "pose");
	need_object(ld, v);
	ld_keys(ld, v, keys, NULL);
	need(ld, v, "x");
	need(ld, v, "y");
	need(ld, v, "facing");
	u->pose.x = ld_real(ld, v, "x", 0, 0, b->tw);
	u->pose.y = ld_real(ld, v, "y", 0, 0, b->th);
	u->pose.facing = geom_norm360(ld_real(ld, v, "facing", 0, -1e6,
	    1e6));
	u->pose0 = u->pose;
	u->at = u->from = -1;
	ld_pop(ld);
}

static void
load_units(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	const struct ufield *x = t->rs->unit_x;
	const char *const *marks = t->rs->unit_marks;
	const char	*xkeys[UNIT_X + 33] = { NULL };
	size_t		 i;
	int		 k, nx, m;

	for (k = 0; x != NULL && x[k].name != NULL; k++)
		xkeys[k] = x[k].name;
	nx = k;
	for (m = 0; marks != NULL && marks[m] != NULL; m++)
		if (t->rs->marks_in >> m & 1)
			xkeys[k++] = marks[m];
	for (m = 0; t->rs->unit_keys != NULL && t->rs->unit_keys[m] != NULL &&
	    k < UNIT_X + 32; m++)
		xkeys[k++] = t->rs->unit_keys[m];
	ld_push(ld, "units");
	ld_len(ld, arr);
	for (i = 0; i < json_array_size(J(arr)); i++) {
		struct unit	*u = VPUSH(t, t->units);
		const struct jv	*v;
		struct utype	*ty;
		const char	*tn;

		ld_pushi(ld, i);
		v = need_object(ld, ld_at(arr, i));
		ld_keys(ld, v, t->board.kind == BOARD_TABLE ? tunit_keys :
		    unit_keys, xkeys);
		u->id = ld_str(ld, v, "id", NULL);
		if (strmap_get(&t->unit_ids, u->id) >= 0) {
			ld_push(ld, "id");
			ld_fail(ld, "duplicate unit id \"%.40s\"", u->id);
		}
		strmap_put(t, &t->unit_ids, u->id, (int)i);
		ld_push(ld, "player");
		u->player = ld_playerv(ld, need(ld, v, "player"));
		ld_pop(ld);
		tn = ld_str(ld, v, "type", NULL);
		if ((ty = type_find(t, tn)) == NULL) {
			ld_push(ld, "type");
			ld_fail(ld, "unknown unit type \"%.40s\"", tn);
		}
		u->type = (int)(ty - t->types.v);
		if (t->board.kind == BOARD_TABLE)
			load_pose(ld, need(ld, v, "pose"), u);
		else {
			ld_push(ld, "at");
			u->at = u->from = ld_cellv(ld, need(ld, v, "at"));
			ld_pop(ld);
		}
		u->strength = u->strength0 = (int)ld_int(ld, v, "strength", 1,
		    1, INT_MAX);
		u->range = (int)ld_int(ld, v, "range", -1, 0, INT_MAX);
		for (k = 0; k < nx; k++) {
			u->has_x[k] = ld_get(v, xkeys[k]) != NULL;
			u->x[k] = (int)ld_int(ld, v, xkeys[k], x[k].dflt,
			    x[k].min, INT_MAX);
		}
		for (m = 0; marks != NULL && marks[m] != NULL; m++)
			if ((t->rs->marks_in >> m & 1) && ld_bool(ld, v,
			    marks[m], false))
				u->marks |= 1u << m;
		u->next = u->prev = -1;
		u->by = -1;
		if (u->at >= 0)
			unit_place(t, (int)i, u->at);
		if (t->rs->load_unit != NULL)
			t->rs->load_unit(t, ld, (int)i, v);
		ld_pop(ld);
	}
	ld_pop(ld);
}

extern const struct ruleset *const registry[];

/* The cells' owners and counters as the turn starts, for the balance. */
static void
snapshot(struct arb_turn *t)
{
	struct board	*b = &t->board;
	size_t		 n = (size_t)b->ncells;
	int		 k, c;

	b->owner0 = t_alloc(t, n * sizeof(*b->owner0));
	for (c = 0; c < b->ncells; c++)
		b->owner0[c] = b->cells[c].owner;
	for (k = 0; k < UNIT_X && b->cx[k] != NULL; k++) {
		b->cx0[k] = t_alloc(t, n * sizeof(int));
		memcpy(b->cx0[k], b->cx[k], n * sizeof(int));
	}
}

void
load_map(struct arb_turn *t, struct ld *ld)
{
	const struct jv	*root = parse(ld), *v;
	const char	*name;
	int		 i;

	v = need(ld, root, "arbiter");
	ld_push(ld, "arbiter");
	if (!json_is_integer(J(v)) || json_integer_value(J(v)) != 1)
		expect(ld, J(v), "format version", "1");
	ld_pop(ld);
	name = ld_str(ld, root, "ruleset", NULL);
	for (i = 0; registry[i] != NULL; i++)
		if (strcmp(registry[i]->name, name) == 0)
			t->rs = registry[i];
	if (t->rs == NULL) {
		ld_push(ld, "ruleset");
		ld_fail(ld, "unknown ruleset \"%.40s\"", name);
	}
	ld_keys(ld, root, map_keys, t->rs->map_keys);
	t->number = (int)ld_int(ld, root, "turn", 1, 1, INT_MAX);
	if (!t->seed_set)
		t->seed = (uint64_t)ld_int(ld, root, "seed", 1, 0, LONG_MAX - 1);
	t->rs->init(t);
	load_players(t, ld, need(ld, root, "players"));
	load_shape(t, ld, need(ld, root, "board"));
	t->rs->load(t, ld, root);
	load_board(t, ld, ld_get(root, "board"));
	if ((v = ld_get(root, "cells")) != NULL)
		load_cells(t, ld, v);
	snapshot(t);
	load_sides(t, ld, root);
	if ((v = ld_get(root, "connections")) != NULL)
		load_connections(t, ld, v);
	load_turn_order(t, ld, root);
	if ((v = ld_get(root, "units")) != NULL)
		load_units(t, ld, v);
	if (t->rs->loaded != NULL)
		t->rs->loaded(t, ld, root);
	release(ld);
}

static const char *const orders_keys[] = {
	"$schema", "arbiter", "player", "turn", "orders", NULL
};

/* The units an order names: the player's own, each once. */
static void
order_units(struct arb_turn *t, struct ld *ld, struct order *o,
    const struct jv *v, int player)
{
	const struct jv	*l;
	size_t		 i;
	unsigned	 stamp;

	/* A unit is listed twice when it carries this order's stamp. */
	if (t->listed == NULL)
		t->listed = t_alloc(t, (t->units.n + 1) * sizeof(*t->listed));
	stamp = ++t->stamp;
	l = need(ld, v, "units");
	ld_push(ld, "units");
	o->nunits = (int)ld_len(ld, l);
	if (o->nunits == 0)
		ld_fail(ld, "an order needs at least one unit");
	o->units = t_alloc(t, (size_t)o->nunits * sizeof(int));
	for (i = 0; i < (size_t)o->nunits; i++) {
		const struct jv	*u = ld_at(l, i);
		int		 n;

		ld_pushi(ld, i);
		if (!json_is_string(J(u)))
			expect(ld, J(u), "unit", "a unit id");
		n = strmap_get(&t->unit_ids, json_string_value(J(u)));
		if (n < 0)
			ld_fail(ld, "unknown unit \"%.40s\"",
			    json_string_value(J(u)));
		if (t->units.v[n].player != player)
			ld_fail(ld, "unit \"%.40s\" belongs to %s, not %s",
			    t->units.v[n].id,
			    t->players.v[t->units.v[n].player].name,
			    t->players.v[player].name);
		if (t->listed[n] == stamp)
			ld_fail(ld, "unit \"%.40s\" listed twice",
			    t->units.v[n].id);
		t->listed[n] = stamp;
		o->units[i] = n;
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_order(struct arb_turn *t, struct ld *ld, const struct jv *v,
    int player, int file, int index, struct strmap *ids)
{
	const struct okind *ok = t->rs->order_kinds;
	const char	*base[16] = { "id", NULL };
	const struct jv	*arg = NULL;
	struct order	*o = VPUSH(t, t->orders);
	size_t		 i;
	char		 buf[32];
	int		 k;

	o->player = player;
	o->file = file;
	o->index = index;
	o->kind = -1;
	/* "units", or the count key, of any kind. */
	base[1] = ok[0].count != NULL ? ok[0].count : "units";
	for (k = 0; ok[k].key != NULL && k < 13; k++)
		base[k + 2] = ok[k].key;
	need_object(ld, v);
	ld_keys(ld, v, base, t->rs->order_keys);
	for (k = 0; ok[k].key != NULL; k++) {
		if (ld_get(v, ok[k].key) == NULL)
			continue;
		if (o->kind >= 0)
			ld_fail(ld, "order has both \"%s\" and \"%s\"",
			    ok[o->kind].key, ok[k].key);
		o->kind = k;
		arg = ld_get(v, ok[k].key);
	}
	if (o->kind < 0) {
		char	 list[160] = "";

		for (k = 0; ok[k].key != NULL; k++)
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), "%s\"%s\"", k ? ", " : "",
			    ok[k].key);
		ld_fail(ld, "order has none of %s", list);
	}
	if (ld_get(v, "id") != NULL)
		o->id = ld_str(ld, v, "id", NULL);
	else {
		snprintf(buf, sizeof(buf), "%d", index);
		o->id = t_strdup(t, buf);
	}
	if (strmap_get(ids, o->id) >= 0) {
		ld_push(ld, "id");
		ld_fail(ld, "duplicate order id \"%.40s\"", o->id);
	}
	strmap_put(t, ids, o->id, index);
	if (ok[o->kind].count != NULL) {
		need(ld, v, ok[o->kind].count);
		o->n = ld_int(ld, v, ok[o->kind].count, 1, 1, INT_MAX);
	} else
		order_units(t, ld, o, v, player);
	ld_push(ld, ok[o->kind].key);
	if (ok[o->kind].arg == OK_RULE)
		t->rs->load_order(t, ld, o, arg, v);
	else if (ok[o->kind].arg == OK_CELL) {
		o->ncells = 1;
		o->cells = t_alloc(t, sizeof(int));
		o->cells[0] = ld_cellv(ld, arg);
	} else {
		o->ncells = (int)ld_len(ld, arg);
		if (o->ncells == 0)
			ld_fail(ld, "empty path: a path starts with the cell "
			    "the move leaves");
		/* Every step is written out with its costs: a bound keeps
		 * one order's record within memory (arbiter-orders(5)). */
		if (o->ncells > MAXSTEPS + 1)
			ld_fail(ld, "a path of %d steps: at most %d",
			    o->ncells - 1, MAXSTEPS);
		o->cells = t_alloc(t, (size_t)o->ncells * sizeof(int));
		for (i = 0; i < (size_t)o->ncells; i++) {
			ld_pushi(ld, i);
			o->cells[i] = ld_cellv(ld, ld_at(arg, i));
			ld_pop(ld);
		}
	}
	ld_pop(ld);
}

void
load_orders(struct arb_turn *t, struct ld *ld, const char *bind)
{
	const struct jv	*root = parse(ld), *l, *v;
	struct strmap	*ids = &t->order_ids;
	const char	*name;
	struct ofile	*f;
	size_t		 i;
	int		 p, file;

	ld_keys(ld, root, orders_keys, NULL);
	v = need(ld, root, "arbiter");
	ld_push(ld, "arbiter");
	if (!json_is_integer(J(v)) || json_integer_value(J(v)) != 1)
		expect(ld, J(v), "format version", "1");
	ld_pop(ld);
	name = ld_str(ld, root, "player", NULL);
	ld_push(ld, "player");
	if (bind != NULL && strcmp(bind, name) != 0)
		ld_fail(ld, "orders of \"%.40s\" bound to player \"%.40s\"",
		    name, bind);
	p = ld_playerv(ld, ld_get(root, "player"));
	if (t->players.v[p].ofile >= 0)
		ld_fail(ld, "second orders file for \"%s\" (the first is "
		    "%s)", name, t->files.v[t->players.v[p].ofile].name);
	ld_pop(ld);
	need(ld, root, "turn");
	if (ld_int(ld, root, "turn", 0, 1, INT_MAX) != t->number) {
		ld_push(ld, "turn");
		ld_fail(ld, "orders for turn %ld, the map is turn %d",
		    ld_int(ld, root, "turn", 0, 1, INT_MAX), t->number);
	}
	file = (int)t->files.n;
	f = VPUSH(t, t->files);
	f->name = t_strdup(t, ld->file);
	f->player = p;
	t->players.v[p].ofile = file;
	l = need(ld, root, "orders");
	ld_push(ld, "orders");
	ld_len(ld, l);
	for (i = 0; i < json_array_size(J(l)); i++) {
		ld_pushi(ld, i);
		load_order(t, ld, ld_at(l, i), p, file, (int)i, ids);
		ld_pop(ld);
	}
	ld_pop(ld);
	strmap_release(ids);
	release(ld);
}

/*
 * locate(): the line and column (from 1, counting characters as jansson
 * does) of the value at pointer in text.  Returns 0, or -1 when the pointer
 * does not lead anywhere; then *line and *column are those of the deepest
 * value it reached.
 */
static const char *
ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

static const char *
skip_string(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

static const char *
skip_value(const char *p, const char *e)
{
	int	 depth = 0;

	p = ws(p, e);
	if (p >= e)
		return NULL;
	if (*p == '"')
		return skip_string(p, e);
	if (*p != '{' && *p != '[') {
		while (p < e && strchr(",]} \t\r\n", *p) == NULL)
			p++;
		return p;
	}
	for (; p < e; p++) {
		if (*p == '"') {
			if ((p = skip_string(p, e)) == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
	}
	return NULL;
}

static int
hexval(const char *p)
{
	int	 v = 0, i;

	for (i = 0; i < 4; i++) {
		char	 c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Decodes the JSON string at p (its opening quote) into buf as UTF-8. */
static size_t
decode(const char *p, const char *e, char *buf, size_t size)
{
	size_t	 n = 0;
	long	 cp;

	for (p++; p < e && *p != '"' && n + 4 < size; p++) {
		if (*p != '\\') {
			buf[n++] = *p;
			continue;
		}
		if (++p >= e)
			break;
		switch (*p) {
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (e - p < 5 || (cp = hexval(p + 1)) < 0)
				return n;
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && e - p >= 7 &&
			    p[1] == '\\' && p[2] == 'u' && hexval(p + 3) >=
			    0xdc00 && hexval(p + 3) < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (hexval(p + 3) - 0xdc00);
				p += 6;
			}
			if (cp < 0x80)
				buf[n++] = (char)cp;
			else if (cp < 0x800) {
				buf[n++] = (char)(0xc0 | cp >> 6);
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			} else if (cp < 0x10000) {
				buf[n++] = (char)(0xe0 | cp >> 12);
				buf[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			} else {
				buf[n++] = (char)(0xf0 | cp >> 18);
				buf[n++] = (char)(0x80 | (cp >> 12 & 0x3f));
				buf[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			}
			break;
		default:
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return n;
}

static void
position(const char *text, const char *p, int *line, int *column)
{
	const char	*q;

	*line = 1;
	*column = 1;
	for (q = text; q < p; q++) {
		if (*q == '\n') {
			++*line;
			*column = 1;
		} else if (((unsigned char)*q & 0xc0) != 0x80)
			++*column;
	}
}

/*
 * True when the JSON string at p (its opening quote; q is past its closing
 * one) decodes to the n bytes of tok.  Decoding never makes a string
 * longer, so a buffer of its raw length holds it whole.
 */
static bool
key_is(const char *p, const char *q, const char *e, const char *tok,
    size_t n)
{
	char	*buf;
	bool	 same;

	if ((size_t)(q - p) < n || (buf = malloc((size_t)(q - p) + 5)) ==
	    NULL)
		return false;
	same = decode(p, e, buf, (size_t)(q - p) + 5) == n &&
	    memcmp(buf, tok, n) == 0;
	free(buf);
	return same;
}

int
locate(const char *text, size_t len, const char *pointer, int *line,
    int *column)
{
	const char	*p = ws(text, text + len), *e = text + len, *q = NULL;
	char		*tok;
	size_t		 n;
	int		 rc = -1;

	position(text, p, line, column);
	/* A reference token is never longer than the whole pointer. */
	if ((tok = malloc(strlen(pointer) + 1)) == NULL)
		return -1;
	while (*pointer == '/') {
		/* The next reference token, unescaped. */
		for (pointer++, n = 0; *pointer != '\0' && *pointer != '/';
		    pointer++) {
			if (*pointer == '~' && pointer[1] == '1') {
				tok[n++] = '/';
				pointer++;
			} else if (*pointer == '~' && pointer[1] == '0') {
				tok[n++] = '~';
				pointer++;
			} else
				tok[n++] = *pointer;
		}
		tok[n] = '\0';
		if (p >= e)
			goto out;
		if (*p == '{') {
			for (p = ws(p + 1, e); p < e && *p == '"';) {
				const char *k = p;

				if ((q = skip_string(p, e)) == NULL)
					goto out;
				if (key_is(k, q, e, tok, n)) {
					q = ws(q, e);
					if (q >= e || *q != ':')
						goto out;
					q = ws(q + 1, e);
					break;
				}
				q = ws(q, e);
				if (q >= e || *q != ':')
					goto out;
				if ((q = skip_value(ws(q + 1, e), e)) == NULL)
					goto out;
				q = ws(q, e);
				if (q >= e || *q != ',')
					goto out;
				p = ws(q + 1, e);
			}
			if (p >= e || *p != '"')
				goto out;
			p = q;
		} else if (*p == '[') {
			long	 i, idx = strtol(tok, NULL, 10);

			p = ws(p + 1, e);
			for (i = 0; i < idx && p < e && *p != ']'; i++) {
				if ((p = skip_value(p, e)) == NULL)
					goto out;
				p = ws(p, e);
				if (p >= e || *p != ',')
					goto out;
				p = ws(p + 1, e);
			}
			if (p >= e || *p == ']')
				goto out;
		} else
			goto out;
		position(text, p, line, column);
	}
	rc = 0;
out:
	free(tok);
	return rc;
}
