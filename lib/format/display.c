/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the map's members for pictures and
 * reports, "display" (where a graph board's territories are drawn, and a
 * background image) and "reveal_orders" (whether a player's report shows
 * the other players' orders after adjudication), read with located
 * messages and carried to the next map as they came (arbiter-map(5)).
 */
#include <string.h>

#include "format/format.h"

#define DISP_MAX	100000	/* a coordinate, in the picture's units */

static const char *const display_keys[] = {
	"positions", "background", NULL
};

static void
positions(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	const struct board *b = &t->board;
	const struct jv	*xy;
	const char	*key;
	void		*it;
	int		 c;
	bool		*seen;

	ld_push(ld, "positions");
	if (b->kind != BOARD_GRAPH)
		ld_fail(ld, "positions are for graph boards: a hex board and "
		    "a table are drawn from their own geometry");
	ld_need_object(ld, v);
	t->disp_x = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
	t->disp_y = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
	seen = t_alloc(t, (size_t)b->ncells + 1);
	memset(seen, 0, (size_t)b->ncells + 1);
	for (it = ld_iter(v); ld_next(v, &it, &key, &xy);) {
		ld_push(ld, key);
		if ((c = board_find(b, key)) < 0) {
			const char	*hint;

			ld->hints = true;	/* failing: the cost is one */
			hint = hint_cell(ld, key);
			ld_fail(ld, "unknown territory \"%.40s\"%s%s%s", key,
			    hint != NULL ? " (" : "", hint != NULL ? hint : "",
			    hint != NULL ? ")" : "");
		}
		if (!ld_is_array(xy) || ld_len(ld, xy) != 2)
			ld_expect(ld, xy, "position", "[x, y], two integers");
		ld_pushi(ld, 0);
		t->disp_x[c] = (int)ld_intv(ld, ld_at(xy, 0), "x", 0,
		    DISP_MAX);
		ld_pop(ld);
		ld_pushi(ld, 1);
		t->disp_y[c] = (int)ld_intv(ld, ld_at(xy, 1), "y", 0,
		    DISP_MAX);
		ld_pop(ld);
		seen[c] = true;
		ld_pop(ld);
	}
	for (c = 0; c < b->ncells; c++)
		if (!seen[c])
			ld_fail(ld, "no position for territory \"%.40s\": "
			    "give every territory one, or none", b->names[c]);
	ld_pop(ld);
}

void
load_display(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*d, *v;

	if ((v = ld_get(root, "reveal_orders")) != NULL)
		t->reveal_orders = ld_bool(ld, root, "reveal_orders", true) ? 1 : 2;
	if ((d = ld_get(root, "display")) == NULL)
		return;
	ld_push(ld, "display");
	ld_need_object(ld, d);
	ld_keys(ld, d, display_keys, NULL);
	t->has_display = true;
	if ((v = ld_get(d, "positions")) != NULL)
		positions(t, ld, v);
	if ((v = ld_get(d, "background")) != NULL) {
		ld_push(ld, "background");
		if (ld_plain(v) == NULL || strlen(ld_plain(v)) > 1024)
			ld_expect(ld, v, "background", "the name of an image "
			    "(a file name or URL), 1 to 1024 bytes");
		t->disp_bg = t_strdup(t, ld_plain(v));
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* The next map's "display" and "reveal_orders", as the map gave them. */
void
emit_display(struct arb_turn *t, struct jv *root)
{
	const struct board *b = &t->board;
	struct jv	*d, *p, *xy;
	int		 c;

	if (t->reveal_orders != 0)
		emit_set_bool(root, "reveal_orders", t->reveal_orders == 1);
	if (!t->has_display)
		return;
	d = emit_set_object(root, "display");
	if (t->disp_x != NULL) {
		p = emit_set_object(d, "positions");
		for (c = 0; c < b->ncells; c++) {
			xy = emit_set_array(p, b->names[c]);
			emit_add_int(xy, t->disp_x[c]);
			emit_add_int(xy, t->disp_y[c]);
		}
	}
	if (t->disp_bg != NULL)
		emit_set_str(d, "background", t->disp_bg);
}

/* Whether a player's report shows the other players' orders. */
bool
view_reveals(const struct arb_turn *t)
{
	return t->reveal_orders != 2;
}
