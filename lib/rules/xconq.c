/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Xconq movement (rules/xconq.txt), with the readings of rules/READINGS.md:
 * every cost comes from the game's own tables, declared in the map under
 * the names the text gives them.  Clauses are cited as "xconq move",
 * "xconq speed", "xconq mp", "xconq terrain", "xconq connection",
 * "xconq border", "xconq altitude", "xconq world", "xconq zoc" and
 * "xconq material".  Every "Ruling:" comment is also in the RULINGS
 * section of arbiter-rules(7) and has a casebook case.
 *
 * A move order is a sequence of move actions for one unit, carried out one
 * at a time; the first action refused stops the order, and the actions
 * before it stand.  Every action is priced in one place, price_action(),
 * which act() and the walk hooks (--reach, "to" orders: rules.h) share.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

#define MAXTT		64	/* terrain types: a side's borders are a mask */
#define MAXMAT		32
#define BIG		1000000	/* bound of table values, against overflow */

enum tkind { TK_CELL, TK_BORDER, TK_CONN, TK_COAT };
static const char *const tkind_names[] = {
	"cell", "border", "connection", "coating", NULL
};

enum shape { UT, UU, UM };
enum tab {
	T_ENTER, T_LEAVE, T_TRAVERSE, T_ALTMIN, T_ALTMAX, T_ZOCINTO,
	T_ZOCFROM, T_OCC, T_ZOCRANGE, T_ZOCENTER, T_ZOCLEAVE, T_ZOCTRAV,
	T_MATMOVE, T_CONSUME, NTAB
};
static const struct tdef {
	const char	*name;
	enum shape	 shape;
	int		 dflt, min;
	bool		 boolean;
} tdefs[NTAB] = {
	{ "mp-to-enter-terrain", UT, 1, -BIG, false },
	{ "mp-to-leave-terrain", UT, 0, -BIG, false },
	{ "mp-to-traverse", UT, 1, -BIG, false },
	{ "altitude-min", UT, 0, -BIG, false },
	{ "altitude-max", UT, 0, -BIG, false },
	{ "zoc-into-terrain", UT, 1, 0, true },
	/* Ruling: the text names this table but gives it no meaning or
	 * default: a percentage of the zoc-range, 0 for none. */
	{ "zoc-from-terrain-effect", UT, 100, 0, false },
	{ "speed-occupant-effect", UU, 100, 0, false },
	{ "zoc-range", UU, 0, -1, false },
	{ "mp-to-enter-zoc", UU, -1, -1, false },
	{ "mp-to-leave-zoc", UU, 0, -1, false },
	{ "mp-to-traverse-zoc", UU, 0, -1, false },
	{ "material-to-move", UM, 0, 0, false },
	{ "consumption-per-move", UM, 0, 0, false }
};

/* Unit type properties, with the text's defaults. */
enum prop {
	P_ACP_TO_MOVE, P_SPEED, P_SPEED_MIN, P_SPEED_MAX, P_MOVE_RANGE,
	P_FREE_MP, P_LEAVE_WORLD, P_ACP_MIN, NPROPS
};
/* A move of k cells is priced over the cells of its shortest ways, about
 * k * k / 4 of them, so move-range is bounded (arbiter-map(5)): a 1 MB
 * orders file of such moves stays within seconds. */
#define MAXRANGE	4

static const struct pdef {
	const char	*name;
	int		 dflt, min, max;
} pdefs[NPROPS] = {
	{ "acp-to-move", 1, 0, BIG },
	{ "speed", 100, 0, BIG },
	{ "speed-min", 0, 0, BIG },
	{ "speed-max", 0, 0, BIG },
	{ "move-range", 1, 0, MAXRANGE },
	{ "free-mp", 0, 0, BIG },
	{ "mp-to-leave-world", -1, -1, BIG },
	/* Not in the text: the kernel's floor under a unit's acp (issue 14,
	 * the reading of 2026-11-24). */
	{ "acp-min", 0, -BIG, BIG }
};

struct xtype {
	int		 p[NPROPS];
	int		(*dmg)[2];	/* speed-damage-effect: hp, percent */
	int		 ndmg;
};

enum akind { A_MOVE, A_SLIDE, A_LEAVE };
static const char *const akind_names[] = { "move", "slide", "leave_world" };
enum zkind { Z_ENTER, Z_LEAVE, Z_TRAVERSE };
static const char *const zkind_names[] = { "enter", "leave", "traverse" };

struct comp {				/* a border or a coating's cost */
	int		 tt, mp;
	bool		 enter;
};

struct zc {				/* one enemy's zone of control */
	int		 unit, mp;
	enum zkind	 kind;
};

/* The zones of one step for one mover, as zoc_extra() found them. */
struct zmemo {
	int		 a, b, type, player;
	uint64_t	 others;	/* enemy moves when found */
	int		 best, more, nz;
	bool		 no, valid;
	struct zc	 z[8];		/* ZOC_LIST */
};

/* The zones an action lists: at most ZOC_LIST, those that weigh most (a
 * prohibition, then the highest mp, then the earliest unit); the rest are
 * only counted (zoc_more), so a step among thousands of enemies costs no
 * more to record than one among a few. */
#define ZOC_LIST	8

/* One move action as costed and carried out.  An action of k > 1 cells
 * sums its k steps: leave, enter, normal, clamped and zoc_max are the sums
 * of theirs, comps and zoc hold theirs, and via the cells between. */
struct action {
	int		 to;
	enum akind	 kind;
	long		 leave, enter, normal, clamped, cost, zoc_max;
	int		 world;		/* mp-to-leave-world paid */
	VEC(struct comp) comps;
	VEC(int)	 via;
	int		 conn, conn_mp;	/* conn: -1 when none usable */
	bool		 conn_taken;
	VEC(struct zc)	 zoc;		/* at most ZOC_LIST, by unit */
	int		 zoc_more;	/* zones not listed */
	int		 zoc_light;	/* a full list's lightest */
	long		 mp0, mp1, acp0, acp1;
	long		*used;		/* per material */
};

/* a, empty, keeping the room of its lists. */
static void
act_clear(struct action *a)
{
	struct action	 keep = *a;

	memset(a, 0, sizeof(*a));
	a->comps = keep.comps;
	a->via = keep.via;
	a->zoc = keep.zoc;
	a->comps.n = a->via.n = a->zoc.n = 0;
}

static void
act_free(struct action *a)
{
	free(a->comps.v);
	free(a->zoc.v);
	free(a->via.v);
	memset(a, 0, sizeof(*a));
}

struct orec {
	VEC(struct action) acts;
	int		 refused_to;	/* -1: none refused */
	enum reason	 refused;
};

struct xunit {
	int		 acp0, acp;	/* for the turn, and left */
	int		 hp;
	bool		 has_hp;
	int		*occ;		/* occupants' types */
	int		 nocc;
	long		 sup[MAXMAT];
	bool		 has_sup[MAXMAT];
	bool		 immobile;	/* stopped for want of material */
	long		 speed;		/* worked out once: see speed() */
	bool		 has_speed;
};

/*
 * A table keeps only the entries the map gives, in an open-addressing hash
 * of (row, column) pairs; every other entry is the table's default.  A
 * dense table would take memory in the square of the unit types (issue
 * 11).
 */
struct tent {
	int		 row1;		/* row + 1; 0: an empty slot */
	int		 col, val;
};

struct table {
	struct tent	*e;		/* cap slots, in the arena */
	size_t		 cap, n;
};

struct wnode {
	int		 cell;
	int		 prev;		/* node it is reached from: -1 */
	long		 cost;		/* -1: not reached */
	enum reason	 rs;		/* why not, when not reached */
	int		 bfrom, bto;	/* the step that says why */
};
struct wnodes {
	struct wnode	*v;
	size_t		 n, cap;
};

struct xconq {
	const char	*tt[MAXTT];
	enum tkind	 tk[MAXTT];
	int		 ntt;
	struct strmap	 tt_ids;	/* name -> terrain type */
	int		 cell_tt[256];	/* board terrain -> terrain type */
	int		 feat_tt[32];	/* board feature -> coating type */
	const char	*mat[MAXMAT];
	struct strmap	 mat_ids;	/* name -> material */
	int		 nmat;
	struct xtype	*ut;		/* per unit type */
	struct table	 tab[NTAB];
	/* Border and connection types by cell * 6 + direction, kept only
	 * where the map has some (a map of millions of hexes has few). */
	struct intmap	 borders;
	struct intmap	 conns;
	int		 zoc_reach;	/* no zone reaches further */
	/* Zones found for a step, kept while no enemy of the mover has
	 * moved since: a unit going back and forth among thousands of
	 * units looks at them once, not at every step. */
	bool		 zoc_dear;	/* the action priced last lacked mp
					 * only for its zones of control */
	struct zmemo	*zmemo;		/* nzmemo steps, by a hash */
	size_t		 nzmemo;
	struct action	 zscratch;	/* a step's zones as found */
	uint64_t	 moves;		/* units moved, all players */
	uint64_t	 moves_by[MAXPLAYERS];
	VEC(int)	 near;		/* scratch: units near a step */
	/* Scratch of act() and way_cost(), here rather than on the stack
	 * so that a failure halfway (no memory) leaves nothing release()
	 * does not free. */
	struct action	 cur;		/* the action being made */
	struct action	 wst;		/* a step of a way being costed */
	struct action	 walk;		/* an action the walk hooks price */
	struct wnodes	 wnv;		/* the cells of ways */
	struct {			/* whose ways wnv holds */
		int		 src, type, player, radius, to;
		uint64_t	 moves;
		bool		 valid;
	}		 wkey;
	bool		 wide;		/* the walk: ways to every cell in
					 * range at once (way_cost()) */
	unsigned	*seen;		/* by unit: stamp of the last step */
	unsigned	 stamp;
	VEC(struct xunit) units;	/* per unit */
	struct orec	*orec;		/* per order */
};

static const char *const map_keys[] = {
	"terrain-types", "materials", "unit-types", "tables", NULL
};
static const char *const unit_keys[] = {
	"acp", "hp", "occupants", "supplies", NULL
};
static const struct okind order_kinds[] = {
	{ "move", OK_PATH, NULL, 0 },
	{ "leave_world", OK_CELL, NULL, 0 },
	{ NULL, OK_PATH, NULL, 0 }
};
enum { K_MOVE, K_LEAVE };

static struct xconq *
X(struct arb_turn *t)
{
	return t->rsdata;
}

static void
init(struct arb_turn *t)
{
	struct xconq	*x = t_alloc(t, sizeof(*x));
	int		 i;

	t->rsdata = x;
	for (i = 0; i < 256; i++)
		x->cell_tt[i] = -1;
	for (i = 0; i < 32; i++)
		x->feat_tt[i] = -1;
}

static int
tt_find(struct arb_turn *t, const char *name)
{
	return strmap_get(&X(t)->tt_ids, name);
}

static int
mat_find(struct arb_turn *t, const char *name)
{
	return strmap_get(&X(t)->mat_ids, name);
}

/* The first slot to look at for (row, col): splitmix64's finaliser. */
static size_t
tab_hash(int row, int col, size_t cap)
{
	uint64_t	 z = (uint64_t)(unsigned)row << 32 | (unsigned)col;

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	return (size_t)(z ^ z >> 31) & (cap - 1);
}

/* The slot of (row, col): its entry, or the empty slot it would take. */
static struct tent *
tab_slot(const struct table *tb, int row, int col)
{
	size_t	 i;

	for (i = tab_hash(row, col, tb->cap); tb->e[i].row1 != 0;
	    i = (i + 1) & (tb->cap - 1))
		if (tb->e[i].row1 == row + 1 && tb->e[i].col == col)
			break;
	return &tb->e[i];
}

/* Sets an entry; the table grows at half full. */
static void
tab_put(struct arb_turn *t, struct table *tb, int row, int col, int val)
{
	struct tent	*e;
	size_t		 i;

	if (2 * (tb->n + 1) > tb->cap) {
		struct table	 old = *tb;

		tb->cap = old.cap > 0 ? 2 * old.cap : 16;
		if (tb->cap > SIZE_MAX / sizeof(*tb->e))
			t_nomem(t);
		tb->e = t_alloc(t, tb->cap * sizeof(*tb->e));
		for (i = 0; i < old.cap; i++)
			if (old.e[i].row1 != 0)
				*tab_slot(tb, old.e[i].row1 - 1,
				    old.e[i].col) = old.e[i];
	}
	e = tab_slot(tb, row, col);
	if (e->row1 == 0)
		tb->n++;
	e->row1 = row + 1;
	e->col = col;
	e->val = val;
}

static int
tab(struct arb_turn *t, enum tab k, int row, int col)
{
	const struct table *tb = &X(t)->tab[k];
	const struct tent *e;

	if (tb->n == 0)
		return tdefs[k].dflt;
	e = tab_slot(tb, row, col);
	return e->row1 != 0 ? e->val : tdefs[k].dflt;
}

/* The largest value of table k, its default included. */
static int
tab_max(struct arb_turn *t, enum tab k)
{
	const struct table *tb = &X(t)->tab[k];
	int		 m = tdefs[k].dflt;
	size_t		 i;

	for (i = 0; i < tb->cap && tb->n > 0; i++)
		if (tb->e[i].row1 != 0 && tb->e[i].val > m)
			m = tb->e[i].val;
	return m;
}

static int
prop(struct arb_turn *t, int u, enum prop p)
{
	return X(t)->ut[t->units.v[u].type].p[p];
}

static void
load_terrain_types(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	struct xconq	*x = X(t);
	const char	*name, *kind;
	const struct jv	*kv;
	void		*it;
	int		 k;

	ld_push(ld, "terrain-types");
	if (!ld_is_object(v))
		ld_fail(ld, "bad terrain-types: expected an object");
	it = ld_iter(v);
	while (ld_next(v, &it, &name, &kv)) {
		ld_push(ld, name);
		if (x->ntt == MAXTT)
			ld_fail(ld, "more than %d terrain types", MAXTT);
		kind = ld_strv(ld, kv);
		for (k = 0; tkind_names[k] != NULL; k++)
			if (strcmp(tkind_names[k], kind) == 0)
				break;
		if (tkind_names[k] == NULL)
			ld_fail(ld, "unknown kind of terrain \"%s\": expected "
			    "cell, border, connection or coating", kind);
		x->tt[x->ntt] = t_strdup(t, name);
		strmap_put(&t->mem, &x->tt_ids, x->tt[x->ntt], x->ntt);
		x->tk[x->ntt] = (enum tkind)k;
		if (k == TK_CELL)
			x->cell_tt[board_terrain(t, name)] = x->ntt;
		else if (k == TK_COAT)
			x->feat_tt[board_feature(t, name)] = x->ntt;
		x->ntt++;
		ld_pop(ld);
	}
	for (k = 0; k < x->ntt && x->tk[k] != TK_CELL; k++)
		continue;
	if (k == x->ntt)
		ld_fail(ld, "no cell type: the board needs at least one");
	ld_pop(ld);
}

static void
load_types(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	static const char *const keys[] = {
		"acp-to-move", "speed", "speed-min", "speed-max", "move-range",
		"free-mp", "mp-to-leave-world", "acp-min", "speed-damage-effect",
		NULL
	};
	struct xconq	*x = X(t);
	const char	*name;
	const struct jv	*tv, *l, *pt;
	void		*it;
	size_t		 i, n, j, ntypes;
	int		 k, *idx;

	ld_push(ld, "unit-types");
	if (v == NULL || !ld_is_object(v))
		ld_fail(ld, "missing or bad unit-types: expected an object "
		    "of unit types");
	/* Each type's index is kept as it is added, so that no name is
	 * looked up again. */
	ntypes = 0;
	it = ld_iter(v);
	while (ld_next(v, &it, &name, &tv))
		ntypes++;
	idx = t_alloc(t, (ntypes > 0 ? ntypes : 1) * sizeof(*idx));
	j = 0;
	it = ld_iter(v);
	while (ld_next(v, &it, &name, &tv))
		idx[j++] = (int)(type_add(t, name, 1, 0) - t->types.v);
	x->ut = t_alloc(t, (t->types.n > 0 ? t->types.n : 1) *
	    sizeof(*x->ut));
	j = 0;
	it = ld_iter(v);
	while (ld_next(v, &it, &name, &tv)) {
		struct xtype *xt = &x->ut[idx[j++]];

		ld_push(ld, name);
		if (!ld_is_object(tv))
			ld_fail(ld, "bad unit type: expected an object");
		ld_keys(ld, tv, keys, NULL);
		for (k = 0; k < NPROPS; k++)
			xt->p[k] = (int)ld_int(ld, tv, pdefs[k].name,
			    pdefs[k].dflt, pdefs[k].min, pdefs[k].max);
		if ((l = ld_get(tv, "speed-damage-effect")) != NULL) {
			ld_push(ld, "speed-damage-effect");
			n = ld_len(ld, l);
			if (n == 0)
				ld_fail(ld, "expected at least one [hp, "
				    "percent] point");
			xt->dmg = t_alloc(t, n * sizeof(*xt->dmg));
			xt->ndmg = (int)n;
			for (i = 0; i < n; i++) {
				ld_pushi(ld, i);
				pt = ld_at(l, i);
				if (ld_len(ld, pt) != 2)
					ld_fail(ld, "expected [hp, percent]");
				ld_pushi(ld, 0);
				xt->dmg[i][0] = (int)ld_intv(ld, ld_at(pt, 0),
				    "hp", 0, BIG);
				if (i > 0 && xt->dmg[i][0] <= xt->dmg[i - 1][0])
					ld_fail(ld, "the points must go up in "
					    "hp");
				ld_pop(ld);
				ld_pushi(ld, 1);
				xt->dmg[i][1] = (int)ld_intv(ld, ld_at(pt, 1),
				    "percent", 0, BIG);
				ld_pop(ld);
				ld_pop(ld);
			}
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* Suggestions look at this many unit types at most. */
#define MAXTYPES_HINT	256

/* "did you mean" the one of names[0 .. n-1] nearest typed, or NULL. */
static const char *
meant(struct arb_turn *t, struct ld *ld, const char *typed,
    const char *const *names, int n)
{
	struct suggest	 sg;
	int		 i;

	if (!ld->hints)
		return NULL;
	suggest_start(&sg, typed);
	for (i = 0; i < n; i++)
		suggest_offer(&sg, names[i]);
	return sg.best == NULL ? NULL : t_printf(t, "did you mean "
	    "\"%.40s\"?", sg.best);
}

static void
load_tables(struct arb_turn *t, struct ld *ld, const struct jv *v)
{
	struct xconq	*x = X(t);
	const char	*rn, *cn;
	const struct jv	*tv, *rv, *cv;
	void		*it, *rit, *cit;
	int		 k, r, c;

	if (v == NULL)
		return;
	ld_push(ld, "tables");
	if (!ld_is_object(v))
		ld_fail(ld, "bad tables: expected an object");
	it = ld_iter(v);
	while (ld_next(v, &it, &rn, &tv)) {
		for (k = 0; k < NTAB; k++)
			if (strcmp(tdefs[k].name, rn) == 0)
				break;
		ld_push(ld, rn);
		/* A name not known is told, and the rest read (issue 26). */
		if (k == NTAB) {
			const char	*names[NTAB + 1];

			for (k = 0; k < NTAB; k++)
				names[k] = tdefs[k].name;
			names[NTAB] = NULL;
			ld->hint = ld_meant(ld, rn, names, NULL);
			ld_problem(ld, "unknown table \"%.40s\"", rn);
			ld_pop(ld);
			continue;
		}
		if (!ld_is_object(tv))
			ld_fail(ld, "bad table: expected an object of unit "
			    "types");
		rit = ld_iter(tv);
		while (ld_next(tv, &rit, &cn, &rv)) {
			const struct utype *ty = type_find(t, cn);

			ld_push(ld, cn);
			if (ty == NULL) {
				const char *names[MAXTYPES_HINT];
				int	 n = 0;

				while (n < MAXTYPES_HINT &&
				    (size_t)n < t->types.n) {
					names[n] = t->types.v[n].name;
					n++;
				}
				ld->hint = meant(t, ld, cn, names, n);
				ld_problem(ld, "unknown unit type \"%.40s\"",
				    cn);
				ld_pop(ld);
				continue;
			}
			r = (int)(ty - t->types.v);
			if (!ld_is_object(rv))
				ld_fail(ld, "bad row: expected an object");
			cit = ld_iter(rv);
			while (ld_next(rv, &cit, &rn, &cv)) {
				const struct utype *t2;

				c = -1;
				if (tdefs[k].shape == UT)
					c = tt_find(t, rn);
				else if (tdefs[k].shape == UM)
					c = mat_find(t, rn);
				else if ((t2 = type_find(t, rn)) != NULL)
					c = (int)(t2 - t->types.v);
				if (c < 0) {
					ld_push(ld, rn);
					ld->hint = tdefs[k].shape == UT ?
					    meant(t, ld, rn, x->tt, x->ntt) :
					    tdefs[k].shape == UM ? meant(t, ld,
					    rn, x->mat, x->nmat) : NULL;
					ld_problem(ld, "unknown %s \"%.40s\"",
					    tdefs[k].shape == UT ?
					    "terrain type" : tdefs[k].shape ==
					    UM ? "material" : "unit type", rn);
					ld_pop(ld);
					continue;
				}
				tab_put(t, &x->tab[k], r, c, tdefs[k].boolean ?
				    ld_bool(ld, rv, rn, true) : (int)ld_int(ld,
				    rv, rn, tdefs[k].dflt, tdefs[k].min, BIG));
			}
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	ld_pop(ld);
}

/* The map's xconq parts, before the board: the names the board uses. */
static void
load(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	struct xconq	*x = X(t);
	const struct jv	*v;
	size_t		 i;

	if ((v = ld_get(root, "terrain-types")) == NULL) {
		ld_fail(ld, "missing terrain-types: an xconq map declares "
		    "its terrain types");
	}
	load_terrain_types(t, ld, v);
	if ((v = ld_get(root, "materials")) != NULL) {
		ld_push(ld, "materials");
		for (i = 0; i < ld_len(ld, v); i++) {
			ld_pushi(ld, i);
			if (x->nmat == MAXMAT)
				ld_fail(ld, "more than %d materials", MAXMAT);
			x->mat[x->nmat] = ld_strv(ld, ld_at(v, i));
			if (mat_find(t, x->mat[x->nmat]) >= 0)
				ld_fail(ld, "material \"%s\" listed twice",
				    x->mat[x->nmat]);
			strmap_put(&t->mem, &x->mat_ids, x->mat[x->nmat],
			    x->nmat);
			x->nmat++;
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	load_types(t, ld, ld_get(root, "unit-types"));
	load_tables(t, ld, ld_get(root, "tables"));
}


static void
load_unit(struct arb_turn *t, struct ld *ld, int u, const struct jv *v)
{
	struct xconq	*x = X(t);
	struct xunit	 xv, *xu = &xv;	/* kept once whole */
	struct xtype	*xt = &x->ut[t->units.v[u].type];
	const struct jv	*l, *sv;
	const char	*name;
	const struct utype *ty;
	void		*it;
	size_t		 i, n;
	int		 m;

	memset(&xv, 0, sizeof(xv));
	if (ld_get(v, "acp") == NULL)
		ld_fail(ld, "missing \"acp\": every unit needs its acp for the "
		    "turn");
	xu->acp0 = xu->acp = (int)ld_int(ld, v, "acp", 0, 0, BIG);
	xu->has_hp = ld_get(v, "hp") != NULL;
	xu->hp = (int)ld_int(ld, v, "hp", 0, 0, BIG);
	if (xt->ndmg > 0 && !xu->has_hp)
		ld_fail(ld, "missing \"hp\": type %s has a "
		    "speed-damage-effect", t->types.v[t->units.v[u].type].name);
	if ((l = ld_get(v, "occupants")) != NULL) {
		ld_push(ld, "occupants");
		n = ld_len(ld, l);
		xu->occ = t_alloc(t, (n > 0 ? n : 1) * sizeof(int));
		for (i = 0; i < n; i++) {
			ld_pushi(ld, i);
			name = ld_strv(ld, ld_at(l, i));
			if ((ty = type_find(t, name)) == NULL)
				ld_fail(ld, "unknown unit type \"%s\"", name);
			xu->occ[xu->nocc++] = (int)(ty - t->types.v);
			ld_pop(ld);
		}
		ld_pop(ld);
	}
	if ((l = ld_get(v, "supplies")) != NULL) {
		ld_push(ld, "supplies");
		if (!ld_is_object(l))
			ld_fail(ld, "bad supplies: expected an object of "
			    "materials");
		it = ld_iter(l);
		while (ld_next(l, &it, &name, &sv)) {
			if ((m = mat_find(t, name)) < 0) {
				ld_push(ld, name);
				ld_fail(ld, "unknown material \"%s\"", name);
			}
			xu->sup[m] = ld_int(ld, l, name, 0, 0, BIG);
			xu->has_sup[m] = true;
		}
		ld_pop(ld);
	}
	*VPUSH(t, x->units) = xv;
}

/* The terrain type of a cell. */
static int
cell_tt(struct arb_turn *t, int c)
{
	return X(t)->cell_tt[t->board.cells[c].terrain];
}

static void
mask_set(struct arb_turn *t, struct intmap *mask, int a, int b, int tt)
{
	int	 d = board_dir(&t->board, a, b);

	*intmap_at(&t->mem, mask, (uint64_t)a * 6 + (uint64_t)d) |=
	    (uint64_t)1 << tt;
	d = board_dir(&t->board, b, a);
	*intmap_at(&t->mem, mask, (uint64_t)b * 6 + (uint64_t)d) |=
	    (uint64_t)1 << tt;
}

/* Across the whole map: cell terrains, borders and connections of the
 * right kinds.  Each problem is told and the checks go on (issue 26),
 * with the nearest type of the kind wanted. */
static void
loaded(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	struct xconq	*x = X(t);
	struct board	*b = &t->board;
	const char	*kind[2][MAXTT + 1];
	size_t		 i;
	int		 tt, k, n[2] = { 0, 0 };

	(void)root;
	for (k = 0; k < x->ntt; k++)
		if (x->tk[k] == TK_BORDER || x->tk[k] == TK_CONN)
			kind[x->tk[k] == TK_CONN][n[x->tk[k] == TK_CONN]++] =
			    x->tt[k];
	kind[0][n[0]] = kind[1][n[1]] = NULL;
	for (i = 0; i < (size_t)b->ncells; i++)
		if (cell_tt(t, (int)i) < 0) {
			ld_push(ld, "board");
			ld_problem(ld, "cell %s has terrain \"%s\", which is "
			    "not a cell type of terrain-types",
			    cell_name(t, (int)i),
			    b->terrains[b->cells[i].terrain]);
			ld_pop(ld);
		}
	for (i = 0; i < b->sides.n; i++) {
		const char *f = b->sidefeats.v[b->sides.v[i].feature];

		tt = tt_find(t, f);
		if (tt < 0 || x->tk[tt] != TK_BORDER) {
			ld_push(ld, "hexsides");
			ld_pushi(ld, i);
			ld_push(ld, "feature");
			ld->hint = ld_meant(ld, f, kind[0], NULL);
			ld_problem(ld, "\"%.40s\" is not a border type of "
			    "terrain-types", f);
			ld_pop(ld);
			ld_pop(ld);
			ld_pop(ld);
			continue;
		}
		mask_set(t, &x->borders, b->sides.v[i].a, b->sides.v[i].b, tt);
	}
	for (i = 0; i < b->conns.n; i++) {
		tt = tt_find(t, b->conns.v[i].kind);
		if (tt < 0 || x->tk[tt] != TK_CONN) {
			ld_push(ld, "connections");
			ld_pushi(ld, i);
			ld_push(ld, "kind");
			ld->hint = ld_meant(ld, b->conns.v[i].kind, kind[1],
			    NULL);
			ld_problem(ld, "\"%.40s\" is not a connection type "
			    "of terrain-types", b->conns.v[i].kind);
			ld_pop(ld);
			ld_pop(ld);
			ld_pop(ld);
			continue;
		}
		for (k = 1; k < b->conns.v[i].ncells; k++)
			mask_set(t, &x->conns, b->conns.v[i].cells[k - 1],
			    b->conns.v[i].cells[k], tt);
	}
}

static void
begin(struct arb_turn *t)
{
	struct xconq	*x = X(t);
	size_t		 i;
	int		 range, from;

	x->orec = t_alloc(t, (t->orders.n > 0 ? t->orders.n : 1) *
	    sizeof(*x->orec));
	for (i = 0; i < t->orders.n; i++)
		x->orec[i].refused_to = -1;
	/* How far any zone reaches: -1 when none can. */
	range = tab_max(t, T_ZOCRANGE);
	from = tab_max(t, T_ZOCFROM);
	if (range < 0 || from <= 0)
		x->zoc_reach = -1;
	else
		x->zoc_reach = (long)range * from / 100 > BIG ? BIG :
		    (int)((long)range * from / 100);
}

/* xconq speed: the type's speed, changed by occupants and damage, within
 * speed-min and speed-max. */
static long
speed_of(struct arb_turn *t, int u)
{
	struct xconq	*x = X(t);
	struct xunit	*xu = &x->units.v[u];
	struct xtype	*xt = &x->ut[t->units.v[u].type];
	long		 s = xt->p[P_SPEED], pct;
	int		 i, ty = t->units.v[u].type;

	if (xu->nocc > 0 && s == 0)
		s = 1;		/* "as if the speed were 1" */
	/* Each product is held to BIG, so that acp x speed stays in a
	 * long. */
	for (i = 0; i < xu->nocc; i++)
		if ((s = s * tab(t, T_OCC, ty, xu->occ[i]) / 100) > BIG)
			s = BIG;
	if (xt->ndmg > 0) {
		/* Ruling: linear between the points around the unit's hp,
		 * the end points' percent beyond them. */
		if (xu->hp <= xt->dmg[0][0])
			pct = xt->dmg[0][1];
		else if (xu->hp >= xt->dmg[xt->ndmg - 1][0])
			pct = xt->dmg[xt->ndmg - 1][1];
		else {
			for (i = 1; xt->dmg[i][0] < xu->hp; i++)
				continue;
			pct = xt->dmg[i - 1][1] + (long)(xt->dmg[i][1] -
			    xt->dmg[i - 1][1]) * (xu->hp - xt->dmg[i - 1][0]) /
			    (xt->dmg[i][0] - xt->dmg[i - 1][0]);
		}
		if ((s = s * pct / 100) > BIG)
			s = BIG;
	}
	if (s < xt->p[P_SPEED_MIN])
		s = xt->p[P_SPEED_MIN];
	if (xt->p[P_SPEED_MAX] > 0 && s > xt->p[P_SPEED_MAX])
		s = xt->p[P_SPEED_MAX];
	return s;
}

/* The unit's speed, worked out once: its type, occupants and hit points do
 * not change during the turn, and the product over many occupants would
 * otherwise cost time in actions times occupants (issue 11). */
static long
speed(struct arb_turn *t, int u)
{
	struct xunit	*xu = &X(t)->units.v[u];

	if (!xu->has_speed) {
		xu->speed = speed_of(t, u);
		xu->has_speed = true;
	}
	return xu->speed;
}

/* xconq mp: the product of acp and speed, divided by 100 and rounded
 * down (towards minus infinity, for a map's acp below acp-min).  Ruling
 * (READINGS, 2026-11-27, from the 7.5 kernel): where the type's acp-min
 * is below 0 the acp are counted down to it, (acp - acp-min) * speed /
 * 100; an acp-min of 0 or more counts from 0. */
static long
mp_of(struct arb_turn *t, int u, long acp)
{
	long	 min = prop(t, u, P_ACP_MIN);
	long	 p = (acp - (min < 0 ? min : 0)) * speed(t, u);

	return p >= 0 ? p / 100 : -((-p + 99) / 100);
}

static long
mp_left(struct arb_turn *t, int u)
{
	return mp_of(t, u, X(t)->units.v[u].acp);
}

/* Can unit type ty exist on terrain type tt (xconq altitude)? */
static bool
can_exist(struct arb_turn *t, int ty, int tt)
{
	return tab(t, T_ALTMIN, ty, tt) <= tab(t, T_ALTMAX, ty, tt);
}

/* The coatings of a cell, as a mask of terrain types. */
static uint64_t
coatings(struct arb_turn *t, int c)
{
	uint32_t	 f = t->board.cells[c].features;
	uint64_t	 m = 0;
	int		 k;

	for (k = 0; k < t->board.nfeatures; k++)
		if ((f >> k & 1) && X(t)->feat_tt[k] >= 0)
			m |= (uint64_t)1 << X(t)->feat_tt[k];
	return m;
}

/* Leaving a cell or entering it: its terrain and its coatings. */
static int
cell_cost(struct arb_turn *t, struct action *ac, int ty, int c, bool enter)
{
	uint64_t	 m = coatings(t, c);
	enum tab	 k = enter ? T_ENTER : T_LEAVE;
	int		 sum = tab(t, k, ty, cell_tt(t, c)), tt;

	/* The terrain's own cost; the coatings' are listed apart. */
	if (enter)
		ac->enter += sum;
	else
		ac->leave += sum;

	for (tt = 0; tt < X(t)->ntt; tt++) {
		struct comp *cp;

		if (!(m >> tt & 1))
			continue;
		cp = VPUSH(t, ac->comps);
		cp->tt = tt;
		cp->mp = tab(t, k, ty, tt);
		cp->enter = enter;
		sum += cp->mp;
	}
	return sum;
}

/* Does zone z weigh more than y in the list: a prohibition first, then
 * the higher mp, then the earlier unit? */
static bool
zoc_weighs_more(const struct zc *z, const struct zc *y)
{
	if ((z->mp < 0) != (y->mp < 0))
		return z->mp < 0;
	if (z->mp != y->mp)
		return z->mp > y->mp;
	return z->unit < y->unit;
}

/* Records zone z on the action: listed while there is room, else in place
 * of the lightest listed one if it weighs more; counted either way. */
static void
zoc_note(struct arb_turn *t, struct action *ac, const struct zc *z)
{
	size_t	 i, light = (size_t)ac->zoc_light;

	if (ac->zoc.n < ZOC_LIST) {
		*VPUSH(t, ac->zoc) = *z;
		if (ac->zoc.n < ZOC_LIST)
			return;
	} else {
		ac->zoc_more++;
		if (!zoc_weighs_more(z, &ac->zoc.v[light]))
			return;		/* most zones, at once */
		/* In place of the lightest, keeping the list in unit
		 * order. */
		memmove(&ac->zoc.v[light], &ac->zoc.v[light + 1],
		    (ac->zoc.n - light - 1) * sizeof(*z));
		ac->zoc.v[ac->zoc.n - 1] = *z;
	}
	/* The list is full: find its lightest again. */
	for (light = 0, i = 1; i < ac->zoc.n; i++)
		if (zoc_weighs_more(&ac->zoc.v[light], &ac->zoc.v[i]))
			light = i;
	ac->zoc_light = (int)light;
}

static int
cmp_int(const void *a, const void *b)
{
	int	 x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The units that could have a zone over a or b, in index order: the
 * enemies of player mover on cells within the farthest any zone reaches of
 * either, when there are few; else NULL, for every unit (n of them).
 */
static const int *
zoc_candidates(struct arb_turn *t, int mover, int a, int b, size_t *n)
{
	struct xconq	*x = X(t);
	const struct board *bd = &t->board;
	int64_t		 r = x->zoc_reach, area = 3 * r * (r + 1) + 1;
	int		 ends[2] = { a, b }, k, col, row, cc, rr, cell, u;

	x->near.n = 0;
	*n = 0;
	if (r < 0)			/* no zones at all */
		return x->near.v;
	if (2 * area >= (int64_t)t->units.n) {
		*n = t->units.n;
		return NULL;		/* every unit */
	}
	if (x->seen == NULL)
		x->seen = t_alloc(t, t->units.n * sizeof(*x->seen));
	x->stamp++;
	for (k = 0; k < 2 && ends[k] >= 0; k++) {
		col = ends[k] % bd->cols;
		row = ends[k] / bd->cols;
		/* The box holds the disk; both are cut to the board. */
		for (cc = col - r < 0 ? 0 : col - (int)r;
		    cc <= col + r && cc < bd->cols; cc++)
			for (rr = row - r - 1 < 0 ? 0 : row - (int)r - 1;
			    rr <= row + r + 1 && rr < bd->rows; rr++) {
				cell = rr * bd->cols + cc;
				if (board_distance(bd, cell, ends[k]) > r)
					continue;
				for (u = bd->cells[cell].first_unit; u >= 0;
				    u = t->units.v[u].next)
					if (x->seen[u] != x->stamp &&
					    !players_allied(t, mover,
					    t->units.v[u].player)) {
						x->seen[u] = x->stamp;
						*VPUSH(t, x->near) = u;
					}
			}
	}
	/* Many near: sorting them would cost more than looking at all. */
	if (x->near.n > t->units.n / 4) {
		*n = t->units.n;
		return NULL;
	}
	if (x->near.n > 1)
		qsort(x->near.v, x->near.n, sizeof(int), cmp_int);
	*n = x->near.n;
	return x->near.v;
}

#define ZMEMO	65536		/* steps whose zones are kept */
#define TCACHE	64		/* enemy types looked up once a step */

/*
 * The zones of the step from a to b for unit u: the ZOC_LIST that weigh
 * most, how many more, the largest mp and whether one prohibits the step.
 * Kept in a table of ZMEMO steps while no enemy of the mover has moved
 * since, so that a unit going back and forth among thousands of units
 * looks at them once, and a step costed several times (the ways of a long
 * action) is costed once.
 */
static const struct zmemo *
zoc_step(struct arb_turn *t, int u, int a, int b)
{
	struct xconq	*x = X(t);
	const struct unit *un = &t->units.v[u];
	const int	*cand;
	struct zmemo	*zm;
	struct action	*sc = &x->zscratch;
	uint64_t	 key, others = x->moves - x->moves_by[un->player];
	struct {
		int	 type, range, tt, from, mp[3];
		bool	 into_a, into_b;
	}		 tcache[TCACHE], *tc;
	size_t		 i, n;
	int		 r, f, mp, te, tt_a, tt_b;
	bool		 in_a, in_b;
	struct hexpos	 pa, pb, pe;

	key = ((((uint64_t)(unsigned)a * 0x9e3779b97f4a7c15u) ^
	    (uint64_t)(unsigned)b) * 0xbf58476d1ce4e5b9u ^
	    (uint64_t)(unsigned)un->type) * 0x94d049bb133111ebu ^
	    (uint64_t)(unsigned)un->player;
	if (x->zmemo == NULL) {
		/* As many as the orders have cells, up to ZMEMO. */
		size_t	 cells = 0, o;

		for (o = 0; o < t->orders.n; o++)
			cells += (size_t)t->orders.v[o].ncells;
		for (x->nzmemo = 64; x->nzmemo < cells && x->nzmemo < ZMEMO;
		    x->nzmemo *= 2)
			;
		x->zmemo = t_alloc(t, x->nzmemo * sizeof(*x->zmemo));
	}
	zm = &x->zmemo[(key ^ key >> 29) & (x->nzmemo - 1)];
	if (zm->valid && zm->a == a && zm->b == b && zm->type == un->type &&
	    zm->player == un->player && zm->others == others)
		return zm;
	sc->zoc.n = 0;
	sc->zoc_more = 0;
	for (i = 0; i < TCACHE; i++)
		tcache[i].type = -1;
	tt_a = cell_tt(t, a);
	tt_b = b >= 0 ? cell_tt(t, b) : -1;
	pa = board_pos(&t->board, a);
	pb = b >= 0 ? board_pos(&t->board, b) : pa;
	zm->valid = true;
	zm->a = a;
	zm->b = b;
	zm->type = un->type;
	zm->player = un->player;
	zm->others = others;
	zm->best = 0;
	zm->no = false;
	cand = zoc_candidates(t, un->player, a, b, &n);
	for (i = 0; i < n; i++) {
		int		 ei = cand != NULL ? cand[i] : (int)i;
		const struct unit *e = &t->units.v[ei];
		struct zc	 z;

		if (e->gone || e->left || players_allied(t, e->player,
		    un->player))
			continue;
		te = e->type;
		/* What depends on the enemy's type alone, looked up once a
		 * step for each type met (most crowds are of few types). */
		tc = &tcache[te & (TCACHE - 1)];
		if (tc->type != te) {
			tc->type = te;
			tc->range = tab(t, T_ZOCRANGE, te, un->type);
			tc->into_a = tab(t, T_ZOCINTO, te, tt_a) != 0;
			tc->into_b = b >= 0 && tab(t, T_ZOCINTO, te, tt_b) != 0;
			tc->mp[Z_ENTER] = tab(t, T_ZOCENTER, un->type, te);
			tc->mp[Z_LEAVE] = tab(t, T_ZOCLEAVE, un->type, te);
			tc->mp[Z_TRAVERSE] = tab(t, T_ZOCTRAV, un->type, te);
			tc->tt = -1;
		}
		if ((r = tc->range) < 0 || (!tc->into_a && !tc->into_b))
			continue;
		if (tc->tt != cell_tt(t, e->at)) {
			tc->tt = cell_tt(t, e->at);
			tc->from = tab(t, T_ZOCFROM, te, tc->tt);
		}
		if ((f = tc->from) == 0)
			continue;
		r = (long)r * f / 100 > BIG ? BIG : (int)((long)r * f / 100);
		pe = board_pos(&t->board, e->at);
		in_a = tc->into_a && board_pos_distance(pe, pa) <= r;
		in_b = tc->into_b && board_pos_distance(pe, pb) <= r;
		if (!in_a && !in_b)
			continue;
		z.unit = ei;
		z.kind = in_a && in_b ? Z_TRAVERSE : in_b ? Z_ENTER : Z_LEAVE;
		mp = tc->mp[z.kind];
		z.mp = mp;
		zoc_note(t, sc, &z);
		if (mp < 0)
			zm->no = true;
		else if (mp > zm->best)
			zm->best = mp;
	}
	zm->more = sc->zoc_more;
	zm->nz = (int)sc->zoc.n;
	if (sc->zoc.n > 0)
		memcpy(zm->z, sc->zoc.v, sc->zoc.n * sizeof(*zm->z));
	return zm;
}

/*
 * xconq zoc: the extra for a step from a to b, the maximum over enemy
 * units; -1 when one of them prohibits it.  The step's zones join the
 * action's: the eight that weigh most of a step are enough, since a zone
 * that is not among them cannot be among the action's eight either.
 */
static int
zoc_extra(struct arb_turn *t, struct action *ac, int u, int a, int b)
{
	const struct zmemo *zm;
	int		 i;

	if (X(t)->zoc_reach < 0)
		return 0;		/* no zone reaches anywhere */
	zm = zoc_step(t, u, a, b);

	for (i = 0; i < zm->nz; i++)
		zoc_note(t, ac, &zm->z[i]);
	ac->zoc_more += zm->more;
	return zm->no ? -1 : zm->best;
}

/* The two cells that touch both a and b, which lie two apart; false when
 * there are not two. */
static bool
slide_cells(struct arb_turn *t, int a, int b, int *x1, int *x2)
{
	int	 d, c, n = 0;

	for (d = 0; d < 6; d++) {
		c = board_step(&t->board, a, d);
		if (c >= 0 && board_is_adjacent(&t->board, c, b)) {
			if (n == 0)
				*x1 = c;
			else
				*x2 = c;
			n++;
		}
	}
	return n == 2;
}

/*
 * Costs one step of unit u from a to the neighbouring cell b, by the
 * one-step formula (xconq terrain, border, connection, zoc): leave, cross,
 * enter, or a cheaper connection; raised to 1; the zone of control extra
 * added.  Returns the reason it is refused (saying why in *why unless
 * why is NULL), or R_OK with ac->cost set.  The step is added to ac's
 * lists and sums.
 */
static enum reason
step_cost(struct arb_turn *t, struct action *ac, int u, int a, int b,
    const char **why)
{
	struct xconq	*x = X(t);
	const struct unit *un = &t->units.v[u];
	int		 ty = un->type, tt, z, best, normal, conn = -1, conn_mp;
	int		 dir = board_dir(&t->board, a, b);
	uint64_t	 m, m0;
	bool		 open = true, taken = false;

	if (!can_exist(t, ty, cell_tt(t, b))) {
		if (why != NULL)
			*why = t_printf(t, "%s cannot exist on %s at %s "
			    "(altitude-min %d, altitude-max %d)", un->id,
			    x->tt[cell_tt(t, b)], cell_name(t, b), tab(t,
			    T_ALTMIN, ty, cell_tt(t, b)), tab(t, T_ALTMAX, ty,
			    cell_tt(t, b)));
		return R_CANNOT_EXIST;
	}
	/* xconq terrain and border: leave, cross, enter. */
	normal = cell_cost(t, ac, ty, a, false) + cell_cost(t, ac, ty, b, true);
	m = m0 = intmap_get(&x->borders, (uint64_t)a * 6 + (uint64_t)dir);
	for (tt = 0; tt < x->ntt; tt++) {
		struct comp *cp;

		if (!(m >> tt & 1))
			continue;
		cp = VPUSH(t, ac->comps);
		cp->tt = tt;
		cp->mp = tab(t, T_ENTER, ty, tt);
		cp->enter = true;
		normal += cp->mp;
		/* Ruling: a border the unit could not exist on is not
		 * crossed. */
		if (!can_exist(t, ty, tt))
			open = false;
	}
	/* xconq connection: the cheapest usable one replaces the sum when
	 * it is cheaper. */
	m = intmap_get(&x->conns, (uint64_t)a * 6 + (uint64_t)dir);
	conn_mp = 0;
	for (tt = 0; tt < x->ntt; tt++) {
		int c;

		if (!(m >> tt & 1) || tab(t, T_TRAVERSE, ty, tt) < 0)
			continue;
		c = tab(t, T_ENTER, ty, tt) + tab(t, T_TRAVERSE, ty, tt) +
		    tab(t, T_LEAVE, ty, tt);
		if (conn < 0 || c < conn_mp) {
			conn = tt;
			conn_mp = c;
		}
	}
	if (conn >= 0 && (!open || conn_mp < normal))
		taken = true;
	if (!open && !taken) {
		for (tt = 0; tt < x->ntt; tt++)
			if ((m0 >> tt & 1) && !can_exist(t, ty, tt))
				break;
		if (why != NULL)
			*why = t_printf(t, "%s cannot cross the %s between %s "
			    "and %s", un->id, x->tt[tt], cell_name(t, a),
			    cell_name(t, b));
		return R_IMPASSABLE;
	}
	best = taken ? conn_mp : normal;
	if ((z = zoc_extra(t, ac, u, a, b)) < 0) {
		size_t i;

		for (i = 0; i < ac->zoc.n && ac->zoc.v[i].mp >= 0; i++)
			continue;
		if (why != NULL)
			*why = t_printf(t, "the zone of control of %s "
			    "prohibits it (%s %s)",
			    t->units.v[ac->zoc.v[i].unit].id,
			    ac->zoc.v[i].kind == Z_ENTER ? "mp-to-enter-zoc" :
			    ac->zoc.v[i].kind == Z_LEAVE ? "mp-to-leave-zoc" :
			    "mp-to-traverse-zoc", "-1");
		return R_ZOC_PROHIBITED;
	}
	ac->normal += normal;
	ac->conn = conn;
	ac->conn_mp = conn_mp;
	ac->conn_taken = taken;
	ac->clamped += best < 1 ? 1 : best;
	ac->zoc_max += z;
	ac->cost = ac->clamped + ac->zoc_max;
	return R_OK;
}

/* A cell of the ways of k steps from a to b (see way_cost()). */
/* The node of cell c, added when new. */
static int
wnode_of(struct arb_turn *t, struct wnodes *nv, int c)
{
	struct wnode	*n;
	size_t		 i;

	/* A few cells (k * k / 4, k <= MAXRANGE): looked for in turn, so
	 * that costing a way allocates nothing once the scratch has its
	 * room (the walk hooks cost many). */
	for (i = nv->n; i > 0; i--)
		if (nv->v[i - 1].cell == c)
			return (int)i - 1;
	n = VPUSH(t, *nv);
	n->cell = c;
	n->prev = -1;
	n->cost = -1;
	n->bfrom = n->bto = -1;
	return (int)nv->n - 1;
}

/*
 * The cheapest ways from a to b, radius cells away, or with b < 0 to
 * every cell within radius, each by single steps that go one cell further
 * from a each time, into x->wnv: the cells of those ways (with b, those
 * one step nearer b each time) costed layer by layer from a, each once,
 * in the order they are reached and the directions in the board's order;
 * of equal ways, the one found first.  A cell no way reaches keeps the
 * first step found refused on the way to it.  A cell on a way to b is
 * reached only through cells that are on one too (a cell one step nearer
 * a is one step further from b), in the same order, so b's way and reason
 * are the same either way (the reading of 2026-11-24, way_cost()).
 */
static void
ways_from(struct arb_turn *t, int u, int a, int radius, int b)
{
	const struct board *bd = &t->board;
	struct xconq	*x = X(t);
	enum reason	 rs;
	size_t		 i, lo, hi;
	int		 d, c, j, di;
	struct hexpos	 pa = board_pos(bd, a), pb = board_pos(bd, b < 0 ? a :
			    b), pc;

#define nv	(x->wnv)
#define st	(x->wst)
	nv.n = 0;
	act_clear(&st);
	wnode_of(t, &nv, a);
	nv.v[0].cost = 0;
	for (lo = 0, hi = 1, di = 1; lo < hi && di <= radius; lo = hi,
	    hi = nv.n, di++) {
		for (i = lo; i < hi; i++) {
			for (d = 0; d < 6; d++) {
				int from = nv.v[i].cell;

				if ((c = board_step(bd, from, d)) < 0)
					continue;
				pc = board_pos(bd, c);
				if (board_pos_distance(pc, pa) != di || (b >= 0 &&
				    board_pos_distance(pc, pb) != radius - di))
					continue;
				j = wnode_of(t, &nv, c);
				if (nv.v[i].cost < 0) {
					if (nv.v[j].cost < 0 &&
					    nv.v[j].bto < 0) {
						nv.v[j].rs = nv.v[i].rs;
						nv.v[j].bfrom = nv.v[i].bfrom;
						nv.v[j].bto = nv.v[i].bto;
					}
					continue;
				}
				st.comps.n = st.zoc.n = 0;
				st.zoc_more = 0;
				st.leave = st.enter = st.normal = 0;
				st.clamped = st.zoc_max = 0;
				rs = step_cost(t, &st, u, from, c, NULL);
				if (rs == R_OK && (nv.v[j].cost < 0 ||
				    nv.v[i].cost + st.cost < nv.v[j].cost)) {
					nv.v[j].cost = nv.v[i].cost + st.cost;
					nv.v[j].prev = (int)i;
				} else if (rs != R_OK && nv.v[j].cost < 0 &&
				    nv.v[j].bto < 0) {
					nv.v[j].rs = rs;
					nv.v[j].bfrom = from;
					nv.v[j].bto = c;
				}
			}
		}
	}
#undef nv
#undef st
}

/*
 * Costs the action of unit u from a to b, k = distance(a, b) > 1 cells
 * apart: the cheapest way of k single steps, each by step_cost() (xconq
 * move; the reading of 2026-11-24).  The cells on such ways are those
 * one step nearer b each time; they are costed layer by layer from a,
 * each once, by ways_from() (for the walk, with those of every other
 * cell in range, which changes no way).  Ruling: of equal ways, the one
 * found first, taking the cells in the order they are reached and the
 * directions in the board's order; when no way is open, the reason is that
 * of the first step found refused on the way to b.  The chosen way's steps are then costed again
 * into ac, with the cells between in ac->via.
 *
 * The cells between number up to k * k / 4, which is why move-range is at
 * most MAXRANGE (tests/hostile/xconq-far-actions.sh).
 */
static enum reason
way_cost(struct arb_turn *t, struct action *ac, int u, int a, int b,
    const char **why)
{
	const struct board *bd = &t->board;
	struct xconq	*x = X(t);
	enum reason	 rs;
	const struct unit *un = &t->units.v[u];
	int		 k = board_distance(bd, a, b), j, np, radius, to;
	int		 path[MAXRANGE + 2];

#define nv	(x->wnv)
#define st	(x->wst)
	/* The ways to b alone; for the walk, which tries every cell in
	 * range from one cell, the ways to all of them at once, kept while
	 * nothing moves. */
	radius = k;
	to = b;
	if (x->wide) {
		radius = prop(t, u, P_MOVE_RANGE);
		if (radius < 2)
			radius = 2;		/* a slide */
		if (radius < k)
			radius = k;
		to = -1;
	}
	if (!x->wkey.valid || x->wkey.src != a || x->wkey.type != un->type ||
	    x->wkey.player != un->player || x->wkey.moves != x->moves ||
	    x->wkey.to != to || (to < 0 ? x->wkey.radius < k :
	    x->wkey.radius != k)) {
		x->wkey.valid = true;
		x->wkey.src = a;
		x->wkey.type = un->type;
		x->wkey.player = un->player;
		x->wkey.moves = x->moves;
		x->wkey.radius = radius;
		x->wkey.to = to;
		ways_from(t, u, a, radius, to);
	}
	j = wnode_of(t, &nv, b);
	rs = R_OK;
	if (nv.v[j].cost < 0) {
		const char *w = "";

		rs = nv.v[j].rs;
		/* The step found refused, costed again for its message. */
		act_clear(&st);
		if (why != NULL) {
			(void)step_cost(t, &st, u, nv.v[j].bfrom, nv.v[j].bto,
			    &w);
			*why = t_printf(t, "no way of %d steps to %s is open; "
			    "the step from %s to %s: %s", k, cell_name(t, b),
			    cell_name(t, nv.v[j].bfrom),
			    cell_name(t, nv.v[j].bto), w);
		}
	} else {
		for (np = 0; j >= 0; j = nv.v[j].prev)
			path[np++] = nv.v[j].cell;
		/* path[np - 1] is a, path[0] is b. */
		for (np--; np > 0; np--) {
			if (np > 1)
				*VPUSH(t, ac->via) = path[np - 1];
			rs = step_cost(t, ac, u, path[np], path[np - 1], why);
			if (rs != R_OK)
				t_fail(t, ARB_EINTERNAL, "xconq: a way costed "
				    "twice differs");
		}
		ac->conn = -1;
		ac->conn_taken = false;
	}
	return rs;
#undef nv
#undef st
}

/* Says why in *why, unless why is NULL (the walk hooks ask only what). */
#define WHY(...)	do {						\
	if (why != NULL)						\
		*why = t_printf(t, __VA_ARGS__);			\
} while (0)

/*
 * Costs the action of unit u from a to b (for leaving the world, b is the
 * edge cell it leaves through).  Returns the reason it is refused, or R_OK
 * with ac->cost set.
 */
static enum reason
cost_action(struct arb_turn *t, struct action *ac, int u, int a, int b,
    const char **why)
{
	struct xconq	*x = X(t);
	const struct unit *un = &t->units.v[u];
	int		 ty = un->type, d, tt, x1, x2, range, best = -1;
	int		 border = -1;
	uint64_t	 m;
	bool		 slide = false;
	enum reason	 rs;

	ac->conn = -1;
	range = prop(t, u, P_MOVE_RANGE);
	d = board_distance(&t->board, a, b);
	if (ac->kind == A_LEAVE) {
		int nb[6];

		if (prop(t, u, P_LEAVE_WORLD) < 0) {
			if (why != NULL)
				*why = "its type may never leave the world "
				    "(mp-to-leave-world -1)";
			return R_CANNOT_LEAVE_WORLD;
		}
		if (board_neighbors(&t->board, b, nb) == 6) {
			WHY("%s is not on the edge of the "
			    "board", cell_name(t, b));
			return R_NOT_AT_EDGE;
		}
		/* Ruling: the edge cell is the destination of a move, within
		 * move-range (the reading of 2026-11-24). */
		if (d > range) {
			WHY("%s is %d cells from %s; %s's "
			    "move-range is %d", cell_name(t, b), d,
			    cell_name(t, a), un->id, range);
			return R_NOT_AT_EDGE;
		}
		/* xconq world: the move into the edge cell, nothing when
		 * the unit stands on it, then mp-to-leave-world; a move
		 * costs at least 1 (xconq mp). */
		rs = d == 0 ? R_OK : d == 1 ? step_cost(t, ac, u, a, b, why) :
		    way_cost(t, ac, u, a, b, why);
		if (rs != R_OK)
			return rs;
		ac->world = prop(t, u, P_LEAVE_WORLD);
		ac->cost = ac->clamped + ac->zoc_max + ac->world;
		if (ac->cost < 1)
			ac->cost = 1;
		return R_OK;
	}
	if (d == 0) {
		/* Ruling: a move goes "from one location to another". */
		WHY("%s is already at %s", un->id,
		    cell_name(t, b));
		return R_OUT_OF_RANGE;
	}
	if (!can_exist(t, ty, cell_tt(t, b))) {
		WHY("%s cannot exist on %s at %s (altitude-min "
		    "%d, altitude-max %d)", un->id, x->tt[cell_tt(t, b)],
		    cell_name(t, b), tab(t, T_ALTMIN, ty, cell_tt(t, b)),
		    tab(t, T_ALTMAX, ty, cell_tt(t, b)));
		return R_CANNOT_EXIST;
	}
	if (d == 1)
		return step_cost(t, ac, u, a, b, why);
	/* xconq border: a slide along a border between the two cells that
	 * touch both ends, whatever the move-range. */
	if (d == 2 && slide_cells(t, a, b, &x1, &x2)) {
		int dir = board_dir(&t->board, x1, x2);

		m = intmap_get(&x->borders, (uint64_t)x1 * 6 + (uint64_t)dir);
		for (tt = 0; tt < x->ntt; tt++) {
			int c = tab(t, T_TRAVERSE, ty, tt);

			if (!(m >> tt & 1) || c < 0)
				continue;
			if (!slide || c < best) {
				best = c;
				border = tt;
			}
			slide = true;
		}
	}
	if (!slide && d > range) {
		WHY("%s is %d cells from %s; %s's move-range is "
		    "%d", cell_name(t, b), d, cell_name(t, a), un->id, range);
		return R_OUT_OF_RANGE;
	}
	/* Ruling: a slide, like an action over the cells, costs the
	 * cheapest way of single steps (the reading of 2026-11-24); the
	 * border's mp-to-traverse only permits it. */
	if ((rs = way_cost(t, ac, u, a, b, why)) != R_OK)
		return rs;
	if (slide) {
		ac->kind = A_SLIDE;
		ac->conn = border;
		ac->conn_mp = best;
		ac->conn_taken = true;
	}
	return R_OK;
}

/* xconq material: has the unit what it needs to move? */
static int
lacks(struct arb_turn *t, int u)
{
	struct xconq	*x = X(t);
	struct xunit	*xu = &x->units.v[u];
	int		 m, ty = t->units.v[u].type;

	for (m = 0; m < x->nmat; m++)
		if (xu->sup[m] < tab(t, T_MATMOVE, ty, m) ||
		    xu->sup[m] < tab(t, T_CONSUME, ty, m))
			return m;
	return -1;
}

/* xconq material: how many more move actions the unit's materials allow
 * (each uses consumption-per-move, and each needs material-to-move and
 * that much left: lacks()); INT32_MAX when none runs out. */
static int32_t
moves_left(struct arb_turn *t, int u)
{
	struct xconq	*x = X(t);
	struct xunit	*xu = &x->units.v[u];
	int		 m, ty = t->units.v[u].type;
	long		 need, use, n, best = INT32_MAX;

	for (m = 0; m < x->nmat; m++) {
		need = tab(t, T_MATMOVE, ty, m);
		use = tab(t, T_CONSUME, ty, m);
		if (use > need)
			need = use;
		if (xu->sup[m] < need)
			return 0;
		if (use > 0 && (n = (xu->sup[m] - need) / use + 1) < best)
			best = n;
	}
	return (int32_t)best;
}

/* Ruling: a move needs its acp: acp less acp-to-move may not fall below
 * acp-min, whatever the mp (the kernel's check, before the materials; the
 * reading of 2026-11-24). */
static bool
acp_blocked(struct arb_turn *t, int u, long acp)
{
	return acp - prop(t, u, P_ACP_TO_MOVE) < prop(t, u, P_ACP_MIN);
}

/*
 * The price of one action of unit u with acp left, from a to b (the one
 * place an action is priced: act() and the walk hooks both call it):
 * costed by cost_action(), weighed against the mp that acp gives and
 * free-mp, and charged in acp.  Returns the reason it is refused (saying
 * why in *why unless why is NULL), or R_OK with ac->cost set and *after
 * the acp left after it.
 */
static enum reason
price_action(struct arb_turn *t, struct action *ac, int u, long acp, int a,
    int b, long *after, const char **why)
{
	const struct unit *un = &t->units.v[u];
	enum reason	 rs;
	long		 s, mp, acpc, free_mp = prop(t, u, P_FREE_MP);
	long		 atm = prop(t, u, P_ACP_TO_MOVE);
	long		 acp_min = prop(t, u, P_ACP_MIN);

	rs = cost_action(t, ac, u, a, b, why);
	s = speed(t, u);
	mp = mp_of(t, u, acp);
	/* xconq mp, and free-mp: none when the unit has no mp left; else
	 * the last step may go into the red. */
	X(t)->zoc_dear = rs == R_OK && s > 0 && mp > 0 && ac->zoc_max > 0 &&
	    ac->cost > mp + free_mp && ac->cost - ac->zoc_max <= mp + free_mp;
	if (rs == R_OK && (s == 0 || mp <= 0 || ac->cost > mp + free_mp)) {
		WHY("the action costs %ld mp and %s has %ld (acp %ld%s, "
		    "speed %ld%s)", ac->cost, un->id, mp, acp, acp_min < 0 ?
		    t_printf(t, ", counted down to acp-min %ld", acp_min) :
		    "", s, free_mp > 0 ? t_printf(t, ", free-mp %ld",
		    free_mp) : "");
		rs = R_INSUFFICIENT_MP;
	}
	if (rs != R_OK)
		return rs;
	/* Ruling: acp used, rounded down as the kernel does, at least
	 * acp-to-move and 1; the acp left never below acp-min (the reading
	 * of 2026-11-24). */
	acpc = ac->cost * 100 / s;
	if (acpc < atm)
		acpc = atm;
	if (acpc < 1)
		acpc = 1;
	*after = acp - acpc < acp_min ? acp_min : acp - acpc;
	return R_OK;
}

/* One action: refused with a reason, or carried out. */
static enum reason
act(struct arb_turn *t, struct order *o, int u, int b, enum akind kind,
    const char **why)
{
	struct xconq	*x = X(t);
	struct orec	*r = &x->orec[o - t->orders.v];
	struct xunit	*xu = &x->units.v[u];
	struct unit	*un = &t->units.v[u];
	enum reason	 rs;
	long		 mp, after, bm = 0, cm = 0;
	size_t		 k;
	int		 m, ty = un->type;

#define ac	(x->cur)
	act_clear(&ac);
	ac.to = b;
	ac.kind = kind;
	if (acp_blocked(t, u, xu->acp)) {
		*why = t_printf(t, "%s has %d acp; a move uses acp-to-move %d "
		    "and its acp may not fall below acp-min %d", un->id,
		    xu->acp, prop(t, u, P_ACP_TO_MOVE), prop(t, u,
		    P_ACP_MIN));
		return R_INSUFFICIENT_MP;
	}
	if ((m = lacks(t, u)) >= 0) {
		xu->immobile = true;
		*why = t_printf(t, "%s has %ld %s and needs %d to move "
		    "(material-to-move %d, consumption-per-move %d)", un->id,
		    xu->sup[m], x->mat[m], tab(t, T_MATMOVE, ty, m) >
		    tab(t, T_CONSUME, ty, m) ? tab(t, T_MATMOVE, ty, m) :
		    tab(t, T_CONSUME, ty, m), tab(t, T_MATMOVE, ty, m),
		    tab(t, T_CONSUME, ty, m));
		return R_IMMOBILIZED;
	}
	mp = mp_left(t, u);
	if ((rs = price_action(t, &ac, u, xu->acp, un->at, b, &after, why)) !=
	    R_OK)
		return rs;
	ac.mp0 = mp;
	ac.acp0 = xu->acp;
	xu->acp = (int)after;
	ac.acp1 = xu->acp;
	ac.mp1 = mp_left(t, u);
	ac.used = t_alloc(t, (size_t)(x->nmat > 0 ? x->nmat : 1) *
	    sizeof(long));
	for (m = 0; m < x->nmat; m++) {
		ac.used[m] = tab(t, T_CONSUME, ty, m);
		xu->sup[m] -= ac.used[m];
	}
	if (kind == A_LEAVE)
		unit_leave_world(t, u);
	else
		unit_place(t, u, b);
	x->moves++;
	x->moves_by[un->player]++;
	un->moved = true;
	un->by = (int)(o - t->orders.v);
	/* The parts of the cost, each an event before the action's: the
	 * borders crossed and the coatings left and entered (their mp are
	 * in normal with leave and enter), and the enemy zones (zoc_max is
	 * the sum of each step's largest). */
	for (k = 0; k < ac.comps.n; k++) {
		const struct comp *cp = &ac.comps.v[k];

		bm += x->tk[cp->tt] == TK_BORDER ? cp->mp : 0;
		cm += x->tk[cp->tt] == TK_COAT ? cp->mp : 0;
		if (x->tk[cp->tt] == TK_BORDER)
			trace_event(t, "part", "order", TF_ORDER, o, "unit",
			    TF_STR, un->id, "to", TF_CELL, (long)b, "part",
			    TF_STR, "border", "type", TF_STR, x->tt[cp->tt],
			    "mp", TF_INT, (long)cp->mp, NULL);
		else
			trace_event(t, "part", "order", TF_ORDER, o, "unit",
			    TF_STR, un->id, "to", TF_CELL, (long)b, "part",
			    TF_STR, "coating", "type", TF_STR, x->tt[cp->tt],
			    "side", TF_STR, cp->enter ? "enter" : "leave",
			    "mp", TF_INT, (long)cp->mp, NULL);
	}
	for (k = 0; k < ac.zoc.n; k++)
		trace_event(t, "part", "order", TF_ORDER, o, "unit", TF_STR,
		    un->id, "to", TF_CELL, (long)b, "part", TF_STR, "zoc",
		    "enemy", TF_STR, t->units.v[ac.zoc.v[k].unit].id,
		    "zone", TF_STR, zkind_names[ac.zoc.v[k].kind], "mp",
		    TF_INT, (long)ac.zoc.v[k].mp, NULL);
	trace_event(t, "action", "order", TF_ORDER, o, "unit", TF_STR,
	    un->id, "kind", TF_STR, akind_names[ac.kind], "to", TF_CELL,
	    (long)b, "leave", TF_INT, (long)ac.leave, "enter", TF_INT,
	    (long)ac.enter, "borders", TF_INT, bm, "coatings", TF_INT, cm,
	    "normal", TF_INT, (long)ac.normal, "connection",
	    TF_STR, ac.conn >= 0 ? x->tt[ac.conn] : "", "connection_mp",
	    TF_INT, (long)(ac.conn >= 0 ? ac.conn_mp : 0), "taken", TF_BOOL,
	    (long)ac.conn_taken, "clamped", TF_INT, (long)ac.clamped,
	    "zoc_max", TF_INT, (long)ac.zoc_max, "zoc_more", TF_INT,
	    (long)ac.zoc_more, "world", TF_INT, (long)ac.world, "cost", TF_INT,
	    (long)ac.cost, "mp_before", TF_INT, ac.mp0, "mp_after", TF_INT,
	    ac.mp1, "acp_before", TF_INT, ac.acp0, "acp_after", TF_INT,
	    ac.acp1, NULL);
	*VPUSH(t, r->acts) = ac;
	memset(&ac, 0, sizeof(ac));	/* its lists are the pushed one's */
	return R_OK;
#undef ac
}

static const char *rule_of(enum reason);

/*
 * The sheet's test of a leave_world order (rules.h, cell_test): what act()
 * would refuse of it from where the unit stands, by the same checks, none
 * of which changes the unit.
 */
static enum reason
cell_test(struct arb_turn *t, const struct order *o, const char **rule)
{
	struct action	 ac;
	int		 u = o->units[0];
	long		 after;
	bool		 dear = X(t)->zoc_dear;
	enum reason	 rs;

	if (o->kind != K_LEAVE || o->nunits != 1 || o->ncells != 1)
		return R_OK;
	memset(&ac, 0, sizeof(ac));
	ac.kind = A_LEAVE;
	ac.to = o->cells[0];
	if (acp_blocked(t, u, X(t)->units.v[u].acp))
		rs = R_INSUFFICIENT_MP;
	else if (lacks(t, u) >= 0)
		rs = R_IMMOBILIZED;
	else
		rs = price_action(t, &ac, u, X(t)->units.v[u].acp,
		    t->units.v[u].at, o->cells[0], &after, NULL);
	act_free(&ac);		/* its lists are the heap's */
	X(t)->zoc_dear = dear;
	*rule = rule_of(rs);
	return rs;
}

static const char *
rule_of(enum reason r)
{
	switch (r) {
	case R_OUT_OF_RANGE:
		return "xconq move";
	case R_IMPASSABLE:
		return "xconq border";
	case R_CANNOT_EXIST:
		return "xconq altitude";
	case R_ZOC_PROHIBITED:
		return "xconq zoc";
	case R_INSUFFICIENT_MP:
		return "xconq mp";
	case R_IMMOBILIZED:
		return "xconq material";
	case R_CANNOT_LEAVE_WORLD:
	case R_NOT_AT_EDGE:
		return "xconq world";
	default:
		return "xconq move";
	}
}

/* One action's part of costs_text(): as snprintf, the length it needs. */
static size_t
cost_text(struct arb_turn *t, const struct action *ac, bool first, char *buf,
    size_t size)
{
	const char	*via = "", *name = "";
	char		 tail[64] = "";
	int		 n;

	if (ac->kind == A_SLIDE) {
		via = " sliding along ";
		name = X(t)->tt[ac->conn];
	} else if (ac->conn_taken) {
		via = " by ";
		name = X(t)->tt[ac->conn];
	}
	if (ac->zoc_max > 0)
		snprintf(tail, sizeof(tail), "+ZOC %ld", ac->zoc_max);
	if (ac->kind == A_LEAVE) {
		n = (int)strlen(tail);
		snprintf(tail + n, sizeof(tail) - (size_t)n, "+leaving %d%s",
		    ac->world, ac->cost > ac->clamped + ac->zoc_max +
		    ac->world ? ", at least 1" : "");
	}
	n = snprintf(buf, size, "%s%s %ld%s%s%s", first ? "" : ", ",
	    cell_name(t, ac->to), ac->clamped, via, name, tail);
	if (n < 0)
		t_fail(t, ARB_EINTERNAL, "cannot format a message");
	return (size_t)n;
}

/* "0302 1 by road, 0303 2+ZOC 3": each action's cost, for messages.  The
 * text is measured and then written once: building it again for every
 * action took memory and time in the square of the actions (issue 11). */
static const char *
costs_text(struct arb_turn *t, const struct orec *r)
{
	char		*s;
	size_t		 i, len = 0, at = 0;

	for (i = 0; i < r->acts.n; i++)
		len += cost_text(t, &r->acts.v[i], i == 0, NULL, 0);
	s = t_alloc(t, len + 1);
	for (i = 0; i < r->acts.n; i++)
		at += cost_text(t, &r->acts.v[i], i == 0, s + at, len + 1 - at);
	return s;
}

/*
 * The walk hooks (rules.h): a move order is a sequence of actions, so a
 * step of the walk is one action, to any cell within move-range or a
 * border slide away, priced by price_action() as act() prices it.  What
 * the walk spends is acp: a step costs the acp its action uses, so that
 * the cost of a path is exact whatever the speed's rounding, and the
 * points left are the acp left above acp-min (at speed 100 and
 * acp-to-move 1, an action's acp are its mp).  The state is the acp left
 * and the actions the materials allow yet (consumption-per-move).
 */
struct xstate {
	int32_t		 acp;		/* left */
	int32_t		 moves;		/* actions the materials allow */
	int32_t		 clamp;		/* 1: an action may be charged more
					 * than the acp above acp-min */
};

static long
walk_begin(struct arb_turn *t, const struct order *o, void *state,
    struct wstep *over)
{
	struct xstate	*xs = state;
	int		 u = o->units[0];
	const struct unit *un = &t->units.v[u];
	long		 budget;

	over->rule = "xconq move";
	over->reason = o->nunits != 1 ? R_ONE_UNIT : un->gone || un->left ?
	    R_UNIT_GONE : o->cells[0] != un->at ? R_NOT_TOGETHER : R_OK;
	if (over->reason != R_OK)
		return -1;
	xs->acp = X(t)->units.v[u].acp;
	xs->moves = moves_left(t, u);
	/* Without free-mp and with acp-min 0 or less, an action's charge is
	 * at most its mp, which the acp down to acp-min cover (mp_of()):
	 * never cut at acp-min. */
	xs->clamp = prop(t, u, P_FREE_MP) > 0 || prop(t, u, P_ACP_MIN) > 0;
	over->reason = R_INSUFFICIENT_MP;
	over->rule = "xconq mp";
	budget = (long)xs->acp - prop(t, u, P_ACP_MIN);
	return budget > 0 ? budget : 0;
}

/* The cells an action may go to: within move-range, and two away (a
 * border slide, which price_action() allows or not) when the map has
 * borders. */
static int
walk_next(struct arb_turn *t, const struct order *o, const void *state,
    int from, int *to, int max)
{
	const struct board *bd = &t->board;
	int		 r = prop(t, o->units[0], P_MOVE_RANGE), n = 0;
	int		 col = from % bd->cols, row = from / bd->cols, cc, rr, c;

	(void)state;
	if (r < 2 && X(t)->borders.n > 0)
		r = 2;
	if (r <= 1) {
		int nb[6];

		n = board_neighbors(bd, from, nb);
		if (n <= max)
			memcpy(to, nb, (size_t)n * sizeof(int));
		return r < 1 ? 0 : n;
	}
	for (rr = row - r - 1 < 0 ? 0 : row - r - 1; rr <= row + r + 1 &&
	    rr < bd->rows; rr++)
		for (cc = col - r < 0 ? 0 : col - r; cc <= col + r &&
		    cc < bd->cols; cc++) {
			c = rr * bd->cols + cc;
			if (c == from || board_distance(bd, from, c) > r)
				continue;
			if (n < max)
				to[n] = c;
			n++;
		}
	return n;
}

static void
walk_step(struct arb_turn *t, const struct order *o, void *state, int from,
    int to, struct wstep *s)
{
	struct xconq	*x = X(t);
	struct xstate	*xs = state;
	int		 u = o->units[0];
	long		 after;

	if (acp_blocked(t, u, xs->acp)) {
		s->reason = R_INSUFFICIENT_MP;
		s->rule = "xconq mp";
		return;
	}
	if (xs->moves == 0) {
		s->reason = R_IMMOBILIZED;
		s->rule = "xconq material";
		return;
	}
	act_clear(&x->walk);
	x->walk.kind = A_MOVE;
	x->wide = true;
	s->reason = price_action(t, &x->walk, u, xs->acp, from, to, &after,
	    NULL);
	x->wide = false;
	if (s->reason != R_OK) {
		s->rule = rule_of(s->reason);
		return;
	}
	s->cost = (int)(xs->acp - after);
	xs->acp = (int32_t)after;
	if (xs->moves != INT32_MAX)
		xs->moves--;
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

/*
 * More acp left and more actions allowed are worth more in every way:
 * each test of an action is monotone in them, and a step costs the same
 * acp whatever the acp left, so a cheaper walk stays cheaper.  Not so
 * where a charge may be cut at acp-min (free-mp, or acp-min above 0):
 * there the dearer walk may catch up at the cut, with fewer steps, and
 * only equal states are (the tie-break stays exact).
 */
static bool
walk_better(const void *pa, const void *pb)
{
	const struct xstate *a = pa, *b = pb;

	if (a->clamp)
		return a->acp == b->acp && a->moves == b->moves;
	return a->acp >= b->acp && a->moves >= b->moves;
}

static void
validate(struct arb_turn *t, struct order *o)
{
	int	 i;

	for (i = 0; i < o->nunits; i++)
		t->units.v[o->units[i]].named = true;
	if (o->nunits != 1)
		order_rule(t, o, OS_ILLEGAL, R_ONE_UNIT, "xconq move",
		    "an order names one unit, not %d", o->nunits);
	else if (o->kind == K_MOVE && o->ncells < 2)
		order_rule(t, o, OS_ILLEGAL, R_EMPTY_PATH, "xconq move",
		    "the path names no cell to move to");
}

/*
 * A check's action refused by zones of control (issue 28): prohibited by
 * one, or too dear only for what they add (zoc_dear).  When every unit
 * whose zone prohibits it (or adds to its cost) may move away first
 * (unit_may_move_first()), the first of them; else -1.  The action is
 * the one act() refused (x->cur).
 */
static int
zoc_depends(struct arb_turn *t, const struct order *o, enum reason rs)
{
	const struct action *ac = &X(t)->cur;
	size_t		 i;
	int		 dep = -1;

	if (!(t->flags & ARB_CHECK) || ac->zoc_more > 0 ||
	    (rs == R_INSUFFICIENT_MP && !X(t)->zoc_dear))
		return -1;
	for (i = 0; i < ac->zoc.n; i++) {
		if (rs == R_ZOC_PROHIBITED ? ac->zoc.v[i].mp >= 0 :
		    ac->zoc.v[i].mp <= 0)
			continue;
		if (!unit_may_move_first(t, ac->zoc.v[i].unit, o->player))
			return -1;
		if (dep < 0)
			dep = ac->zoc.v[i].unit;
	}
	return dep;
}

static void
execute(struct arb_turn *t, struct order *o)
{
	struct xconq	*x = X(t);
	struct orec	*r = &x->orec[o - t->orders.v];
	int		 u = o->units[0], k, n, start;
	struct unit	*un = &t->units.v[u];
	enum reason	 rs = R_OK;
	const char	*why = "";
	long		 mp0 = mp_left(t, u);
	int		 dep;

	if (un->gone || un->left) {
		order_rule(t, o, OS_FAILED, R_UNIT_GONE, "xconq move",
		    "%s has left the board", un->id);
		return;
	}
	start = o->kind == K_MOVE ? o->cells[0] : un->at;
	if (start != un->at) {
		order_rule(t, o, un->at != un->from ? OS_FAILED : OS_ILLEGAL,
		    R_NOT_TOGETHER, "xconq move", "the path starts at %s but "
		    "%s is at %s%s", cell_name(t, start), un->id,
		    cell_name(t, un->at), un->at != un->from ? t_printf(t,
		    ", where %s moved it", order_ref(t, o->player,
		    un->by)) : "");
		return;
	}
	n = o->kind == K_MOVE ? o->ncells - 1 : 1;
	for (k = 0; k < n; k++) {
		int b = o->kind == K_MOVE ? o->cells[k + 1] : o->cells[0];

		rs = act(t, o, u, b, o->kind == K_MOVE ? A_MOVE : A_LEAVE,
		    &why);
		if (rs != R_OK) {
			r->refused_to = b;
			r->refused = rs;
			break;
		}
	}
	if (rs != R_OK && o->kind == K_MOVE)
		o->stop = k + 1;
	order_num(t, o, "done", k);
	order_num(t, o, "mp_left", mp_left(t, u));
	order_num(t, o, "acp_left", x->units.v[u].acp);
	if (rs == R_OK) {
		order_rule(t, o, OS_DONE, R_OK, o->kind == K_MOVE ?
		    "xconq move" : "xconq world", "%s %s for %ld mp (%s), %ld "
		    "left", un->id, o->kind == K_MOVE ? t_printf(t,
		    "moved to %s", cell_name(t, un->at)) : t_printf(t,
		    "left the world through %s", cell_name(t, o->cells[0])),
		    mp0 - (r->acts.n > 0 ? r->acts.v[r->acts.n - 1].mp1 :
		    mp0), costs_text(t, r), mp_left(t, u));
		return;
	}
	if ((rs == R_ZOC_PROHIBITED || rs == R_INSUFFICIENT_MP) &&
	    (dep = zoc_depends(t, o, rs)) >= 0) {
		order_depends(t, o, dep, rs, rule_of(rs), t_printf(t, "action "
		    "%d of %d, to %s, refused: %s%s", k + 1, n,
		    cell_name(t, r->refused_to), why, k > 0 ? t_printf(t,
		    "; %s before it %s", k == 1 ? "the one" : t_printf(t,
		    "the %d", k), k == 1 ? "stands" : "stand") : ""));
		return;
	}
	order_rule(t, o, k > 0 ? OS_FAILED : OS_ILLEGAL, rs, rule_of(rs),
	    "action %d of %d, to %s, refused: %s%s", k + 1, n,
	    cell_name(t, r->refused_to), why, k == 1 ? "; the one before it "
	    "stands" : k > 1 ? t_printf(t, "; the %d before it stand", k) :
	    "");
}

static void
end(struct arb_turn *t)
{
	(void)t;
}

static void
report_order(struct arb_turn *t, const struct order *o, struct jv *obj)
{
	struct xconq	*x = X(t);
	struct orec	*r;
	struct jv	*a, *j, *l, *c;
	size_t		 i, k;
	int		 m;

	if (x->orec == NULL)
		return;
	r = &x->orec[o - t->orders.v];
	if (r->acts.n == 0 && r->refused_to < 0)
		return;
	a = emit_set_array(obj, "actions");
	for (i = 0; i < r->acts.n; i++) {
		const struct action *ac = &r->acts.v[i];

		j = emit_add_object(a);
		emit_set_str(j, "to", cell_name(t, ac->to));
		emit_set_str(j, "kind", akind_names[ac->kind]);
		if (ac->via.n > 0) {
			l = emit_set_array(j, "via");
			for (k = 0; k < ac->via.n; k++)
				emit_add_str(l, cell_name(t, ac->via.v[k]));
		}
		emit_set_int(j, "leave", ac->leave);
		l = emit_set_array(j, "borders");
		for (k = 0; k < ac->comps.n; k++)
			if (x->tk[ac->comps.v[k].tt] == TK_BORDER) {
				c = emit_add_object(l);
				emit_set_str(c, "type",
				    x->tt[ac->comps.v[k].tt]);
				emit_set_int(c, "mp", ac->comps.v[k].mp);
			}
		emit_set_int(j, "enter", ac->enter);
		l = emit_set_array(j, "coatings");
		for (k = 0; k < ac->comps.n; k++)
			if (x->tk[ac->comps.v[k].tt] == TK_COAT) {
				c = emit_add_object(l);
				emit_set_str(c, "type",
				    x->tt[ac->comps.v[k].tt]);
				emit_set_str(c, "side", ac->comps.v[k].enter ?
				    "enter" : "leave");
				emit_set_int(c, "mp", ac->comps.v[k].mp);
			}
		emit_set_int(j, "normal", ac->normal);
		if (ac->conn >= 0) {
			c = emit_set_object(j, ac->kind == A_SLIDE ?
			    "slide" : "connection");
			emit_set_str(c, "type", x->tt[ac->conn]);
			emit_set_int(c, "mp", ac->conn_mp);
			emit_set_bool(c, "taken", ac->conn_taken);
		}
		emit_set_int(j, "clamped", ac->clamped);
		l = emit_set_array(j, "zoc");
		for (k = 0; k < ac->zoc.n; k++) {
			c = emit_add_object(l);
			emit_set_str(c, "unit",
			    t->units.v[ac->zoc.v[k].unit].id);
			emit_set_str(c, "kind", zkind_names[ac->zoc.v[k].kind]);
			emit_set_int(c, "mp", ac->zoc.v[k].mp);
		}
		if (ac->zoc_more > 0)
			emit_set_int(j, "zoc_more", ac->zoc_more);
		emit_set_int(j, "zoc_max", ac->zoc_max);
		emit_set_int(j, "cost", ac->cost);
		emit_set_int(j, "mp_before", ac->mp0);
		emit_set_int(j, "mp_after", ac->mp1);
		emit_set_int(j, "acp_before", ac->acp0);
		emit_set_int(j, "acp_after", ac->acp1);
		c = emit_set_object(j, "supplies");
		for (m = 0; m < x->nmat; m++)
			if (ac->used[m] != 0)
				emit_set_int(c, x->mat[m], ac->used[m]);
	}
	if (r->refused_to >= 0) {
		j = emit_set_object(obj, "refused");
		emit_set_str(j, "to", cell_name(t, r->refused_to));
		emit_set_str(j, "reason", reason_name(r->refused));
	}
}

static void
save_unit(struct arb_turn *t, int u, struct jv *obj, bool next)
{
	struct xconq	*x = X(t);
	struct xunit	*xu = &x->units.v[u];
	struct jv	*l;
	int		 i, m;

	/* The next map has the acp of this turn: the text has no rate. */
	emit_set_int(obj, "acp", xu->acp0);
	if (!next)
		emit_set_int(obj, "acp_left", xu->acp);
	if (xu->has_hp)
		emit_set_int(obj, "hp", xu->hp);
	if (xu->nocc > 0) {
		l = emit_set_array(obj, "occupants");
		for (i = 0; i < xu->nocc; i++)
			emit_add_str(l, t->types.v[xu->occ[i]].name);
	}
	l = NULL;
	for (m = 0; m < x->nmat; m++) {
		if (!xu->has_sup[m] && xu->sup[m] == 0)
			continue;
		if (l == NULL)
			l = emit_set_object(obj, "supplies");
		emit_set_int(l, x->mat[m], xu->sup[m]);
	}
}

/* Table entries by row, then column. */
static int
tent_cmp(const void *pa, const void *pb)
{
	const struct tent *a = pa, *b = pb;

	if (a->row1 != b->row1)
		return a->row1 < b->row1 ? -1 : 1;
	return (a->col > b->col) - (a->col < b->col);
}

/* The next map keeps the declarations, the types and the tables. */
static void
save(struct arb_turn *t, struct jv *root)
{
	struct xconq	*x = X(t);
	struct jv	*o, *tt, *row, *l, *pt;
	size_t		 u;
	int		 k, i, c;

	o = emit_set_object(root, "terrain-types");
	for (i = 0; i < x->ntt; i++)
		emit_set_str(o, x->tt[i], tkind_names[x->tk[i]]);
	if (x->nmat > 0) {
		l = emit_set_array(root, "materials");
		for (i = 0; i < x->nmat; i++)
			emit_add_str(l, x->mat[i]);
	}
	o = emit_set_object(root, "unit-types");
	for (u = 0; u < t->types.n; u++) {
		struct xtype *xt = &x->ut[u];

		row = emit_set_object(o, t->types.v[u].name);
		for (k = 0; k < NPROPS; k++)
			if (xt->p[k] != pdefs[k].dflt)
				emit_set_int(row, pdefs[k].name, xt->p[k]);
		if (xt->ndmg > 0) {
			l = emit_set_array(row, "speed-damage-effect");
			for (i = 0; i < xt->ndmg; i++) {
				pt = emit_add_array(l);
				emit_add_int(pt, xt->dmg[i][0]);
				emit_add_int(pt, xt->dmg[i][1]);
			}
		}
	}
	o = NULL;
	for (k = 0; k < NTAB; k++) {
		const struct table *tb = &x->tab[k];
		struct tent	*e;
		size_t		 n = 0;

		/* The entries that differ from the default, in the order
		 * of rows and then columns, as a dense table had them. */
		e = t_alloc(t, (tb->n > 0 ? tb->n : 1) * sizeof(*e));
		for (u = 0; u < tb->cap; u++)
			if (tb->e[u].row1 != 0 && tb->e[u].val != tdefs[k].dflt)
				e[n++] = tb->e[u];
		qsort(e, n, sizeof(*e), tent_cmp);
		tt = row = NULL;
		for (u = 0; u < n; u++) {
			const char *cn;

			c = e[u].col;
			if (o == NULL)
				o = emit_set_object(root, "tables");
			if (tt == NULL)
				tt = emit_set_object(o, tdefs[k].name);
			if (row == NULL || e[u].row1 != e[u - 1].row1)
				row = emit_set_object(tt,
				    t->types.v[e[u].row1 - 1].name);
			cn = tdefs[k].shape == UT ? x->tt[c] :
			    tdefs[k].shape == UM ? x->mat[c] :
			    t->types.v[c].name;
			if (tdefs[k].boolean)
				emit_set_bool(row, cn, e[u].val != 0);
			else
				emit_set_int(row, cn, e[u].val);
		}
	}
}

static void
release(struct arb_turn *t)
{
	struct xconq	*x = X(t);
	size_t		 i, k;

	intmap_release(&x->borders);
	intmap_release(&x->conns);
	free(x->near.v);
	free(x->zscratch.zoc.v);
	act_free(&x->cur);
	act_free(&x->wst);
	act_free(&x->walk);
	free(x->wnv.v);
	if (x->orec != NULL)
		for (i = 0; i < t->orders.n; i++) {
			for (k = 0; k < x->orec[i].acts.n; k++) {
				free(x->orec[i].acts.v[k].comps.v);
				free(x->orec[i].acts.v[k].zoc.v);
				free(x->orec[i].acts.v[k].via.v);
			}
			free(x->orec[i].acts.v);
		}
	free(x->units.v);
	strmap_release(&x->tt_ids);
	strmap_release(&x->mat_ids);
}

const struct ruleset rules_xconq = {
	.name = "xconq",
	.rulings = "2026-11-28",
	.board = BOARD_HEX,
	.map_keys = map_keys,
	.unit_keys = unit_keys,
	.order_kinds = order_kinds,
	.init = init,
	.load = load,
	.save = save,
	.loaded = loaded,
	.begin = begin,
	.validate = validate,
	.cell_test = cell_test,
	.execute = execute,
	.end = end,
	.load_unit = load_unit,
	.save_unit = save_unit,
	.report_order = report_order,
	.walk_size = sizeof(struct xstate),
	.walk_begin = walk_begin,
	.walk_next = walk_next,
	.walk_step = walk_step,
	.walk_end = walk_end,
	.walk_better = walk_better,
	.walk_stack = false,
	.release = release
};
