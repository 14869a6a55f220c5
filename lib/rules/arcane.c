/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * arcane-legions: the movement chapter of Arcane Legions
 * (../shared/rules/arcane-legions.txt), on an open table.  Bases are
 * rectangles with a pose (centre and facing); terrain pieces and the
 * table's edge are convex polygons (lib/geom.c).  A move order pays order
 * points, takes the breakaway attacks the enemy declared, then carries out
 * its maneuvers: steps (lateral movement) and turns with the turning tool,
 * with collision, snapping to and sliding.  The choices the text leaves to
 * the player are the order's "snap", "slide" and "object", and each turn's
 * "off_notch", "corner" and "notch"; the rulings where the text is silent
 * are A1-A18 in arbiter-rules(7).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

#define SQRT2	1.41421356237309504880
#define RES_OP	0		/* the player's order points */
#define CEPS	1e-6		/* a point on a side: this close */

enum side { FRONT, BACK, LEFT, RIGHT };
static const char *const side_names[] = { "front", "back", "left", "right" };
/*
 * The two ends of each side, named by the side each one turns into: t,
 * the side's outward normal turned 90 degrees clockwise, points to the
 * first and -t to the second (the front's are its right and its left).
 */
static const int side_end[4][2] = {
	{ RIGHT, LEFT },	/* front */
	{ LEFT, RIGHT },	/* back */
	{ FRONT, BACK },	/* left */
	{ BACK, FRONT }		/* right */
};
/* Steps and codex costs, by the side they go out of. */
static const char *const dir_names[] = { "forward", "back", "left", "right",
    NULL };

struct figure {
	const char	*name;
	int		 icons;
	bool		 ready;
	bool		 lost;
};

struct aunit {
	int		 codex[4];	/* by side: forward, back, left, right */
	struct figure	*fig;
	int		 nfig;
	bool		 formation;
	bool		 ordered;	/* a move order was given to it */
};

enum mkind { M_STEP, M_TURN };

struct maneuver {
	enum mkind	 kind;
	int		 side;		/* step: the way; turn: turned off */
	double		 dist;		/* step */
	int		 sense;		/* turn: +1 right, -1 left */
	int		 angle;		/* turn: 45 or 90 */
	int		 notch;		/* turn: set down: 0 middle, +1 far,
					 * -1 near */
	int		 bevel;		/* turn: the notch of the side turned
					 * off in the tool's bevel: 0 middle,
					 * +1 or -1 the corner at that end */
	int		 corner;	/* 90 turn: the end of that side the
					 * tool's square corner lies at */
	const char	*bevel_name;	/* the choices, as asked or by */
	const char	*corner_name;	/* default; corner NULL at 45 */
	const char	*bad;		/* a choice that cannot be made */
};

/* One snap considered. */
struct cand {
	const char	*how;		/* "pivot", "crossing", "edge" */
	int		 sense;		/* +1 right (clockwise), -1 left,
					 * 0 no turn (an edge snap) */
	double		 angle;
	struct pt	 pivot;
	struct pose	 to;
	double		 push;		/* edge snap: moved straight out */
	bool		 tried, made;
	int		 blocked;	/* the object it would overlap, or -1 */
	int		 object;	/* the object it snaps to */
};

/* What one maneuver did, for the result. */
struct mrec {
	bool		 made, ends;
	enum reason	 why;
	int		 cost;
	long		 mp0, mp1;
	struct pose	 from, to;
	int		 blocked;	/* tool_blocked: by this object */
	const char	*unplaced;	/* tool_blocked: by the choice */
	struct pt	 tool[3];
	bool		 has_tool;
	int		 beyond;	/* turn: steps beyond the tool */
	struct pose	 set;		/* turn: where it was set down */
	double		 went;		/* step: distance moved */
	int		 hit;		/* the object collided with, or -1 */
	bool		 overlap;	/* the collision is an overlap */
	bool		 flush;
	struct pt	 at;		/* the contact point */
	int		 noverl;
	int		*overl;		/* objects overlapped, largest first */
	double		*area;
	struct cand	 c[2];		/* the object's being tried */
	int		 nc;
	size_t		 all, nall;	/* every object's candidates, as
					 * tried: cands[all .. all + nall) */
	const char	*nosnap;	/* why no snap was possible */
	int		 slide;		/* asked: -1 left, +1 right, 0 none */
	bool		 slid;
	double		 slide_dist;
	const char	*slide_why;
};

struct aorder {
	bool		 brk;		/* a breakaway declaration */
	struct maneuver	*m;
	int		 nm;
	int		 snap;		/* +1 right, -1 left */
	int		 slide;		/* +1 right, -1 left, 0 none */
	const char	*object;	/* NULL: the default choice */
	/* a breakaway */
	int		 target;
	int		*lost;		/* figure indices in the target */
	int		 nlost;
	int		 by;		/* the move order it was made at, or -1 */
	enum reason	 why;		/* why it was not made (yet) */
	int		*gone;		/* the figures it took */
	int		 ngone;
	/* a move */
	int		*made;		/* the breakaways made at it, in turn */
	int		 nmade;
	bool		 given;
	int		 op;
	long		 mp, mp_left;
	struct mrec	*rec;
};

/* An object a base can collide with. */
enum obkind { OB_EDGE, OB_PIECE, OB_UNIT };

/*
 * Every object has a fixed number, its key: the four edges 0-3, then the
 * pieces, then the units, in the map's order.  Keys are the order ties
 * are broken in, and they do not change during the turn, so a maneuver's
 * record can name an object by its key.
 */
struct obj {
	const char	*id;
	enum obkind	 kind;
	int		 unit;
	const struct pt	*p;		/* q, or the piece's corners */
	struct pt	 q[4];
	int		 n;
	double		 x0, y0, x1, y1;	/* the bounding box */
};

/*
 * A spatial grid: square cells of GRID steps, hashed by their column and
 * row, each with the list of objects whose bounding box meets it.  An
 * object whose box covers more than GRID_WIDE cells (the edges, a large
 * piece) is on the wide list instead, which every search reads.  A unit
 * is moved in the grid when its order is done; while it moves it is the
 * mover, which no search returns.
 */
#define GRID		2.0
#define GRID_WIDE	256
#define GRID_MARGIN	0.01	/* more than any tolerance of lib/geom.c */

struct gcell {
	long		 x, y;
	int		 head;		/* a node, or -1 */
	bool		 used;
};

struct gnode {
	int		 key, next;
};

struct arcane {
	struct aunit	*units;
	size_t		 cap;
	struct obj	*objs;		/* by key */
	int		 nobjs;
	int		 npieces;
	int		 mover;		/* the unit moving, or -1 */
	struct gcell	*gc;		/* open addressing */
	size_t		 gcap, gused;
	VEC(struct gnode) gn;
	int		 gfree;		/* free nodes, or -1 */
	VEC(int)	 wide;
	unsigned	*seen;		/* by key: the search that saw it */
	unsigned	 search;
	VEC(int)	 near;		/* what the last search found */
	VEC(double)	 pairs;		/* { area, key } after a turn */
	VEC(struct cand) cands;		/* the snaps of every maneuver */
	struct strmap	 piece_ids;
	VEC(int)	 made;		/* breakaways made at this order */
	/* The breakaway orders on each unit, by order index: those on unit
	 * u are brk[brk_at[u] .. brk_at[u + 1] - 1] (built when first
	 * needed), so a move looks only at the breakaways on its unit. */
	int		*brk_at, *brk;
};

static const char *const map_keys[] = { NULL };
static const char *const player_res[] = { "order_points", NULL };
static const bool res_resets[] = { true };
static const char *const unit_keys[] = { "codex", "figures", NULL };
static const char *const order_keys[] = { "snap", "slide", "object",
	"lost", NULL };
/* The text form: "move step forward 0.5, turn left 90 off front",
 * "breakaway B lost a b". */
static const char *const text_heads[] = { "step", "distance", "turn",
	"angle", NULL };
static const char *const text_lists[] = { "lost", NULL };
enum { K_MOVE, K_BREAKAWAY };
static const struct okind order_kinds[] = {
	{ "move", OK_RULE, NULL, 0 },
	{ "breakaway", OK_RULE, NULL, 0 },
	{ NULL, OK_PATH, NULL, 0 }
};

static struct arcane *
A(struct arb_turn *t)
{
	return t->rsdata;
}

static struct aorder *
AO(const struct order *o)
{
	return o->data;
}

static void
init(struct arb_turn *t)
{
	t->rsdata = t_alloc(t, sizeof(struct arcane));
	type_add(t, "sortie", 0, 0);
	type_add(t, "formation", 0, 1);
}

static void
load(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	(void)ld;
	(void)root;
	A(t)->units = NULL;
}

static int
name_index(const char *const *names, int n, const char *s)
{
	int	 i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static int
word(struct ld *ld, const struct jv *obj, const char *key,
    const char *const *names, int n, int dflt)
{
	const char	*s;
	int		 i;

	if (ld_get(obj, key) == NULL)
		return dflt;
	s = ld_str(ld, obj, key, NULL);
	if ((i = name_index(names, n, s)) < 0) {
		char	 list[128] = "";
		int	 k;

		for (k = 0; k < n; k++)
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), "%s\"%s\"", k ? ", " : "", names[k]);
		ld_push(ld, key);
		ld_fail(ld, "bad %s \"%.40s\": expected one of %s", key, s,
		    list);
	}
	return i;
}

static void
load_unit(struct arb_turn *t, struct ld *ld, int u, const struct jv *v)
{
	struct arcane	*a = A(t);
	struct aunit	*au;
	const struct jv	*c, *l;
	size_t		 i, j;
	int		 k;

	if ((size_t)u >= a->cap) {
		/* Units are loaded in order; the arena keeps the old copy. */
		size_t		 cap = a->cap ? 2 * a->cap : 16;
		struct aunit	*nu = t_alloc(t, cap * sizeof(*nu));

		if (u > 0)
			memcpy(nu, a->units, (size_t)u * sizeof(*nu));
		a->units = nu;
		a->cap = cap;
	}
	au = &a->units[u];
	au->formation = t->types.v[t->units.v[u].type].flags & 1;
	c = ld_get(v, "codex");
	if (c == NULL)
		ld_fail(ld, "missing \"codex\" (the four directional costs)");
	ld_push(ld, "codex");
	if (!ld_is_object(c))
		ld_fail(ld, "expected an object of forward, back, left and "
		    "right costs");
	ld_keys(ld, c, dir_names, NULL);
	for (k = 0; k < 4; k++) {
		if (ld_get(c, dir_names[k]) == NULL)
			ld_fail(ld, "missing \"%s\" cost", dir_names[k]);
		au->codex[k] = (int)ld_int(ld, c, dir_names[k], 0, 0, 1000);
	}
	ld_pop(ld);
	if ((l = ld_get(v, "figures")) == NULL)
		ld_fail(ld, "missing \"figures\"");
	ld_push(ld, "figures");
	au->nfig = (int)ld_len(ld, l);
	if (au->nfig < 1 || au->nfig > 1000)
		ld_fail(ld, "a unit has 1 to 1000 figures, not %d", au->nfig);
	au->fig = t_alloc(t, (size_t)au->nfig * sizeof(*au->fig));
	for (i = 0; i < (size_t)au->nfig; i++) {
		static const char *const keys[] = { "name", "icons", "ready",
			NULL };
		const struct jv	*f = ld_at(l, i);
		struct figure	*fg = &au->fig[i];

		ld_pushi(ld, i);
		if (!ld_is_object(f))
			ld_fail(ld, "expected a figure object");
		ld_keys(ld, f, keys, NULL);
		fg->name = ld_get(f, "name") != NULL ? ld_str(ld, f, "name",
		    NULL) : t_printf(t, "%zu", i + 1);
		if (fg->name[0] == '\0') {
			ld_push(ld, "name");
			ld_fail(ld, "empty figure name");
		}
		for (j = 0; j < i; j++)
			if (strcmp(au->fig[j].name, fg->name) == 0) {
				ld_push(ld, "name");
				ld_fail(ld, "figure name \"%.40s\" used twice",
				    fg->name);
			}
		fg->icons = (int)ld_int(ld, f, "icons", 0, 0, 1000);
		fg->ready = ld_bool(ld, f, "ready", true);
		ld_pop(ld);
	}
	ld_pop(ld);
	t->units.v[u].strength = t->units.v[u].strength0 = au->nfig;
}

/* The base's corners, counterclockwise: back-left, back-right,
 * front-right, front-left (edges: back, right, front, left). */
static void
base_poly(struct arb_turn *t, int u, const struct pose *ps, struct pt q[4])
{
	double		 hw = A(t)->units[u].formation ? 1 : 0.5, hd = 0.5;
	struct pt	 f = pt_bearing(ps->facing), r = pt_cw(f);
	struct pt	 c = pt_make(ps->x, ps->y);

	q[0] = pt_add(c, pt_add(pt_mul(r, -hw), pt_mul(f, -hd)));
	q[1] = pt_add(c, pt_add(pt_mul(r, hw), pt_mul(f, -hd)));
	q[2] = pt_add(c, pt_add(pt_mul(r, hw), pt_mul(f, hd)));
	q[3] = pt_add(c, pt_add(pt_mul(r, -hw), pt_mul(f, hd)));
}

/* The outward normal of a side, and how far its middle is from the
 * centre. */
static struct pt
side_normal(const struct pose *ps, int side)
{
	struct pt	 f = pt_bearing(ps->facing), r = pt_cw(f);

	switch (side) {
	case FRONT:
		return f;
	case BACK:
		return pt_mul(f, -1);
	case LEFT:
		return pt_mul(r, -1);
	default:
		return r;
	}
}

static double
half_across(struct arb_turn *t, int u, int side)	/* centre to side */
{
	return side == FRONT || side == BACK ? 0.5 :
	    A(t)->units[u].formation ? 1 : 0.5;
}

static double
half_along(struct arb_turn *t, int u, int side)	/* half the side */
{
	return side == LEFT || side == RIGHT ? 0.5 :
	    A(t)->units[u].formation ? 1 : 0.5;
}

static int
ukey(struct arb_turn *t, int u)
{
	return 4 + A(t)->npieces + u;
}

static void
obj_box(struct obj *o)
{
	int	 i;

	o->x0 = o->x1 = o->p[0].x;
	o->y0 = o->y1 = o->p[0].y;
	for (i = 1; i < o->n; i++) {
		o->x0 = fmin(o->x0, o->p[i].x);
		o->x1 = fmax(o->x1, o->p[i].x);
		o->y0 = fmin(o->y0, o->p[i].y);
		o->y1 = fmax(o->y1, o->p[i].y);
	}
}

static uint64_t
cell_hash(long x, long y)
{
	uint64_t	 h = (uint64_t)x * 0x9e3779b97f4a7c15u ^ (uint64_t)y;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 29;
	return h;
}

/* The cell at column x, row y; made when make is set, else NULL when
 * there is none. */
static struct gcell *
cell_at(struct arb_turn *t, long x, long y, bool make)
{
	struct arcane	*a = A(t);
	struct gcell	*c;
	size_t		 i;

	if (make && 2 * (a->gused + 1) > a->gcap) {
		struct gcell	*old = a->gc;
		size_t		 ocap = a->gcap, k;

		a->gcap = ocap ? 2 * ocap : 1024;
		a->gc = t_alloc(t, a->gcap * sizeof(*a->gc));
		for (k = 0; k < ocap; k++) {
			if (!old[k].used)
				continue;
			i = cell_hash(old[k].x, old[k].y) & (a->gcap - 1);
			while (a->gc[i].used)
				i = (i + 1) & (a->gcap - 1);
			a->gc[i] = old[k];
		}
	}
	if (a->gcap == 0)
		return NULL;
	i = cell_hash(x, y) & (a->gcap - 1);
	for (c = &a->gc[i]; c->used; c = &a->gc[i]) {
		if (c->x == x && c->y == y)
			return c;
		i = (i + 1) & (a->gcap - 1);
	}
	if (!make)
		return NULL;
	c->used = true;
	c->x = x;
	c->y = y;
	c->head = -1;
	a->gused++;
	return c;
}

/* The cells a box (grown by the margin) meets; false when they are more
 * than max. */
static bool
box_cells(double x0, double y0, double x1, double y1, double max,
    long *cx0, long *cy0, long *cx1, long *cy1)
{
	double	 fx0 = floor((x0 - GRID_MARGIN) / GRID);
	double	 fy0 = floor((y0 - GRID_MARGIN) / GRID);
	double	 fx1 = floor((x1 + GRID_MARGIN) / GRID);
	double	 fy1 = floor((y1 + GRID_MARGIN) / GRID);

	if ((fx1 - fx0 + 1) * (fy1 - fy0 + 1) > max)
		return false;
	*cx0 = (long)fx0;
	*cy0 = (long)fy0;
	*cx1 = (long)fx1;
	*cy1 = (long)fy1;
	return true;
}

static void
grid_put(struct arb_turn *t, int key)
{
	struct arcane	*a = A(t);
	struct obj	*o = &a->objs[key];
	long		 x, y, x0, y0, x1, y1;

	obj_box(o);
	if (!box_cells(o->x0, o->y0, o->x1, o->y1, GRID_WIDE, &x0, &y0, &x1,
	    &y1)) {
		*VPUSH(t, a->wide) = key;
		return;
	}
	for (x = x0; x <= x1; x++)
		for (y = y0; y <= y1; y++) {
			struct gcell	*c = cell_at(t, x, y, true);
			int		 nd;

			if (a->gfree >= 0) {
				nd = a->gfree;
				a->gfree = a->gn.v[nd].next;
			} else {
				(void)VPUSH(t, a->gn);
				nd = (int)a->gn.n - 1;
			}
			a->gn.v[nd].key = key;
			a->gn.v[nd].next = c->head;
			c->head = nd;
		}
}

/* Takes a unit out of the grid (units are never wide). */
static void
grid_del(struct arb_turn *t, int key)
{
	struct arcane	*a = A(t);
	struct obj	*o = &a->objs[key];
	long		 x, y, x0, y0, x1, y1;

	if (!box_cells(o->x0, o->y0, o->x1, o->y1, GRID_WIDE, &x0, &y0, &x1,
	    &y1))
		t_fail(t, ARB_EINTERNAL, "a unit's base is wide");
	for (x = x0; x <= x1; x++)
		for (y = y0; y <= y1; y++) {
			struct gcell	*c = cell_at(t, x, y, false);
			int		*pp, nd;

			for (pp = &c->head; *pp >= 0; pp =
			    &a->gn.v[*pp].next)
				if (a->gn.v[*pp].key == key)
					break;
			nd = *pp;
			*pp = a->gn.v[nd].next;
			a->gn.v[nd].next = a->gfree;
			a->gfree = nd;
		}
}

/* A unit's object follows its pose (when its order is done). */
static void
obj_unit(struct arb_turn *t, int u, bool in_grid)
{
	struct obj	*o = &A(t)->objs[ukey(t, u)];

	if (in_grid)
		grid_del(t, ukey(t, u));
	base_poly(t, u, &t->units.v[u].pose, o->q);
	grid_put(t, ukey(t, u));
}

/* Builds the objects and the grid once the map is loaded. */
static void
objects(struct arb_turn *t)
{
	struct arcane	*a = A(t);
	struct board	*b = &t->board;
	double		 m = (b->tw > b->th ? b->tw : b->th) + 10;
	static const char *const edge_ids[] = { "edge-west", "edge-east",
		"edge-south", "edge-north" };
	size_t		 i;
	int		 k;

	a->npieces = (int)b->pieces.n;
	a->nobjs = 4 + a->npieces + (int)t->units.n;
	a->objs = t_alloc(t, (size_t)a->nobjs * sizeof(*a->objs));
	a->seen = t_alloc(t, (size_t)a->nobjs * sizeof(*a->seen));
	a->gfree = -1;
	a->mover = -1;
	for (k = 0; k < 4; k++) {
		struct obj	*o = &a->objs[k];
		double		 x0, y0, x1, y1;

		x0 = k == 0 ? -m : k == 1 ? b->tw : -m;
		x1 = k == 0 ? 0 : k == 1 ? b->tw + m : b->tw + m;
		y0 = k == 2 ? -m : k == 3 ? b->th : -m;
		y1 = k == 2 ? 0 : k == 3 ? b->th + m : b->th + m;
		o->id = edge_ids[k];
		o->kind = OB_EDGE;
		o->unit = -1;
		o->n = 4;
		o->q[0] = pt_make(x0, y0);
		o->q[1] = pt_make(x1, y0);
		o->q[2] = pt_make(x1, y1);
		o->q[3] = pt_make(x0, y1);
		o->p = o->q;
		grid_put(t, k);
	}
	for (i = 0; i < b->pieces.n; i++) {
		struct obj	*o = &a->objs[4 + i];

		o->id = b->pieces.v[i].id;
		o->kind = OB_PIECE;
		o->unit = -1;
		o->n = b->pieces.v[i].n;
		o->p = b->pieces.v[i].p;
		grid_put(t, 4 + (int)i);
	}
	for (i = 0; i < t->units.n; i++) {
		struct obj	*o = &a->objs[ukey(t, (int)i)];

		o->id = t->units.v[i].id;
		o->kind = OB_UNIT;
		o->unit = (int)i;
		o->n = 4;
		o->p = o->q;
		obj_unit(t, (int)i, false);
	}
}

static int
by_key(const void *a, const void *b)
{
	int	 x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

static void
near_add(struct arb_turn *t, int key, double x0, double y0, double x1,
    double y1)
{
	struct arcane	*a = A(t);
	struct obj	*o = &a->objs[key];

	if (a->seen[key] == a->search)
		return;
	a->seen[key] = a->search;
	if (o->kind == OB_UNIT && (o->unit == a->mover ||
	    t->units.v[o->unit].gone))
		return;
	if (o->x1 < x0 - GRID_MARGIN || o->x0 > x1 + GRID_MARGIN ||
	    o->y1 < y0 - GRID_MARGIN || o->y0 > y1 + GRID_MARGIN)
		return;
	*VPUSH(t, a->near) = key;
}

/*
 * The objects (but the mover and units eliminated) whose bounding boxes
 * meet the box, in the order of their keys, in a->near.  Two convex
 * shapes whose boxes are apart are apart on an axis, so no object left
 * out could overlap, or be met by a sweep, inside the box.
 */
static void
near(struct arb_turn *t, double x0, double y0, double x1, double y1)
{
	struct arcane	*a = A(t);
	long		 x, y, cx0, cy0, cx1, cy1;
	size_t		 i;
	int		 nd;

	a->near.n = 0;
	if (++a->search == 0) {
		memset(a->seen, 0, (size_t)a->nobjs * sizeof(*a->seen));
		a->search = 1;
	}
	if (!box_cells(x0, y0, x1, y1, 4096, &cx0, &cy0, &cx1, &cy1)) {
		for (nd = 0; nd < a->nobjs; nd++)
			near_add(t, nd, x0, y0, x1, y1);
		return;
	}
	for (x = cx0; x <= cx1; x++)
		for (y = cy0; y <= cy1; y++) {
			struct gcell *c = cell_at(t, x, y, false);

			if (c == NULL)
				continue;
			for (nd = c->head; nd >= 0; nd = a->gn.v[nd].next)
				near_add(t, a->gn.v[nd].key, x0, y0, x1, y1);
		}
	for (i = 0; i < a->wide.n; i++)
		near_add(t, a->wide.v[i], x0, y0, x1, y1);
	if (a->near.n > 1)
		qsort(a->near.v, a->near.n, sizeof(int), by_key);
}

/* near() for the box of a polygon, swept along dir for dist. */
static void
near_poly(struct arb_turn *t, const struct pt *p, int n, struct pt dir,
    double dist)
{
	double	 x0 = p[0].x, y0 = p[0].y, x1 = x0, y1 = y0;
	int	 i;

	for (i = 1; i < n; i++) {
		x0 = fmin(x0, p[i].x);
		x1 = fmax(x1, p[i].x);
		y0 = fmin(y0, p[i].y);
		y1 = fmax(y1, p[i].y);
	}
	near(t, fmin(x0, x0 + dir.x * dist), fmin(y0, y0 + dir.y * dist),
	    fmax(x1, x1 + dir.x * dist), fmax(y1, y1 + dir.y * dist));
}

/* The first object the base at ps overlaps, or -1. */
static int
overlapping(struct arb_turn *t, int u, const struct pose *ps)
{
	struct arcane	*a = A(t);
	struct pt	 q[4];
	size_t		 i;

	base_poly(t, u, ps, q);
	near_poly(t, q, 4, pt_make(0, 0), 0);
	for (i = 0; i < a->near.n; i++) {
		struct obj *o = &a->objs[a->near.v[i]];

		if (geom_overlaps(q, 4, o->p, o->n))
			return a->near.v[i];
	}
	return -1;
}

static void
loaded(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	struct arcane	*a = A(t);
	size_t		 i, k;

	(void)root;
	/* Object names must say which object they are. */
	for (i = 0; i < t->board.pieces.n; i++) {
		const char *id = t->board.pieces.v[i].id;

		strmap_put(&t->mem, &a->piece_ids, id, (int)i);
		if (strmap_get(&t->unit_ids, id) < 0 &&
		    strncmp(id, "edge-", 5) != 0)
			continue;
		ld_push(ld, "board");
		ld_push(ld, "pieces");
		ld_pushi(ld, i);
		ld_push(ld, "id");
		ld_problem(ld, "piece id \"%.40s\" is %s", id,
		    strncmp(id, "edge-", 5) == 0 ? "reserved: the table's "
		    "edges are edge-west, edge-east, edge-south and "
		    "edge-north" : "a unit's id too");
		for (k = 0; k < 4; k++)
			ld_pop(ld);
	}
	objects(t);
	for (i = 0; i < t->units.n; i++) {
		struct pt	 q[4];

		/* Each pair once: only units listed before this one. */
		a->mover = (int)i;
		base_poly(t, (int)i, &t->units.v[i].pose, q);
		near_poly(t, q, 4, pt_make(0, 0), 0);
		for (k = 0; k < a->near.n; k++) {
			struct obj	*o = &a->objs[a->near.v[k]];

			if (o->kind == OB_UNIT && o->unit > (int)i)
				continue;
			if (!geom_overlaps(q, 4, o->p, o->n))
				continue;
			/* One problem a unit; the checks go on (issue 26). */
			ld_push(ld, "units");
			ld_pushi(ld, i);
			ld_push(ld, "pose");
			if (o->kind == OB_EDGE)
				ld_problem(ld, "unit \"%.40s\" is not wholly "
				    "on the table", t->units.v[i].id);
			else
				ld_problem(ld, "unit \"%.40s\" overlaps %s "
				    "\"%.40s\"", t->units.v[i].id,
				    o->kind == OB_UNIT ? "unit" : "piece",
				    o->id);
			ld_pop(ld);
			ld_pop(ld);
			ld_pop(ld);
			break;
		}
	}
	a->mover = -1;
}
/* Which end of side s the side named e is: +1 (t), -1, or 0 (none). */
static int
end_sign(int s, int e)
{
	return side_end[s][0] == e ? 1 : side_end[s][1] == e ? -1 : 0;
}

/*
 * Ruling A11: the player's choices for a turn.  off_notch is the notch of
 * the side turned off that the bevel of the tool's edge against it slots
 * into, its middle or the corner at one of its ends; corner, for a 90
 * degree turn, the end of that side the tool's square corner lies at.
 * Both name an end by the side it turns into.  A name the side has no end
 * for, or a corner for a 45 degree turn, is kept as the reason the tool
 * cannot be placed: a ruling when the turn is reached, not bad input.
 */
static void
load_choices(struct arb_turn *t, struct ld *ld, const struct jv *v,
    struct maneuver *m)
{
	static const char *const notches[] = { "front", "back", "left",
		"right", "middle" };
	int		 k;
	const int	*e = side_end[m->side];

	k = word(ld, v, "off_notch", notches, 5, 4);
	m->bevel_name = notches[k];
	if (k < 4 && (m->bevel = end_sign(m->side, k)) == 0)
		m->bad = t_printf(t, "the %s side has no %s notch: its notches "
		    "are its %s corner, its middle and its %s corner",
		    side_names[m->side], notches[k], side_names[e[1]],
		    side_names[e[0]]);
	if (ld_get(v, "corner") == NULL) {
		/* The default: the square corner toward the way of the
		 * turn, as the text's Left Turn and Right Turn edges. */
		m->corner = m->sense;
		if (m->angle == 90)
			m->corner_name = side_names[e[m->sense > 0 ? 0 : 1]];
		return;
	}
	k = word(ld, v, "corner", side_names, 4, 0);
	m->corner_name = side_names[k];
	if (m->bad != NULL)
		return;
	if (m->angle == 45)
		m->bad = t_printf(t, "a 45 degree turn lays the tool's Angle "
		    "Turn edge against the base: it has no square corner to "
		    "lay toward the %s", side_names[k]);
	else if ((m->corner = end_sign(m->side, k)) == 0)
		m->bad = t_printf(t, "the %s side has no %s end for the "
		    "tool's square corner: its ends are its %s and its %s",
		    side_names[m->side], side_names[k], side_names[e[1]],
		    side_names[e[0]]);
}

static void
load_move(struct arb_turn *t, struct ld *ld, struct aorder *ao,
    const struct jv *arg)
{
	static const char *const step_keys[] = { "step", "distance", NULL };
	static const char *const turn_keys[] = { "turn", "angle", "off",
		"off_notch", "corner", "notch", NULL };
	static const char *const senses[] = { "left", "right" };
	static const char *const notches[] = { "near", "middle", "far" };
	size_t		 i;

	ao->nm = (int)ld_len(ld, arg);
	if (ao->nm == 0)
		ld_fail(ld, "a move needs at least one maneuver");
	if (ao->nm > MAXSTEPS)
		ld_fail(ld, "%d maneuvers: at most %d", ao->nm, MAXSTEPS);
	ao->m = t_alloc(t, (size_t)ao->nm * sizeof(*ao->m));
	for (i = 0; i < (size_t)ao->nm; i++) {
		const struct jv	*v = ld_at(arg, i);
		struct maneuver	*m = &ao->m[i];

		ld_pushi(ld, i);
		if (!ld_is_object(v))
			ld_fail(ld, "expected a maneuver object (\"step\" or "
			    "\"turn\")");
		if (ld_get(v, "step") != NULL) {
			ld_keys(ld, v, step_keys, NULL);
			m->kind = M_STEP;
			m->side = word(ld, v, "step", dir_names, 4, 0);
			m->dist = ld_real(ld, v, "distance", MAN_STEP_MAX,
			    0, MAN_STEP_MAX);
			if (m->dist <= MAN_STEP_MIN) {
				ld_push(ld, "distance");
				ld_fail(ld, "a step moves more than 0.000001 "
				    "step");
			}
		} else if (ld_get(v, "turn") != NULL) {
			ld_keys(ld, v, turn_keys, NULL);
			m->kind = M_TURN;
			m->sense = word(ld, v, "turn", senses, 2, 0) ? 1 : -1;
			if (ld_get(v, "angle") == NULL)
				ld_fail(ld, "a turn needs its \"angle\", 45 "
				    "or 90");
			m->angle = (int)ld_int(ld, v, "angle", 0, 45, 90);
			if (m->angle != 45 && m->angle != 90) {
				ld_push(ld, "angle");
				ld_fail(ld, "the turning tool turns 45 or 90 "
				    "degrees, not %d", m->angle);
			}
			m->side = word(ld, v, "off", side_names, 4, FRONT);
			m->notch = word(ld, v, "notch", notches, 3, 1) - 1;
			load_choices(t, ld, v, m);
		} else
			ld_fail(ld, "a maneuver has \"step\" or \"turn\"");
		ld_pop(ld);
	}
}

static void
load_order(struct arb_turn *t, struct ld *ld, struct order *o,
    const struct jv *arg, const struct jv *v)
{
	static const char *const senses[] = { "left", "right" };
	static const char *const slides[] = { "left", "none", "right" };
	struct aorder	*ao = t_alloc(t, sizeof(*ao));
	const struct jv	*l;
	size_t		 i, j;

	o->data = ao;
	ao->by = -1;
	ao->why = R_NO_MOVE_ORDER;
	ao->snap = 1;
	ld_pop(ld);			/* back at the order */
	if (o->kind == K_MOVE) {
		if (ld_get(v, "lost") != NULL) {
			ld_push(ld, "lost");
			ld_fail(ld, "\"lost\" belongs to a breakaway order");
		}
		ao->snap = word(ld, v, "snap", senses, 2, 1) ? 1 : -1;
		ao->slide = word(ld, v, "slide", slides, 3, 1) - 1;
		if (ld_get(v, "object") != NULL) {
			ao->object = ld_str(ld, v, "object", NULL);
			if (strmap_get(&A(t)->piece_ids, ao->object) < 0 &&
			    strmap_get(&t->unit_ids, ao->object) < 0) {
				ld_push(ld, "object");
				ld_fail(ld, "no unit or piece \"%.40s\"",
				    ao->object);
			}
		}
		ld_push(ld, "move");
		load_move(t, ld, ao, arg);
		return;
	}
	ao->brk = true;
	for (i = 0; order_keys[i] != NULL; i++)
		if (strcmp(order_keys[i], "lost") != 0 &&
		    ld_get(v, order_keys[i]) != NULL) {
			ld_push(ld, order_keys[i]);
			ld_fail(ld, "\"%s\" belongs to a move order",
			    order_keys[i]);
		}
	ld_push(ld, "breakaway");
	ao->target = ld_unitv(ld, arg);
	ld_pop(ld);
	if ((l = ld_get(v, "lost")) != NULL) {
		struct aunit *au = &A(t)->units[ao->target];

		ld_push(ld, "lost");
		ao->nlost = (int)ld_len(ld, l);
		ao->lost = t_alloc(t, (size_t)ao->nlost * sizeof(int) + 1);
		for (i = 0; i < (size_t)ao->nlost; i++) {
			const char	*s;
			int		 k;

			ld_pushi(ld, i);
			s = ld_strv(ld, ld_at(l, i));
			for (k = 0; k < au->nfig; k++)
				if (strcmp(au->fig[k].name, s) == 0)
					break;
			if (k == au->nfig)
				ld_fail(ld, "unit \"%.40s\" has no figure "
				    "\"%.40s\"", t->units.v[ao->target].id, s);
			for (j = 0; j < i; j++)
				if (ao->lost[j] == k)
					ld_fail(ld, "figure \"%.40s\" listed "
					    "twice", s);
			ao->lost[i] = k;
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	ld_push(ld, "breakaway");	/* the caller pops it */
}

static void
begin(struct arb_turn *t)
{
	(void)t;
}

static void
validate(struct arb_turn *t, struct order *o)
{
	struct aorder	*ao = AO(o);

	t->units.v[o->units[0]].named = true;
	if (o->nunits != 1) {
		order_rule(t, o, OS_ILLEGAL, R_ONE_UNIT, ao->brk ?
		    "arcane-legions breakaway" : "arcane-legions moving",
		    "an order names one unit, not %d", o->nunits);
		return;
	}
	if (ao->brk && t->units.v[ao->target].player == o->player)
		order_rule(t, o, OS_ILLEGAL, R_NO_TARGET,
		    "arcane-legions breakaway", "%s is %s's own unit: a "
		    "breakaway attack targets an enemy",
		    t->units.v[ao->target].id, t->players.v[o->player].name);
}

static long
mp_of(struct arb_turn *t, int u)
{
	struct aunit	*au = &A(t)->units[u];
	long		 mp = 0;
	int		 k;

	for (k = 0; k < au->nfig; k++)
		if (au->fig[k].ready && !au->fig[k].lost)
			mp += au->fig[k].icons;
	return mp;
}

/* The prices of rules.h's man_prices: as execute() charges them, a step
 * its side's codex cost, a turn the cost of the side turned off once and
 * once more for each step beyond the tool. */
static int
turn_price(struct arb_turn *t, int u, int side)
{
	return A(t)->units[u].codex[side] * (1 + (int)ceil(2 *
	    half_across(t, u, side) - GEOM_EPS));
}

static long
man_prices(struct arb_turn *t, int u, int price[8])
{
	int	 k;

	for (k = 0; k < 4; k++) {
		price[k] = A(t)->units[u].codex[k];
		price[4 + k] = turn_price(t, u, k);
	}
	return mp_of(t, u);
}

static bool
adjacent(struct arb_turn *t, int a, int b)
{
	struct pt	 p[4], q[4];

	base_poly(t, a, &t->units.v[a].pose, p);
	base_poly(t, b, &t->units.v[b].pose, q);
	return geom_shared(p, 4, q, 4) > GEOM_EPS;
}

/* Builds the index of breakaway orders by their target unit. */
static void
brk_index(struct arb_turn *t)
{
	struct arcane	*a = A(t);
	size_t		 k, n = t->units.n;
	int		*fill, u;

	a->brk_at = t_alloc(t, (n + 2) * sizeof(int));
	for (k = 0; k < t->orders.n; k++) {
		struct aorder *ao = t->orders.v[k].data;

		if (ao != NULL && ao->brk && ao->target >= 0 &&
		    (size_t)ao->target < n)
			a->brk_at[ao->target + 1]++;
	}
	for (u = 0; (size_t)u < n; u++)
		a->brk_at[u + 1] += a->brk_at[u];
	a->brk = t_alloc(t, ((size_t)a->brk_at[n] + 1) * sizeof(int));
	fill = t_alloc(t, (n + 1) * sizeof(int));
	memcpy(fill, a->brk_at, n * sizeof(int));
	for (k = 0; k < t->orders.n; k++) {
		struct aorder *ao = t->orders.v[k].data;

		if (ao != NULL && ao->brk && ao->target >= 0 &&
		    (size_t)ao->target < n)
			a->brk[fill[ao->target]++] = (int)k;
	}
}

/* The breakaway attacks on unit u, given move order mo. */
static void
breakaways(struct arb_turn *t, struct order *mo, int u)
{
	struct aunit	*au = &A(t)->units[u];
	struct unit	*un = &t->units.v[u];
	size_t		 i, k, np = t->players.n, start = 0;

	struct arcane	*a = A(t);
	size_t		 q;

	if (a->brk_at == NULL)
		brk_index(t);
	a->made.n = 0;
	for (i = 0; i < np; i++)
		if (t->turn_order[i] == mo->player)
			start = i;
	for (i = 0; i < np; i++) {
		int p = t->turn_order[(start + i) % np];

		for (q = (size_t)a->brk_at[u]; q < (size_t)a->brk_at[u + 1];
		    q++) {
			struct order	*o = &t->orders.v[a->brk[q]];
			struct aorder	*ao = o->data;
			int		 j, e;

			k = (size_t)a->brk[q];
			if (o->player != p || o->status != OS_PENDING)
				continue;
			e = o->units[0];
			if (un->gone) {
				ao->why = R_TARGET_GONE;
				continue;
			}
			if (t->units.v[e].gone) {
				ao->why = R_UNIT_GONE;
				continue;
			}
			if (!au->formation) {
				ao->why = R_TARGET_SORTIE;
				trace_event(t, "breakaway", "order", TF_ORDER,
				    o, "unit", TF_STR, t->units.v[e].id,
				    "target", TF_STR, un->id, "made", TF_BOOL,
				    0L, "why", TF_STR, "the target is a sortie",
				    NULL);
				continue;
			}
			if (!adjacent(t, e, u)) {
				ao->why = R_NOT_ADJACENT;
				trace_event(t, "breakaway", "order", TF_ORDER,
				    o, "unit", TF_STR, t->units.v[e].id,
				    "target", TF_STR, un->id, "made", TF_BOOL,
				    0L, "why", TF_STR, "not adjacent", NULL);
				continue;
			}
			ao->by = (int)(mo - t->orders.v);
			*VPUSH(t, A(t)->made) = (int)k;
			ao->gone = t_alloc(t, (size_t)ao->nlost * sizeof(int) +
			    1);
			for (j = 0; j < ao->nlost; j++) {
				struct figure *fg = &au->fig[ao->lost[j]];

				if (fg->lost)
					continue;
				fg->lost = true;
				ao->gone[ao->ngone++] = ao->lost[j];
			}
			trace_event(t, "breakaway", "order", TF_ORDER, o,
			    "unit", TF_STR, t->units.v[e].id, "target", TF_STR,
			    un->id, "made", TF_BOOL, 1L, "figures_lost",
			    TF_INT, (long)ao->ngone, NULL);
			order_rule(t, o, OS_DONE, R_OK,
			    "arcane-legions breakaway", "%s made a breakaway "
			    "attack on %s as it was given %s: %d "
			    "figure%s lost", t->units.v[e].id, un->id,
			    order_ref(t, o->player, (int)(mo - t->orders.v)),
			    ao->ngone, ao->ngone == 1 ? "" : "s");
			if (ao->ngone > 0)
				unit_lose(t, u, ao->ngone, "breakaway", (int)k);
		}
	}
	/* As many as were made: an allocation the size of all the orders
	 * for each move order grew with the square of the orders. */
	if (A(t)->made.n > 0) {
		AO(mo)->made = t_alloc(t, A(t)->made.n * sizeof(int));
		memcpy(AO(mo)->made, A(t)->made.v, A(t)->made.n * sizeof(int));
		AO(mo)->nmade = (int)A(t)->made.n;
	}
}

/* The two rays along the outline of p from q (q a corner: its sides;
 * q on a side: both ways along it).  Returns 0 when q is not on it. */
static int
rays(const struct pt *p, int n, struct pt q, struct pt out[2])
{
	int	 i;

	for (i = 0; i < n; i++)
		if (pt_len(pt_sub(q, p[i])) <= CEPS) {
			out[0] = pt_unit(pt_sub(p[(i + 1) % n], p[i]));
			out[1] = pt_unit(pt_sub(p[(i + n - 1) % n], p[i]));
			return 2;
		}
	for (i = 0; i < n; i++)
		if (geom_segdist(q, p[i], p[(i + 1) % n]) <= CEPS) {
			out[0] = pt_unit(pt_sub(p[(i + 1) % n], p[i]));
			out[1] = pt_mul(out[0], -1);
			return 2;
		}
	return 0;
}

/* The base turned about c; sense +1 clockwise, -1 counterclockwise. */
static struct pose
pose_turn(const struct pose *ps, struct pt c, int sense, double angle)
{
	struct pose	 r;
	struct pt	 q = geom_rotate(pt_make(ps->x, ps->y), c,
	    -sense * angle);

	r.x = q.x;
	r.y = q.y;
	r.facing = geom_norm360(ps->facing + sense * angle);
	return r;
}

static const char *
sense_name(int sense)
{
	return sense > 0 ? "right" : sense < 0 ? "left" : "none";
}

/* Candidate k of the object being tried, new: nothing of an earlier
 * object's (its push, whether it was tried) stays in it. */
static struct cand *
cand_init(struct mrec *r, int k, const char *how, int object)
{
	struct cand	*c = &r->c[k];

	memset(c, 0, sizeof(*c));
	c->how = how;
	c->object = object;
	c->blocked = -1;
	return c;
}

/* The candidates of the object just tried go to the result's list, after
 * those of the objects tried before it (a maneuver's are kept together:
 * nothing else is kept while it is made). */
static void
keep_snaps(struct arb_turn *t, struct mrec *r)
{
	struct arcane	*a = A(t);
	int		 k;

	if (r->nall == 0)
		r->all = a->cands.n;
	for (k = 0; k < r->nc; k++) {
		*VPUSH(t, a->cands) = r->c[k];
		r->nall++;
	}
}

/* Tries the candidates, the first one first; returns the one made or
 * -1. */
static int
try_snaps(struct arb_turn *t, struct order *o, int u, struct mrec *r,
    int first)
{
	int	 k, i;

	for (k = 0; k < r->nc; k++) {
		struct cand	*c = &r->c[k == 0 ? first : 1 - first];

		c->tried = true;
		c->blocked = overlapping(t, u, &c->to);
		trace_event(t, "snap", "order", TF_ORDER, o, "how", TF_STR,
		    c->how, "sense", TF_STR, sense_name(c->sense), "angle",
		    TF_REAL, c->angle, "pivot_x", TF_REAL, c->pivot.x,
		    "pivot_y", TF_REAL, c->pivot.y, "push", TF_REAL, c->push,
		    "x", TF_REAL, c->to.x, "y", TF_REAL, c->to.y, "facing",
		    TF_REAL, c->to.facing, "made", TF_BOOL,
		    (long)(c->blocked < 0), "blocked_by", TF_STR,
		    c->blocked >= 0 ? A(t)->objs[c->blocked].id : "", NULL);
		if (c->blocked < 0) {
			c->made = true;
			i = (int)(c - r->c);
			return i;
		}
	}
	return -1;
}

/* Sliding: along the unit touched, to the next notch. */
static void
slide(struct arb_turn *t, struct order *o, int u, struct mrec *r)
{
	struct arcane	*a = A(t);
	struct aorder	*ao = AO(o);
	struct unit	*un = &t->units.v[u];
	struct obj	*ob = &a->objs[r->hit];
	struct pt	 p[4], dir, m[3], q[3];
	double		 best = INFINITY, lo, hi, olo, ohi;
	int		 i, j, k, l, side = -1, oside = -1;

	r->slide = ao->slide;
	if (ao->slide == 0)
		return;
	if (ob->kind != OB_UNIT) {
		r->slide_why = "units do not slide on terrain";
		goto out;
	}
	base_poly(t, u, &un->pose, p);
	for (i = 0; i < 4 && side < 0; i++)
		for (j = 0; j < ob->n; j++) {
			struct pt	 pi[2] = { p[i], p[(i + 1) % 4] };
			struct pt	 oj[2] = { ob->p[j], ob->p[(j + 1) %
			    ob->n] };

			if (geom_shared(pi, 2, oj, 2) > GEOM_EPS) {
				side = i;
				oside = j;
				break;
			}
		}
	if (side < 0) {
		r->slide_why = "not adjacent: no side is shared";
		goto out;
	}
	/* Right, seen from inside looking out across the side, is against
	 * the counterclockwise run of the side. */
	dir = pt_unit(pt_sub(p[(side + 1) % 4], p[side]));
	if (ao->slide > 0)
		dir = pt_mul(dir, -1);
	m[0] = p[side];
	m[1] = p[(side + 1) % 4];
	m[2] = pt_mul(pt_add(m[0], m[1]), 0.5);
	q[0] = ob->p[oside];
	q[1] = ob->p[(oside + 1) % ob->n];
	q[2] = pt_mul(pt_add(q[0], q[1]), 0.5);
	for (k = 0; k < 3; k++)
		for (l = 0; l < 3; l++) {
			double d = pt_dot(pt_sub(q[l], m[k]), dir);

			if (d > GEOM_EPS && d < best)
				best = d;
		}
	if (best == INFINITY) {
		r->slide_why = "no notch lies that way";
		goto out;
	}
	lo = fmin(pt_dot(m[0], dir), pt_dot(m[1], dir)) + best;
	hi = fmax(pt_dot(m[0], dir), pt_dot(m[1], dir)) + best;
	olo = fmin(pt_dot(q[0], dir), pt_dot(q[1], dir));
	ohi = fmax(pt_dot(q[0], dir), pt_dot(q[1], dir));
	r->slide_dist = best;
	if (fmin(hi, ohi) - fmax(lo, olo) <= GEOM_EPS) {
		r->slide_why = t_printf(t, "the units would no longer be "
		    "adjacent after %.3f", geom_round(best));
		goto out;
	}
	near_poly(t, p, 4, dir, best);
	for (i = 0; i < (int)a->near.n; i++) {
		struct obj *nb = &a->objs[a->near.v[i]];

		if (geom_sweep(p, 4, dir, best, nb->p, nb->n) >= 0) {
			r->slide_why = t_printf(t, "it would run into %s",
			    nb->id);
			goto out;
		}
	}
	un->pose.x += dir.x * best;
	un->pose.y += dir.y * best;
	r->slid = true;
	r->to = un->pose;
out:
	trace_event(t, "slide", "order", TF_ORDER, o, "unit", TF_STR,
	    un->id, "along", TF_STR, ob->id, "direction", TF_STR,
	    ao->slide > 0 ? "right" : "left", "distance", TF_REAL,
	    r->slide_dist, "made", TF_BOOL, (long)r->slid, "why", TF_STR,
	    r->slide_why != NULL ? r->slide_why : "", NULL);
}

/* A step: lateral movement, with collision and snapping to. */
static void
step(struct arb_turn *t, struct order *o, int u, const struct maneuver *m,
    struct mrec *r)
{
	struct arcane	*a = A(t);
	struct aorder	*ao = AO(o);
	struct unit	*un = &t->units.v[u];
	struct pt	 p[4], dir = side_normal(&un->pose, m->side);
	struct pt	 hits[16], mr[2], orr[2];
	double		 best = INFINITY;
	int		 k, i, j, nh = 0, made;
	struct obj	*ob;

	base_poly(t, u, &un->pose, p);
	near_poly(t, p, 4, dir, m->dist);
	for (i = 0; i < (int)a->near.n; i++) {
		struct obj	*nb = &a->objs[a->near.v[i]];
		double		 s = geom_sweep(p, 4, dir, m->dist, nb->p, nb->n);

		if (s >= 0 && s < best - GEOM_EPS) {
			best = s;
			r->hit = a->near.v[i];
		}
	}
	r->went = r->hit >= 0 ? best : m->dist;
	un->pose.x += dir.x * r->went;
	un->pose.y += dir.y * r->went;
	r->to = un->pose;
	trace_event(t, "step", "order", TF_ORDER, o, "unit", TF_STR, un->id,
	    "way", TF_STR, dir_names[m->side], "asked", TF_REAL, m->dist,
	    "went", TF_REAL, r->went, "cost", TF_INT, (long)r->cost,
	    "x", TF_REAL, un->pose.x, "y", TF_REAL, un->pose.y, "facing",
	    TF_REAL, un->pose.facing, NULL);
	if (r->hit < 0)
		return;
	/* The contact: corners of one on the outline of the other. */
	ob = &a->objs[r->hit];
	base_poly(t, u, &un->pose, p);
	for (i = 0; i < 4 && nh < 16; i++)
		for (j = 0; j < ob->n; j++)
			if (geom_segdist(p[i], ob->p[j], ob->p[(j + 1) %
			    ob->n]) <= CEPS) {
				hits[nh++] = p[i];
				break;
			}
	for (j = 0; j < ob->n && nh < 16; j++)
		for (i = 0; i < 4; i++)
			if (geom_segdist(ob->p[j], p[i], p[(i + 1) % 4]) <=
			    CEPS) {
				hits[nh++] = ob->p[j];
				break;
			}
	r->flush = false;
	for (i = 1; i < nh; i++)
		if (pt_len(pt_sub(hits[i], hits[0])) > GEOM_EPS)
			r->flush = true;
	r->at = nh > 0 ? hits[0] : pt_make(un->pose.x, un->pose.y);
	trace_event(t, "contact", "order", TF_ORDER, o, "unit", TF_STR,
	    un->id, "object", TF_STR, ob->id, "x", TF_REAL, r->at.x, "y",
	    TF_REAL, r->at.y, "flush", TF_BOOL, (long)r->flush, NULL);
	if (r->flush) {
		r->ends = true;
		slide(t, o, u, r);
		return;
	}
	/* Snapping to: the smallest turn about the contact point, each way,
	 * that lays a side of the base along a side of the object. */
	cand_init(r, 0, "pivot", r->hit);
	cand_init(r, 1, "pivot", r->hit);
	r->c[0].angle = r->c[1].angle = INFINITY;
	if (nh > 0 && rays(p, 4, r->at, mr) == 2 &&
	    rays(ob->p, ob->n, r->at, orr) == 2)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 2; j++) {
				double ccw = geom_angle(mr[i], orr[j]);

				if (ccw <= GEOM_AEPS || ccw >= 360 - GEOM_AEPS)
					continue;
				if (ccw < r->c[0].angle)
					r->c[0].angle = ccw;
				if (360 - ccw < r->c[1].angle)
					r->c[1].angle = 360 - ccw;
			}
	if (r->c[0].angle == INFINITY || r->c[1].angle == INFINITY) {
		r->nosnap = "no side to lay along";
		return;
	}
	r->nc = 2;
	for (k = 0; k < 2; k++) {
		struct cand *c = &r->c[k];

		c->sense = k == 0 ? -1 : 1;
		c->pivot = r->at;
		c->to = pose_turn(&un->pose, r->at, c->sense, c->angle);
	}
	trace_event(t, "snap_angles", "order", TF_ORDER, o, "left", TF_REAL,
	    r->c[0].angle, "right", TF_REAL, r->c[1].angle, "choice", TF_STR,
	    fabs(r->c[0].angle - r->c[1].angle) <= GEOM_AEPS ?
	    sense_name(ao->snap) : "smaller", NULL);
	if (fabs(r->c[0].angle - r->c[1].angle) <= GEOM_AEPS)
		k = ao->snap > 0 ? 1 : 0;
	else
		k = r->c[0].angle < r->c[1].angle ? 0 : 1;
	made = try_snaps(t, o, u, r, k);
	keep_snaps(t, r);
	if (made < 0) {
		/* Limits: no snap, no overlap: it stays at its angle and
		 * movement does not end. */
		r->nosnap = "each snap would overlap another object";
		return;
	}
	un->pose = r->c[made].to;
	r->to = un->pose;
	r->ends = true;
	slide(t, o, u, r);
}

/* Where the outlines of a and b cross: points, with the edges. */
struct cross {
	struct pt	 x;
	int		 ea, eb;
};

static int
crossings(const struct pt *a, int na, const struct pt *b, int nb,
    struct cross *out, int max)
{
	int	 i, j, k, n = 0;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			struct pt	 d1 = pt_sub(a[(i + 1) % na], a[i]);
			struct pt	 d2 = pt_sub(b[(j + 1) % nb], b[j]);
			double		 den = pt_cross(d1, d2), ta, tb;
			struct pt	 x;

			if (fabs(den) < 1e-12)
				continue;
			ta = pt_cross(pt_sub(b[j], a[i]), d2) / den;
			tb = pt_cross(pt_sub(b[j], a[i]), d1) / den;
			if (ta < -1e-9 || ta > 1 + 1e-9 || tb < -1e-9 ||
			    tb > 1 + 1e-9)
				continue;
			x = pt_add(a[i], pt_mul(d1, ta));
			for (k = 0; k < n; k++)
				if (pt_len(pt_sub(out[k].x, x)) <= GEOM_EPS)
					break;
			if (k < n || n == max)
				continue;
			out[n].x = x;
			out[n].ea = i;
			out[n].eb = j;
			n++;
		}
	return n;
}

/* The snaps out of an overlap with object k (collision from overlap). */
static void
overlap_snaps(struct arb_turn *t, struct order *o, int u, int k,
    struct mrec *r)
{
	struct obj	*ob = &A(t)->objs[k];
	struct unit	*un = &t->units.v[u];
	struct pt	 p[4];
	struct cross	 x[16];
	int		 nx, i, in_b = 0, in_a = 0, ob_in[GEOM_MAXPTS];

	base_poly(t, u, &un->pose, p);
	nx = crossings(p, 4, ob->p, ob->n, x, 16);
	for (i = 0; i < ob->n; i++)
		if (geom_inside(p, 4, ob->p[i]))
			ob_in[in_b++] = i;
	for (i = 0; i < 4; i++)
		if (geom_inside(ob->p, ob->n, p[i]))
			in_a++;
	r->nc = 0;
	trace_event(t, "overlap", "order", TF_ORDER, o, "object", TF_STR,
	    ob->id, "crossings", TF_INT, (long)nx, "object_corners_inside",
	    TF_INT, (long)in_b, "base_corners_inside", TF_INT, (long)in_a,
	    NULL);
	if (in_b == 2 && in_a == 0 && nx == 2 && x[0].ea == x[1].ea &&
	    ((ob_in[0] + 1) % ob->n == ob_in[1] ||
	    (ob_in[1] + 1) % ob->n == ob_in[0])) {
		/* Two corners of the object inside: snap to the edge between
		 * them (ruling A13). */
		int		 e = (ob_in[0] + 1) % ob->n == ob_in[1] ?
		    ob_in[0] : ob_in[1];
		struct pt	 de = pt_unit(pt_sub(ob->p[(e + 1) % ob->n],
		    ob->p[e]));
		struct pt	 dm = pt_unit(pt_sub(p[(x[0].ea + 1) % 4],
		    p[x[0].ea]));
		struct pt	 nout = pt_cw(de), q[4];
		struct cand	*c = cand_init(r, 0, "edge", k);
		double		 phi = geom_angle(dm, de), push = 0;

		if (phi > 180)
			phi -= 360;
		if (phi > 90)
			phi -= 180;
		if (phi <= -90)
			phi += 180;
		c->sense = fabs(phi) <= GEOM_AEPS ? 0 : phi > 0 ? -1 : 1;
		c->angle = fabs(phi);
		c->pivot = pt_mul(pt_add(x[0].x, x[1].x), 0.5);
		c->to = pose_turn(&un->pose, c->pivot, c->sense, c->angle);
		base_poly(t, u, &c->to, q);
		for (i = 0; i < 4; i++) {
			double d = pt_dot(pt_sub(ob->p[e], q[i]), nout);

			if (d > push)
				push = d;
		}
		c->to.x += nout.x * push;
		c->to.y += nout.y * push;
		c->push = push;
		r->nc = 1;
		return;
	}
	if (nx != 2) {
		r->nosnap = t_printf(t, "the outlines cross at %d points, not "
		    "2", nx);
		return;
	}
	for (i = 0; i < 2; i++) {
		struct cand	*c = cand_init(r, i, "crossing", k);
		struct pt	 dm = pt_unit(pt_sub(p[(x[i].ea + 1) % 4],
		    p[x[i].ea]));
		struct pt	 dob = pt_unit(pt_sub(ob->p[(x[i].eb + 1) %
		    ob->n], ob->p[x[i].eb]));
		struct pt	 in_ob = pt_mul(pt_cw(dob), -1);
		struct pt	 in_m = pt_mul(pt_cw(dm), -1);
		struct pt	 rm = pt_dot(dm, in_ob) > 0 ? dm : pt_mul(dm, -1);
		struct pt	 ro = pt_dot(dob, in_m) > 0 ? dob :
		    pt_mul(dob, -1);
		double		 ccw = geom_angle(rm, ro);

		c->pivot = x[i].x;
		if (ccw <= 180) {
			c->sense = -1;
			c->angle = ccw;
		} else {
			c->sense = 1;
			c->angle = 360 - ccw;
		}
		c->to = pose_turn(&un->pose, c->pivot, c->sense, c->angle);
	}
	r->nc = 2;
}

static int
by_area(const void *a, const void *b)
{
	const double	*x = a, *y = b;

	/* { area, index } pairs: larger area first, then earlier object */
	if (x[0] > y[0])
		return -1;
	if (y[0] > x[0])
		return 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* A turn with the turning tool. */
static void
turn(struct arb_turn *t, struct order *o, int u, const struct maneuver *m,
    struct mrec *r)
{
	struct arcane	*a = A(t);
	struct aorder	*ao = AO(o);
	struct unit	*un = &t->units.v[u];
	struct pose	 before = un->pose;
	struct pt	 n = side_normal(&un->pose, m->side), tv = pt_cw(n);
	struct pt	 mid, b2, n2, uu, tool[3], p[4], clip[2 * GEOM_MAXPTS + 8];
	double		 e = 2 * half_across(t, u, m->side);
	double		 h = half_along(t, u, m->side);
	double		*pairs;
	int		 sg = m->sense, k, np = 0, i, made;

	if (m->bad != NULL) {
		/* A choice the side or the angle does not allow. */
		r->why = R_TOOL_BLOCKED;
		r->unplaced = m->bad;
		trace_event(t, "tool", "order", TF_ORDER, o, "unit", TF_STR,
		    un->id, "turn", TF_STR, sense_name(sg), "angle", TF_INT,
		    (long)m->angle, "off", TF_STR, side_names[m->side],
		    "off_notch", TF_STR, m->bevel_name, "corner", TF_STR,
		    m->corner_name != NULL ? m->corner_name : "", "notch",
		    TF_STR, m->notch == 0 ? "middle" : m->notch > 0 ? "far" :
		    "near", "placed", TF_BOOL, 0L, "why", TF_STR, m->bad, NULL);
		return;
	}
	/* The notch of the side the bevel slots into (A11). */
	mid = pt_add(pt_add(pt_make(un->pose.x, un->pose.y),
	    pt_mul(n, half_across(t, u, m->side))), pt_mul(tv, m->bevel * h));
	if (m->angle == 90) {
		/*
		 * The square corner at the end the order chose; the base goes
		 * down across the other leg from the tool, so that leg's
		 * outward normal points the same way.
		 */
		struct pt v = pt_add(mid, pt_mul(tv, m->corner));

		tool[0] = pt_sub(mid, pt_mul(tv, m->corner));
		tool[1] = v;
		tool[2] = pt_add(v, pt_mul(n, 2));
		b2 = pt_add(v, n);
		n2 = pt_mul(tv, m->corner);
		uu = n;
	} else {
		struct pt apex = pt_add(mid, pt_mul(n, SQRT2));
		struct pt end = pt_add(mid, pt_mul(tv, sg * SQRT2));

		tool[0] = pt_sub(mid, pt_mul(tv, sg * SQRT2));
		tool[1] = end;
		tool[2] = apex;
		b2 = pt_mul(pt_add(end, apex), 0.5);
		n2 = pt_unit(pt_add(pt_mul(tv, sg), n));
		uu = pt_unit(pt_sub(apex, end));
	}
	memcpy(r->tool, tool, sizeof(tool));
	r->has_tool = true;
	/* Counterclockwise, in the trace as in the result. */
	geom_convex(r->tool, 3);
	near_poly(t, r->tool, 3, pt_make(0, 0), 0);
	for (k = -1, i = 0; i < (int)a->near.n && k < 0; i++)
		if (geom_overlaps(r->tool, 3, a->objs[a->near.v[i]].p,
		    a->objs[a->near.v[i]].n))
			k = a->near.v[i];
	trace_event(t, "tool", "order", TF_ORDER, o, "unit", TF_STR, un->id,
	    "turn", TF_STR, sense_name(sg), "angle", TF_INT, (long)m->angle,
	    "off", TF_STR, side_names[m->side], "off_notch", TF_STR,
	    m->bevel_name, "corner", TF_STR, m->corner_name != NULL ?
	    m->corner_name : "", "notch", TF_STR, m->notch == 0 ? "middle" :
	    m->notch > 0 ? "far" : "near", "x1", TF_REAL, r->tool[0].x,
	    "y1", TF_REAL, r->tool[0].y, "x2", TF_REAL, r->tool[1].x, "y2",
	    TF_REAL, r->tool[1].y, "x3", TF_REAL, r->tool[2].x, "y3", TF_REAL,
	    r->tool[2].y,
	    "placed", TF_BOOL, (long)(k < 0), "blocked_by", TF_STR,
	    k >= 0 ? a->objs[k].id : "", NULL);
	if (k >= 0) {
		r->why = R_TOOL_BLOCKED;
		r->blocked = k;
		return;
	}
	r->set.facing = geom_norm360(un->pose.facing + sg * m->angle);
	mid = pt_add(pt_add(b2, pt_mul(n2, e / 2)), pt_mul(uu, m->notch * h));
	r->set.x = mid.x;
	r->set.y = mid.y;
	un->pose = r->set;
	r->to = r->set;
	base_poly(t, u, &un->pose, p);
	near_poly(t, p, 4, pt_make(0, 0), 0);
	a->pairs.n = 0;
	for (i = 0; i < (int)a->near.n; i++) {
		struct obj	*ob = &a->objs[a->near.v[i]];
		int		 nc;

		if (!geom_overlaps(p, 4, ob->p, ob->n))
			continue;
		nc = geom_clip(p, 4, ob->p, ob->n, clip);
		*VPUSH(t, a->pairs) = fabs(geom_area(clip, nc));
		*VPUSH(t, a->pairs) = a->near.v[i];
		np++;
	}
	trace_event(t, "set_down", "order", TF_ORDER, o, "unit", TF_STR,
	    un->id, "x", TF_REAL, un->pose.x, "y", TF_REAL, un->pose.y,
	    "facing", TF_REAL, un->pose.facing, "beyond", TF_INT,
	    (long)r->beyond, "overlaps", TF_INT, (long)np, NULL);
	if (np == 0)
		return;
	/* Collision from overlap. */
	pairs = a->pairs.v;
	qsort(pairs, (size_t)np, 2 * sizeof(double), by_area);
	r->overlap = true;
	r->noverl = np;
	r->overl = t_alloc(t, (size_t)np * sizeof(int));
	r->area = t_alloc(t, (size_t)np * sizeof(double));
	for (i = 0; i < np; i++) {
		r->overl[i] = (int)pairs[2 * i + 1];
		r->area[i] = pairs[2 * i];
	}
	for (i = 0; i < np; i++)
		if (ao->object != NULL &&
		    strcmp(a->objs[r->overl[i]].id, ao->object) == 0)
			break;
	made = -1;
	for (k = i < np ? i : 0; k < np; k++) {
		int	 first;

		r->hit = r->overl[k];
		un->pose = r->set;
		r->nosnap = NULL;
		overlap_snaps(t, o, u, r->hit, r);
		if (r->nc == 2) {
			if (fabs(r->c[0].angle - r->c[1].angle) <= GEOM_AEPS)
				first = r->c[0].sense == ao->snap ? 0 : 1;
			else
				first = r->c[0].angle < r->c[1].angle ? 0 : 1;
		} else
			first = 0;
		made = r->nc > 0 ? try_snaps(t, o, u, r, first) : -1;
		keep_snaps(t, r);
		if (made >= 0)
			break;
		if (r->nc > 0)
			r->nosnap = "each snap would leave it overlapping";
		if (i < np)
			break;	/* the object the order named, alone */
	}
	if (made < 0) {
		un->pose = before;
		r->to = before;
		r->why = R_OVERLAP;
		return;
	}
	un->pose = r->c[made].to;
	r->to = un->pose;
	r->at = r->c[made].pivot;
	r->ends = true;
	slide(t, o, u, r);
}

static const char *
rule_of(enum reason why)
{
	switch (why) {
	case R_INSUFFICIENT_MP:
		return "arcane-legions lateral movement";
	case R_TOOL_BLOCKED:
		return "arcane-legions limits";
	case R_OVERLAP:
		return "arcane-legions limits";
	case R_MOVEMENT_ENDED:
		return "arcane-legions collision";
	default:
		return "arcane-legions moving";
	}
}

/*
 * A check's order whose maneuver first is not made because of a unit (a
 * collision that ended the movement, or the turning tool blocked) that
 * may move away first (unit_may_move_first(), issue 28): that unit; else
 * -1.
 */
static int
blocker_depends(struct arb_turn *t, const struct order *o, int first)
{
	struct arcane		*a = A(t);
	const struct aorder	*ao = o->data;
	const struct mrec	*r = &ao->rec[first];
	int			 k, ob = -1;

	if (!(t->flags & ARB_CHECK))
		return -1;
	if (r->why == R_TOOL_BLOCKED)
		ob = r->unplaced == NULL ? r->blocked : -1;
	else if (r->why == R_MOVEMENT_ENDED) {
		/* The maneuver that ended the movement: a collision. */
		for (k = first - 1; k >= 0 && !ao->rec[k].ends; k--)
			continue;
		if (k >= 0 && !ao->rec[k].overlap)
			ob = ao->rec[k].hit;
	}
	if (ob < 0 || a->objs[ob].kind != OB_UNIT ||
	    !unit_may_move_first(t, a->objs[ob].unit, o->player))
		return -1;
	return a->objs[ob].unit;
}

static void
execute(struct arb_turn *t, struct order *o)
{
	struct arcane	*a = A(t);
	struct aorder	*ao = AO(o);
	int		 u = o->units[0], k, cost, first = -1;
	struct unit	*un = &t->units.v[u];
	struct aunit	*au = &a->units[u];
	struct player	*pl = &t->players.v[o->player];
	bool		 ended = false;
	long		 mp;
	int		 dep;

	if (ao->brk)
		return;		/* made, or not, at its target's move order */
	if (un->gone) {
		order_rule(t, o, OS_ILLEGAL, R_UNIT_GONE,
		    "arcane-legions moving", "%s was eliminated earlier this "
		    "turn", un->id);
		return;
	}
	cost = au->formation ? 2 : 1;
	if (pl->res[RES_OP] < cost) {
		order_rule(t, o, OS_ILLEGAL, R_INSUFFICIENT_OP,
		    "arcane-legions order costs", "a move order to a %s "
		    "costs %d order point%s, %s has %ld", au->formation ?
		    "formation" : "sortie", cost, cost == 1 ? "" : "s",
		    pl->name, pl->res[RES_OP]);
		return;
	}
	pl->res[RES_OP] -= cost;
	ao->given = true;
	ao->op = cost;
	au->ordered = true;
	trace_event(t, "order_points", "order", TF_ORDER, o, "unit", TF_STR,
	    un->id, "cost", TF_INT, (long)cost, "left", TF_INT,
	    pl->res[RES_OP], NULL);
	breakaways(t, o, u);
	if (un->gone) {
		order_rule(t, o, OS_FAILED, R_UNIT_GONE,
		    "arcane-legions breakaway", "%s lost its last figure to "
		    "breakaway attacks before it moved", un->id);
		return;
	}
	ao->mp = mp = mp_of(t, u);
	trace_event(t, "mp", "order", TF_ORDER, o, "unit", TF_STR, un->id,
	    "mp", TF_INT, mp, NULL);
	ao->rec = t_alloc(t, (size_t)ao->nm * sizeof(*ao->rec));
	a->mover = u;
	for (k = 0; k < ao->nm; k++) {
		const struct maneuver	*m = &ao->m[k];
		struct mrec		*r = &ao->rec[k];

		r->mp0 = mp;
		r->from = r->to = un->pose;
		r->hit = -1;
		r->blocked = -1;
		r->why = R_OK;
		if (ended)
			r->why = R_MOVEMENT_ENDED;
		else {
			cost = m->kind == M_STEP ? au->codex[m->side] :
			    turn_price(t, u, m->side);
			if (m->kind == M_TURN)
				r->beyond = (int)ceil(2 * half_across(t, u,
				    m->side) - GEOM_EPS);
			if (mp < cost) {
				r->why = R_INSUFFICIENT_MP;
				trace_event(t, "maneuver", "order", TF_ORDER,
				    o, "index", TF_INT, (long)k + 1,
				    "made", TF_BOOL, 0L, "why", TF_STR,
				    reason_name(r->why), "price", TF_INT,
				    (long)cost, "mp", TF_INT, mp, NULL);
			} else {
				r->cost = cost;
				if (m->kind == M_STEP)
					step(t, o, u, m, r);
				else
					turn(t, o, u, m, r);
				if (r->why != R_OK)
					r->cost = 0;
				/* A turn's cost, paid once it is made: the
				 * side turned off, once and once more for
				 * each step beyond the tool. */
				if (m->kind == M_TURN && r->why == R_OK)
					trace_event(t, "turn_cost", "order",
					    TF_ORDER, o, "unit", TF_STR,
					    un->id, "index", TF_INT, (long)k +
					    1, "off", TF_STR,
					    side_names[m->side], "side_cost",
					    TF_INT, (long)au->codex[m->side],
					    "beyond", TF_INT, (long)r->beyond,
					    "cost", TF_INT, (long)r->cost,
					    "mp_left", TF_INT, mp - r->cost,
					    NULL);
				mp -= r->cost;
				ended = r->ends;
			}
		}
		r->made = r->why == R_OK;
		r->mp1 = mp;
		if (!r->made && first < 0)
			first = k;
		if (r->made && (r->from.x != un->pose.x || r->from.y !=
		    un->pose.y || r->from.facing != un->pose.facing))
			un->moved = true;
	}
	ao->mp_left = mp;
	obj_unit(t, u, true);
	a->mover = -1;
	un->by = (int)(o - t->orders.v);
	if (first < 0) {
		order_rule(t, o, OS_DONE, R_OK, "arcane-legions moving",
		    "%s made its %d maneuver%s, %ld of %ld mp spent%s", un->id,
		    ao->nm, ao->nm == 1 ? "" : "s", ao->mp - mp, ao->mp,
		    mp > 0 ? t_printf(t, "; %ld unspent %s lost", mp, mp == 1 ?
		    "is" : "are") : "");
		return;
	}
	if ((dep = blocker_depends(t, o, first)) >= 0) {
		order_depends(t, o, dep, ao->rec[first].why,
		    rule_of(ao->rec[first].why), t_printf(t, "maneuver %d of "
		    "%d not made: %s; %ld of %ld mp spent", first + 1, ao->nm,
		    ao->rec[first].why == R_MOVEMENT_ENDED ? t_printf(t,
		    "a collision with %s ended the movement",
		    t->units.v[dep].id) : t_printf(t, "the turning tool "
		    "cannot be placed (%s is in the way)",
		    t->units.v[dep].id), ao->mp - mp, ao->mp));
		return;
	}
	order_rule(t, o, OS_FAILED, ao->rec[first].why,
	    rule_of(ao->rec[first].why), "maneuver %d of %d not made: %s; "
	    "%ld of %ld mp spent", first + 1, ao->nm,
	    ao->rec[first].why == R_INSUFFICIENT_MP ? "too few movement "
	    "points" : ao->rec[first].why == R_TOOL_BLOCKED ? t_printf(t,
	    "the turning tool cannot be placed (%s)",
	    ao->rec[first].unplaced != NULL ? ao->rec[first].unplaced :
	    t_printf(t, "%s is in the way",
	    a->objs[ao->rec[first].blocked].id)) : ao->rec[first].why ==
	    R_OVERLAP ? "the turn would end overlapping with no snap "
	    "possible" : "a collision ended the movement", ao->mp - mp,
	    ao->mp);
}

static void
end(struct arb_turn *t)
{
	size_t	 i;

	/* In the order of play, as the result lists them, so that the trace
	 * does not follow the order of the files on the command line. */
	for (i = 0; i < t->sequence.n; i++) {
		struct order	*o = &t->orders.v[t->sequence.v[i]];
		struct aorder	*ao = o->data;

		if (o->status != OS_PENDING || !ao->brk)
			continue;
		if (!A(t)->units[ao->target].formation)
			ao->why = R_TARGET_SORTIE;
		else if (ao->why == R_NO_MOVE_ORDER &&
		    A(t)->units[ao->target].ordered)
			ao->why = R_NOT_ADJACENT;
		/* A check without the orders of the target's player, who
		 * acts first (issue 28): whether it is given a move order
		 * is theirs to say. */
		if (ao->why == R_NO_MOVE_ORDER &&
		    unit_may_move_first(t, ao->target, o->player)) {
			order_rule(t, o, OS_DONE, R_DEPENDS_ON_ORDERS,
			    "arcane-legions breakaway", "a breakaway attack "
			    "on %s is made as it is given a move order; this "
			    "depends on the orders of %s, who acts before %s: "
			    "no_move_order would refuse it only if %s is given "
			    "none (arcane-legions breakaway)",
			    t->units.v[ao->target].id, t->players.v[
			    t->units.v[ao->target].player].name,
			    t->players.v[o->player].name,
			    t->units.v[ao->target].id);
			continue;
		}
		order_rule(t, o, OS_FAILED, ao->why,
		    "arcane-legions breakaway", "no breakaway attack on %s "
		    "was made: %s", t->units.v[ao->target].id,
		    ao->why == R_TARGET_SORTIE ? "breakaway attacks may not "
		    "be made against sorties" : ao->why == R_NOT_ADJACENT ?
		    "the attacker was not adjacent when it was given a move "
		    "order" : ao->why == R_UNIT_GONE ? "the attacker was "
		    "eliminated" : ao->why == R_TARGET_GONE ? "earlier "
		    "breakaway attacks had eliminated it" : "it was given no "
		    "move order");
	}
}

static void
set_maneuver(struct arb_turn *t, const struct aorder *ao, int k,
    struct jv *j)
{
	const struct maneuver	*m = &ao->m[k];
	const struct mrec	*r = &ao->rec[k];
	struct arcane		*a = A(t);
	struct jv		*c, *l;
	int			 i;

	emit_set_int(j, "index", k + 1);
	emit_set_str(j, "kind", m->kind == M_STEP ? "step" : "turn");
	if (m->kind == M_STEP) {
		emit_set_str(j, "step", dir_names[m->side]);
		emit_set_real(j, "distance", m->dist);
	} else {
		emit_set_str(j, "turn", sense_name(m->sense));
		emit_set_int(j, "angle", m->angle);
		emit_set_str(j, "off", side_names[m->side]);
		emit_set_str(j, "off_notch", m->bevel_name);
		if (m->corner_name != NULL)
			emit_set_str(j, "corner", m->corner_name);
		emit_set_str(j, "notch", m->notch == 0 ? "middle" :
		    m->notch > 0 ? "far" : "near");
	}
	emit_set_bool(j, "made", r->made);
	emit_set_str(j, "reason", reason_name(r->why));
	emit_set_int(j, "cost", r->cost);
	emit_set_int(j, "mp_before", r->mp0);
	emit_set_int(j, "mp_after", r->mp1);
	emit_set_pose(j, "from", &r->from);
	emit_set_pose(j, "to", &r->to);
	if (r->why == R_MOVEMENT_ENDED || (r->why == R_INSUFFICIENT_MP))
		return;
	if (m->kind == M_STEP)
		emit_set_real(j, "went", r->went);
	if (r->unplaced != NULL) {
		c = emit_set_object(j, "tool");
		emit_set_bool(c, "placed", false);
		emit_set_str(c, "why", r->unplaced);
	}
	if (r->has_tool) {
		c = emit_set_object(j, "tool");
		l = emit_set_array(c, "corners");
		for (i = 0; i < 3; i++) {
			struct jv *pj = emit_add_array(l);

			emit_add_real(pj, r->tool[i].x);
			emit_add_real(pj, r->tool[i].y);
		}
		emit_set_bool(c, "placed", r->why != R_TOOL_BLOCKED);
		if (r->blocked >= 0)
			emit_set_str(c, "blocked_by", a->objs[r->blocked].id);
		else {
			emit_set_int(j, "beyond", r->beyond);
			emit_set_pose(j, "set_down", &r->set);
		}
	}
	if (r->overlap) {
		l = emit_set_array(j, "overlaps");
		for (i = 0; i < r->noverl; i++) {
			c = emit_add_object(l);
			emit_set_str(c, "object", a->objs[r->overl[i]].id);
			emit_set_real(c, "area", r->area[i]);
		}
	}
	if (r->hit >= 0) {
		c = emit_set_object(j, "contact");
		emit_set_str(c, "object", a->objs[r->hit].id);
		emit_set_str(c, "kind", r->overlap ? "overlap" : r->flush ?
		    "flush" : "point");
		if (!r->overlap)
			emit_set_point(c, "at", r->at);
	}
	if (r->nall > 0 || r->nosnap != NULL) {
		c = emit_set_object(j, "snap");
		l = emit_set_array(c, "candidates");
		for (i = 0; i < (int)r->nall; i++) {
			const struct cand *cd = &a->cands.v[r->all + (size_t)i];
			struct jv *cj = emit_add_object(l);

			emit_set_str(cj, "object", a->objs[cd->object].id);
			emit_set_str(cj, "how", cd->how);
			emit_set_str(cj, "sense", sense_name(cd->sense));
			emit_set_real(cj, "angle", cd->angle);
			emit_set_point(cj, "pivot", cd->pivot);
			emit_set_bool(cj, "tried", cd->tried);
			emit_set_bool(cj, "made", cd->made);
			if (cd->blocked >= 0)
				emit_set_str(cj, "blocked_by",
				    a->objs[cd->blocked].id);
		}
		if (r->nosnap != NULL)
			emit_set_str(c, "none", r->nosnap);
	}
	if (r->slide != 0) {
		c = emit_set_object(j, "slide");
		emit_set_str(c, "direction", r->slide > 0 ? "right" : "left");
		emit_set_bool(c, "made", r->slid);
		if (r->slid)
			emit_set_real(c, "distance", r->slide_dist);
		else
			emit_set_str(c, "why", r->slide_why);
	}
	emit_set_bool(j, "ends_movement", r->ends);
}

static void
report_order(struct arb_turn *t, const struct order *o, struct jv *obj)
{
	struct aorder	*ao = AO(o);
	struct aunit	*au;
	struct jv	*l, *j;
	int		 k;

	if (ao->brk) {
		au = &A(t)->units[ao->target];
		emit_set_str(obj, "target", t->units.v[ao->target].id);
		if (ao->by >= 0) {
			emit_set_str(obj, "at_order", t->orders.v[ao->by].id);
			emit_set_str(obj, "at_order_player", t->players.v[
			    t->orders.v[ao->by].player].name);
		}
		l = emit_set_array(obj, "lost");
		for (k = 0; k < ao->ngone; k++)
			emit_add_str(l, au->fig[ao->gone[k]].name);
		return;
	}
	if (ao->object != NULL)
		emit_set_str(obj, "object", ao->object);
	emit_set_str(obj, "snap", sense_name(ao->snap));
	emit_set_str(obj, "slide", ao->slide == 0 ? "none" : ao->slide > 0 ?
	    "right" : "left");
	if (!ao->given)
		return;
	emit_set_int(obj, "order_points", ao->op);
	l = emit_set_array(obj, "breakaways");
	for (k = 0; k < ao->nmade; k++)
		emit_add_str(l, t->orders.v[ao->made[k]].id);
	/* Their players, in the same order: ids are unique only in a file. */
	l = emit_set_array(obj, "breakaway_players");
	for (k = 0; k < ao->nmade; k++)
		emit_add_str(l, t->players.v[
		    t->orders.v[ao->made[k]].player].name);
	/* 0 and 0 when a breakaway took its last figure. */
	emit_set_int(obj, "mp", ao->mp);
	emit_set_int(obj, "mp_left", ao->mp_left);
	if (ao->rec == NULL)
		return;
	l = emit_set_array(obj, "maneuvers");
	for (k = 0; k < ao->nm; k++) {
		j = emit_add_object(l);
		set_maneuver(t, ao, k, j);
	}
}

static void
save_unit(struct arb_turn *t, int u, struct jv *obj, bool next)
{
	struct aunit	*au = &A(t)->units[u];
	struct jv	*c, *l, *f;
	int		 k;

	c = emit_set_object(obj, "codex");
	for (k = 0; k < 4; k++)
		emit_set_int(c, dir_names[k], au->codex[k]);
	l = emit_set_array(obj, "figures");
	for (k = 0; k < au->nfig; k++) {
		if (au->fig[k].lost)
			continue;
		f = emit_add_object(l);
		emit_set_str(f, "name", au->fig[k].name);
		emit_set_int(f, "icons", au->fig[k].icons);
		if (!au->fig[k].ready || !next)
			emit_set_bool(f, "ready", au->fig[k].ready);
	}
	if (next)
		return;
	/* The result's: the movement points its ready figures give, what
	 * it has for the next turn (a player's letter says it). */
	emit_set_int(obj, "mp", mp_of(t, u));
	l = emit_set_array(obj, "lost_figures");
	for (k = 0; k < au->nfig; k++)
		if (au->fig[k].lost)
			emit_add_str(l, au->fig[k].name);
}

static void
save(struct arb_turn *t, struct jv *root)
{
	(void)t;
	(void)root;
}


/* The vectors and the map live outside the turn's arena. */
static void
release(struct arb_turn *t)
{
	struct arcane	*a = A(t);

	if (a == NULL)
		return;
	free(a->gn.v);
	free(a->wide.v);
	free(a->near.v);
	free(a->pairs.v);
	free(a->cands.v);
	free(a->made.v);
	strmap_release(&a->piece_ids);
}
const struct ruleset rules_arcane = {
	.name = "arcane-legions",
	.rulings = "2026-11-28",
	.board = BOARD_TABLE,
	.map_keys = map_keys,
	.player_res = player_res,
	.example = "move step forward 1",
	.res_resets = res_resets,
	.order_kinds = order_kinds,
	.order_keys = order_keys,
	.unit_keys = unit_keys,
	.text_heads = text_heads,
	.text_lists = text_lists,
	.init = init,
	.load = load,
	.save = save,
	.loaded = loaded,
	.begin = begin,
	.validate = validate,
	.execute = execute,
	.end = end,
	.standing = end,		/* end() decides only the breakaways */
	.load_unit = load_unit,
	.save_unit = save_unit,
	.load_order = load_order,
	.report_order = report_order,
	.footprint = base_poly,
	.man_prices = man_prices,
	.release = release
};
