/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the map's members for pictures and
 * reports, "display" (where a graph board's territories are drawn, and a
 * background image) and "reveal_orders" (whether a player's report shows
 * the other players' orders after adjudication), read with located
 * messages and carried to the next map as they came (arbiter-map(5));
 * and, by reveal_orders, which events of the trace written for one
 * player it shows (view_event(), as view.c's event_mine() keeps them).
 */
#include <stdio.h>
#include <string.h>

#include "format/format.h"

#define DISP_MAX	100000	/* a coordinate, in the picture's units */
#define BG_NAME_MAX	1024	/* a background's file name, in bytes */
#define BG_DATA_MAX	65536	/* a background's data: URL */
#define SVG_LAYOUT	300	/* the territories Graphviz lays out */

static const char *const display_keys[] = {
	"positions", "background", "colours", NULL
};

/* display.colours: a player's colour in pictures, "#rrggbb". */
static void
colours(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	const struct jv	*c;
	const char	*key, *s;
	void		*it;
	size_t		 p, k;

	ld_push(ld, "colours");
	ld_need_object(ld, v);
	t->disp_col = t_alloc(t, (t->players.n + 1) * sizeof(char *));
	memset(t->disp_col, 0, (t->players.n + 1) * sizeof(char *));
	for (it = ld_iter(v); ld_next(v, &it, &key, &c);) {
		ld_push(ld, key);
		for (p = 0; p < t->players.n; p++)
			if (strcmp(t->players.v[p].name, key) == 0)
				break;
		if (p == t->players.n)
			ld_fail(ld, "unknown player \"%.40s\"", key);
		s = ld_strv(ld, c);
		for (k = 1; s[0] == '#' && k < 7; k++)
			if (strchr("0123456789abcdefABCDEF", s[k]) == NULL ||
			    s[k] == '\0')
				break;
		if (s[0] != '#' || k != 7 || s[7] != '\0')
			ld_expect(ld, c, "colour", "\"#rrggbb\", six hex "
			    "digits");
		t->disp_col[p] = t_strdup(t, s);
		ld_pop(ld);
	}
	ld_pop(ld);
}

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

/*
 * The background image: every viewer of a player's picture loads it, so
 * it may only be a file beside the map (a relative name that stays under
 * the map's folder) or an image inside the map (a data: URL), never an
 * address that would tell someone who looked at the picture and when
 * (issue 26).  A name's ':' would make its first part a scheme, and a
 * '%' could spell a ".." that the viewer decodes; '\\', '?' and '#' are
 * not parts of a file name on the systems viewers run on.
 */
static void
background(struct ld *ld, const struct jv *v)
{
	const char	*s = ld_plain(v), *p;
	size_t		 n;

	if (s == NULL || (n = strlen(s)) == 0)
		ld_expect(ld, v, "background", "the name of an image: a file "
		    "name relative to the map or a data:image/ URL");
	if (strncmp(s, "data:image/", 11) == 0) {
		if (n > BG_DATA_MAX)
			ld_fail(ld, "background too long: %zu bytes, at most "
			    "%d for a data: URL", n, BG_DATA_MAX);
		return;
	}
	if (n > BG_NAME_MAX)
		ld_fail(ld, "background too long: %zu bytes, at most %d for a "
		    "file name", n, BG_NAME_MAX);
	if (s[0] == '/')
		ld_fail(ld, "background \"%.40s\" is an absolute name: give a "
		    "file name relative to the map, or a data:image/ URL", s);
	if ((p = strpbrk(s, ":%\\?#")) != NULL)
		ld_fail(ld, "background \"%.40s\" is not a file name (it has "
		    "'%c'): the picture's viewers would fetch it; give a file "
		    "name relative to the map, or a data:image/ URL", s, *p);
	for (p = s; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			ld_fail(ld, "background \"%.40s\" leaves the map's "
			    "folder (\"..\"): give a file name under it, or "
			    "a data:image/ URL", s);
}

/*
 * Whether the board can be drawn, decided as the map loads and kept
 * (located) for a picture asked for later: a picture grows with the
 * cells it draws, whatever the map spells out (a board declared in a few
 * bytes), and each player's picture draws them all again (--for all), so
 * a picture of more than SVG_CELLS cells is not drawn (svg.c refuses it
 * with this error when its region, or the whole board, holds more); and
 * Graphviz's layout of a graph without display.positions grows as the
 * square of its territories (and ends the process when its memory runs
 * out), so a graph of more than SVG_LAYOUT territories must give them
 * (issue 26; arbiter(1), --svg).
 */
static void
picture_bound(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct board *b = &t->board;
	const struct jv	*d = ld_get(root, "display");
	struct arb_error *e;
	const char	*ptr;

	if (b->kind == BOARD_TABLE || (b->ncells <= SVG_CELLS &&
	    (b->kind != BOARD_GRAPH || b->ncells <= SVG_LAYOUT ||
	    (d != NULL && ld_get(d, "positions") != NULL))))
		return;
	e = t_alloc(t, sizeof(*e));
	memset(e, 0, sizeof(*e));
	ptr = b->kind == BOARD_HEX ? "/board" : "/board/territories";
	snprintf(e->file, sizeof(e->file), "%s", ld->file);
	utf8_mend(e->file);
	snprintf(e->pointer, sizeof(e->pointer), "%s", ptr);
	e->line = e->column = 1;
	ld_locate(ld, ptr, &e->line, &e->column);
	if (b->kind == BOARD_HEX)
		snprintf(e->text, sizeof(e->text), "board too large to draw: "
		    "%d hexes, at most %d in a picture", b->ncells,
		    SVG_CELLS);
	else if (b->ncells > SVG_CELLS)
		snprintf(e->text, sizeof(e->text), "board too large to draw: "
		    "%d territories, at most %d in a picture", b->ncells,
		    SVG_CELLS);
	else
		snprintf(e->text, sizeof(e->text), "too many territories to "
		    "lay out: %d, at most %d without display.positions (give "
		    "every territory its position)", b->ncells, SVG_LAYOUT);
	e->code = ARB_EDATA;
	t->svg_refused = e;
}

void
load_display(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*d, *v;

	picture_bound(t, ld, root);
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
	if ((v = ld_get(d, "colours")) != NULL)
		colours(t, ld, v);
	if ((v = ld_get(d, "background")) != NULL) {
		ld_push(ld, "background");
		background(ld, v);
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
	if (t->disp_col != NULL) {
		size_t	 i;

		p = emit_set_object(d, "colours");
		for (i = 0; i < t->players.n; i++)
			if (t->disp_col[i] != NULL)
				emit_set_str(p, t->players.v[i].name,
				    t->disp_col[i]);
	}
}

/* Whether a player's report shows the other players' orders. */
bool
view_reveals(const struct arb_turn *t)
{
	return t->reveal_orders != 2;
}

/* The trace's event as written for t->trace_for: as view.c's event_mine()
 * does. */
bool
view_event(const struct arb_turn *t, const struct tevent *te)
{
	const char	*me;
	char		 pk[160];
	bool		 named = false;
	int		 i, k;

	if (t->trace_for == 0 || view_reveals(t))
		return true;
	me = t->players.v[t->trace_for - 1].name;
	for (i = 0; i < te->nf; i++) {
		const char	*key = te->f[i].key;
		size_t		 n = strlen(key);

		if (strcmp(key, "order") == 0)
			snprintf(pk, sizeof(pk), "player");
		else if (n >= 5 && strcmp(key + n - 5, "order") == 0 &&
		    n + 8 < sizeof(pk))
			snprintf(pk, sizeof(pk), "%s_player", key);
		else
			continue;
		for (k = 0; k < te->nf; k++)
			if (strcmp(te->f[k].key, pk) == 0)
				break;
		if (k == te->nf || te->f[k].type != TF_STR ||
		    strcmp(te->f[k].s, me) != 0)
			return false;
		named = true;
	}
	/* An event of no order: the player's own gain, or a loss of the
	 * player's own unit. */
	if (!named && strcmp(te->f[0].s, "raise") == 0)
		for (i = 1; i < te->nf; i++)
			if (strcmp(te->f[i].key, "player") == 0 &&
			    te->f[i].type == TF_STR)
				return strcmp(te->f[i].s, me) == 0;
	if (!named && strcmp(te->f[0].s, "loss") == 0)
		for (i = 1; i < te->nf; i++)
			if (strcmp(te->f[i].key, "unit") == 0 &&
			    te->f[i].type == TF_STR &&
			    (k = strmap_get(&t->unit_ids, te->f[i].s)) >= 0)
				return strcmp(t->players.v[
				    t->units.v[k].player].name, me) == 0;
	return named;
}
