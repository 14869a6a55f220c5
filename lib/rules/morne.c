/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Morne Plaine, the movement phase (rules/morne-plaine.txt, 2006
 * revision), with the readings of rules/READINGS.md.  Clauses are cited by
 * the text's headings: "morne-plaine chart" (the Movement Cost Chart),
 * "roads", "crossroads", "road-track", "stacking", "zoc", "zoc-enter",
 * "zoc-leave", "charge", "charge-effect", "charge-outcome", "leaders",
 * "demoralised", "passing" and "bombard".  Every "Ruling:" comment is also
 * in the RULINGS section of arbiter-rules(7) and has a casebook case.
 *
 * Each unit moves alone, one order after another in the order of play; a
 * unit may be given several orders in a turn and each goes on with the
 * movement points it has left.  A path is checked before the unit takes a
 * step: against the map whole, then step by step up to the first hex an
 * enemy controls, where the movement ends (morne-plaine zoc-enter); an
 * order that breaks a rule on the way there moves nothing.  Dice (the
 * marsh test, the charge's morale test) are rolled as the unit walks.
 * Every step is priced and judged in one place, price(), which the check
 * of an order and the walk hooks (--reach, "to" orders: rules.h) share.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

/* Unit classes: the type's flags hold the class and whether it is
 * mounted. */
enum { LEADER, INFANTRY, CAVALRY, ARTILLERY };
#define CLASS(f)	((f) & 0x03)
#define MOUNTED		0x04

enum { X_MA, X_MV, X_RADIUS };
enum { M_BOMBARDED, M_DEMORALISED, M_STUCK };
enum { K_MOVE, K_RETREAT };

/* What lies along a hexside, and the lines that run across it. */
#define S_STREAM	0x001
#define S_FORD		0x002
#define S_RIVER		0x004
#define S_MAJOR		0x008
#define S_BRIDGE	0x010
#define S_SLOPE		0x020
#define S_DOUBLE	0x040
#define S_TRIPLE	0x080
#define S_ROAD		0x100
#define S_TRACK		0x200
/* Hexsides across which no zone of control reaches (morne-plaine zoc). */
#define S_NOZOC		(S_STREAM | S_FORD | S_RIVER | S_MAJOR | S_DOUBLE | \
			    S_TRIPLE)

static const char *const side_names[] = {
	"stream", "ford", "river", "major_river", "bridge", "slope",
	"double_slope", "triple_slope", NULL
};

/* How a step was paid. */
enum how { H_TERRAIN, H_VILLAGE, H_ROAD, H_TRACK };
static const char *const how_names[] = {
	"terrain", "village_to_village", "road", "track"
};

/* The Movement Cost Chart: terrains in this order, classes in the order
 * leader, infantry, cavalry, artillery. */
static const char *const terrain_names[] = {
	"clear", "rough", "coppice", "orchards", "woods", "village", "marsh",
	NULL
};
enum { T_CLEAR, T_ROUGH, T_COPPICE, T_ORCHARDS, T_WOODS, T_VILLAGE,
	T_MARSH };
static const int chart[][4] = {
	{ 1, 1, 1, 1 },		/* clear */
	{ 1, 1, 2, 2 },		/* rough */
	{ 1, 1, 2, 2 },		/* coppice */
	{ 1, 1, 3, 2 },		/* orchards */
	{ 2, 2, 3, 3 },		/* woods */
	{ 2, 2, 3, 3 },		/* village; 1 from a village */
	{ 1, 1, 1, 1 }		/* marsh, and the test */
};
/* Chances out of 4 of being stuck in a marsh. */
static const int stuck_chances[4] = { 2, 1, 2, 3 };

/* The rolls of a d4 that get a unit stuck, in words: "a 1 or 2". */
static const char *
on_a(struct arb_turn *t, int n)
{
	return n <= 1 ? "a 1" : n == 2 ? "a 1 or 2" : t_printf(t, "a 1 to %d",
	    n);
}

/* A unit's movement this turn. */
struct mover {
	int		 mp;		/* movement points left */
	int		 roads;		/* road steps since the last reset */
	enum how	 last;		/* how the last step was paid */
	bool		 began;		/* it has taken a step */
	bool		 stopped;	/* it may not move again */
	enum reason	 stop;		/* why: zoc_stop or stuck */
	int		 stop_order;
	int		 stop_cell;
};

struct charge {
	int		 order;
	int		 charger, target;
	int		 from, at;	/* the charging hex, the target's */
	int		 roll;
	long		 value, morale;
	enum { HELD, RETREATED, ELIMINATED } outcome;
	int		 retreat;	/* the hex, or -1 */
	int		 mv_lost, cs_lost;
	long		 bonus;		/* the charger's CS against it */
	const char	*why;		/* of an elimination */
};

struct morne {
	int		 terr[7];	/* board terrain index per chart row */
	int		 row[256];	/* chart row per board terrain */
	uint16_t	*side;		/* ncells * 6: S_* bits */
	uint8_t		*lines;		/* per cell: S_ROAD, S_TRACK >> 8 */
	struct mover	*mv;		/* per unit */
	int		*retreat_used;	/* per order: a retreat order used */
	VEC(struct charge) charges;
};

static const char *const map_keys[] = { NULL };
static const struct ufield unit_x[] = {
	{ "ma", -1, 0, false },
	{ "mv", 0, 0, false },
	{ "radius", 0, 0, true },
	{ NULL, 0, 0, false }
};
static const char *const unit_marks[] = {
	"bombarded", "demoralised", "stuck", NULL
};
static const struct okind order_kinds[] = {
	{ "move", OK_PATH, NULL, 0 },
	{ "retreat", OK_CELL, NULL, 0 },
	{ NULL, OK_PATH, NULL, 0 }
};

static struct morne *
M(struct arb_turn *t)
{
	return t->rsdata;
}

static void
init(struct arb_turn *t)
{
	struct morne	*m = t_alloc(t, sizeof(*m));
	int		 k;

	t->rsdata = m;
	for (k = 0; terrain_names[k] != NULL; k++) {
		m->terr[k] = board_terrain(t, terrain_names[k]);
		m->row[m->terr[k]] = k;
	}
	type_add(t, "leader", 0, LEADER | MOUNTED);
	type_add(t, "infantry", 0, INFANTRY);
	type_add(t, "cavalry", 0, CAVALRY | MOUNTED);
	type_add(t, "artillery", 0, ARTILLERY);
}

static void
load(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	(void)t;
	(void)ld;
	(void)root;
}

static void
save(struct arb_turn *t, struct jv *root)
{
	(void)t;
	(void)root;
}

static unsigned
uflags(struct arb_turn *t, int u)
{
	return t->types.v[t->units.v[u].type].flags;
}

static int
uclass(struct arb_turn *t, int u)
{
	return CLASS(uflags(t, u));
}

static int
trow(struct arb_turn *t, int c)
{
	return M(t)->row[t->board.cells[c].terrain];
}

/* The side bits of the edge from a hex in direction dir. */
static unsigned
side(struct arb_turn *t, int c, int dir)
{
	return M(t)->side[(size_t)c * 6 + (size_t)dir];
}

static void
side_set(struct arb_turn *t, int a, int b, unsigned bits)
{
	int	 d = board_dir(&t->board, a, b);

	M(t)->side[(size_t)a * 6 + (size_t)d] |= bits;
	d = board_dir(&t->board, b, a);
	M(t)->side[(size_t)b * 6 + (size_t)d] |= bits;
}

/* Checks across the map: features and kinds it knows, no two units in a
 * hex, every unit's movement allowance and morale.  Each problem is
 * told and the checks go on (issue 26). */
static void
loaded(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	struct morne	*m = M(t);
	struct board	*b = &t->board;
	size_t		 i;
	int		 k, c;

	(void)root;
	m->side = t_alloc(t, (size_t)b->ncells * 6 * sizeof(*m->side));
	m->lines = t_alloc(t, (size_t)b->ncells);
	for (i = 0; i < b->sides.n; i++) {
		const char *f = b->sidefeats.v[b->sides.v[i].feature];

		for (k = 0; side_names[k] != NULL; k++)
			if (strcmp(side_names[k], f) == 0)
				break;
		if (side_names[k] == NULL) {
			ld_push(ld, "hexsides");
			ld_pushi(ld, i);
			ld_push(ld, "feature");
			ld->hint = ld_meant(ld, f, side_names, NULL);
			ld_problem(ld, "unknown hexside feature \"%.40s\"", f);
			ld_pop(ld);
			ld_pop(ld);
			ld_pop(ld);
			continue;
		}
		side_set(t, b->sides.v[i].a, b->sides.v[i].b, 1u << k);
	}
	for (i = 0; i < b->conns.n; i++) {
		static const char *const kinds[] = { "road", "track", NULL };
		const struct connection *cn = &b->conns.v[i];
		unsigned bit;

		if (strcmp(cn->kind, "road") == 0)
			bit = S_ROAD;
		else if (strcmp(cn->kind, "track") == 0)
			bit = S_TRACK;
		else {
			ld_push(ld, "connections");
			ld_pushi(ld, i);
			ld_push(ld, "kind");
			ld->hint = ld_meant(ld, cn->kind, kinds, NULL);
			ld_problem(ld, "unknown connection kind \"%.40s\": "
			    "expected road or track", cn->kind);
			ld_pop(ld);
			ld_pop(ld);
			ld_pop(ld);
			continue;
		}
		for (k = 1; k < cn->ncells; k++)
			side_set(t, cn->cells[k - 1], cn->cells[k], bit);
		for (k = 0; k < cn->ncells; k++)
			m->lines[cn->cells[k]] |= (uint8_t)(bit >> 8);
	}
	for (i = 0; i < t->units.n; i++) {
		struct unit *u = &t->units.v[i];

		ld_push(ld, "units");
		ld_pushi(ld, i);
		if (!u->has_x[X_MA])
			ld_problem(ld, "missing \"ma\": every unit needs its "
			    "movement allowance");
		if (!u->has_x[X_MV] && uclass(t, (int)i) != LEADER)
			ld_problem(ld, "missing \"mv\": every unit but a "
			    "leader needs its morale value");
		c = t->board.cells[u->at].first_unit;
		if (c != (int)i) {
			ld_push(ld, "at");
			ld_problem(ld, "%s already holds %s: no two units may "
			    "share a hex", cell_name(t, u->at),
			    t->units.v[c].id);
			ld_pop(ld);
		}
		ld_pop(ld);
		ld_pop(ld);
	}
}

static void
begin(struct arb_turn *t)
{
	struct morne	*m = M(t);
	size_t		 i;

	m->mv = t_alloc(t, t->units.n * sizeof(*m->mv));
	m->retreat_used = t_alloc(t, t->orders.n * sizeof(int));
	for (i = 0; i < t->units.n; i++)
		m->mv[i].mp = t->units.v[i].x[X_MA];
	for (i = 0; i < t->orders.n; i++)
		m->retreat_used[i] = -1;
}

/* morne-plaine demoralised: marked so, or its morale is spent. */
static bool
demoralised(struct arb_turn *t, int u)
{
	const struct unit *un = &t->units.v[u];

	return (un->marks >> M_DEMORALISED & 1) ||
	    (uclass(t, u) != LEADER && un->x[X_MV] == 0);
}

static int
occupant(struct arb_turn *t, int c)
{
	return t->board.cells[c].first_unit;
}

static bool
friends(struct arb_turn *t, int a, int b)
{
	return players_allied(t, t->units.v[a].player, t->units.v[b].player);
}

/*
 * morne-plaine zoc: does unit u control the neighbouring hex c?  Not from
 * or into village or woods, not by artillery or demoralised units, not
 * across a stream, river or double slope.
 */
static bool
controls(struct arb_turn *t, int u, int c)
{
	const struct unit *un = &t->units.v[u];
	int		 d, r;

	if (un->gone || uclass(t, u) == ARTILLERY || demoralised(t, u))
		return false;
	r = trow(t, un->at);
	if (r == T_WOODS || r == T_VILLAGE)
		return false;
	r = trow(t, c);
	if (r == T_WOODS || r == T_VILLAGE)
		return false;
	if ((d = board_dir(&t->board, un->at, c)) < 0)
		return false;
	return !(side(t, un->at, d) & S_NOZOC);
}

/* The enemies of unit u that control hex c, other than unit but; how many,
 * the first, and whether a mounted one is among them. */
struct zoc {
	int	 n, first, mounted;
	int	 moved;		/* a controller that moved this turn, or -1
				 * when one stood there since it began */
	int	 stood, nstill;	/* the first controller that stood there
				 * since the turn began, and how many did */
};

static struct zoc
enemy_zoc(struct arb_turn *t, int u, int c, int but)
{
	struct zoc	 z = { 0, -1, -1, -1, -1, 0 };
	int		 d, nb, e;
	bool		 still = false;

	for (d = 0; d < 6; d++) {
		if ((nb = board_step(&t->board, c, d)) < 0)
			continue;
		for (e = occupant(t, nb); e >= 0; e = t->units.v[e].next) {
			if (e == but || friends(t, e, u) || !controls(t, e, c))
				continue;
			z.n++;
			if (z.first < 0)
				z.first = e;
			if (z.mounted < 0 && (uflags(t, e) & MOUNTED))
				z.mounted = e;
			if (t->units.v[e].at == t->units.v[e].from) {
				still = true;
				if (z.nstill++ == 0)
					z.stood = e;
			} else if (z.moved < 0)
				z.moved = e;
		}
	}
	/* Failed, not illegal, only when every controller moved. */
	if (still)
		z.moved = -1;
	return z;
}

/* One step of a path as priced (price()): what the trace and the rulings
 * say of it. */
struct step {
	int		 from, to, dir;
	enum how	 how;
	int		 base, water, leave, cost;
	unsigned	 sd;		/* the hexside crossed */
	int		 zoc_of;	/* leaving: an enemy that controls
					 * the hex left (a mounted one if
					 * any), or -1 */
	bool		 marsh;
	int		 blocker;	/* the unit in the hex, or -1 */
	int		 target;	/* the unit it charges, or -1 */
	struct zoc	 zleave;	/* the zones of the hex left */
	struct zoc	 zexit;		/* of the hex entered, when leaving */
	struct zoc	 zenter;	/* of the hex entered */
};

/* Impassable for any step or retreat (morne-plaine chart): a river, a
 * major river without bridge or ford, two or three slopes off a track. */
static bool
impassable(unsigned s)
{
	if (s & S_RIVER)
		return true;
	if ((s & S_MAJOR) && !(s & (S_BRIDGE | S_FORD)))
		return true;
	return (s & (S_DOUBLE | S_TRIPLE)) && !(s & S_TRACK);
}

static const char *
impassable_why(unsigned s)
{
	if (s & S_RIVER)
		return "a river";
	if ((s & S_MAJOR) && !(s & (S_BRIDGE | S_FORD)))
		return "a major river without bridge or ford";
	return s & S_TRIPLE ? "a triple slope off a track" :
	    "a double slope off a track";
}

/* The status of a refusal whose cause is unit e: failed when e moved this
 * turn, so that the order would have stood at the start of it.  The order
 * that moved it is named by order_ref(), as every order a message names
 * is: another player's is not named where the map hides orders. */
/*
 * The unit a zone refusal blames (refuse()): one that moved into the zone
 * this turn when every controller did (the order failed); else the one
 * controller that stood there since the turn began, which a check may
 * find depends on its player's orders; else none.  z2, when not NULL, is
 * looked at after z for one that moved (the zone left, for a zone exit).
 */
static int
stander(const struct zoc *z, const struct zoc *z2)
{
	if (z->moved >= 0)
		return z->moved;
	if (z2 != NULL && z2->moved >= 0)
		return z2->moved;
	return z->nstill == 1 ? z->stood : -1;
}

static void
refuse(struct arb_turn *t, struct order *o, int e, enum reason r,
    const char *rule, const char *msg)
{
	const struct unit *un = e >= 0 ? &t->units.v[e] : NULL;

	if (un != NULL && un->at != un->from)
		order_rule(t, o, OS_FAILED, r, rule, "%s; %s moved there this "
		    "turn%s", msg, un->id, un->by >= 0 ? t_printf(t, " (%s)",
		    order_ref(t, o->player, un->by)) : "");
	else if (un != NULL && unit_may_move_first(t, e, o->player))
		order_depends(t, o, e, r, rule, msg);
	else
		order_rule(t, o, OS_ILLEGAL, r, rule, "%s", msg);
}

/*
 * morne-plaine charge: the step from `from` to `to` in direction dir makes
 * a charge when the unit is mounted, its order's step before went the same
 * way (prev), both hexes entered are clear, and the next hex on holds an
 * enemy not in woods or village, across an edge the charger could cross to
 * take its place.  Returns the target or -1.
 */
static int
charge_target(struct arb_turn *t, int u, int prev, int from, int to, int dir)
{
	int	 beyond, e, r;

	if (!(uflags(t, u) & MOUNTED) || prev < 0 || dir != prev)
		return -1;
	if (trow(t, from) != T_CLEAR || trow(t, to) != T_CLEAR)
		return -1;
	if ((beyond = board_step(&t->board, to, dir)) < 0)
		return -1;
	if ((e = occupant(t, beyond)) < 0 || friends(t, e, u))
		return -1;
	r = trow(t, beyond);
	if (r == T_WOODS || r == T_VILLAGE)
		return -1;
	if (impassable(side(t, to, dir)))
		return -1;
	return e;
}

/*
 * The walk of a move order (rules.h, struct wstep): what of a unit's
 * movement makes a step's price depend on more than the hexes.  Four
 * bytes, every one set.
 */
struct mstate {
	uint8_t		 odd;		/* the next road step costs 1
					 * (morne-plaine roads: 0, 1, 0, ...) */
	uint8_t		 last;		/* enum how of the last step */
	uint8_t		 began;		/* the unit has taken a step this
					 * turn: it may not leave a zone */
	int8_t		 dir;		/* this order's last direction where
					 * the next step on in it would charge
					 * (a charge needs two the same), or
					 * -1 */
};

/* The state of unit u's walk as its order's moment comes. */
static void
mstate_init(struct arb_turn *t, int u, struct mstate *ms)
{
	const struct mover *mv = &M(t)->mv[u];

	memset(ms, 0, sizeof(*ms));
	ms->odd = (uint8_t)(mv->roads % 2);
	ms->last = (uint8_t)mv->last;
	ms->began = mv->began;
	ms->dir = -1;
}

/*
 * One step of unit u from a hex to a neighbouring hex, with its walk in
 * *ms: priced and judged by every per-step rule of the movement phase,
 * in the order the check of an order applies them (stacking, roads,
 * tracks and terrain, streams, leaving a zone, entering one, a charge).
 * Fills *s (rules.h) and *st, the detail a ruling or the trace needs, and
 * moves *ms on.  It is the one place a step is priced: the check of an
 * order (check()) and the walk hooks (--reach, "to") both call it.  Pure:
 * it reads the turn and changes nothing else.  The hexside must be
 * passable (impassable()), as both callers have made sure.
 */
static void
price(struct arb_turn *t, int u, struct mstate *ms, int from, int to,
    struct wstep *s, struct step *st)
{
	struct morne	*m = M(t);
	int		 cls = uclass(t, u), r, e;
	unsigned	 sd;
	struct zoc	 z;

	memset(st, 0, sizeof(*st));
	s->cost = 0;
	s->reason = R_OK;
	s->rule = NULL;
	s->stop = s->tested = false;
	st->from = from;
	st->to = to;
	st->dir = board_dir(&t->board, from, to);
	st->zoc_of = st->blocker = st->target = -1;
	sd = st->sd = side(t, from, st->dir);
	/* morne-plaine stacking: never into or through a unit. */
	if ((e = occupant(t, to)) >= 0 && e != u) {
		st->blocker = e;
		s->reason = R_OCCUPIED;
		s->rule = "morne-plaine stacking";
		return;
	}
	/* Road, track or terrain (morne-plaine roads, road-track). */
	r = trow(t, to);
	if ((sd & S_ROAD) && (!(sd & S_TRACK) || (ms->last != H_TRACK &&
	    !(sd & (S_DOUBLE | S_TRIPLE))))) {
		st->how = H_ROAD;
		st->base = ms->odd;
		ms->odd = !ms->odd;
	} else if ((sd & S_TRACK) || ((m->lines[to] & S_TRACK >> 8) &&
	    (m->lines[from] & S_ROAD >> 8))) {
		/* Ruling: following the track, or onto it from a road
		 * hex. */
		int slopes = sd & S_TRIPLE ? 3 : sd & S_DOUBLE ? 2 :
		    sd & S_SLOPE ? 1 : 0;

		st->how = H_TRACK;
		st->base = 1 + (slopes > 1 ? slopes - 1 : 0);
		ms->odd = 1;
	} else if (r == T_VILLAGE && trow(t, from) == T_VILLAGE) {
		st->how = H_VILLAGE;
		st->base = 1;
		ms->odd = 1;
	} else {
		st->how = H_TERRAIN;
		st->base = chart[r][cls];
		st->marsh = r == T_MARSH;
		ms->odd = 1;
	}
	ms->last = (uint8_t)st->how;
	/* Streams and fords add; a bridge carries a stream. */
	st->water = (sd & S_FORD) || ((sd & S_STREAM) && !(sd & S_BRIDGE)) ?
	    1 : 0;
	/* morne-plaine zoc-leave: at the start of movement only. */
	z = enemy_zoc(t, u, from, -1);
	st->zleave = z;
	if (z.n > 0 && ms->began) {
		s->reason = R_ZOC_STOP;
		s->rule = "morne-plaine zoc-leave";
		return;
	}
	if (z.n > 0 && (cls == INFANTRY || cls == ARTILLERY ||
	    z.mounted >= 0)) {
		st->zexit = enemy_zoc(t, u, to, -1);
		if (st->zexit.n > 0) {
			s->reason = R_ZOC_EXIT;
			s->rule = "morne-plaine zoc-leave";
			return;
		}
		st->leave = 1;
	}
	st->zoc_of = z.n > 0 ? (z.mounted >= 0 ? z.mounted : z.first) : -1;
	s->cost = st->cost = st->base + st->water + st->leave;
	ms->began = 1;
	/* morne-plaine zoc-enter: movement ends at once. */
	st->zenter = enemy_zoc(t, u, to, -1);
	if (st->zenter.n > 0) {
		s->stop = true;
		s->rule = "morne-plaine zoc-enter";
	}
	/* morne-plaine charge: it ends the order, and its morale test is
	 * rolled. */
	if ((st->target = charge_target(t, u, ms->dir, from, to,
	    st->dir)) >= 0) {
		s->stop = s->tested = true;
		if (st->zenter.n == 0)
			s->rule = "morne-plaine charge";
	}
	/* The direction is kept only where the next step on in it would
	 * charge: else it is forgotten, so that walks that differ in it
	 * alone are one (a charge needs the same direction twice). */
	e = board_step(&t->board, to, st->dir);
	ms->dir = (int8_t)(e >= 0 && charge_target(t, u, st->dir, to, e,
	    st->dir) >= 0 ? st->dir : -1);
	/* The marsh test: reach does not foresee the dice. */
	if (st->marsh)
		s->tested = true;
}

/*
 * Checks a move order and works out each step's cost.  Returns the steps,
 * or NULL after ruling the order.  *nsteps is how many of them the unit
 * takes: all of them, or those up to and including the first hex an enemy
 * controls.  *cut is the enemy whose zone ends the path before its last
 * hex, or -1.  *target is the unit charged at the last step taken, or -1.
 */
static struct step *
check(struct arb_turn *t, struct order *o, int *nsteps, int *cut,
    int *target)
{
	struct morne	*m = M(t);
	int		 u = o->units[0], n = o->ncells - 1, k, total = 0;
	struct unit	*un = &t->units.v[u];
	struct mover	*mv = &m->mv[u];
	struct step	*st;
	int		*dir, cls = uclass(t, u);
	struct mstate	 ms;
	struct zoc	 z = { 0, -1, -1, -1, -1, 0 };
	const char	*msg;

	*target = -1;
	*cut = -1;
	if (n < 1) {
		order_rule(t, o, OS_ILLEGAL, R_EMPTY_PATH, "morne-plaine "
		    "movement", "the path names no hex to enter");
		return NULL;
	}
	st = t_alloc(t, (size_t)n * sizeof(*st));
	dir = t_alloc(t, (size_t)(n + 1) * sizeof(*dir));
	/* Ruling: the map alone (adjacency and impassable hexsides) is
	 * checked on the whole path as written, even past the hex where a
	 * zone of control will end it. */
	for (k = 1; k <= n; k++) {
		int from = o->cells[k - 1], to = o->cells[k];

		if ((dir[k] = board_dir(&t->board, from, to)) < 0) {
			order_rule(t, o, OS_ILLEGAL, R_NOT_ADJACENT,
			    "morne-plaine movement", "%s is not adjacent to "
			    "%s", cell_name(t, to), cell_name(t, from));
			return NULL;
		}
		if (impassable(side(t, from, dir[k]))) {
			order_rule(t, o, OS_ILLEGAL, R_IMPASSABLE,
			    "morne-plaine chart", "%s cannot cross %s from %s "
			    "to %s", un->id, impassable_why(side(t, from,
			    dir[k])), cell_name(t, from), cell_name(t, to));
			return NULL;
		}
	}
	/* The unit itself. */
	if (un->gone) {
		order_rule(t, o, OS_FAILED, R_UNIT_GONE, "morne-plaine "
		    "charge-outcome", "%s was eliminated earlier this turn",
		    un->id);
		return NULL;
	}
	if (un->marks >> M_BOMBARDED & 1) {
		order_rule(t, o, OS_ILLEGAL, R_BOMBARDED, "morne-plaine "
		    "bombard", "%s bombarded this turn and cannot move",
		    un->id);
		return NULL;
	}
	if (o->cells[0] != un->at) {
		msg = t_printf(t, "the path starts at %s but %s is at %s",
		    cell_name(t, o->cells[0]), un->id, cell_name(t, un->at));
		refuse(t, o, u, R_NOT_TOGETHER, "morne-plaine movement", msg);
		return NULL;
	}
	if (mv->stopped) {
		order_rule(t, o, OS_FAILED, mv->stop, mv->stop == R_STUCK ?
		    "morne-plaine chart" : "morne-plaine zoc-enter",
		    "%s cannot move again this turn: %s at %s (%s)",
		    un->id, mv->stop == R_STUCK ? "it is stuck in the marsh" :
		    "its movement ended in an enemy zone of control",
		    cell_name(t, mv->stop_cell),
		    order_ref(t, o->player, mv->stop_order));
		return NULL;
	}
	mstate_init(t, u, &ms);
	for (k = 1; k <= n; k++) {
		struct step	*s = &st[k - 1];
		struct wstep	 w;
		int		 e;

		price(t, u, &ms, o->cells[k - 1], o->cells[k], &w, s);
		switch (w.reason) {
		case R_OK:
			break;
		case R_OCCUPIED:
			msg = t_printf(t, "%s is occupied by %s: no unit "
			    "enters or passes through an occupied hex",
			    cell_name(t, s->to), t->units.v[s->blocker].id);
			refuse(t, o, s->blocker, R_OCCUPIED, w.rule, msg);
			return NULL;
		case R_ZOC_STOP:
			msg = t_printf(t, "%s is in the zone of control of %s "
			    "at %s and may leave one only at the start of its "
			    "movement", un->id, t->units.v[s->zleave.first].id,
			    cell_name(t, s->from));
			refuse(t, o, stander(&s->zleave, NULL), R_ZOC_STOP,
			    w.rule, msg);
			return NULL;
		case R_ZOC_EXIT:
			msg = t_printf(t, "%s may leave the zone of control of "
			    "%s only for a hex no enemy controls; %s controls "
			    "%s", un->id, t->units.v[s->zleave.mounted >= 0 &&
			    cls != INFANTRY && cls != ARTILLERY ?
			    s->zleave.mounted : s->zleave.first].id,
			    t->units.v[s->zexit.first].id,
			    cell_name(t, s->to));
			refuse(t, o, stander(&s->zexit, &s->zleave),
			    R_ZOC_EXIT, w.rule, msg);
			return NULL;
		default:
			t_fail(t, ARB_EINTERNAL, "morne-plaine: a step refused "
			    "for %s", reason_name(w.reason));
		}
		total += w.cost;
		/* morne-plaine zoc-enter: movement ends at once.  Ruling: the
		 * path is carried out up to and including the hex, and what
		 * lies beyond it is neither entered nor judged.  morne-plaine
		 * charge: it ends the order.  Ruling: where an enemy controls
		 * the charging hex, the zone ends the path there and the
		 * charge is made. */
		z = s->zenter;
		if ((e = s->target) >= 0) {
			if (k < n && z.n == 0) {
				msg = t_printf(t, "%s charges %s on entering "
				    "%s, which ends the order; the path goes "
				    "on to %s", un->id, t->units.v[e].id,
				    cell_name(t, s->to),
				    cell_name(t, o->cells[k + 1]));
				refuse(t, o, e, R_CHARGE_ENDS,
				    "morne-plaine charge", msg);
				return NULL;
			}
			*target = e;
		}
		if (z.n > 0)
			break;
	}
	*nsteps = k <= n ? k : n;
	if (*nsteps < n)
		*cut = z.first;
	if (total > mv->mp) {
		const char *why = t_printf(t, "the path costs %d MP and %s has "
		    "%d left", total, un->id, mv->mp);

		int e = n > 0 && st[0].leave > 0 ? stander(&st[0].zleave,
		    NULL) : -1;

		/* Too dear only for leaving the zone of a unit whose player
		 * acts first (a check, issue 28): it may move away. */
		if (e >= 0 && total - st[0].leave <= mv->mp &&
		    unit_may_move_first(t, e, o->player)) {
			order_depends(t, o, e, R_INSUFFICIENT_MP,
			    "morne-plaine zoc-leave", t_printf(t, "%s, 1 of "
			    "it for leaving the zone of control of %s",
			    why, t->units.v[e].id));
			return NULL;
		}
		/* Failed when earlier orders spent what it lacks. */
		order_rule(t, o, mv->began && total <= un->x[X_MA] ?
		    OS_FAILED : OS_ILLEGAL, R_INSUFFICIENT_MP,
		    "morne-plaine movement", "%s", why);
		return NULL;
	}
	return st;
}

/*
 * The walk hooks (rules.h): one unit's move, step by step, priced and
 * judged by price() as the check of an order does; the budget is the
 * movement points it has left as the order's moment comes.  A step into
 * an enemy zone, or a charge, stops the walk; a marsh or a charge is
 * marked tested (its dice are not foreseen: reach assumes the unit does
 * not get stuck, and stands on the charging hex).
 */
static long
walk_begin(struct arb_turn *t, const struct order *o, void *state,
    struct wstep *over)
{
	struct morne	*m = M(t);
	int		 u = o->units[0];
	const struct unit *un = &t->units.v[u];
	const struct mover *mv = &m->mv[u];

	over->rule = "morne-plaine movement";
	over->reason = R_OK;
	if (o->nunits != 1)
		over->reason = R_ONE_UNIT;
	else if (un->gone) {
		over->reason = R_UNIT_GONE;
		over->rule = "morne-plaine charge-outcome";
	} else if (un->marks >> M_BOMBARDED & 1) {
		over->reason = R_BOMBARDED;
		over->rule = "morne-plaine bombard";
	} else if (o->cells[0] != un->at)
		over->reason = R_NOT_TOGETHER;
	else if (mv->stopped) {
		over->reason = mv->stop;
		over->rule = mv->stop == R_STUCK ? "morne-plaine chart" :
		    "morne-plaine zoc-enter";
	}
	if (over->reason != R_OK)
		return -1;
	mstate_init(t, u, state);
	over->reason = R_INSUFFICIENT_MP;
	return mv->mp;
}

static int
walk_next(struct arb_turn *t, const struct order *o, const void *state,
    int from, int *to, int max)
{
	int	 nb[6], n = board_neighbors(&t->board, from, nb);

	(void)o;
	(void)state;
	if (n <= max)
		memcpy(to, nb, (size_t)n * sizeof(int));
	return n;
}

static void
walk_step(struct arb_turn *t, const struct order *o, void *state, int from,
    int to, struct wstep *s)
{
	struct step	 st;
	int		 d = board_dir(&t->board, from, to);

	if (d < 0 || impassable(side(t, from, d))) {
		s->reason = d < 0 ? R_NOT_ADJACENT : R_IMPASSABLE;
		s->rule = d < 0 ? "morne-plaine movement" :
		    "morne-plaine chart";
		return;
	}
	price(t, o->units[0], state, from, to, s, &st);
}

static enum reason
walk_end(struct arb_turn *t, const struct order *o, const void *state,
    int c, const char **rule)
{
	(void)t;
	(void)o;
	(void)state;
	(void)c;
	(void)rule;
	return R_OK;
}

/* Of two walks at one hex, a (no dearer) is worth as much as b: a road
 * step next costs it no more (the 0, 1 pattern: a's sums stay below b's
 * whatever follows), it came the same way as to a track (road-track),
 * it has not begun where b has (leaving a zone), and the same last
 * direction (a charge, which stops the walk, follows it). */
static bool
walk_better(const void *pa, const void *pb)
{
	const struct mstate *a = pa, *b = pb;

	return a->odd <= b->odd && (a->last == b->last ||
	    (a->last != H_TRACK && b->last != H_TRACK)) &&
	    a->began <= b->began && a->dir == b->dir;
}

static void
validate(struct arb_turn *t, struct order *o)
{
	int	 i;

	for (i = 0; i < o->nunits; i++)
		t->units.v[o->units[i]].named = true;
	if (o->nunits != 1)
		order_rule(t, o, OS_ILLEGAL, R_ONE_UNIT, o->kind == K_MOVE ?
		    "morne-plaine movement" : "morne-plaine charge-outcome",
		    "an order names one unit, not %d", o->nunits);
}

/* The hex a charged unit retreats to, or -1 (morne-plaine
 * charge-outcome). */
static bool
can_retreat(struct arb_turn *t, int target, int to)
{
	int	 at = t->units.v[target].at, d = board_dir(&t->board, at, to);

	return d >= 0 && occupant(t, to) < 0 && !impassable(side(t, at, d));
}

static int
retreat_hex(struct arb_turn *t, struct charge *ch, int *order)
{
	struct morne	*m = M(t);
	int		 at = t->units.v[ch->target].at, best = -1, bz = 0;
	int		 bd = 0, d, nb, z, dist;
	size_t		 i;
	char		 b1[32], b2[32];

	/* The charged player's own choice, where it is legal. */
	*order = -1;
	for (i = 0; i < t->sequence.n; i++) {
		struct order *o = &t->orders.v[t->sequence.v[i]];

		if (o->kind != K_RETREAT || o->status != OS_PENDING ||
		    o->nunits != 1 || o->units[0] != ch->target ||
		    m->retreat_used[t->sequence.v[i]] != -1)
			continue;	/* each retreat order serves once */
		*order = t->sequence.v[i];
		m->retreat_used[*order] = (int)(ch - m->charges.v);
		if (can_retreat(t, ch->target, o->cells[0]))
			return o->cells[0];
		break;
	}
	/* Ruling: fewest enemy zones, farthest from the charger, lowest
	 * label. */
	for (d = 0; d < 6; d++) {
		if ((nb = board_step(&t->board, at, d)) < 0 ||
		    !can_retreat(t, ch->target, nb))
			continue;
		z = enemy_zoc(t, ch->target, nb, ch->charger).n;
		dist = board_distance(&t->board, nb, ch->from);
		if (best < 0 || z < bz || (z == bz && (dist > bd ||
		    (dist == bd && strcmp(board_label(&t->board, nb, b1),
		    board_label(&t->board, best, b2)) < 0)))) {
			best = nb;
			bz = z;
			bd = dist;
		}
	}
	return best;
}

/* Takes points off a unit's morale, then off its strength. */
static void
lose_morale(struct arb_turn *t, struct charge *ch, int u, int points,
    int order)
{
	struct unit	*un = &t->units.v[u];

	ch->mv_lost = points < un->x[X_MV] ? points : un->x[X_MV];
	un->x[X_MV] -= ch->mv_lost;
	ch->cs_lost = points - ch->mv_lost;
	if (un->x[X_MV] == 0)
		un->marks |= 1u << M_DEMORALISED;
	trace_event(t, "morale", "unit", TF_STR, un->id, "lost", TF_INT,
	    (long)points, "mv_lost", TF_INT, (long)ch->mv_lost, "mv",
	    TF_INT, (long)un->x[X_MV], "cs_lost", TF_INT, (long)ch->cs_lost,
	    NULL);
	/* Ruling: a unit whose strength reaches 0 is eliminated. */
	if (ch->cs_lost > 0) {
		if (ch->cs_lost >= un->strength) {
			ch->cs_lost = un->strength;
			ch->outcome = ELIMINATED;
			ch->why = "its strength reached 0";
		}
		unit_lose(t, u, ch->cs_lost, "charge", order);
	}
}

static void
enter(struct arb_turn *t, struct order *o, int u, int c)
{
	unit_place(t, u, c);
	t->units.v[u].moved = true;
	t->units.v[u].by = (int)(o - t->orders.v);
	/* morne-plaine passing: leaders take no hexes. */
	if (uclass(t, u) != LEADER)
		owner_set(t, c, t->units.v[u].player, "passed",
		    (int)(o - t->orders.v));
}

/* morne-plaine charge-effect and charge-outcome; what happened, for the
 * order's message. */
static const char *
charge(struct arb_turn *t, struct order *o, int u, int target)
{
	struct morne	*m = M(t);
	struct unit	*cu = &t->units.v[u], *tu = &t->units.v[target];
	struct charge	*ch = VPUSH(t, m->charges);
	int		 oi = (int)(o - t->orders.v), cls = uclass(t, target);
	int		 ro, to, z;
	const char	*test;

	ch->order = oi;
	ch->charger = u;
	ch->target = target;
	ch->from = cu->at;
	ch->at = tu->at;
	ch->retreat = -1;
	ch->bonus = (long)cu->strength * 3 / 2;
	/* Leaders have no morale: CS plus command radius stands in. */
	ch->morale = cls == LEADER ? (long)tu->strength + tu->x[X_RADIUS] :
	    tu->x[X_MV];
	ch->roll = dice_roll(t, 9, t_printf(t, "charge of %s on %s: morale "
	    "test", cu->id, tu->id));
	if (ch->roll == 0) {
		/* A check that may not know the roll (arbiter-rules(7),
		 * Dice): the test is named, not taken; the check goes on as
		 * though the target held, which moves nothing. */
		ch->outcome = HELD;
		trace_event(t, "charge", "order", TF_ORDER, o, "charger",
		    TF_STR, cu->id, "target", TF_STR, tu->id, "from", TF_CELL,
		    (long)ch->from, "at", TF_CELL, (long)ch->at,
		    "cs_difference", TF_INT, (long)cu->strength - tu->strength,
		    "morale", TF_INT, ch->morale, "depends_on_dice", TF_BOOL,
		    1L, NULL);
		return t_printf(t, "; it charges %s at %s: the morale test "
		    "(d9 %+ld against morale %ld) depends on the dice, and "
		    "the check goes on as though %s held", tu->id,
		    cell_name(t, ch->at), (long)cu->strength - tu->strength,
		    ch->morale, tu->id);
	}
	ch->value = (long)ch->roll + cu->strength - tu->strength;
	trace_event(t, "charge", "order", TF_ORDER, o, "charger", TF_STR,
	    cu->id, "target", TF_STR, tu->id, "from", TF_CELL, (long)ch->from,
	    "at", TF_CELL, (long)ch->at, "roll", TF_INT, (long)ch->roll,
	    "cs_difference", TF_INT, (long)cu->strength - tu->strength,
	    "value", TF_INT, ch->value, "morale", TF_INT, ch->morale, "held", TF_BOOL, (long)(ch->value <=
	    ch->morale), NULL);
	test = t_printf(t, "; it charged %s at %s: d9 %d %+ld = %ld against "
	    "morale %ld", tu->id, cell_name(t, ch->at), ch->roll,
	    (long)cu->strength - tu->strength, ch->value, ch->morale);
	if (ch->value <= ch->morale) {
		ch->outcome = HELD;
		dice_decided(t, "%s held: %d %+ld = %ld against morale "
		    "%ld", tu->id, ch->roll, (long)cu->strength -
		    tu->strength, ch->value, ch->morale);
		return t_printf(t, "%s, %s held", test, tu->id);
	}
	dice_decided(t, "%s failed the test: %d %+ld = %ld against morale "
	    "%ld", tu->id, ch->roll, (long)cu->strength - tu->strength,
	    ch->value, ch->morale);
	if (cls == ARTILLERY) {
		ch->outcome = ELIMINATED;
		ch->why = "artillery that fails the test is eliminated";
		unit_lose(t, target, tu->strength, "charge", oi);
	} else if ((to = retreat_hex(t, ch, &ro)) < 0) {
		if (ro >= 0)	/* refused: -3 less the charge */
			m->retreat_used[ro] = -3 - (int)(ch - m->charges.v);
		ch->outcome = ELIMINATED;
		ch->why = "it could not retreat";
		unit_lose(t, target, tu->strength, "charge", oi);
	} else {
		ch->outcome = RETREATED;
		ch->retreat = to;
		if (ro >= 0 && to != t->orders.v[ro].cells[0])
			m->retreat_used[ro] = -3 - (int)(ch - m->charges.v);
		unit_place(t, target, to);
		tu->moved = true;
		z = enemy_zoc(t, target, to, u).n;
		/* chosen_by: the retreat order (with its player), or
		 * "rule". */
		if (ro >= 0 && m->retreat_used[ro] >= 0)
			trace_event(t, "retreat", "unit", TF_STR, tu->id,
			    "from", TF_CELL, (long)ch->at, "to", TF_CELL,
			    (long)to, "enemy_zoc", TF_INT, (long)z,
			    "chosen_by", TF_ORDER, &t->orders.v[ro], NULL);
		else
			trace_event(t, "retreat", "unit", TF_STR, tu->id,
			    "from", TF_CELL, (long)ch->at, "to", TF_CELL,
			    (long)to, "enemy_zoc", TF_INT, (long)z,
			    "chosen_by", TF_STR, "rule", NULL);
		if (cls != LEADER)
			lose_morale(t, ch, target, 1 + z, oi);
	}
	/* The charger takes the target's place. */
	enter(t, o, u, ch->at);
	if (ch->outcome == ELIMINATED && ch->retreat < 0)
		return t_printf(t, "%s, %s failed the test and was eliminated "
		    "(%s); %s took %s", test, tu->id, ch->why, cu->id,
		    cell_name(t, ch->at));
	return t_printf(t, "%s, %s failed the test and retreated to %s%s%s; "
	    "%s took %s", test, tu->id, cell_name(t, ch->retreat),
	    cls == LEADER ? "" : t_printf(t, " (morale -%d%s)", ch->mv_lost,
	    ch->cs_lost > 0 ? t_printf(t, ", strength -%d", ch->cs_lost) :
	    ""), ch->outcome == ELIMINATED ? t_printf(t, ", where it was "
	    "eliminated (%s)", ch->why) : "", cu->id, cell_name(t, ch->at));
}

static const char *
steps_text(struct arb_turn *t, const struct step *st, int n)
{
	const char	*s = "";
	int		 k;

	for (k = 0; k < n; k++) {
		const struct step *p = &st[k];

		/* A long path: the first steps, then how many more. */
		if (k == 12 && n > 13) {
			int more = 0;

			for (; k < n; k++)
				more += st[k].cost;
			return t_printf(t, "%s, and %d more steps for %d MP",
			    s, n - 12, more);
		}
		const char *what = p->how == H_ROAD ? "road" : p->how ==
		    H_TRACK ? "track" : t->board.terrains[
		    t->board.cells[p->to].terrain];

		s = t_printf(t, "%s%s%s %s %d%s%s", s, k ? ", " : "",
		    cell_name(t, p->to), what, p->base, !p->water ? "" :
		    p->sd & S_FORD ? "+ford 1" : "+stream 1", p->leave ?
		    "+leaving ZOC 1" : "");
	}
	return s;
}

/* The zoc event: an enemy zone of control ends unit u's movement at hex
 * c (by, a unit that controls it); left, the hexes of the order's path
 * the unit did not enter. */
static void
zoc_event(struct arb_turn *t, struct order *o, int u, int c, int by,
    int left)
{
	trace_event(t, "zoc", "order", TF_ORDER, o, "unit", TF_STR,
	    t->units.v[u].id, "at", TF_CELL, (long)c, "by", TF_STR,
	    t->units.v[by].id, "not_entered", TF_INT, (long)left, NULL);
}

static void
execute(struct arb_turn *t, struct order *o)
{
	struct morne	*m = M(t);
	struct step	*st;
	struct mover	*mv;
	struct unit	*un;
	int		 u, k, n, target, cut, cost = 0, roll;
	int		 oi = (int)(o - t->orders.v);
	bool		 stuck = false, unknown = false;
	const char	*chtext = "", *cuttext = "", *from, *to, *steps;
	const char	*dicetext = "", *stucktext = "; stuck in the marsh";
	struct zoc	 z;
	int		 last;

	/* Decided when a charge needs it, at the end of the turn (in a
	 * check too: standing()). */
	if (o->kind == K_RETREAT)
		return;
	u = o->units[0];
	un = &t->units.v[u];
	mv = &m->mv[u];
	if ((st = check(t, o, &n, &cut, &target)) == NULL)
		return;
	for (k = 0; k < n && !stuck; k++) {
		const struct step *s = &st[k];

		mv->mp -= s->cost;
		cost += s->cost;
		mv->roads = s->how == H_ROAD ? mv->roads + 1 : 1;
		mv->last = s->how;
		mv->began = true;
		trace_event(t, "step", "order", TF_ORDER, o, "unit", TF_STR,
		    un->id, "from", TF_CELL, (long)s->from, "to", TF_CELL,
		    (long)s->to, "terrain", TF_STR, t->board.terrains[
		    t->board.cells[s->to].terrain], "paid_as", TF_STR,
		    how_names[s->how], "base", TF_INT, (long)s->base,
		    "hexside", TF_INT, (long)s->water, "leave_zoc", TF_INT,
		    (long)s->leave, "zoc_of", TF_STR, s->zoc_of >= 0 ?
		    t->units.v[s->zoc_of].id : "", "cost", TF_INT, (long)s->cost, "mp_left",
		    TF_INT, (long)mv->mp, NULL);
		/* After the step's event: the hex is entered, then passed
		 * (its owner event). */
		enter(t, o, u, s->to);
		if (s->marsh) {
			roll = dice_roll(t, 4, t_printf(t, "%s enters the "
			    "marsh at %s: stuck on %s", un->id,
			    cell_name(t, s->to),
			    on_a(t, stuck_chances[uclass(t, u)])));
			stuck = roll > 0 && roll <= stuck_chances[uclass(t,
			    u)];
			if (roll > 0)
				dice_decided(t, "%s", stuck ? "stuck" :
				    "not stuck");
			/* Unknown (a check of a committed map): named, and
			 * the check goes on as though it did not stick. */
			if (roll == 0) {
				unknown = true;
				dicetext = t_printf(t, "%s%s%s", dicetext,
				    dicetext[0] != '\0' ? ", " : "",
				    cell_name(t, s->to));
			}
			if (stuck) {
				mv->stopped = true;
				mv->stop = R_STUCK;
				mv->stop_order = oi;
				mv->stop_cell = s->to;
				un->marks |= 1u << M_STUCK;
			}
		}
	}
	order_num(t, o, "cost", cost);
	order_num(t, o, "mp_left", mv->mp);
	/* Names copied now: cell_name() lends one of a few buffers. */
	from = t_strdup(t, cell_name(t, o->cells[0]));
	to = t_strdup(t, cell_name(t, o->cells[o->ncells - 1]));
	steps = steps_text(t, st, stuck ? k : n);
	/* Stuck after k steps, or cut by a zone after n. */
	if ((stuck ? k : n) < o->ncells - 1)
		o->stop = (stuck ? k : n) + 1;
	if (stuck && k < n) {
		order_rule(t, o, OS_FAILED, R_STUCK, "morne-plaine chart",
		    "%s got stuck in the marsh at %s and stops there for the "
		    "turn; it does not go on to %s (%s)", un->id,
		    cell_name(t, un->at), to, steps);
		return;
	}
	if (cut >= 0)
		cuttext = t_printf(t, "; the zone of control of %s at %s ends "
		    "the path there, and it does not go on to %s",
		    t->units.v[cut].id, cell_name(t, o->cells[n]), to);
	to = t_strdup(t, cell_name(t, o->cells[n]));
	if (dicetext[0] != '\0')
		dicetext = t_printf(t, "; whether it gets stuck in the marsh "
		    "at %s (a d4 each, stuck on %s) depends on the dice",
		    dicetext, on_a(t, stuck_chances[uclass(t, u)]));
	/* morne-plaine zoc-enter: the zone of the hex where the path ends
	 * ends the movement there, whatever comes of the stuck test, and
	 * before the charge the step makes (M12): traced as decided. */
	last = o->cells[n];
	if ((z = st[n - 1].zenter).n > 0)
		zoc_event(t, o, u, last, z.first, o->ncells - 1 - n);
	if (target >= 0 && !stuck) {
		chtext = charge(t, o, u, target);
		if (m->charges.v[m->charges.n - 1].roll == 0)
			unknown = true;
	}
	/* morne-plaine zoc-enter: whether the unit may move again is read
	 * where it stands now, after any charge (M14): the charging hex if
	 * the target held, as above, the target's if not. */
	if (!mv->stopped && (z = enemy_zoc(t, u, un->at, -1)).n > 0) {
		mv->stopped = true;
		mv->stop = R_ZOC_STOP;
		mv->stop_order = oi;
		mv->stop_cell = un->at;
		if (un->at != last)
			zoc_event(t, o, u, un->at, z.first,
			    o->ncells - 1 - n);
	}
	/* A unit stuck where an enemy controls the hex: both are said. */
	if (stuck && st[n - 1].zenter.n > 0)
		stucktext = t_printf(t, "; stuck in the marsh, in an enemy zone "
		    "of control at %s", cell_name(t, un->at));
	/* A path cut short by a zone is done, with the zone as its
	 * reason. */
	order_rule(t, o, OS_DONE, unknown ? R_DEPENDS_ON_DICE : cut >= 0 ?
	    R_ZOC_STOP : R_OK, unknown ? "arbiter-rules Dice" : cut >= 0 ?
	    "morne-plaine zoc-enter" : "morne-plaine movement",
	    "%s moved %s to %s for %d MP, %d left%s%s%s%s (%s)", un->id, from,
	    to, cost, mv->mp, dicetext, cuttext, chtext, stuck ? stucktext :
	    mv->stopped ? t_printf(t, "; in an enemy zone of control at %s, "
	    "it stops", cell_name(t, un->at)) : "", steps);
}

/* A charge on unit u whose morale test a check could not know. */
static const struct charge *
unknown_charge(struct arb_turn *t, int u)
{
	struct morne	*m = M(t);
	size_t		 k;

	for (k = 0; k < m->charges.n; k++)
		if (m->charges.v[k].target == u && m->charges.v[k].roll == 0)
			return &m->charges.v[k];
	return NULL;
}

/* A unit of another player who acts before p and whose orders a check
 * was not given, near enough to charge unit u (within its MA of a hex
 * next to u); -1: none. */
static int
may_charge(struct arb_turn *t, int u, int p)
{
	size_t	 i;

	for (i = 0; i < t->units.n; i++) {
		const struct unit *e = &t->units.v[i];

		if (e->at >= 0 && t->units.v[u].at >= 0 &&
		    unit_may_move_first(t, (int)i, p) &&
		    board_distance(&t->board, e->at, t->units.v[u].at) <=
		    e->x[X_MA] + 1)
			return (int)i;
	}
	return -1;
}

/*
 * Standing retreat orders are decided once every charge is made, in the
 * run and in a check alike (a check says what the run would say; where
 * a charge's morale test depends on the dice, so does the retreat).
 */
static void
retreats(struct arb_turn *t)
{
	struct morne	*m = M(t);
	size_t		 i, s;

	/* In the order of play, as the result lists them, so that the trace
	 * does not follow the order of the files on the command line. */
	for (s = 0; s < t->sequence.n; s++) {
		struct order *o;
		struct charge *ch;
		const struct charge *uc;
		const char *id;
		int e;

		i = (size_t)t->sequence.v[s];
		o = &t->orders.v[i];
		if (o->kind != K_RETREAT || o->status != OS_PENDING)
			continue;
		id = t->units.v[o->units[0]].id;
		if (m->retreat_used[i] == -1 && (t->flags & ARB_CHECK) &&
		    (uc = unknown_charge(t, o->units[0])) != NULL) {
			order_rule(t, o, OS_DONE, R_DEPENDS_ON_DICE,
			    "arbiter-rules Dice", "whether %s must retreat "
			    "to %s depends on the dice: the morale test of "
			    "the charge of %s (%s)", id, cell_name(t,
			    o->cells[0]), t->units.v[uc->charger].id,
			    order_ref(t, o->player, uc->order));
			continue;
		}
		/* A check (issue 28): an enemy unit whose player acts
		 * first, and whose orders the check was not given, may
		 * charge it: within its MA of the hex next to it. */
		if (m->retreat_used[i] == -1 && (t->flags & ARB_CHECK) &&
		    (e = may_charge(t, o->units[0], o->player)) >= 0) {
			order_rule(t, o, OS_DONE, R_DEPENDS_ON_ORDERS,
			    "morne-plaine charge-outcome", "%s was not made "
			    "to retreat as the orders given stand; this "
			    "depends on the orders of %s, who acts before %s: "
			    "not_charged would refuse it only if %s does not "
			    "charge it (morne-plaine charge-outcome)", id,
			    t->players.v[t->units.v[e].player].name,
			    t->players.v[o->player].name, t->units.v[e].id);
			continue;
		}
		if (m->retreat_used[i] == -1) {
			order_rule(t, o, OS_FAILED, R_NOT_CHARGED,
			    "morne-plaine charge-outcome", "%s was not made "
			    "to retreat this turn", id);
			continue;
		}
		if (m->retreat_used[i] >= 0) {
			ch = &m->charges.v[m->retreat_used[i]];
			order_rule(t, o, OS_DONE, R_OK,
			    "morne-plaine charge-outcome", "%s retreated to "
			    "%s", id, cell_name(t, ch->retreat));
			continue;
		}
		ch = &m->charges.v[-3 - m->retreat_used[i]];
		order_rule(t, o, OS_FAILED, R_RETREAT_BLOCKED,
		    "morne-plaine charge-outcome", "%s cannot retreat to %s; "
		    "%s", id, cell_name(t, o->cells[0]), ch->retreat >= 0 ?
		    t_printf(t, "the rule chose %s", cell_name(t,
		    ch->retreat)) : "it had no hex to retreat to");
	}
}

static void
end(struct arb_turn *t)
{
	size_t	 i;

	for (i = 0; i < t->units.n; i++)
		if (demoralised(t, (int)i))
			t->units.v[i].marks |= 1u << M_DEMORALISED;
	retreats(t);
}

static void
report(struct arb_turn *t, struct jv *obj)
{
	static const char *const outcomes[] = {
		"held", "retreated", "eliminated"
	};
	struct morne	*m = M(t);
	struct jv	*a = emit_set_array(obj, "charges"), *c;
	size_t		 i;

	for (i = 0; i < m->charges.n; i++) {
		const struct charge *ch = &m->charges.v[i];

		c = emit_add_object(a);
		emit_set_str(c, "order", t->orders.v[ch->order].id);
		emit_set_str(c, "order_player", t->players.v[
		    t->orders.v[ch->order].player].name);
		emit_set_str(c, "charger", t->units.v[ch->charger].id);
		emit_set_str(c, "target", t->units.v[ch->target].id);
		emit_set_str(c, "from", cell_name(t, ch->from));
		emit_set_str(c, "at", cell_name(t, ch->at));
		emit_set_int(c, "roll", ch->roll);
		emit_set_int(c, "cs_difference", ch->value - ch->roll);
		emit_set_int(c, "value", ch->value);
		emit_set_int(c, "morale", ch->morale);
		emit_set_str(c, "outcome", outcomes[ch->outcome]);
		if (ch->retreat >= 0)
			emit_set_str(c, "retreat", cell_name(t, ch->retreat));
		if (ch->outcome != HELD) {
			emit_set_int(c, "mv_lost", ch->mv_lost);
			emit_set_int(c, "cs_lost", ch->cs_lost);
			emit_set_int(c, "bonus_cs", ch->bonus);
		}
		if (ch->why != NULL)
			emit_set_str(c, "why", ch->why);
	}
}

static void
release(struct arb_turn *t)
{
	free(M(t)->charges.v);
}

const struct ruleset rules_morne = {
	.name = "morne-plaine",
	.rulings = "2026-11-28",
	.board = BOARD_HEX,
	.map_keys = map_keys,
	.unit_x = unit_x,
	.unit_marks = unit_marks,
	.marks_in = 1u << M_BOMBARDED | 1u << M_DEMORALISED,
	.marks_kept = 1u << M_DEMORALISED,
	.order_kinds = order_kinds,
	.init = init,
	.load = load,
	.save = save,
	.loaded = loaded,
	.begin = begin,
	.validate = validate,
	.execute = execute,
	.end = end,
	.standing = retreats,
	.report = report,
	.walk_size = sizeof(struct mstate),
	.walk_begin = walk_begin,
	.walk_next = walk_next,
	.walk_step = walk_step,
	.walk_end = walk_end,
	.walk_better = walk_better,
	.walk_stack = false,
	.release = release
};
