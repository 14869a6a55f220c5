/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the picture of a turn as SVG, drawn from
 * the model after the turn (the facts the result holds): the board in its
 * own conventions (hexes in columns labelled CCRR, a graph's territories
 * where the map's "display" puts them or where Graphviz lays them out,
 * the table's terrain pieces and bases), the units, each order's move as
 * an arrow coloured by its status, stops, losses, eliminations, attacks,
 * and a legend.  With SVG_START, the board as this turn begins (owners,
 * counters, units and strengths before any order or upkeep); with
 * SVG_NEXT, the board as the next turn begins,
 * without arrows or marks.  For one player whose map hides the orders
 * (reveal_orders false), the other players' arrows are left out.
 *
 * Same turn, same bytes: every coordinate is an integer (the table's
 * reals are scaled and rounded once), and nothing is printed through
 * the locale's idea of a decimal point.  Every text is escaped for XML.
 */
#define _POSIX_C_SOURCE 200809L	/* fork, pipe, waitpid */
#include <sys/types.h>
#include <sys/wait.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <graphviz/gvc.h>

#include "format/format.h"
#include "json/doc.h"
/* After the model, whose reasons (R_OK) <unistd.h> would spell as its
 * access(2) modes. */
#include <unistd.h>

#define MARGIN	40
#define TOP	60		/* the title above the board */
#define HEXR	40		/* a hex's corner radius */
#define HEXH	35		/* half its height (40 * sqrt(3) / 2) */
#define HEXDX	60		/* from one column to the next */
#define NODER	30		/* a territory's circle */
#define TABLEK	40		/* pixels per step on the table */
#define LEGENDW	250
#define BADGEW	56		/* a unit's badge in a stack */
#define BADGEH	20
#define LOSSH	11		/* a loss's line under it */

/* The players' colours: Okabe and Ito's palette, told apart by the
 * colour-blind (yellow, hard to see on the board, last); a player named
 * after a colour is drawn in it (pnamed), the others take the palette's
 * colours in turn, skipping those taken. */
static const char *const pcolours[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#000000", "#f0e442"
};
#define NPCOL	(sizeof(pcolours) / sizeof(pcolours[0]))

static const char *const pnamed[][2] = {
	{ "red", "#cc0000" }, { "blue", "#0072b2" }, { "green", "#009e73" },
	{ "yellow", "#f0e442" }, { "orange", "#e69f00" },
	{ "purple", "#7b3294" }, { "violet", "#cc79a7" },
	{ "pink", "#ff99cc" }, { "black", "#000000" }, { "white", "#ffffff" },
	{ "ivory", "#fffff0" }, { "grey", "#808080" }, { "gray", "#808080" },
	{ "brown", "#8b4513" }, { "cyan", "#56b4e9" }, { "sky", "#56b4e9" },
	{ "vermilion", "#d55e00" }, { "vermillion", "#d55e00" },
	{ "gold", "#e69f00" }, { "silver", "#c0c0c0" }, { "crimson", "#dc143c" },
	{ "navy", "#000080" }, { "teal", "#008080" }, { "olive", "#808000" },
	{ "maroon", "#800000" }
};

static const char *const tcolours[] = {
	"#e8e4c9", "#a9cf8f", "#c9b18a", "#9fc5e8", "#d9c27a", "#b6d7a8",
	"#cccccc", "#b4a7d6", "#f4cccc", "#d5a6bd"
};
#define NTCOL	(sizeof(tcolours) / sizeof(tcolours[0]))

/* Terrain colours: by the usual names where the board uses one, else
 * from the palette by the terrain's number. */
static const char *const tnamed[][2] = {
	{ "plains", "#eae3c0" }, { "clear", "#eae3c0" },
	{ "open", "#eae3c0" }, { "grass", "#d4e6b5" },
	{ "forest", "#93c47d" }, { "woods", "#93c47d" },
	{ "hills", "#c9a66b" }, { "hill", "#c9a66b" },
	{ "mountain", "#a67c52" }, { "mountains", "#a67c52" },
	{ "desert", "#f1d98c" }, { "sand", "#f1d98c" },
	{ "lake", "#6fa8dc" }, { "sea", "#3d85c6" }, { "ocean", "#3d85c6" },
	{ "water", "#6fa8dc" }, { "river", "#6fa8dc" },
	{ "swamp", "#76a5af" }, { "marsh", "#76a5af" },
	{ "city", "#b7b7b7" }, { "town", "#cccccc" },
	{ "ruins", "#b4a7d6" }, { "rough", "#d5a6bd" }
};

/* Patterns over the colour, for the terrains that have one: trees,
 * ridges, marsh reeds, dunes and waves, as printed maps draw them. */
static const char *const tpatterns[][2] = {
	{ "forest", "trees" }, { "woods", "trees" },
	{ "hills", "ridges" }, { "hill", "ridges" },
	{ "mountain", "ridges" }, { "mountains", "ridges" },
	{ "swamp", "reeds" }, { "marsh", "reeds" },
	{ "desert", "dunes" }, { "sand", "dunes" },
	{ "lake", "waves" }, { "sea", "waves" }, { "ocean", "waves" },
	{ "water", "waves" }, { "river", "waves" }
};

static const char *
tpattern(const struct board *b, int k)
{
	size_t	 i;

	for (i = 0; k < b->nterrains && i < sizeof(tpatterns) /
	    sizeof(tpatterns[0]); i++)
		if (strcmp(b->terrains[k], tpatterns[i][0]) == 0)
			return tpatterns[i][1];
	return NULL;
}

static const char *
tcolour(const struct board *b, int k)
{
	size_t	 i;

	for (i = 0; k < b->nterrains && i < sizeof(tnamed) /
	    sizeof(tnamed[0]); i++)
		if (strcmp(b->terrains[k], tnamed[i][0]) == 0)
			return tnamed[i][1];
	return tcolours[(size_t)k % NTCOL];
}

/* An order's status as its line (a dash array) and its arrowhead: done
 * solid with a filled head, failed dashed with an open head, illegal
 * dotted with a cross, legal (a check) long dashes with a dot. */
static const char *const status_dash[] = {
	"", " stroke-dasharray=\"10 4\"", "", " stroke-dasharray=\"2 3\"",
	" stroke-dasharray=\"7 4\""
};
static const char *const status_word[] = {
	"pending", "legal", "done", "illegal", "failed"
};

/* What a picture drew, for its legend (pic.drawn): an arrow of each
 * status (1 << status), and the marks. */
#define D_REST		0x0100
#define D_LOSS		0x0200
#define D_ELIM		0x0400
#define D_ATTACK	0x0800
#define D_INVADED	0x1000
#define D_FIGHT		0x2000
#define D_TOOL		0x4000
#define D_GHOST		0x8000
#define D_SIDE		0x10000
#define D_CONN		0x20000
#define D_STOP		0x40000
#define D_DISPLACED	0x80000
#define D_CHARGE	0x100000
#define D_TAG		0x200000
#define D_BREAKAWAY	0x400000
#define D_HOP		0x800000

#define NOMARKS	(SVG_NEXT | SVG_START)	/* a board, without what happened */

/*
 * An event told in a line of a stack (events()): under a unit's badge
 * (unit >= 0: a charge's outcome, morale lost, a breakaway's attacker)
 * or in a cell's stack (unit -1: who was attacked there, an invasion's
 * outcome).  Its box is drawn in the colour of the player whose order
 * it was, its line by kind (dash); a loss of morale red as a loss.
 */
struct tag {
	int		 unit, cell;
	const char	*col;		/* the box's stroke */
	const char	*dash;		/* its dash array, or "" */
	bool		 loss;		/* red on white, as a loss */
	bool		 done;		/* drawn */
	int		 order;		/* whose losses follow it, or -1 */
	char		 s[64];
};

/* A charge's ring, where its target stood as it was charged. */
struct ring {
	int		 cell;
	const char	*col;
};

struct pic {
	struct arb_turn	*t;
	FILE		*fp;
	int		 flags, player;
	int		*x, *y;		/* cell centres */
	int		 w, h;		/* the board's part */
	int		*nstack;	/* rows drawn so far in a cell */
	int		*nrows;		/* rows of a cell's stack */
	bool		*compact;	/* its badges one line each */
	const char	**pcol;		/* the players' colours */
	const char	*pattern;	/* a swatch's, or NULL */
	bool		 halo;		/* texts over arrows: a white halo */
	bool		 allhalo;	/* this one whatever it meets */
	unsigned	 drawn;		/* what the legend lists: D_ bits */
	int		*sl;		/* hexside labels placed: boxes */
	size_t		 nsl;
	int		*uend;		/* by unit: where its arrows left it */
	bool		 displaced;	/* arrow(): a displacement's */
	int		*mk;		/* the arrows' and fights' boxes */
	size_t		 nmk, mkcap;	/* (mkcap 0: a halo on every label) */
	FILE		*tfp;		/* the PNG's: its plain texts */
	bool		*in;		/* the region's cells (NULL: all) */
	int		 rx0, ry0, rx1, ry1;	/* its box, in the picture */
	bool		 cut;		/* an arrow left the region */
	char		 note[200];	/* which region is drawn */
	int		 dx, dy;	/* where it moved the board to */
	struct tag	*tags;		/* events told in a stack's line */
	size_t		 ntags;
	struct ring	*rings;		/* charges: where the target stood */
	size_t		 nrings;
	int		*tline;		/* a table unit's lines so far */
	int		*halfw;		/* half a cell's stack's width */
	int		*nbadges;	/* a cell's badges */
	const char	*hook;		/* SVG_HOOKS: the next text's data-
					 * attribute, or NULL */
	const char	*hookv;		/* and its value */
	bool		*owned;		/* SVG_HOOKS: cells owned at some time
					 * of the turn, or NULL */
};

/* Whether cell c is drawn: in the picture's region. */
static bool
drawn_cell(const struct pic *pc, int c)
{
	return c >= 0 && (pc->in == NULL || pc->in[c]);
}

/* Text for XML: the five specials escaped, control characters (not
 * allowed in XML 1.0) as "?". */
static void
esc(FILE *fp, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		case 0xef:
			/* U+FFFE and U+FFFF (EF BF BE, EF BF BF) are valid
			 * in JSON but not in XML. */
			if (p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)) {
				fputc('?', fp);
				p += 2;
			} else
				fputc(*p, fp);
			break;
		default:
			fputc(*p < ' ' || *p == 127 ? '?' : *p, fp);
		}
	}
}

/* A box an arrow or a fight is drawn in (the labels drawn after it that
 * meet one get a halo). */
static void
mark_box(struct pic *pc, double x0, double y0, double x1, double y1,
    double pad)
{
	if (pc->nmk >= pc->mkcap)
		return;
	pc->mk[4 * pc->nmk] = (int)floor(fmin(x0, x1) - pad);
	pc->mk[4 * pc->nmk + 1] = (int)floor(fmin(y0, y1) - pad);
	pc->mk[4 * pc->nmk + 2] = (int)ceil(fmax(x0, x1) + pad);
	pc->mk[4 * pc->nmk + 3] = (int)ceil(fmax(y0, y1) + pad);
	pc->nmk++;
}

/*
 * Whether a text of n bytes at (x, y) needs a halo: it is drawn over the
 * arrows (pc->halo) and its box, reckoned wide (0.64 of its size a byte),
 * meets an arrow's or a fight's.  The halo costs the PNG its time, so
 * only the labels an arrow crosses have one; a picture whose marks were
 * not all boxed (mkcap 0) gives every label one.
 */
static bool
haloed(const struct pic *pc, int x, int y, int size, const char *anchor,
    size_t n, int maxw)
{
	int	 w = (int)(n * (size_t)size * 64 / 100) + 4, x0, x1;
	size_t	 i;

	if (!pc->halo)
		return false;
	if (pc->mkcap == 0 || pc->nmk >= pc->mkcap || pc->allhalo)
		return true;
	if (maxw > 0 && w > maxw + 4)
		w = maxw + 4;
	x0 = strcmp(anchor, "start") == 0 ? x - 2 : x - w / 2;
	x1 = x0 + w;
	for (i = 0; i < pc->nmk; i++)
		if (x0 < pc->mk[4 * i + 2] && pc->mk[4 * i] < x1 &&
		    y - size - 2 < pc->mk[4 * i + 3] &&
		    pc->mk[4 * i + 1] < y + size / 3 + 2)
			return true;
	return false;
}

/*
 * For the PNG (pc->tfp, t->tmem), a text of printable ASCII is not put in
 * the SVG but listed for png.c to draw with cairo after librsvg has drawn
 * the rest: librsvg fills each text's glyphs as paths, two thirds of the
 * picture's time, where cairo draws them from its cache of glyphs.  One a
 * line: "X Y SIZE ANCHOR FILL HALO WIDTH", a tab and the text (ANCHOR s
 * or m, HALO 0 or 1, WIDTH the textLength it is squeezed to, or 0).  A
 * text over nothing else, as the legibility check makes every text, looks
 * the same drawn last.  Other texts (UTF-8) go to librsvg, whose fonts
 * fall back as a browser's do.
 */
static bool
text_png(struct pic *pc, int x, int y, int size, const char *anchor,
    const char *fill, const char *s, bool halo, int maxw)
{
	const unsigned char *p;

	if (pc->tfp == NULL)
		return false;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < ' ' || *p > '~')
			return false;
	fprintf(pc->tfp, "%d %d %d %c %s %d %d\t%s\n", x, y, size,
	    strcmp(anchor, "start") == 0 ? 's' : 'm', fill, halo ? 1 : 0,
	    maxw, s);
	return true;
}

/* The end of a text's start tag: with SVG_HOOKS, the attribute a page's
 * script finds it by (pc->hook, set for this one text), then ">". */
static void
hook(struct pic *pc)
{
	if (pc->hook != NULL && (pc->flags & SVG_HOOKS)) {
		fprintf(pc->fp, " %s=\"", pc->hook);
		esc(pc->fp, pc->hookv);
		fputc('"', pc->fp);
	}
	pc->hook = NULL;
	fputc('>', pc->fp);
}

static void
text(struct pic *pc, int x, int y, int size, const char *anchor,
    const char *fill, const char *s)
{
	if (text_png(pc, x, y, size, anchor, fill, s, haloed(pc, x, y, size,
	    anchor, strlen(s), 0), 0)) {
		pc->hook = NULL;
		return;
	}
	fprintf(pc->fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "text-anchor=\"%s\" fill=\"%s\"%s", x, y, size, anchor, fill,
	    haloed(pc, x, y, size, anchor, strlen(s), 0) ?
	    " stroke=\"#ffffff\" stroke-width=\"3\" "
	    "stroke-linejoin=\"round\" paint-order=\"stroke\"" : "");
	hook(pc);
	esc(pc->fp, s);
	fputs("</text>\n", pc->fp);
}

/*
 * A text in a box maxw pixels wide: a text longer than the box would be
 * (about 0.56 of the font size a character, bytes counted) is drawn
 * squeezed to its width, so that a long unit id or type stays inside its
 * badge.
 */
static void
text_fit(struct pic *pc, int x, int y, int size, const char *fill,
    const char *s, int maxw)
{
	if (strlen(s) * (size_t)size * 56 <= (size_t)maxw * 100) {
		text(pc, x, y, size, "middle", fill, s);
		return;
	}
	if (text_png(pc, x, y, size, "middle", fill, s, haloed(pc, x, y,
	    size, "middle", strlen(s), maxw), maxw)) {
		pc->hook = NULL;
		return;
	}
	fprintf(pc->fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "text-anchor=\"middle\" fill=\"%s\" textLength=\"%d\" "
	    "lengthAdjust=\"spacingAndGlyphs\"%s", x, y, size, fill, maxw,
	    haloed(pc, x, y, size, "middle", strlen(s), maxw) ?
	    " stroke=\"#ffffff\" stroke-width=\"3\" "
	    "stroke-linejoin=\"round\" paint-order=\"stroke\"" : "");
	hook(pc);
	esc(pc->fp, s);
	fputs("</text>\n", pc->fp);
}

static const char *
pcolour(const struct pic *pc, int p)
{
	return p < 0 ? "#ffffff" : pc->pcol[p];
}

/* The brightness of "#rrggbb", 0 to 255 (ITU-R BT.601 weights). */
static int
brightness(const char *c)
{
	unsigned long	 v = strtoul(c + 1, NULL, 16);

	return (int)((299 * (v >> 16 & 255) + 587 * (v >> 8 & 255) +
	    114 * (v & 255)) / 1000);
}

/* Cell c's owner as the picture shows it: at the start, or now. */
static int
owner(const struct pic *pc, int c)
{
	const struct board *b = &pc->t->board;

	return (pc->flags & SVG_START) && b->owner0 != NULL ? b->owner0[c] :
	    b->cells[c].owner;
}

/* Each player's colour: the map's (display.colours), else the one named
 * by its name, else the palette's next not taken (after the palette,
 * again from its start). */
static void
player_colours(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	size_t		 i, k, next = 0;
	bool		 taken[NPCOL];

	pc->pcol = t_alloc(t, (t->players.n + 1) * sizeof(char *));
	memset(taken, 0, sizeof(taken));
	for (i = 0; i < t->players.n; i++) {
		pc->pcol[i] = NULL;
		/* The map's own (display.colours) first. */
		if (t->disp_col != NULL && t->disp_col[i] != NULL) {
			pc->pcol[i] = t->disp_col[i];
			continue;
		}
		for (k = 0; k < sizeof(pnamed) / sizeof(pnamed[0]); k++)
			if (strcasecmp(t->players.v[i].name, pnamed[k][0]) ==
			    0)
				pc->pcol[i] = pnamed[k][1];
		for (k = 0; pc->pcol[i] != NULL && k < NPCOL; k++)
			if (strcmp(pc->pcol[i], pcolours[k]) == 0)
				taken[k] = true;
	}
	for (i = 0; i < t->players.n; i++) {
		if (pc->pcol[i] != NULL)
			continue;
		for (k = 0; k < NPCOL && taken[next % NPCOL]; k++)
			next++;
		pc->pcol[i] = pcolours[next % NPCOL];
		taken[next % NPCOL] = true;
		if (k == NPCOL)		/* all taken: again */
			memset(taken, 0, sizeof(taken));
		next++;
	}
}

/* A real on the table to pixels, rounded once. */
static int
px(double v)
{
	return (int)lround(v * TABLEK);
}

/* A table's y (north) to the picture's (down). */
static int
ty(const struct pic *pc, double y)
{
	return TOP + px(pc->t->board.th) - px(y);
}

/*
 * Graphviz's neato lays out a graph without display.positions, with a
 * fixed seed (start=1): the same graph gives the same positions.  Nodes
 * are named by index, so no territory name reaches Graphviz's parser.
 *
 * The layout runs in a child process: Graphviz ends the process (exit, or
 * a null pointer followed) when its memory runs out, and keeps global
 * state.  The child writes the positions to a pipe, two ints a territory,
 * and ends; the parent reads them, and a child that died, or wrote fewer,
 * ran out of memory (ARB_ENOMEM: exit 70, and the caller removes what it
 * had begun to write).  Only a process of one thread forks: in one of
 * several (an embedder's turns in threads), a child could find a lock
 * another thread held at the fork held for ever (ThreadSanitizer's
 * allocator did, in make check's threads suite), so the layout runs in
 * the process, one graph at a time.  The layout is made once a turn and
 * kept for every picture of it (--svg, --svg-next, every player's under --for
 * all); the map bounds its territories (display.c, picture_bound()).
 */
static GVC_t	*kept_gvc;	/* under layout_lock */

static int
layout_run(const struct board *b, const int *rows, int *xy, bool keep)
{
	GVC_t		*gvc = NULL;
	Agraph_t	*g = NULL;
	Agnode_t	**nodes;
	char		 name[32];
	int		 i, k, minx, maxy, rc = -1;
	boxf		 bb;

	/* A process of several threads lays out in itself, one graph at a
	 * time, with one context for its life: each gvContext() reads the
	 * plugins' configuration into memory that gvFreeContext() never
	 * gives back (3.6 KB a layout, Graphviz 2.42 to 7; LeakSanitizer
	 * found it when the fuzzer's own thread made the process one of
	 * several). */
	if (keep) {
		if (kept_gvc == NULL)
			kept_gvc = gvContext();
		gvc = kept_gvc;
	} else
		gvc = gvContext();
	if ((nodes = calloc((size_t)b->ncells + 1, sizeof(*nodes))) == NULL ||
	    gvc == NULL || (g = agopen("g", Agundirected, NULL)) == NULL)
		goto out;
	/* Compact: each territory a box as wide as its widest line and
	 * as tall as its circle and the stack under it (twice: the room
	 * above it is the stack's of the one above), overlaps removed by
	 * VPSC, which moves the boxes apart no farther than they must
	 * (neato's overlap=false scaled the whole layout up instead:
	 * pages mostly empty). */
	agattr(g, AGRAPH, "start", "1");
	agattr(g, AGRAPH, "overlap", "vpsc");
	agattr(g, AGRAPH, "sep", "+4");
	agattr(g, AGNODE, "shape", "box");
	agattr(g, AGNODE, "label", "");	/* no text to measure */
	agattr(g, AGNODE, "fixedsize", "true");
	agattr(g, AGNODE, "width", "1.4");	/* 100 points */
	agattr(g, AGNODE, "height", "1.2");
	agattr(g, AGEDGE, "len", "1.2");
	for (i = 0; i < b->ncells; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		if ((nodes[i] = agnode(g, name, 1)) == NULL)
			goto out;
		/* In inches: 72 points each. */
		snprintf(name, sizeof(name), "%d.%02d", (2 * (NODER + 6 +
		    rows[i] * (LOSSH + 1))) / 72, (2 * (NODER + 6 +
		    rows[i] * (LOSSH + 1))) % 72 * 100 / 72);
		agsafeset(nodes[i], "height", name, "1.2");
	}
	for (i = 0; i < b->ncells; i++)
		for (k = b->adj_at[i]; k < b->adj_at[i + 1]; k++)
			if (b->adj[k] > i && agedge(g, nodes[i],
			    nodes[b->adj[k]], NULL, 1) == NULL)
				goto out;
	if (gvLayout(gvc, g, "neato") != 0)
		goto out;
	bb = GD_bb(g);
	minx = (int)lround(bb.LL.x);
	maxy = (int)lround(bb.UR.y);
	for (i = 0; i < b->ncells; i++) {
		xy[2 * i] = (int)lround(ND_coord(nodes[i]).x) - minx;
		xy[2 * i + 1] = maxy - (int)lround(ND_coord(nodes[i]).y);
	}
	gvFreeLayout(gvc, g);
	rc = 0;
out:
	if (g != NULL)
		agclose(g);
	if (gvc != NULL && !keep)
		gvFreeContext(gvc);
	free(nodes);
	return rc;
}

/* The child: the layout, written to fd; never returns. */
static void __attribute__((noreturn))
layout_child(const struct board *b, const int *rows, int *xy, int fd)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	size_t		 j, need = 2 * sizeof(int) * (size_t)b->ncells;

	/* The parent's handlers remove its temporary files: not here. */
	for (j = 0; j < sizeof(fatal) / sizeof(fatal[0]); j++)
		signal(fatal[j], SIG_DFL);
	if (layout_run(b, rows, xy, false) != 0)
		_exit(1);
	for (j = 0; j < need;) {
		ssize_t	 w = write(fd, (char *)xy + j, need - j);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		j += (size_t)w;
	}
	_exit(0);	/* nothing of the parent's is flushed or freed */
}

/*
 * Whether the process runs one thread (Linux: /proc/self/task).  A child
 * forked while other threads run may find a lock one of them held (in
 * the C library's or a sanitizer's allocator) held for ever: such a
 * process lays its graphs out in itself, one at a time, instead.
 */
static pthread_mutex_t	 layout_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
one_thread(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	if ((d = opendir("/proc/self/task")) == NULL)
		return true;	/* not known: the child, as before */
	while ((de = readdir(d)) != NULL && n < 2)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n == 1;
}

/*
 * A graph's layout by Graphviz, once a turn (t->lay_x, t->lay_y): every
 * picture of the turn draws its territories at the same places.  Made
 * before a picture's memory is marked (emit_svg()), so that it outlives
 * the picture.
 */
static void
layout_cache(struct arb_turn *t)
{
	const struct board *b = &t->board;
	size_t		 need = 2 * sizeof(int) * (size_t)b->ncells, got = 0, k;
	int		*xy, *rows, fd[2], st, i;
	ssize_t		 r;
	pid_t		 pid;

	if (t->lay_x == NULL) {
		/* The most lines a territory's stack may hold in any of the
		 * turn's pictures: its units, the losses there and against
		 * it (an invasion's line), the features destroyed there. */
		rows = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		memset(rows, 0, (size_t)b->ncells * sizeof(int));
		for (k = 0; k < t->units.n; k++) {
			if (t->units.v[k].at >= 0)
				rows[t->units.v[k].at] += 2;
			if (t->units.v[k].from >= 0 &&
			    t->units.v[k].from != t->units.v[k].at)
				rows[t->units.v[k].from] += 2;
		}
		for (k = 0; k < t->losses.n; k++) {
			if (t->losses.v[k].at >= 0)
				rows[t->losses.v[k].at]++;
			if (t->losses.v[k].target >= 0)
				rows[t->losses.v[k].target]++;
		}
		for (k = 0; k < t->destroyed.n; k++)
			if (t->destroyed.v[k].cell >= 0)
				rows[t->destroyed.v[k].cell]++;
		for (k = 0; k < t->gains.n; k++)
			if (t->gains.v[k].at >= 0)
				rows[t->gains.v[k].at]++;
		for (i = 0; i < b->ncells; i++)
			if (rows[i] > 40)
				rows[i] = 40;
		xy = t_alloc(t, need + 1);
		if (!one_thread()) {
			pthread_mutex_lock(&layout_lock);
			i = layout_run(b, rows, xy, true);
			pthread_mutex_unlock(&layout_lock);
			if (i != 0)
				mem_fail(&t->mem, ARB_ENOMEM, "out of memory: "
				    "the layout of the graph (Graphviz) failed");
			goto laid;
		}
		/* Graphviz may exit() the child, which flushes the streams
		 * it inherited: let them hold nothing to write twice. */
		fflush(NULL);
		if (pipe(fd) != 0)
			t_nomem(t);
		if ((pid = fork()) < 0) {
			close(fd[0]);
			close(fd[1]);
			t_nomem(t);
		}
		if (pid == 0) {
			close(fd[0]);
			layout_child(b, rows, xy, fd[1]);
		}
		close(fd[1]);
		while (got < need) {
			r = read(fd[0], (char *)xy + got, need - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		close(fd[0]);
		/* A caller that ignores SIGCHLD has its children reaped for
		 * it (ECHILD): then the positions, whole, are the answer. */
		st = 0;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (got < need || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			mem_fail(&t->mem, ARB_ENOMEM, "out of memory: the "
			    "layout of the graph (Graphviz) failed");
laid:
		t->lay_x = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		t->lay_y = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		for (i = 0; i < b->ncells; i++) {
			t->lay_x[i] = xy[2 * i];
			t->lay_y[i] = xy[2 * i + 1];
		}
	}
}

static void
graph_layout(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;

	layout_cache(t);
	memcpy(pc->x, t->lay_x, (size_t)b->ncells * sizeof(int));
	memcpy(pc->y, t->lay_y, (size_t)b->ncells * sizeof(int));
}

/* Where each cell is drawn, and the size of the board's part. */
static void
place(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	int		 c, n = b->ncells > 0 ? b->ncells : 1;

	pc->x = t_alloc(t, (size_t)n * sizeof(int));
	pc->y = t_alloc(t, (size_t)n * sizeof(int));
	pc->nstack = t_alloc(t, (size_t)n * sizeof(int));
	memset(pc->nstack, 0, (size_t)n * sizeof(int));
	pc->w = pc->h = 0;
	if (b->kind == BOARD_HEX) {
		for (c = 0; c < b->ncells; c++) {
			struct hexpos	 p = board_pos(b, c);

			pc->x[c] = MARGIN + HEXR + HEXDX * (p.x - 1);
			pc->y[c] = TOP + HEXH + HEXH * p.y;
		}
		pc->w = 2 * MARGIN + 2 * HEXR + HEXDX * (b->cols - 1);
		pc->h = TOP + MARGIN + HEXH * (2 * b->rows + 1);
	} else if (b->kind == BOARD_GRAPH) {
		if (t->disp_x != NULL)
			for (c = 0; c < b->ncells; c++) {
				pc->x[c] = t->disp_x[c];
				pc->y[c] = t->disp_y[c];
			}
		else
			graph_layout(pc);
		for (c = 0; c < b->ncells; c++) {
			pc->x[c] += MARGIN + NODER;
			pc->y[c] += TOP + NODER;
			if (pc->x[c] + NODER + MARGIN > pc->w)
				pc->w = pc->x[c] + NODER + MARGIN;
			if (pc->y[c] + NODER + MARGIN > pc->h)
				pc->h = pc->y[c] + NODER + MARGIN;
		}
	} else {
		pc->w = 2 * MARGIN + px(b->tw);
		pc->h = TOP + MARGIN + px(b->th);
	}
	if (pc->w < 300)
		pc->w = 300;
	if (pc->h < 200)
		pc->h = 200;
}

static void
hex_points(struct pic *pc, int c, int inset)
{
	int	 x = pc->x[c], y = pc->y[c], r = HEXR - inset;
	int	 hh = HEXH - inset, hr = r / 2;

	fprintf(pc->fp, "%d,%d %d,%d %d,%d %d,%d %d,%d %d,%d", x - hr,
	    y - hh, x + hr, y - hh, x + r, y, x + hr, y + hh, x - hr,
	    y + hh, x - r, y);
}

/* The corners of a hex, clockwise from the top left; side d (clockwise
 * from north) runs from corner d to corner d + 1. */
static void
hex_corner(struct pic *pc, int c, int k, int *x, int *y)
{
	static const int dx[6] = { -HEXR / 2, HEXR / 2, HEXR, HEXR / 2,
		-HEXR / 2, -HEXR };
	static const int dy[6] = { -HEXH, -HEXH, 0, HEXH, HEXH, 0 };

	*x = pc->x[c] + dx[k % 6];
	*y = pc->y[c] + dy[k % 6];
}

/* A cell's features, in full, squeezed to maxw where they are longer. */
static void
features_text(struct pic *pc, int c, int x, int y, int maxw)
{
	const struct board *b = &pc->t->board;
	char		 buf[256];
	size_t		 n = 0;
	int		 f;

	uint32_t	 has = (pc->flags & SVG_START) && b->features0 != NULL ?
	    b->features0[c] : b->cells[c].features;

	buf[0] = '\0';
	for (f = 0; f < b->nfeatures; f++)
		if (has >> f & 1 && n + 8 < sizeof(buf)) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%.40s",
			    n > 0 ? " " : "", b->features[f]);
			if (n >= sizeof(buf))
				n = sizeof(buf) - 1;
		}
	utf8_mend(buf);		/* a name cut in a character */
	if (n > 0) {
		pc->hook = "data-features";
		pc->hookv = cell_name(pc->t, c);
		text_fit(pc, x, y, 8, "#000000", buf, maxw);
	}
}

/*
 * A character's width in twentieths of the font's size, near DejaVu
 * Sans's: the narrow ones (i, l, t, f, r, j, the space and most
 * punctuation) 7, the wide (m, w, M, W, @) 18, the other capitals 14,
 * the other letters and digits 12; from its first byte, beyond ASCII 13,
 * and 20 from U+3000 (CJK, full width).
 */
static int
char_w(unsigned char c)
{
	if (c >= 0xe3)
		return 20;
	if (c >= 0x80)
		return 13;
	if (strchr("iltfrjI .,:;'!|-()[]/", c) != NULL)
		return 7;
	if (strchr("mwMW@", c) != NULL)
		return 18;
	return c >= 'A' && c <= 'Z' ? 14 : 12;
}

/*
 * Where a name of size-pixel letters is cut to fit maxw pixels with an
 * ellipsis (16): the bytes kept, at least one character, or 0 when it
 * fits whole.
 */
static size_t
name_cut(const char *s, int size, int maxw)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t	 i, keep = 0;
	int	 w = 0, lim = maxw * 20 / size;

	for (i = 0; p[i] != '\0'; i++) {
		if ((p[i] & 0xc0) == 0x80)
			continue;
		w += char_w(p[i]);
		if (w + 16 <= lim)
			keep = i + 1;
	}
	if (w <= lim)
		return 0;
	/* The whole of the last character kept, and at least one. */
	if (keep == 0)
		keep = 1;
	while (p[keep] != '\0' && (p[keep] & 0xc0) == 0x80)
		keep++;
	return keep;
}

/* A text's width in pixels as name_cut() reckons it. */
static int
text_w(const char *s, int size)
{
	const unsigned char *p = (const unsigned char *)s;
	int	 w = 0;

	for (; *p != '\0'; p++)
		if ((*p & 0xc0) != 0x80)
			w += char_w(*p);
	return (w * size + 19) / 20;
}

/* s (of n bytes' room) cut to fit maxw pixels, with an ellipsis. */
static void
cut_to(char *s, size_t n, int size, int maxw)
{
	size_t	 k = name_cut(s, size, maxw);

	if (k > 0 && k + 4 <= n)
		memcpy(s + k, "\xe2\x80\xa6", 4);	/* U+2026 and the NUL */
}

static int	 stack_top(const struct pic *, int);

/* A tag's width: as wide as its text (0.56 of 8 pixels a byte), up to a
 * hex's width or a little more than a territory's, for a PNG's renderer
 * does not squeeze a text to its box. */
static int
line_width(const struct pic *pc, const char *s)
{
	int	 maxw, w;

	maxw = pc->t->board.kind == BOARD_HEX ? 2 * HEXR + 8 :
	    2 * NODER + 40;
	w = text_w(s, 8) + 6;
	return w < BADGEW ? BADGEW : w > maxw ? maxw : w;
}

static int
tag_width(const struct pic *pc, const struct tag *g)
{
	return line_width(pc, g->s);
}

/* A loss's line: "-N" and its cause. */
static void
loss_text(const struct loss *l, char *buf, size_t n)
{
	snprintf(buf, n, "-%d %.40s", l->strength, l->cause != NULL ?
	    l->cause : "");
	utf8_mend(buf);
}

/* Whether box (x0, y0)-(x1, y1) meets what is drawn in cell c: its
 * label, its stack, its features. */
static bool
cell_meets(struct pic *pc, int c, int x0, int y0, int x1, int y1)
{
	int	 x = pc->x[c], y = pc->y[c], top = stack_top(pc, c);

	if (x0 < x + 14 && x - 14 < x1 && y0 < y - 17 && y - 28 < y1)
		return true;
	if (pc->nrows[c] > 0 && x0 < x + pc->halfw[c] + 2 &&
	    x - pc->halfw[c] - 13 < x1 && y0 < top + pc->nrows[c] + 2 &&
	    top - 2 < y1)
		return true;
	return pc->t->board.cells[c].features != 0 && x0 < x + 28 &&
	    x - 28 < x1 && y0 < y + 33 && y + 22 < y1;
}

/*
 * A hexside's name, 8 pixels, where it meets nothing drawn near it (the
 * labels, stacks and features of the cells around the side, the names
 * of sides placed before): tried at the side's middle, then along the
 * side and across it, nearest first.  Its width is reckoned at 0.64 of
 * its size a character (DejaVu Sans is narrower).
 */
static void
side_label(struct pic *pc, int a, int c, int x0, int y0, int x1, int y1,
    const char *name)
{
	const struct board *b = &pc->t->board;
	static const int off[][2] = { { 0, 0 }, { 0, 9 }, { 0, -9 },
		{ 10, 0 }, { -10, 0 }, { 10, 9 }, { -10, 9 }, { 10, -9 },
		{ -10, -9 }, { 0, 18 }, { 0, -18 }, { 20, 0 }, { -20, 0 },
		{ 20, 9 }, { -20, 9 }, { 20, -9 }, { -20, -9 }, { 0, 27 },
		{ 0, -27 }, { 10, 18 }, { -10, 18 }, { 10, -18 }, { -10, -18 },
		{ 20, 18 }, { -20, 18 }, { 20, -18 }, { -20, -18 }, { 30, 0 },
		{ -30, 0 }, { 30, 9 }, { -30, 9 }, { 30, -9 }, { -30, -9 },
		{ 0, 36 }, { 0, -36 }, { 30, 18 }, { -30, 18 }, { 30, -18 },
		{ -30, -18 }, { 40, 0 }, { -40, 0 }, { 10, 27 }, { -10, 27 },
		{ 10, -27 }, { -10, -27 } };
	int		 near[14], nn = 0, k, j, w, mx, my, bx0, by0, bx1, by1;
	double		 ux, uy, len;
	size_t		 i;
	bool		 hit = true;

	w = (int)(strlen(name) * 8 * 64 / 100) / 2 + 2;
	near[nn++] = a;
	near[nn++] = c;
	nn += board_neighbors(b, a, near + nn);
	nn += board_neighbors(b, c, near + nn);
	ux = x1 - x0;
	uy = y1 - y0;
	len = hypot(ux, uy);
	ux /= len;
	uy /= len;
	for (k = 0; k < (int)(sizeof(off) / sizeof(off[0])) && hit; k++) {
		mx = (int)lround((x0 + x1) / 2.0 + off[k][0] * ux -
		    off[k][1] * uy);
		my = (int)lround((y0 + y1) / 2.0 + off[k][0] * uy +
		    off[k][1] * ux);
		bx0 = mx - w;
		bx1 = mx + w;
		by0 = my - 5;
		by1 = my + 4;
		hit = false;
		for (j = 0; j < nn && !hit; j++)
			if (near[j] >= 0)
				hit = cell_meets(pc, near[j], bx0, by0, bx1,
				    by1);
		for (i = 0; i < pc->nsl && !hit; i++)
			hit = bx0 < pc->sl[4 * i + 2] &&
			    pc->sl[4 * i] < bx1 && by0 < pc->sl[4 * i + 3] &&
			    pc->sl[4 * i + 1] < by1;
	}
	if (hit) {
		mx = (x0 + x1) / 2;
		my = (y0 + y1) / 2;
	}
	pc->sl[4 * pc->nsl] = mx - w;
	pc->sl[4 * pc->nsl + 1] = my - 6;
	pc->sl[4 * pc->nsl + 2] = mx + w;
	pc->sl[4 * pc->nsl + 3] = my + 5;
	pc->nsl++;
	text(pc, mx, my + 3, 8, "middle", "#073763", name);
}

/* SVG_HOOKS: which cells have an owner at the start, at the end or on
 * the way (pc->owned). */
static void
owned_cells(struct pic *pc)
{
	const struct arb_turn *t = pc->t;
	const struct board *b = &t->board;
	size_t		 i;
	int		 c;

	pc->owned = t_alloc(pc->t, ((size_t)b->ncells + 1) *
	    sizeof(*pc->owned));
	for (c = 0; c < b->ncells; c++)
		pc->owned[c] = b->cells[c].owner >= 0 || (b->owner0 != NULL &&
		    b->owner0[c] >= 0);
	for (i = 0; i < t->ownership.n; i++)
		if (t->ownership.v[i].cell >= 0 &&
		    t->ownership.v[i].cell < b->ncells)
			pc->owned[t->ownership.v[i].cell] = true;
}

/*
 * The hexes: with labels false their shapes and hexside lines, drawn
 * first; with labels true their labels, features and hexside names,
 * drawn over the arrows with a halo.  The features of one hexside are
 * named one under the other.
 */
static void
draw_hexes(struct pic *pc, bool labels)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	char		 buf[32];
	size_t		 i;
	int		 c, k, x0, y0, x1, y1, a;

	for (c = 0; c < b->ncells; c++) {
		const struct cell *ce = &b->cells[c];

		if (!drawn_cell(pc, c))
			continue;
		if (labels) {
			/* Over a pattern, a label not crossed by an arrow
			 * (which would give it a halo) on a light plate. */
			board_label(b, c, buf);
			if (tpattern(b, ce->terrain) != NULL && !haloed(pc,
			    pc->x[c], pc->y[c] - 20, 8, "middle", strlen(buf),
			    0))
				fprintf(pc->fp, "<rect class=\"plate\" x=\"%d\" "
				    "y=\"%d\" width=\"%d\" height=\"10\" "
				    "fill=\"#ffffff\" fill-opacity=\"0.7\"/>\n",
				    pc->x[c] - (int)strlen(buf) * 3 - 2,
				    pc->y[c] - 27, (int)strlen(buf) * 6 + 4);
			text(pc, pc->x[c], pc->y[c] - 20, 8, "middle",
			    "#333333", buf);
			features_text(pc, c, pc->x[c], pc->y[c] + 30, 52);
			continue;
		}
		/* data-cell: the cell's label, for a page's script and a
		 * test that clicks it (arbiter(1)). */
		board_label(b, c, buf);
		fprintf(pc->fp, "<polygon class=\"hex\" data-cell=\"");
		esc(pc->fp, buf);
		fprintf(pc->fp, "\" points=\"");
		hex_points(pc, c, 0);
		fprintf(pc->fp, "\" fill=\"%s\" stroke=\"#777777\" "
		    "stroke-width=\"1\"/>\n",
		    tcolour(b, ce->terrain));
		if (tpattern(b, ce->terrain) != NULL) {
			fprintf(pc->fp, "<polygon class=\"pattern\" "
			    "points=\"");
			hex_points(pc, c, 0);
			fprintf(pc->fp, "\" fill=\"url(#pat-%s)\"/>\n",
			    tpattern(b, ce->terrain));
		}
		/* With SVG_HOOKS, an outline too for a cell that is
		 * owned during the turn only (none drawn yet), which a
		 * page's script colours. */
		if (owner(pc, c) >= 0 || (pc->owned != NULL &&
		    pc->owned[c])) {
			fprintf(pc->fp, "<polygon class=\"owner\" ");
			if (pc->flags & SVG_HOOKS) {
				fprintf(pc->fp, "data-owner-of=\"");
				esc(pc->fp, buf);
				fprintf(pc->fp, "\" ");
			}
			fprintf(pc->fp, "points=\"");
			hex_points(pc, c, 3);
			fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"3\" stroke-opacity=\"0.7\"/>\n",
			    owner(pc, c) >= 0 ? pcolour(pc, owner(pc, c)) :
			    "none");
		}
	}
	if (labels && b->sides.n > 0) {
		pc->sl = t_alloc(t, b->sides.n * 4 * sizeof(int));
		pc->nsl = 0;
	}
	for (i = 0; i < b->sides.n; i++) {
		const struct hexside *s = &b->sides.v[i];

		if (!drawn_cell(pc, s->a) && !drawn_cell(pc, s->b))
			continue;
		/* Named from the lower cell of the two, so that a side's
		 * features count up in one place. */
		a = s->a < s->b ? s->a : s->b;
		if ((k = board_dir(b, a, a == s->a ? s->b : s->a)) < 0)
			continue;
		hex_corner(pc, a, k, &x0, &y0);
		hex_corner(pc, a, k + 1, &x1, &y1);
		if (!labels) {
			pc->drawn |= D_SIDE;
			fprintf(pc->fp, "<line class=\"hexside\" x1=\"%d\" "
			    "y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#3d85c6\" "
			    "stroke-width=\"4\"/>\n", x0, y0, x1, y1);
			continue;
		}
		side_label(pc, a, a == s->a ? s->b : s->a, x0, y0, x1, y1,
		    b->sidefeats.v[s->feature]);
	}
}

/* A territory's name in its circle: whole, or cut with an ellipsis
 * (its circle's title has it whole). */
static void
name_fit(struct pic *pc, int x, int y, const char *name, int maxw)
{
	char	 buf[128];
	size_t	 k = name_cut(name, 10, maxw);

	if (k == 0 || k + 4 > sizeof(buf)) {
		text_fit(pc, x, y, 10, "#000000", name, maxw);
		return;
	}
	memcpy(buf, name, k);
	memcpy(buf + k, "\xe2\x80\xa6", 4);	/* U+2026 and the NUL */
	text(pc, x, y, 10, "middle", "#000000", buf);
}

/* A graph's edges (pass 0), its territories' circles (1), their names,
 * counters and features (2). */
static void
draw_graph(struct pic *pc, int pass)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	const struct ufield *cx = t->rs->cell_x;
	char		 buf[64];
	int		 c, k;

	for (c = 0; c < b->ncells && pass == 0; c++)
		for (k = b->adj_at[c]; k < b->adj_at[c + 1]; k++)
			if (b->adj[k] > c && drawn_cell(pc, c) &&
			    drawn_cell(pc, b->adj[k]))
				fprintf(pc->fp, "<line class=\"edge\" x1=\"%d\" "
				    "y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999999\" "
				    "stroke-width=\"2\"/>\n", pc->x[c], pc->y[c],
				    pc->x[b->adj[k]], pc->y[b->adj[k]]);
	for (c = 0; c < b->ncells && pass > 0; c++) {
		const struct cell *ce = &b->cells[c];

		if (!drawn_cell(pc, c))
			continue;
		if (pass == 1) {
			fprintf(pc->fp, "<circle class=\"territory\" "
			    "data-cell=\"");
			esc(pc->fp, b->names[c]);
			fprintf(pc->fp, "\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" "
			    "stroke=\"%s\" stroke-width=\"%d\"", pc->x[c],
			    pc->y[c], NODER, tcolour(b, ce->terrain),
			    owner(pc, c) >= 0 ? pcolour(pc, owner(pc, c)) :
			    "#777777", owner(pc, c) >= 0 ? 4 : 1);
			/* A name cut short in its circle: whole in its
			 * title, which a browser shows over it. */
			if (name_cut(b->names[c], 10, 2 * NODER - 8) > 0) {
				fputs("><title>", pc->fp);
				esc(pc->fp, b->names[c]);
				fputs("</title></circle>\n", pc->fp);
			} else
				fputs("/>\n", pc->fp);
			continue;
		}
		name_fit(pc, pc->x[c], pc->y[c] - 8, b->names[c],
		    2 * NODER - 8);
		if (cx != NULL && cx[0].name != NULL && b->cx[0] != NULL) {
			snprintf(buf, sizeof(buf), "%s %d", cx[0].name,
			    (pc->flags & SVG_START) ? b->cx0[0][c] :
			    b->cx[0][c]);
			pc->hook = "data-count";
			pc->hookv = b->names[c];
			text_fit(pc, pc->x[c], pc->y[c] + 5, 9, "#000000",
			    buf, 2 * NODER - 4);
		}
		features_text(pc, c, pc->x[c], pc->y[c] + 18, 2 * NODER - 12);
	}
}

static void
draw_table(struct pic *pc, bool labels)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	size_t		 i;
	int		 k;

	if (!labels)
		fprintf(pc->fp, "<rect class=\"table\" x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#e8e4c9\" stroke=\"#777777\"/>\n",
	    MARGIN, TOP, px(b->tw), px(b->th));
	for (i = 0; i < b->pieces.n; i++) {
		const struct piece *p = &b->pieces.v[i];
		long		 sx = 0, sy = 0;

		if (!labels) {
			fprintf(pc->fp, "<polygon class=\"piece\" "
			    "points=\"");
			for (k = 0; k < p->n; k++)
				fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "",
				    MARGIN + px(p->p[k].x), ty(pc, p->p[k].y));
			fprintf(pc->fp, "\" fill=\"#a9cf8f\" "
			    "stroke=\"#38761d\" stroke-width=\"2\"/>\n");
			continue;
		}
		for (k = 0; k < p->n; k++) {
			sx += MARGIN + px(p->p[k].x);
			sy += ty(pc, p->p[k].y);
		}
		if (p->n > 0)
			text(pc, (int)(sx / p->n), (int)(sy / p->n), 9,
			    "middle", "#274e13", p->id);
	}
}

/* A base on the table: its corners as the rule system lays them
 * (ruleset footprint), and a tick from its centre to the middle of its
 * front edge. */
static void
table_base(struct pic *pc, const struct unit *u, const struct pose *ps,
    const char *fill, const char *extra)
{
	struct arb_turn	*t = pc->t;
	double		 hd = 0.5;
	struct pt	 f = pt_bearing(ps->facing), r = pt_cw(f);
	struct pt	 c = pt_make(ps->x, ps->y), q[4];
	int		 k;

	/* The rule system's own footprint of the base, else a square. */
	if (t->rs->footprint != NULL)
		t->rs->footprint(t, (int)(u - t->units.v), ps, q);
	else {
		q[0] = pt_add(c, pt_add(pt_mul(r, -0.5), pt_mul(f, -hd)));
		q[1] = pt_add(c, pt_add(pt_mul(r, 0.5), pt_mul(f, -hd)));
		q[2] = pt_add(c, pt_add(pt_mul(r, 0.5), pt_mul(f, hd)));
		q[3] = pt_add(c, pt_add(pt_mul(r, -0.5), pt_mul(f, hd)));
	}
	fprintf(pc->fp, "<polygon class=\"base\" points=\"");
	for (k = 0; k < 4; k++)
		fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "",
		    MARGIN + px(q[k].x), ty(pc, q[k].y));
	fprintf(pc->fp, "\" fill=\"%s\" stroke=\"#000000\" "
	    "stroke-width=\"1\"%s/>\n", fill, extra);
	/* The middle notch of each side. */
	for (k = 0; k < 4; k++)
		fprintf(pc->fp, "<circle class=\"notch\" cx=\"%d\" cy=\"%d\" "
		    "r=\"2\" fill=\"#000000\"/>\n", MARGIN + px((q[k].x +
		    q[(k + 1) % 4].x) / 2), ty(pc, (q[k].y + q[(k + 1) % 4].y) /
		    2));
	fprintf(pc->fp, "<line class=\"facing\" x1=\"%d\" y1=\"%d\" "
	    "x2=\"%d\" y2=\"%d\" stroke=\"#000000\" stroke-width=\"3\"/>\n",
	    MARGIN + px(ps->x), ty(pc, ps->y),
	    MARGIN + px((q[2].x + q[3].x) / 2), ty(pc, (q[2].y + q[3].y) /
	    2));
}

/* Where a unit is drawn: its cell's centre (stacked), or its pose. */
static void
unit_spot(struct pic *pc, const struct unit *u, bool start, int *x,
    int *y)
{
	const struct board *b = &pc->t->board;
	int		 c = start ? u->from : u->at;

	if (b->kind == BOARD_TABLE) {
		const struct pose *ps = start ? &u->pose0 : &u->pose;

		*x = MARGIN + px(ps->x);
		*y = ty(pc, ps->y);
		return;
	}
	if (c < 0)
		c = u->from;
	if (c < 0) {
		*x = *y = -1;
		return;
	}
	*x = pc->x[c];
	*y = pc->y[c];
}

/*
 * A stack: the units in a hex or territory, one under another, each a
 * badge of two lines (its id; its type and strength) in its player's
 * colour, each loss of the turn a line under its unit's badge, red on
 * white ("-N" and its cause).  In a hex the stack begins under the
 * hex's label; under a territory's circle, below it.  stack_top() is
 * where a cell's stack begins; pc->nrows[c] its height in pixels
 * (stack_measure(), before anything is drawn, so that arrows end where
 * the stack begins), pc->nstack[c] how much of it is drawn.
 */

static double	 base_r(struct pic *, const struct unit *);
static void	 unit_spot(struct pic *, const struct unit *, bool, int *,
		    int *);

static int
stack_top(const struct pic *pc, int c)
{
	/* A hex with no badge, only lines (who was attacked there): they
	 * begin under its middle, clear of an arrow ending there. */
	if (pc->t->board.kind == BOARD_HEX && pc->nbadges != NULL &&
	    pc->nbadges[c] == 0)
		return pc->y[c] + 4;
	return pc->t->board.kind == BOARD_HEX ? pc->y[c] - 16 :
	    pc->y[c] + NODER + 4;
}

/* The cell a unit's badge is drawn in, or -1. */
static int
unit_cell(const struct pic *pc, const struct unit *u)
{
	if (pc->t->board.kind == BOARD_TABLE ||
	    ((u->gone || u->left) && (pc->flags & SVG_NEXT)))
		return -1;
	if (pc->flags & SVG_START)
		return u->from >= 0 ? u->from : u->at;
	return u->at >= 0 ? u->at : u->from;
}

/* The cell of a loss's line, or -1. */
static int
loss_cell(const struct pic *pc, const struct loss *l)
{
	if (pc->t->board.kind == BOARD_TABLE || (pc->flags & NOMARKS))
		return -1;
	if (l->unit >= 0)
		return unit_cell(pc, &pc->t->units.v[l->unit]);
	return l->at;
}

static bool	 shown(const struct pic *, const struct order *);

/* The order whose path unit u stopped short of (it ended in a cell of
 * the path before its end), or NULL. */
static const struct order *
stopped_short(const struct pic *pc, const struct unit *u)
{
	struct arb_turn	*t = pc->t;
	const struct order *o;
	int		 j;

	if ((pc->flags & NOMARKS) || u->by < 0 || u->at < 0 ||
	    t->board.kind == BOARD_TABLE)
		return NULL;
	o = &t->orders.v[u->by];
	if (o->refused || !shown(pc, o) || o->ncells < 2 ||
	    t->rs->order_kinds[o->kind].arg != OK_PATH || o->nunits < 1 ||
	    &t->units.v[o->units[0]] != u || u->at == o->cells[o->ncells - 1])
		return NULL;
	for (j = o->ncells - 2; j > 0; j--)
		if (o->cells[j] == u->at)
			return o;
	return NULL;
}

static void
stack_measure(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	size_t		 i;
	int		 c, n = t->board.ncells > 0 ? t->board.ncells : 1;

	pc->nrows = t_alloc(t, (size_t)n * sizeof(int));
	memset(pc->nrows, 0, (size_t)n * sizeof(int));
	pc->nbadges = t_alloc(t, (size_t)n * sizeof(int));
	memset(pc->nbadges, 0, (size_t)n * sizeof(int));
	for (i = 0; i < t->units.n; i++)
		if ((c = unit_cell(pc, &t->units.v[i])) >= 0) {
			pc->nbadges[c]++;
			pc->nrows[c] += BADGEH + 1;
			if (stopped_short(pc, &t->units.v[i]) != NULL)
				pc->nrows[c] += LOSSH + 1;
		}
	pc->halfw = t_alloc(t, (size_t)n * sizeof(int));
	for (c = 0; c < n; c++)
		pc->halfw[c] = BADGEW / 2;
	for (i = 0; i < t->losses.n; i++)
		if ((c = loss_cell(pc, &t->losses.v[i])) >= 0) {
			char	 lb[64];

			pc->nrows[c] += LOSSH + 1;
			loss_text(&t->losses.v[i], lb, sizeof(lb));
			if (line_width(pc, lb) / 2 > pc->halfw[c])
				pc->halfw[c] = line_width(pc, lb) / 2;
		}
	for (i = 0; i < pc->ntags; i++)
		if ((c = pc->tags[i].unit >= 0 ? unit_cell(pc,
		    &t->units.v[pc->tags[i].unit]) : pc->tags[i].cell) >= 0) {
			pc->nrows[c] += LOSSH + 1;
			if (tag_width(pc, &pc->tags[i]) / 2 > pc->halfw[c])
				pc->halfw[c] = tag_width(pc, &pc->tags[i]) / 2;
		}
	/* A stack that would reach the next hex's label: its badges one
	 * line each (id, type and strength). */
	pc->compact = t_alloc(t, (size_t)n * sizeof(bool));
	memset(pc->compact, 0, (size_t)n * sizeof(bool));
	if (t->board.kind != BOARD_HEX)
		return;
	for (i = 0; i < t->units.n; i++)
		if ((c = unit_cell(pc, &t->units.v[i])) >= 0 &&
		    (pc->compact[c] || pc->nrows[c] >
		    (t->board.cells[c].features != 0 ? 36 : 2 * HEXH - 12))) {
			pc->compact[c] = true;
			pc->nrows[c] -= BADGEH - LOSSH;
		}
}

/* Whether a box on the table holds no unit's base. */
static bool
table_free(struct pic *pc, int x0, int y0, int x1, int y1)
{
	struct arb_turn	*t = pc->t;
	size_t		 i;
	int		 x, y, r;

	for (i = 0; i < t->units.n; i++) {
		unit_spot(pc, &t->units.v[i], false, &x, &y);
		r = (int)base_r(pc, &t->units.v[i]) - 2;
		if (x - r < x1 && x0 < x + r && y - r < y1 && y0 < y + r)
			return false;
	}
	return true;
}

/*
 * Where the next line of a stack goes (x its middle, y its top): in cell
 * c's stack, or on a table beside unit u's base (under it, else above
 * it, else left or right of it: where no base is), its n-th line there.
 * False when it has no place.
 */
static bool
line_spot(struct pic *pc, int c, int u, int *x, int *y)
{
	if (c >= 0) {
		if (!drawn_cell(pc, c))		/* outside the region */
			return false;
		*x = pc->x[c];
		*y = stack_top(pc, c) + pc->nstack[c];
		pc->nstack[c] += LOSSH + 1;
		return true;
	}
	if (pc->t->board.kind == BOARD_TABLE && u >= 0 &&
	    !(pc->flags & NOMARKS)) {
		int	 r, n = pc->tline[u]++, ux, uy, d;
		static const int cand[4][2] = { { 0, 1 }, { 0, -1 },
			{ -1, 0 }, { 1, 0 } };

		unit_spot(pc, &pc->t->units.v[u], false, &ux, &uy);
		r = (int)base_r(pc, &pc->t->units.v[u]);
		for (d = 0; d < 4; d++) {
			*x = ux + cand[d][0] * (r + BADGEW / 2);
			*y = uy + cand[d][1] * (r + (cand[d][1] < 0 ? LOSSH :
			    0)) + cand[d][1] * n * (LOSSH + 1) -
			    (cand[d][1] == 0 ? LOSSH / 2 : 0);
			if (table_free(pc, *x - BADGEW / 2, *y, *x + BADGEW / 2,
			    *y + LOSSH))
				return true;
		}
		*x = ux;
		*y = uy + r + n * (LOSSH + 1);
		return true;
	}
	return false;
}

/* As cell_meets(), but a cell's stack as wide as it is drawn: the
 * margin for an eliminated unit's cross (left of its badge) only where
 * one is. */
static bool
near_meets(struct pic *pc, int c, int x0, int y0, int x1, int y1)
{
	const struct arb_turn *t = pc->t;
	int		 x = pc->x[c], y = pc->y[c], top = stack_top(pc, c);
	int		 left = 2;
	size_t		 i;

	for (i = 0; i < t->units.n; i++)
		if ((t->units.v[i].gone || t->units.v[i].left) &&
		    !(pc->flags & (SVG_NEXT | SVG_START)) &&
		    unit_cell(pc, &t->units.v[i]) == c)
			left = 13;
	if (x0 < x + 14 && x - 14 < x1 && y0 < y - 17 && y - 28 < y1)
		return true;
	if (pc->nrows[c] > 0 && x0 < x + pc->halfw[c] + 2 &&
	    x - pc->halfw[c] - left < x1 && y0 < top + pc->nrows[c] + 2 &&
	    top - 2 < y1)
		return true;
	return t->board.cells[c].features != 0 && x0 < x + 28 &&
	    x - 28 < x1 && y0 < y + 33 && y + 22 < y1;
}

/*
 * A line wider than a badge, at (x, y) in hex c's stack, that would reach
 * into a neighbouring hex's stack, label or features: moved aside by the
 * least that clears them (up to half of what it is wider than a badge),
 * else made as narrow as it must be, down to a badge's width.  Returns
 * whether its words still go in whole (squeezed by a fifth at most);
 * else they are cut, whole in the line's title.
 */
static bool
line_clear(struct pic *pc, int c, int *x, int y, int *w)
{
	const struct board *b = &pc->t->board;
	int		 near[8], nn, k, j, dx, x0, tw, full = *w;
	bool		 hit = true;

	if (c < 0 || b->kind != BOARD_HEX || *w <= BADGEW)
		return true;
	nn = board_neighbors(b, c, near);
	for (tw = full; tw >= BADGEW && hit; tw -= 2)
		for (k = 0; k <= (tw - BADGEW) / 2 && hit; k++)
			for (dx = -k; dx <= k && hit; dx += k > 0 ? 2 * k : 1) {
				x0 = *x + dx - tw / 2;
				hit = false;
				for (j = 0; j < nn && !hit; j++)
					if (near[j] >= 0 &&
					    drawn_cell(pc, near[j]))
						hit = near_meets(pc, near[j],
						    x0, y, x0 + tw, y + LOSSH);
				if (!hit) {
					*x += dx;
					*w = tw;
				}
			}
	if (hit)
		*w = BADGEW;
	return *w * 5 >= full * 4;
}

/* The line of loss li, at the next place of its cell's stack. */
static void
draw_loss(struct pic *pc, size_t li)
{
	const struct loss *l = &pc->t->losses.v[li];
	char		 buf[64], full[64];
	int		 c, x, y, w;

	c = loss_cell(pc, l);
	if (c >= 0 && !drawn_cell(pc, c))
		return;
	if (!line_spot(pc, c, l->unit, &x, &y))
		return;
	pc->drawn |= D_LOSS;
	loss_text(l, full, sizeof(full));
	/* As wide as its words, up to a hex's width; cut beyond, whole
	 * in its title (a PNG's renderer does not squeeze a text). */
	w = line_width(pc, full);
	memcpy(buf, full, sizeof(buf));
	if (!line_clear(pc, c, &x, y, &w) || w == line_width(pc, full))
		cut_to(buf, sizeof(buf), 8, w - 4);
	fprintf(pc->fp, "<g class=\"loss\"><rect x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"#cc0000\" "
	    "stroke-width=\"1\"/>\n", x - w / 2, y, w, LOSSH);
	if (strcmp(buf, full) != 0) {
		fputs("<title>", pc->fp);
		esc(pc->fp, full);
		fputs("</title>", pc->fp);
	}
	text_fit(pc, x, y + 8, 8, "#cc0000", buf, w - 4);
	fputs("</g>\n", pc->fp);
}

/* The line of tag k (struct tag), at the next place of its stack. */
static void
draw_tag(struct pic *pc, size_t k)
{
	const struct tag *g = &pc->tags[k];
	int		 x, y, w = tag_width(pc, g), c;
	char		 buf[sizeof(g->s)];
	bool		 whole;

	c = g->unit >= 0 ? unit_cell(pc, &pc->t->units.v[g->unit]) : g->cell;
	if (!line_spot(pc, c, g->unit, &x, &y))
		return;
	whole = line_clear(pc, c, &x, y, &w) && w < tag_width(pc, g);
	pc->drawn |= g->loss ? D_LOSS : D_TAG;
	fprintf(pc->fp, "<g class=\"%s\"><rect x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"%s\" "
	    "stroke-width=\"%s\"%s%s%s/>\n", g->loss ? "loss" : "tag",
	    x - w / 2, y, w, LOSSH, g->loss ? "#cc0000" : g->col,
	    g->loss ? "1" : "1.5", *g->dash != '\0' ?
	    " stroke-dasharray=\"" : "", g->dash, *g->dash != '\0' ? "\"" : "");
	/* Cut where it is longer than its box (a PNG's renderer does
	 * not squeeze it), whole in its title. */
	memcpy(buf, g->s, sizeof(buf));
	if (!whole)
		cut_to(buf, sizeof(buf), 8, w - 4);
	if (strcmp(buf, g->s) != 0) {
		fputs("<title>", pc->fp);
		esc(pc->fp, g->s);
		fputs("</title>", pc->fp);
	}
	text_fit(pc, x, y + 8, 8, g->loss ? "#cc0000" : "#000000", buf,
	    w - 4);
	fputs("</g>\n", pc->fp);
}

/* The tags of unit u (u -1: those of the cells) not drawn yet; with
 * order >= 0, only those the losses of that order follow. */
static void
draw_tags(struct pic *pc, int u, int order)
{
	size_t	 k;

	for (k = 0; k < pc->ntags; k++)
		if (pc->tags[k].unit == u && !pc->tags[k].done &&
		    (order < 0 || pc->tags[k].order == order)) {
			pc->tags[k].done = true;
			draw_tag(pc, k);
		}
}

/*
 * Where a unit stopped short of its path, a line under its badge: a
 * black bar and "stop:" with the cause, the order's reason (a zone of
 * control, stuck in a marsh, out of movement points).
 */
static void
draw_stop(struct pic *pc, int c, const struct order *o)
{
	char		 buf[64], *p;
	int		 x = pc->x[c], y = stack_top(pc, c) + pc->nstack[c];

	pc->nstack[c] += LOSSH + 1;
	pc->drawn |= D_STOP;
	snprintf(buf, sizeof(buf), "stop: %s", o->reason == R_ZOC_STOP ?
	    "zone of control" : o->reason == R_OK ? "ordered" :
	    reason_name(o->reason));
	for (p = buf; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	fprintf(pc->fp, "<g class=\"stopped\"><rect x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"#000000\" "
	    "stroke-width=\"1\" stroke-dasharray=\"2 1\"/>\n", x - BADGEW / 2,
	    y, BADGEW, LOSSH);
	text_fit(pc, x, y + 8, 8, "#000000", buf, BADGEW - 4);
	fputs("</g>\n", pc->fp);
}

static void
draw_unit(struct pic *pc, int ui)
{
	struct arb_turn	*t = pc->t;
	const struct unit *u = &t->units.v[ui];
	const struct board *b = &t->board;
	const char	*ink;
	char		 buf[64];
	size_t		 i;
	int		 x, y, c, h;
	const struct order *o;
	bool		 gone = u->gone || u->left;
	bool		 start = (pc->flags & SVG_START) != 0;
	int		 strength = start ? u->strength0 : u->strength;

	if (gone && (pc->flags & SVG_NEXT))
		return;
	if (start)
		gone = false;
	unit_spot(pc, u, start, &x, &y);
	if (x < 0 || (b->kind != BOARD_TABLE && !drawn_cell(pc,
	    unit_cell(pc, u))))
		return;
	ink = brightness(pcolour(pc, u->player)) > 140 ? "#000000" :
	    "#ffffff";
	fprintf(pc->fp, "<g class=\"unit%s\" data-unit=\"",
	    gone ? " eliminated" : "");
	esc(pc->fp, u->id);
	fprintf(pc->fp, "\">\n");
	if (gone) {
		pc->drawn |= D_ELIM;
		ink = "#000000";	/* on its faded badge */
	}
	if (b->kind == BOARD_TABLE) {
		table_base(pc, u, start ? &u->pose0 : &u->pose,
		    pcolour(pc, u->player), gone ?
		    " fill-opacity=\"0.3\"" : "");
		text_fit(pc, x, y - 3, 8, ink, u->id, 36);
		snprintf(buf, sizeof(buf), "%.24s %d",
		    t->types.v[u->type].name, strength);
		utf8_mend(buf);
		text_fit(pc, x, y + 7, 8, ink, buf, 36);
		if (gone)
			fprintf(pc->fp, "<path class=\"eliminated\" "
			    "d=\"M%d %dL%d %dM%d %dL%d %d\" stroke=\"#cc0000\" "
			    "stroke-width=\"3\"/>\n", x - 20, y - 20, x - 12,
			    y - 12, x - 12, y - 20, x - 20, y - 12);
		fputs("</g>\n", pc->fp);
		for (i = 0; i < t->losses.n; i++)
			if (t->losses.v[i].unit == ui) {
				if (t->losses.v[i].order >= 0)
					draw_tags(pc, ui, t->losses.v[i].order);
				draw_loss(pc, i);
			}
		draw_tags(pc, ui, -1);
		return;
	}
	c = unit_cell(pc, u);
	y = stack_top(pc, c) + pc->nstack[c];
	h = pc->compact[c] ? LOSSH : BADGEH;
	pc->nstack[c] += h + 1;
	fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "rx=\"2\" fill=\"%s\" stroke=\"#000000\" stroke-width=\"1\"%s/>\n",
	    x - BADGEW / 2, y, BADGEW, h, pcolour(pc, u->player), gone ?
	    " fill-opacity=\"0.25\" stroke-dasharray=\"3 2\"" : "");
	if (pc->compact[c]) {
		snprintf(buf, sizeof(buf), "%.20s %.20s %d", u->id,
		    t->types.v[u->type].name, strength);
		utf8_mend(buf);
		text_fit(pc, x, y + 8, 8, ink, buf, BADGEW - 4);
	} else {
		text_fit(pc, x, y + 8, 8, ink, u->id, BADGEW - 4);
		snprintf(buf, sizeof(buf), "%.24s %d",
		    t->types.v[u->type].name, strength);
		utf8_mend(buf);
		text_fit(pc, x, y + 17, 8, ink, buf, BADGEW - 4);
	}
	/* Eliminated: a cross left of its badge. */
	if (gone)
		fprintf(pc->fp, "<path class=\"eliminated\" d=\"M%d %dL%d %d"
		    "M%d %dL%d %d\" stroke=\"#cc0000\" stroke-width=\"3\"/>\n",
		    x - BADGEW / 2 - 11, y + 1, x - BADGEW / 2 - 3, y + 9,
		    x - BADGEW / 2 - 3, y + 1, x - BADGEW / 2 - 11, y + 9);
	fputs("</g>\n", pc->fp);
	for (i = 0; i < t->losses.n; i++)
		if (t->losses.v[i].unit == ui) {
			if (t->losses.v[i].order >= 0)
				draw_tags(pc, ui, t->losses.v[i].order);
			draw_loss(pc, i);
		}
	draw_tags(pc, ui, -1);
	if ((o = stopped_short(pc, u)) != NULL)
		draw_stop(pc, c, o);
}

/* Whether the picture shows order o (a player's view of a map that hides
 * the others' orders leaves theirs out). */
static bool
shown(const struct pic *pc, const struct order *o)
{
	return pc->player < 0 || o->player == pc->player ||
	    view_reveals(pc->t);
}

/* Whether loss l is an invader's, against the cell it invaded (not a
 * skirmish's or a loop's), shown in the picture. */
static bool
invasion_loss(const struct pic *pc, const struct loss *l)
{
	return l->target >= 0 && l->at >= 0 && l->target != l->at &&
	    l->order >= 0 && shown(pc, &pc->t->orders.v[l->order]) &&
	    (l->cause == NULL || (strcmp(l->cause, "skirmish") != 0 &&
	    strcmp(l->cause, "loop") != 0));
}

/*
 * What the rule system reports of an order (its report_order hook), as
 * the result has it: a table's maneuvers, with their poses and the
 * turning tool where a turn was made.  Held in t->json (malloc'ed) until
 * dropped.
 */
static double	 base_r(struct pic *, const struct unit *);
static void	 arrow(struct pic *, const char *, int, int, const int *,
		    const int *, int, int, double, bool);

static json_t *
order_report(struct arb_turn *t, const struct order *o)
{
	json_t	*r;

	if (t->rs->report_order == NULL)
		return NULL;
	jw_begin(&t->mem);
	t->wpooled = false;
	r = t->json = jw_ok(json_object());
	t->rs->report_order(t, o, (struct jv *)r);
	return r;
}

static double
realv(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : 0;
}

/* A table order's maneuvers: the way through the poses it reached, and
 * the turning tool's triangle where one was set down.  False when the
 * report has none. */
static bool
maneuvers(struct pic *pc, const struct order *o)
{
	struct arb_turn	*t = pc->t;
	json_t		*r = order_report(t, o), *ms, *m, *c, *tool;
	size_t		 i, k;
	int		 n = 0, *xs, *ys;

	ms = r != NULL ? json_object_get(r, "maneuvers") : NULL;
	for (i = 0; i < json_array_size(ms); i++) {
		m = json_array_get(ms, i);
		if ((tool = json_object_get(m, "tool")) == NULL ||
		    json_array_size(c = json_object_get(tool, "corners")) != 3)
			continue;
		pc->drawn |= D_TOOL;
		fprintf(pc->fp, "<polygon class=\"tool\" points=\"");
		for (k = 0; k < 3; k++) {
			json_t	*p = json_array_get(c, k);

			fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "", MARGIN +
			    px(realv(json_array_get(p, 0))), ty(pc,
			    realv(json_array_get(p, 1))));
		}
		fprintf(pc->fp, "\" fill=\"#cccccc\" fill-opacity=\"0.6\" "
		    "stroke=\"#555555\" stroke-dasharray=\"2 2\"/>\n");
	}
	xs = t_alloc(t, (json_array_size(ms) + 1) * sizeof(int));
	ys = t_alloc(t, (json_array_size(ms) + 1) * sizeof(int));
	for (i = 0; i < json_array_size(ms); i++) {
		m = json_array_get(ms, i);
		if (json_object_get(m, "to") == NULL ||
		    (i == 0 && json_object_get(m, "from") == NULL))
			break;
		if (i == 0) {
			c = json_object_get(m, "from");
			xs[n] = MARGIN + px(realv(json_object_get(c, "x")));
			ys[n++] = ty(pc, realv(json_object_get(c, "y")));
		}
		c = json_object_get(m, "to");
		xs[n] = MARGIN + px(realv(json_object_get(c, "x")));
		ys[n++] = ty(pc, realv(json_object_get(c, "y")));
	}
	if (n > 1)
		arrow(pc, "move", o->player, o->status, xs, ys, n, -1,
		    o->nunits > 0 ? base_r(pc, &t->units.v[o->units[0]]) : 0,
		    false);
	if (r != NULL)
		json_decref(r);
	t->json = NULL;
	return n > 0;
}

/* How far a table unit's base reaches from its centre, in pixels. */
static double
base_r(struct pic *pc, const struct unit *u)
{
	struct arb_turn	*t = pc->t;
	struct pt	 q[4];
	double		 r = 20;
	int		 k;

	if (t->rs->footprint == NULL)
		return 26;
	t->rs->footprint(t, (int)(u - t->units.v), &u->pose, q);
	for (k = 0; k < 4; k++)
		r = fmax(r, TABLEK * hypot(q[k].x - u->pose.x,
		    q[k].y - u->pose.y));
	return r + 4;
}

/* Whether (x, y) is within m pixels of the box of cell c's stack. */
static bool
in_stack(const struct pic *pc, int c, double x, double y, double m)
{
	double	 top;

	if (c < 0 || pc->nrows[c] <= 0)
		return false;
	top = stack_top(pc, c);
	return x >= pc->x[c] - pc->halfw[c] - m && x <= pc->x[c] +
	    pc->halfw[c] + m && y >= top - m && y <= top + pc->nrows[c] + m;
}

/* Whether an arrowhead whose tip is at (x, y), coming from (x0, y0),
 * lies under the stack of a neighbour of hex c (drawn after the
 * arrows): its tip, or the middle of its base, 8 pixels back. */
static bool
head_hidden(const struct pic *pc, int c, double x0, double y0, double x,
    double y)
{
	double	 len = hypot(x - x0, y - y0), bx, by;
	int	 nb[6], k, n;

	if (len < 1)
		return true;
	bx = x - 8 * (x - x0) / len;
	by = y - 8 * (y - y0) / len;
	n = board_neighbors(&pc->t->board, c, nb);
	for (k = 0; k < n; k++)
		if (in_stack(pc, nb[k], x, y, 2) ||
		    in_stack(pc, nb[k], bx, by, 2))
			return true;
	return false;
}

/*
 * An arrow's tip at (*x, *y), coming from (x0, y0) into hex c, where the
 * stack of c begins: two hexes side by side, each with its stack (a
 * badge and a loss's line), can leave the head no room but under the
 * neighbour's stack, drawn after it.  Then the tip goes to the nearest
 * side or upper corner of c's stack that leaves the head clear, the
 * last leg bending to it; where none does, it stays.
 */
static void
head_place(const struct pic *pc, int c, double x0, double y0, double *x,
    double *y)
{
	double	 cx[4], cy[4], top, best = -1, d, bx = *x, by = *y;
	int	 k;

	if (c < 0 || pc->t->board.kind != BOARD_HEX ||
	    !head_hidden(pc, c, x0, y0, *x, *y) || pc->nrows[c] <= 0)
		return;
	top = stack_top(pc, c);
	cx[0] = pc->x[c] - pc->halfw[c] - 5;		/* the sides */
	cx[1] = pc->x[c] + pc->halfw[c] + 5;
	cy[0] = cy[1] = top + fmin(12, pc->nrows[c] / 2.0);
	cx[2] = pc->x[c] - pc->halfw[c] - 3;		/* the corners */
	cx[3] = pc->x[c] + pc->halfw[c] + 3;
	cy[2] = cy[3] = top - 3;
	for (k = 0; k < 4; k++) {
		if (hypot(cx[k] - x0, cy[k] - y0) < 16 ||
		    head_hidden(pc, c, x0, y0, cx[k], cy[k]))
			continue;
		d = hypot(cx[k] - *x, cy[k] - *y);
		if (best < 0 || d < best) {
			best = d;
			bx = cx[k];
			by = cy[k];
		}
	}
	*x = bx;
	*y = by;
}

/*
 * An arrow through n points (xs, ys) in player's colour, its line and
 * head by status; faint, the rest of an ordered path not gone.  Each
 * leg is drawn 3, 7 or 11 pixels (by player) right of its way, so that
 * two orders along one edge, one each way or two players' one way, are
 * drawn apart.  The last leg ends where the
 * stack of its end cell (endc) begins, or at the edge of its territory,
 * so that the head covers no badge.
 */
static void
arrow(struct pic *pc, const char *cls, int player, int status,
    const int *xs, const int *ys, int n, int endc, double r, bool faint)
{
	double		 px0, py0, px1, py1, dx, dy, len, nx, ny, tt, t0, t1;
	double		 bx0, by0, bx1, by1, lx = 0, ly = 0;
	/* Right of its way: by player, so that two players' orders along
	 * one edge one way are drawn apart too. */
	double		 off = 3 + 4 * (player % 3);
	int		 k, k0, *cx, *cy;
	bool		 inside = false;

	/* In a region: an arrow none of whose points is in it is not
	 * drawn; one that leaves it is cut at its edge (the clip path,
	 * emit_svg()), which the legend says. */
	for (k = 0; k < n && pc->in != NULL; k++) {
		if (xs[k] >= pc->rx0 && xs[k] <= pc->rx1 &&
		    ys[k] >= pc->ry0 && ys[k] <= pc->ry1)
			inside = true;
		else if (!faint)
			pc->cut = true;
	}
	if (pc->in != NULL && !inside)
		return;
	/* Turns near the end, under the base or circle the arrow ends at,
	 * are left out: the way runs to the end from the last point
	 * outside. */
	if (r > 0 && n > 2) {
		cx = t_alloc(pc->t, (size_t)n * sizeof(int));
		cy = t_alloc(pc->t, (size_t)n * sizeof(int));
		memcpy(cx, xs, (size_t)n * sizeof(int));
		memcpy(cy, ys, (size_t)n * sizeof(int));
		while (n > 2 && hypot(cx[n - 1] - cx[n - 2], cy[n - 1] -
		    cy[n - 2]) < r + 16) {
			cx[n - 2] = cx[n - 1];
			cy[n - 2] = cy[n - 1];
			n--;
		}
		xs = cx;
		ys = cy;
	}
	if (n < 2)
		return;
	/* A table move shorter than its base: its ghost shows it. */
	if (r > 0 && hypot(xs[n - 1] - xs[n - 2], ys[n - 1] - ys[n - 2]) <
	    r + 16)
		return;
	fprintf(pc->fp, "<polyline class=\"%s %s\" points=\"", cls,
	    status_word[status]);
	for (k = 0; k < n; k++) {
		int	 j = k > 0 ? k - 1 : 0, j1 = k > 0 ? k : 1;

		dx = xs[j1] - xs[j];
		dy = ys[j1] - ys[j];
		len = hypot(dx, dy);
		nx = len > 0 ? -dy / len * off : 0;
		ny = len > 0 ? dx / len * off : 0;
		px1 = xs[k] + nx;
		py1 = ys[k] + ny;
		if (k == n - 1 && !faint) {
			px0 = xs[k - 1] + nx;
			py0 = ys[k - 1] + ny;
			dx = px1 - px0;
			dy = py1 - py0;
			tt = 1;
			/* r: a territory's circle, a base's corners. */
			if (r > 0 && len > r + 16)
				tt = 1 - r / len;
			if (endc >= 0 && pc->nrows[endc] > 0) {
				/* Where the way enters the stack's box. */
				/* A wide line (a tag) at the stack's top,
				 * met near its corner: room for the head's
				 * side too. */
				k0 = pc->halfw[endc] > BADGEW / 2 ? 8 : 3;
				bx0 = pc->x[endc] - pc->halfw[endc] - k0;
				bx1 = pc->x[endc] + pc->halfw[endc] + k0;
				by0 = stack_top(pc, endc) - 3;
				by1 = by0 + pc->nrows[endc] + 6;
				t0 = 0;
				t1 = 1;
				if (dx != 0) {
					double	 a = (bx0 - px0) / dx;
					double	 c = (bx1 - px0) / dx;

					t0 = fmax(t0, fmin(a, c));
					t1 = fmin(t1, fmax(a, c));
				}
				if (dy != 0) {
					double	 a = (by0 - py0) / dy;
					double	 c = (by1 - py0) / dy;

					t0 = fmax(t0, fmin(a, c));
					t1 = fmin(t1, fmax(a, c));
				}
				if (t0 <= t1 && t0 * hypot(dx, dy) > 16 &&
				    t0 < tt)
					tt = t0;
			}
			px1 = px0 + dx * tt;
			py1 = py0 + dy * tt;
			head_place(pc, endc, px0, py0, &px1, &py1);
		}
		fprintf(pc->fp, "%s%ld,%ld", k > 0 ? " " : "", lround(px1),
		    lround(py1));
		if (k > 0)
			mark_box(pc, lx, ly, px1, py1, k == n - 1 ? 10 : 4);
		lx = px1;
		ly = py1;
	}
	if (!pc->displaced)
		pc->drawn |= faint ? D_REST : 1u << status;
	if (faint)
		fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" stroke-opacity=\"0.45\" "
		    "stroke-dasharray=\"1 4\" stroke-linecap=\"round\"/>\n",
		    pcolour(pc, player));
	else
		fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"%d\"%s marker-end=\"url(#a%d-%s)\"/>\n",
		    pcolour(pc, player), pc->displaced ? 2 : 3, pc->displaced ?
		    " stroke-dasharray=\"3 3\"" : status_dash[status], player,
		    status_word[status]);
}

/*
 * The 4 points between (x0, y0) and (x1, y1) of an arc bulging left of
 * the way, a quarter of its length (15 to 40 pixels): a portal hop's
 * leg, told from a walk by its curve.
 */
static void
hop_arc(int x0, int y0, int x1, int y1, int *xs, int *ys)
{
	double	 dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy), h, cx, cy;
	double	 u;
	int	 k;

	h = fmin(40, fmax(15, len / 4));
	/* The control point: twice the bulge left of the middle. */
	cx = (x0 + x1) / 2.0 + (len > 0 ? dy / len : 0) * 2 * h;
	cy = (y0 + y1) / 2.0 - (len > 0 ? dx / len : 0) * 2 * h;
	for (k = 0; k < 4; k++) {
		u = (k + 1) / 5.0;
		xs[k] = (int)lround((1 - u) * (1 - u) * x0 + 2 * u * (1 - u) *
		    cx + u * u * x1);
		ys[k] = (int)lround((1 - u) * (1 - u) * y0 + 2 * u * (1 - u) *
		    cy + u * u * y1);
	}
}

/*
 * Each order's move as an arrow, in adjudication order, as far as its
 * (first) unit went; the rest of its ordered path faint.  An order aimed
 * at a cell (an attack, a bombardment) as a dotted arrow from where its
 * unit stood then.
 */
static void
draw_orders(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	int		*cursor, *xs, *ys, *nstart, *ex, *ey, *pos;
	size_t		 i;
	int		 k, x, y, x0, y0, j, n, m;
	int		 portal = b->kind == BOARD_HEX ?
			    board_feature_find(b, "portal") : -1;

	cursor = t_alloc(t, t->units.n * sizeof(int) + 1);
	pc->uend = t_alloc(t, t->units.n * sizeof(int) + 1);
	/* nstart[i]: where the next path order of order i's (first) unit
	 * begins, or -1: a pass from the end, cursor as the unit's. */
	nstart = t_alloc(t, t->sequence.n * sizeof(int) + 1);
	for (i = 0; i < t->units.n; i++)
		cursor[i] = -1;
	for (i = t->sequence.n; i-- > 0;) {
		const struct order *o = &t->orders.v[t->sequence.v[i]];

		nstart[i] = -1;
		if (o->refused || o->nunits < 1 || o->ncells < 2 ||
		    t->rs->order_kinds[o->kind].arg != OK_PATH)
			continue;
		nstart[i] = cursor[o->units[0]];
		cursor[o->units[0]] = o->cells[0];
	}
	for (i = 0; i < t->units.n; i++)
		cursor[i] = pc->uend[i] = t->units.v[i].from;
	for (i = 0; i < t->sequence.n; i++) {
		const struct order *o = &t->orders.v[t->sequence.v[i]];
		const struct okind *ok = &t->rs->order_kinds[o->kind];
		if (o->refused || !shown(pc, o))
			continue;
		if (b->kind == BOARD_TABLE) {
			bool	 drawn = maneuvers(pc, o);

			for (k = 0; k < o->nunits; k++) {
				const struct unit *u = &t->units.v[o->units[k]];
				int	 lx[2], ly[2];

				unit_spot(pc, u, true, &x0, &y0);
				unit_spot(pc, u, false, &x, &y);
				if (u->by != t->sequence.v[i] || (x == x0 &&
				    y == y0))
					continue;
				table_base(pc, u, &u->pose0, "none",
				    " stroke-dasharray=\"3 3\"");
				pc->drawn |= D_GHOST;
				if (drawn)
					continue;
				lx[0] = x0;
				ly[0] = y0;
				lx[1] = x;
				ly[1] = y;
				arrow(pc, "move", o->player, o->status, lx, ly,
				    2, -1, base_r(pc, u), false);
			}
			continue;
		}
		if (ok->arg == OK_PATH && o->ncells >= 2) {
			const struct unit *u = o->nunits > 0 ?
			    &t->units.v[o->units[0]] : NULL;

			n = o->ncells;
			xs = t_alloc(t, (size_t)n * sizeof(int));
			ys = t_alloc(t, (size_t)n * sizeof(int));
			for (k = 0; k < n; k++) {
				xs[k] = pc->x[o->cells[k]];
				ys[k] = pc->y[o->cells[k]];
			}
			/* How far its unit went: the path's cell it ended
			 * in (the last such), when this order moved it. */
			j = n - 1;
			if (u != NULL && u->by == t->sequence.v[i] &&
			    u->at >= 0 && u->at != o->cells[n - 1]) {
				for (j = n - 2; j > 0; j--)
					if (o->cells[j] == u->at)
						break;
				if (o->cells[j] != u->at)
					j = n - 1;
			} else if (u != NULL && u->by != t->sequence.v[i] &&
			    nstart[i] >= 0 && nstart[i] != o->cells[n - 1]) {
				/* A later order moved it last: this one left
				 * it where that one's path begins, when that
				 * is on this one's path. */
				for (j = n - 2; j > 0; j--)
					if (o->cells[j] == nstart[i])
						break;
				if (o->cells[j] != nstart[i])
					j = n - 1;
			}
			/* It did not leave the path's first cell: the whole
			 * path is its arrow, as ordered (its status says
			 * how it went). */
			if (j == 0)
				j = n - 1;
			/* A leg between two portals that do not touch (a
			 * hop): curved, 4 points on an arc. */
			pos = t_alloc(t, (size_t)n * sizeof(int));
			ex = t_alloc(t, (size_t)n * 5 * sizeof(int));
			ey = t_alloc(t, (size_t)n * 5 * sizeof(int));
			for (k = 0, m = 0; k < n; k++) {
				if (k > 0 && portal >= 0 &&
				    board_has(b, o->cells[k - 1], portal) &&
				    board_has(b, o->cells[k], portal) &&
				    board_dir(b, o->cells[k - 1], o->cells[k]) <
				    0) {
					hop_arc(xs[k - 1], ys[k - 1], xs[k],
					    ys[k], ex + m, ey + m);
					m += 4;
					if (k <= j)
						pc->drawn |= D_HOP;
				}
				pos[k] = m;
				ex[m] = xs[k];
				ey[m++] = ys[k];
			}
			if (j < n - 1) {
				fprintf(pc->fp, "<g class=\"stop\">\n");
				arrow(pc, "rest", o->player, o->status,
				    ex + pos[j], ey + pos[j], m - pos[j], -1, 0,
				    true);
				fputs("</g>\n", pc->fp);
			}
			if (j > 0)
				arrow(pc, "move", o->player, o->status, ex, ey,
				    pos[j] + 1, o->cells[j],
				    b->kind == BOARD_GRAPH ? NODER + 4 : 0, false);
			for (k = 0; k < o->nunits; k++) {
				const struct unit *v = &t->units.v[o->units[k]];
				int	 q;

				if (o->status == OS_DONE)
					cursor[o->units[k]] = v->at >= 0 ?
					    v->at : o->cells[n - 1];
				if (v->by != t->sequence.v[i])
					continue;
				/* Where its arrow left it. */
				pc->uend[o->units[k]] = o->cells[j];
				for (q = 0; q <= j; q++)
					if (o->cells[q] == v->at)
						pc->uend[o->units[k]] = v->at;
			}
		} else if (ok->arg == OK_CELL && o->ncells >= 1 &&
		    o->nunits >= 1 && cursor[o->units[0]] >= 0) {
			int	 lx[2], ly[2];

			lx[0] = pc->x[cursor[o->units[0]]];
			ly[0] = pc->y[cursor[o->units[0]]];
			lx[1] = pc->x[o->cells[0]];
			ly[1] = pc->y[o->cells[0]];
			if (lx[0] != lx[1] || ly[0] != ly[1])
				arrow(pc, "target", o->player, o->status, lx,
				    ly, 2, o->cells[0], b->kind == BOARD_GRAPH ?
				    NODER + 4 : 0, false);
		}
	}
	/* A unit that ended where no arrow of its took it (a charge's
	 * taking of the hex, a retreat): a thin dashed arrow from where its
	 * arrows left it to where it is, in its player's colour. */
	for (i = 0; i < t->units.n && b->kind != BOARD_TABLE; i++) {
		const struct unit *u = &t->units.v[i];
		int	 lx[2], ly[2];

		if (u->at < 0 || pc->uend[i] < 0 || u->at == pc->uend[i] ||
		    (pc->player >= 0 && u->player != pc->player &&
		    !view_reveals(t)))
			continue;
		lx[0] = pc->x[pc->uend[i]];
		ly[0] = pc->y[pc->uend[i]];
		lx[1] = pc->x[u->at];
		ly[1] = pc->y[u->at];
		pc->displaced = true;
		arrow(pc, "displaced", u->player, OS_DONE, lx, ly, 2, u->at,
		    b->kind == BOARD_GRAPH ? NODER + 4 : 0, false);
		pc->displaced = false;
		pc->drawn |= D_DISPLACED;
	}
}

/*
 * The fights, under the stacks: an attack rings the cell attacked, a
 * loss in the cell fought for (an invasion) rings it too, a fight
 * between two cells (a skirmish, a loop) is crossed out on the way
 * between them; in the colour of the player whose order it was.
 */
static void
draw_fights(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	size_t		 i;
	int		 x, y, k;
	const char	*col;

	if (b->kind == BOARD_TABLE)
		return;
	for (i = 0; i < t->attacks.n; i++) {
		const struct attack *a = &t->attacks.v[i];
		const struct order *o = &t->orders.v[a->order];

		if (a->target < 0 || !shown(pc, o) ||
		    !drawn_cell(pc, a->target))
			continue;
		pc->drawn |= D_ATTACK;
		k = b->kind == BOARD_HEX ? HEXR - 5 : NODER + 6;
		mark_box(pc, pc->x[a->target] - k, pc->y[a->target] - k,
		    pc->x[a->target] + k, pc->y[a->target] + k, 2);
		fprintf(pc->fp, "<circle class=\"attack\" cx=\"%d\" cy=\"%d\" "
		    "r=\"%d\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
		    pc->x[a->target], pc->y[a->target],
		    b->kind == BOARD_HEX ? HEXR - 5 : NODER + 6,
		    pcolour(pc, o->player));
	}
	/* A charge: a solid ring, inside an attack's, where its target
	 * stood as it was charged. */
	for (i = 0; i < pc->nrings; i++) {
		if (!drawn_cell(pc, pc->rings[i].cell))
			continue;
		x = pc->x[pc->rings[i].cell];
		y = pc->y[pc->rings[i].cell];
		k = b->kind == BOARD_HEX ? HEXR - 9 : NODER + 4;
		pc->drawn |= D_CHARGE;
		mark_box(pc, x - k, y - k, x + k, y + k, 2);
		fprintf(pc->fp, "<circle class=\"charge\" cx=\"%d\" cy=\"%d\" "
		    "r=\"%d\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"3\"/>\n", x, y, k, pc->rings[i].col);
	}
	for (i = 0; i < t->losses.n; i++) {
		const struct loss *l = &t->losses.v[i];
		struct loss	 inv;

		if (l->target < 0 || l->at < 0 || (l->order >= 0 &&
		    !shown(pc, &t->orders.v[l->order])) ||
		    !drawn_cell(pc, l->at) || !drawn_cell(pc, l->target))
			continue;
		col = l->order >= 0 ? pcolour(pc,
		    t->orders.v[l->order].player) : "#cc0000";
		if (invasion_loss(pc, l)) {
			/* The invader's: its ring on the cell invaded, once. */
			for (k = 0; k < (int)i; k++)
				if (invasion_loss(pc, &t->losses.v[k]) &&
				    t->losses.v[k].target == l->target)
					break;
			if (k < (int)i)
				continue;
			memset(&inv, 0, sizeof(inv));
			inv.at = inv.target = l->target;
			inv.order = l->order;
			l = &inv;
		} else {
			/* A garrison's, where the invader's ringed it. */
			for (k = 0; l->target == l->at && k < (int)t->losses.n;
			    k++)
				if (invasion_loss(pc, &t->losses.v[k]) &&
				    t->losses.v[k].target == l->target)
					break;
			if (l->target == l->at && k < (int)t->losses.n)
				continue;
		}
		pc->drawn |= l->target == l->at ? D_INVADED : D_FIGHT;
		k = l->target != l->at ? 8 : b->kind == BOARD_HEX ? HEXR - 8 :
		    NODER + 10;
		x = l->target != l->at ? (pc->x[l->at] + pc->x[l->target]) / 2 :
		    pc->x[l->at];
		y = l->target != l->at ? (pc->y[l->at] + pc->y[l->target]) / 2 :
		    pc->y[l->at];
		mark_box(pc, x - k, y - k, x + k, y + k, 2);
		if (l->target == l->at) {
			fprintf(pc->fp, "<circle class=\"invaded\" "
			    "cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" "
			    "stroke=\"%s\" stroke-width=\"2\" "
			    "stroke-dasharray=\"1 3\"/>\n", pc->x[l->at],
			    pc->y[l->at], b->kind == BOARD_HEX ? HEXR - 8 :
			    NODER + 10, col);
			continue;
		}
		x = (pc->x[l->at] + pc->x[l->target]) / 2;
		y = (pc->y[l->at] + pc->y[l->target]) / 2;
		fprintf(pc->fp, "<path class=\"fight\" d=\"M%d %dL%d %dM%d %d"
		    "L%d %d\" stroke=\"%s\" stroke-width=\"3\"/>\n",
		    x - 6, y - 6, x + 6, y + 6, x + 6, y - 6, x - 6, y + 6,
		    col);
	}
}

/* The losses of no unit (a cell's counter), on their cell's stack. */
static void
draw_marks(struct pic *pc)
{
	size_t		 i;

	for (i = 0; i < pc->t->losses.n; i++)
		if (pc->t->losses.v[i].unit < 0)
			draw_loss(pc, i);
	draw_tags(pc, -1, -1);
}

static void
swatch(struct pic *pc, int x, int *y, const char *fill, const char *what)
{
	fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" "
	    "fill=\"%s\" stroke=\"#333333\" stroke-width=\"1\"/>\n", x,
	    *y - 9, fill);
	if (pc->pattern != NULL)
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" "
		    "height=\"10\" fill=\"url(#pat-%s)\"/>\n", x, *y - 9,
		    pc->pattern);
	text(pc, x + 20, *y, 10, "start", "#000000", what);
	*y += 15;
}

static void
line_key(struct pic *pc, int x, int *y, int status)
{
	fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#333333\" stroke-width=\"3\"%s marker-end=\"url(#k-%s)\""
	    "/>\n", x, *y - 4, x + 24, *y - 4, status_dash[status],
	    status_word[status]);
	text(pc, x + 32, *y, 10, "start", "#000000", status_word[status]);
	*y += 15;
}

/* A cross as the picture draws it, for the legend. */
static void
cross_key(struct pic *pc, int x, int y, const char *col)
{
	fprintf(pc->fp, "<path d=\"M%d %dL%d %dM%d %dL%d %d\" "
	    "stroke=\"%s\" stroke-width=\"3\"/>\n", x + 2, y - 10, x + 12, y,
	    x + 12, y - 10, x + 2, y, col);
}

/* The legend, right of the board, of what the picture shows; returns
 * how far down it went. */
static int
legend(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	int		 x = pc->w + 10, y = TOP + 4;
	size_t		 i;
	int		 k;
	static const int statuses[] = { OS_DONE, OS_FAILED, OS_ILLEGAL,
		OS_LEGAL };

	text(pc, x, y, 12, "start", "#000000", "Players");
	y += 16;
	for (i = 0; i < t->players.n; i++) {
		char	 nm[128];

		/* A long name cut to the legend's width. */
		snprintf(nm, sizeof(nm), "%s", t->players.v[i].name);
		utf8_mend(nm);
		cut_to(nm, sizeof(nm), 10, LEGENDW - 30);
		swatch(pc, x, &y, pcolour(pc, (int)i), nm);
	}
	if (pc->drawn & 0xff) {
		y += 6;
		text(pc, x, y, 12, "start", "#000000",
		    "Orders, in the mover's colour");
		y += 16;
		for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
			if (pc->drawn >> statuses[i] & 1)
				line_key(pc, x, &y, statuses[i]);
	}
	if (pc->drawn & D_STOP) {
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"24\" "
		    "height=\"11\" fill=\"#ffffff\" stroke=\"#000000\" "
		    "stroke-dasharray=\"2 1\"/>\n", x, y - 10);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "stop: why it stopped short");
		y += 15;
	}
	if (pc->drawn & D_DISPLACED) {
		fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		    "y2=\"%d\" stroke=\"#333333\" stroke-width=\"2\" "
		    "stroke-dasharray=\"3 3\" marker-end=\"url(#k-done)\"/>\n",
		    x, y - 4, x + 24, y - 4);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "moved by a fight (a charge, a retreat)");
		y += 15;
	}
	if (pc->drawn & D_HOP) {
		fprintf(pc->fp, "<path d=\"M%d %dQ%d %d %d %d\" fill=\"none\" "
		    "stroke=\"#333333\" stroke-width=\"2\"/>\n", x, y - 2,
		    x + 12, y - 14, x + 24, y - 2);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "a portal hop (curved)");
		y += 15;
	}
	if (pc->drawn & D_REST) {
		fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		    "y2=\"%d\" stroke=\"#333333\" stroke-width=\"2\" "
		    "stroke-opacity=\"0.45\" stroke-dasharray=\"1 4\" "
		    "stroke-linecap=\"round\"/>\n", x, y - 4, x + 24, y - 4);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "ordered, not gone: it stopped");
		y += 15;
	}
	if (pc->drawn & (D_LOSS | D_ELIM | D_ATTACK | D_INVADED | D_FIGHT |
	    D_TOOL | D_GHOST | D_CHARGE | D_TAG)) {
		y += 6;
		text(pc, x, y, 12, "start", "#000000", "What happened");
		y += 16;
	}
	if (pc->drawn & D_LOSS) {
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"24\" "
		    "height=\"11\" fill=\"#ffffff\" stroke=\"#cc0000\"/>\n", x,
		    y - 10);
		text(pc, x + 12, y - 2, 8, "middle", "#cc0000", "-N");
		text(pc, x + 32, y, 10, "start", "#000000",
		    "a loss, and its cause");
		y += 15;
	}
	if (pc->drawn & D_ELIM) {
		cross_key(pc, x, y, "#cc0000");
		text(pc, x + 32, y, 10, "start", "#000000",
		    "eliminated (its badge faded)");
		y += 15;
	}
	if (pc->drawn & D_ATTACK) {
		fprintf(pc->fp, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" "
		    "fill=\"none\" stroke=\"#333333\" stroke-width=\"2\" "
		    "stroke-dasharray=\"4 2\"/>\n", x + 8, y - 4);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "attacked (the attacker's colour)");
		y += 15;
	}
	if (pc->drawn & D_INVADED) {
		fprintf(pc->fp, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" "
		    "fill=\"none\" stroke=\"#333333\" stroke-width=\"2\" "
		    "stroke-dasharray=\"1 3\"/>\n", x + 8, y - 4);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "fought in (an invasion)");
		y += 15;
	}
	if (pc->drawn & D_CHARGE) {
		fprintf(pc->fp, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" "
		    "fill=\"none\" stroke=\"#333333\" stroke-width=\"3\"/>\n",
		    x + 8, y - 4);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "charged, where it stood");
		y += 15;
	}
	if (pc->drawn & D_TAG) {
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"24\" "
		    "height=\"11\" fill=\"#ffffff\" stroke=\"#333333\" "
		    "stroke-width=\"1.5\"/>\n", x, y - 10);
		text(pc, x + 32, y, 10, "start", "#000000",
		    "told in words, in the player's colour");
		y += 15;
	}
	if (pc->drawn & D_FIGHT) {
		cross_key(pc, x, y, "#333333");
		text(pc, x + 32, y, 10, "start", "#000000",
		    "fought between two cells");
		y += 15;
	}
	if (pc->drawn & D_TOOL)
		swatch(pc, x, &y, "#cccccc",
		    "the turning tool, where a turn was made");
	if (pc->drawn & D_GHOST) {
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" "
		    "height=\"10\" fill=\"none\" stroke=\"#000000\" "
		    "stroke-dasharray=\"3 3\"/>\n", x, y - 9);
		text(pc, x + 20, y, 10, "start", "#000000",
		    "a base where its move began");
		y += 15;
	}
	if (pc->cut) {
		text(pc, x, y, 10, "start", "#000000",
		    "arrows that leave the region: cut at its edge");
		y += 15;
	}
	if (!(pc->flags & NOMARKS) && pc->player >= 0 && !view_reveals(t)) {
		text(pc, x, y, 10, "start", "#000000",
		    "the others' orders are not shown");
		y += 15;
	}
	if (b->kind != BOARD_TABLE && b->nterrains > 0) {
		y += 6;
		text(pc, x, y, 12, "start", "#000000", "Terrain");
		y += 16;
		for (k = 0; k < b->nterrains; k++) {
			pc->pattern = tpattern(b, k);
			swatch(pc, x, &y, tcolour(b, k),
			    b->terrains[k]);
			pc->pattern = NULL;
		}
	}
	if (b->kind != BOARD_TABLE) {
		if (pc->drawn & D_SIDE) {
			y += 6;
			fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
			    "y2=\"%d\" stroke=\"#3d85c6\" stroke-width=\"4\"/>"
			    "\n", x, y - 4, x + 22, y - 4);
			text(pc, x + 30, y, 10, "start", "#000000",
			    "hexside feature (named)");
			y += 15;
		}
		if (pc->drawn & D_CONN) {
			fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
			    "y2=\"%d\" stroke=\"#7f6000\" stroke-width=\"3\" "
			    "stroke-dasharray=\"8 3\"/>\n", x, y - 4, x + 22,
			    y - 4);
			text(pc, x + 30, y, 10, "start", "#000000",
			    "road, track, connection");
			y += 15;
		}
	}
	return y + MARGIN;
}

static void
connections(struct pic *pc)
{
	const struct board *b = &pc->t->board;
	size_t		 i;
	int		 k;

	for (i = 0; i < b->conns.n; i++) {
		const struct connection *cn = &b->conns.v[i];

		for (k = 0; k < cn->ncells && !drawn_cell(pc, cn->cells[k]);
		    k++)
			;
		if (k == cn->ncells)
			continue;
		pc->drawn |= D_CONN;
		fprintf(pc->fp, "<polyline class=\"connection\" points=\"");
		for (k = 0; k < cn->ncells; k++)
			fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "",
			    pc->x[cn->cells[k]], pc->y[cn->cells[k]]);
		fprintf(pc->fp, "\" fill=\"none\" stroke=\"#7f6000\" "
		    "stroke-width=\"3\" stroke-dasharray=\"8 3\"><title>");
		esc(pc->fp, cn->kind);
		fputs("</title></polyline>\n", pc->fp);
	}
}

/*
 * The arrowhead of player p's orders of a status (p -1: the legend's,
 * grey): done a filled head, failed an open one, illegal a cross, legal
 * a dot; the tip at the line's end.
 */
static void
marker(struct pic *pc, int p, int status)
{
	const char	*col = p < 0 ? "#333333" : pcolour(pc, p);

	if (p < 0)
		fprintf(pc->fp, "<marker id=\"k-%s\"", status_word[status]);
	else
		fprintf(pc->fp, "<marker id=\"a%d-%s\"", p,
		    status_word[status]);
	fprintf(pc->fp, " viewBox=\"0 0 10 10\" refX=\"%d\" refY=\"5\" "
	    "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\" "
	    "markerUnits=\"strokeWidth\">", status == OS_DONE ? 10 : 8);
	switch (status) {
	case OS_DONE:
		fprintf(pc->fp, "<path d=\"M0 0L10 5L0 10z\" fill=\"%s\" "
		    "stroke=\"#000000\" stroke-width=\"0.6\"/>", col);
		break;
	case OS_FAILED:
		fprintf(pc->fp, "<path d=\"M1 1L9 5L1 9z\" fill=\"#ffffff\" "
		    "stroke=\"%s\" stroke-width=\"2\"/>", col);
		break;
	case OS_ILLEGAL:
		fprintf(pc->fp, "<path d=\"M1 1L9 9M9 1L1 9\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"2.5\"/>", col);
		break;
	default:
		fprintf(pc->fp, "<circle cx=\"5\" cy=\"5\" r=\"4\" "
		    "fill=\"%s\"/>", col);
	}
	fputs("</marker>\n", pc->fp);
}

/*
 * Large boards (arbiter(1), --svg-region).  A board is too large to read
 * whole when its picture at its own size (the PNG's default, where every
 * text is 8 pixels high or more) would be more than a PNG may be
 * (PNG_MAX_SIDE a side, PNG_MAX_PIXELS in all), or holds more than
 * SVG_CELLS cells: then, unless the whole is asked for ("all"), a picture
 * draws the region around what happened.
 */
static bool
too_large(const struct pic *pc)
{
	return pc->t->board.ncells > SVG_CELLS || pc->w + LEGENDW >
	    PNG_MAX_SIDE || pc->h > PNG_MAX_SIDE || (long)(pc->w + LEGENDW) *
	    pc->h > PNG_MAX_PIXELS;
}

static void
want_cell(const struct pic *pc, bool *want, int c)
{
	if (c >= 0 && c < pc->t->board.ncells)
		want[c] = true;
}

/* The cells of what happened: the orders the picture shows, their units
 * where they began and ended, the units moved or eliminated, the fights
 * and losses; else the units' cells; else the first cell. */
static void
region_events(struct pic *pc, bool *want)
{
	struct arb_turn	*t = pc->t;
	size_t		 i;
	int		 k;
	bool		 any = false;

	for (i = 0; i < t->orders.n; i++) {
		const struct order *o = &t->orders.v[i];

		if (o->refused || !shown(pc, o))
			continue;
		for (k = 0; k < o->ncells; k++)
			want_cell(pc, want, o->cells[k]);
		for (k = 0; k < o->nunits; k++) {
			want_cell(pc, want, t->units.v[o->units[k]].from);
			want_cell(pc, want, t->units.v[o->units[k]].at);
		}
	}
	for (i = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];

		if (u->from != u->at || u->gone || u->left) {
			want_cell(pc, want, u->from);
			want_cell(pc, want, u->at);
		}
	}
	for (i = 0; i < t->attacks.n; i++)
		if (shown(pc, &t->orders.v[t->attacks.v[i].order]))
			want_cell(pc, want, t->attacks.v[i].target);
	for (i = 0; i < t->losses.n; i++) {
		want_cell(pc, want, t->losses.v[i].at);
		want_cell(pc, want, t->losses.v[i].target);
	}
	for (k = 0; k < t->board.ncells && !any; k++)
		any = want[k];
	for (i = 0; i < t->units.n && !any; i++)
		want_cell(pc, want, unit_cell(pc, &t->units.v[i]));
	for (k = 0; k < t->board.ncells && !any; k++)
		any = want[k];
	if (!any)
		want[0] = true;
}

/* A region's error is about the map's board: it names the map's file. */
static void __attribute__((noreturn, format(printf, 2, 3)))
region_fail(struct arb_turn *t, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[sizeof(t->mem.err->text)];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (t->mapfile != NULL && t->mem.err->code == ARB_EOK) {
		snprintf(t->mem.err->file, sizeof(t->mem.err->file), "%s",
		    t->mapfile);
		utf8_mend(t->mem.err->file);
	}
	mem_fail(&t->mem, ARB_EDATA, "%s", buf);
}

/* A region given: two hexes' labels, "A:B", the corners of the columns
 * and rows drawn; or territories' names, "A,B,...", drawn with their
 * neighbours. */
static void
region_parse(struct pic *pc, const char *r, bool *want)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	char		 buf[1024], *p, *q;
	int		 c;

	if (strlen(r) >= sizeof(buf))
		region_fail(t, "--svg-region: a region of more "
		    "than %zu bytes", sizeof(buf) - 1);
	memcpy(buf, r, strlen(r) + 1);
	if (b->kind == BOARD_HEX && ((p = strchr(buf, ':')) == NULL ||
	    strchr(p + 1, ':') != NULL))
		region_fail(t, "--svg-region \"%.200s\": a hex "
		    "board's region is two hexes' labels, A:B (or \"all\")",
		    r);
	for (p = buf; p != NULL; p = q) {
		if ((q = strchr(p, b->kind == BOARD_HEX ? ':' : ',')) != NULL)
			*q++ = '\0';
		if ((c = board_find(b, p)) < 0)
			region_fail(t, "--svg-region "
			    "\"%.200s\": no %s \"%.100s\" on the board", r,
			    b->kind == BOARD_HEX ? "hex" : "territory", p);
		want[c] = true;
	}
}

/*
 * The picture's region: NULL (the whole board) when the board is not too
 * large and no region is given, or "all" is; else the cells drawn
 * (pc->in), their box in the picture (pc->rx0 ...), every cell moved so
 * that the box begins at the picture's margins, and pc->note saying which
 * region is drawn.  A hex board's region is a rectangle of columns and
 * rows: around what happened, the columns and rows of its cells and two
 * more each side.  A graph's: the territories of what happened, or those
 * named, and their neighbours.
 */
#define REGION_MARGIN	2

static void
region(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	const char	*r = t->svg_region;
	bool		*want;
	char		 l0[32], l1[32];
	int		 c, k, n = 0, c0, c1, r0, r1, dx, dy, x0, y0, x1, y1;
	int		 m;

	if (b->kind == BOARD_TABLE || b->ncells < 1 || (r != NULL &&
	    strcmp(r, "all") == 0) || (r == NULL && !too_large(pc)))
		return;
	want = t_alloc(t, (size_t)b->ncells * sizeof(bool));
	memset(want, 0, (size_t)b->ncells * sizeof(bool));
	if (r != NULL)
		region_parse(pc, r, want);
	else
		region_events(pc, want);
	pc->in = t_alloc(t, (size_t)b->ncells * sizeof(bool));
	memset(pc->in, 0, (size_t)b->ncells * sizeof(bool));
	if (b->kind == BOARD_HEX) {
		c0 = r0 = INT_MAX;
		c1 = r1 = -1;
		for (c = 0; c < b->ncells; c++)
			if (want[c]) {
				c0 = c % b->cols < c0 ? c % b->cols : c0;
				c1 = c % b->cols > c1 ? c % b->cols : c1;
				r0 = c / b->cols < r0 ? c / b->cols : r0;
				r1 = c / b->cols > r1 ? c / b->cols : r1;
			}
		if (r == NULL) {
			c0 = c0 > REGION_MARGIN ? c0 - REGION_MARGIN : 0;
			r0 = r0 > REGION_MARGIN ? r0 - REGION_MARGIN : 0;
			c1 = c1 + REGION_MARGIN < b->cols ? c1 + REGION_MARGIN :
			    b->cols - 1;
			r1 = r1 + REGION_MARGIN < b->rows ? r1 + REGION_MARGIN :
			    b->rows - 1;
		}
		for (k = r0; k <= r1; k++)
			for (c = c0; c <= c1; c++)
				pc->in[k * b->cols + c] = true;
		n = (c1 - c0 + 1) * (r1 - r0 + 1);
		board_label(b, r0 * b->cols + c0, l0);
		board_label(b, r1 * b->cols + c1, l1);
		snprintf(pc->note, sizeof(pc->note), "hexes %s to %s of "
		    "%d x %d: %s", l0, l1, b->cols, b->rows, r == NULL ?
		    "around what happened, 2 hexes about it" : "as asked");
	} else {
		for (c = 0; c < b->ncells; c++) {
			if (!want[c])
				continue;
			pc->in[c] = true;
			for (k = b->adj_at[c]; k < b->adj_at[c + 1]; k++)
				pc->in[b->adj[k]] = true;
		}
		for (c = 0; c < b->ncells; c++)
			n += pc->in[c];
		snprintf(pc->note, sizeof(pc->note), "%d of %d territories: "
		    "%s, and their neighbours", n, b->ncells, r == NULL ?
		    "those of what happened" : "those named");
	}
	if (n > SVG_CELLS)
		region_fail(t, "the picture's region holds %d "
		    "cells, at most %d in a picture (--svg-region: give a "
		    "smaller one)", n, SVG_CELLS);
	/* The region's box: its cells, with room for a graph's stacks
	 * under their circles and the rings about them. */
	x0 = y0 = INT_MAX;
	x1 = y1 = INT_MIN;
	for (c = 0; c < b->ncells; c++) {
		if (!pc->in[c])
			continue;
		m = b->kind == BOARD_HEX ? HEXR : NODER + 12;
		x0 = pc->x[c] - m < x0 ? pc->x[c] - m : x0;
		x1 = pc->x[c] + m > x1 ? pc->x[c] + m : x1;
		m = b->kind == BOARD_HEX ? HEXH : NODER + 12;
		y0 = pc->y[c] - m < y0 ? pc->y[c] - m : y0;
		m = b->kind == BOARD_HEX ? HEXH : NODER + 4 + pc->nrows[c] + 4;
		if (m < NODER + 12 && b->kind != BOARD_HEX)
			m = NODER + 12;
		y1 = pc->y[c] + m > y1 ? pc->y[c] + m : y1;
	}
	pc->dx = dx = MARGIN - x0;
	pc->dy = dy = TOP - y0;
	for (c = 0; c < b->ncells; c++) {
		pc->x[c] += dx;
		pc->y[c] += dy;
	}
	pc->rx0 = MARGIN;
	pc->ry0 = TOP;
	pc->rx1 = MARGIN + x1 - x0;
	pc->ry1 = TOP + y1 - y0;
	pc->w = pc->rx1 + MARGIN;
	pc->h = pc->ry1 + MARGIN;
	if (pc->w < 300)
		pc->w = 300;
	if (pc->h < 200)
		pc->h = 200;
}

/* The board too large to draw, as found when the map loaded. */
static void __attribute__((noreturn))
svg_refuse(struct arb_turn *t)
{
	memcpy(t->mem.err, t->svg_refused, sizeof(*t->mem.err));
	t->mem.err->code = ARB_EOK;
	mem_fail(&t->mem, ARB_EDATA, "%s", t->svg_refused->text);
}

static struct tag *
add_tag(struct pic *pc, size_t *cap, int unit, int cell, const char *col,
    const char *dash)
{
	struct tag	*g, *v;

	if (pc->ntags == *cap) {
		*cap = *cap * 2 + 8;
		v = t_alloc(pc->t, *cap * sizeof(*v));
		if (pc->ntags > 0)
			memcpy(v, pc->tags, pc->ntags * sizeof(*v));
		pc->tags = v;
	}
	g = &pc->tags[pc->ntags++];
	g->unit = unit;
	g->cell = cell;
	g->col = col;
	g->dash = dash;
	g->loss = false;
	g->done = false;
	g->order = -1;
	g->s[0] = '\0';
	return g;
}

static int
unit_by_id(struct arb_turn *t, const char *id)
{
	size_t	 i;

	for (i = 0; id != NULL && i < t->units.n; i++)
		if (strcmp(t->units.v[i].id, id) == 0)
			return (int)i;
	return -1;
}

/*
 * What happened, found before the stacks are measured: the lines told
 * in the stacks (struct tag) and the charges' rings.
 *  - an attack: in the stack of the cell attacked, "attacked:" and the
 *    units that stood there at its moment (who may have left since);
 *  - a charge (the rule system's report, "charges"): a ring where its
 *    target stood as it was charged, and under the target's badge
 *    "charged:" and the outcome (held, retreated, eliminated), in the
 *    charger's colour, and its morale lost, red as a loss;
 *  - a breakaway (a table's): beside its target's base, "breakaway by"
 *    and the unit that made it, the line by the order's status.
 */
static void
events(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	size_t		 i, k, cap = 0, n;
	struct tag	*g;
	json_t		*r, *a, *ch;
	int		 u, tu, c;

	if (pc->flags & NOMARKS)
		return;
	for (i = 0; i < t->attacks.n && b->kind != BOARD_TABLE; i++) {
		const struct attack *at = &t->attacks.v[i];
		const struct order *o = &t->orders.v[at->order];

		if (at->target < 0 || !shown(pc, o))
			continue;
		g = add_tag(pc, &cap, -1, at->target, pcolour(pc, o->player),
		    "4 2");
		n = (size_t)snprintf(g->s, sizeof(g->s), "attacked:");
		for (k = 0; k < (size_t)at->ndefenders && n < sizeof(g->s);
		    k++)
			n += (size_t)snprintf(g->s + n, sizeof(g->s) - n,
			    " %s", t->units.v[at->defenders[k]].id);
		utf8_mend(g->s);
	}
	/* In adjudication order, whatever the order of the files. */
	for (i = 0; i < t->sequence.n && b->kind == BOARD_TABLE; i++) {
		const struct order *o = &t->orders.v[t->sequence.v[i]];
		json_t	*tg;

		if (o->refused || !shown(pc, o) || o->nunits < 1 ||
		    strcmp(t->rs->order_kinds[o->kind].key, "breakaway") != 0)
			continue;
		r = order_report(t, o);
		tg = r != NULL ? json_object_get(r, "target") : NULL;
		tu = unit_by_id(t, json_string_value(tg));
		if (tu >= 0) {
			g = add_tag(pc, &cap, tu, -1, pcolour(pc, o->player),
			    o->status == OS_DONE ? "" : o->status == OS_FAILED ?
			    "4 2" : "1 2");
			g->order = t->sequence.v[i];
			snprintf(g->s, sizeof(g->s), "breakaway by %.40s%s",
			    t->units.v[o->units[0]].id, o->status == OS_DONE ?
			    "" : o->status == OS_FAILED ? ": failed" :
			    ": illegal");
			utf8_mend(g->s);
		}
		if (r != NULL)
			json_decref(r);
		t->json = NULL;
	}
	/* An invasion (a loss of the invader's, against another cell, not
	 * in a skirmish or a loop): in the stack of the cell invaded, once
	 * an order and cell, "invaded by" the player and how it ended:
	 * neutralised (taken when the invader then claimed it), or held. */
	for (i = 0; i < t->losses.n && b->kind != BOARD_TABLE; i++) {
		const struct loss *l = &t->losses.v[i];
		const char	*end = "held";

		if (!invasion_loss(pc, l))
			continue;
		for (k = 0; k < i; k++)
			if (invasion_loss(pc, &t->losses.v[k]) &&
			    t->losses.v[k].order == l->order &&
			    t->losses.v[k].target == l->target)
				break;
		if (k < i)
			continue;
		for (k = 0; k < t->ownership.n; k++) {
			const struct ochange *oc = &t->ownership.v[k];

			if (oc->cell != l->target || oc->order < 0 ||
			    t->orders.v[oc->order].player != l->player)
				continue;
			if (oc->to == l->player)
				end = "taken";
			else if (oc->to < 0 && strcmp(end, "held") == 0)
				end = "neutralised";
		}
		g = add_tag(pc, &cap, -1, l->target, pcolour(pc, l->player),
		    "2 2");
		snprintf(g->s, sizeof(g->s), "invaded by %s: %s",
		    t->players.v[l->player].name, end);
		utf8_mend(g->s);
		if (text_w(g->s, 8) + 6 > tag_width(pc, g)) {
			/* Too long for one line: the outcome under it. */
			snprintf(g->s, sizeof(g->s), "invaded by %s",
			    t->players.v[l->player].name);
			utf8_mend(g->s);
			g = add_tag(pc, &cap, -1, l->target, pcolour(pc,
			    l->player), "2 2");
			snprintf(g->s, sizeof(g->s), "%s", end);
		}
	}
	/* Armies raised at the upkeep (gains), in the cell's stack, in
	 * the colour of the player they were raised for: "+N" and why. */
	for (i = 0; i < t->gains.n && b->kind != BOARD_TABLE; i++) {
		const struct loss *gn = &t->gains.v[i];

		if (gn->at < 0)
			continue;
		g = add_tag(pc, &cap, -1, gn->at, pcolour(pc, gn->player), "");
		snprintf(g->s, sizeof(g->s), "+%d %.40s", gn->strength,
		    gn->cause != NULL ? gn->cause : "");
		utf8_mend(g->s);
	}
	/* A feature destroyed, in its cell's stack, in the colour of the
	 * player whose order destroyed it. */
	for (i = 0; i < t->destroyed.n && b->kind != BOARD_TABLE; i++) {
		const struct destroyed *d = &t->destroyed.v[i];

		if (d->cell < 0 || d->feature < 0 || (d->order >= 0 &&
		    !shown(pc, &t->orders.v[d->order])))
			continue;
		g = add_tag(pc, &cap, -1, d->cell, d->order >= 0 ? pcolour(pc,
		    t->orders.v[d->order].player) : "#333333", "");
		snprintf(g->s, sizeof(g->s), "destroyed: %.40s",
		    b->features[d->feature]);
		utf8_mend(g->s);
	}
	if (t->rs->report == NULL || b->kind == BOARD_TABLE)
		return;
	jw_begin(&t->mem);
	t->wpooled = false;
	r = t->json = jw_ok(json_object());
	t->rs->report(t, (struct jv *)r);
	a = json_object_get(r, "charges");
	pc->rings = t_alloc(t, (json_array_size(a) + 1) * sizeof(struct ring));
	for (i = 0; i < json_array_size(a); i++) {
		ch = json_array_get(a, i);
		u = unit_by_id(t, json_string_value(json_object_get(ch,
		    "charger")));
		tu = unit_by_id(t, json_string_value(json_object_get(ch,
		    "target")));
		c = board_find(b, json_string_value(json_object_get(ch, "at")) ?
		    json_string_value(json_object_get(ch, "at")) : "");
		if (u < 0 || tu < 0)
			continue;
		if (c >= 0) {
			pc->rings[pc->nrings].cell = c;
			pc->rings[pc->nrings++].col = pcolour(pc,
			    t->units.v[u].player);
		}
		g = add_tag(pc, &cap, tu, -1, pcolour(pc, t->units.v[u].player),
		    "");
		snprintf(g->s, sizeof(g->s), "charged: %.40s",
		    json_string_value(json_object_get(ch, "outcome")) != NULL ?
		    json_string_value(json_object_get(ch, "outcome")) : "?");
		if (json_integer_value(json_object_get(ch, "mv_lost")) > 0) {
			g = add_tag(pc, &cap, tu, -1, "#cc0000", "");
			g->loss = true;
			snprintf(g->s, sizeof(g->s), "-%lld morale",
			    (long long)json_integer_value(json_object_get(ch,
			    "mv_lost")));
		}
	}
	json_decref(r);
	t->json = NULL;
}

/* Whether the picture draws a portal hop (the legend's room). */
static bool
hops(const struct pic *pc)
{
	const struct board *b = &pc->t->board;
	int		 portal, k;
	size_t		 i;

	if (b->kind != BOARD_HEX || (pc->flags & NOMARKS) ||
	    (portal = board_feature_find(b, "portal")) < 0)
		return false;
	for (i = 0; i < pc->t->orders.n; i++) {
		const struct order *o = &pc->t->orders.v[i];

		for (k = 1; k < o->ncells && !o->refused && shown(pc, o) &&
		    pc->t->rs->order_kinds[o->kind].arg == OK_PATH; k++)
			if (board_has(b, o->cells[k - 1], portal) &&
			    board_has(b, o->cells[k], portal) &&
			    board_dir(b, o->cells[k - 1], o->cells[k]) < 0)
				return true;
	}
	return false;
}

/* The title of a picture drawn with flags for player (-1: the umpire's),
 * into buf. */
void
svg_title(struct arb_turn *t, int flags, int player, char *buf,
    size_t size)
{
	snprintf(buf, size, "%.40s, turn %ld%s%.80s%s",
	    t->rs->name, (long)t->number + ((flags & SVG_NEXT) ? 1 : 0),
	    (flags & NOMARKS) ? " begins" : player >= 0 ? ", as " : "",
	    player >= 0 && !(flags & NOMARKS) ? t->players.v[player].name :
	    "", player >= 0 && !(flags & NOMARKS) ? " sees it" : "");
	utf8_mend(buf);
}

/* The players' colours in pictures, "#rrggbb", by player (in the turn's
 * arena). */
const char **
svg_colours(struct arb_turn *t)
{
	struct pic	 pc;

	memset(&pc, 0, sizeof(pc));
	pc.t = t;
	player_colours(&pc);
	return pc.pcol;
}

void
emit_svg(struct arb_turn *t, int flags, int player, FILE *fp)
{
	const struct board *b = &t->board;
	struct pic	 pc;
	struct mem_mark	 mark;
	char		 title[256];
	size_t		 i;
	int		 p, lh, wall, hall;
	static const int statuses[] = { OS_DONE, OS_FAILED, OS_ILLEGAL,
		OS_LEGAL };

	/* A board too large to draw was found as the map loaded: refused
	 * here, before anything is drawn, with the map's place, when the
	 * whole is drawn (a graph Graphviz would lay out is, whatever the
	 * region). */
	if (t->svg_refused != NULL && ((b->kind == BOARD_GRAPH &&
	    t->disp_x == NULL) || (t->svg_region != NULL &&
	    strcmp(t->svg_region, "all") == 0)))
		svg_refuse(t);
	/* A picture's tables (sized by the board: positions, stacks, the
	 * region) die with it: a turn of many pictures (--for all, the
	 * game's mail) holds one picture's at a time. */
	if (b->kind == BOARD_GRAPH && t->disp_x == NULL)
		layout_cache(t);
	mem_mark(&t->mem, &mark);
	memset(&pc, 0, sizeof(pc));
	pc.t = t;
	pc.fp = fp;
	pc.flags = flags;
	pc.player = player;
	pc.tfp = t->tmem;
	player_colours(&pc);
	place(&pc);
	if ((flags & SVG_HOOKS) && b->kind == BOARD_HEX)
		owned_cells(&pc);
	pc.tline = t_alloc(t, (t->units.n + 1) * sizeof(int));
	memset(pc.tline, 0, (t->units.n + 1) * sizeof(int));
	events(&pc);
	stack_measure(&pc);
	wall = pc.w;
	hall = pc.h;
	region(&pc);
	if (t->svg_refused != NULL && pc.in == NULL)
		svg_refuse(t);
	/* Room for a box a leg of every order's path and one a fight: a
	 * table's maneuvers are not counted, so its labels all have a halo
	 * (mkcap 0). */
	if (b->kind != BOARD_TABLE) {
		for (i = 0; i < t->orders.n; i++)
			pc.mkcap += (size_t)t->orders.v[i].ncells + 2;
		pc.mkcap += t->attacks.n + t->losses.n + t->units.n +
		    pc.nrings + 1;
		pc.mk = t_alloc(t, pc.mkcap * 4 * sizeof(int));
	}
	/* The legend's height is known once it is drawn: it is drawn into
	 * the picture's end, and the header is written with room for it
	 * (its height has a bound from what it lists). */
	lh = TOP + 16 + 15 * (int)t->players.n + 22 + 15 * 8 + 22 +
	    15 * b->nterrains + 22 + 14 * b->nfeatures + 60 + MARGIN +
	    (pc.ntags > 0 ? 15 : 0) + (pc.nrings > 0 ? 15 : 0) +
	    (hops(&pc) ? 15 : 0);
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"DejaVu Sans, sans-serif\">\n", pc.w + LEGENDW,
	    pc.h > lh ? pc.h : lh, pc.w + LEGENDW, pc.h > lh ? pc.h : lh);
	fputs("<defs>\n", fp);
	/* The arrowheads: one a status for each player's colour, and
	 * grey ones for the legend (k-). */
	for (p = -1; p < (int)t->players.n && !(flags & NOMARKS); p++)
		for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
			marker(&pc, p, statuses[i]);
	/* The terrains' patterns (tpatterns). */
	fputs("<pattern id=\"pat-trees\" width=\"10\" height=\"10\" "
	    "patternUnits=\"userSpaceOnUse\"><circle cx=\"5\" cy=\"5\" "
	    "r=\"2\" fill=\"#38761d\"/></pattern>\n"
	    "<pattern id=\"pat-ridges\" width=\"12\" height=\"8\" "
	    "patternUnits=\"userSpaceOnUse\"><path d=\"M1 7L6 2L11 7\" "
	    "fill=\"none\" stroke=\"#5b3a1a\" stroke-width=\"1\"/>"
	    "</pattern>\n"
	    "<pattern id=\"pat-reeds\" width=\"10\" height=\"6\" "
	    "patternUnits=\"userSpaceOnUse\"><path d=\"M1 3H7\" "
	    "stroke=\"#274e13\" stroke-width=\"1\"/></pattern>\n"
	    "<pattern id=\"pat-dunes\" width=\"8\" height=\"8\" "
	    "patternUnits=\"userSpaceOnUse\"><circle cx=\"2\" cy=\"2\" "
	    "r=\"1\" fill=\"#b45f06\"/></pattern>\n"
	    "<pattern id=\"pat-waves\" width=\"12\" height=\"8\" "
	    "patternUnits=\"userSpaceOnUse\"><path d=\"M0 4Q3 1 6 4T12 4\" "
	    "fill=\"none\" stroke=\"#0b5394\" stroke-width=\"1\"/>"
	    "</pattern>\n", fp);
	if (pc.in != NULL)
		fprintf(fp, "<clipPath id=\"region\"><rect x=\"%d\" y=\"%d\" "
		    "width=\"%d\" height=\"%d\"/></clipPath>\n", pc.rx0,
		    pc.ry0, pc.rx1 - pc.rx0, pc.ry1 - pc.ry0);
	fputs("</defs>\n", fp);
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#ffffff\"/>\n");
	/* A region's board (what is drawn of it) in its clip path: the
	 * arrows that leave it end at its edge; its background image
	 * where the whole board's would be. */
	if (t->disp_bg != NULL) {
		fprintf(fp, "<image%s x=\"%d\" y=\"%d\" width=\"", pc.in !=
		    NULL ? " clip-path=\"url(#region)\"" : "", pc.dx, pc.dy);
		fprintf(fp, "%d\" height=\"%d\" preserveAspectRatio=\"none\" "
		    "xlink:href=\"", wall, hall);
		esc(fp, t->disp_bg);
		fputs("\"/>\n", fp);
	}
	svg_title(t, flags, player, title, sizeof(title));
	pc.hook = "data-part";
	pc.hookv = "title";
	text(&pc, MARGIN, 30, 16, "start", "#000000", title);
	if (pc.in != NULL)
		text(&pc, MARGIN, 48, 10, "start", "#000000", pc.note);
	if (pc.in != NULL)
		fputs("<g class=\"region\" clip-path=\"url(#region)\">\n", fp);
	/* The ground, the arrows and fights over it, a graph's
	 * territories over their ends, the labels (with a halo) over the
	 * arrows, the stacks over all. */
	if (b->kind == BOARD_HEX)
		draw_hexes(&pc, false);
	else if (b->kind == BOARD_GRAPH)
		draw_graph(&pc, 0);
	else
		draw_table(&pc, false);
	connections(&pc);
	if (!(flags & NOMARKS)) {
		draw_orders(&pc);
		draw_fights(&pc);
	}
	pc.halo = true;
	if (b->kind == BOARD_HEX)
		draw_hexes(&pc, true);
	else if (b->kind == BOARD_GRAPH) {
		pc.halo = false;
		draw_graph(&pc, 1);
		draw_graph(&pc, 2);
	} else
		draw_table(&pc, true);
	pc.halo = false;
	for (i = 0; i < t->units.n; i++)
		draw_unit(&pc, (int)i);
	if (!(flags & NOMARKS))
		draw_marks(&pc);
	if (pc.in != NULL)
		fputs("</g>\n", fp);
	legend(&pc);
	fputs("</svg>\n", fp);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
	mem_rewind(&t->mem, &mark);
}
