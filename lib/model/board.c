/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The board: cell labels, adjacency, and the names of terrains and
 * features.  Hex boards use the wargamer's column-row labels: "0304" is
 * column 3, row 4, each half zero-padded to board.width digits.  Hexes are
 * flat-topped, in columns; by default the even columns sit half a hex lower
 * (layout "even-low"), so 0304 touches 0303, 0305, 0203, 0204, 0403, 0404.
 * Graph boards (territory games) name their cells and list which touch.
 * Also t_fail(), which every file of the model may call: a failure, which
 * bad data found while a file is being read locates in that file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

void
t_fail(struct arb_turn *t, enum arb_errcode code, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[sizeof(t->mem.err->text)];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Bad data found while a file is being read: say where. */
	if (code == ARB_EDATA && t->ld != NULL)
		ld_fail(t->ld, "%s", buf);
	mem_fail(&t->mem, code, "%s", buf);
}

int
board_find(const struct board *b, const char *label)
{
	int	 i, c = 0, r = 0, w = b->width;

	if (b->kind == BOARD_GRAPH)
		return strmap_get(&b->by_name, label);
	if (strlen(label) != (size_t)(2 * w))
		return -1;
	for (i = 0; i < 2 * w; i++) {
		if (label[i] < '0' || label[i] > '9')
			return -1;
		if (i < w)
			c = c * 10 + (label[i] - '0');
		else
			r = r * 10 + (label[i] - '0');
	}
	if (c < 1 || c > b->cols || r < 1 || r > b->rows)
		return -1;
	return (r - 1) * b->cols + (c - 1);
}

const char *
board_label(const struct board *b, int cell, char buf[32])
{
	if (cell < 0 || b->kind == BOARD_TABLE)	/* a table has no cells */
		return "";
	if (b->kind == BOARD_GRAPH)
		return b->names[cell];
	/* Digits by hand: a large result writes a label per cell. */
	if (b->width > 0 && b->width <= 15) {
		int	 c = cell % b->cols + 1, r = cell / b->cols + 1, i;

		for (i = b->width - 1; i >= 0; i--, c /= 10, r /= 10) {
			buf[i] = (char)('0' + c % 10);
			buf[b->width + i] = (char)('0' + r % 10);
		}
		buf[2 * b->width] = '\0';
		if (c == 0 && r == 0)
			return buf;
	}
	snprintf(buf, 32, "%0*d%0*d", b->width, cell % b->cols + 1,
	    b->width, cell / b->cols + 1);
	return buf;
}

/* Is column c (from 1) one of the lower, shifted columns? */
static bool
is_low(const struct board *b, int c)
{
	return (c % 2 == 0) != b->odd_low;
}

/*
 * The neighbour of a hex in direction dir, clockwise from north: 0 N, 1 NE,
 * 2 SE, 3 S, 4 SW, 5 NW; -1 off the board.  Going on in one direction is a
 * straight line.
 */
int
board_step(const struct board *b, int cell, int dir)
{
	static const int dc[6] = { 0, 1, 1, 0, -1, -1 };
	int	 c = cell % b->cols + 1, r = cell / b->cols + 1;
	int	 up = is_low(b, c) ? r : r - 1;	/* row of NE and NW */
	int	 dr[6] = { r - 1, up, up + 1, r + 1, up + 1, up };
	int	 nc = c + dc[dir], nr = dr[dir];

	if (nc < 1 || nc > b->cols || nr < 1 || nr > b->rows)
		return -1;
	return (nr - 1) * b->cols + (nc - 1);
}

/* The direction from a hex to its neighbour, or -1 when not adjacent. */
int
board_dir(const struct board *b, int from, int to)
{
	int	 d;

	for (d = 0; d < 6; d++)
		if (board_step(b, from, d) == to)
			return d;
	return -1;
}

/*
 * Hexes between two cells.  In "doubled" coordinates (the column, and twice
 * the row plus one in a lower column) a step changes the column by one and
 * the doubled row by one, or the doubled row alone by two.
 */
int
board_distance(const struct board *b, int a, int c)
{
	struct hexpos	 pa = board_pos(b, a), pc = board_pos(b, c);

	return board_pos_distance(pa, pc);
}

/* A cell's doubled coordinates, for measuring many distances from it. */
struct hexpos
board_pos(const struct board *b, int cell)
{
	struct hexpos	 p;

	p.x = cell % b->cols + 1;
	p.y = 2 * (cell / b->cols) + is_low(b, p.x);
	return p;
}

/*
 * The hexes at exactly d hexes from center (d >= 0), column by column,
 * each column from the top: at most 6 d of them (1 for d = 0) written to
 * out; returns how many (fewer at the map's edge).  In doubled
 * coordinates a column dx away holds the ring's hexes dy = +-(2 d - |dx|)
 * away, or, in the two outermost columns, every other dy from -d to d.
 */
int
board_ring(const struct board *b, int center, int d, int *out)
{
	struct hexpos	 p = board_pos(b, center);
	int		 dx, x, y, n = 0, adx, step;

	for (dx = -d; dx <= d; dx++) {
		x = p.x + dx;
		if (x < 1 || x > b->cols)
			continue;
		adx = dx < 0 ? -dx : dx;
		/* The outer columns: dy from -d to d by 2; the others: the
		 * two ends, -(2 d - |dx|) and 2 d - |dx| (one for d = 0). */
		step = adx == d ? 2 : 2 * (2 * d - adx);
		for (y = p.y - (adx == d ? d : 2 * d - adx);
		    y <= p.y + (adx == d ? d : 2 * d - adx); y += step) {
			if (y >= 0 && y / 2 < b->rows)
				out[n++] = y / 2 * b->cols + x - 1;
		}
	}
	return n;
}

bool
board_is_adjacent(const struct board *b, int a, int c)
{
	int	 nb[6], i, n;

	if (b->kind == BOARD_GRAPH) {
		int lo = b->adj_at[a], hi = b->adj_at[a + 1];

		while (lo < hi) {	/* each list is sorted */
			int mid = lo + (hi - lo) / 2;

			if (b->adj[mid] == c)
				return true;
			if (b->adj[mid] < c)
				lo = mid + 1;
			else
				hi = mid;
		}
		return false;
	}
	n = board_neighbors(b, a, nb);

	for (i = 0; i < n; i++)
		if (nb[i] == c)
			return true;
	return false;
}

static int
intern(struct arb_turn *t, const char **names, int *n, int max,
    const char *name, const char *what)
{
	int	 i;

	for (i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	if (*n == max)
		t_fail(t, ARB_EDATA, "more than %d %s names", max, what);
	names[*n] = t_strdup(t, name);
	return (*n)++;
}

int
board_terrain(struct arb_turn *t, const char *name)
{
	return intern(t, t->board.terrains, &t->board.nterrains, 256, name,
	    "terrain");
}

int
board_feature(struct arb_turn *t, const char *name)
{
	return intern(t, t->board.features, &t->board.nfeatures, 32, name,
	    "feature");
}

int
board_feature_find(const struct board *b, const char *name)
{
	int	 i;

	for (i = 0; i < b->nfeatures; i++)
		if (strcmp(b->features[i], name) == 0)
			return i;
	return -1;
}

