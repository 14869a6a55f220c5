/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Territory: the movement phase of Global Domination VI
 * (rules/territory.md), with the readings of rules/READINGS.md.  Rulings
 * cite "territory N" for the numbered basics 1-5: refusals territory 1
 * (or 3 for a territory not owned), moves carried out, or found legal by
 * --check, territory 2; losses name their part of the text by their cause
 * (skirmish, loop, penalty, watchtower, invasion).  The rulings T1-T9
 * below are in the RULINGS section of arbiter-rules(7), each with
 * casebook cases.
 *
 * Moves are simultaneous.  Every legal order becomes a packet of armies;
 * all first steps are resolved, conflicts included, before any second
 * step.  Within a step the classes of move are resolved in the order of
 * READINGS until nothing is left moving:
 *
 *	a  moves into the mover's own territory arrive;
 *	b  moves into a neutral territory only one player targets arrive;
 *	c  skirmishes where two or more players target one territory;
 *	d  closed loops of attacks, each fought as one skirmish;
 *	e  invasions.
 *
 * After c or d the survivors are classified again from a.  Each pass
 * sorts what is still moving, so a step costs O(P log P) per pass for P
 * packets.  A step takes few passes: the skirmishes of c are fought all
 * at once, and every loop of d is found and fought in one depth-first
 * walk, however many share a territory.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

enum { ARMIES };
enum { K_MOVE };

#define TSTEPS	2	/* territory 1: steps per turn */

struct packet {
	int	 order;
	int	 player;
	int	 n, n0;		/* armies now, and as ordered */
	int	 at, dest;	/* this step: from, to */
	int	 next_here;	/* next packet that arrived in dest this step */
	int	 seq;		/* priority: place in the order sequence */
	bool	 moving;	/* not yet arrived or dead this step */
	int	 ncells;	/* its order's path, kept here: the steps */
	int	 cells[TSTEPS + 1];	/* read it without the order */
};

struct terr {
	int		 watchtower, bivouac;
	bool		 upkeep;
	int		*avail;		/* validation: armies not yet ordered */
	struct {
		struct packet	*v;
		size_t		 n;
	}		 pk;		/* one per legal order */
	int		*here;		/* per cell: packets arrived this step */
	int		*tail;		/* and the last of them */
	int		*here_step;
	int		*mark, *onstack;	/* loop search, per cell */
	int		*cur;		/* and each cell's next edge */
	int		*path, *list, *bylink;	/* per packet */
	int		*mine;		/* skirmish: one player's packets */
	int		*pend;		/* indices of moving packets */
	size_t		 npend;
	uint64_t	*keys;		/* sort_by_dest()'s, twice pk.n */
	int		 step;
};

static const char *const map_keys[] = { "rules", NULL };
static const struct ufield cell_x[] = {
	{ "armies", 0, 0, false },
	{ NULL, 0, 0, false }
};
static const struct okind order_kinds[] = {
	{ "move", OK_PATH, "armies", 0 },
	{ NULL, OK_PATH, NULL, 0 }
};

static struct terr *
T_(struct arb_turn *t)
{
	return t->rsdata;
}

static int *
armies(struct arb_turn *t)
{
	return t->board.cx[ARMIES];
}

static void
init(struct arb_turn *t)
{
	struct terr	*r = t_alloc(t, sizeof(*r));

	t->rsdata = r;
	r->watchtower = board_feature(t, "watchtower");
	r->bivouac = board_feature(t, "bivouac");
}

static void
load(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	static const char *const keys[] = { "upkeep", NULL };
	const struct jv	*rules = ld_get(root, "rules");

	if (rules == NULL)
		return;
	ld_push(ld, "rules");
	if (!ld_is_object(rules))
		ld_fail(ld, "expected an object");
	ld_keys(ld, rules, keys, NULL);
	T_(t)->upkeep = ld_bool(ld, rules, "upkeep", false);
	ld_pop(ld);
}

#define MAXARMIES	1000000000	/* on a map: sums stay in an int */

/*
 * Armies always belong to the territory's owner; the map's armies and
 * each loyalty stay below MAXARMIES, so no sum or upkeep overflows.
 */
static void
loaded(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	long	 sum = 0;
	int	 c;

	(void)root;
	for (c = 0; c < t->board.ncells; c++) {
		const char *bad = NULL;

		sum += armies(t)[c];
		if (t->board.cells[c].owner < 0 && armies(t)[c] > 0)
			bad = "armies";
		else if (sum > MAXARMIES)
			bad = "armies";
		else if (t->board.cells[c].loyalty < 0 ||
		    t->board.cells[c].loyalty > MAXARMIES)
			bad = "loyalty";
		if (bad == NULL)
			continue;
		/* Each problem is told and the checks go on (issue 26),
		 * but for the sum, told once. */
		ld_push(ld, "cells");
		ld_push(ld, t->board.names[c]);
		ld_push(ld, bad);
		if (*bad == 'l')
			ld_problem(ld, "loyalty %d: expected 0 to %d",
			    t->board.cells[c].loyalty, MAXARMIES);
		else if (sum > MAXARMIES)
			ld_fail(ld, "more than %d armies on the map",
			    MAXARMIES);
		else
			ld_problem(ld, "%d armies in neutral territory %s: "
			    "armies belong to a territory's owner",
			    armies(t)[c], t->board.names[c]);
		ld_pop(ld);
		ld_pop(ld);
		ld_pop(ld);
	}
}

static void
save(struct arb_turn *t, struct jv *root)
{
	if (T_(t)->upkeep)
		emit_set_bool(emit_set_object(root, "rules"), "upkeep", true);
}

static void
begin(struct arb_turn *t)
{
	struct terr	*r = T_(t);
	size_t		 n = (size_t)t->board.ncells;

	r->avail = t_alloc(t, n * sizeof(int));
	memcpy(r->avail, armies(t), n * sizeof(int));
}


/*
 * A step of a move, from a to b: R_OK, or why it is refused with the
 * clause.  Every step costs one of the TSTEPS a move has.  Pure: the
 * validation and the walk hooks (--reach, "to") both ask it.
 */
static enum reason
step_reason(struct arb_turn *t, int a, int b, const char **rule)
{
	*rule = "territory 1";
	return board_is_adjacent(&t->board, a, b) ? R_OK : R_NOT_ADJACENT;
}

/* Ruling T1: the refusals, in this order. */
static void
validate(struct arb_turn *t, struct order *o)
{
	struct terr	*r = T_(t);
	int		 i, from = o->cells[0];
	const char	*rule = NULL;

	order_num(t, o, "armies", o->n);
	if (o->ncells == 1) {
		order_rule(t, o, OS_ILLEGAL, R_EMPTY_PATH, "territory 1",
		    "the path names only %s and takes no step",
		    cell_name(t, from));
		return;
	}
	if (o->ncells > TSTEPS + 1) {
		order_rule(t, o, OS_ILLEGAL, R_OUT_OF_RANGE, "territory 1",
		    "the path takes %d steps; armies move at most %d",
		    o->ncells - 1, TSTEPS);
		return;
	}
	if (t->board.cells[from].owner != o->player) {
		order_rule(t, o, OS_ILLEGAL, R_NOT_OWNED, "territory 3",
		    "%s is not %s's territory", cell_name(t, from),
		    t->players.v[o->player].name);
		return;
	}
	for (i = 1; i < o->ncells; i++)
		if (step_reason(t, o->cells[i - 1], o->cells[i], &rule) !=
		    R_OK) {
			order_rule(t, o, OS_ILLEGAL, R_NOT_ADJACENT,
			    rule, "%s does not border %s",
			    cell_name(t, o->cells[i - 1]),
			    cell_name(t, o->cells[i]));
			return;
		}
	if (o->n > r->avail[from]) {
		order_rule(t, o, OS_ILLEGAL, R_INSUFFICIENT_ARMIES,
		    "territory 1", "%ld arm%s ordered from %s, which has %d"
		    "%s", o->n, o->n == 1 ? "y" : "ies", cell_name(t, from),
		    r->avail[from], r->avail[from] == armies(t)[from] ?
		    "" : " left once earlier orders are counted");
		return;
	}
	r->avail[from] -= (int)o->n;
	/* --check stops here: say what would move. */
	if (t->flags & ARB_CHECK)
		order_rule(t, o, OS_DONE, R_OK, "territory 2", "%ld arm%s "
		    "would leave %s", o->n, o->n == 1 ? "y" : "ies",
		    cell_name(t, from));
}

/* Nothing happens order by order: resolve() moves everything. */
static void
execute(struct arb_turn *t, struct order *o)
{
	(void)t;
	(void)o;
}

/* Takes amount armies from packet p, recording the loss. */
static void
take(struct arb_turn *t, struct packet *p, int amount, int at, int target,
    const char *cause)
{
	struct loss	*l;

	if (amount <= 0)
		return;
	p->n -= amount;
	l = loss_add(t, p->player, at, amount, cause, p->order);
	l->target = target;
	l->step = T_(t)->step;
	if (t->flags & ARB_TRACE)
		trace_event(t, "loss", "order", TF_STR,
		    t->orders.v[p->order].id, "player", TF_STR,
		    t->players.v[p->player].name, "at", TF_CELL, (long)at,
		    "target", TF_CELL, (long)target, "armies", TF_INT,
		    (long)amount, "left", TF_INT, (long)p->n, "cause", TF_STR,
		    cause, NULL);
}

/*
 * Ruling T7: a moving side loses its armies first-listed first.  list
 * holds the packets of one player, in priority order.
 */
static void
take_side(struct arb_turn *t, int *list, int n, int amount,
    const char *cause)
{
	struct terr	*r = T_(t);
	int		 i;

	for (i = 0; i < n && amount > 0; i++) {
		struct packet	*p = &r->pk.v[list[i]];
		int		 k = p->n < amount ? p->n : amount;

		take(t, p, k, p->at, p->dest, cause);
		amount -= k;
	}
}

/*
 * Ruling T7: a defending territory loses the armies that arrived in it
 * this step first, first-listed first, then its garrison.
 */
static void
take_defenders(struct arb_turn *t, int c, int amount, const char *cause)
{
	struct terr	*r = T_(t);
	int		 i;
	struct loss	*l;

	armies(t)[c] -= amount;
	if (r->here_step[c] == r->step)
		for (i = r->here[c]; i >= 0 && amount > 0;
		    i = r->pk.v[i].next_here) {
			struct packet	*p = &r->pk.v[i];
			int		 k = p->n < amount ? p->n : amount;

			take(t, p, k, c, c, cause);
			amount -= k;
		}
	if (amount <= 0)
		return;
	l = loss_add(t, t->board.cells[c].owner, c, amount, cause, -1);
	l->target = c;
	l->step = r->step;
	trace_event(t, "loss", "player", TF_STR,
	    t->players.v[t->board.cells[c].owner].name, "at", TF_CELL,
	    (long)c, "target", TF_CELL, (long)c, "armies", TF_INT,
	    (long)amount, "left", TF_INT, (long)armies(t)[c], "cause",
	    TF_STR, cause, NULL);
}

/* Packet p's armies arrive in its destination (territory 3). */
static void
arrive(struct arb_turn *t, int i, const char *why)
{
	struct terr	*r = T_(t);
	struct packet	*p = &r->pk.v[i];
	int		 c = p->dest;

	p->moving = false;
	if (p->n == 0)
		return;
	if (t->flags & ARB_TRACE)
		trace_event(t, "arrive", "order", TF_STR,
		    t->orders.v[p->order].id, "player", TF_STR,
		    t->players.v[p->player].name, "from", TF_CELL,
		    (long)p->at, "to", TF_CELL, (long)c, "armies", TF_INT,
		    (long)p->n, "why", TF_STR, why, NULL);
	armies(t)[c] += p->n;
	if (t->board.cells[c].owner != p->player) {
		/* territory 3: moving in claims; loyalty starts again. */
		owner_set(t, c, p->player, "claimed", p->order);
		loyalty_set(t, c, 0, "claimed", p->order);
	}
	if (r->here_step[c] != r->step) {
		r->here_step[c] = r->step;
		r->here[c] = -1;
	}
	/* Keep the list in priority order: append. */
	p->next_here = -1;
	if (r->here[c] < 0)
		r->here[c] = i;
	else
		r->pk.v[r->tail[c]].next_here = i;
	r->tail[c] = i;
	p->at = c;
}

/* qsort on the pending packets: by destination, then priority.  The turn
 * the comparisons read, this thread's: turns run in parallel threads. */
static _Thread_local struct arb_turn *S;

static int
by_dest(const void *a, const void *b)
{
	const struct packet *p = &T_(S)->pk.v[*(const int *)a];
	const struct packet *q = &T_(S)->pk.v[*(const int *)b];

	if (p->dest != q->dest)
		return p->dest < q->dest ? -1 : 1;
	return (p->seq > q->seq) - (p->seq < q->seq);
}

static int
by_source(const void *a, const void *b)
{
	const struct packet *p = &T_(S)->pk.v[*(const int *)a];
	const struct packet *q = &T_(S)->pk.v[*(const int *)b];

	if (p->at != q->at)
		return p->at < q->at ? -1 : 1;
	return (p->seq > q->seq) - (p->seq < q->seq);
}

/* The loop search: by source, destination, then priority; and by priority. */
static int
by_link(const void *a, const void *b)
{
	const struct packet *p = &T_(S)->pk.v[*(const int *)a];
	const struct packet *q = &T_(S)->pk.v[*(const int *)b];

	if (p->at != q->at)
		return p->at < q->at ? -1 : 1;
	if (p->dest != q->dest)
		return p->dest < q->dest ? -1 : 1;
	return (p->seq > q->seq) - (p->seq < q->seq);
}

static int
by_seq(const void *a, const void *b)
{
	const struct packet *p = &T_(S)->pk.v[*(const int *)a];
	const struct packet *q = &T_(S)->pk.v[*(const int *)b];

	return (p->seq > q->seq) - (p->seq < q->seq);
}

/*
 * Sorts the pending packets as by_dest does, in linear time: each as the
 * key destination * packets + its index (which follows its priority),
 * sorted 11 bits at a time; a short list by qsort.  The keys are distinct,
 * so the order is the same either way.
 */
static void
sort_by_dest(struct arb_turn *t, struct terr *r)
{
	uint64_t	*a = r->keys, *b = r->keys + r->pk.n, *x, max;
	size_t		 n = r->npend, i, k, sum, c, cnt[2048];
	unsigned	 shift;

	if (n < 512) {
		S = t;
		qsort(r->pend, n, sizeof(int), by_dest);
		return;
	}
	for (i = 0; i < n; i++)
		a[i] = (uint64_t)r->pk.v[r->pend[i]].dest * r->pk.n +
		    (uint64_t)r->pend[i];
	max = (uint64_t)t->board.ncells * r->pk.n;
	for (shift = 0; shift < 64 && max >> shift != 0; shift += 11) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[a[i] >> shift & 2047]++;
		for (sum = 0, k = 0; k < 2048; k++) {
			c = cnt[k];
			cnt[k] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[a[i] >> shift & 2047]++] = a[i];
		x = a;
		a = b;
		b = x;
	}
	for (i = 0; i < n; i++)
		r->pend[i] = (int)(a[i] % r->pk.n);
}

/* Drops what no longer moves from the pending list. */
static void
compact(struct terr *r)
{
	size_t	 i, n = 0;

	for (i = 0; i < r->npend; i++)
		if (r->pk.v[r->pend[i]].moving && r->pk.v[r->pend[i]].n > 0)
			r->pend[n++] = r->pend[i];
		else
			r->pk.v[r->pend[i]].moving = false;
	r->npend = n;
}

/*
 * The sides of a fight, structured (a player's name may hold ", " and
 * digits): one "side" event for each player, in the map's order, after
 * the skirmish, loop, round or rounds event; with after, its force before
 * and after, else its force.  live leaves out the players who had no
 * armies before (arbiter-result(5): a player is listed up to the round
 * its last army falls in).
 */
static void
trace_sides(struct arb_turn *t, const int *pl, const long *before,
    const long *after, int n, bool live)
{
	int	 i;

	for (i = 0; i < n; i++) {
		if (live && before[i] == 0)
			continue;	/* out of the fight already */
		if (after != NULL)
			trace_event(t, "side", "player", TF_STR,
			    t->players.v[pl[i]].name, "before", TF_INT,
			    before[i], "after", TF_INT, after[i], NULL);
		else
			trace_event(t, "side", "player", TF_STR,
			    t->players.v[pl[i]].name, "force", TF_INT,
			    before[i], NULL);
	}
}

#define FIRST_ROUNDS	3	/* traced one by one before a summary */

/*
 * The trace of a skirmish's rounds: force[] as it starts, n rounds.  In
 * round r every side still in loses one army, so after r rounds a force
 * f has f - r left, or none.  A fight of up to FIRST_ROUNDS + 2 rounds
 * has one event a round; a longer one, which a skirmish of a million
 * armies is, has rounds 1 to FIRST_ROUNDS and its last round, and one
 * "rounds" event for those in between, so the trace stays small.
 */
static void
trace_rounds(struct arb_turn *t, int target, const int *pl,
    const long *force, int np, long n)
{
	long	 before[MAXPLAYERS], after[MAXPLAYERS], r, to;
	int	 i;

	for (r = 1; r <= n; r = to + 1) {
		to = r == FIRST_ROUNDS + 1 && n - r >= 2 ? n - 1 : r;
		for (i = 0; i < np; i++) {
			before[i] = force[i] > r - 1 ? force[i] - (r - 1) : 0;
			after[i] = force[i] > to ? force[i] - to : 0;
		}
		if (to == r)
			trace_event(t, "round", "target", TF_CELL,
			    (long)target, "round", TF_INT, r, NULL);
		else
			trace_event(t, "rounds", "target", TF_CELL,
			    (long)target, "from", TF_INT, r, "to", TF_INT, to,
			    NULL);
		trace_sides(t, pl, before, after, np, true);
	}
}

/*
 * territory skirmish (ruling T4): list holds the packets of the conflict,
 * in priority order.  Every player loses one army a round until at most
 * one is left; the winner keeps its force less the second largest.  kind
 * is "skirmish" or "loop"; target is the territory fought over (for a
 * loop, its first territory in map order).
 */
static void
skirmish(struct arb_turn *t, int *list, int n, const char *kind,
    int target)
{
	struct terr	*r = T_(t);
	int		 pl[MAXPLAYERS], np = 0, i, k;
	long		 force[MAXPLAYERS], left[MAXPLAYERS], top = 0, second = 0;
	int		*mine = r->mine, nmine;

	for (i = 0; i < n; i++) {
		struct packet *p = &r->pk.v[list[i]];

		for (k = 0; k < np && pl[k] != p->player; k++)
			;
		if (k == np) {
			pl[np] = p->player;
			force[np++] = 0;
		}
		force[k] += p->n;
	}
	/* Players in map order, for a stable trace. */
	for (i = 1; i < np; i++)
		for (k = i; k > 0 && pl[k - 1] > pl[k]; k--) {
			int	 q = pl[k];
			long	 f = force[k];

			pl[k] = pl[k - 1];
			force[k] = force[k - 1];
			pl[k - 1] = q;
			force[k - 1] = f;
		}
	for (i = 0; i < np; i++) {
		if (force[i] > top) {
			second = top;
			top = force[i];
		} else if (force[i] > second)
			second = force[i];
	}
	trace_event(t, kind, "step", TF_INT, (long)r->step, "target",
	    TF_CELL, (long)target, NULL);
	trace_sides(t, pl, force, NULL, np, false);
	/* Two sides or more are still in while the second largest lasts. */
	for (i = 0; i < np; i++)
		left[i] = force[i] == top && top > second ? top - second : 0;
	if (t->flags & ARB_TRACE)
		trace_rounds(t, target, pl, force, np, second);
	for (k = 0; k < np; k++) {
		nmine = 0;
		for (i = 0; i < n; i++)
			if (r->pk.v[list[i]].player == pl[k])
				mine[nmine++] = list[i];
		take_side(t, mine, nmine, (int)(force[k] - left[k]), kind);
	}
}

/*
 * territory invasion and watchtower (ruling T5): list holds one player's
 * packets into c, in priority order.
 */
static void
invade(struct arb_turn *t, int *list, int n, int c)
{
	struct terr	*r = T_(t);
	struct packet	*first = &r->pk.v[list[0]];
	int		 q = t->board.cells[c].owner, i;
	long		 a = 0, d = armies(t)[c], pay, k;
	bool		 full;

	for (i = 0; i < n; i++)
		a += r->pk.v[list[i]].n;
	trace_event(t, "invasion", "step", TF_INT, (long)r->step, "target",
	    TF_CELL, (long)c, "attacker", TF_STR,
	    t->players.v[first->player].name, "armies", TF_INT, a,
	    "defender", TF_STR, t->players.v[q].name, "defenders", TF_INT, d,
	    "watchtower", TF_BOOL, (long)board_has(&t->board, c,
	    r->watchtower), NULL);
	/* The penalty: 2 armies before any damage. */
	pay = a < 2 ? a : 2;
	take_side(t, list, n, (int)pay, "penalty");
	a -= pay;
	full = pay == 2;
	if (full && board_has(&t->board, c, r->watchtower)) {
		pay = a < 2 ? a : 2;
		take_side(t, list, n, (int)pay, "watchtower");
		a -= pay;
		if (pay == 2)
			feature_destroy(t, c, r->watchtower, first->order);
		else
			full = false;	/* no partial damage stays */
	}
	if (full) {
		long	 j, to;

		/* k rounds; traced as trace_rounds() does a skirmish's. */
		k = a < d ? a : d;
		for (j = 1; (t->flags & ARB_TRACE) && j <= k; j = to + 1) {
			to = j == FIRST_ROUNDS + 1 && k - j >= 2 ? k - 1 : j;
			if (to == j)
				trace_event(t, "round", "target", TF_CELL,
				    (long)c, "round", TF_INT, j, "attackers",
				    TF_INT, a - j + 1, "defenders", TF_INT,
				    d - j + 1, NULL);
			else
				trace_event(t, "rounds", "target", TF_CELL,
				    (long)c, "from", TF_INT, j, "to", TF_INT,
				    to, "attackers", TF_INT, a - j + 1,
				    "defenders", TF_INT, d - j + 1, NULL);
		}
		take_side(t, list, n, (int)k, "invasion");
		take_defenders(t, c, (int)k, "invasion");
		a -= k;
		d -= k;
	}
	if (!full || d > 0)
		return;
	/* Defenders gone, or none there: the territory falls neutral. */
	owner_set(t, c, -1, "neutralized", first->order);
	loyalty_set(t, c, 0, "neutralized", first->order);
	feature_destroy(t, c, r->bivouac, first->order);
	/* The first survivors claim it; the others arrive in a territory
	 * that is now the player's own (arbiter-result(5), arrive). */
	for (i = 0; i < n; i++)
		arrive(t, list[i], t->board.cells[c].owner == first->player ?
		    "own" : "invasion");
}

/*
 * The first of the pending packets standing in c, by_source order: a
 * binary search, so that a walk touches only the territories it visits.
 */
static size_t
first_from(struct terr *r, int c)
{
	size_t	 lo = 0, hi = r->npend;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->pk.v[r->pend[mid]].at < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The packets from a into b, a link of a loop: where they begin in
 * r->bylink (sorted by_link), and in *n how many there are.
 */
static size_t
link_find(struct terr *r, int a, int b, size_t *n)
{
	size_t	 lo = 0, hi = r->npend, end;

	while (lo < hi) {
		size_t		 mid = lo + (hi - lo) / 2;
		struct packet	*p = &r->pk.v[r->bylink[mid]];

		if (p->at < a || (p->at == a && p->dest < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < r->npend && r->pk.v[r->bylink[end]].at == a &&
	    r->pk.v[r->bylink[end]].dest == b; end++)
		;
	*n = end - lo;
	return lo;
}

/* The first time a walk reaches c: its edges start, it is not on the path. */
static void
reach(struct terr *r, int c, int stamp)
{
	if (r->mark[c] == stamp)
		return;
	r->mark[c] = stamp;
	r->cur[c] = (int)first_from(r, c);
	r->onstack[c] = -1;
}

/* Are armies still moving from a into b? */
static bool
link_live(struct terr *r, int a, int b)
{
	size_t	 j, n, lo = link_find(r, a, b, &n);

	for (j = lo; j < lo + n; j++)
		if (r->pk.v[r->bylink[j]].moving)
			return true;
	return false;
}

/*
 * Ruling T3 (d): closed loops of attacks.  Every pending packet is an
 * edge from where it stands to where it goes.  One depth-first walk, from
 * the territories in map order and along each territory's packets in
 * priority order, finds the loops: an edge back to a territory on the
 * walk's path closes one, which is fought at once as one skirmish among
 * the packets along it.  The fight breaks at least one link of the loop
 * (the losers' packets are gone), so the walk backs up to the first
 * broken link and goes on from there; the territories it backs out of are
 * walked again when an edge leads to them.  Returns whether it found any.
 *
 * Each territory keeps its place in its list of edges (cur), and backing
 * out of it moves that place back by one edge only, to the edge it left
 * by: the edges before it are dead or lead to territories the walk has
 * finished, from which no loop can be reached.  A loop of m links breaks
 * at least m / 2 of them, since no two consecutive links are one
 * player's, so the whole walk costs O(P log P) for P pending packets,
 * however many loops share a territory.
 */
static bool
loops(struct arb_turn *t)
{
	struct terr	*r = T_(t);
	size_t		 i, np = r->npend;
	int		*path = r->path, *list = r->list, depth;
	bool		 found = false;
	int		 stamp = ++r->mark[t->board.ncells];

	/* Edges out of each territory in priority order. */
	S = t;
	qsort(r->pend, np, sizeof(int), by_source);

	/*
	 * mark[c] == stamp: c has been reached in this walk, and then
	 * onstack[c] is its depth + 1 while on the path, 0 once finished,
	 * and -1 when the walk backed out of it after a loop.
	 */
	for (i = 0; i < np; i++) {
		int start = r->pk.v[r->pend[i]].at;

		reach(r, start, stamp);
		if (r->onstack[start] >= 0)
			continue;
		depth = 0;
		r->onstack[start] = 1;
		path[0] = start;
		while (depth >= 0) {
			int		 c = path[depth], e = r->cur[c], to;
			int		 from, first, d, n = 0;
			struct packet	*p;
			size_t		 j, k, lo;

			if ((size_t)e >= np || r->pk.v[r->pend[e]].at != c) {
				r->onstack[c] = 0;
				depth--;
				continue;
			}
			r->cur[c] = e + 1;
			p = &r->pk.v[r->pend[e]];
			if (!p->moving)
				continue;	/* lost in a loop */
			to = p->dest;
			reach(r, to, stamp);
			if (r->onstack[to] == 0)
				continue;	/* finished: no loop there */
			if (r->onstack[to] < 0) {
				r->onstack[to] = ++depth + 1;
				path[depth] = to;
				continue;
			}
			/*
			 * A loop: path[from .. depth], back to path[from].
			 * It is named by its first territory in map order,
			 * wherever the walk came into it.
			 */
			if (!found) {
				/* The links, for this and later loops. */
				memcpy(r->bylink, r->pend, np * sizeof(int));
				qsort(r->bylink, np, sizeof(int), by_link);
				found = true;
			}
			from = r->onstack[to] - 1;
			first = to;
			for (d = from; d <= depth; d++) {
				int x = path[d];
				int y = d < depth ? path[d + 1] : to;

				first = x < first ? x : first;
				lo = link_find(r, x, y, &k);
				for (j = lo; j < lo + k; j++)
					if (r->pk.v[r->bylink[j]].moving)
						list[n++] = r->bylink[j];
			}
			qsort(list, (size_t)n, sizeof(int), by_seq);
			skirmish(t, list, n, "loop", first);
			for (j = 0; j < (size_t)n; j++) {
				p = &r->pk.v[list[j]];
				p->moving = p->n > 0;
			}
			/* Back to the first broken link. */
			for (d = from; d < depth; d++)
				if (!link_live(r, path[d], path[d + 1]))
					break;
			while (depth > d) {
				r->onstack[path[depth]] = -1;
				r->cur[path[depth]]--;
				depth--;
			}
		}
	}
	return found;
}

/* One step (territory 2): every move's step, conflicts included. */
static void
step(struct arb_turn *t, int s)
{
	struct terr	*r = T_(t);
	size_t		 i, j, k;
	int		 passes = 0;

	r->step = s;
	r->npend = 0;
	for (i = 0; i < r->pk.n; i++) {
		struct packet	*p = &r->pk.v[i];

		if (p->n == 0 || p->ncells <= s)
			continue;
		/* Ruling T2: movers leave first; they do not defend. */
		p->at = p->cells[s - 1];
		p->dest = p->cells[s];
		p->moving = true;
		armies(t)[p->at] -= p->n;
		r->pend[r->npend++] = (int)i;
	}
	trace_event(t, "step", "step", TF_INT, (long)s, "moves", TF_INT,
	    (long)r->npend, NULL);
	S = t;
	while (r->npend > 0) {
		bool changed = false;

		if (++passes > 4 * (int)r->pk.n + 8)
			t_fail(t, ARB_EINTERNAL, "step %d does not settle", s);
		/* a: into one's own territory. */
		for (i = 0; i < r->npend; i++) {
			struct packet *p = &r->pk.v[r->pend[i]];

			if (t->board.cells[p->dest].owner == p->player) {
				arrive(t, r->pend[i], "own");
				changed = true;
			}
		}
		compact(r);
		sort_by_dest(t, r);
		/* b: into a neutral territory one player targets. */
		for (i = 0; i < r->npend; i = j) {
			struct packet	*p = &r->pk.v[r->pend[i]];
			bool		 one = true;

			for (j = i + 1; j < r->npend &&
			    r->pk.v[r->pend[j]].dest == p->dest; j++)
				one &= r->pk.v[r->pend[j]].player == p->player;
			if (!one || t->board.cells[p->dest].owner >= 0)
				continue;
			/* The first claims it; the others arrive in a
			 * territory that is now the player's own. */
			for (k = i; k < j; k++)
				arrive(t, r->pend[k], t->board.cells[
				    p->dest].owner == p->player ? "own" :
				    "neutral");
			changed = true;
		}
		if (changed) {
			compact(r);
			continue;
		}
		/* c: two or more players target one territory. */
		for (i = 0; i < r->npend; i = j) {
			struct packet	*p = &r->pk.v[r->pend[i]];
			bool		 one = true;

			for (j = i + 1; j < r->npend &&
			    r->pk.v[r->pend[j]].dest == p->dest; j++)
				one &= r->pk.v[r->pend[j]].player == p->player;
			if (one)
				continue;
			skirmish(t, r->pend + i, (int)(j - i), "skirmish",
			    p->dest);
			changed = true;
		}
		if (changed) {
			compact(r);
			continue;
		}
		/* d: closed loops. */
		if (loops(t)) {
			compact(r);
			continue;
		}
		/* e: invasions, one player into another's territory. */
		sort_by_dest(t, r);
		for (i = 0; i < r->npend; i = j) {
			int c = r->pk.v[r->pend[i]].dest;

			for (j = i + 1; j < r->npend &&
			    r->pk.v[r->pend[j]].dest == c; j++)
				;
			invade(t, r->pend + i, (int)(j - i), c);
			for (k = i; k < j; k++)
				r->pk.v[r->pend[k]].moving = false;
		}
		compact(r);
	}
}

/* "B, C": the territories the order's path enters, names whole. */
static const char *
path_names(struct arb_turn *t, const struct order *o)
{
	size_t	 size = 1, len = 0, n;
	char	*buf;
	int	 k;

	for (k = 1; k < o->ncells; k++)
		size += strlen(cell_name(t, o->cells[k])) + 2;
	buf = t_alloc(t, size);
	for (k = 1; k < o->ncells; k++) {
		if (k > 1) {
			memcpy(buf + len, ", ", 2);
			len += 2;
		}
		n = strlen(cell_name(t, o->cells[k]));
		memcpy(buf + len, cell_name(t, o->cells[k]), n);
		len += n;
	}
	return buf;
}

static void
resolve(struct arb_turn *t)
{
	struct terr	*r = T_(t);
	size_t		 i, n = (size_t)t->board.ncells;
	int		 k;

	r->pk.v = t_alloc(t, (t->sequence.n + 1) * sizeof(*r->pk.v));
	for (i = 0; i < t->sequence.n; i++) {
		struct order	*o = &t->orders.v[t->sequence.v[i]];
		struct packet	*p;

		if (o->status != OS_PENDING)
			continue;
		p = &r->pk.v[r->pk.n++];
		p->order = t->sequence.v[i];
		p->player = o->player;
		p->n = p->n0 = (int)o->n;
		p->seq = (int)i;
		p->next_here = -1;
		/* validate() held the path to TSTEPS steps. */
		p->ncells = o->ncells;
		for (k = 0; k < o->ncells && k <= TSTEPS; k++)
			p->cells[k] = o->cells[k];
	}
	r->here = t_alloc(t, n * sizeof(int));
	r->here_step = t_alloc(t, n * sizeof(int));
	r->tail = t_alloc(t, n * sizeof(int));
	r->mark = t_alloc(t, (n + 1) * sizeof(int));
	r->onstack = t_alloc(t, n * sizeof(int));
	r->cur = t_alloc(t, n * sizeof(int));
	r->pend = t_alloc(t, (r->pk.n + 1) * sizeof(int));
	r->path = t_alloc(t, (r->pk.n + 2) * sizeof(int));
	r->list = t_alloc(t, (r->pk.n + 1) * sizeof(int));
	r->bylink = t_alloc(t, (r->pk.n + 1) * sizeof(int));
	r->mine = t_alloc(t, (r->pk.n + 1) * sizeof(int));
	r->keys = t_alloc(t, 2 * (r->pk.n + 1) * sizeof(*r->keys));
	step(t, 1);
	step(t, 2);
	for (i = 0; i < r->pk.n; i++) {
		struct packet	*p = &r->pk.v[i];
		struct order	*o = &t->orders.v[p->order];

		order_rule(t, o, OS_DONE, R_OK, "territory 2",
		    "%d arm%s from %s to %s: %d arrived, %d lost", p->n0,
		    p->n0 == 1 ? "y" : "ies", cell_name(t, o->cells[0]),
		    path_names(t, o), p->n, p->n0 - p->n);
		order_num(t, o, "arrived", p->n);
		order_num(t, o, "lost", p->n0 - p->n);
	}
}

/*
 * Ruling T9: upkeep, when the map asks for it.  It stops at what a map may
 * hold (see loaded()), so that the next map loads: a loyalty of MAXARMIES
 * gains nothing, and once the map holds MAXARMIES armies the bivouacs
 * raise none, the territories taken in map order.
 */
static void
end(struct arb_turn *t)
{
	struct terr	*r = T_(t);
	long		 total = 0;
	int		 c;

	if (!r->upkeep)
		return;
	for (c = 0; c < t->board.ncells; c++)
		total += armies(t)[c];
	for (c = 0; c < t->board.ncells; c++) {
		int	 p = t->board.cells[c].owner;

		if (p < 0)
			continue;
		if (t->board.cells[c].loyalty < MAXARMIES)
			loyalty_set(t, c, t->board.cells[c].loyalty + 1,
			    "upkeep", -1);
		if (board_has(&t->board, c, r->bivouac) &&
		    total < MAXARMIES) {
			struct loss *g = VPUSH(t, t->gains);

			total++;
			g->unit = -1;
			g->player = p;
			g->at = c;
			g->strength = 1;
			g->cause = "bivouac";
			g->order = -1;
			g->target = -1;
			armies(t)[c]++;
			trace_event(t, "raise", "cell", TF_CELL, (long)c,
			    "player", TF_STR, t->players.v[p].name, "armies",
			    TF_INT, 1L, "cause", TF_STR, "bivouac", NULL);
		}
	}
}

/*
 * The walk hooks (rules.h): a move's armies go from territory to
 * bordering territory, TSTEPS steps of cost 1; nothing else refuses a
 * step (conflicts are fought, not refused).  No state.
 */
static long
walk_begin(struct arb_turn *t, const struct order *o, void *state,
    struct wstep *over)
{
	(void)state;
	if (t->board.cells[o->cells[0]].owner != o->player) {
		over->reason = R_NOT_OWNED;
		over->rule = "territory 3";
		return -1;
	}
	over->reason = R_OUT_OF_RANGE;
	over->rule = "territory 1";
	return TSTEPS;
}

static int
walk_next(struct arb_turn *t, const struct order *o, const void *state,
    int from, int *to, int max)
{
	const struct board *b = &t->board;
	int	 n = b->adj_at[from + 1] - b->adj_at[from];

	(void)o;
	(void)state;
	if (n <= max)
		memcpy(to, b->adj + b->adj_at[from], (size_t)n * sizeof(int));
	return n;
}

static void
walk_step(struct arb_turn *t, const struct order *o, void *state, int from,
    int to, struct wstep *s)
{
	(void)o;
	(void)state;
	s->reason = step_reason(t, from, to, &s->rule);
	s->cost = 1;
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
 * --reach: the conflicts the path would meet as the turn starts
 * (arbiter-result(5), Reach): each territory it enters that is not the
 * player's, in path order.  Another player's is an invasion: its
 * defenders, its watchtower, and the armies the invasion costs before
 * the territory falls (ruling T5: 2, 2 more for a watchtower, one per
 * defender).  A neutral one is taken unless another player moves there
 * too (a skirmish), which reach does not foresee.
 */
static void
walk_report(struct arb_turn *t, const struct order *o, const int *path,
    int n, struct jv *obj)
{
	struct terr	*r = T_(t);
	struct jv	*l = emit_set_array(obj, "conflicts"), *c;
	int		 i, k;

	for (i = 1; i < n; i++) {
		int	 at = path[i], owner = t->board.cells[at].owner;
		bool	 wt = board_has(&t->board, at, r->watchtower);

		if (owner == o->player)
			continue;
		for (k = 1; k < i && path[k] != at; k++)
			;
		if (k < i)
			continue;	/* met once */
		c = emit_add_object(l);
		emit_set_str(c, "at", cell_name(t, at));
		if (owner < 0) {
			emit_set_str(c, "kind", "neutral");
			continue;
		}
		emit_set_str(c, "kind", "invasion");
		emit_set_str(c, "defender", t->players.v[owner].name);
		emit_set_int(c, "defenders", armies(t)[at]);
		emit_set_bool(c, "watchtower", wt);
		emit_set_int(c, "cost", 2 + (wt ? 2 : 0) + armies(t)[at]);
	}
}

const struct ruleset rules_territory = {
	.name = "territory",
	.rulings = "2026-11-24",
	.board = BOARD_GRAPH,
	.map_keys = map_keys,
	.cell_x = cell_x,
	.order_kinds = order_kinds,
	.init = init,
	.load = load,
	.save = save,
	.loaded = loaded,
	.resolve = resolve,
	.begin = begin,
	.validate = validate,
	.execute = execute,
	.end = end,
	.walk_size = 0,
	.walk_begin = walk_begin,
	.walk_next = walk_next,
	.walk_step = walk_step,
	.walk_end = walk_end,
	.walk_report = walk_report
};
