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
 * and a legend.  With SVG_NEXT, the board as the next turn begins,
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
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/gvc.h>

#include "format/format.h"
#include "json/doc.h"
/* After the model, whose reasons (R_OK) <unistd.h> would spell as its
 * access(2) modes. */
#include <unistd.h>

#define MARGIN	40
#define TOP	60		/* the title above the board */
#define HEXR	30		/* a hex's corner radius */
#define HEXH	26		/* half its height (30 * sqrt(3) / 2) */
#define NODER	30		/* a territory's circle */
#define TABLEK	40		/* pixels per step on the table */
#define LEGENDW	230

static const char *const pcolours[] = {
	"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"
};
#define NPCOL	(sizeof(pcolours) / sizeof(pcolours[0]))

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

static const char *const status_colour[] = {
	"#555555", "#1f5fbf", "#1a9641", "#d7191c", "#f28e00"
};
static const char *const status_word[] = {
	"pending", "legal", "done", "illegal", "failed"
};

struct pic {
	struct arb_turn	*t;
	FILE		*fp;
	int		 flags, player;
	int		*x, *y;		/* cell centres */
	int		 w, h;		/* the board's part */
	int		*nstack;	/* units drawn so far in a cell */
	const char	*pattern;	/* a swatch's, or NULL */
};

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

static void
text(struct pic *pc, int x, int y, int size, const char *anchor,
    const char *fill, const char *s)
{
	fprintf(pc->fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "text-anchor=\"%s\" fill=\"%s\">", x, y, size, anchor, fill);
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
	fprintf(pc->fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
	    "text-anchor=\"middle\" fill=\"%s\" textLength=\"%d\" "
	    "lengthAdjust=\"spacingAndGlyphs\">", x, y, size, fill, maxw);
	esc(pc->fp, s);
	fputs("</text>\n", pc->fp);
}

static const char *
pcolour(int p)
{
	return p < 0 ? "#ffffff" : pcolours[(size_t)p % NPCOL];
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
 * had begun to write).  Each child has its own Graphviz, so turns in
 * threads lay out at once.  The layout is made once a turn and kept for
 * every picture of it (--svg, --svg-next, every player's under --for
 * all); the map bounds its territories (display.c, picture_bound()).
 */
static void __attribute__((noreturn))
layout_child(const struct board *b, int fd)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	GVC_t		*gvc;
	Agraph_t	*g;
	Agnode_t	**nodes;
	char		 name[32];
	int		 i, k, minx, maxy, xy[2];
	size_t		 j;
	boxf		 bb;

	/* The parent's handlers remove its temporary files: not here. */
	for (j = 0; j < sizeof(fatal) / sizeof(fatal[0]); j++)
		signal(fatal[j], SIG_DFL);
	if ((nodes = calloc((size_t)b->ncells + 1, sizeof(*nodes))) == NULL ||
	    (gvc = gvContext()) == NULL ||
	    (g = agopen("g", Agundirected, NULL)) == NULL)
		_exit(1);
	agattr(g, AGRAPH, "start", "1");
	agattr(g, AGRAPH, "overlap", "false");
	agattr(g, AGRAPH, "sep", "+20");
	agattr(g, AGNODE, "shape", "circle");
	agattr(g, AGNODE, "label", "");	/* no text to measure */
	agattr(g, AGNODE, "fixedsize", "true");
	agattr(g, AGNODE, "width", "1.2");
	agattr(g, AGEDGE, "len", "2.2");
	for (i = 0; i < b->ncells; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		if ((nodes[i] = agnode(g, name, 1)) == NULL)
			_exit(1);
	}
	for (i = 0; i < b->ncells; i++)
		for (k = b->adj_at[i]; k < b->adj_at[i + 1]; k++)
			if (b->adj[k] > i && agedge(g, nodes[i],
			    nodes[b->adj[k]], NULL, 1) == NULL)
				_exit(1);
	if (gvLayout(gvc, g, "neato") != 0)
		_exit(1);
	bb = GD_bb(g);
	minx = (int)lround(bb.LL.x);
	maxy = (int)lround(bb.UR.y);
	for (i = 0; i < b->ncells; i++) {
		xy[0] = (int)lround(ND_coord(nodes[i]).x) - minx;
		xy[1] = maxy - (int)lround(ND_coord(nodes[i]).y);
		for (j = 0; j < sizeof(xy);) {
			ssize_t	 w = write(fd, (char *)xy + j,
			    sizeof(xy) - j);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(1);
			j += (size_t)w;
		}
	}
	_exit(0);	/* nothing of the parent's is flushed or freed */
}

static void
graph_layout(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	size_t		 need = 2 * sizeof(int) * (size_t)b->ncells, got = 0;
	int		*xy, fd[2], st, i;
	ssize_t		 r;
	pid_t		 pid;

	if (t->lay_x == NULL) {
		xy = t_alloc(t, need + 1);
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
			layout_child(b, fd[1]);
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
		t->lay_x = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		t->lay_y = t_alloc(t, (size_t)b->ncells * sizeof(int) + 1);
		for (i = 0; i < b->ncells; i++) {
			t->lay_x[i] = xy[2 * i];
			t->lay_y[i] = xy[2 * i + 1];
		}
	}
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

			pc->x[c] = MARGIN + HEXR + 45 * (p.x - 1);
			pc->y[c] = TOP + HEXH + HEXH * p.y;
		}
		pc->w = 2 * MARGIN + 2 * HEXR + 45 * (b->cols - 1);
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
	static const int dx[6] = { -15, 15, 30, 15, -15, -30 };
	static const int dy[6] = { -HEXH, -HEXH, 0, HEXH, HEXH, 0 };

	*x = pc->x[c] + dx[k % 6];
	*y = pc->y[c] + dy[k % 6];
}

static void
features_text(struct pic *pc, int c, int x, int y)
{
	const struct board *b = &pc->t->board;
	char		 buf[256];
	size_t		 n = 0;
	int		 f;

	buf[0] = '\0';
	for (f = 0; f < b->nfeatures; f++)
		if (b->cells[c].features >> f & 1 && n + 8 < sizeof(buf)) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%.4s",
			    n > 0 ? " " : "", b->features[f]);
		}
	utf8_mend(buf);		/* a name cut in a character */
	if (n > 0)
		text(pc, x, y, 8, "middle", "#000000", buf);
}

static void
draw_hexes(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	char		 buf[32];
	size_t		 i;
	int		 c, k, x0, y0, x1, y1;

	for (c = 0; c < b->ncells; c++) {
		const struct cell *ce = &b->cells[c];

		fprintf(pc->fp, "<polygon class=\"hex\" points=\"");
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
		if (ce->owner >= 0) {
			fprintf(pc->fp, "<polygon class=\"owner\" points=\"");
			hex_points(pc, c, 3);
			fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"3\" stroke-opacity=\"0.7\"/>\n",
			    pcolour(ce->owner));
		}
		text(pc, pc->x[c], pc->y[c] - 14, 8, "middle", "#333333",
		    board_label(b, c, buf));
		features_text(pc, c, pc->x[c], pc->y[c] + 22);
	}
	for (i = 0; i < b->sides.n; i++) {
		const struct hexside *s = &b->sides.v[i];

		if ((k = board_dir(b, s->a, s->b)) < 0)
			continue;
		hex_corner(pc, s->a, k, &x0, &y0);
		hex_corner(pc, s->a, k + 1, &x1, &y1);
		fprintf(pc->fp, "<line class=\"hexside\" x1=\"%d\" y1=\"%d\" "
		    "x2=\"%d\" y2=\"%d\" stroke=\"#3d85c6\" "
		    "stroke-width=\"4\"/>\n", x0, y0, x1, y1);
		text(pc, (x0 + x1) / 2, (y0 + y1) / 2 - 2, 6, "middle",
		    "#073763", b->sidefeats.v[s->feature]);
	}
}

static void
draw_graph(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	const struct ufield *cx = t->rs->cell_x;
	char		 buf[64];
	int		 c, k;

	for (c = 0; c < b->ncells; c++)
		for (k = b->adj_at[c]; k < b->adj_at[c + 1]; k++)
			if (b->adj[k] > c)
				fprintf(pc->fp, "<line class=\"edge\" x1=\"%d\" "
				    "y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999999\" "
				    "stroke-width=\"2\"/>\n", pc->x[c], pc->y[c],
				    pc->x[b->adj[k]], pc->y[b->adj[k]]);
	for (c = 0; c < b->ncells; c++) {
		const struct cell *ce = &b->cells[c];

		fprintf(pc->fp, "<circle class=\"territory\" cx=\"%d\" "
		    "cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"%s\" "
		    "stroke-width=\"%d\"/>\n", pc->x[c], pc->y[c], NODER,
		    tcolour(b, ce->terrain), ce->owner >= 0 ?
		    pcolour(ce->owner) : "#777777", ce->owner >= 0 ? 4 : 1);
		text(pc, pc->x[c], pc->y[c] - 8, 10, "middle", "#000000",
		    b->names[c]);
		if (cx != NULL && cx[0].name != NULL && b->cx[0] != NULL) {
			snprintf(buf, sizeof(buf), "%s %d", cx[0].name,
			    b->cx[0][c]);
			text(pc, pc->x[c], pc->y[c] + 5, 9, "middle",
			    "#000000", buf);
		}
		features_text(pc, c, pc->x[c], pc->y[c] + 17);
	}
}

static void
draw_table(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	size_t		 i;
	int		 k;

	fprintf(pc->fp, "<rect class=\"table\" x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\" fill=\"#e8e4c9\" stroke=\"#777777\"/>\n",
	    MARGIN, TOP, px(b->tw), px(b->th));
	for (i = 0; i < b->pieces.n; i++) {
		const struct piece *p = &b->pieces.v[i];
		long		 sx = 0, sy = 0;

		fprintf(pc->fp, "<polygon class=\"piece\" points=\"");
		for (k = 0; k < p->n; k++) {
			fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "",
			    MARGIN + px(p->p[k].x), ty(pc, p->p[k].y));
			sx += MARGIN + px(p->p[k].x);
			sy += ty(pc, p->p[k].y);
		}
		fprintf(pc->fp, "\" fill=\"#a9cf8f\" stroke=\"#38761d\" "
		    "stroke-width=\"2\"/>\n");
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

static void
draw_unit(struct pic *pc, int ui)
{
	struct arb_turn	*t = pc->t;
	const struct unit *u = &t->units.v[ui];
	const struct board *b = &t->board;
	char		 buf[64];
	int		 x, y, c, k;
	bool		 gone = u->gone || u->left;

	if (gone && (pc->flags & SVG_NEXT))
		return;
	unit_spot(pc, u, false, &x, &y);
	if (x < 0)
		return;
	fprintf(pc->fp, "<g class=\"unit%s\">\n", gone ? " eliminated" : "");
	if (b->kind == BOARD_TABLE) {
		table_base(pc, u, &u->pose, pcolour(u->player), gone ?
		    " fill-opacity=\"0.3\"" : "");
		y -= 5;
	} else {
		c = u->at >= 0 ? u->at : u->from;
		k = pc->nstack[c]++;
		/* Below the hex's label, each unit of a stack a little
		 * lower and to the right. */
		x += 4 * k - 2;
		y += 4 * k - 3;
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"40\" "
		    "height=\"22\" rx=\"2\" fill=\"%s\" stroke=\"#000000\" "
		    "stroke-width=\"1\"%s/>\n", x - 20, y - 8,
		    pcolour(u->player), gone ? " fill-opacity=\"0.3\"" : "");
	}
	text_fit(pc, x, y + 1, 7, "#ffffff", u->id, 36);
	snprintf(buf, sizeof(buf), "%.24s %d", t->types.v[u->type].name,
	    u->strength);
	utf8_mend(buf);
	text_fit(pc, x, y + 10, 7, "#ffffff", buf, 36);
	if (gone)
		fprintf(pc->fp, "<path class=\"eliminated\" d=\"M%d %dL%d %d"
		    "M%d %dL%d %d\" stroke=\"#d7191c\" stroke-width=\"3\"/>\n",
		    x - 14, y - 10, x + 14, y + 14, x + 14, y - 10, x - 14,
		    y + 14);
	fputs("</g>\n", pc->fp);
}

/* Whether the picture shows order o (a player's view of a map that hides
 * the others' orders leaves theirs out). */
static bool
shown(const struct pic *pc, const struct order *o)
{
	return pc->player < 0 || o->player == pc->player ||
	    view_reveals(pc->t);
}

/*
 * What the rule system reports of an order (its report_order hook), as
 * the result has it: a table's maneuvers, with their poses and the
 * turning tool where a turn was made.  Held in t->json (malloc'ed) until
 * dropped.
 */
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
maneuvers(struct pic *pc, const struct order *o, const char *col,
    const char *dash)
{
	struct arb_turn	*t = pc->t;
	json_t		*r = order_report(t, o), *ms, *m, *c, *tool;
	size_t		 i, k;
	int		 n = 0;

	ms = r != NULL ? json_object_get(r, "maneuvers") : NULL;
	for (i = 0; i < json_array_size(ms); i++) {
		m = json_array_get(ms, i);
		if ((tool = json_object_get(m, "tool")) == NULL ||
		    json_array_size(c = json_object_get(tool, "corners")) != 3)
			continue;
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
	for (i = 0; i < json_array_size(ms); i++) {
		m = json_array_get(ms, i);
		if (json_object_get(m, "to") == NULL ||
		    (i == 0 && json_object_get(m, "from") == NULL))
			break;
		if (i == 0) {
			c = json_object_get(m, "from");
			fprintf(pc->fp, "<polyline class=\"move %s\" "
			    "points=\"%d,%d", status_word[o->status], MARGIN +
			    px(realv(json_object_get(c, "x"))), ty(pc,
			    realv(json_object_get(c, "y"))));
		}
		c = json_object_get(m, "to");
		fprintf(pc->fp, " %d,%d", MARGIN + px(realv(json_object_get(c,
		    "x"))), ty(pc, realv(json_object_get(c, "y"))));
		n++;
	}
	if (n > 0)
		fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"3\"%s marker-end=\"url(#arrow-%s)\"/>\n",
		    col, dash, status_word[o->status]);
	if (r != NULL)
		json_decref(r);
	t->json = NULL;
	return n > 0;
}

/* Each order's move as an arrow, in adjudication order. */
static void
draw_orders(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	int		*cursor;
	size_t		 i;
	int		 k, x, y, x0, y0;

	cursor = t_alloc(t, t->units.n * sizeof(int) + 1);
	for (i = 0; i < t->units.n; i++)
		cursor[i] = t->units.v[i].from;
	for (i = 0; i < t->sequence.n; i++) {
		const struct order *o = &t->orders.v[t->sequence.v[i]];
		const struct okind *ok = &t->rs->order_kinds[o->kind];
		const char	*col = status_colour[o->status];
		const char	*dash = o->status == OS_DONE ? "" :
				    " stroke-dasharray=\"6 3\"";

		if (o->refused || !shown(pc, o))
			continue;
		if (b->kind == BOARD_TABLE) {
			bool	 drawn = maneuvers(pc, o, col, dash);

			for (k = 0; k < o->nunits; k++) {
				const struct unit *u = &t->units.v[o->units[k]];

				unit_spot(pc, u, true, &x0, &y0);
				unit_spot(pc, u, false, &x, &y);
				if (u->by != t->sequence.v[i] || (x == x0 &&
				    y == y0))
					continue;
				table_base(pc, u, &u->pose0, "none",
				    " stroke-dasharray=\"3 3\"");
				if (drawn)
					continue;
				fprintf(pc->fp, "<line class=\"move %s\" "
				    "x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
				    "stroke=\"%s\" stroke-width=\"3\"%s "
				    "marker-end=\"url(#arrow-%s)\"/>\n",
				    status_word[o->status], x0, y0, x, y, col,
				    dash, status_word[o->status]);
			}
			continue;
		}
		if (ok->arg == OK_PATH && o->ncells >= 2) {
			fprintf(pc->fp, "<polyline class=\"move %s\" "
			    "points=\"", status_word[o->status]);
			for (k = 0; k < o->ncells; k++)
				fprintf(pc->fp, "%s%d,%d", k > 0 ? " " : "",
				    pc->x[o->cells[k]] + 6,
				    pc->y[o->cells[k]] + 6);
			fprintf(pc->fp, "\" fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"3\"%s marker-end=\"url(#arrow-%s)"
			    "\"/>\n", col, dash, status_word[o->status]);
			for (k = 0; k < o->nunits; k++) {
				const struct unit *u = &t->units.v[o->units[k]];
				int	 end = o->cells[o->ncells - 1], j;

				if (o->status == OS_DONE)
					cursor[o->units[k]] = u->at >= 0 ?
					    u->at : end;
				if (u->by != t->sequence.v[i] || u->at < 0 ||
				    u->at == end)
					continue;
				for (j = 0; j < o->ncells; j++)
					if (o->cells[j] == u->at)
						break;
				if (j == o->ncells)
					continue;
				/* Stopped short of the end of its path. */
				fprintf(pc->fp, "<rect class=\"stop\" x=\"%d\" "
				    "y=\"%d\" width=\"12\" height=\"12\" "
				    "fill=\"#000000\" transform=\"rotate(45 %d "
				    "%d)\"/>\n", pc->x[u->at] + 20,
				    pc->y[u->at] - 22, pc->x[u->at] + 26,
				    pc->y[u->at] - 16);
			}
		} else if (ok->arg == OK_CELL && o->ncells >= 1 &&
		    o->nunits >= 1 && cursor[o->units[0]] >= 0) {
			int	 from = cursor[o->units[0]];

			fprintf(pc->fp, "<line class=\"target %s\" x1=\"%d\" "
			    "y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			    "stroke-width=\"3\" stroke-dasharray=\"2 3\" "
			    "marker-end=\"url(#arrow-%s)\"/>\n",
			    status_word[o->status], pc->x[from] - 6,
			    pc->y[from] - 6, pc->x[o->cells[0]] - 6,
			    pc->y[o->cells[0]] - 6, col,
			    status_word[o->status]);
		}
	}
}

/* Losses as "-N" beside the cell or base, attacks as a ring. */
static void
draw_marks(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	char		 buf[32];
	size_t		 i;
	int		 x, y;

	for (i = 0; i < t->attacks.n; i++) {
		const struct attack *a = &t->attacks.v[i];

		if (b->kind == BOARD_TABLE || a->target < 0 ||
		    !shown(pc, &t->orders.v[a->order]))
			continue;
		fprintf(pc->fp, "<circle class=\"attack\" cx=\"%d\" cy=\"%d\" "
		    "r=\"%d\" fill=\"none\" stroke=\"#d7191c\" "
		    "stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
		    pc->x[a->target], pc->y[a->target],
		    b->kind == BOARD_HEX ? HEXR - 4 : NODER + 6);
	}
	/* Where a loss was fought for a cell: a fight between two cells
	 * (a skirmish, a loop) is crossed out on the way between them; a
	 * loss in the cell fought for (an invasion) rings it, as an
	 * attack does. */
	for (i = 0; i < t->losses.n && b->kind != BOARD_TABLE; i++) {
		const struct loss *l = &t->losses.v[i];

		/* The cell a hidden order fought for is hidden with it, as
		 * the result's target is. */
		if (l->target < 0 || l->at < 0 || (l->order >= 0 &&
		    !shown(pc, &t->orders.v[l->order])))
			continue;
		if (l->target == l->at) {
			fprintf(pc->fp, "<circle class=\"invaded\" "
			    "cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" "
			    "stroke=\"#d7191c\" stroke-width=\"2\" "
			    "stroke-dasharray=\"4 2\"/>\n", pc->x[l->at],
			    pc->y[l->at], b->kind == BOARD_HEX ? HEXR - 4 :
			    NODER + 6);
			continue;
		}
		x = (pc->x[l->at] + pc->x[l->target]) / 2;
		y = (pc->y[l->at] + pc->y[l->target]) / 2;
		fprintf(pc->fp, "<path class=\"fight\" d=\"M%d %dL%d %dM%d %d"
		    "L%d %d\" stroke=\"#e66101\" stroke-width=\"3\"/>\n",
		    x - 6, y - 6, x + 6, y + 6, x + 6, y - 6, x - 6, y + 6);
	}
	for (i = 0; i < t->losses.n; i++) {
		const struct loss *l = &t->losses.v[i];

		if (l->unit >= 0)
			unit_spot(pc, &t->units.v[l->unit], false, &x, &y);
		else if (l->at >= 0 && b->kind != BOARD_TABLE) {
			x = pc->x[l->at];
			y = pc->y[l->at];
		} else
			continue;
		if (x < 0)
			continue;
		/* The loss and its cause (the result's), short. */
		snprintf(buf, sizeof(buf), "-%d %.12s", l->strength,
		    l->cause != NULL ? l->cause : "");
		utf8_mend(buf);
		fprintf(pc->fp, "<g class=\"loss\">");
		text(pc, x + 22, y + 4 + 10 * (int)(i % 3), 11, "start",
		    "#d7191c", buf);
		fputs("</g>\n", pc->fp);
	}
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
	    "stroke=\"%s\" stroke-width=\"3\"%s marker-end=\"url(#arrow-%s)\""
	    "/>\n", x, *y - 4, x + 22, *y - 4, status_colour[status],
	    status == OS_DONE ? "" : " stroke-dasharray=\"6 3\"",
	    status_word[status]);
	text(pc, x + 30, *y, 10, "start", "#000000", status_word[status]);
	*y += 15;
}

/* The legend, right of the board; returns how far down it went. */
static int
legend(struct pic *pc)
{
	struct arb_turn	*t = pc->t;
	const struct board *b = &t->board;
	int		 x = pc->w + 10, y = TOP + 4;
	size_t		 i;
	int		 k;

	text(pc, x, y, 12, "start", "#000000", "Players");
	y += 16;
	for (i = 0; i < t->players.n; i++)
		swatch(pc, x, &y, pcolour((int)i), t->players.v[i].name);
	if (!(pc->flags & SVG_NEXT)) {
		y += 6;
		text(pc, x, y, 12, "start", "#000000", "Orders");
		y += 16;
		line_key(pc, x, &y, OS_DONE);
		line_key(pc, x, &y, OS_FAILED);
		line_key(pc, x, &y, OS_ILLEGAL);
		if (t->flags & ARB_CHECK)
			line_key(pc, x, &y, OS_LEGAL);
		fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"8\" "
		    "height=\"8\" fill=\"#000000\" transform=\"rotate(45 %d %d)"
		    "\"/>\n", x + 6, y - 9, x + 10, y - 5);
		text(pc, x + 20, y, 10, "start", "#000000",
		    "stopped short of its path's end");
		y += 15;
		text(pc, x, y, 11, "start", "#d7191c", "-N");
		text(pc, x + 20, y, 10, "start", "#000000", "losses, and why");
		y += 15;
		fprintf(pc->fp, "<path d=\"M%d %dL%d %dM%d %dL%d %d\" "
		    "stroke=\"#d7191c\" stroke-width=\"3\"/>\n", x + 2, y - 10,
		    x + 12, y, x + 12, y - 10, x + 2, y);
		text(pc, x + 20, y, 10, "start", "#000000", "eliminated");
		y += 15;
		if (b->kind != BOARD_TABLE) {
			fprintf(pc->fp, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" "
			    "fill=\"none\" stroke=\"#d7191c\" stroke-width=\"2\" "
			    "stroke-dasharray=\"4 2\"/>\n", x + 7, y - 4);
			text(pc, x + 20, y, 10, "start", "#000000",
			    "attacked, invaded");
			y += 15;
			fprintf(pc->fp, "<path d=\"M%d %dL%d %dM%d %dL%d %d\" "
			    "stroke=\"#e66101\" stroke-width=\"3\"/>\n", x + 2,
			    y - 10, x + 12, y, x + 12, y - 10, x + 2, y);
			text(pc, x + 20, y, 10, "start", "#000000",
			    "fought between two cells");
			y += 15;
		}
		if (b->kind == BOARD_TABLE) {
			swatch(pc, x, &y, "#cccccc",
			    "the turning tool, where a turn was made");
			fprintf(pc->fp, "<rect x=\"%d\" y=\"%d\" width=\"14\" "
			    "height=\"10\" fill=\"none\" stroke=\"#000000\" "
			    "stroke-dasharray=\"3 3\"/>\n", x, y - 9);
			text(pc, x + 20, y, 10, "start", "#000000",
			    "a base where its move began");
			y += 15;
		}
		if (pc->player >= 0 && !view_reveals(t)) {
			text(pc, x, y, 10, "start", "#000000",
			    "the others' orders are not shown");
			y += 15;
		}
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
		if (b->nfeatures > 0) {
			y += 6;
			text(pc, x, y, 12, "start", "#000000", "Features");
			y += 16;
			for (k = 0; k < b->nfeatures; k++) {
				char	 buf[160];

				snprintf(buf, sizeof(buf), "%.4s: %.120s",
				    b->features[k], b->features[k]);
				utf8_mend(buf);
				text(pc, x, y, 10, "start", "#000000", buf);
				y += 14;
			}
		}
		if (b->sidefeats.n > 0) {
			y += 6;
			fprintf(pc->fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
			    "y2=\"%d\" stroke=\"#3d85c6\" stroke-width=\"4\"/>"
			    "\n", x, y - 4, x + 22, y - 4);
			text(pc, x + 30, y, 10, "start", "#000000",
			    "hexside feature (named)");
			y += 15;
		}
		if (b->conns.n > 0) {
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

void
emit_svg(struct arb_turn *t, int flags, int player, FILE *fp)
{
	const struct board *b = &t->board;
	struct pic	 pc;
	char		 title[256];
	size_t		 i;
	int		 s, lh;
	static const int statuses[] = { OS_DONE, OS_FAILED, OS_ILLEGAL,
		OS_LEGAL };

	/* A board too large to draw was found as the map loaded: refused
	 * here, before anything is drawn, with the map's place. */
	if (t->svg_refused != NULL) {
		memcpy(t->mem.err, t->svg_refused, sizeof(*t->mem.err));
		t->mem.err->code = ARB_EOK;
		mem_fail(&t->mem, ARB_EDATA, "%s", t->svg_refused->text);
	}
	memset(&pc, 0, sizeof(pc));
	pc.t = t;
	pc.fp = fp;
	pc.flags = flags;
	pc.player = player;
	place(&pc);
	/* The legend's height is known once it is drawn: it is drawn into
	 * the picture's end, and the header is written with room for it
	 * (its height has a bound from what it lists). */
	lh = TOP + 16 + 15 * (int)t->players.n + 22 + 15 * 8 + 22 +
	    15 * b->nterrains + 22 + 14 * b->nfeatures + 60 + MARGIN;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"DejaVu Sans, sans-serif\">\n", pc.w + LEGENDW,
	    pc.h > lh ? pc.h : lh, pc.w + LEGENDW, pc.h > lh ? pc.h : lh);
	fputs("<defs>\n", fp);
	for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		s = statuses[i];
		fprintf(fp, "<marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" "
		    "refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
		    "orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/>"
		    "</marker>\n", status_word[s], status_colour[s]);
	}
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
	fputs("</defs>\n", fp);
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#ffffff\"/>\n");
	if (t->disp_bg != NULL) {
		fputs("<image x=\"0\" y=\"0\" width=\"", fp);
		fprintf(fp, "%d\" height=\"%d\" preserveAspectRatio=\"none\" "
		    "xlink:href=\"", pc.w, pc.h);
		esc(fp, t->disp_bg);
		fputs("\"/>\n", fp);
	}
	snprintf(title, sizeof(title), "%.40s, turn %ld%s%.80s%s",
	    t->rs->name, (long)t->number + ((flags & SVG_NEXT) ? 1 : 0),
	    (flags & SVG_NEXT) ? " begins" : player >= 0 ? ", as " : "",
	    player >= 0 && !(flags & SVG_NEXT) ? t->players.v[player].name :
	    "", player >= 0 && !(flags & SVG_NEXT) ? " sees it" : "");
	utf8_mend(title);
	text(&pc, MARGIN, 30, 16, "start", "#000000", title);
	if (b->kind == BOARD_HEX)
		draw_hexes(&pc);
	else if (b->kind == BOARD_GRAPH)
		draw_graph(&pc);
	else
		draw_table(&pc);
	connections(&pc);
	for (i = 0; i < t->units.n; i++)
		draw_unit(&pc, (int)i);
	if (!(flags & SVG_NEXT)) {
		draw_orders(&pc);
		draw_marks(&pc);
	}
	legend(&pc);
	fputs("</svg>\n", fp);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
}
