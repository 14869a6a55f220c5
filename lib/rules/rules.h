/*
 * The rule systems' layer of libarbiter: the interface every rule system
 * implements (struct ruleset) and the registry that finds one by name.
 * Each rule system is one file here and uses the model, JSON and base
 * layers below; nothing below names a rule system, and the layers above
 * (formats, driver) call one only through struct ruleset.
 */
#ifndef ARBITER_RULES_H
#define ARBITER_RULES_H

#include <stdbool.h>

#include "model/model.h"

struct ufield {				/* a counter a unit carries */
	const char	*name;
	int		 dflt, min;
	bool		 quiet;		/* a letter says it only when it is
					 * not dflt (radius 0: no leader) */
};

/* A step's distance (arcane-legions), in steps: more than MAN_STEP_MIN,
 * at most MAN_STEP_MAX; arcane.c reads them, the order sheet refuses
 * others. */
#define MAN_STEP_MIN	GEOM_EPS
#define MAN_STEP_MAX	1.0

struct okind {				/* an order kind: its key */
	const char	*key;
	enum {
		OK_PATH,		/* an array of cells */
		OK_CELL,		/* one cell */
		OK_RULE			/* anything: the rule system's
					 * load_order reads it */
	}		 arg;
	const char	*count;		/* NULL: the order names "units";
					 * else the key of a count (>= 1)
					 * it moves instead, in order.n */
	int		 price;		/* what an OK_CELL order of it always
					 * costs of the player's first
					 * resource, or 0; the order sheet
					 * takes it off that pool */
};

/*
 * Moving by steps (issue 15): what a rule system says of one step of a
 * path order's units, used alike by its own validation and execution, by
 * --reach and by destination-only ("to") orders, so that no cost rule has
 * a second copy.  A walk is the units of an order (o->units, standing at
 * o->cells[0]) going from cell to cell; its state is the rule system's own
 * bytes (walk_size of them, zeroed before walk_begin, compared and hashed
 * bytewise, so no padding left unset), holding whatever makes the price of
 * a step depend on more than the cell: a road being followed, a first zone
 * of control waived, hexes entered against a range, points left, ...
 */
struct wstep {
	int		 cost;		/* points the step costs (>= 0) */
	enum reason	 reason;	/* R_OK, or why the step is refused */
	const char	*rule;		/* the clause of a refusal */
	bool		 stop;		/* the units must stop here: a path
					 * may end here but not go on (rule
					 * may name the clause; reason stays
					 * R_OK) */
	bool		 tested;	/* its outcome depends on dice, which
					 * reach does not foresee */
	bool		 fixed;		/* walk_begin's: no step of this walk
					 * changes its state, so that the
					 * search need not try a step into a
					 * cell it has settled */
	long		 span;		/* walk_begin's: the most steps the
					 * walk can take (0: no bound known
					 * but the points), for the search's
					 * second thread (walk_look) */
};

struct ruleset {
	const char		*name;
	/* The version of its rulings in arbiter-rules(7), changed whenever
	 * a ruling changes; every result names it. */
	const char		*rulings;
	enum board_kind		 board;
	const char *const	*map_keys;	/* top-level keys it reads */
	const char *const	*player_res;	/* its player resources */
	const bool		*res_resets;	/* next map: back to start? */
	const struct ufield	*unit_x;	/* NULL-named end */
	const struct ufield	*cell_x;	/* counters a cell carries */
	const char *const	*unit_marks;
	unsigned		 marks_in;	/* marks a map may set */
	unsigned		 marks_kept;	/* marks the next map keeps */
	const struct okind	*order_kinds;	/* NULL-keyed end */
	const char *const	*order_keys;	/* other keys it reads */
	const char *const	*unit_keys;	/* its own members of a unit */
	/* The letter's example order (view.c), after a unit's id, where
	 * its first order kind is its own (OK_RULE); NULL: the core writes
	 * a path order. */
	const char		*example;
	/*
	 * The text form of its orders (arbiter-orders(5)), beyond what the
	 * order kinds say: text_heads, pairs of words (NULL-ended), the first
	 * word of an object of an OK_RULE kind's list (comma-separated) and
	 * the member a bare number after its value sets ("" none); the
	 * other members of such an object are pairs of words.  text_lists:
	 * those of order_keys whose value is a list of words, to the end of
	 * the line.  NULL: none.
	 */
	const char *const	*text_heads;
	const char *const	*text_lists;
	/* Before the map's own parts: built-in types and terrains. */
	void	(*init)(struct arb_turn *);
	/* Its own parts of the map; checks names of terrain and features. */
	void	(*load)(struct arb_turn *, struct ld *, const struct jv *root);
	/* The next map's copy of its own parts (emit.c calls it). */
	void	(*save)(struct arb_turn *, struct jv *root);
	/* Checks across the whole map once it is loaded (may be NULL). */
	void	(*loaded)(struct arb_turn *, struct ld *, const struct jv *);
	/* Simultaneous rule systems: resolves every legal order at once,
	 * after all are validated (NULL: each order is executed at its
	 * moment). */
	void	(*resolve)(struct arb_turn *);
	/* The start of the turn, before any order. */
	void	(*begin)(struct arb_turn *);
	/* Validation: sets status OS_ILLEGAL with reason, or leaves it. */
	void	(*validate)(struct arb_turn *, struct order *);
	/* Carries out one legal order at its moment. */
	void	(*execute)(struct arb_turn *, struct order *);
	/* The end of the turn, after every order. */
	void	(*end)(struct arb_turn *);
	/* --check: decides the standing orders still pending after every
	 * order was played out, as end() would in the run (may be NULL:
	 * none are left). */
	void	(*standing)(struct arb_turn *);
	/* A unit's own members (unit_keys): read from the map, and written
	 * to the next map and the result's units (may be NULL). */
	void	(*load_unit)(struct arb_turn *, struct ld *, int u,
		    const struct jv *);
	void	(*save_unit)(struct arb_turn *, int u, struct jv *obj,
		    bool next);		/* next: for the next map */
	/* Reads the argument of an OK_RULE order kind (the ld points at
	 * it) into o->data; may fail through ld_fail. */
	void	(*load_order)(struct arb_turn *, struct ld *, struct order *,
		    const struct jv *arg, const struct jv *order);
	/* An order's own members of the result (may be NULL). */
	void	(*report_order)(struct arb_turn *, const struct order *,
		    struct jv *obj);
	/* Its own members of the result, added to obj (may be NULL). */
	void	(*report)(struct arb_turn *, struct jv *obj);
	/* Moving by steps (struct wstep above); all NULL where units do not
	 * move from cell to cell (the table): --reach then says so.  The
	 * walk hooks must not trace, rule on the order or change the turn:
	 * they are called many times for each order by the search. */
	size_t	walk_size;
	/* The state before the first step; returns the points the walk
	 * may spend in all (the search never goes beyond them), and says
	 * in over->reason and over->rule why a step that would spend more
	 * is refused (R_INSUFFICIENT_AP, ...).  Returns -1 when the walk
	 * cannot begin at all (the units are not together, ...), with
	 * why in over. */
	long	(*walk_begin)(struct arb_turn *, const struct order *,
		    void *state, struct wstep *over);
	/* The cells a step from `from` may try (neighbours, and any other
	 * cell a move may go to in one step: a portal); returns how many,
	 * written to to[] (at most max). */
	int	(*walk_next)(struct arb_turn *, const struct order *,
		    const void *state, int from, int *to, int max);
	/* One step from `from` to `to`, a cell walk_next() offered from
	 * `from`: fills *s and updates state; a refused step leaves
	 * s->reason != R_OK (state then undefined). */
	void	(*walk_step)(struct arb_turn *, const struct order *,
		    void *state, int from, int to, struct wstep *s);
	/* Whether the walk may end at c (a lake may be crossed but not
	 * ended in, ...): R_OK or why not, with the clause in *rule. */
	enum reason (*walk_end)(struct arb_turn *, const struct order *,
		    const void *state, int c, const char **rule);
	/* Of two states at one cell reached at costs ca <= cb: true when a
	 * is worth at least as much as b in every way (b can then be
	 * dropped).  NULL: only equal states are. */
	bool	(*walk_better)(const void *a, const void *b);
	/* Looking ahead (may be NULL): finds what the other walk hooks would
	 * look up about cell c, so that a second thread can do it ahead of
	 * the search on a large hex board (reach.c).  Called first with c =
	 * -1 by the search's own thread, before the second starts: from then
	 * until the next walk_begin() the hooks may be called in both
	 * threads at once, so that whatever walk_look fills, each thread must
	 * claim before it fills it (atomically) and read only once it is
	 * filled.  It must not allocate, fail or change the turn; and what it
	 * finds must be what the hooks would find themselves, so that the
	 * answer is the same whichever thread finds it first. */
	void	(*walk_look)(struct arb_turn *, const struct order *, int c);
	/* Table boards: the corners of unit u's base at pose ps,
	 * counterclockwise from its back left (back, right, front and left
	 * edges), as the rule system measures it; the pictures draw it.
	 * NULL: a square one step wide. */
	/* Table boards (may be NULL): the movement points unit u would
	 * have if given a move order now, and the price of each maneuver
	 * kind that does not depend on where the unit stands: price[0-3] a
	 * step forward, back, left and right; price[4-7] a turn off the
	 * front, back, left and right side.  For the order sheet's tally
	 * (arbiter(1), --sheet). */
	long	(*man_prices)(struct arb_turn *, int u, int price[8]);
	/* The order sheet's test of an OK_CELL order that validation
	 * passed: what carrying it out from where its unit stands, with
	 * what it has at the turn's start, would refuse, the rule in *rule;
	 * R_OK when nothing.  Nothing may change.  NULL: validation alone
	 * (arbiter(1), --sheet). */
	enum reason (*cell_test)(struct arb_turn *, const struct order *,
		    const char **rule);
	void	(*footprint)(struct arb_turn *, int u, const struct pose *ps,
		    struct pt q[4]);
	/* --reach UNIT: true when a path order moves a stack (the units
	 * listed, together), so that UNIT stands for the player's units in
	 * its cell; false: for UNIT alone.  A path kind with a count
	 * (okind.count) takes a cell instead of a unit. */
	bool	walk_stack;
	/* --check: a "to" order that finds no route asks again without the
	 * units of players who act first and gave the check no orders
	 * (issue 28): true where the walk reads the units from the cells'
	 * lists alone, so that taking units off them is all it takes. */
	bool	route_depends;
	/* The reach document's own members of a cell found, whose path is
	 * path[0 .. n-1] (may be NULL). */
	void	(*walk_report)(struct arb_turn *, const struct order *,
		    const int *path, int n, struct jv *obj);
	/* Frees what it keeps outside the turn's arena (may be NULL). */
	void	(*release)(struct arb_turn *);
};

/*
 * reach.c: the search over the walk hooks (arbiter-rules(7), Reach), for
 * --reach and destination-only orders.  It names no rule system.  A
 * label-setting search over (cell, state) with a bucket queue on the
 * integer costs: labels leave the queue by cost, then steps; a label is
 * dropped when another at its cell is no dearer, has no more steps, is
 * worth as much (walk_better) and, at an equal cost and steps, has a
 * path that comes first by the tie-break.  The tie-break among the
 * cheapest paths to a cell: fewest steps, then the path whose cells,
 * read from the end back to the start, come first in the board's cell
 * order at the first place they differ.
 *
 * o is the order that walks: its units, its player, and o->cells[0] its
 * start (o->ncells >= 1).  target < 0: every cell the walk may end in;
 * else the search stops once the target's path is known.
 */
struct reach_cell {
	int		 cell;
	int		 label;		/* its path: reach_path() */
	long		 cost;
	int		 steps;
	bool		 stop, tested;
};

struct reach {
	long		 budget;	/* -1: the walk cannot begin */
	struct wstep	 over;		/* walk_begin's */
	struct reach_cell *v;		/* in the order found; v, and the
					 * labels of reach_path(), are the
					 * search's until the turn's next */
	int		 n;
	/* With a target and no path to it: the nearest approach, a path
	 * (near_label, or the start when -1) and what was refused after it:
	 * the step to near_to, or (near_end) ending in near_to. */
	bool		 found;
	bool		 truncated;	/* stopped by reach_limit() */
	int		 near_label, near_to;
	bool		 near_end;
	struct wstep	 near;
};

void	 reach_search(struct arb_turn *, const struct order *, int target,
	    struct reach *);
/* The cells of a found cell's path, start first, into out (steps + 1). */
void	 reach_path(struct arb_turn *, int label, int *out);
int	 reach_steps(struct arb_turn *, int label);	/* -1: the start */
/* A path's labels one at a time (--reach writes them as a tree): the
 * label its last step comes from (-1: the start), the cell it reaches,
 * and how many labels the last search made (every label is below). */
int	 reach_parent(struct arb_turn *, int label);
int	 reach_cell(struct arb_turn *, int label);
long	 reach_cost(struct arb_turn *, int label);	/* to it */
size_t	 reach_labels(struct arb_turn *);
/* The labels the turn's searches have settled so far, and a bound on it
 * that stops a search (r->truncated; 0: none): the work and memory "to"
 * orders may ask for (arbiter-orders(5)). */
long	 reach_spent(struct arb_turn *);
void	 reach_limit(struct arb_turn *, long);
/* Whether a search looks ahead on a second thread (rules.h, walk_look):
 * REACH_AHEAD_AUTO, when it is large and the machine has a second
 * processor; or, for the tests and the benchmark, always (the search
 * begins once the second thread has), first (the second thread looks up
 * every hex it would before the search begins), or never. */
enum {
	REACH_AHEAD_AUTO, REACH_AHEAD_ALWAYS, REACH_AHEAD_FIRST,
	REACH_AHEAD_NEVER
};
void	 reach_ahead(struct arb_turn *, int);
/* Stops and waits for a search's second thread, if one runs: a search
 * stops it before it returns, and on running out of memory; the turn's
 * entry points stop it too when anything else fails, and
 * arb_turn_free() before anything is freed. */
void	 reach_stop(struct arb_turn *);
#define ROUTE_LABELS	500000L	/* a player's "to" orders, in all */
#define REACH_LABELS	500000L 	/* a --reach query (issue 26) */
/*
 * The state graph of a walk (the order sheet, issue 32): every (cell,
 * state, stopped) the walk can be in within its budget, each with its
 * steps, priced by the walk hooks as the search prices them but with no
 * state dropped for a cheaper or better one, so that a path chosen step
 * by step can be priced from any of them.  Node 0 is the start.  A
 * node's edges are its steps in walk_next()'s order: to a node, at a
 * cost; or refused (to < 0), with the reason and clause, or (over) a
 * step no path within the budget can take (cost is the step's).  cut:
 * the bound on nodes was reached, and the steps into nodes left out are
 * refused with cut set on the edge.
 *
 * Where the player's earlier orders may move the player's other units
 * (a sequential rule system, and units that are not a count), each step
 * and each end is also asked with its cell's occupancy by those units
 * the other way round (flip): emptied of them where they stand, or,
 * where none stands, with one of them placed there (the first of the
 * player's units in the map's order that is not the walk's); walk_begin
 * is called again around each such question, so that whatever the rule
 * system looked up is looked up anew.  A step whose answer differs is
 * listed again, after its first, with flip set; an end, in vend.
 * The arrays are the turn's search memory, valid until the next search
 * or graph.
 */
struct rg_edge {
	int		 to;		/* node, or -1: refused */
	int		 cell;
	int		 cost;
	bool		 tested, over, cut, flip;
	enum reason	 why;		/* refused: why, and rule */
	const char	*rule;
};

struct rg_node {
	int		 cell;
	bool		 stop;		/* the step into it stopped the walk */
	long		 cost;		/* the cheapest way to it */
	enum reason	 end, vend;	/* may the walk end here (walk_end),
					 * and with its cell flipped */
	const char	*endrule, *vendrule;
	int		 first, n;	/* its edges */
};

struct rgraph {
	long		 budget;	/* -1: the walk cannot begin */
	struct wstep	 over;
	struct rg_node	*node;
	int		 nnode;
	struct rg_edge	*edge;
	int		 nedge;
	bool		 cut;
	bool		 flips;		/* the flipped questions were asked */
};

void	 reach_graph(struct arb_turn *, const struct order *, int maxnodes,
	    struct rgraph *);
/* Frees the search's memory (arb_turn_free() calls it). */
void	 reach_release(struct arb_turn *);

/* registry.c: the only place outside a rule system's own file that names
 * it. */
const struct ruleset *rules_find(const char *name);	/* NULL: unknown */
const char *const *rules_names(void);			/* NULL-ended */
/* The rule systems other than rs whose maps have key (at the top, a
 * player's, a cell's or a unit's), as "a", "a and b" or "a, b and c" in
 * buf; false (buf "") when none has it. */
bool	 registry_key_elsewhere(const struct ruleset *rs, const char *key,
	    char *buf, size_t size);

extern const struct ruleset rules_aeonis;
extern const struct ruleset rules_territory;
extern const struct ruleset rules_morne;
extern const struct ruleset rules_xconq;
extern const struct ruleset rules_arcane;

#endif /* ARBITER_RULES_H */
