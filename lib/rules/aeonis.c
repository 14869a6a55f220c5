/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Aeonis: The Shattered Empire, movement (rules/aeonis.md), with the
 * readings of rules/READINGS.md.  Sections are cited as "aeonis N" for the
 * numbered sections 1-6 and "aeonis A1-A3" for the Advanced Options.
 * Every "Ruling:" comment below is also in the RULINGS section of
 * arbiter-rules(7) and has a casebook case.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

/* Unit type flags. */
#define MILITARY	0x01	/* exerts ZOC (aeonis 5) */
#define FLYING		0x02
#define CAVALRY		0x04
#define TRADE		0x08	/* trade units and caravans (aeonis 2) */
#define FROM_MAP	0x100	/* given or changed by the map's "types" */

enum { K_MOVE, K_ATTACK, K_TRANSLOCATE, K_REINFORCE };
enum { AP, MANA };
enum { DESERT_TURNS };
enum { DEFENSIVE_BONUS };

/*
 * A Move's walk (rules.h, struct wstep): what makes a hex's price depend
 * on more than the hex.  The group's kind is copied in, so that a step
 * need not look at its units.
 */
struct astate {
	int32_t		 left;		/* hexes it may still enter; -1: the
					 * range cannot bind (walk_begin) */
	uint8_t		 zoc_free;	/* the cavalry exemption is unused */
	uint8_t		 pair_open;	/* a plains hex waits for its partner */
	uint8_t		 fly, cav, trade;	/* all the group's units are */
	uint8_t		 pad[3];
};

/*
 * What a hex entered owes its price to the hex alone and to the group's
 * kind (aeonis 2 and 3, and the modifiers of READINGS): price_hex()
 * finds it, price_step() adds what the step itself makes of it.  The
 * walk keeps it per hex (struct amemo).
 */
enum basis { HB_TERRAIN, HB_FLYING, HB_PORTAL, HB_BRIDGE };
struct hexprice {			/* two bytes: one per hex kept */
	int8_t		 base;		/* aeonis 2 and 3: -1 to 99 */
	uint8_t		 basis : 2;	/* enum basis */
	uint8_t		 winter : 1;	/* +1 */
	uint8_t		 festival : 1;	/* -1 */
	uint8_t		 hub : 1;	/* -1 */
	uint8_t		 plains : 1, city : 1;
};

/* A hex as the walk of one search sees it (walk_begin()). */
struct amemo {
	_Atomic unsigned at;		/* 2 memo: found this search; 2 memo +
					 * 1: a thread is finding it */
	int		 zoc;		/* the unit exerting ZOC, or -1 */
	struct hexprice	 h;
	uint8_t		 entry;		/* entry_reason() on a path */
	uint8_t		 enemy : 1;	/* another player's units are in it */
	uint8_t		 portal : 1;
};

struct border {				/* a Borders motion */
	int		*cells;
	int		 ncells;
	uint64_t	 players;	/* those it binds */
	bool		 all;
};

struct aeonis {
	int		 cost[256];	/* per terrain; -1 impassable */
	bool		 house[256];	/* cost from the map's rules */
	int		 plains, forest, mountain, desert, lake, city, ruins;
	int		 portal, bridge, hub, cityf;
	bool		 winter, festival, roads, cav_plains;
	VEC(struct border) borders;
	VEC(const char *) events;
	int		*portals;	/* the portal hexes (begin()) */
	int		 nportals;
	/* The walk's memo of what a hex says to the group walking (its
	 * own part of a price, whether it may be entered, its units and its
	 * neighbours' ZOC), found once a search: walk_begin()
	 * moves the stamp on.  malloc'ed on the first search of the turn,
	 * so that a search grows nothing. */
	struct amemo		*memo_v;
	unsigned		 memo;
	const struct order	*memo_order;
	struct astate		 memo_group;	/* walk_init()'s state */
	bool			 memo_claim;	/* two threads fill it: each
						 * claims an entry first
						 * (walk_look) */
	/* Per unit, what a zone of control asks of it, in a byte: its
	 * player (players and types never change in a turn), and
	 * UK_MILITARY.  begin() finds them, so that the search reads a
	 * hex's units without their records (tests/bench/reach). */
	uint8_t			*ukind;
	size_t			 nukind;
};

#define UK_PLAYER	0x3f	/* MAXPLAYERS is 64 */
#define UK_MILITARY	0x80

static const char *const map_keys[] = {
	"events", "motions", "rules", "types", NULL
};
static const char *const player_res[] = { "ap", "mana", NULL };
static const bool res_resets[] = { true, false };
static const struct ufield unit_x[] = {
	{ "desert_turns", 0, 0, true },
	{ NULL, 0, 0, false }
};
static const char *const unit_marks[] = { "defensive_bonus", NULL };
static const struct okind order_kinds[] = {
	{ "move", OK_PATH, NULL, 0 },
	{ "attack", OK_CELL, NULL, 0 },
	{ "translocate", OK_CELL, NULL, 1 },	/* aeonis 4 */
	{ "reinforce", OK_CELL, NULL, 2 },	/* aeonis A3 */
	{ NULL, OK_PATH, NULL, 0 }
};

static struct aeonis *
A(struct arb_turn *t)
{
	return t->rsdata;
}

static void
init(struct arb_turn *t)
{
	struct aeonis	*a = t_alloc(t, sizeof(*a));

	t->rsdata = a;
	/* aeonis 2: the terrain table; the first is the board's default. */
	a->plains = board_terrain(t, "plains");
	a->forest = board_terrain(t, "forest");
	a->mountain = board_terrain(t, "mountain");
	a->desert = board_terrain(t, "desert");
	a->lake = board_terrain(t, "lake");
	a->city = board_terrain(t, "city");
	/* Ruling: ruins cost 1 AP; the text gives no cost. */
	a->ruins = board_terrain(t, "ruins");
	a->cost[a->plains] = 1;
	a->cost[a->forest] = 1;
	a->cost[a->mountain] = 2;
	a->cost[a->desert] = 2;
	a->cost[a->lake] = -1;
	a->cost[a->city] = 1;
	a->cost[a->ruins] = 1;
	a->portal = board_feature(t, "portal");
	a->bridge = board_feature(t, "bridge");
	a->hub = board_feature(t, "trade_hub");
	a->cityf = board_feature(t, "city");
	a->cav_plains = true;
	/* aeonis 3: the unit table.  Lords' range is on the Lord Sheet:
	 * a unit's own "range" gives it; 1 when it does not. */
	type_add(t, "infantry", 1, MILITARY);
	type_add(t, "cavalry", 2, MILITARY | CAVALRY);
	type_add(t, "archers", 1, MILITARY);
	type_add(t, "lord", 1, MILITARY);
	type_add(t, "caravan", 1, TRADE);
}

/* One type of the map's "types" (its name pushed). */
static void
load_type(struct ld *ld, void *arg)
{
	static const char *const keys[] = {
		"range", "military", "flying", "cavalry", "trade", NULL
	};
	static const unsigned bits[] = { MILITARY, FLYING, CAVALRY, TRADE };
	struct arb_turn	*t = ld->owner;
	const char	*name = ((const char *const *)arg)[0];
	const struct jv	*v = ((const void *const *)arg)[1];
	struct utype	*ty = type_find(t, name);
	unsigned	 flags = ty != NULL ? ty->flags : 0;
	int		 range = ty != NULL ? ty->range : 1, k;

	if (!ld_is_object(v))
		ld_fail(ld, "bad type: expected an object");
	ld_keys(ld, v, keys, NULL);
	range = (int)ld_int(ld, v, "range", range, 0, INT_MAX);
	for (k = 0; k < 4; k++) {
		if (ld_get(v, keys[k + 1]) == NULL)
			continue;
		if (ld_bool(ld, v, keys[k + 1], false))
			flags |= bits[k];
		else
			flags &= ~bits[k];
	}
	type_add(t, name, range, flags | FROM_MAP);
}

/* Each type on its own (issue 26): one that cannot be read is still a
 * type, so that its units say nothing more. */
static void
load_types(struct arb_turn *t, struct ld *ld, const struct jv *types)
{
	const char	*name;
	const struct jv	*v;
	const void	*arg[2];
	void		*it = ld_iter(types);

	ld_push(ld, "types");
	if (!ld_is_object(types))
		ld_fail(ld, "bad types: expected an object");
	while (ld_next(types, &it, &name, &v)) {
		ld_push(ld, name);
		arg[0] = name;
		arg[1] = v;
		if (!ld_try(ld, load_type, arg) && type_find(t, name) == NULL)
			type_add(t, name, 1, FROM_MAP);
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_rules(struct arb_turn *t, struct ld *ld, const struct jv *rules)
{
	static const char *const keys[] = {
		"cavalry_plains", "terrain_cost", NULL
	};
	struct aeonis	*a = A(t);
	const struct jv	*tc, *v;
	const char	*name;
	void		*it;

	ld_push(ld, "rules");
	if (!ld_is_object(rules))
		ld_fail(ld, "bad rules: expected an object");
	ld_keys(ld, rules, keys, NULL);
	a->cav_plains = ld_bool(ld, rules, "cavalry_plains", true);
	if ((tc = ld_get(rules, "terrain_cost")) != NULL) {
		ld_push(ld, "terrain_cost");
		if (!ld_is_object(tc))
			ld_fail(ld, "bad terrain_cost: expected an object");
		it = ld_iter(tc);
		while (ld_next(tc, &it, &name, &v)) {
			int	 tr = board_terrain(t, name);

			a->cost[tr] = (int)ld_int(ld, tc, name, 1, -1, 99);
			a->house[tr] = true;
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

static void
load_event(struct ld *ld, void *arg)
{
	static const char *const events[] = {
		"winters_grip", "festival_of_winds", NULL
	};
	struct arb_turn	*t = ld->owner;
	struct aeonis	*a = A(t);
	const char	*s = ld_strv(ld, arg);

	if (strcmp(s, "winters_grip") == 0)
		a->winter = true;
	else if (strcmp(s, "festival_of_winds") == 0)
		a->festival = true;
	else {
		ld->hint = ld_meant(ld, s, events, NULL);
		ld_fail(ld, "unknown event \"%.40s\"", s);
	}
	*VPUSH(t, a->events) = s;
}

static void
load_motion(struct ld *ld, void *arg)
{
	static const char *const mkeys[] = { "kind", "cells", "players",
	    NULL };
	static const char *const kinds[] = { "road_networks", "borders",
	    NULL };
	struct arb_turn	*t = ld->owner;
	struct aeonis	*a = A(t);
	const struct jv	*m = arg, *c;
	const char	*s;
	size_t		 j;

	if (!ld_is_object(m))
		ld_fail(ld, "bad motion: expected an object");
	ld_keys(ld, m, mkeys, NULL);
	s = ld_str(ld, m, "kind", NULL);
	if (strcmp(s, "road_networks") == 0) {
		if (ld_get(m, "cells") != NULL || ld_get(m, "players") != NULL)
			ld_fail(ld, "road_networks takes no cells or players");
		a->roads = true;
	} else if (strcmp(s, "borders") == 0) {
		struct border	 bv, *b = &bv;	/* kept once whole */

		memset(&bv, 0, sizeof(bv));
		if ((c = ld_get(m, "cells")) == NULL)
			ld_fail(ld, "missing \"cells\"");
		ld_push(ld, "cells");
		b->ncells = (int)ld_len(ld, c);
		b->cells = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		for (j = 0; j < (size_t)b->ncells; j++) {
			ld_pushi(ld, j);
			b->cells[j] = ld_cellv(ld, ld_at(c, j));
			ld_pop(ld);
		}
		ld_pop(ld);
		b->all = (c = ld_get(m, "players")) == NULL;
		if (!b->all) {
			ld_push(ld, "players");
			for (j = 0; j < ld_len(ld, c); j++) {
				ld_pushi(ld, j);
				b->players |= (uint64_t)1 <<
				    ld_playerv(ld, ld_at(c, j));
				ld_pop(ld);
			}
			ld_pop(ld);
		}
		*VPUSH(t, a->borders) = bv;
	} else {
		ld_push(ld, "kind");
		ld->hint = ld_meant(ld, s, kinds, NULL);
		ld_fail(ld, "unknown motion \"%.40s\"", s);
	}
}

/* The events and motions, each on its own (issue 26). */
static void
load_effects(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*l;
	size_t		 i;

	(void)t;
	if ((l = ld_get(root, "events")) != NULL) {
		ld_push(ld, "events");
		for (i = 0; i < ld_len(ld, l); i++) {
			ld_pushi(ld, i);
			ld_try(ld, load_event, (void *)ld_at(l, i));
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	if ((l = ld_get(root, "motions")) == NULL)
		return;
	ld_push(ld, "motions");
	for (i = 0; i < ld_len(ld, l); i++) {
		ld_pushi(ld, i);
		ld_try(ld, load_motion, (void *)ld_at(l, i));
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* The map's aeonis parts: the board's shape is known, its terrain not. */
static void
load(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*v;

	if ((v = ld_get(root, "rules")) != NULL)
		load_rules(t, ld, v);
	if ((v = ld_get(root, "types")) != NULL)
		load_types(t, ld, v);
	load_effects(t, ld, root);
}

static bool
is_city(struct arb_turn *t, int c)
{
	return t->board.cells[c].terrain == A(t)->city ||
	    board_has(&t->board, c, A(t)->cityf);
}

static bool
is_portal(struct arb_turn *t, int c)
{
	return board_has(&t->board, c, A(t)->portal);
}

/* Neighbours on the hex board: one hex apart (no neighbour list made). */
static bool
adjacent(struct arb_turn *t, int a, int b)
{
	return board_distance(&t->board, a, b) == 1;
}

static unsigned
tflags(struct arb_turn *t, int u)
{
	return t->types.v[t->units.v[u].type].flags;
}

/* Group properties: all of its units have flag, or any of them. */
static bool
all_have(struct arb_turn *t, const struct order *o, unsigned flag)
{
	int	 i;

	for (i = 0; i < o->nunits; i++)
		if (!(tflags(t, o->units[i]) & flag))
			return false;
	return true;
}

static bool
any_has(struct arb_turn *t, const struct order *o, unsigned flag)
{
	int	 i;

	for (i = 0; i < o->nunits; i++)
		if (tflags(t, o->units[i]) & flag)
			return true;
	return false;
}

/* The first unit in cell c of a player other than p, allied or not
 * (arbiter-rules(7), Other players' hexes), with flag if not 0; or -1. */
static int
enemy_in(struct arb_turn *t, int c, int p, unsigned flag)
{
	const struct cell *x = &t->board.cells[c];
	const uint8_t	*k = A(t)->ukind;	/* begin()'s */
	int		 u;

	for (u = x->first_unit; u >= 0; u = u == x->last_unit ? -1 :
	    t->units.v[u].next)
		if ((k[u] & UK_PLAYER) != p && (flag == 0 ||
		    (tflags(t, u) & flag)))
			return u;
	return -1;
}

/* The units' kinds (ukind): the units are all loaded by now. */
static void
unit_kinds(struct arb_turn *t)
{
	struct aeonis	*a = A(t);
	size_t		 u;

	if (a->ukind != NULL && a->nukind == t->units.n)
		return;
	a->ukind = t_alloc(t, t->units.n + 1);
	a->nukind = t->units.n;
	for (u = 0; u < t->units.n; u++)
		a->ukind[u] = (uint8_t)(t->units.v[u].player & UK_PLAYER) |
		    (tflags(t, (int)u) & MILITARY ? UK_MILITARY : 0);
}

/* The first enemy military unit next to c (aeonis 5), or -1. */
static int
zoc_from(struct arb_turn *t, int c, int p)
{
	const uint8_t	*k = A(t)->ukind;
	int		 nb[6], i, n = board_neighbors(&t->board, c, nb), u;
	int		 any = 0;

	/* Most hexes have no units about them: one test says so. */
	for (i = 0; i < n; i++)
		any |= ~t->board.cells[nb[i]].first_unit;	/* -1: none */
	if (any == 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct cell *x = &t->board.cells[nb[i]];

		/* The last of a hex's units ends its list: most hexes
		 * hold one, whose record is then not read. */
		for (u = x->first_unit; u >= 0; u = u == x->last_unit ? -1 :
		    t->units.v[u].next)
			if ((k[u] & UK_MILITARY) &&
			    !players_allied(t, k[u] & UK_PLAYER, p))
				return u;
	}
	return -1;
}

/*
 * zoc_from() with only the units a check knows to stand where they do
 * when player p's order comes (issue 28): those of which
 * unit_may_move_first() holds are left out.  *dep has the first of them
 * that exerts a zone on c, or -1.
 */
static int
zoc_known(struct arb_turn *t, int c, int p, int *dep)
{
	const uint8_t	*k = A(t)->ukind;
	int		 nb[6], i, n = board_neighbors(&t->board, c, nb), u;

	*dep = -1;
	for (i = 0; i < n; i++)
		for (u = t->board.cells[nb[i]].first_unit; u >= 0;
		    u = t->units.v[u].next) {
			if (!(k[u] & UK_MILITARY) ||
			    players_allied(t, k[u] & UK_PLAYER, p))
				continue;
			if (!unit_may_move_first(t, u, p))
				return u;
			if (*dep < 0)
				*dep = u;
		}
	return -1;
}

static bool
barred(struct arb_turn *t, int c, int p)
{
	struct aeonis	*a = A(t);
	size_t		 i;
	int		 k;

	for (i = 0; i < a->borders.n; i++) {
		struct border *b = &a->borders.v[i];

		if (!b->all && !(b->players >> p & 1))
			continue;
		for (k = 0; k < b->ncells; k++)
			if (b->cells[k] == c)
				return true;
	}
	return false;
}

/* Portal control (READINGS): whoever holds a portal as the turn begins. */
static void
begin(struct arb_turn *t)
{
	struct aeonis	*a = A(t);
	int		 c, u, p;

	unit_kinds(t);
	for (c = 0, a->nportals = 0; c < t->board.ncells; c++)
		a->nportals += is_portal(t, c);
	a->portals = t_alloc(t, (size_t)a->nportals * sizeof(int) + 1);
	for (c = 0, a->nportals = 0; c < t->board.ncells; c++) {
		if (is_portal(t, c))
			a->portals[a->nportals++] = c;
		if (!is_portal(t, c) || t->board.cells[c].first_unit < 0)
			continue;
		p = t->units.v[t->board.cells[c].first_unit].player;
		for (u = t->board.cells[c].first_unit; u >= 0;
		    u = t->units.v[u].next)
			if (t->units.v[u].player != p)
				break;
		if (u < 0)
			owner_set(t, c, p, "portal_held", -1);
	}
}

/*
 * Ruling: a failure waits until every rule check of the order is made: an
 * order that breaks a rule is illegal whatever the earlier orders did
 * (arbiter-rules(7)), so the rule's reason must win over a failure that an
 * earlier order caused, wherever in the order each is found.  Only the
 * first failure is kept; validate() rules it if no check found the order
 * illegal.
 */
struct later {
	enum reason	 reason;
	const char	*rule;
	const char	*msg;		/* NULL: nothing has failed */
	/* A check's refusal that another player's orders may undo (issue
	 * 28): ruled depends_on_orders when nothing else is found. */
	int		 dep_unit;	/* -1: none */
	enum reason	 dep_reason;
	const char	*dep_rule;
	const char	*dep_msg;
};

static void
fail_later(struct arb_turn *t, struct later *l, enum reason reason,
    const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
fail_later(struct arb_turn *t, struct later *l, enum reason reason,
    const char *rule, const char *fmt, ...)
{
	va_list	 ap;

	if (l->msg != NULL)
		return;
	va_start(ap, fmt);
	l->msg = t_vprintf(t, fmt, ap);
	va_end(ap);
	l->reason = reason;
	l->rule = rule;
}

/* The order's units in the map's order, so that no ruling depends on
 * the order in which the order lists them. */
static int *
group_sorted(struct arb_turn *t, const struct order *o)
{
	int	*v = t_alloc(t, (size_t)o->nunits * sizeof(int) + 1);
	int	 i, k, u;

	for (i = 0; i < o->nunits; i++) {
		u = o->units[i];
		for (k = i; k > 0 && v[k - 1] > u; k--)
			v[k] = v[k - 1];
		v[k] = u;
	}
	return v;
}

/*
 * Could c be the group's hex?  Every unit stands there, or stood there as
 * the turn began and an earlier order moved it away.
 */
static bool
group_fits(struct arb_turn *t, const int *v, int n, int c)
{
	int	 i;

	for (i = 0; i < n; i++) {
		const struct unit *u = &t->units.v[v[i]];

		if (!u->gone && u->at != c && !(u->by >= 0 && u->from == c))
			return false;
	}
	return true;
}

/*
 * The hex of a group that an order other than a move commits: where its
 * units stand together; else the lowest-numbered hex it fits (they stood
 * there together as the turn began, and an earlier order moved some
 * away); else, for the message of an illegal order, the hex where most of
 * them stand (*fits false).  Ruling: the listing order plays no part.
 */
static int
group_home(struct arb_turn *t, const int *v, int n, bool *fits)
{
	int	 i, k, c, best = -1, most = 0;

	*fits = true;
	for (i = 0, c = -1; i < n; i++) {
		const struct unit *u = &t->units.v[v[i]];

		if (u->gone)
			continue;
		if (c >= 0 && u->at != c)
			break;
		c = u->at;
	}
	if (i == n)
		return c >= 0 ? c : t->units.v[v[0]].at;
	for (i = 0; i < 2 * n; i++) {
		const struct unit *u = &t->units.v[v[i / 2]];

		c = i % 2 == 0 ? u->at : u->from;
		if (!u->gone && (best < 0 || c < best) &&
		    group_fits(t, v, n, c))
			best = c;
	}
	if (best >= 0)
		return best;
	*fits = false;
	for (i = 0; i < n; i++) {
		int	 here = 0;

		c = t->units.v[v[i]].at;
		for (k = 0; k < n; k++)
			if (!t->units.v[v[k]].gone && t->units.v[v[k]].at == c)
				here++;
		if (here > most || (here == most && c < best)) {
			most = here;
			best = c;
		}
	}
	return best;
}

/*
 * Are the order's units still there, together in one cell?  want is a
 * move's first hex, or -1 for the hex the group shares (group_home()).
 * Returns the cell, or -1 after ruling the order illegal when it was wrong
 * from the start.  When an earlier order moved a unit away, the failure
 * waits in l and the cell is returned, so that the rule checks go on.
 */
static int
group_cell(struct arb_turn *t, struct order *o, int want, struct later *l)
{
	const int	*v = group_sorted(t, o);
	int		 i, n = o->nunits, c = want;
	bool		 fits = true;

	if (c < 0)
		c = group_home(t, v, n, &fits);
	for (i = 0; i < n; i++) {
		struct unit *u = &t->units.v[v[i]];

		if (u->gone) {
			fail_later(t, l, R_UNIT_GONE, "aeonis 1",
			    "unit %s was eliminated", u->id);
			continue;
		}
		if (u->at == c)
			continue;
		/* Failed only if the unit stood in the group's hex as
		 * the turn began and an earlier order took it away. */
		if (fits && u->by >= 0 && u->from == c) {
			fail_later(t, l, R_NOT_TOGETHER, "aeonis 1",
			    "unit %s is at %s (moved by %s), not at %s",
			    u->id, cell_name(t, u->at),
			    order_ref(t, o->player, u->by), cell_name(t, c));
			continue;
		}
		order_rule(t, o, OS_ILLEGAL, R_NOT_TOGETHER, "aeonis 1",
		    "unit %s is at %s, not at %s: a group is units stacked "
		    "in one hex", u->id, cell_name(t, u->at),
		    cell_name(t, c));
		return -1;
	}
	return c;
}

/*
 * Can the group end up in c?  Enemy units bar it (READINGS: entering them
 * is an Attack); illegal when they stood there from the start, returning
 * false.  When an earlier order brought them, the failure waits in l.
 */
static bool
enterable(struct arb_turn *t, struct order *o, int c, struct later *l)
{
	/* The message names the order's kind: a translocation or a
	 * reinforcement cannot go there either. */
	static const char *const what[] = {
		"move", "attack", "translocation", "reinforcement"
	};
	int	 u = enemy_in(t, c, o->player, 0), v, w;

	if (u < 0)
		return true;
	/* Illegal if any of them stood there from the start, unless a
	 * check cannot know that they still do (issue 28): each is of a
	 * player who acts first, whose orders the check was not given. */
	for (v = u, w = -1; v >= 0; v = t->units.v[v].next)
		if (t->units.v[v].player != o->player &&
		    t->units.v[v].by < 0) {
			if (!unit_may_move_first(t, v, o->player)) {
				u = v;
				w = -1;
				break;
			}
			if (w < 0)
				w = v;
		}
	if (w >= 0)
		u = w;
	if (t->units.v[u].by >= 0) {
		fail_later(t, l, R_ENEMY_OCCUPIED, "aeonis 1",
		    "%s's %s holds %s (moved there by %s); a %s "
		    "cannot enter another player's hex", t->players.v[
		    t->units.v[u].player].name, t->units.v[u].id,
		    cell_name(t, c), order_ref(t, o->player,
		    t->units.v[u].by), what[o->kind]);
		return true;
	}
	if (w >= 0) {
		/* Every unit there may leave first: unless one that an
		 * earlier order brought stays (failed), it depends. */
		for (v = t->board.cells[c].first_unit; v >= 0;
		    v = t->units.v[v].next)
			if (t->units.v[v].player != o->player &&
			    t->units.v[v].by >= 0)
				fail_later(t, l, R_ENEMY_OCCUPIED,
				    "aeonis 1", "%s's %s holds %s (moved "
				    "there by %s); a %s cannot enter another "
				    "player's hex", t->players.v[
				    t->units.v[v].player].name,
				    t->units.v[v].id, cell_name(t, c),
				    order_ref(t, o->player, t->units.v[v].by),
				    what[o->kind]);
		if (l->dep_unit < 0) {
			l->dep_unit = w;
			l->dep_reason = R_ENEMY_OCCUPIED;
			l->dep_rule = "aeonis 1";
			l->dep_msg = t_printf(t, "%s's %s holds %s; a %s "
			    "cannot enter another player's hex (against an "
			    "enemy, that is an attack)",
			    t->players.v[t->units.v[w].player].name,
			    t->units.v[w].id, cell_name(t, c),
			    what[o->kind]);
		}
		return true;
	}
	order_rule(t, o, OS_ILLEGAL, R_ENEMY_OCCUPIED, "aeonis 1",
	    "%s's %s holds %s; a %s cannot enter another player's hex "
	    "(against an enemy, that is an attack)",
	    t->players.v[t->units.v[u].player].name, t->units.v[u].id,
	    cell_name(t, c), what[o->kind]);
	return false;
}

/*
 * May the group go into c (along a move's path, or not)?  The Borders
 * motion and the terrain: R_OK, or why not with the clause.  Pure: the
 * walk (walk_step) and the validation both ask it.
 */
static enum reason
entry_reason(struct arb_turn *t, const struct order *o, int c, bool fly,
    bool path, const char **rule)
{
	struct aeonis	*a = A(t);
	int		 tr = t->board.cells[c].terrain;

	/* aeonis 6: a Borders motion forbids entry. */
	if (barred(t, c, o->player)) {
		*rule = "aeonis 6";
		return R_BORDERS;
	}
	/* aeonis 2 and A1: lakes only with a bridge; flyers cross them
	 * (aeonis 3) on a move's path.  Ruling: a hop is part of the path,
	 * so a flying group may hop into a portal on a lake and fly on; it
	 * may not end its move there (lake_end). */
	if (a->cost[tr] < 0 && !(tr == a->lake && board_has(&t->board, c,
	    a->bridge)) && !(fly && path)) {
		*rule = tr == a->lake ? "aeonis 2" : "aeonis 2 (house rule)";
		return R_IMPASSABLE;
	}
	return R_OK;
}

/*
 * Checks that concern any hex a group goes to, along a move's path or
 * not: false after ruling the order illegal.
 */
static bool
destination_ok(struct arb_turn *t, struct order *o, int c, bool path,
    struct later *l)
{
	struct aeonis	*a = A(t);
	int		 tr = t->board.cells[c].terrain;
	const char	*rule = NULL;

	switch (entry_reason(t, o, c, all_have(t, o, FLYING), path, &rule)) {
	case R_BORDERS:
		order_rule(t, o, OS_ILLEGAL, R_BORDERS, rule,
		    "a Borders motion forbids entry to %s", cell_name(t, c));
		return false;
	case R_IMPASSABLE:
		order_rule(t, o, OS_ILLEGAL, R_IMPASSABLE, rule,
		    "%s is %s, impassable%s", cell_name(t, c),
		    t->board.terrains[tr], tr == a->lake ?
		    " without a bridge" : "");
		return false;
	default:
		break;
	}
	return enterable(t, o, c, l);
}

/* aeonis 1: the group's Movement Range, its lowest; *slow has it. */
static int
group_range(struct arb_turn *t, const struct order *o, int *slow)
{
	int	 i, range = INT_MAX;

	for (i = 0; i < o->nunits; i++) {
		int r = unit_range(t, &t->units.v[o->units[i]]);

		if (r < range) {
			range = r;
			*slow = o->units[i];
		}
	}
	return range;
}

/*
 * The step from `from` to `to` as a step or a hop (adj: the hexes are
 * adjacent): R_OK, or why it is refused (with the clause), the hex
 * entered aside (entry_reason()).  Pure.
 */
static inline enum reason
hop_reason(struct arb_turn *t, const struct order *o, int from, int to,
    bool adj, const char **rule, bool *hopp)
{
	bool	 hop;
	int	 owner;

	/* Ruling: a path does not stay in a hex; in particular a hop goes
	 * to another portal (aeonis 4: "between Portals"), never to the one
	 * the group is in. */
	if (from == to) {
		*rule = is_portal(t, from) ? "aeonis 4" : "aeonis 1";
		return R_NOT_ADJACENT;
	}
	hop = *hopp = !adj;
	if (hop && !(is_portal(t, from) && is_portal(t, to))) {
		*rule = "aeonis 1";
		return R_NOT_ADJACENT;
	}
	/* aeonis 4: a hop goes to a portal neutral, own, or by treaty. */
	owner = t->board.cells[to].owner;
	if (hop && owner >= 0 && !players_allied(t, owner, o->player)) {
		*rule = "aeonis 4";
		return R_PORTAL_DENIED;
	}
	return R_OK;
}

/*
 * The step from `from` to `to`, a neighbour or a portal hop: R_OK, or
 * why it is refused (with the clause), the hexes entered aside.  Pure.
 */
static enum reason
step_reason(struct arb_turn *t, const struct order *o, int from, int to,
    bool fly, const char **rule, bool *hopp)
{
	enum reason	 r = hop_reason(t, o, from, to, adjacent(t, from, to),
			    rule, hopp);

	return r != R_OK ? r : entry_reason(t, o, to, fly, true, rule);
}

/*
 * READINGS: flyers cross lakes but do not end a move on one; nor on a
 * terrain the map's cost table makes impassable.  Pure.
 */
static enum reason
end_reason(struct arb_turn *t, int c, const char **rule)
{
	struct aeonis	*a = A(t);
	int		 tr = t->board.cells[c].terrain;

	if (tr == a->lake && a->cost[tr] < 0 &&
	    !board_has(&t->board, c, a->bridge)) {
		*rule = "aeonis 3";
		return R_LAKE_END;
	}
	if (tr != a->lake && a->cost[tr] < 0) {
		*rule = "aeonis 3 (house rule)";
		return R_IMPASSABLE;
	}
	return R_OK;
}

static void
validate_move(struct arb_turn *t, struct order *o, struct later *l)
{
	int		 i, tr, range, slow = -1, n = o->ncells;
	const char	*rule = NULL;
	bool		 fly = all_have(t, o, FLYING), hop;

	if (group_cell(t, o, o->cells[0], l) < 0)
		return;
	if (n == 1) {
		order_rule(t, o, OS_ILLEGAL, R_EMPTY_PATH, "aeonis 1",
		    "the path enters no hex");
		return;
	}
	/* aeonis 1: at most the lowest Movement Range in hexes entered;
	 * a portal hop counts as one (READINGS). */
	range = group_range(t, o, &slow);
	if (n - 1 > range) {
		order_rule(t, o, OS_ILLEGAL, R_OUT_OF_RANGE, "aeonis 1",
		    "the path enters %d hexes; %s's Movement Range allows "
		    "%d", n - 1, t->units.v[slow].id, range);
		return;
	}
	for (i = 1; i < n; i++) {
		int	 from = o->cells[i - 1], to = o->cells[i];

		switch (step_reason(t, o, from, to, fly, &rule, &hop)) {
		case R_NOT_ADJACENT:
			if (from == to)
				order_rule(t, o, OS_ILLEGAL, R_NOT_ADJACENT,
				    rule, "%s to %s is not a step: a step "
				    "goes to an adjacent hex, and a hop to "
				    "another portal", cell_name(t, from),
				    cell_name(t, to));
			else
				order_rule(t, o, OS_ILLEGAL, R_NOT_ADJACENT,
				    rule, "%s to %s is not a step: the hexes "
				    "are not adjacent, nor both portals",
				    cell_name(t, from), cell_name(t, to));
			return;
		case R_PORTAL_DENIED:
			order_rule(t, o, OS_ILLEGAL, R_PORTAL_DENIED, rule,
			    "the portal at %s is %s's, and no treaty opens it",
			    cell_name(t, to), t->players.v[
			    t->board.cells[to].owner].name);
			return;
		default:
			break;
		}
		/* The Borders and the terrain, said as for any hex; then
		 * the enemy (enterable(): illegal or failed). */
		if (!destination_ok(t, o, to, true, l))
			return;
	}
	i = o->cells[n - 1];
	tr = t->board.cells[i].terrain;
	switch (end_reason(t, i, &rule)) {
	case R_LAKE_END:
		order_rule(t, o, OS_ILLEGAL, R_LAKE_END, rule,
		    "flying units may cross the lake at %s but not end a "
		    "move on it", cell_name(t, i));
		return;
	case R_IMPASSABLE:
		order_rule(t, o, OS_ILLEGAL, R_IMPASSABLE, rule,
		    "flying units may cross the %s at %s but not end a move "
		    "on it", t->board.terrains[tr], cell_name(t, i));
		return;
	default:
		break;
	}
}

/* The rule checks of every kind but the move; see validate(). */
static void
validate_other(struct arb_turn *t, struct order *o, struct later *l)
{
	struct player	*pl = &t->players.v[o->player];
	int		 at, target = o->cells[0], i, u;

	switch (o->kind) {
	case K_ATTACK:
		/* aeonis 1, combat: adjacent, into a hex with enemies. */
		if ((at = group_cell(t, o, -1, l)) < 0)
			return;
		if (!board_is_adjacent(&t->board, at, target)) {
			order_rule(t, o, OS_ILLEGAL, R_TARGET_NOT_ADJACENT,
			    "aeonis 1", "%s is not adjacent to the group's "
			    "hex %s", cell_name(t, target), cell_name(t, at));
			return;
		}
		if ((u = enemy_in(t, target, o->player, 0)) >= 0)
			return;
		/* Ruling: failed, not illegal, when the target stood
		 * there as the turn began and an earlier order took it
		 * away. */
		for (i = 0; i < (int)t->units.n; i++) {
			const struct unit *un = &t->units.v[i];

			if (un->from == target && un->player != o->player &&
			    un->by >= 0 && un->at != target) {
				fail_later(t, l, R_NO_TARGET, "aeonis 1",
				    "no enemy unit stands in %s: %s left it "
				    "(%s)", cell_name(t, target), un->id,
				    order_ref(t, o->player, un->by));
				return;
			}
		}
		/* A check (issue 28): an enemy unit whose player acts
		 * first, and whose orders the check was not given, may move
		 * into it: within its Movement Range of it. */
		for (i = 0; i < (int)t->units.n; i++) {
			const struct unit *un = &t->units.v[i];

			if (un->at < 0 || !unit_may_move_first(t, i,
			    o->player) || board_distance(&t->board, un->at,
			    target) > unit_range(t, un))
				continue;
			order_rule(t, o, OS_DONE, R_DEPENDS_ON_ORDERS,
			    "aeonis 1", "no enemy unit stands in %s; this "
			    "depends on the orders of %s, who acts before %s: "
			    "no_target would refuse it only if no unit moves "
			    "there (%s is %d hexes away) (aeonis 1)",
			    cell_name(t, target), t->players.v[un->player].name,
			    t->players.v[o->player].name, un->id,
			    board_distance(&t->board, un->at, target));
			return;
		}
		order_rule(t, o, OS_ILLEGAL, R_NO_TARGET, "aeonis 1",
		    "no enemy unit stands in %s", cell_name(t, target));
		return;
	case K_TRANSLOCATE:
		for (i = 0; i < pl->ndisc; i++)
			if (strcmp(pl->disc[i], "translocation") == 0)
				break;
		if (i == pl->ndisc) {
			order_rule(t, o, OS_ILLEGAL, R_NO_DISCOVERY,
			    "aeonis 4", "%s has not discovered Translocation",
			    pl->name);
			return;
		}
		break;
	case K_REINFORCE:
		break;
	}
	/* Translocation (aeonis 4) and reinforcement (aeonis A3). */
	if ((at = group_cell(t, o, -1, l)) < 0)
		return;
	if (o->kind == K_REINFORCE && !is_city(t, at)) {
		order_rule(t, o, OS_ILLEGAL, R_NOT_A_CITY, "aeonis A3",
		    "reinforcements leave from a city; %s is not one",
		    cell_name(t, at));
		return;
	}
	if (o->kind == K_REINFORCE && !is_city(t, target)) {
		order_rule(t, o, OS_ILLEGAL, R_NOT_A_CITY, "aeonis A3",
		    "reinforcements go to a city; %s is not one",
		    cell_name(t, target));
		return;
	}
	if (t->board.cells[target].owner != o->player) {
		const struct ochange *lost = NULL;
		size_t k;

		/* Failed if an earlier order took the hex from the
		 * player. */
		for (k = 0; k < t->ownership.n; k++)
			if (t->ownership.v[k].cell == target)
				lost = &t->ownership.v[k];
		if (lost == NULL || lost->from != o->player ||
		    lost->order < 0) {
			order_rule(t, o, OS_ILLEGAL, R_NOT_CONTROLLED,
			    o->kind == K_REINFORCE ? "aeonis A3" : "aeonis 4",
			    "%s is not controlled by %s",
			    cell_name(t, target), pl->name);
			return;
		}
		fail_later(t, l, R_NOT_CONTROLLED, o->kind == K_REINFORCE ?
		    "aeonis A3" : "aeonis 4", "%s is no longer controlled "
		    "by %s: %s took it", cell_name(t, target),
		    pl->name, order_ref(t, o->player, lost->order));
	}
	(void)destination_ok(t, o, target, false, l);
}

/*
 * Validation: the rule checks in the order of the rule text, each of which
 * rules the order illegal and ends the checks; then, if none did, the
 * first failure an earlier order caused (struct later).
 */
static void
validate(struct arb_turn *t, struct order *o)
{
	struct later	 l;
	int		 i;

	memset(&l, 0, sizeof(l));
	l.dep_unit = -1;
	for (i = 0; i < o->nunits; i++)
		t->units.v[o->units[i]].named = true;
	if (o->kind == K_MOVE)
		validate_move(t, o, &l);
	else
		validate_other(t, o, &l);
	if (o->status == OS_PENDING && l.msg != NULL)
		order_rule(t, o, OS_FAILED, l.reason, l.rule, "%s", l.msg);
	else if (o->status == OS_PENDING && l.dep_unit >= 0)
		order_depends(t, o, l.dep_unit, l.dep_reason, l.dep_rule,
		    l.dep_msg);
}

/* A Move's cost so far, with the breakdown. */
struct walk {
	int	 total;
	char	*why;		/* "0404 plains 1, 0405 forest 1+ZOC 1" */
	size_t	 len, cap;
};

static void
why_add(struct arb_turn *t, struct walk *w, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Adds to the breakdown, which grows in the turn's arena as long as the
 * path is: it is never cut, since a cut could split a UTF-8 character of
 * a hex's name.
 */
static void
why_add(struct arb_turn *t, struct walk *w, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	size_t	 n;

	va_start(ap, fmt);
	s = t_vprintf(t, fmt, ap);
	va_end(ap);
	n = strlen(s);
	if (w->len + n + 1 > w->cap) {
		size_t	 cap = w->cap < 64 ? 64 : w->cap;
		char	*p;

		while (cap < w->len + n + 1)
			cap *= 2;
		p = t_alloc(t, cap);
		if (w->len > 0)
			memcpy(p, w->why, w->len);
		w->why = p;
		w->cap = cap;
	}
	memcpy(w->why + w->len, s, n + 1);
	w->len += n;
}

/* The price of one hex entered on foot, in its parts (the trace's). */
struct price {
	int		 base, winter, festival, hub, roads, hex, zoc;
	int		 zoc_from;	/* the unit that exerts it, or -1 */
	bool		 pair, flank;
};

/* The name of a price's basis (the trace's "basis"): the terrain's, or
 * what pays a flat cost instead. */
static const char *
basis_name(struct arb_turn *t, int to, const struct hexprice *h)
{
	static const char *const flat[] = {
		NULL, "flying", "portal", "bridge"
	};

	return h->basis == HB_TERRAIN ?
	    t->board.terrains[t->board.cells[to].terrain] : flat[h->basis];
}

/*
 * The part of a hex's price that is the hex's own and the group's kind's
 * (st: fly, cav and trade): aeonis 2 and 3, and the modifiers (READINGS).
 * Pure.
 */
static void
price_hex(struct arb_turn *t, const struct astate *st, int to,
    struct hexprice *h)
{
	struct aeonis	*a = A(t);
	int		 tr = t->board.cells[to].terrain;

	memset(h, 0, sizeof(*h));
	/* aeonis 2 and 3: the base cost. */
	h->base = 1;
	if (st->fly)
		h->basis = HB_FLYING;
	else if (is_portal(t, to))
		h->basis = HB_PORTAL;
	else if (tr == a->lake && board_has(&t->board, to, a->bridge))
		h->basis = HB_BRIDGE;
	else {
		h->base = (int8_t)a->cost[tr];
		h->basis = HB_TERRAIN;
	}
	/* Modifiers (READINGS). */
	if (a->winter)
		h->winter = 1;
	if (a->festival && st->cav)
		h->festival = 1;
	if (st->trade) {
		int nb[6], i, n = board_neighbors(&t->board, to, nb);

		for (i = 0; i < n; i++)
			if (board_has(&t->board, nb[i], a->hub))
				h->hub = 1;
	}
	h->plains = tr == a->plains;
	h->city = is_city(t, to);
}

/*
 * The one place a hex entered is priced (aeonis 2, 3 and 5, READINGS):
 * execute() and the walk (walk_step) both call it, with the hex's own
 * part h (price_hex() of the hex entered), whether the hex left is a city
 * (roads), and zoc, zoc_from() of the hex for the moving player (the
 * walk has them from its memo).  Pure: it reads the turn, and moves the
 * walk's state st on.
 */
static inline void
price_step(struct arb_turn *t, struct astate *st, bool from_city,
    const struct hexprice *h, int zoc, struct price *p)
{
	struct aeonis	*a = A(t);

	p->base = h->base;
	p->winter = h->winter;
	p->festival = -h->festival;
	p->hub = -h->hub;
	p->roads = 0;
	p->pair = p->flank = false;
	p->zoc = 0;
	/* Ruling: roads cut what the terrain costs; a flying group and a
	 * portal hex pay their own flat cost, which they do not cut. */
	if (a->roads && h->basis == HB_TERRAIN &&
	    (h->plains || (from_city && h->city)))
		p->roads = -1;
	/* Then the floor of 1. */
	p->hex = p->base + p->winter + p->festival + p->hub + p->roads;
	if (p->hex < 1)
		p->hex = 1;
	/* Ruling: an all-cavalry group's plains hexes pair up; the second
	 * of a pair costs nothing but ZOC. */
	if (a->cav_plains && st->cav && h->plains && h->basis == HB_TERRAIN) {
		if (st->pair_open) {
			p->pair = true;
			p->hex = 0;
		}
		st->pair_open = !st->pair_open;
	} else
		st->pair_open = 0;
	/* aeonis 5: +1 next to an enemy military unit, destination
	 * included; cavalry skip the first such hex of each Move. */
	p->zoc_from = zoc;
	p->zoc = zoc >= 0;
	if (p->zoc & st->zoc_free) {
		p->zoc = 0;
		p->flank = true;
		st->zoc_free = 0;
	}
}

/* The walk's state at the start of a Move. */
static void
walk_init(struct arb_turn *t, const struct order *o, struct astate *st)
{
	int	 slow = -1;

	memset(st, 0, sizeof(*st));
	st->left = group_range(t, o, &slow);
	st->zoc_free = any_has(t, o, CAVALRY);
	st->fly = all_have(t, o, FLYING);
	st->cav = all_have(t, o, CAVALRY);
	st->trade = all_have(t, o, TRADE);
}

/* One hex entered on foot: priced, traced and told. */
static void
step_cost(struct arb_turn *t, struct order *o, struct walk *w,
    struct astate *st, int from, int to)
{
	struct hexprice	 h;
	struct price	 p;
	int		 tr = t->board.cells[to].terrain;

	price_hex(t, st, to, &h);
	price_step(t, st, is_city(t, from), &h, zoc_from(t, to, o->player),
	    &p);
	w->total += p.hex + p.zoc;
	why_add(t, w, "%s%s %s %d", w->len > 0 ? ", " : "",
	    cell_name(t, to), basis_name(t, to, &h), p.hex);
	if (p.zoc)
		why_add(t, w, "+ZOC 1");
	else if (p.flank)
		why_add(t, w, "+ZOC waived (cavalry flanking)");
	if (p.pair)
		why_add(t, w, " (second of a cavalry plains pair)");
	trace_event(t, "step", "order", TF_ORDER, o, "from", TF_CELL,
	    (long)from, "to", TF_CELL, (long)to, "terrain", TF_STR,
	    t->board.terrains[tr], "basis", TF_STR, basis_name(t, to, &h),
	    "base", TF_INT,
	    (long)p.base, "winters_grip", TF_INT, (long)p.winter,
	    "festival_of_winds", TF_INT, (long)p.festival, "trade_hub",
	    TF_INT, (long)p.hub, "road_networks", TF_INT, (long)p.roads,
	    "cavalry_pair", TF_BOOL, (long)p.pair, "hex", TF_INT, (long)p.hex,
	    "zoc", TF_INT, (long)p.zoc, "zoc_from", TF_STR, p.zoc_from >= 0 ?
	    t->units.v[p.zoc_from].id : "", "flanking", TF_BOOL,
	    (long)p.flank, "cost", TF_INT, (long)(p.hex + p.zoc), "total",
	    TF_INT, (long)w->total, NULL);
}

/*
 * The walk hooks (rules.h): a Move step by step, priced by price_step()
 * and refused by step_reason() and end_reason(), as the adjudication
 * does.  The budget is the player's AP as the order's moment comes.
 */
static long
walk_begin(struct arb_turn *t, const struct order *o, void *state,
    struct wstep *over)
{
	struct aeonis	*a = A(t);
	struct astate	*st = state;
	size_t		 n = (size_t)t->board.ncells;
	long		 ap = t->players.v[o->player].res[AP];
	int		 i;

	if (a->memo_v == NULL &&
	    (a->memo_v = calloc(n + 1, sizeof(*a->memo_v))) == NULL)
		t_nomem(t);
	if (++a->memo >= UINT_MAX / 2) {	/* the stamps wrap */
		memset(a->memo_v, 0, n * sizeof(*a->memo_v));
		a->memo = 1;
	}
	a->memo_claim = false;
	unit_kinds(t);		/* begin() has: the tests' searches */
	walk_init(t, o, state);
	a->memo_order = o;
	a->memo_group = *st;
	/* Every hex costs 1 AP or more but a portal's hop and the second
	 * of a cavalry plains pair, which follows a first that costs 1 or
	 * more.  So with no portals the group enters no more hexes than its
	 * AP, or twice that when it pairs its plains, and a range larger
	 * never binds: it is left out of the state, which then need not
	 * tell apart the ways that entered more hexes or fewer.  (A range of
	 * just that many may bar a step as the AP do, and the adjudication
	 * names the range first: the search does too.) */
	if (a->nportals == 0 && (long long)st->left > (long long)ap *
	    (a->cav_plains && st->cav ? 2 : 1))
		st->left = -1;
	/* Nor does anything else change it: no range to count, no
	 * cavalry's ZOC to waive, no plains to pair. */
	over->fixed = st->left < 0 && !st->zoc_free &&
	    !(a->cav_plains && st->cav);
	/* The hexes it may enter: its range, or what its points pay for. */
	over->span = st->left >= 0 ? st->left : a->cav_plains && st->cav &&
	    ap <= LONG_MAX / 2 ? 2 * ap : ap;
	over->rule = "aeonis 1";
	for (i = 0; i < o->nunits; i++) {
		const struct unit *u = &t->units.v[o->units[i]];

		if (u->gone || u->at != o->cells[0]) {
			over->reason = u->gone ? R_UNIT_GONE : R_NOT_TOGETHER;
			return -1;
		}
	}
	over->reason = R_INSUFFICIENT_AP;
	return ap;
}

/* Hex c as the walk sees it: found by the functions the adjudication
 * calls, once a search (memo()).  Pure: either thread may call it. */
static void
memo_fill(struct arb_turn *t, struct amemo *m, int c)
{
	struct aeonis	*a = A(t);
	const struct order *o = a->memo_order;
	const char	*rule;

	m->zoc = zoc_from(t, c, o->player);
	price_hex(t, &a->memo_group, c, &m->h);
	m->entry = (uint8_t)entry_reason(t, o, c, a->memo_group.fly, true,
	    &rule);
	m->enemy = enemy_in(t, c, o->player, 0) >= 0;
	m->portal = is_portal(t, c);
}

/*
 * Hex c's entry not found yet this search: found now.  While walk_look()
 * finds entries on a second thread (memo_claim), a thread claims an entry
 * before it fills it, and the other, finding it claimed, fills its own
 * copy (spare) rather than wait: the two copies are the same.
 */
static const struct amemo *
memo_slow(struct arb_turn *t, struct amemo *m, int c, struct amemo *spare)
{
	struct aeonis	*a = A(t);
	unsigned	 done = a->memo * 2, v;

	if (!a->memo_claim) {
		memo_fill(t, m, c);
		atomic_store_explicit(&m->at, done, memory_order_relaxed);
		return m;
	}
	v = atomic_load_explicit(&m->at, memory_order_acquire);
	for (;;) {
		if (v == done)
			return m;
		if (v == done + 1) {
			memo_fill(t, spare, c);
			return spare;
		}
		if (atomic_compare_exchange_weak_explicit(&m->at, &v, done + 1,
		    memory_order_acquire, memory_order_acquire)) {
			memo_fill(t, m, c);
			atomic_store_explicit(&m->at, done,
			    memory_order_release);
			return m;
		}
	}
}

static inline const struct amemo *
memo(struct arb_turn *t, int c, struct amemo *spare)
{
	struct aeonis	*a = A(t);
	struct amemo	*m = &a->memo_v[c];

	if (atomic_load_explicit(&m->at, memory_order_acquire) ==
	    a->memo * 2)
		return m;
	return memo_slow(t, m, c, spare);
}

static int
walk_next(struct arb_turn *t, const struct order *o, const void *state,
    int from, int *to, int max)
{
	struct aeonis	*a = A(t);
	const struct board *b = &t->board;
	struct amemo	 spare;
	int		 n = max >= 6 ? board_neighbors(b, from, to) : 6;
	int		 i, k, r;

	(void)o;
	(void)state;
	/* What the steps from here will read: the neighbours' entries and
	 * cells, and the cells about them (their ZOC), fetched from memory
	 * now (reach.c asks one cell ahead). */
	for (i = 0; i < n && n <= max; i++)
		__builtin_prefetch(&a->memo_v[to[i]]);
	if (from >= 2 * b->cols + 2 && from + 2 * b->cols + 2 < b->ncells)
		for (r = -2; r <= 2; r++)
			for (k = -2; k <= 2; k += 2)
				__builtin_prefetch(&b->cells[from + r * b->cols +
				    k]);
	if (a->nportals == 0 || !memo(t, from, &spare)->portal)
		return n;
	k = n;
	for (i = 0; i < a->nportals; i++)
		if (a->portals[i] != from &&
		    !adjacent(t, from, a->portals[i])) {
			if (k < max)
				to[k] = a->portals[i];
			k++;
		}
	return k;
}

/* Hex c found ahead of the search, on its second thread (rules.h);
 * c = -1: from now on, both threads claim the entries they fill. */
static void
walk_look(struct arb_turn *t, const struct order *o, int c)
{
	struct aeonis	*a = A(t);
	struct amemo	*m;
	unsigned	 done = a->memo * 2, v;

	(void)o;
	if (c < 0) {
		a->memo_claim = true;
		return;
	}
	m = &a->memo_v[c];
	v = atomic_load_explicit(&m->at, memory_order_relaxed);
	if (v != done && v != done + 1 && atomic_compare_exchange_strong_explicit(
	    &m->at, &v, done + 1, memory_order_acquire,
	    memory_order_relaxed)) {
		memo_fill(t, m, c);
		atomic_store_explicit(&m->at, done, memory_order_release);
	}
}

/* A step as step_reason() and price_step() have it, from the memo. */
static void
walk_step(struct arb_turn *t, const struct order *o, void *state, int from,
    int to, struct wstep *s)
{
	const struct amemo *mf, *mt;
	struct amemo	 sf, sto;	/* copies, when the other thread is
					 * finding them */
	struct astate	*st = state;
	struct price	 p;
	bool		 hop = false;

	if (st->left == 0) {
		s->reason = R_OUT_OF_RANGE;
		s->rule = "aeonis 1";
		return;
	}
	mf = memo(t, from, &sf);
	mt = memo(t, to, &sto);
	/* walk_next() offers the neighbours, and portals: two hexes are
	 * adjacent unless both may be portals a hop apart. */
	if ((s->reason = hop_reason(t, o, from, to, !(mf->portal &&
	    mt->portal) || adjacent(t, from, to), &s->rule, &hop)) != R_OK)
		return;
	if (mt->entry != R_OK) {
		s->reason = entry_reason(t, o, to, st->fly, true, &s->rule);
		return;
	}
	if (mt->enemy) {
		s->reason = R_ENEMY_OCCUPIED;
		s->rule = "aeonis 1";
		return;
	}
	if (st->left > 0)
		st->left--;
	if (hop) {
		st->pair_open = 0;	/* aeonis 4: the hop costs nothing */
		s->cost = 0;
		return;
	}
	price_step(t, st, mf->h.city, &mt->h, mt->zoc, &p);
	s->cost = p.hex + p.zoc;
}

static enum reason
walk_end(struct arb_turn *t, const struct order *o, const void *state,
    int c, const char **rule)
{
	(void)o;
	(void)state;
	return end_reason(t, c, rule);
}

/*
 * a, at a cost no higher, is worth as much as b in every way: it may enter
 * as many hexes more, waive a ZOC if b may; and a plains hex waiting for
 * its partner is worth as much as none waiting.  (Along any way on, a
 * then pays the second, fourth, ... hex of each run of plains and b the
 * first, third, ...: never more by any hex, when every plains hex costs
 * the same, as it does but for a trade group next to trade hubs, whose
 * pairs must then match.)
 */
static bool
walk_better(const void *pa, const void *pb)
{
	const struct astate *a = pa, *b = pb;

	return (a->pair_open == b->pair_open || (a->pair_open &&
	    !a->trade)) && a->left >= b->left &&
	    a->zoc_free >= b->zoc_free && a->fly == b->fly &&
	    a->cav == b->cav && a->trade == b->trade;
}

static void
place_group(struct arb_turn *t, struct order *o, int c)
{
	int	 i;

	for (i = 0; i < o->nunits; i++) {
		struct unit *u = &t->units.v[o->units[i]];

		unit_place(t, o->units[i], c);
		u->moved = true;
		u->by = (int)(o - t->orders.v);
	}
}

/* Pays cost AP (and mana); false after ruling the order failed. */
static bool
pay(struct arb_turn *t, struct order *o, int cost, int mana,
    const char *rule, const char *why)
{
	struct player	*pl = &t->players.v[o->player];

	order_num(t, o, "cost", cost);
	if (mana > 0)
		order_num(t, o, "mana", mana);
	if (pl->res[AP] < cost) {
		order_num(t, o, "ap_left", pl->res[AP]);
		order_rule(t, o, OS_FAILED, R_INSUFFICIENT_AP, rule,
		    "costs %d AP (%s); %s has %ld left", cost, why, pl->name,
		    pl->res[AP]);
		return false;
	}
	if (pl->res[MANA] < mana) {
		order_num(t, o, "ap_left", pl->res[AP]);
		order_num(t, o, "mana_left", pl->res[MANA]);
		order_rule(t, o, OS_FAILED, R_INSUFFICIENT_MANA, rule,
		    "costs %d mana; %s has %ld left", mana, pl->name,
		    pl->res[MANA]);
		return false;
	}
	pl->res[AP] -= cost;
	pl->res[MANA] -= mana;
	order_num(t, o, "ap_left", pl->res[AP]);
	if (mana > 0)
		order_num(t, o, "mana_left", pl->res[MANA]);
	trace_event(t, "pay", "order", TF_STR, o->id, "player", TF_STR,
	    pl->name, "ap", TF_INT, (long)cost, "mana", TF_INT, (long)mana,
	    "ap_left", TF_INT, pl->res[AP], "mana_left", TF_INT,
	    pl->res[MANA], NULL);
	return true;
}

/*
 * READINGS, control: a Move that ends in a neutral hex, or in an enemy's
 * hex with no enemy unit or building, claims it.  Ruling: buildings are
 * cities, trade hubs and bridges; a treaty partner's hex is never claimed.
 * Portals change hands only as a turn begins.
 */
static void
claim(struct arb_turn *t, struct order *o, int c)
{
	struct aeonis	*a = A(t);
	int		 owner = t->board.cells[c].owner;

	if (is_portal(t, c) || owner == o->player)
		return;
	if (owner < 0) {
		owner_set(t, c, o->player, "claimed", (int)(o - t->orders.v));
		return;
	}
	if (players_allied(t, owner, o->player) || is_city(t, c) ||
	    board_has(&t->board, c, a->hub) ||
	    board_has(&t->board, c, a->bridge))
		return;
	owner_set(t, c, o->player, "incursion", (int)(o - t->orders.v));
}

/*
 * A check of a Move its player's AP do not pay for (issue 28): would they
 * pay for it without the zones of the units that may move away first?
 * Then the order depends on their players' orders: true after ruling so.
 */
static bool
afford_known(struct arb_turn *t, struct order *o, const struct walk *w)
{
	struct astate	 st;
	struct hexprice	 h;
	struct price	 p;
	int		 i, z, dep, first = -1, total = 0;
	long		 ap = t->players.v[o->player].res[AP];

	if (!(t->flags & ARB_CHECK))
		return false;
	walk_init(t, o, &st);
	for (i = 1; i < o->ncells; i++) {
		int from = o->cells[i - 1], to = o->cells[i];

		if (!board_is_adjacent(&t->board, from, to)) {
			st.pair_open = 0;
			continue;
		}
		z = zoc_known(t, to, o->player, &dep);
		if (z < 0 && dep >= 0 && first < 0)
			first = dep;
		price_hex(t, &st, to, &h);
		price_step(t, &st, is_city(t, from), &h, z, &p);
		total += p.hex + p.zoc;
	}
	if (first < 0 || total > ap)
		return false;
	order_depends(t, o, first, R_INSUFFICIENT_AP, "aeonis 5",
	    t_printf(t, "costs %d AP (%s); %s has %ld left; without the "
	    "zone of control of %s it costs %d", w->total, w->why,
	    t->players.v[o->player].name, ap, t->units.v[first].id, total));
	return true;
}

static void
execute(struct arb_turn *t, struct order *o)
{
	struct walk	 w;
	struct astate	 st;
	int		 i, n = o->ncells, last = o->cells[n - 1];
	int		 oi = (int)(o - t->orders.v);

	switch (o->kind) {
	case K_ATTACK: {
		struct attack	*at = VPUSH(t, t->attacks);
		int		 u;

		at->order = oi;
		at->from = t->units.v[o->units[0]].at;
		at->target = o->cells[0];
		for (u = t->board.cells[at->target].first_unit; u >= 0;
		    u = t->units.v[u].next)
			at->ndefenders++;
		at->defenders = t_alloc(t, (size_t)at->ndefenders *
		    sizeof(int) + 1);
		at->ndefenders = 0;
		for (u = t->board.cells[at->target].first_unit; u >= 0;
		    u = t->units.v[u].next)
			at->defenders[at->ndefenders++] = u;
		trace_event(t, "attack", "order", TF_ORDER, o, "from",
		    TF_CELL, (long)at->from, "target", TF_CELL,
		    (long)at->target, NULL);
		order_rule(t, o, OS_DONE, R_OK, "aeonis 1",
		    "%s attack %s from %s; combat decides",
		    unit_list(t, o->units, o->nunits),
		    cell_name(t, at->target), cell_name(t, at->from));
		return;
	}
	case K_TRANSLOCATE:
		if (!pay(t, o, order_kinds[K_TRANSLOCATE].price, 3, "aeonis 4",
		    "Translocation"))
			return;
		trace_event(t, "translocate", "order", TF_ORDER, o, "from",
		    TF_CELL, (long)t->units.v[o->units[0]].at, "to", TF_CELL,
		    (long)last, "units", TF_INT, (long)o->nunits, NULL);
		place_group(t, o, last);
		order_rule(t, o, OS_DONE, R_OK, "aeonis 4",
		    "%s translocate to %s for 1 AP and 3 mana",
		    unit_list(t, o->units, o->nunits), cell_name(t, last));
		return;
	case K_REINFORCE:
		if (!pay(t, o, order_kinds[K_REINFORCE].price, 0,
		    "aeonis A3", "reinforcement"))
			return;
		trace_event(t, "reinforce", "order", TF_ORDER, o, "from",
		    TF_CELL, (long)t->units.v[o->units[0]].at, "to", TF_CELL,
		    (long)last, "units", TF_INT, (long)o->nunits, NULL);
		place_group(t, o, last);
		order_rule(t, o, OS_DONE, R_OK, "aeonis A3",
		    "%s reinforce %s for 2 AP",
		    unit_list(t, o->units, o->nunits), cell_name(t, last));
		return;
	}
	memset(&w, 0, sizeof(w));
	walk_init(t, o, &st);
	for (i = 1; i < n; i++) {
		int from = o->cells[i - 1], to = o->cells[i];

		if (!board_is_adjacent(&t->board, from, to)) {
			/* aeonis 4: the hop costs nothing, and no ZOC. */
			st.pair_open = 0;
			why_add(t, &w, "%shop to %s 0", w.len > 0 ? ", " : "",
			    cell_name(t, to));
			trace_event(t, "hop", "order", TF_ORDER, o, "from",
			    TF_CELL, (long)from, "to", TF_CELL, (long)to,
			    "cost", TF_INT, 0L, "total", TF_INT,
			    (long)w.total, NULL);
			continue;
		}
		step_cost(t, o, &w, &st, from, to);
	}
	if (w.total > t->players.v[o->player].res[AP] &&
	    afford_known(t, o, &w))
		return;
	if (!pay(t, o, w.total, 0, "aeonis 1", w.why))
		return;
	place_group(t, o, last);
	if (board_is_adjacent(&t->board, o->cells[n - 2], last))
		claim(t, o, last);
	order_rule(t, o, OS_DONE, R_OK, "aeonis 1",
	    "%s move %s to %s for %d AP (%s)",
	    unit_list(t, o->units, o->nunits), cell_name(t, o->cells[0]),
	    cell_name(t, last), w.total, w.why);
}

/*
 * The end of the turn: desert attrition (aeonis 2) and the forest's
 * defensive mark.  Ruling: every unit standing in forest when movement
 * ends has the mark, whether it moved or held.
 */
static void
end(struct arb_turn *t)
{
	struct aeonis	*a = A(t);
	size_t		 i;

	for (i = 0; i < t->units.n; i++) {
		struct unit	*u = &t->units.v[i];
		int		 tr = t->board.cells[u->at].terrain;

		if (u->gone)
			continue;
		if (tr == a->forest)
			u->marks |= 1u << DEFENSIVE_BONUS;
		if (tr != a->desert) {
			u->x[DESERT_TURNS] = 0;
			continue;
		}
		/* The count stops at INT_MAX rather than overflow; any count
		 * above 2 costs the same. */
		if (u->x[DESERT_TURNS] < INT_MAX)
			u->x[DESERT_TURNS]++;
		trace_event(t, "desert", "unit", TF_STR, u->id, "at", TF_CELL,
		    (long)u->at, "turns", TF_INT, (long)u->x[DESERT_TURNS],
		    NULL);
		if (u->x[DESERT_TURNS] > 2)
			unit_lose(t, (int)i, 1, "desert_attrition", -1);
	}
}

/* The next map keeps the rules, types and motions; events last a round. */
static void
save(struct arb_turn *t, struct jv *root)
{
	struct aeonis	*a = A(t);
	struct jv	*o, *l, *m, *c;
	size_t		 i;
	int		 k;

	o = NULL;
	for (k = 0; k < t->board.nterrains; k++) {
		if (!a->house[k])
			continue;
		if (o == NULL)
			o = emit_set_object(emit_set_object(root, "rules"),
			    "terrain_cost");
		emit_set_int(o, t->board.terrains[k], a->cost[k]);
	}
	if (!a->cav_plains) {
		o = emit_set_object(root, "rules");
		emit_set_bool(o, "cavalry_plains", false);
	}
	l = NULL;
	for (i = 0; i < t->types.n; i++) {
		struct utype *ty = &t->types.v[i];

		if (!(ty->flags & FROM_MAP))
			continue;
		if (l == NULL)
			l = emit_set_object(root, "types");
		m = emit_set_object(l, ty->name);
		emit_set_int(m, "range", ty->range);
		emit_set_bool(m, "military", ty->flags & MILITARY);
		emit_set_bool(m, "flying", ty->flags & FLYING);
		emit_set_bool(m, "cavalry", ty->flags & CAVALRY);
		emit_set_bool(m, "trade", ty->flags & TRADE);
	}
	if (!a->roads && a->borders.n == 0)
		return;
	l = emit_set_array(root, "motions");
	if (a->roads)
		emit_set_str(emit_add_object(l), "kind", "road_networks");
	for (i = 0; i < a->borders.n; i++) {
		struct border *b = &a->borders.v[i];

		m = emit_add_object(l);
		emit_set_str(m, "kind", "borders");
		c = emit_set_array(m, "cells");
		for (k = 0; k < b->ncells; k++)
			emit_add_cell(t, c, b->cells[k]);
		if (!b->all) {
			c = emit_set_array(m, "players");
			for (k = 0; k < (int)t->players.n; k++)
				if (b->players >> k & 1)
					emit_add_str(c, t->players.v[k].name);
		}
	}
}

static void
release(struct arb_turn *t)
{
	free(A(t)->borders.v);
	free(A(t)->events.v);
	free(A(t)->memo_v);
}

const struct ruleset rules_aeonis = {
	.name = "aeonis",
	.rulings = "2026-11-28",
	.board = BOARD_HEX,
	.map_keys = map_keys,
	.player_res = player_res,
	.res_resets = res_resets,
	.unit_x = unit_x,
	.unit_marks = unit_marks,
	.order_kinds = order_kinds,
	.init = init,
	.load = load,
	.save = save,
	.begin = begin,
	.validate = validate,
	.execute = execute,
	.end = end,
	.walk_size = sizeof(struct astate),
	.walk_begin = walk_begin,
	.walk_next = walk_next,
	.walk_step = walk_step,
	.walk_end = walk_end,
	.walk_better = walk_better,
	.walk_look = walk_look,
	.walk_stack = true,
	.route_depends = true,
	.release = release
};
