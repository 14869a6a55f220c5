/*
 * The model layer of libarbiter: boards and their geometry (board.c,
 * geom.c), units, players, orders and the turn that holds them, and the
 * services rule systems use on them (model.c: placing units, losses,
 * ownership, loyalty; trace.c: the trace; dice.c: the dice; io.c: cells,
 * units, players and poses as JSON values).  It uses the base and JSON
 * layers; it names no rule system, and holds its rule system only as an
 * opaque pointer (rules.h is above it).
 */
#ifndef ARBITER_MODEL_H
#define ARBITER_MODEL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "json/json.h"

#define MAXPLAYERS	64	/* treaties are a 64-bit set */
#define UNIT_X		4	/* ruleset counters per unit */
#define PLAYER_RES	4	/* ruleset resources per player */
#define MAXHEXES	4000000L	/* hexes on a board (arbiter-map(5)) */
#define MAXSTEPS	10000	/* steps or maneuvers in one order */

struct arb_turn;
struct ruleset;			/* rules.h */

/* board.c: cells and adjacency.  Cells are numbered 0 .. ncells-1. */
enum board_kind {
	BOARD_HEX,		/* column-row labels, six neighbours */
	BOARD_GRAPH,		/* named territories, explicit adjacency */
	BOARD_TABLE		/* an open table: no cells, units have poses */
};

/* geom.c: points and convex polygons on a table, lengths in steps. */
#define GEOM_EPS	1e-6	/* lengths closer than this are equal */
#define GEOM_AEPS	1e-6	/* angles (degrees) closer than this are equal */
#define GEOM_MAXPTS	64	/* corners of a terrain piece */

struct pt {
	double		 x, y;
};

struct pose {
	double		 x, y;		/* the centre */
	double		 facing;	/* degrees clockwise from north, [0,360) */
};

struct piece {				/* a terrain piece on the table */
	const char	*id;
	struct pt	*p;		/* counterclockwise, convex */
	int		 n;
};

static inline struct pt
pt_make(double x, double y)
{
	struct pt p = { x, y };

	return p;
}
static inline struct pt pt_add(struct pt a, struct pt b)
{ return pt_make(a.x + b.x, a.y + b.y); }
static inline struct pt pt_sub(struct pt a, struct pt b)
{ return pt_make(a.x - b.x, a.y - b.y); }
static inline struct pt pt_mul(struct pt a, double k)
{ return pt_make(a.x * k, a.y * k); }
static inline double pt_dot(struct pt a, struct pt b)
{ return a.x * b.x + a.y * b.y; }
static inline double pt_cross(struct pt a, struct pt b)
{ return a.x * b.y - a.y * b.x; }
/* a turned 90 degrees clockwise */
static inline struct pt pt_cw(struct pt a)
{ return pt_make(a.y, -a.x); }

double	 pt_len(struct pt);
struct pt pt_unit(struct pt);
struct pt pt_bearing(double deg);	/* unit vector, compass bearing */
struct pt geom_rotate(struct pt p, struct pt c, double ccw_deg);
double	 geom_angle(struct pt from, struct pt to);	/* ccw, [0,360) */
double	 geom_norm360(double deg);
double	 geom_round(double v);		/* to 0.001, never -0 */
int	 geom_convex(struct pt *, int n);	/* -1, or makes it ccw */
double	 geom_area(const struct pt *, int n);
/* How deep the interiors overlap (<= 0: apart or touching). */
double	 geom_depth(const struct pt *, int, const struct pt *, int);
bool	 geom_overlaps(const struct pt *, int, const struct pt *, int);
/* a moved along unit vector dir: the distance at which it first touches
 * b on a way that goes on into overlap, when that is less than dist;
 * else -1. */
double	 geom_sweep(const struct pt *a, int na, struct pt dir, double dist,
	    const struct pt *b, int nb);
/* The convex overlap of a and b into out (room for na + nb points). */
int	 geom_clip(const struct pt *a, int na, const struct pt *b, int nb,
	    struct pt *out);
bool	 geom_inside(const struct pt *, int, struct pt);	/* strictly */
/* The longest boundary segment a and b share (0: none). */
double	 geom_shared(const struct pt *, int, const struct pt *, int);
/* Distance from p to the segment a-b. */
double	 geom_segdist(struct pt p, struct pt a, struct pt b);

struct cell {
	uint32_t	features;	/* bit i: board.features[i] */
	int32_t		first_unit;	/* -1, or a unit index */
	int32_t		last_unit;	/* -1, or the last in the list */
	int32_t		loyalty;
	int16_t		owner;		/* -1 neutral, or a player index */
	uint8_t		terrain;	/* index into board.terrains */
};

struct hexside {
	int		 a, b;		/* adjacent cells, a < b */
	int		 feature;	/* index into board.sidefeats */
};

struct connection {
	const char	*kind;
	int		*cells;
	int		 ncells;
};

struct board {
	enum board_kind	 kind;
	int		 cols, rows;	/* hex */
	int		 width;		/* digits per label half */
	bool		 odd_low;	/* odd columns half a hex lower */
	uint64_t	 colsinv;	/* 2^40 / cols + 1, or 0: a cell's
					 * row by a product (board_row()) */
	const char	**names;	/* graph: cell names */
	struct strmap	 by_name;	/* graph: name -> cell */
	int		*adj_at;	/* graph: cell i's neighbours are */
	int		*adj;		/* adj[adj_at[i] .. adj_at[i+1]-1] */
	int		 ncells;
	struct cell	*cells;
	int		*cx[UNIT_X];	/* the rule system's cell counters */
	int		*cx0[UNIT_X];	/* the same at the start */
	int16_t		*owner0;	/* owners at the start */
	uint32_t	*features0;	/* features at the start, once one
					 * is destroyed (else NULL) */
	const char	*terrains[256];
	int		 nterrains;
	int		 default_terrain;
	const char	*features[32];
	int		 nfeatures;
	const char	*legend[128];	/* compact rows: char -> terrain */
	bool		 has_rows;
	VEC(struct hexside) sides;
	VEC(const char *) sidefeats;
	VEC(struct connection) conns;
	double		 tw, th;	/* table: width and height */
	VEC(struct piece) pieces;	/* table: terrain pieces */
	struct strmap	 piece_ids;	/* table: id -> piece */
};

int	 board_find(const struct board *, const char *label);	/* -1 */
const char *board_label(const struct board *, int cell, char buf[32]);
int	 board_ring(const struct board *, int center, int d, int *out); /* hex */
bool	 board_is_adjacent(const struct board *, int a, int b);
int	 board_step(const struct board *, int cell, int dir);	/* hex, -1 */
int	 board_dir(const struct board *, int from, int to);	/* hex, -1 */
int	 board_distance(const struct board *, int a, int b);	/* hex */
struct hexpos { int x, y; };		/* doubled coordinates */
struct hexpos board_pos(const struct board *, int cell);	/* hex */
/* Hexes between two doubled positions; whether a cell has a feature
 * (-1: a feature the board does not have).  Inline: the searches ask
 * them at every step. */
static inline int
board_pos_distance(struct hexpos a, struct hexpos c)
{
	int	 dx = a.x > c.x ? a.x - c.x : c.x - a.x;
	int	 dy = a.y > c.y ? a.y - c.y : c.y - a.y;

	return dx + (dy > dx ? (dy - dx) / 2 : 0);
}

/* A hex's row, from 0.  With colsinv, a product and a shift instead of
 * a division: exact for cell < 2^22 and cols < 2^14 (the error of
 * colsinv, under 1, times cell, is under 2^40 / cols).  */
static inline int
board_row(const struct board *b, int cell)
{
	return b->colsinv != 0 ? (int)((uint64_t)cell * b->colsinv >> 40) :
	    cell / b->cols;
}

/* The neighbours of a cell clockwise from north; how many (fewer at the
 * map's edge). */
static inline int
board_neighbors(const struct board *b, int cell, int out[6])
{
	/* As board_step() in every direction, written out, and inline:
	 * the searches call it for every cell they visit. */
	int	 cols = b->cols, rows = b->rows, r = board_row(b, cell);
	int	 c = cell - r * cols;
	int	 up = r - 1 + (((c & 1) != 0) != b->odd_low);	/* NE, NW */
	int	 n = 0;
	bool	 w = c > 0, e = c < cols - 1;

	if (r > 0)
		out[n++] = cell - cols;			/* N */
	if (e && up >= 0)
		out[n++] = up * cols + c + 1;		/* NE */
	if (e && up + 1 < rows)
		out[n++] = (up + 1) * cols + c + 1;	/* SE */
	if (r + 1 < rows)
		out[n++] = cell + cols;			/* S */
	if (w && up + 1 < rows)
		out[n++] = (up + 1) * cols + c - 1;	/* SW */
	if (w && up >= 0)
		out[n++] = up * cols + c - 1;		/* NW */
	return n;
}

static inline bool
board_has(const struct board *b, int cell, int feature)
{
	return feature >= 0 && (b->cells[cell].features >> feature & 1);
}
int	 board_terrain(struct arb_turn *, const char *name);	/* interns */
int	 board_feature(struct arb_turn *, const char *name);	/* interns */
int	 board_feature_find(const struct board *, const char *name);

/* Unit types, filled by the rule system; flags are its own. */
struct utype {
	const char	*name;
	int		 range;
	unsigned	 flags;
};

struct unit {
	const char	*id;
	int		 player;
	int		 type;
	int		 at, from;
	int		 strength, strength0;
	int		 range;		/* -1: the type's */
	int		 next;		/* next unit in the same cell, or -1 */
	int		 prev;		/* the one before it, or -1 */
	int		 x[UNIT_X];	/* the rule system's counters */
	bool		 has_x[UNIT_X];
	unsigned	 marks;		/* bit i: ruleset->unit_marks[i] */
	struct pose	 pose, pose0;	/* table: now and at the start */
	int		 by;		/* the order that last moved it, or -1 */
	bool		 named;		/* some order named it */
	bool		 moved;
	bool		 gone;		/* eliminated */
	bool		 left;		/* it left the world (the board) */
};

struct player {
	const char	*name;
	long		 res0[PLAYER_RES];	/* at the start of the turn */
	long		 res[PLAYER_RES];	/* now */
	uint64_t	 treaties;		/* bit i: treaty with player i */
	const char	**disc;			/* discoveries */
	int		 ndisc;
	int		 ofile;			/* its orders file, or -1 */
};

/* Order statuses, as the result spells them. */
enum ostatus {
	OS_PENDING,
	OS_LEGAL,		/* --check: would be adjudicated */
	OS_DONE,
	OS_ILLEGAL,
	OS_FAILED
};

/* Reasons: one table, because goldens and man pages quote the names. */
enum reason {
	R_OK,
	R_INSUFFICIENT_AP,
	R_INSUFFICIENT_MANA,
	R_OUT_OF_RANGE,
	R_NOT_ADJACENT,
	R_IMPASSABLE,
	R_LAKE_END,
	R_ENEMY_OCCUPIED,
	R_BORDERS,
	R_NOT_TOGETHER,
	R_PORTAL_DENIED,
	R_NO_DISCOVERY,
	R_NOT_CONTROLLED,
	R_NOT_A_CITY,
	R_NO_TARGET,
	R_TARGET_NOT_ADJACENT,
	R_UNIT_GONE,
	R_EMPTY_PATH,
	R_NOT_OWNED,
	R_INSUFFICIENT_ARMIES,
	R_OCCUPIED,
	R_INSUFFICIENT_MP,
	R_ZOC_STOP,
	R_ZOC_EXIT,
	R_STUCK,
	R_BOMBARDED,
	R_CHARGE_ENDS,
	R_ONE_UNIT,
	R_NOT_CHARGED,
	R_RETREAT_BLOCKED,
	R_CANNOT_EXIST,
	R_ZOC_PROHIBITED,
	R_IMMOBILIZED,
	R_CANNOT_LEAVE_WORLD,
	R_NOT_AT_EDGE,
	R_INSUFFICIENT_OP,
	R_TOOL_BLOCKED,
	R_OVERLAP,
	R_MOVEMENT_ENDED,
	R_TARGET_SORTIE,
	R_NO_MOVE_ORDER,
	R_TARGET_GONE,
	R_DEPENDS_ON_DICE,
	R_NO_ROUTE,		/* "to": no legal path (issue 15) */
	R_DEPENDS_ON_ORDERS,	/* --check: another player's unit in the
				 * way, which that player, acting first,
				 * may move (issue 28) */
	/* An order that cannot be read (arbiter-orders(5), Refusals). */
	R_UNKNOWN_UNIT,
	R_FOREIGN_UNIT,
	R_UNIT_LISTED_TWICE,
	R_UNKNOWN_CELL,
	R_UNKNOWN_KIND,
	R_DUPLICATE_ID,
	R_BAD_ORDER,
	/* An orders file that cannot be read as orders. */
	R_NOT_JSON,
	R_NOT_ORDERS,
	R_BAD_FILE,
	R_UNKNOWN_PLAYER,
	R_WRONG_PLAYER,
	R_WRONG_TURN,
	/* A mail that holds no orders (arbiter-orders(5), MAIL). */
	R_HTML_ONLY,
	R_NO_ORDERS,
	R_BAD_MAIL,
	R_WRONG_MAP,		/* "map": another map's orders */
	R_NREASONS
};
const char	*reason_name(enum reason);
const char	*reason_says(enum reason);	/* in words, for a letter */
enum reason	 reason_find(const char *);	/* R_NREASONS: none */

struct onum {
	const char	*key;
	long		 val;
};

struct order {
	const char	*id;
	int		 player;
	int		 file;		/* index into turn.files */
	int		 index;		/* in its file */
	int		 kind;		/* index into ruleset->order_kinds */
	int		*units;
	int		 nunits;
	int		*cells;		/* a path, or one target cell */
	int		 ncells;
	long		 n;		/* a count, where the kind takes one */
	enum ostatus	 status;
	bool		 refused;	/* could not be read: never run */
	enum reason	 reason;
	const char	*rule;		/* "aeonis 5" */
	const char	*msg;
	const char	*text;		/* an orders text's: the canonical
					 * line (or the line as written) */
	void		*data;		/* OK_RULE: the rule system's own */
	bool		 has_to;	/* gave "to" instead of a path */
	int		 to;		/* then its destination */
	int		 from;		/* and its "from", or -1 */
	bool		 routed;	/* the path was found from "to" */
	long		 route_cost;
	int		 stop;		/* a move stopped short of its path's
					 * end: 1 + the index of the cell
					 * where it stopped; 0: it did not */
	VEC(struct onum) nums;		/* cost, ap_left, ... in order */
};

struct ofile {
	const char	*name;
	int		 player;	/* -1: not known */
	bool		 refused;	/* refused whole: no order read */
	int		 nproblems;	/* how many problems it has */
	unsigned char	 sha256[32];	/* of the text as read */
	/* A mail (format/mail.c): its header, and the part read. */
	bool		 mail;
	const char	*mail_id, *mail_from, *mail_date;
	const char	*mail_part;	/* NULL: none held orders */
	bool		 text;		/* an orders text, not JSON */
};

/*
 * A problem of an orders file: a refused order (order >= 0) or a reason
 * the whole file was refused.  The message is located: "file:line:column:
 * what is wrong (what was probably meant) at /pointer".
 */
struct problem {
	int		 file;		/* index into turn.files */
	int		 order;		/* index into turn.orders, or -1 */
	enum reason	 reason;
	int		 line, column;
	const char	*pointer;
	const char	*text;		/* what is wrong, with a suggestion */
	const char	*msg;		/* the located message */
};

/* Result records. */
struct attack {
	int		 order;
	int		 from, target;
	int		*defenders;
	int		 ndefenders;
};

struct loss {
	int		 unit;		/* -1: a loss of cell counter 0 */
	int		 player;
	int		 at;
	int		 strength;	/* or how much of the counter */
	const char	*cause;
	int		 order;		/* -1 when no order caused it */
	int		 target;	/* the cell fought for, or -1 */
	int		 step;		/* 0, or the step it happened in */
	bool		 posed;		/* a unit on a table: where it */
	struct pose	 pose;		/* stood when it lost */
};

struct destroyed {			/* a feature a cell lost */
	int		 cell;
	int		 feature;
	int		 order;		/* -1 when no order caused it */
};

struct ochange {			/* ownership or loyalty */
	int		 cell;
	long		 from, to;	/* players (-1 neutral), or loyalty */
	const char	*why;
	int		 order;		/* -1 when no order caused it */
};

/* trace.c: events, each a list of fields, written as JSON or text. */
enum tftype {
	TF_INT,
	TF_STR,
	TF_CELL,
	TF_BOOL,
	TF_REAL,		/* a double, written rounded to 0.001 */
	TF_NULL,		/* no value (a neutral owner): JSON null, and
				 * - in the text trace (where a string "-" is
				 * quoted); takes no argument */
	TF_ORDER		/* a const struct order *: its id under the
				 * key, and its player's name under "player"
				 * (key "order") or key_player */
};

struct tfield {
	const char	*key;
	enum tftype	 type;
	long		 i;
	double		 d;
	const char	*s;
};

struct tevent {
	struct tfield	*f;
	int		 nf;
};

/*
 * trace_event(t, "step", "order", TF_STR, id, "cost", TF_INT, 2L, ...,
 * NULL): the first field is always "ev".  Integers are passed as long,
 * TF_REAL values as double.
 * Does nothing unless the run asked for a trace.
 */
void	 trace_event(struct arb_turn *, const char *ev, ...);

/* dice.c: the seeded generator (splitmix64, documented in
 * arbiter-rules(7)); every draw is recorded for the result. */
struct draw {
	int		 sides;
	int		 value;
	const char	*why;		/* what the roll is for */
	const char	*decided;	/* what it decided, or NULL */
};
uint64_t splitmix64(uint64_t *state);
/* A roll from 1 to sides; 0 when the dice cannot be known (a check of a
 * map that commits to its dice): the rule then reports the outcome as
 * depending on the dice (R_DEPENDS_ON_DICE) and goes on as though the
 * roll had changed nothing. */
int	 dice_roll(struct arb_turn *, int sides, const char *why);
/* What the last roll decided, in words ("e1 held"), for the result's
 * draw.  Call it only after a known roll (not 0), before the next. */
void	 dice_decided(struct arb_turn *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/* Where the turn's dice come from (arbiter-rules(7), Dice). */
enum dice_source {
	DS_SEED,		/* the map's plain seed, or --seed */
	DS_SECRET,		/* the seed derived from the umpire's key */
	DS_ROLLS,		/* rolls from outside, in draw order */
	DS_UNKNOWN		/* a check of a committed map: no roll known */
};

struct arb_turn {
	struct mem		 mem;		/* arena, failures, hash key */
	const struct ruleset	*rs;
	void			*rsdata;	/* the rule system's own */
	int			 flags;
	int			 number;
	uint64_t		 seed, dice;
	bool			 seed_set;
	/* Fair dice (fairdice.c). */
	enum dice_source	 dsrc;
	const char		*game;		/* the map's "game", or NULL */
	bool			 committed;	/* the map has "dice" */
	unsigned char		 commitment[32];
	bool			 key_set, key_seen;	/* seen: by the map */
	unsigned char		 key[32];	/* wiped by arb_turn_free */
	unsigned char		 reveal[32];	/* R, when key and commitment */
	/* A replay without the key (arb_turn_set_reveal()): R as the
	 * result revealed it, and the next map's commitment it recorded. */
	bool			 reveal_set, next_set;
	/* The map's dice read (fair_loaded()); a key or R given after. */
	bool			 fair_read, fair_late;
	unsigned char		 next_commitment[32];
	unsigned char		 mapsha[32];
	const char		*rollsfile;	/* --rolls, or NULL */
	const char		*rollstext;	/* a copy, for messages */
	size_t			 rollslen;
	unsigned char		 rollssha[32];
	long			*rolls;
	size_t			 nrolls, rolls_used, rolls_missing;
	int			 missing_sides;	/* the first roll missing */
	const char		*missing_why;
	struct board		 board;
	VEC(struct utype)	 types;
	VEC(struct unit)	 units;
	struct strmap		 unit_ids;
	VEC(struct player)	 players;
	struct strmap		 player_names;
	struct strmap		 type_names;	/* unit types by name */
	unsigned		*listed;	/* by unit: order stamp (load) */
	unsigned		 stamp;
	char			 labels[8][32];	/* cell_name()'s */
	unsigned		 nlabel;
	int			*turn_order;
	VEC(struct ofile)	 files;
	VEC(struct order)	 orders;
	VEC(int)		 sequence;	/* orders, adjudication order */
	VEC(struct attack)	 attacks;
	VEC(struct loss)	 losses;
	VEC(struct loss)	 gains;		/* raised, not moved in */
	VEC(struct destroyed)	 destroyed;
	VEC(struct ochange)	 ownership;
	VEC(struct ochange)	 loyalty;
	VEC(struct draw)	 draws;
	VEC(struct tevent)	 trace;
	int			 illegal;
	bool			 ran;
	bool			 echo;		/* arb_turn_echo() */
	struct strmap		 order_ids;	/* while loading a file */
	struct ld		*ld;		/* the file being read */
	struct ld		 reader;	/* its state, buffers kept */
	/* Orders texts parsed and hashed ahead, while the map loads
	 * (arb_turn_load_map_ahead(); turn.c's second thread). */
	struct ld_ahead		*ahead;		/* in the arena */
	size_t			 nahead, ahead_next;
	long			 ahead_cur;	/* the one being read, or -1 */
	void			*helper;	/* turn.c's */
	const char		*mapfile;	/* the map's name */
	VEC(struct problem)	 problems;	/* of the orders files, or
						 * of a map refused (file
						 * -1, load.c) */
	int			 mapmore;	/* its problems not kept */
	bool			 mapdrop;	/* an element left out */
	int			 refused_orders;
	int			 refused_files;
	int			 reading;	/* the order being read, or -1 */
	int			*psorted;	/* problems, in the order */
	size_t			 nsorted;	/* arb_turn_problem() gives */
	void			*json;		/* a document being written */
	struct pool		 wpool;		/* where it is built */
	void			*reachmem;	/* the search's (rules.h) */
	int			 reach_ahead;	/* rules.h, reach_ahead() */
	bool			 one_thread;	/* arb_turn_threads(t, 1) */
	long			*route_used;	/* cells each player's "to"
						 * orders searched (turn.c) */
	void			*reachq;	/* --reach's (format.h) */
	bool			 wpooled;	/* it is (jv_pool()) */
	/* The map's "display" and "reveal_orders" (format/display.c). */
	bool			 has_display;
	int			*disp_x, *disp_y;	/* graph: by cell */
	const char		*disp_bg;	/* a background image, or NULL */
	const char		**disp_col;	/* by player: "#rrggbb", or
						 * NULL (display.colours) */
	struct arb_error	*svg_refused;	/* why the board cannot be
						 * drawn (located), or NULL */
	int			*lay_x, *lay_y;	/* graph: Graphviz's layout,
						 * made once a turn (svg.c) */
	int			 reveal_orders;	/* 0: not given, 1: true, 2: false */
	int			 trace_for;	/* 0, or 1 + the player whose
						 * view of the trace is written */
	FILE			*vmem;		/* a player's report: the */
	char			*vbuf;		/* result written to memory */
	char			*mailbuf;	/* a mail's part, being read */
	size_t			 vlen;
	const char		*svg_region;	/* the pictures' region (lent;
						 * NULL: as large boards are,
						 * arbiter(1) --svg-region) */
	FILE			*tmem;		/* the PNG's texts (png.c), */
	char			*tbuf;		/* written to memory */
	size_t			 tlen;
};

/* fairdice.c: fair dice over the turn (arbiter-rules(7), Dice): the
 * map's game and commitment checked against the umpire's key as the map
 * loads, where the dice come from, the rolls from outside, the next map's
 * commitment. */
void	 fair_loaded(struct arb_turn *, struct ld *, const struct jv *root);
void	 fair_begin(struct arb_turn *);
bool	 fair_seed_shown(const struct arb_turn *);
/* The commitment for the next turn (with the key, or as a replay was
 * given it), 64 hex digits; NULL when there is none to write. */
const char *fair_next_commitment(struct arb_turn *);
/* The turn's dice are the umpire's (the key, or a replay of its reveal). */
bool	 fair_umpires(const struct arb_turn *);
/* The next of the rolls from outside, checked against its die. */
int	 fair_next_roll(struct arb_turn *, int sides, const char *why);
/* After the run: too few rolls is bad data, saying how many it needed. */
void	 fair_end(struct arb_turn *);
/* Hex of 32 bytes (SHA-256), a string that lives with the turn. */
const char *fair_hexstr(struct arb_turn *, const unsigned char *);

/* model.c: services for the rule systems. */
struct utype	*type_find(struct arb_turn *, const char *);
struct utype	*type_add(struct arb_turn *, const char *, int, unsigned);
int	 unit_range(const struct arb_turn *, const struct unit *);
void	 unit_place(struct arb_turn *, int u, int cell);
/* Takes unit u off its cell's list, keeping its cell in at: unit_place()
 * with that cell puts it back where it was in the list. */
void	 unit_unlink(struct arb_turn *, int u);
void	 unit_leave_world(struct arb_turn *, int u);
void	 unit_lose(struct arb_turn *, int u, int amount, const char *cause,
	    int order);
struct loss *loss_add(struct arb_turn *, int player, int at, int amount,
	    const char *cause, int order);
void	 order_rule(struct arb_turn *, struct order *, enum ostatus,
	    enum reason, const char *rule, const char *, ...)
	    __attribute__((format(printf, 6, 7)));
void	 order_num(struct arb_turn *, struct order *, const char *, long);
void	 owner_set(struct arb_turn *, int cell, int player, const char *why,
	    int order);
void	 loyalty_set(struct arb_turn *, int cell, int value, const char *why,
	    int order);
void	 feature_destroy(struct arb_turn *, int cell, int feature, int order);
/* Is b a or a's ally by treaty?  Inline: the searches ask it often. */
static inline bool
players_allied(const struct arb_turn *t, int a, int b)
{
	return a == b || (t->players.v[a].treaties >> b & 1);
}
/* Does player a act before player b in the turn order? */
bool	 player_acts_before(const struct arb_turn *, int a, int b);
/*
 * Under --check, may unit u be moved away before player p's orders come,
 * by orders the check does not know (issue 28)?  True when no order of
 * the turn has moved u, and u's player acts before p and gave the check
 * no orders file: its units are taken to hold, but need not.
 */
bool	 unit_may_move_first(const struct arb_turn *, int u, int p);
/*
 * Rules order o legal, depends_on_orders (a check only): refusal r, by
 * rule, which msg words, would be made only if unit u (for which
 * unit_may_move_first() holds) is still where it stands.
 */
void	 order_depends(struct arb_turn *, struct order *, int u,
	    enum reason r, const char *rule, const char *msg);
const char *cell_name(struct arb_turn *, int cell);	/* lent */
const char *unit_list(struct arb_turn *, const int *, int);	/* ids */
/* How a message of player p's order names order oi: "order ID", or,
 * where the map hides the players' orders from each other
 * (reveal_orders false) and oi is another player's, "an order of
 * PLAYER", so that no player's report shows another's order ids. */
const char *order_ref(struct arb_turn *, int p, int oi);
/* io.c: what a name not known probably meant, or NULL: the nearest unit
 * id of player (-1: of anyone); the board's label form, or the nearest
 * territory name. */
const char *hint_unit(struct ld *, const char *typed, int player);
const char *hint_cell(struct ld *, const char *typed);

/* io.c: the model's values as JSON: reading a known cell, player or
 * unit (failing where ld points), writing cells, reals rounded to 0.001,
 * poses and points. */
int	 ld_cellv(struct ld *, const struct jv *v);	/* a known cell */
int	 ld_playerv(struct ld *, const struct jv *v);	/* a known player */
int	 ld_unitv(struct ld *, const struct jv *v);	/* a known unit */
void	 emit_add_cell(struct arb_turn *, struct jv *, int);
void	 emit_set_real(struct jv *, const char *, double);	/* rounded */
void	 emit_add_real(struct jv *, double);			/* rounded */
void	 emit_set_pose(struct jv *, const char *, const struct pose *);
void	 emit_set_point(struct jv *, const char *, struct pt);

/* The turn's memory, for short: these jump to the entry point that was
 * called when memory runs out, t_fail() (board.c) on any failure.  A failure about
 * data while a file is being read (t->ld) is located in that file. */
static inline void *
t_alloc(struct arb_turn *t, size_t n)
{
	return mem_alloc(&t->mem, n);
}
static inline char *
t_strdup(struct arb_turn *t, const char *s)
{
	return mem_strdup(&t->mem, s);
}
#define t_printf(t, ...)	mem_printf(&(t)->mem, __VA_ARGS__)
static inline char * __attribute__((format(printf, 2, 0)))
t_vprintf(struct arb_turn *t, const char *fmt, va_list ap)
{
	return mem_vprintf(&t->mem, fmt, ap);
}
static inline void
t_grow(struct arb_turn *t, void *vecp, size_t *cap, size_t need, size_t size)
{
	mem_grow(&t->mem, vecp, cap, need, size);
}
#define VPUSH(t, vec)	MPUSH(&(t)->mem, vec)
static inline void __attribute__((noreturn))
t_nomem(struct arb_turn *t)
{
	mem_nomem(&t->mem);
}
void	 t_fail(struct arb_turn *, enum arb_errcode, const char *, ...)
	    __attribute__((noreturn, format(printf, 3, 4)));

#endif /* ARBITER_MODEL_H */
