/*
 * The formats layer of libarbiter: reading a map and orders into the
 * model (load.c), and writing the result, the next map and the trace
 * (emit.c).  It uses every layer below and calls a rule system only
 * through struct ruleset.  Each function fails through the turn's mem, as
 * everything below does.
 */
#ifndef ARBITER_FORMAT_H
#define ARBITER_FORMAT_H

#include <stdio.h>

#include "rules/rules.h"

void	 load_map(struct arb_turn *, struct ld *);
void	 load_orders(struct arb_turn *, struct ld *, const char *player);
void	 load_rolls(struct arb_turn *, struct ld *);	/* --rolls */
int	 file_cmp(const struct arb_turn *, int a, int b);	/* files */

void	 emit_result(struct arb_turn *, int flags, FILE *);
void	 emit_next(struct arb_turn *, FILE *);
void	 emit_trace(struct arb_turn *, int text, FILE *);
void	 emit_release(struct arb_turn *);	/* the document being built */

/* --reach (arbiter-result(5), Reach): arb_turn_reach() fills it in the
 * turn (t->reachq), emit_reach() writes it. */
struct reach_query {
	struct order	 o;		/* the walk: units, player, start */
	const char	*unit;		/* as the query named it */
	int		 played;	/* orders played out before it */
	struct reach	 r;
};
void	 emit_reach(struct arb_turn *, int text, FILE *);

#endif /* ARBITER_FORMAT_H */
