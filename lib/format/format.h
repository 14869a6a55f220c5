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

/* display.c: the map's "display" and "reveal_orders", read and carried
 * to the next map; svg.c: the picture; view.c: a player's report. */
void	 load_display(struct arb_turn *, struct ld *, const struct jv *root);
void	 emit_display(struct arb_turn *, struct jv *root);
bool	 view_reveals(const struct arb_turn *);
int	 view_player(struct arb_turn *, const char *name, const char **hint);
#define SVG_NEXT	0x01	/* the board as the next turn begins */
void	 emit_svg(struct arb_turn *, int flags, int player, FILE *);
#define VIEW_TEXT	0x01	/* plain text, for a mail */
#define VIEW_TRACE	0x02	/* with the trace, filtered */
void	 emit_view(struct arb_turn *, int player, int flags, FILE *);
void	 view_drop(struct arb_turn *);	/* after a failure */
/* letter.c: a player's letter, into the report cut for the player from
 * the whole result, and written as text from the report. */
struct json_t;
void	 letter_build(struct arb_turn *, const char *me, bool reveal,
	    struct json_t *report, struct json_t *full);
void	 letter_text(struct arb_turn *, const char *me,
	    const struct json_t *report, FILE *);
/* Whether the trace written shows event (t->trace_for). */
bool	 view_event(const struct arb_turn *, const struct tevent *);
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
