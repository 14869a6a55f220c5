/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): the services rule systems use on a turn's
 * model (unit types, placing and losing units, ownership, loyalty,
 * features, names for messages) and the one table of reasons.  Uses the
 * base and JSON layers.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

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
		strmap_put(&t->mem, &t->type_names, ty->name,
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

void
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
	if (t->board.kind == BOARD_TABLE) {
		l->posed = true;
		l->pose = un->pose;
	}
	un->strength -= amount;
	if (un->at < 0)		/* on a table */
		trace_event(t, "loss", "unit", TF_STR, un->id, "strength",
		    TF_INT, (long)amount, "left", TF_INT, (long)un->strength,
		    "cause", TF_STR, cause, order >= 0 ? "order" : NULL,
		    TF_ORDER, order >= 0 ? &t->orders.v[order] : NULL, NULL);
	else
		trace_event(t, "loss", "unit", TF_STR, un->id, "at", TF_CELL,
		    (long)un->at, "strength", TF_INT, (long)amount, "left",
		    TF_INT, (long)un->strength, "cause", TF_STR, cause,
		    order >= 0 ? "order" : NULL, TF_ORDER, order >= 0 ?
		    &t->orders.v[order] : NULL, NULL);
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
	    order >= 0 ? "order" : NULL, TF_ORDER, order >= 0 ?
	    &t->orders.v[order] : NULL, NULL);
	c->loyalty = value;
}

void
feature_destroy(struct arb_turn *t, int cell, int feature, int order)
{
	struct destroyed *d;
	int		 c;

	if (!board_has(&t->board, cell, feature))
		return;
	/* The features as the turn began, for its pictures: kept at the
	 * first destroyed only, a copy of every cell's being large on a
	 * large board. */
	if (t->board.features0 == NULL) {
		t->board.features0 = t_alloc(t, ((size_t)t->board.ncells + 1) *
		    sizeof(*t->board.features0));
		for (c = 0; c < t->board.ncells; c++)
			t->board.features0[c] = t->board.cells[c].features;
	}
	d = VPUSH(t, t->destroyed);
	d->cell = cell;
	d->feature = feature;
	d->order = order;
	/* With its order, as "owner" and "loyalty" are: a player's cut of
	 * the trace keeps what the player's own orders destroyed. */
	trace_event(t, "destroyed", "cell", TF_CELL, (long)cell, "feature",
	    TF_STR, t->board.features[feature], order >= 0 ? "order" : NULL,
	    TF_ORDER, order >= 0 ? &t->orders.v[order] : NULL, NULL);
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

static void
trace_owner(struct arb_turn *t, int cell, int from, int to, const char *why,
    int order)
{
	const char	*fn = from < 0 ? NULL : t->players.v[from].name;
	const char	*tn = to < 0 ? NULL : t->players.v[to].name;
	enum tftype	 ft = from < 0 ? TF_NULL : TF_STR;
	enum tftype	 tt = to < 0 ? TF_NULL : TF_STR;

	/* TF_NULL takes no argument: the four shapes apart. */
	if (ft == TF_STR && tt == TF_STR)
		trace_event(t, "owner", "cell", TF_CELL, (long)cell, "from",
		    ft, fn, "to", tt, tn, "why", TF_STR, why, order >= 0 ?
		    "order" : NULL, TF_ORDER, order >= 0 ?
		    &t->orders.v[order] : NULL, NULL);
	else if (ft == TF_STR)
		trace_event(t, "owner", "cell", TF_CELL, (long)cell, "from",
		    ft, fn, "to", tt, "why", TF_STR, why, order >= 0 ?
		    "order" : NULL, TF_ORDER, order >= 0 ?
		    &t->orders.v[order] : NULL, NULL);
	else if (tt == TF_STR)
		trace_event(t, "owner", "cell", TF_CELL, (long)cell, "from",
		    ft, "to", tt, tn, "why", TF_STR, why, order >= 0 ?
		    "order" : NULL, TF_ORDER, order >= 0 ?
		    &t->orders.v[order] : NULL, NULL);
	else
		trace_event(t, "owner", "cell", TF_CELL, (long)cell, "from",
		    ft, "to", tt, "why", TF_STR, why, order >= 0 ?
		    "order" : NULL, TF_ORDER, order >= 0 ?
		    &t->orders.v[order] : NULL, NULL);
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
	/* A neutral owner is null (TF_NULL): a player may be called
	 * "neutral".  The order that caused it, with its player, follows. */
	trace_owner(t, cell, c->owner, player, why, order);
	c->owner = (int16_t)player;
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

bool
player_acts_before(const struct arb_turn *t, int a, int b)
{
	size_t	 i;

	for (i = 0; i < t->players.n; i++)
		if (t->turn_order[i] == a || t->turn_order[i] == b)
			return t->turn_order[i] == a && a != b;
	return false;
}

bool
unit_may_move_first(const struct arb_turn *t, int u, int p)
{
	const struct unit *un;

	if (!(t->flags & ARB_CHECK) || u < 0 || (size_t)u >= t->units.n)
		return false;
	un = &t->units.v[u];
	return un->by < 0 && !un->moved && !un->gone && !un->left &&
	    un->player != p && t->players.v[un->player].ofile < 0 &&
	    player_acts_before(t, un->player, p);
}

void
order_depends(struct arb_turn *t, struct order *o, int u, enum reason r,
    const char *rule, const char *msg)
{
	const struct unit *un = &t->units.v[u];

	/* A check is not wrong about other players (issue 28): the unit's
	 * player acts first, and its orders, which the check was not
	 * given, may move it away. */
	order_rule(t, o, OS_DONE, R_DEPENDS_ON_ORDERS, rule, "%s; this "
	    "depends on the orders of %s, who acts before %s: %s would "
	    "refuse it only if %s is still there (%s)", msg,
	    t->players.v[un->player].name, t->players.v[o->player].name,
	    reason_name(r), un->id, rule);
}

const char *
order_ref(struct arb_turn *t, int p, int oi)
{
	const struct order *o;

	if (oi < 0 || (size_t)oi >= t->orders.n)
		return "an order";
	o = &t->orders.v[oi];
	if (t->reveal_orders == 2 && o->player != p)
		return t_printf(t, "an order of %s",
		    t->players.v[o->player].name);
	return t_printf(t, "order %s", o->id);
}

const char *
reason_name(enum reason r)
{
	static const char *const names[] = {
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
		"target_gone", "depends_on_dice", "no_route",
		"depends_on_orders", "unknown_unit",
		"foreign_unit", "unit_listed_twice", "unknown_cell",
		"unknown_kind", "duplicate_id", "bad_order", "not_json",
		"not_orders", "bad_file", "unknown_player", "wrong_player",
		"wrong_turn", "html_only", "no_orders", "bad_mail",
		"wrong_map"
	};
	_Static_assert(sizeof names / sizeof names[0] == R_NREASONS,
	    "a reason without its name");

	return (unsigned)r < R_NREASONS ? names[r] : "?";
}

/* The reason in words, for a player's letter: one line beside its name. */
const char *
reason_says(enum reason r)
{
	/* Sized by its elements: the assertion below holds it to the
	 * enum, so a reason added without its words fails to compile. */
	static const char *const says[] = {
		"done as ordered",
		"not enough action points",
		"not enough mana",
		"too far for the unit's range",
		"the cells are not next to each other",
		"the ground cannot be entered",
		"a move may not end in a lake",
		"an enemy unit stands there",
		"a closed border is in the way",
		"the units do not stand together",
		"the portal does not let the units through",
		"nothing was discovered there",
		"the cell is not yours",
		"the cell is not a city",
		"nothing there to attack",
		"the target is not next to the units",
		"the unit is gone",
		"the path is empty",
		"the territory is not yours",
		"not enough armies there",
		"another unit stands there",
		"not enough movement points",
		"the move ended in a zone of control",
		"the unit may not leave a zone of control",
		"stuck in a marsh",
		"bombarded, the unit may not move",
		"a charge ends the unit's movement",
		"the order moves one unit only",
		"the unit was not made to retreat",
		"no hex to retreat to",
		"the unit cannot exist there",
		"the move is forbidden by a zone of control",
		"the unit cannot move",
		"the unit cannot leave the world",
		"the unit is not at the edge",
		"not enough order points",
		"the turning tool is blocked",
		"the unit would overlap another",
		"the unit's movement has ended",
		"the target is a sortie",
		"no move order to go with it",
		"the target is gone",
		"it depends on the dice",
		"no route there",
		"it depends on the other players' orders",
		"no such unit",
		"the unit is another player's",
		"a unit listed twice",
		"no such cell",
		"no such kind of order",
		"an order id used twice",
		"the order cannot be read",
		"the file is not JSON",
		"the file is not an orders file",
		"the file cannot be read as orders",
		"no such player",
		"the file is for another player",
		"the orders are for another turn",
		"the mail has only an HTML part",
		"the mail holds no orders",
		"the mail cannot be read",
		"the orders are for another map"
	};
	_Static_assert(sizeof says / sizeof says[0] == R_NREASONS,
	    "a reason without its words");

	return (unsigned)r < R_NREASONS ? says[r] : "?";
}

/* The reason named, or R_NREASONS. */
enum reason
reason_find(const char *name)
{
	int	 r;

	for (r = 0; r < R_NREASONS; r++)
		if (strcmp(reason_name((enum reason)r), name) == 0)
			return (enum reason)r;
	return R_NREASONS;
}

