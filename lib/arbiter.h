/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The public interface of libarbiter.  It is self-contained: it needs no
 * other header, and no jansson type appears in it.
 *
 * A turn is adjudicated in this order:
 *
 *	struct arb_error e;
 *	struct arb_turn *t = arb_turn_new();
 *	arb_turn_load_map(t, "map.json", text, len, &e);
 *	arb_turn_load_orders(t, "red.json", "red", text, len, &e);  (each file)
 *	arb_turn_run(t, 0, &e);
 *	arb_turn_write_result(t, 0, fp, &e);    (and _write_next, _write_trace)
 *	arb_turn_free(t);
 *
 * Every function that can fail returns -1 (or NULL) and fills the
 * caller's struct arb_error; the first error wins.
 *
 * The library keeps no state outside a turn (but for per-thread pointers
 * to the turn being read or written, set by each call): turns may be
 * adjudicated at once in several threads, one thread to a turn.  Only
 * arb_turn_load_map_ahead() starts a thread of its own, which reads the
 * orders texts it was given until the run, the reach query,
 * arb_turn_end_ahead() or arb_turn_free() joins it.
 *
 * A program that uses jansson itself: before main() the library sets
 * jansson's allocation functions (json_set_alloc_funcs) to its own, which
 * pass every allocation outside the library's parsing on to the functions
 * set before (malloc and free by default), so the program's values are
 * made and freed as before.  A program that sets its own functions must
 * do so before any turn is read; the library's are then off, and jansson
 * may report an allocation that fails while a file is parsed as a syntax
 * error (it does not always tell the two apart; the library's own
 * functions do).
 *
 * GMime, which reads orders that come as a mail: the library calls
 * g_mime_init() once, the first time a mail is read, and never
 * g_mime_shutdown().  A program that uses GMime itself may call
 * g_mime_init() too, before or after, but must call g_mime_shutdown() only
 * when it will load no more orders (GMime's types and tables are gone
 * after it), and never while another thread reads a turn.
 */
#ifndef ARBITER_H
#define ARBITER_H

#include <stddef.h>
#include <stdio.h>

#define ARB_VERSION "0.1.0"

enum arb_errcode {
	ARB_EOK = 0,
	ARB_EDATA,		/* bad input: syntax or value */
	ARB_ENOMEM,		/* out of memory */
	ARB_EINTERNAL,		/* a bug: an invariant did not hold */
	ARB_EWRITE		/* an output failed: text is the system's reason */
};

struct arb_error {
	enum arb_errcode code;
	int	line, column;		/* from 1; 0 when not about a place */
	char	file[256];
	char	pointer[256];		/* RFC 6901 JSON Pointer, or "" */
	char	text[256];
};

struct arb_turn;

/* Flags for arb_turn_run(). */
#define ARB_CHECK	0x01	/* validate only; adjudicate nothing */
#define ARB_TRACE	0x02	/* record trace events */

/* Flags for arb_turn_result(). */
#define ARB_RESULT_TRACE 0x01	/* include the trace in the result */

/* Returns a new, empty turn; free it with arb_turn_free().  NULL when
 * memory runs out. */
struct arb_turn	*arb_turn_new(void);

/* Frees t and everything hanging off it.  Accepts NULL. */
void		 arb_turn_free(struct arb_turn *t);

/*
 * Loads the map from text (len bytes, which need not end in NUL).  name is
 * used in messages.  The text is read during the call only: nothing of it
 * is kept, and the caller may free it on return.
 * Returns 0, or -1 with e filled (file, line:column, pointer, text).  A
 * map with problems is read to its end and refused: e is the first
 * problem found (its text without a suggestion), and arb_turn_problem()
 * then gives every one of them.
 */
int		 arb_turn_load_map(struct arb_turn *t, const char *name,
		    const char *text, size_t len, struct arb_error *e);

/*
 * Loads one orders file.  When player is not NULL the file must speak for
 * that player.  Call after arb_turn_load_map(), once per file; two files for
 * one player are an error.  A file that cannot be read as orders, or an
 * order that cannot be read, is no error but a ruling: the file or the
 * order is refused (arb_turn_refused(), arb_turn_problem()).  Returns 0,
 * or -1 as above.
 */
int		 arb_turn_load_orders(struct arb_turn *t, const char *name,
		    const char *player, const char *text, size_t len,
		    struct arb_error *e);

/*
 * An orders file (JSON or text, arbiter-orders(5)) written back for the
 * map loaded: as the JSON orders file it means, or (ARB_ORDERS_TEXT) as
 * canonical text; JSON to text to JSON gives the same orders.  Nothing is
 * ruled and nothing of the turn changes: a line that cannot be read is
 * written as it stands (in JSON, as its order's "_text").  Call after
 * arb_turn_load_map(), before the run.  Returns 0, or -1 with e filled
 * (the text is not JSON, a text has no header, writing failed).
 */
#define ARB_ORDERS_TEXT	0x01
int		 arb_turn_write_orders(struct arb_turn *t, const char *name,
		    const char *text, size_t len, int flags, FILE *fp,
		    struct arb_error *e);

/*
 * arb_turn_load_map(), and meanwhile the reading of the orders files to
 * come: their JSON is parsed and their SHA-256 taken on a second thread
 * (a POSIX thread, started and joined within the call) while the map
 * loads in this one.  Load them afterwards with arb_turn_load_orders(),
 * giving each the same text pointer and length: a text given here is then
 * not parsed again.  The texts must stay unchanged until they are loaded
 * (or the turn is freed); what is not loaded is dropped by
 * arb_turn_free().  Everything else is as with arb_turn_load_map() and
 * arb_turn_load_orders(): the same results, problems and errors, in the
 * same order; an error in the map is the error, whatever the orders
 * hold.  When no thread can be started the call does all the work in
 * this one.  Returns 0, or -1 as above.
 */
struct arb_text {
	const char	*text;
	size_t		 len;
};
int		 arb_turn_load_map_ahead(struct arb_turn *t,
		    const char *name, const char *text, size_t len,
		    const struct arb_text *orders, size_t norders,
		    struct arb_error *e);
/* Stops the reading ahead and drops what it read and was not loaded: the
 * texts given to arb_turn_load_map_ahead() may then be freed, loaded or
 * not (a caller that gives up after an error, before the run). */
void		 arb_turn_end_ahead(struct arb_turn *t);

/* The name of the map's rule system (lent, static), or NULL before the map
 * is loaded. */
const char	*arb_turn_ruleset(const struct arb_turn *t);

/* Replaces the map's seed (before arb_turn_run()); a map's commitment to
 * its dice is then not consulted (a replay of a revealed seed). */
void		 arb_turn_set_seed(struct arb_turn *t, unsigned long long seed);

/*
 * The threads a turn may run at once, the caller's included: 1 (or less),
 * the caller's alone; 2 or more (the default), a second one where it
 * gains, if the machine has a second processor: a large search of
 * arb_turn_reach() or of a "to" order, in a rule system that can
 * (aeonis), looks the hexes up ahead on it, and stops it before it
 * returns.  The answers are the same bytes either way.  (Reading the
 * orders ahead is the caller's choice: arb_turn_load_map_ahead().)
 */
void		 arb_turn_threads(struct arb_turn *t, int n);

/*
 * With on non-zero: keep, for each order of an orders text loaded from now
 * on, its canonical line, the result's "text" of the order, which --check
 * --text echoes (arbiter-result(5)).  Off by default, so that a text costs
 * no more to read than JSON.
 */
void		 arb_turn_echo(struct arb_turn *t, int on);

/*
 * Fair dice (arbiter-rules(7), Dice).  The umpire's secret key is
 * ARB_SECRET_LEN bytes; arb_secret_new() fills one from the system's
 * random source (0, or -1 when it cannot).  arb_turn_set_secret() gives
 * the key to a turn, before arb_turn_load_map(): a map that commits to its
 * dice is then checked against it as it loads (ARB_EDATA at
 * /dice/commitment when the key does not give the commitment), its dice
 * come from the key, and the next map commits to the next turn's.  The
 * key is copied, and wiped by arb_turn_free().  Given after the map, it
 * makes arb_turn_run() fail with ARB_EINTERNAL.
 */
#define ARB_SECRET_LEN	32
int		 arb_secret_new(unsigned char *key);
void		 arb_turn_set_secret(struct arb_turn *t,
		    const unsigned char *key);

/*
 * A replay of the umpire's turn without the key (arbiter(1), --rerun and
 * --audit): reveal is the turn's R as its result revealed it, next the
 * next map's commitment as the result recorded it; each ARB_SECRET_LEN
 * bytes, copied, or NULL.  Call before arb_turn_load_map() (after it,
 * arb_turn_run() fails with ARB_EINTERNAL).  With reveal,
 * the map must commit to its dice, and to SHA-256(reveal) (else ARB_EDATA
 * at /dice/commitment), and the turn's seed is the one R gives; without
 * it, the map has a plain seed (the turn before a game's dice were
 * committed).  The result and next map are the umpire's, byte for byte
 * (the next map needs next).
 */
void		 arb_turn_set_reveal(struct arb_turn *t,
		    const unsigned char *reveal, const unsigned char *next);

/*
 * The commitment of turn `turn` of game `game` under key (arbiter-rules(7),
 * Dice): SHA-256 of HMAC-SHA-256(key, "arbiter-dice-1\n" game "\n" turn),
 * as 64 lower-case hex digits and a NUL in hex (65 bytes).  What
 * `arbiter --commit` writes into a map for its own turn.
 */
void		 arb_commitment(const unsigned char *key, const char *game,
		    long turn, char *hex);

/* After arb_turn_load_map(): 1 when the map commits to its dice, else 0. */
int		 arb_turn_committed(const struct arb_turn *t);

/*
 * Rolls from outside: text is a JSON array of die values (integers from
 * 1), used in the order the turn draws its dice instead of any seed.  A
 * value out of range for its die, or too few values, is found by
 * arb_turn_run() (ARB_EDATA).  Returns 0 or -1 as the loaders do.
 */
int		 arb_turn_load_rolls(struct arb_turn *t, const char *name,
		    const char *text, size_t len, struct arb_error *e);

/*
 * Adjudicates the turn (or, with ARB_CHECK, only validates its orders).
 * Rejected orders are rulings, not errors.  Returns 0, or -1 with e filled
 * (ARB_ENOMEM, ARB_EINTERNAL when an invariant failed, or ARB_EDATA when
 * the dice cannot be had: a committed map without the key and not under
 * ARB_CHECK, rolls from outside too few or out of range).
 */
int		 arb_turn_run(struct arb_turn *t, int flags,
		    struct arb_error *e);

/*
 * The order sheet of player (numbered as arb_turn_player()) for the next
 * turn, after arb_turn_run() (arbiter(1), --sheet): one self-contained
 * HTML page, the picture of the next turn's board as the player sees it,
 * the reach of each of the player's units (or cells, where orders move a
 * count from a cell) on the next map, priced by the code of
 * arb_turn_reach(), and a script that makes orders as text, headed for
 * the next map.  0, or -1 with e filled as the writers below (ARB_EDATA
 * when there is no next turn, or the board is too large to draw).
 */
int		 arb_turn_write_sheet(struct arb_turn *t, int player,
		    FILE *fp, struct arb_error *e);

/* The number of orders ruled illegal or failed (after arb_turn_run()). */
int		 arb_turn_illegal(const struct arb_turn *t);

/*
 * The number of orders refused because they could not be read, and in
 * *files (when not NULL) the number of orders files refused whole (after
 * the orders are loaded).  Both are rulings, not errors.
 */
int		 arb_turn_refused(const struct arb_turn *t, int *files);

/*
 * Problem i (from 0) of the orders files, in the order the result lists
 * them (files by player name, then file name; each file's problems as
 * they come): fills e as an error is filled (ARB_EDATA, file,
 * line:column, pointer, text; an orders text's, no pointer) and returns
 * 0, or returns -1 past the last (or when memory runs out).  Each refused
 * order and each refused file has at least one.  After arb_turn_load_map()
 * failed with ARB_EDATA: the map's problems instead, in the order they
 * stand in the text, each with its suggestion; at most 50, then, when
 * there were more, one with line 0 and no pointer, "and N more problems".
 * None (-1 at once) when the map failed for its syntax, or for something
 * else than its data.
 */
int		 arb_turn_problem(struct arb_turn *t, size_t i,
		    struct arb_error *e);

/*
 * The player whose orders file problem i is about, numbered as
 * arb_turn_player(), or -1 when the file's player is not known (or past
 * the last problem): so that a player is shown only their own problems
 * (arbiter(1), --for).
 */
int		 arb_turn_problem_player(struct arb_turn *t, size_t i);

/*
 * Write the result, the next turn's map, or the trace to fp (which stays
 * the caller's: it is neither flushed nor closed).  With text set, the trace
 * is one readable line per event instead of JSON Lines.  Return 0, or -1
 * with e filled: ARB_ENOMEM when memory runs out, ARB_EWRITE with the
 * system's description (strerror) when fp reports a write error.
 */
int		 arb_turn_write_result(struct arb_turn *t, int flags, FILE *fp,
		    struct arb_error *e);
int		 arb_turn_write_next(struct arb_turn *t, FILE *fp,
		    struct arb_error *e);
int		 arb_turn_write_trace(struct arb_turn *t, int text, FILE *fp,
		    struct arb_error *e);

/*
 * Pictures and players' reports (after arb_turn_run()).  Players are
 * numbered from 0 in the map's order; arb_turn_player() gives the name
 * of player i (lent), or NULL past the last; arb_turn_find_player() the
 * number of the player named, or -1 with *hint the nearest name (lent)
 * or NULL.
 *
 * arb_turn_write_svg() draws the turn as SVG (arbiter(1), --svg): with
 * ARB_SVG_NEXT the board as the next turn begins, with ARB_SVG_START as
 * this turn begins (before any order or upkeep); player -1 for the
 * umpire's picture, else as that player sees it.  arb_turn_write_view()
 * writes the result as player sees it (arbiter-result(5), A player's
 * report): JSON, with the trace under ARB_VIEW_TRACE, or plain text under
 * ARB_VIEW_TEXT.  Both return 0, or -1 with e filled as the writers
 * above.
 */
#define ARB_SVG_NEXT	0x01
#define ARB_SVG_START	0x04
#define ARB_VIEW_TEXT	0x01
#define ARB_VIEW_TRACE	0x02
const char	*arb_turn_player(const struct arb_turn *t, int i);
int		 arb_turn_find_player(struct arb_turn *t, const char *name,
		    const char **hint);
int		 arb_turn_write_svg(struct arb_turn *t, int flags, int player,
		    FILE *fp, struct arb_error *e);
/*
 * The region the pictures draw (arbiter(1), --svg-region): "all" the
 * whole board; "A:B" a hex board's columns and rows from hex A to hex B;
 * "A,B,..." a graph's territories and their neighbours; NULL (the
 * default) the whole board, or, on a board too large to read whole, the
 * region around what happened.  Lent: region must outlive the pictures.
 * A region naming no cell of the board is ARB_EDATA when a picture is
 * drawn.
 */
void		 arb_turn_svg_region(struct arb_turn *t, const char *region);
int		 arb_turn_write_view(struct arb_turn *t, int player, int flags,
		    FILE *fp, struct arb_error *e);
/*
 * The same picture as arb_turn_write_svg() draws, as PNG (arbiter(1),
 * --png), for mail readers that show no SVG: rasterised by librsvg, width
 * pixels wide (0: the picture's own width, 1 pixel a unit), the height in
 * proportion.  A picture of more than 16384 pixels a side or 16 million
 * in all is ARB_EDATA (a smaller width fits).  Pictures are rasterised
 * one at a time in a process.  0, or -1 with e filled.
 */
int		 arb_turn_write_png(struct arb_turn *t, int flags, int player,
		    int width, FILE *fp, struct arb_error *e);
/* The trace as player may see it (arbiter-result(5), A player's report). */
int		 arb_turn_write_trace_for(struct arb_turn *t, int player,
		    int text, FILE *fp, struct arb_error *e);
/*
 * The replay page (arbiter(1), --replay): one self-contained HTML file
 * (no file or address outside it) that steps through the trace over the
 * picture of the board as the turn began, its units moved step by step
 * to where the result has them.  Player -1 for the umpire's, else as
 * that player may know the turn: the player's cut of the trace, nothing
 * of the other players' hidden orders.  Needs the trace (arb_turn_run()
 * with ARB_TRACE); 0, or -1 with e filled as the writers above.
 */
int		 arb_turn_write_replay(struct arb_turn *t, int player,
		    FILE *fp, struct arb_error *e);

/*
 * Reach (arbiter(1) --reach, arbiter-result(5) Reach): where a unit can
 * end its move this turn, the cheapest cost and one cheapest path to each
 * cell.  Call after the map and the orders files (if any) are loaded,
 * instead of arb_turn_run(): the orders that come, in the run's order,
 * before the first that names the unit are played out first (validated
 * only, where moves are simultaneous), so the reach is from the state
 * they leave.  unit is a unit id, or a cell where the rule system's path
 * orders move a count from a cell (territory).  with[0 .. nwith-1] are
 * more units that move with it (a group); with none, the rule system
 * says (aeonis: the player's units in the unit's hex).  Returns 0, or -1
 * with e filled (ARB_EDATA: an unknown unit or cell, with a suggestion,
 * or a rule system whose units move on no cells: arb_turn_walks()).
 * arb_turn_write_reach() writes the answer, as JSON or (text) one line
 * per cell.
 */
int		 arb_turn_walks(const struct arb_turn *t);	/* 0: a table */
int		 arb_turn_reach(struct arb_turn *t, const char *unit,
		    const char *const *with, int nwith, struct arb_error *e);
int		 arb_turn_write_reach(struct arb_turn *t, int text, FILE *fp,
		    struct arb_error *e);

/* The names of the rule systems, NULL-terminated; lent, static. */
const char	*const *arb_rulesets(void);

#endif /* ARBITER_H */
