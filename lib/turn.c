/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * A turn: the public entry points, the registry of rule systems, the
 * sequential driver (players in turn order, each player's orders in file
 * order), and the services the rule systems share.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The only place the core names the rule systems. */
const struct ruleset *const registry[] = {
	&rules_aeonis,
	&rules_territory,
	&rules_morne,
	&rules_xconq,
	&rules_arcane,
	NULL
};

static const char *registry_names[] = {
	"aeonis",
	"territory",
	"morne-plaine",
	"xconq",
	"arcane-legions",
	NULL
};

const char *const *
arb_rulesets(void)
{
	return registry_names;
}

struct arb_turn *
arb_turn_new(void)
{
	return calloc(1, sizeof(struct arb_turn));
}

void
arb_turn_free(struct arb_turn *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->orders.n; i++)
		free(t->orders.v[i].nums.v);
	if (t->rs != NULL && t->rs->release != NULL && t->rsdata != NULL)
		t->rs->release(t);
	free(t->orders.v);
	free(t->units.v);
	free(t->players.v);
	free(t->types.v);
	free(t->files.v);
	free(t->sequence.v);
	free(t->attacks.v);
	free(t->losses.v);
	free(t->gains.v);
	free(t->destroyed.v);
	free(t->ownership.v);
	free(t->loyalty.v);
	free(t->draws.v);
	free(t->trace.v);
	free(t->board.sides.v);
	free(t->board.sidefeats.v);
	free(t->board.conns.v);
	free(t->board.pieces.v);
	free(t->reader.ptr);
	free(t->reader.mark);
	strmap_release(&t->unit_ids);
	strmap_release(&t->player_names);
	strmap_release(&t->type_names);
	strmap_release(&t->order_ids);
	strmap_release(&t->board.by_name);
	strmap_release(&t->board.piece_ids);
	emit_release(t);
	arena_release(t->arena);
	free(t);
}

/*
 * Every entry point runs its body under setjmp: a failure anywhere below
 * (bad data, no memory, a broken invariant) jumps back here.
 */
#define GUARD(t, e, fail) do {						\
	memset((e), 0, sizeof(*(e)));					\
	(t)->err = (e);							\
	(t)->jmp = &jb;							\
	if (setjmp(jb) != 0) {						\
		(t)->jmp = NULL;					\
		(t)->ld = NULL;						\
		fail;							\
		return -1;						\
	}								\
} while (0)

int
arb_turn_load_map(struct arb_turn *t, const char *name, const char *text,
    size_t len, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;

	GUARD(t, e, emit_release(t));
	if (t->rs != NULL)
		t_fail(t, ARB_EINTERNAL, "the map is loaded already");
	ld_start(ld, t, e, name, text, len);
	t->mapfile = t_strdup(t, name);
	load_map(t, ld);
	t->jmp = NULL;
	return 0;
}

int
arb_turn_load_orders(struct arb_turn *t, const char *name,
    const char *player, const char *text, size_t len, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;

	GUARD(t, e, emit_release(t));
	if (t->rs == NULL)
		t_fail(t, ARB_EINTERNAL, "orders before the map");
	ld_start(ld, t, e, name, text, len);
	load_orders(t, ld, player);
	t->jmp = NULL;
	return 0;
}

const char *
arb_turn_ruleset(const struct arb_turn *t)
{
	return t->rs != NULL ? t->rs->name : NULL;
}

void
arb_turn_set_seed(struct arb_turn *t, unsigned long long seed)
{
	t->seed = seed;
	t->seed_set = true;
}

/*
 * The balance every run checks: for each player, what it held at the
 * start (units' strength, and the cells' first counter in the cells it
 * owned), plus what it raised, equals what it holds at the end plus what
 * the losses record.
 */
static void
check_balance(struct arb_turn *t)
{
	struct board	*b = &t->board;
	long		 bal[MAXPLAYERS] = { 0 };
	size_t		 i;
	int		 c;

	for (i = 0; i < t->units.n; i++) {
		struct unit *u = &t->units.v[i];

		bal[u->player] += u->strength0 - (u->gone ? 0 : u->strength);
	}
	for (c = 0; b->cx[0] != NULL && c < b->ncells; c++) {
		if (b->owner0[c] >= 0)
			bal[b->owner0[c]] += b->cx0[0][c];
		if (b->cells[c].owner >= 0)
			bal[b->cells[c].owner] -= b->cx[0][c];
	}
	for (i = 0; i < t->losses.n; i++)
		bal[t->losses.v[i].player] -= t->losses.v[i].strength;
	for (i = 0; i < t->gains.n; i++)
		bal[t->gains.v[i].player] += t->gains.v[i].strength;
	for (i = 0; i < t->players.n; i++)
		if (bal[i] != 0)
			t_fail(t, ARB_EINTERNAL, "the forces of %s do not "
			    "balance: %ld unaccounted", t->players.v[i].name,
			    bal[i]);
}

int
arb_turn_run(struct arb_turn *t, int flags, struct arb_error *e)
{
	jmp_buf		 jb;
	size_t		 i, k;

	GUARD(t, e, (void)0);
	if (t->rs == NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "no map loaded, or run twice");
	t->ran = true;
	t->flags = flags;
	t->dice = t->seed;
	/* Players in turn order; each player's orders in file order. */
	for (i = 0; i < t->players.n; i++) {
		int f = t->players.v[t->turn_order[i]].ofile;

		for (k = 0; f >= 0 && k < t->orders.n; k++)
			if (t->orders.v[k].file == f)
				*VPUSH(t, t->sequence) = (int)k;
	}
	trace_event(t, "turn", "ruleset", TF_STR, t->rs->name, "turn",
	    TF_INT, (long)t->number, "seed", TF_INT, (long)t->seed, NULL);
	t->rs->begin(t);
	for (i = 0; i < t->sequence.n; i++) {
		struct order *o = &t->orders.v[t->sequence.v[i]];

		/* Validation rules an order illegal, or failed when an
		 * earlier order is the cause; either way it is not carried
		 * out. */
		t->rs->validate(t, o);
		if (o->status == OS_PENDING && t->rs->resolve == NULL)
			t->rs->execute(t, o);
	}
	/* A simultaneous rule system moves everything at once; --check
	 * stops at validation.  The end may still decide standing orders
	 * (a retreat that was or was not needed). */
	if (t->rs->resolve != NULL && !(flags & ARB_CHECK))
		t->rs->resolve(t);
	if (!(flags & ARB_CHECK))
		t->rs->end(t);
	for (i = 0; i < t->sequence.n; i++) {
		struct order *o = &t->orders.v[t->sequence.v[i]];

		if (o->status == OS_PENDING && (flags & ARB_CHECK))
			o->status = OS_LEGAL;
		if (o->status == OS_PENDING)
			t_fail(t, ARB_EINTERNAL, "order %s left undecided",
			    o->id);
		if (o->status == OS_ILLEGAL || o->status == OS_FAILED)
			t->illegal++;
	}
	if (!(flags & ARB_CHECK))
		check_balance(t);
	t->jmp = NULL;
	return 0;
}

int
arb_turn_illegal(const struct arb_turn *t)
{
	return t->illegal;
}

int
arb_turn_write_result(struct arb_turn *t, int flags, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	emit_result(t, flags, fp);
	t->jmp = NULL;
	return 0;
}

int
arb_turn_write_next(struct arb_turn *t, FILE *fp, struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	if (t->number == INT_MAX) {
		/* Said of the map's turn, before anything is written. */
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
		snprintf(e->pointer, sizeof(e->pointer), "/turn");
		snprintf(e->text, sizeof(e->text), "turn %d is the last a "
		    "map can have: there is no next map", t->number);
		utf8_mend(e->file);
		t->jmp = NULL;
		return -1;
	}
	emit_next(t, fp);
	t->jmp = NULL;
	return 0;
}

int
arb_turn_write_trace(struct arb_turn *t, int text, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	emit_trace(t, text, fp);
	t->jmp = NULL;
	return 0;
}

/* Services for the rule systems. */

struct utype *
type_find(struct arb_turn *t, const char *name)
{
	int	 i = strmap_get(&t->type_names, name);

	return i >= 0 ? &t->types.v[i] : NULL;
}

struct utype *
type_add(struct arb_turn *t, const char *name, int range, unsigned flags)
{
	struct utype	*ty = type_find(t, name);

	if (ty == NULL) {
		ty = VPUSH(t, t->types);
		ty->name = t_strdup(t, name);
		strmap_put(t, &t->type_names, ty->name,
		    (int)(t->types.n - 1));
	}
	ty->range = range;
	ty->flags = flags;
	return ty;
}

int
unit_range(const struct arb_turn *t, const struct unit *u)
{
	return u->range >= 0 ? u->range : t->types.v[u->type].range;
}

static void
unit_unlink(struct arb_turn *t, int u)
{
	struct unit	*un = &t->units.v[u];
	struct cell	*c;

	if (un->at < 0)			/* a table has no cells */
		return;
	c = &t->board.cells[un->at];
	if (un->prev >= 0)
		t->units.v[un->prev].next = un->next;
	else if (c->first_unit == u)
		c->first_unit = un->next;
	if (un->next >= 0)
		t->units.v[un->next].prev = un->prev;
	else if (c->last_unit == u)
		c->last_unit = un->prev;
	un->next = un->prev = -1;
}

/*
 * Puts unit u in cell, keeping each cell's list in unit order.  The lists
 * are linked both ways and know their last unit, so leaving a cell costs
 * nothing and joining it costs nothing for the first or last in order
 * (loading, and most moves); only a unit that falls in the middle of a
 * stack walks to its place.
 */
void
unit_place(struct arb_turn *t, int u, int cell)
{
	struct unit	*un = &t->units.v[u];
	struct cell	*c;
	int		 v;

	unit_unlink(t, u);
	un->at = cell;
	c = &t->board.cells[cell];
	if (c->first_unit < 0 || u < c->first_unit) {
		un->next = c->first_unit;
		un->prev = -1;
		if (c->first_unit >= 0)
			t->units.v[c->first_unit].prev = u;
		else
			c->last_unit = u;
		c->first_unit = u;
		return;
	}
	if (u > c->last_unit) {
		un->prev = c->last_unit;
		un->next = -1;
		t->units.v[c->last_unit].next = u;
		c->last_unit = u;
		return;
	}
	for (v = c->first_unit; t->units.v[v].next >= 0 &&
	    t->units.v[v].next < u; v = t->units.v[v].next)
		;
	un->prev = v;
	un->next = t->units.v[v].next;
	t->units.v[un->next].prev = u;	/* u < last: there is a next */
	t->units.v[v].next = u;
}

/* The unit leaves the board; it is no loss, and the next map leaves it
 * out. */
void
unit_leave_world(struct arb_turn *t, int u)
{
	unit_unlink(t, u);
	t->units.v[u].left = true;
	t->units.v[u].moved = true;
}

/* A loss record; the caller takes the amount off whatever it counts. */
struct loss *
loss_add(struct arb_turn *t, int player, int at, int amount,
    const char *cause, int order)
{
	struct loss	*l = VPUSH(t, t->losses);

	l->unit = -1;
	l->player = player;
	l->at = at;
	l->strength = amount;
	l->cause = cause;
	l->order = order;
	l->target = -1;
	return l;
}

void
unit_lose(struct arb_turn *t, int u, int amount, const char *cause,
    int order)
{
	struct unit	*un = &t->units.v[u];
	struct loss	*l;

	if (amount > un->strength)
		amount = un->strength;
	l = loss_add(t, un->player, un->at, amount, cause, order);
	l->unit = u;
	un->strength -= amount;
	if (un->at < 0)		/* on a table */
		trace_event(t, "loss", "unit", TF_STR, un->id, "strength",
		    TF_INT, (long)amount, "left", TF_INT, (long)un->strength,
		    "cause", TF_STR, cause, NULL);
	else
		trace_event(t, "loss", "unit", TF_STR, un->id, "at", TF_CELL,
		    (long)un->at, "strength", TF_INT, (long)amount, "left",
		    TF_INT, (long)un->strength, "cause", TF_STR, cause, NULL);
	if (un->strength == 0) {
		unit_unlink(t, u);
		un->gone = true;
	}
}

void
loyalty_set(struct arb_turn *t, int cell, int value, const char *why,
    int order)
{
	struct cell	*c = &t->board.cells[cell];
	struct ochange	*ch;

	if (c->loyalty == value)
		return;
	ch = VPUSH(t, t->loyalty);
	ch->cell = cell;
	ch->from = c->loyalty;
	ch->to = value;
	ch->why = why;
	ch->order = order;
	trace_event(t, "loyalty", "cell", TF_CELL, (long)cell, "from", TF_INT,
	    (long)c->loyalty, "to", TF_INT, (long)value, "why", TF_STR, why,
	    NULL);
	c->loyalty = value;
}

void
feature_destroy(struct arb_turn *t, int cell, int feature, int order)
{
	struct destroyed *d;

	if (!board_has(&t->board, cell, feature))
		return;
	d = VPUSH(t, t->destroyed);
	d->cell = cell;
	d->feature = feature;
	d->order = order;
	trace_event(t, "destroyed", "cell", TF_CELL, (long)cell, "feature",
	    TF_STR, t->board.features[feature], NULL);
	t->board.cells[cell].features &= ~(1u << feature);
}

void
order_rule(struct arb_turn *t, struct order *o, enum ostatus status,
    enum reason reason, const char *rule, const char *fmt, ...)
{
	static const char *const names[] = {
		"pending", "legal", "done", "illegal", "failed"
	};
	va_list	 ap;

	/* The message is never cut: it names units and hexes, and a cut
	 * could split a UTF-8 character. */
	va_start(ap, fmt);
	o->msg = t_vprintf(t, fmt, ap);
	va_end(ap);
	/* --check plays the orders out, so that each is judged where the
	 * earlier ones leave the units, and reports "legal" for what would
	 * be done. */
	if (status == OS_DONE && (t->flags & ARB_CHECK))
		status = OS_LEGAL;
	o->status = status;
	o->reason = reason;
	o->rule = rule;
	trace_event(t, "ruling", "order", TF_STR, o->id, "player", TF_STR,
	    t->players.v[o->player].name, "status", TF_STR, names[status],
	    "reason", TF_STR, reason_name(reason), "rule", TF_STR,
	    rule != NULL ? rule : "", "message", TF_STR, o->msg, NULL);
}

void
order_num(struct arb_turn *t, struct order *o, const char *key, long val)
{
	struct onum	*n = VPUSH(t, o->nums);

	n->key = key;
	n->val = val;
}

void
owner_set(struct arb_turn *t, int cell, int player, const char *why,
    int order)
{
	struct cell	*c = &t->board.cells[cell];
	struct ochange	*ch;

	if (c->owner == player)
		return;
	ch = VPUSH(t, t->ownership);
	ch->cell = cell;
	ch->from = c->owner;
	ch->to = player;
	ch->why = why;
	ch->order = order;
	trace_event(t, "owner", "cell", TF_CELL, (long)cell, "from", TF_STR,
	    c->owner < 0 ? "neutral" : t->players.v[c->owner].name, "to",
	    TF_STR, player < 0 ? "neutral" : t->players.v[player].name, "why",
	    TF_STR, why, NULL);
	c->owner = (int16_t)player;
}

bool
players_allied(const struct arb_turn *t, int a, int b)
{
	return a == b || (t->players.v[a].treaties >> b & 1);
}

/* The label of a cell, in one of the turn's eight buffers: a message may
 * name up to eight cells at once. */
const char *
cell_name(struct arb_turn *t, int cell)
{
	char	*buf = t->labels[t->nlabel++ % 8];

	return board_label(&t->board, cell, buf);
}

const char *
unit_list(struct arb_turn *t, const int *units, int n)
{
	size_t	 len = 1;
	char	*s;
	int	 i;

	for (i = 0; i < n; i++)
		len += strlen(t->units.v[units[i]].id) + 2;
	s = t_alloc(t, len);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, ", ");
		strcat(s, t->units.v[units[i]].id);
	}
	return s;
}

const char *
reason_name(enum reason r)
{
	static const char *const names[R_NREASONS] = {
		"ok", "insufficient_ap", "insufficient_mana", "out_of_range",
		"not_adjacent", "impassable", "lake_end", "enemy_occupied",
		"borders", "not_together", "portal_denied", "no_discovery",
		"not_controlled", "not_a_city", "no_target",
		"target_not_adjacent", "unit_gone", "empty_path",
		"not_owned", "insufficient_armies", "occupied",
		"insufficient_mp", "zoc_stop", "zoc_exit", "stuck",
		"bombarded", "charge_ends", "one_unit", "not_charged",
		"retreat_blocked", "cannot_exist", "zoc_prohibited",
		"immobilized", "cannot_leave_world", "not_at_edge",
		"insufficient_op", "tool_blocked", "overlap",
		"movement_ended", "target_sortie", "no_move_order",
		"target_gone"
	};

	return (unsigned)r < R_NREASONS ? names[r] : "?";
}

/* Trace events. */
void
trace_event(struct arb_turn *t, const char *ev, ...)
{
	struct tevent	*te;
	struct tfield	 f[24];
	const char	*key;
	va_list		 ap;
	int		 n = 0;

	if (!(t->flags & ARB_TRACE))
		return;
	f[n].key = "ev";
	f[n].type = TF_STR;
	f[n++].s = ev;
	va_start(ap, ev);
	while ((key = va_arg(ap, const char *)) != NULL && n < 24) {
		f[n].key = key;
		f[n].type = va_arg(ap, enum tftype);
		if (f[n].type == TF_STR)
			f[n].s = t_strdup(t, va_arg(ap, const char *));
		else if (f[n].type == TF_REAL)
			f[n].d = geom_round(va_arg(ap, double));
		else
			f[n].i = va_arg(ap, long);
		n++;
	}
	va_end(ap);
	te = VPUSH(t, t->trace);
	te->nf = n;
	te->f = t_alloc(t, (size_t)n * sizeof(*f));
	memcpy(te->f, f, (size_t)n * sizeof(*f));
}

/*
 * The dice: splitmix64 (Steele, Lea and Flood, 2014), seeded with the map's
 * seed.  A d-sided roll takes draws until one falls below the largest
 * multiple of d, so every face is equally likely, then adds 1 to its
 * remainder.  Every roll is recorded for the result.
 */
uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

int
dice_roll(struct arb_turn *t, int sides, const char *why)
{
	uint64_t	 limit = UINT64_MAX - UINT64_MAX % (uint64_t)sides, x;
	struct draw	*d;

	do
		x = splitmix64(&t->dice);
	while (x >= limit);
	d = VPUSH(t, t->draws);
	d->sides = sides;
	d->value = (int)(x % (uint64_t)sides) + 1;
	d->why = why;
	trace_event(t, "roll", "sides", TF_INT, (long)sides, "value", TF_INT,
	    (long)d->value, "why", TF_STR, why, NULL);
	return d->value;
}
