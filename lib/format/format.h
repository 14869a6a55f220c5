/*
 * The formats layer of libarbiter: reading a map and orders into the
 * model (load.c; the orders in a mail, mail.c), and writing the result, the next map and the trace
 * (emit.c).  It uses every layer below and calls a rule system only
 * through struct ruleset.  Each function fails through the turn's mem, as
 * everything below does.
 */
#ifndef ARBITER_FORMAT_H
#define ARBITER_FORMAT_H

#include <stdio.h>

#include "rules/rules.h"

void	 load_map(struct arb_turn *, struct ld *);
/* After load_map() failed: its problems sorted, the first the error. */
void	 load_map_refused(struct arb_turn *);
/* An orders file, JSON or text (text.c), as ld->text says by its first
 * character; load_orders_any() is the same, for readers of other
 * containers (a mail's decoded part). */
void	 load_orders(struct arb_turn *, struct ld *, const char *player);
void	 load_orders_any(struct arb_turn *, struct ld *, const char *player);
void	 load_rolls(struct arb_turn *, struct ld *);	/* --rolls */
/* An orders file refused whole before it is read: one problem. */
void	 load_refused(struct arb_turn *, struct ld *, const char *player,
	    enum reason, int line, int column, const char *text);
int	 file_cmp(const struct arb_turn *, int a, int b);	/* files */

/*
 * text.c: orders as players write them (arbiter-orders(5), The text
 * form).  load_orders() reads a text (text_is()) with text_read(), into
 * the JSON document it means, and rules it with the same code as JSON;
 * ld->where then locates the document's pointers in the text.
 */
struct otext;
bool	 text_is(const char *text, size_t len);	/* not JSON */
const struct jv *text_read(struct arb_turn *, struct ld *, struct otext **);
void	 text_where(struct ld *, const char *pointer, int *line, int *col);
/* The header's problem, order i's line's: a reason, R_OK for none. */
int	 text_header(const struct otext *, const char **what,
	    const char **hint);
int	 text_problem(const struct otext *, size_t i, const char **what,
	    const char **hint);
const char *text_bad_line(const struct otext *, size_t i);
/* The canonical line of an order (NULL: not an object); the canonical
 * text of an orders document. */
const char *text_line(struct arb_turn *, struct otext *,
	    const struct jv *order);
void	 text_write(struct arb_turn *, const struct jv *root, FILE *);
/* An orders file, JSON or text, written back as JSON (text false) or
 * as canonical text, without ruling on it. */
void	 emit_orders(struct arb_turn *, struct ld *, bool text, FILE *);

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
#define SVG_START	0x02	/* the board as this turn begins */
#define SVG_HOOKS	0x04	/* data- attributes for the replay's script:
				 * the title, owners' outlines, counters,
				 * features (replay.c) */
#define SVG_CELLS	10000	/* the cells a picture draws, at most */
void	 emit_svg(struct arb_turn *, int flags, int player, FILE *);
void	 svg_title(struct arb_turn *, int flags, int player, char *buf,
	    size_t size);
const char **svg_colours(struct arb_turn *);	/* by player, arena's */
/* sheet.c: a player's order sheet (arbiter(1), --sheet), made in the
 * next map's turn: begun, given each group's reach as it is searched
 * (sheet_group(), then sheet_graph() with its state graph (rules.h,
 * reach_graph), then sheet_refused() with cell -1 for a group that
 * cannot move; sheet_reaches(): is a cell in the last group's reach),
 * and written with the picture.  A reach cut
 * (a search's bound, or the sheet's SHEET_STEPS) is written "cut". */
struct sheet;
struct reach;
struct sheet *sheet_begin(struct arb_turn *, int player, const char *hash);
void	 sheet_group(struct arb_turn *, struct sheet *, const struct order *,
	    const struct reach *, int of);
int	 sheet_groups(const struct sheet *);
struct rgraph;
void	 sheet_graph(struct arb_turn *, struct sheet *, const struct rgraph *);
/* After sheet_graph: kind k (OK_CELL) of the group with each cell as its
 * target: code[cell] 0 where it may, else 1 + the index of why not,
 * sheet_why()'s (the page's table of reasons, by reason and clause; the
 * clause is copied). */
void	 sheet_targets(struct arb_turn *, struct sheet *, int k,
	    const int *code);
int	 sheet_why(struct arb_turn *, struct sheet *, enum reason,
	    const char *rule);
bool	 sheet_reaches(const struct sheet *, int cell);
bool	 sheet_full(const struct sheet *);	/* its steps' bound reached */
void	 sheet_refused(struct arb_turn *, struct sheet *, int cell,
	    const char *rule, const char *why);
void	 sheet_write(struct arb_turn *, struct sheet *, const char *svg,
	    size_t svglen, FILE *);
/* png.c: the picture rasterised by librsvg, width pixels wide (0: the
 * SVG's own width), at most PNG_MAX_SIDE pixels a side and PNG_MAX_PIXELS
 * in all (64 MB of surface). */
#define PNG_MAX_SIDE	16384
#define PNG_MAX_PIXELS	16000000
void	 emit_png(struct arb_turn *, int flags, int player, int width,
	    FILE *);
#define VIEW_TEXT	0x01	/* plain text, for a mail */
#define VIEW_TRACE	0x02	/* with the trace, filtered */
void	 emit_view(struct arb_turn *, int player, int flags, FILE *);
/* replay.c: the replay page (arbiter(1), --replay), for player (-1: the
 * umpire's). */
void	 emit_replay(struct arb_turn *, int player, FILE *);
void	 view_drop(struct arb_turn *);	/* after a failure */
/* letter.c: a player's letter, into the report cut for the player from
 * the whole result, and written as text from the report. */
struct json_t;
/* What the next map says of each player, for the letter (view.c reads
 * it): their points ("ap 6, mana 0"), their lists of names, and the cells
 * they hold where cells carry no counters, by player index; NULL: none,
 * or no next map. */
struct nextview {
	const char	**pools, **held;
	const char	**lists;	/* "discoveries: translocation" */
};
void	 letter_build(struct arb_turn *, const char *me, bool reveal,
	    struct json_t *report, struct json_t *full,
	    const struct nextview *);
void	 letter_text(struct arb_turn *, const char *me,
	    const struct json_t *report, FILE *);
/* display.c: whether the trace written shows event (t->trace_for). */
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

/* mail.c: an orders file that is a mail (arbiter-orders(5), MAIL), read
 * with GMime.  mail_is() and mail_read() know no turn and never jump:
 * what mail_read() gives lives in m->buf (malloc'ed; mail_free()); it
 * is false when memory runs out. */
#define MAIL_TEXT	1	/* a text/plain part with "arbiter orders" */
#define MAIL_JSON	2	/* a JSON object with "orders" */
struct mail {
	char		*buf;
	int		 kind;		/* MAIL_TEXT, MAIL_JSON; 0: none */
	const char	*text;		/* the part's text, UTF-8, LF lines */
	size_t		 len;
	const char	*part;		/* its content type (and file name) */
	enum reason	 reason;	/* kind 0: why none */
	const char	*why;		/* kind 0: the message */
	const char	*message_id, *from, *date;	/* "" when absent */
};
bool	 mail_is(const char *name, const char *text, size_t len);
bool	 mail_read(const char *text, size_t len, struct mail *);
void	 mail_free(struct mail *);
/* Reads the part that holds orders with load_orders(), or refuses the
 * file; records the mail in its entry. */
void	 load_mail(struct arb_turn *, struct ld *, const char *player);

#endif /* ARBITER_FORMAT_H */
