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
};

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
	/* Frees what it keeps outside the turn's arena (may be NULL). */
	void	(*release)(struct arb_turn *);
};

/* registry.c: the only place outside a rule system's own file that names
 * it. */
const struct ruleset *rules_find(const char *name);	/* NULL: unknown */
const char *const *rules_names(void);			/* NULL-ended */

extern const struct ruleset rules_aeonis;
extern const struct ruleset rules_territory;
extern const struct ruleset rules_morne;
extern const struct ruleset rules_xconq;
extern const struct ruleset rules_arcane;

#endif /* ARBITER_RULES_H */
