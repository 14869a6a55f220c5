/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): reading a map and orders files into the
 * model, through the JSON layer's readers; the rule system reads its own
 * parts through struct ruleset.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

/* Parses ld's text; while the file is read, t_fail() locates in it. */
static const struct jv *
parse(struct arb_turn *t, struct ld *ld)
{
	const struct jv	*root;

	ld->owner = t;
	root = ld_parse(ld);
	t->ld = ld;
	return root;
}

static const char *const map_keys[] = {
	"$schema", "arbiter", "ruleset", "game", "turn", "seed", "dice",
	"board", "cells", "hexsides", "connections", "players", "turn_order",
	"units", "display", "reveal_orders", NULL
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

/*
 * The map's problems (issue 26): the first MAPMAX are recorded, located
 * and given suggestions; the rest only counted.
 */
#define MAPMAX	50

/* "did you mean" the one of names[0 .. n-1] nearest typed, or NULL. */
static const char *
meant(struct ld *ld, const char *typed, const char *const *names, int n)
{
	struct suggest	 sg;
	int		 i;

	if (!ld->hints)
		return NULL;
	suggest_start(&sg, typed);
	for (i = 0; i < n; i++)
		suggest_offer(&sg, names[i]);
	if (sg.best == NULL)
		return NULL;
	return t_printf((struct arb_turn *)ld->owner, "did you mean \"%.40s\"?",
	    sg.best);
}

/* A key near none of the lists: which other rule system has it. */
static const char *
elsewhere(struct ld *ld, const char *key)
{
	struct arb_turn	*t = ld->owner;
	char		 buf[128];

	if (!registry_key_elsewhere(t->rs, key, buf, sizeof(buf)))
		return NULL;
	return t_printf(t, "\"%.40s\" is a key of %s maps, not %s", key,
	    buf, t->rs->name);
}

/* The keys of the map, a cell, a player or a unit, the objects where a
 * rule system names its own keys: one of another's is said so. */
static void
map_keys_of(struct ld *ld, const struct jv *obj, const char *const *a,
    const char *const *b)
{
	ld->elsewhere = elsewhere;
	ld_keys(ld, obj, a, b);
	ld->elsewhere = NULL;
}

/*
 * Records a problem of the map, at ld's pointer, with ld's hint (then
 * reset): the JSON layer's note() while the map is read.  Its order is
 * the order it was found in, for arb_turn_problem()'s sort.
 */
static void
map_note(struct ld *ld, const char *text)
{
	struct arb_turn	*t = ld->owner;
	struct problem	*pr;

	if (t->problems.n >= MAPMAX) {
		t->mapmore++;
		ld->hint = NULL;
		ld->hints = false;
		return;
	}
	pr = VPUSH(t, t->problems);
	pr->file = -1;
	pr->order = (int)t->problems.n - 1;
	pr->reason = R_BAD_FILE;
	pr->line = pr->column = 1;
	pr->pointer = t_strdup(t, ld_where(ld));
	ld_locate(ld, pr->pointer, &pr->line, &pr->column);
	pr->text = ld->hint != NULL ? t_printf(t, "%s (%s)", text,
	    ld->hint) : t_strdup(t, text);
	utf8_mend((char *)pr->text);
	pr->msg = t_strdup(t, text);		/* without the hint */
	ld->hint = NULL;
	ld->hints = t->problems.n < MAPMAX;
}

static int
by_place(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;

	if (x->line != y->line)
		return (x->line > y->line) - (x->line < y->line);
	if (x->column != y->column)
		return (x->column > y->column) - (x->column < y->column);
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * The map is refused (format.h): the error is its first problem found,
 * as the reading that stopped at it told it before (its text without
 * the hint); arb_turn_problem() gives them all, in document order.
 * Nothing is allocated: it is called after the load failed, the
 * failure's own problem noted already.
 */
void
load_map_refused(struct arb_turn *t)
{
	struct arb_error *e = t->mem.err;
	const struct problem *pr;

	if (e == NULL || e->code != ARB_EDATA || t->problems.n == 0 ||
	    t->problems.v[0].file >= 0)
		return;
	pr = &t->problems.v[0];
	e->line = pr->line;
	e->column = pr->column;
	snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
	ld_cut(e->pointer, sizeof(e->pointer), pr->pointer);
	snprintf(e->text, sizeof(e->text), "%s", pr->msg);
	utf8_mend(e->file);
	utf8_mend(e->pointer);
	utf8_mend(e->text);
	qsort(t->problems.v, t->problems.n, sizeof(*t->problems.v),
	    by_place);
}

static int
terrain_v(struct ld *ld, const struct jv *v)
{
	const struct board *b = &((struct arb_turn *)ld->owner)->board;
	const char	*name = ld_strv(ld, v);
	int		 i;

	for (i = 0; i < b->nterrains; i++)
		if (strcmp(b->terrains[i], name) == 0)
			return i;
	ld->hint = meant(ld, name, b->terrains, b->nterrains);
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

	l = ld_need(ld, bv, "territories");
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
		strmap_put(&t->mem, &b->by_name, name, (int)i);
		ld_pop(ld);
	}
	ld_pop(ld);

	l = ld_need(ld, bv, "edges");
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
static void	 read_piece(struct ld *, void *);

static void
load_table(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	struct board	*b = &t->board;
	const struct jv	*l;
	size_t		 i;

	ld_need(ld, bv, "width");
	ld_need(ld, bv, "height");
	b->tw = ld_real(ld, bv, "width", 0, GEOM_EPS, 1e6);
	b->th = ld_real(ld, bv, "height", 0, GEOM_EPS, 1e6);
	if ((l = ld_get(bv, "pieces")) == NULL)
		return;
	ld_push(ld, "pieces");
	for (i = 0; i < ld_len(ld, l); i++) {
		ld_pushi(ld, i);
		if (!ld_try(ld, read_piece, (void *)ld_at(l, i))) {
			b->pieces.n--;		/* left out */
			t->mapdrop = true;
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* A piece of the table, under its own recovery point; its id is taken
 * once it is whole. */
static void
read_piece(struct ld *ld, void *arg)
{
	static const char *const keys[] = { "id", "polygon", NULL };
	struct arb_turn	*t = ld->owner;
	struct board	*b = &t->board;
	struct piece	*pc = VPUSH(t, b->pieces);
	const struct jv	*v, *poly;
	size_t		 k;

	v = ld_need_object(ld, arg);
	ld_keys(ld, v, keys, NULL);
	pc->id = ld_str(ld, v, "id", NULL);
	if (strmap_get(&b->piece_ids, pc->id) >= 0) {
		ld_push(ld, "id");
		ld_fail(ld, "duplicate piece id \"%.40s\"", pc->id);
	}
	poly = ld_need(ld, v, "polygon");
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
	strmap_put(&t->mem, &b->piece_ids, pc->id,
	    (int)b->pieces.n - 1);
}

/* The board's shape: what rule systems need to name cells. */
static void
load_shape(struct arb_turn *t, struct ld *ld, const struct jv *bv)
{
	struct board	*b = &t->board;
	const char	*grid, *layout, *want;
	long		 digits, n;

	ld_push(ld, "board");
	ld_need_object(ld, bv);
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
	ld_need(ld, bv, "cols");
	ld_need(ld, bv, "rows");
	b->cols = (int)ld_int(ld, bv, "cols", 0, 1, 9999);
	b->rows = (int)ld_int(ld, bv, "rows", 0, 1, 9999);
	b->colsinv = ((uint64_t)1 << 40) / (uint64_t)b->cols + 1;
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

/* One legend entry: a character for a terrain. */
static void
read_legend(struct ld *ld, void *arg)
{
	struct board	*b = &((struct arb_turn *)ld->owner)->board;
	const char	*key = ((const char *const *)arg)[0];
	const struct jv	*val = ((const void *const *)arg)[1];

	if (strlen(key) != 1 || key[0] < 33 || key[0] > 126)
		ld_fail(ld, "bad legend key \"%.40s\": expected one printable "
		    "ASCII character", key);
	b->legend[(int)key[0]] = b->terrains[terrain_v(ld, val)];
}

/* One row of terrain characters. */
static void
read_row(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	struct board	*b = &t->board;
	const void *const *a = arg;
	const char	*s = ld_namev(ld, a[0], "row", "a string");
	int		 i = *(const int *)a[1], x;

	if (strlen(s) != (size_t)b->cols)
		ld_fail(ld, "row of %zu cells, the board has %d columns",
		    strlen(s), b->cols);
	for (x = 0; x < b->cols; x++) {
		unsigned char ch = (unsigned char)s[x];

		if (ch >= 128 || b->legend[ch] == NULL)
			ld_fail(ld, "column %d: '%c' is not in the legend",
			    x + 1, ch >= 33 && ch < 127 ? ch : '?');
	}
	for (x = 0; x < b->cols; x++)
		b->cells[i * b->cols + x].terrain = (uint8_t)board_terrain(t,
		    b->legend[(unsigned char)s[x]]);
}

static void
read_default(struct ld *ld, void *arg)
{
	struct board	*b = &((struct arb_turn *)ld->owner)->board;

	b->default_terrain = terrain_v(ld, arg);
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
	const void	*arg[2];
	void		*it;
	int		 i, c, dflt;

	if (b->kind == BOARD_TABLE)
		return;
	ld_push(ld, "board");
	if (ld_get(bv, "default") != NULL) {
		ld_push(ld, "default");
		ld_try(ld, read_default, (void *)ld_get(bv, "default"));
		ld_pop(ld);
	}
	dflt = b->default_terrain;
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
		ld_need_object(ld, legend);
		it = ld_iter(legend);
		while (ld_next(legend, &it, &key, &val)) {
			ld_push(ld, key);
			arg[0] = key;
			arg[1] = val;
			/* A character whose terrain is unknown stands for
			 * the default: its rows say nothing more. */
			if (!ld_try(ld, read_legend, arg) && strlen(key) == 1 &&
			    key[0] >= 33 && key[0] <= 126)
				b->legend[(int)key[0]] =
				    b->terrains[b->default_terrain];
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
			ld_pushi(ld, (size_t)i);
			arg[0] = ld_at(rows, (size_t)i);
			arg[1] = &i;
			ld_try(ld, read_row, arg);
			ld_pop(ld);
		}
		ld_pop(ld);
		b->has_rows = true;
	}
	ld_pop(ld);
}

/* One cell's own members: a problem leaves the rest of it unread. */
static void
read_cell(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	const struct ufield *x = t->rs->cell_x;
	const char	*key = ((const char *const *)arg)[0];
	const struct jv	*val = ((const void *const *)arg)[1], *f;
	const char *const *xkeys = ((const void *const *)arg)[2];
	struct cell	*c;
	size_t		 i;
	int		 idx = board_find(&t->board, key), k;

	if (idx < 0) {
		ld->hint = hint_cell(ld, key);
		ld_fail(ld, "unknown cell \"%.40s\"", key);
	}
	c = &t->board.cells[idx];
	ld_need_object(ld, val);
	map_keys_of(ld, val, cell_keys, xkeys);
	for (k = 0; xkeys[k] != NULL; k++)
		t->board.cx[k][idx] = (int)ld_int(ld, val, xkeys[k],
		    x[k].dflt, x[k].min, INT_MAX);
	if (ld_get(val, "terrain") != NULL) {
		ld_push(ld, "terrain");
		c->terrain = (uint8_t)terrain_v(ld, ld_get(val, "terrain"));
		ld_pop(ld);
	}
	if ((f = ld_get(val, "features")) != NULL) {
		ld_push(ld, "features");
		for (i = 0; i < ld_len(ld, f); i++) {
			const char	*name;

			ld_pushi(ld, i);
			name = ld_strv(ld, ld_at(f, i));
			k = board_feature_find(&t->board, name);
			if (k < 0) {
				ld->hint = meant(ld, name, t->board.features,
				    t->board.nfeatures);
				ld_fail(ld, "unknown feature \"%.40s\"", name);
			}
			c->features |= 1u << k;
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	if ((f = ld_get(val, "owner")) != NULL && !ld_is_null(f)) {
		ld_push(ld, "owner");
		c->owner = (int16_t)ld_playerv(ld, f);
		ld_pop(ld);
	}
	c->loyalty = (int32_t)ld_int(ld, val, "loyalty", 0, INT_MIN, INT_MAX);
}

static void
load_cells(struct arb_turn *t, struct ld *ld, const struct jv *cv)
{
	const struct ufield *x = t->rs->cell_x;
	const char	*xkeys[UNIT_X + 1] = { NULL };
	const char	*key;
	const struct jv	*val;
	const void	*arg[3];
	void		*it;
	int		 k;

	for (k = 0; x != NULL && x[k].name != NULL; k++)
		xkeys[k] = x[k].name;

	ld_push(ld, "cells");
	ld_need_object(ld, cv);
	it = ld_iter(cv);
	while (ld_next(cv, &it, &key, &val)) {
		ld_push(ld, key);
		arg[0] = key;
		arg[1] = val;
		arg[2] = xkeys;
		ld_try(ld, read_cell, arg);
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
read_side(struct ld *ld, void *arg)
{
	static const char *const keys[] = { "cells", "feature", NULL };
	struct arb_turn	*t = ld->owner;
	struct hexside	*s = VPUSH(t, t->board.sides);
	const struct jv	*v;
	const char	*feat;
	int		*cells;
	size_t		 k, n;

	v = ld_need_object(ld, arg);
	ld_keys(ld, v, keys, NULL);
	cells = cell_chain(t, ld, ld_need(ld, v, "cells"), &n);
	if (n != 2) {
		ld_push(ld, "cells");
		ld_fail(ld, "a hexside joins two cells, not %zu", n);
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
}

/* Each hexside on its own; one that cannot be read is left out (and
 * the checks across the map, whose pointers count the list, with it). */
static void
load_sides(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	size_t		 i;

	if ((arr = ld_get(arr, "hexsides")) == NULL)
		return;
	ld_push(ld, "hexsides");
	for (i = 0; i < ld_len(ld, arr); i++) {
		ld_pushi(ld, i);
		if (!ld_try(ld, read_side, (void *)ld_at(arr, i))) {
			t->board.sides.n--;
			t->mapdrop = true;
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
read_connection(struct ld *ld, void *arg)
{
	static const char *const keys[] = { "kind", "cells", NULL };
	struct arb_turn		*t = ld->owner;
	struct connection	*c = VPUSH(t, t->board.conns);
	const struct jv		*v;
	size_t			 n;

	v = ld_need_object(ld, arg);
	ld_keys(ld, v, keys, NULL);
	c->kind = ld_str(ld, v, "kind", NULL);
	c->cells = cell_chain(t, ld, ld_need(ld, v, "cells"), &n);
	c->ncells = (int)n;
}

static void
load_connections(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	size_t		 i;

	ld_push(ld, "connections");
	for (i = 0; i < ld_len(ld, arr); i++) {
		ld_pushi(ld, i);
		if (!ld_try(ld, read_connection, (void *)ld_at(arr, i))) {
			t->board.conns.n--;
			t->mapdrop = true;
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* A player's name. */
static void
read_player_name(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	const char	*key = arg;
	struct player	*pl;

	/* A bad name is a problem, and still the player's, so that what
	 * names the player says nothing more. */
	if (key[0] == '\0')
		ld_problem(ld, "empty player name");
	/* The command line binds a file with "player=file". */
	else if (strpbrk(key, "=/") != NULL)
		ld_problem(ld, "player name \"%.40s\" has \"%c\": a name "
		    "cannot hold \"=\" or \"/\"", key, *strpbrk(key, "=/"));
	if (t->players.n == MAXPLAYERS)
		ld_fail(ld, "more than %d players", MAXPLAYERS);
	pl = VPUSH(t, t->players);
	pl->name = t_strdup(t, key);
	pl->ofile = -1;
	strmap_put(&t->mem, &t->player_names, pl->name, (int)t->players.n - 1);
}

/* A player's own members, once every name is known. */
static void
read_player(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	const char *const *res = t->rs->player_res;
	const char	*key = ((const char *const *)arg)[0];
	const struct jv	*val = ((const void *const *)arg)[1], *l;
	int		 p = strmap_get(&t->player_names, key), k;
	struct player	*pl = &t->players.v[p];
	size_t		 i;

	ld_need_object(ld, val);
	map_keys_of(ld, val, player_keys, res);
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
		pl->disc = t_alloc(t, (size_t)pl->ndisc * sizeof(*pl->disc));
		for (i = 0; i < (size_t)pl->ndisc; i++) {
			ld_pushi(ld, i);
			pl->disc[i] = ld_strv(ld, ld_at(l, i));
			ld_pop(ld);
		}
		ld_pop(ld);
	}
}

static void
load_players(struct arb_turn *t, struct ld *ld, const struct jv *pv)
{
	const char	*key;
	const struct jv	*val;
	const void	*arg[2];
	void		*it;

	ld_push(ld, "players");
	ld_need_object(ld, pv);
	/* Names first: treaties may name a player listed later.  A player
	 * whose name cannot be had is left out. */
	it = ld_iter(pv);
	while (ld_next(pv, &it, &key, &val)) {
		ld_push(ld, key);
		if (!ld_try(ld, read_player_name, (void *)key))
			t->mapdrop = true;
		ld_pop(ld);
	}
	if (t->players.n == 0)
		ld_fail(ld, "no players");
	it = ld_iter(pv);
	while (ld_next(pv, &it, &key, &val)) {
		if (strmap_get(&t->player_names, key) < 0)
			continue;
		ld_push(ld, key);
		arg[0] = key;
		arg[1] = val;
		ld_try(ld, read_player, arg);
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
read_turn_order(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	const struct jv	*l = arg;
	size_t		 i, n = t->players.n;
	uint64_t	 seen = 0;

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
}

static void
load_turn_order(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*l = ld_get(root, "turn_order");
	size_t		 i, n = t->players.n;

	t->turn_order = t_alloc(t, n * sizeof(int));
	for (i = 0; i < n; i++)
		t->turn_order[i] = (int)i;
	if (l == NULL)
		return;
	ld_push(ld, "turn_order");
	ld_try(ld, read_turn_order, (void *)l);
	ld_pop(ld);
}

static void
load_pose(struct ld *ld, const struct jv *v, struct unit *u)
{
	static const char *const keys[] = { "x", "y", "facing", NULL };
	struct board	*b = &((struct arb_turn *)ld->owner)->board;

	ld_push(ld, "pose");
	ld_need_object(ld, v);
	ld_keys(ld, v, keys, NULL);
	ld_need(ld, v, "x");
	ld_need(ld, v, "y");
	ld_need(ld, v, "facing");
	u->pose.x = ld_real(ld, v, "x", 0, 0, b->tw);
	u->pose.y = ld_real(ld, v, "y", 0, 0, b->th);
	u->pose.facing = geom_norm360(ld_real(ld, v, "facing", 0, -1e6,
	    1e6));
	u->pose0 = u->pose;
	u->at = u->from = -1;
	ld_pop(ld);
}

/* The unit keys of the map's rule system (load_units()). */
struct ukeys {
	const char	*x[UNIT_X + 33];
	int		 nx;
};

/*
 * One unit, under its own recovery point: it joins the model (its id,
 * its cell) only once it is whole, so that one that cannot be read is
 * left out; its index is the model's, its pointer the document's.
 */
static void
read_unit(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;
	const struct ufield *x = t->rs->unit_x;
	const char *const *marks = t->rs->unit_marks;
	const struct jv	*v = ((const void *const *)arg)[0];
	const struct ukeys *uk = ((const void *const *)arg)[1];
	struct unit	*u = VPUSH(t, t->units);
	const int	 ui = (int)t->units.n - 1;
	struct utype	*ty;
	const char	*tn;
	int		 k, m;

	v = ld_need_object(ld, v);
	map_keys_of(ld, v, t->board.kind == BOARD_TABLE ? tunit_keys :
	    unit_keys, uk->x);
	u->id = ld_str(ld, v, "id", NULL);
	if (strmap_get(&t->unit_ids, u->id) >= 0) {
		ld_push(ld, "id");
		ld_fail(ld, "duplicate unit id \"%.40s\"", u->id);
	}
	ld_push(ld, "player");
	u->player = ld_playerv(ld, ld_need(ld, v, "player"));
	ld_pop(ld);
	tn = ld_str(ld, v, "type", NULL);
	if ((ty = type_find(t, tn)) == NULL) {
		if (ld->hints) {
			struct suggest	 sg;
			size_t		 i;

			suggest_start(&sg, tn);
			for (i = 0; i < t->types.n; i++)
				suggest_offer(&sg, t->types.v[i].name);
			if (sg.best != NULL)
				ld->hint = t_printf(t, "did you mean "
				    "\"%.40s\"?", sg.best);
		}
		ld_push(ld, "type");
		ld_fail(ld, "unknown unit type \"%.40s\"", tn);
	}
	u->type = (int)(ty - t->types.v);
	if (t->board.kind == BOARD_TABLE)
		load_pose(ld, ld_need(ld, v, "pose"), u);
	else {
		ld_push(ld, "at");
		u->at = u->from = ld_cellv(ld, ld_need(ld, v, "at"));
		ld_pop(ld);
	}
	u->strength = u->strength0 = (int)ld_int(ld, v, "strength", 1, 1,
	    INT_MAX);
	u->range = (int)ld_int(ld, v, "range", -1, 0, INT_MAX);
	for (k = 0; k < uk->nx; k++) {
		u->has_x[k] = ld_get(v, uk->x[k]) != NULL;
		u->x[k] = (int)ld_int(ld, v, uk->x[k], x[k].dflt, x[k].min,
		    INT_MAX);
	}
	for (m = 0; marks != NULL && marks[m] != NULL; m++)
		if ((t->rs->marks_in >> m & 1) && ld_bool(ld, v, marks[m],
		    false))
			u->marks |= 1u << m;
	u->next = u->prev = -1;
	u->by = -1;
	if (t->rs->load_unit != NULL)
		t->rs->load_unit(t, ld, ui, v);
	u = &t->units.v[ui];
	strmap_put(&t->mem, &t->unit_ids, u->id, ui);
	if (u->at >= 0)
		unit_place(t, ui, u->at);
}

static void
load_units(struct arb_turn *t, struct ld *ld, const struct jv *arr)
{
	const struct ufield *x = t->rs->unit_x;
	const char *const *marks = t->rs->unit_marks;
	struct ukeys	 uk;
	const void	*arg[2];
	size_t		 i, n;
	int		 k, m;

	memset(&uk, 0, sizeof(uk));
	for (k = 0; x != NULL && x[k].name != NULL; k++)
		uk.x[k] = x[k].name;
	uk.nx = k;
	for (m = 0; marks != NULL && marks[m] != NULL; m++)
		if (t->rs->marks_in >> m & 1)
			uk.x[k++] = marks[m];
	for (m = 0; t->rs->unit_keys != NULL && t->rs->unit_keys[m] != NULL &&
	    k < UNIT_X + 32; m++)
		uk.x[k++] = t->rs->unit_keys[m];
	ld_push(ld, "units");
	n = ld_len(ld, arr);
	for (i = 0; i < n; i++) {
		ld_pushi(ld, i);
		arg[0] = ld_at(arr, i);
		arg[1] = &uk;
		if (!ld_try(ld, read_unit, arg)) {
			t->units.n--;		/* left out */
			t->mapdrop = true;
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* The cells' owners and counters as the turn starts, for the balance.
 * (Their features are kept by feature_destroy(), when one is.) */
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

static void
read_turn(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;

	t->number = (int)ld_int(ld, arg, "turn", 1, 1, INT_MAX);
}

static void
read_seed(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;

	t->seed = (uint64_t)ld_int(ld, arg, "seed", 1, 0, LONG_MAX - 1);
}

static void
read_dice(struct ld *ld, void *arg)
{
	fair_loaded(ld->owner, ld, arg);
}

static void
read_loaded(struct ld *ld, void *arg)
{
	struct arb_turn	*t = ld->owner;

	t->rs->loaded(t, ld, arg);
}

static void
read_display(struct ld *ld, void *arg)
{
	load_display(ld->owner, ld, arg);	/* display.c */
}

/*
 * The map.  Each element (a top-level key, a player, a cell, a hexside,
 * a connection, a unit, an entry of the rule system's tables) is read
 * on its own, so that every problem is told at once (issue 26); what
 * makes the rest meaningless (not JSON, not a map, an unknown rule
 * system, a board that cannot be had) stops at once.  The checks across
 * the map are made when nothing was left out.  A map with any problem
 * is refused: the first in document order is the error, all of them
 * arb_turn_problem()'s.
 */
void
load_map(struct arb_turn *t, struct ld *ld)
{
	const struct jv	*root, *v;
	const char	*name;

	ld->owner = t;
	ld->note = map_note;
	ld->many = true;
	ld->hints = true;
	root = parse(t, ld);
	v = ld_need(ld, root, "arbiter");
	ld_push(ld, "arbiter");
	if (!ld_int_is(v, 1))
		ld_expect(ld, v, "format version", "1");
	ld_pop(ld);
	name = ld_str(ld, root, "ruleset", NULL);
	if ((t->rs = rules_find(name)) == NULL) {
		ld_push(ld, "ruleset");
		ld->hint = ld_meant(ld, name, rules_names(), NULL);
		ld_fail(ld, "unknown ruleset \"%.40s\"", name);
	}
	map_keys_of(ld, root, map_keys, t->rs->map_keys);
	t->number = 1;
	ld_try(ld, read_turn, (void *)root);
	if (!t->seed_set) {
		t->seed = 1;
		ld_try(ld, read_seed, (void *)root);
	}
	ld_try(ld, read_dice, (void *)root);
	t->rs->init(t);
	load_players(t, ld, ld_need(ld, root, "players"));
	load_shape(t, ld, ld_need(ld, root, "board"));
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
	if (!t->mapdrop) {
		if (t->rs->loaded != NULL)
			ld_try(ld, read_loaded, (void *)root);
		ld_try(ld, read_display, (void *)root);
	}
	if (t->problems.n > 0)
		mem_fail(&t->mem, ARB_EDATA, "the map has problems");
	t->ld = NULL;
	ld_close(ld);
}

static const char *const orders_keys[] = {
	"$schema", "arbiter", "player", "turn", "map", "orders", NULL
};

/* Suggestions are worked out for the first problems of a file only, so
 * that a file of bad orders costs no more than a good one. */
#define HINTS	50

/*
 * Records a problem of the orders file being read (the last of
 * t->files), at ld's pointer, with ld's reason and hint (then reset):
 * the JSON layer's note() while a player's file is read.
 */
static void
note(struct ld *ld, const char *text)
{
	struct arb_turn	*t = ld->owner;
	struct problem	*pr = VPUSH(t, t->problems);
	struct ofile	*f = &t->files.v[t->files.n - 1];

	pr->file = (int)t->files.n - 1;
	pr->order = t->reading;
	pr->reason = (enum reason)ld->reason;
	pr->line = pr->column = 1;
	pr->pointer = t_strdup(t, ld_where(ld));
	ld_locate(ld, pr->pointer, &pr->line, &pr->column);
	pr->text = ld->hint != NULL ? t_printf(t, "%s (%s)", text,
	    ld->hint) : t_strdup(t, text);
	utf8_mend((char *)pr->text);
	/* A text's pointer is into the document it means: the line and
	 * column say where. */
	pr->msg = t_printf(t, "%s:%d:%d: %s%s%s", ld->file, pr->line,
	    pr->column, pr->text, pr->pointer[0] != '\0' && ld->where ==
	    NULL ? " at " : "", ld->where == NULL ? pr->pointer : "");
	f->nproblems++;
	ld->reason = R_BAD_ORDER;
	ld->hint = NULL;
	ld->hints = f->nproblems < HINTS;
}

static void	 file_problem(struct ld *, enum reason, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/* A problem of the file as a whole. */
static void
file_problem(struct ld *ld, enum reason r, const char *fmt, ...)
{
	struct arb_turn	*t = ld->owner;
	va_list		 ap;
	const char	*text;

	va_start(ap, fmt);
	text = mem_vprintf(&t->mem, fmt, ap);
	va_end(ap);
	ld->reason = r;
	note(ld, text);
}

static bool
listed(const char *const *l, const char *key)
{
	for (; l != NULL && *l != NULL; l++)
		if (strcmp(*l, key) == 0)
			return true;
	return false;
}

/* The units an order names: the player's own, each once.
 * o->units[0 .. nunits-1] are always units read and checked: an order
 * refused half way lists those. */
static void
order_units(struct arb_turn *t, struct ld *ld, struct order *o,
    const struct jv *v, int player)
{
	const struct jv	*l;
	const char	*s;
	size_t		 i, n;
	unsigned	 stamp;
	int		 k;

	/* A unit is listed twice when it carries this order's stamp. */
	if (t->listed == NULL)
		t->listed = t_alloc(t, (t->units.n + 1) * sizeof(*t->listed));
	stamp = ++t->stamp;
	l = ld_need(ld, v, "units");
	ld_push(ld, "units");
	n = ld_len(ld, l);
	if (n == 0)
		ld_fail(ld, "an order needs at least one unit");
	o->units = t_alloc(t, n * sizeof(int));
	for (i = 0; i < n; i++) {
		ld_pushi(ld, i);
		s = ld_namev(ld, ld_at(l, i), "unit", "a unit id");
		if ((k = strmap_get(&t->unit_ids, s)) < 0) {
			ld->reason = R_UNKNOWN_UNIT;
			ld->hint = hint_unit(ld, s, player);
			ld_fail(ld, "unknown unit \"%.40s\"", s);
		}
		if (t->units.v[k].player != player) {
			ld->reason = R_FOREIGN_UNIT;
			ld_fail(ld, "unit \"%.40s\" belongs to %s, not %s",
			    t->units.v[k].id,
			    t->players.v[t->units.v[k].player].name,
			    t->players.v[player].name);
		}
		if (t->listed[k] == stamp) {
			ld->reason = R_UNIT_LISTED_TWICE;
			ld_fail(ld, "unit \"%.40s\" listed twice",
			    t->units.v[k].id);
		}
		t->listed[k] = stamp;
		o->units[o->nunits++] = k;
		ld_pop(ld);
	}
	ld_pop(ld);
}

/*
 * "to" (issue 15): an order that gives its destination instead of its
 * path is an order of the rule system's path kind; the driver finds the
 * path at the order's moment (lib/rules/reach.c).
 */
static void
route_kind(struct arb_turn *t, struct ld *ld, struct order *o)
{
	const struct okind *ok = t->rs->order_kinds;
	int	 k;

	ld_push(ld, "to");
	if (o->kind >= 0)
		ld_fail(ld, "order has both \"%s\" and \"to\": give the "
		    "path or the destination, not both", ok[o->kind].key);
	for (k = 0; ok[k].key != NULL && ok[k].arg != OK_PATH; k++)
		;
	if (t->rs->walk_step == NULL || ok[k].key == NULL)
		ld_fail(ld, "%s moves %s: an order gives its moves, not a "
		    "destination (\"to\")", t->rs->name,
		    t->rs->board == BOARD_TABLE ? "on an open table, not from "
		    "cell to cell" : "by no path");
	o->kind = k;
	ld_pop(ld);
}

/* The "to" and "from" of a destination order; from only with a count. */
static void
route_cells(struct arb_turn *t, struct ld *ld, struct order *o,
    const struct jv *v, bool count)
{
	const struct jv	*to = ld_get(v, "to"), *from = ld_get(v, "from");

	if (to == NULL) {
		ld_push(ld, "from");
		ld_fail(ld, "\"from\" goes with \"to\", a destination "
		    "instead of a path");
	}
	ld_push(ld, "to");
	o->to = ld_cellv(ld, to);
	ld_pop(ld);
	o->has_to = true;
	o->from = -1;
	if (count && from == NULL)
		ld_fail(ld, "missing \"from\": the %s the %s leave",
		    t->rs->board == BOARD_GRAPH ? "territory" : "cell",
		    t->rs->order_kinds[o->kind].count);
	if (!count && from != NULL) {
		ld_push(ld, "from");
		ld_fail(ld, "\"from\" is for orders that move a count; "
		    "the units leave the cell they stand in");
	}
	if (from != NULL) {
		ld_push(ld, "from");
		o->from = ld_cellv(ld, from);
		ld_pop(ld);
	}
	(void)t;
}

/*
 * Reads one order into o.  Any failure below is a problem of the file
 * and jumps to load_order()'s recovery point.
 */
static void
read_order(struct arb_turn *t, struct ld *ld, struct order *o,
    const struct jv *v, struct strmap *ids)
{
	const struct okind *ok = t->rs->order_kinds;
	const char	*base[20] = { "id", NULL };
	const struct jv	*arg = NULL, *val, *to;
	const char	*key;
	void		*it;
	size_t		 i, n;
	char		 buf[32];
	int		 k;

	/* "units", or the count key, of any kind. */
	base[1] = ok[0].count != NULL ? ok[0].count : "units";
	for (k = 0; ok[k].key != NULL && k < 13; k++)
		base[k + 2] = ok[k].key;
	base[k + 2] = "to";		/* a destination instead of a path */
	base[k + 3] = "from";		/* and, for a count, where from */
	ld_need_object(ld, v);
	for (k = 0; ok[k].key != NULL; k++) {
		if (ld_get(v, ok[k].key) == NULL)
			continue;
		if (o->kind >= 0)
			ld_fail(ld, "order has both \"%s\" and \"%s\"",
			    ok[o->kind].key, ok[k].key);
		o->kind = k;
		arg = ld_get(v, ok[k].key);
	}
	/* A member not known: an order kind misspelt, when it is nearest
	 * one or the order has no kind, else a member too many. */
	it = ld_iter(v);
	while (ld_next(v, &it, &key, &val)) {
		if (key[0] == '_' || listed(base, key) ||
		    listed(t->rs->order_keys, key))
			continue;
		ld_push(ld, key);
		ld->reason = o->kind < 0 ? R_UNKNOWN_KIND : R_BAD_ORDER;
		ld->hint = ld_meant(ld, key, base, t->rs->order_keys);
		for (k = 0; ok[k].key != NULL && ld->hint != NULL; k++)
			if (strcmp(ld->hint, t_printf(t, "did you mean "
			    "\"%s\"?", ok[k].key)) == 0)
				ld->reason = R_UNKNOWN_KIND;
		ld_fail(ld, "unknown member \"%.40s\"", key);
	}
	if ((to = ld_get(v, "to")) != NULL)
		route_kind(t, ld, o);
	if (o->kind < 0) {
		char	 list[160] = "";

		for (k = 0; ok[k].key != NULL; k++)
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), "%s\"%s\"", k ? ", " : "",
			    ok[k].key);
		ld->reason = R_UNKNOWN_KIND;
		ld_fail(ld, "order has none of %s", list);
	}
	if (ld_get(v, "id") != NULL)
		o->id = ld_str(ld, v, "id", NULL);
	else {
		snprintf(buf, sizeof(buf), "%d", o->index);
		o->id = t_strdup(t, buf);
	}
	if (strmap_get(ids, o->id) >= 0) {
		ld_push(ld, "id");
		ld->reason = R_DUPLICATE_ID;
		ld_fail(ld, "duplicate order id \"%.40s\"", o->id);
	}
	strmap_put(&t->mem, ids, o->id, o->index);
	if (ok[o->kind].count != NULL) {
		ld_need(ld, v, ok[o->kind].count);
		o->n = ld_int(ld, v, ok[o->kind].count, 1, 1, INT_MAX);
	} else
		order_units(t, ld, o, v, o->player);
	if (to != NULL || ld_get(v, "from") != NULL) {
		route_cells(t, ld, o, v, ok[o->kind].count != NULL);
		return;
	}
	ld_push(ld, ok[o->kind].key);
	if (ok[o->kind].arg == OK_RULE)
		t->rs->load_order(t, ld, o, arg, v);
	else if (ok[o->kind].arg == OK_CELL) {
		o->cells = t_alloc(t, sizeof(int));
		o->cells[0] = ld_cellv(ld, arg);
		o->ncells = 1;
	} else {
		n = ld_len(ld, arg);
		if (n == 0) {
			ld->reason = R_EMPTY_PATH;
			ld_fail(ld, "empty path: a path starts with the cell "
			    "the move leaves");
		}
		/* Every step is written out with its costs: a bound keeps
		 * one order's record within memory (arbiter-orders(5)). */
		if (n > MAXSTEPS + 1)
			ld_fail(ld, "a path of %zu steps: at most %d", n - 1,
			    MAXSTEPS);
		o->cells = t_alloc(t, n * sizeof(int));
		for (i = 0; i < n; i++) {
			ld_pushi(ld, i);
			o->cells[i] = ld_cellv(ld, ld_at(arg, i));
			ld_pop(ld);
		}
		o->ncells = (int)n;
	}
	ld_pop(ld);
}

/*
 * One order, read under its own recovery point: an order that cannot be
 * read is recorded illegal with its problem and never carried out; the
 * rest of the file goes on.  What it half did is made harmless: its id is
 * kept (or its pointer named), its units are those read and checked, it
 * has no cells and no rule system's data.
 */
static void
load_order(struct arb_turn *t, struct ld *ld, const struct jv *v,
    int player, int file, int index, struct strmap *ids, struct otext *tx)
{
	jmp_buf		 jb;
	struct order	*o = VPUSH(t, t->orders);
	const size_t	 oi = t->orders.n - 1, depth = ld->depth;
	const struct problem *pr;
	const char	*id;

	o->player = player;
	o->file = file;
	o->index = index;
	o->kind = -1;
	t->reading = (int)oi;
	ld->recover = &jb;
	ld->reason = R_BAD_ORDER;
	ld->hint = NULL;
	if (setjmp(jb) == 0) {
		const char *what, *hint;
		int	 r;

		/* A line of a text that cannot be read. */
		if (tx != NULL && (r = text_problem(tx, (size_t)index, &what,
		    &hint)) != R_OK) {
			ld->reason = r;
			ld->hint = hint;
			ld_fail(ld, "%s", what);
		}
		read_order(t, ld, o, v, ids);
		ld->recover = NULL;
		t->reading = -1;
		if (tx != NULL)
			t->orders.v[oi].text = t->echo ?
			    text_line(t, tx, v) : NULL;
		return;
	}
	ld->recover = NULL;
	t->reading = -1;
	while (ld->depth > depth)
		ld_pop(ld);
	o = &t->orders.v[oi];
	pr = &t->problems.v[t->problems.n - 1];
	o->status = OS_ILLEGAL;
	o->reason = pr->reason;
	o->rule = "arbiter-orders(5) Refusals";
	o->msg = pr->msg;
	o->refused = true;
	o->cells = NULL;
	o->ncells = 0;
	o->has_to = false;
	o->data = NULL;
	o->n = 0;
	/* Its id: the one it gives, unless that is another order's or
	 * cannot be read; then its pointer. */
	if (!ld_is_object(v) || ld_get(v, "id") == NULL)
		id = t_printf(t, "%d", index);
	else
		id = ld_plain(ld_get(v, "id"));
	if (id != NULL && strmap_get(ids, id) >= 0 &&
	    strmap_get(ids, id) != index)
		id = NULL;
	if (id == NULL)
		id = t_printf(t, "/orders/%d", index);
	o->id = t_strdup(t, id);
	if (strmap_get(ids, o->id) < 0)
		strmap_put(&t->mem, ids, o->id, index);
	if (tx != NULL && t->echo)
		o->text = text_bad_line(tx, (size_t)index) != NULL ?
		    text_bad_line(tx, (size_t)index) : text_line(t, tx, v);
	t->refused_orders++;
}

/* Members only a map has. */
static const char *const map_only[] = {
	"ruleset", "board", "cells", "units", "hexsides", NULL
};

/*
 * "map": at least 12 hex digits of the map's SHA-256, as the template
 * writes them; orders written for another map are refused whole.
 */
static void
check_map(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	static const char hex[] = "0123456789abcdef";
	const char	*s = ld_plain(v);
	size_t		 i, n;

	ld_push(ld, "map");
	n = s != NULL ? strlen(s) : 0;
	if (s == NULL || n < 12 || n > 64 || strspn(s, "0123456789abcdef"
	    "ABCDEF") != n) {
		file_problem(ld, R_BAD_FILE, "bad map: expected 12 to 64 hex "
		    "digits of the map's SHA-256");
		ld_pop(ld);
		return;
	}
	for (i = 0; i < n; i++) {
		int	 d = t->mapsha[i / 2] >> (i % 2 ? 0 : 4) & 0xf;

		if (hex[d] != (s[i] | 0x20))
			break;
	}
	if (i < n) {
		char	 mine[13];

		for (i = 0; i < 12; i++)
			mine[i] = hex[t->mapsha[i / 2] >> (i % 2 ? 0 : 4) &
			    0xf];
		mine[12] = '\0';
		file_problem(ld, R_WRONG_MAP, "orders for map %.12s..., not "
		    "this map (%s...)", s, mine);
	}
	ld_pop(ld);
}

/*
 * The file's own members; each problem is recorded.  Returns the player
 * it speaks for (bound, its own), or -1.
 */
static int
check_file(struct arb_turn *t, struct ld *ld, const struct jv *root,
    const char *bind, int bound)
{
	const struct jv	*v;
	const char	*key, *name;
	void		*it;
	size_t		 i;
	long		 turn;
	int		 p = -1, k, unknown = 0;

	if (!ld_is_object(root)) {
		file_problem(ld, R_NOT_ORDERS, "not an orders file: %s, not an "
		    "object", ld_is_array(root) ? "an array" : "a value");
		return bound;
	}
	for (k = 0; map_only[k] != NULL; k++)
		if (ld_get(root, map_only[k]) != NULL) {
			file_problem(ld, R_NOT_ORDERS, "that looks like a map, "
			    "not an orders file");
			return bound;
		}
	it = ld_iter(root);
	while (ld_next(root, &it, &key, &v)) {
		if (key[0] == '_' || listed(orders_keys, key))
			continue;
		/* Ten are enough to see what went wrong. */
		if (++unknown > 10)
			continue;
		ld_push(ld, key);
		ld->hint = ld_meant(ld, key, orders_keys, NULL);
		file_problem(ld, R_BAD_FILE, "unknown member \"%.40s\"", key);
		ld_pop(ld);
	}
	if (unknown > 10)
		file_problem(ld, R_BAD_FILE, "%d more unknown members",
		    unknown - 10);
	if ((v = ld_get(root, "arbiter")) == NULL)
		file_problem(ld, R_BAD_FILE, "missing \"arbiter\": 1, the "
		    "format version");
	else if (!ld_int_is(v, 1)) {
		ld_push(ld, "arbiter");
		file_problem(ld, R_BAD_FILE, "bad format version: expected 1");
		ld_pop(ld);
	}
	if ((v = ld_get(root, "player")) == NULL)
		file_problem(ld, R_BAD_FILE, "missing \"player\"");
	else {
		ld_push(ld, "player");
		if ((name = ld_plain(v)) == NULL)
			file_problem(ld, R_BAD_FILE, "bad player: expected a "
			    "player name");
		else if ((p = strmap_get(&t->player_names, name)) < 0) {
			for (i = 0; i < t->players.n; i++)
				if (same_but_case(name, t->players.v[i].name))
					ld->hint = t_printf(t, "did you mean "
					    "\"%.40s\"?", t->players.v[i].name);
			file_problem(ld, R_UNKNOWN_PLAYER, "unknown player "
			    "\"%.40s\"", name);
		} else if (bind != NULL && strcmp(bind, name) != 0) {
			file_problem(ld, R_WRONG_PLAYER, "orders of \"%.40s\" "
			    "bound to player \"%.40s\"", name, bind);
			p = -1;
		}
		ld_pop(ld);
	}
	if ((v = ld_get(root, "turn")) == NULL)
		file_problem(ld, R_BAD_FILE, "missing \"turn\"");
	else {
		ld_push(ld, "turn");
		turn = ld_int_or(v, 0);
		if (turn < 1)
			file_problem(ld, R_BAD_FILE, "bad turn: expected an "
			    "integer >= 1");
		else if (turn != t->number)
			file_problem(ld, R_WRONG_TURN, "orders for turn %ld, "
			    "the map is turn %d", turn, t->number);
		ld_pop(ld);
	}
	if ((v = ld_get(root, "map")) != NULL)
		check_map(t, ld, v);
	if ((v = ld_get(root, "orders")) == NULL)
		file_problem(ld, R_BAD_FILE, "missing \"orders\", the list of "
		    "orders");
	else if (!ld_is_array(v)) {
		ld_push(ld, "orders");
		file_problem(ld, R_BAD_FILE, "bad orders: expected an array");
		ld_pop(ld);
	}
	return bound >= 0 ? bound : p;
}

/* File file is refused whole, for one problem at line:column. */
static void
file_refused(struct arb_turn *t, int file, int player, enum reason r,
    int line, int column, const char *text)
{
	struct problem	*pr = VPUSH(t, t->problems);
	struct ofile	*f = &t->files.v[file];

	pr->file = file;
	pr->order = -1;
	pr->reason = r;
	pr->line = line;
	pr->column = column;
	pr->pointer = "";
	pr->text = t_strdup(t, text);
	utf8_mend((char *)pr->text);
	pr->msg = t_printf(t, "%s:%d:%d: %s", f->name, line, column,
	    pr->text);
	f->nproblems++;
	f->player = player;
}

static void	 refuse(struct arb_turn *, struct ld *, struct ofile *);

/*
 * An orders file.  What the umpire's command line got wrong fails (two
 * files for one player); what the player got wrong is a ruling: a file
 * that cannot be read as orders is refused whole (its player's units
 * hold), an order that cannot be read is refused alone.
 */
void
load_orders(struct arb_turn *t, struct ld *ld, const char *bind)
{
	struct strmap	*ids = &t->order_ids;
	const struct jv	*root, *l;
	struct ofile	*f;
	struct otext	*tx = NULL;
	char		 text[200];
	size_t		 i, n;
	int		 p, file, line, column, bound = -1;

	if (bind != NULL)
		bound = strmap_get(&t->player_names, bind);
	file = (int)t->files.n;
	f = VPUSH(t, t->files);
	f->name = t_strdup(t, ld->file);
	f->player = -1;
	ld->owner = t;
	ld->note = note;
	ld->hints = true;
	ld->reason = R_BAD_ORDER;
	ld->array = "/orders";
	t->reading = -1;
	if (text_is(ld->text, ld->len)) {
		const char *what, *hint;
		int	 r;

		f->text = true;
		root = text_read(t, ld, &tx);
		if ((r = text_header(tx, &what, &hint)) != R_OK) {
			t->ld = ld;
			ld->hint = hint;
			file_problem(ld, r, "%s", what);
			f = &t->files.v[file];
			f->player = bound;
			goto refused;
		}
	} else
		root = ld_try_parse(ld, text, sizeof(text), &line, &column);
	if (root == NULL) {
		file_refused(t, file, bound, R_NOT_JSON, line, column,
		    t_printf(t, "not JSON: %s", text));
		f = &t->files.v[file];
		goto refused;
	}
	t->ld = ld;
	p = check_file(t, ld, root, bind, bound);
	f = &t->files.v[file];
	f->player = p;
	if (p >= 0 && t->players.v[p].ofile >= 0) {
		ld_push(ld, "player");
		ld_fail(ld, "second orders file for \"%s\" (the first is "
		    "%s)", t->players.v[p].name,
		    t->files.v[t->players.v[p].ofile].name);
	}
	if (f->nproblems > 0)
		goto refused;
	t->players.v[p].ofile = file;
	l = ld_get(root, "orders");
	ld_push(ld, "orders");
	n = ld_len(ld, l);
	for (i = 0; i < n; i++) {
		ld_pushi(ld, i);
		load_order(t, ld, ld_at(l, i), p, file, (int)i, ids, tx);
		ld_pop(ld);
	}
	ld_pop(ld);
	strmap_release(ids);
	t->ld = NULL;
	ld_close(ld);
	return;
refused:
	t->ld = NULL;
	ld_close(ld);
	refuse(t, ld, f);
}

/*
 * An orders file refused whole before it is read as orders (a mail that
 * holds none, mail.c): one problem at line:column of the file.
 */
void
load_refused(struct arb_turn *t, struct ld *ld, const char *bind,
    enum reason r, int line, int column, const char *text)
{
	struct ofile	*f;
	int		 file = (int)t->files.n;

	f = VPUSH(t, t->files);
	f->name = t_strdup(t, ld->file);
	file_refused(t, file, bind != NULL ? strmap_get(&t->player_names,
	    bind) : -1, r, line, column, text);
	ld->owner = t;
	refuse(t, ld, &t->files.v[file]);
}

/* The file f (the last one) is refused: its player's units hold. */
static void
refuse(struct arb_turn *t, struct ld *ld, struct ofile *f)
{
	int	 p;

	f->refused = true;
	if ((p = f->player) >= 0) {
		if (t->players.v[p].ofile >= 0) {
			/* Bound on the command line to a player that has a
			 * file already: the umpire's mistake. */
			struct arb_error *e = ld->e;

			if (e->code == ARB_EOK) {
				e->code = ARB_EDATA;
				snprintf(e->file, sizeof(e->file), "%s",
				    ld->file);
				snprintf(e->text, sizeof(e->text), "second "
				    "orders file for \"%s\" (the first is %s)",
				    t->players.v[p].name, t->files.v[
				    t->players.v[p].ofile].name);
				utf8_mend(e->text);
			}
			longjmp(*t->mem.jmp, 1);
		}
		t->players.v[p].ofile = (int)(f - t->files.v);
	}
	t->refused_files++;
}

void
load_orders_any(struct arb_turn *t, struct ld *ld, const char *bind)
{
	load_orders(t, ld, bind);
}

/*
 * The rolls a --rolls file may give: more than any turn draws (a die or
 * two an order), and few enough that the document read costs tens of
 * megabytes, not gigabytes (issue 26: a value cost about 60 bytes read
 * as JSON, and a 64 MB file took 1.97 GB).
 */
#define ROLLS_MAX	1000000

/*
 * Refuses, before it is parsed, a rolls file of more than ROLLS_MAX
 * values: the values of a JSON document are at most one more than its
 * commas outside strings (and its containers, which cost a comma each or
 * are nested as deep as jansson allows), so the count bounds the parse.
 * The message is located at the first value past the limit.
 */
static void
rolls_bound(struct ld *ld)
{
	struct arb_error *e = ld->e;
	const char	*p = ld->text, *end = ld->text + ld->len, *q;
	size_t		 n = 0;
	bool		 str = false;
	int		 line = 1, column = 1;

	for (; p < end; p++) {
		if (str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				str = false;
		} else if (*p == '"')
			str = true;
		else if (*p == ',' && ++n == ROLLS_MAX)
			break;
	}
	if (p >= end)
		return;
	for (p++; p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'); p++)
		;
	for (q = ld->text; q < p; q++) {
		if (*q == '\n') {
			line++;
			column = 1;
		} else if ((*q & 0xc0) != 0x80)
			column++;
	}
	if (e->code == ARB_EOK) {
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", ld->file);
		snprintf(e->pointer, sizeof(e->pointer), "/%d", ROLLS_MAX);
		snprintf(e->text, sizeof(e->text), "too many rolls: at most "
		    "%d", ROLLS_MAX);
		e->line = line;
		e->column = column;
	}
	longjmp(*ld->m->jmp, 1);
}

/* --rolls: a JSON array of die values, each an integer from 1 (the die
 * it is drawn for bounds it further, in the run), at most ROLLS_MAX. */
void
load_rolls(struct arb_turn *t, struct ld *ld)
{
	const struct jv	*root;
	size_t		 i, n;

	ld->owner = t;
	rolls_bound(ld);
	root = ld_parse_any(ld);
	if (!ld_is_array(root))
		ld_expect(ld, root, "rolls", "an array of die values");
	n = ld_len(ld, root);
	t->rolls = t_alloc(t, n * sizeof(*t->rolls) + 1);
	for (i = 0; i < n; i++) {
		ld_pushi(ld, i);
		t->rolls[i] = ld_intv(ld, ld_at(root, i), "roll", 1, LONG_MAX);
		ld_pop(ld);
	}
	t->nrolls = n;
	ld_close(ld);
}

/*
 * Files in the order the result lists them, whatever the order of the
 * command line: by player name, files of no known player last, then by
 * file name.
 */
int
file_cmp(const struct arb_turn *t, int a, int b)
{
	const struct ofile *x = &t->files.v[a], *y = &t->files.v[b];
	int	 c;

	if (x->player != y->player) {
		if (x->player < 0 || y->player < 0)
			return x->player < 0 ? 1 : -1;
		return strcmp(t->players.v[x->player].name,
		    t->players.v[y->player].name);
	}
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (a > b) - (a < b);
}
