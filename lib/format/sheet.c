/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The order sheet (arbiter(1), --sheet; issue 32): one self-contained
 * HTML page for a player, made in the turn of the next map.  The page is
 * the picture of the next turn's board as the player sees it (svg.c's,
 * whose cells carry data-cell and units data-unit), the data below as
 * JSON in a script element, and the page's own style and script
 * (sheet.html, made into sheet-page.h by the Makefile).  The data: the
 * rule system's order kinds, a table of the reasons of refusals, the
 * labels of the cells, the player's units (on a table with their
 * movement points and maneuvers' prices), and for each group that moves
 * (a hex's units where they move together, each of them alone too, one
 * unit, or a cell's count): the cells its reach as --reach finds it with
 * no orders may end in, each with its cost; its state graph (rules.h,
 * reach_graph), over which the page prices a path clicked step by step
 * and the later orders after the earlier ones; and, for each order kind
 * that names a cell, every cell's verdict as validation rules it.
 * Nothing of it names another player's orders: the next map holds none.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "format/sheet-page.h"
#include "json/doc.h"

/* The cells of reach, states and steps a sheet writes in all (each a
 * few bytes of the page): a group past it has its reach cut. */
#define SHEET_STEPS	500000L

struct sbuf {
	char	*p;
	size_t	 n, cap;
};

struct sheet {
	int		 player;
	const char	*hash;
	struct sbuf	 groups;	/* the groups' JSON, comma-separated */
	int		 ngroups;
	long		 nsteps;	/* written, all groups */
	int		*group;		/* per unit: its group, or -1 */
	unsigned	*in;		/* per cell: in the reach of group in-1 */
	int		 pool;		/* the resource every budget equals,
					 * -1 none yet, -2 none */
	bool		 open;		/* a group's "w" list is open */
	bool		 cut;		/* the group's reach was cut */
	bool		 wopen;		/* its "w" list is begun */
	const char	**why;		/* the reasons of refused steps */
	int		 nwhy, capwhy;
	bool		 firstw;
};

/* Grows in the turn's arena (doubling: the blocks left behind add up
 * to no more than the last). */
static void
put(struct arb_turn *t, struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t	 cap = b->cap < 256 ? 256 : b->cap;
		char	*p;

		while (cap < b->n + n + 1)
			cap *= 2;
		p = t_alloc(t, cap);
		if (b->n > 0)
			memcpy(p, b->p, b->n);
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void
puts_(struct arb_turn *t, struct sbuf *b, const char *s)
{
	put(t, b, s, strlen(s));
}

static void __attribute__((format(printf, 3, 4)))
putf(struct arb_turn *t, struct sbuf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = t_vprintf(t, fmt, ap);
	va_end(ap);
	puts_(t, b, s);
}

/* A JSON string that may stand in a script element: '<', '>' and '&'
 * escaped, so that no "</script>" ends it. */
static void
jstr(struct arb_turn *t, struct sbuf *b, const char *s)
{
	char	 e[8];

	put(t, b, "\"", 1);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			e[0] = '\\';
			e[1] = (char)c;
			put(t, b, e, 2);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
			snprintf(e, sizeof(e), "\\u%04x", c);
			put(t, b, e, 6);
		} else
			put(t, b, s, 1);
	}
	put(t, b, "\"", 1);
}

struct sheet *
sheet_begin(struct arb_turn *t, int player, const char *hash)
{
	struct sheet	*sh = t_alloc(t, sizeof(*sh));
	size_t		 i;

	memset(sh, 0, sizeof(*sh));
	sh->player = player;
	sh->hash = t_strdup(t, hash);
	sh->group = t_alloc(t, (t->units.n + 1) * sizeof(int));
	for (i = 0; i < t->units.n; i++)
		sh->group[i] = -1;
	sh->in = t_alloc(t, ((size_t)t->board.ncells + 1) * sizeof(unsigned));
	memset(sh->in, 0, ((size_t)t->board.ncells + 1) * sizeof(unsigned));
	sh->pool = -1;
	return sh;
}

bool
sheet_full(const struct sheet *sh)
{
	return sh->nsteps >= SHEET_STEPS;
}

bool
sheet_reaches(const struct sheet *sh, int cell)
{
	return sh->in[cell] == (unsigned)sh->ngroups;
}

/* Closes the group before, if one is open. */
static void
close_group(struct arb_turn *t, struct sheet *sh)
{
	if (sh->open)
		puts_(t, &sh->groups, sh->wopen ? "]}" : ",\"w\":[]}");
	sh->open = false;
}

int
sheet_groups(const struct sheet *sh)
{
	return sh->ngroups;
}

/* of: the stack whose unit o moves alone (its units are that group's on
 * the page), or -1. */
void
sheet_group(struct arb_turn *t, struct sheet *sh, const struct order *o,
    const struct reach *r, int of)
{
	const struct okind *ok = &t->rs->order_kinds[o->kind];
	const char *const *res = t->rs->player_res;
	struct sbuf	*b = &sh->groups;
	int		 i, k;
	bool		 cut = r->truncated;

	close_group(t, sh);
	if (sh->ngroups > 0)
		puts_(t, b, ",\n");
	sh->ngroups++;
	/* Is every budget one resource of the player's, a pool the
	 * player's orders share (aeonis AP)? */
	if (r->budget >= 0 && sh->pool != -2) {
		for (k = 0; res != NULL && res[k] != NULL; k++)
			if (t->players.v[o->player].res[k] == r->budget &&
			    (sh->pool == -1 || sh->pool == k))
				break;
		sh->pool = res != NULL && res[k] != NULL ? k : -2;
	}
	puts_(t, b, "{\"u\":[");
	for (i = 0; i < o->nunits; i++) {
		if (i > 0)
			puts_(t, b, ",");
		jstr(t, b, t->units.v[o->units[i]].id);
		if (of < 0)
			sh->group[o->units[i]] = sh->ngroups - 1;
	}
	putf(t, b, "],\"at\":%d,\"b\":%ld", o->cells[0], r->budget);
	if (of >= 0)
		putf(t, b, ",\"of\":%d", of);
	if (ok->count != NULL)
		putf(t, b, ",\"n\":%ld", o->n);
	/* The cells it may end in, each with the cost of its cheapest
	 * path and flags: 1 where the step into it stops the walk (a zone
	 * of control), 2 where a step of that path is tested (a roll may
	 * stop it). */
	puts_(t, b, ",\"e\":[");
	for (i = 0; i < r->n; i++) {
		int	 fl = (r->v[i].stop ? 1 : 0) | (r->v[i].tested ? 2 : 0);

		if (sh->nsteps + 1 > SHEET_STEPS) {
			cut = true;	/* this cell and the rest left out */
			break;
		}
		sh->nsteps++;
		putf(t, b, "%s[%d,%ld", i > 0 ? "," : "", r->v[i].cell,
		    r->v[i].cost);
		if (fl != 0)
			putf(t, b, ",%d", fl);
		puts_(t, b, "]");
		sh->in[r->v[i].cell] = (unsigned)sh->ngroups;
	}
	sh->cut = cut;
	puts_(t, b, "]");
}

/* The index of a reason in the sheet's table of them, added if new. */
static int
why(struct arb_turn *t, struct sheet *sh, enum reason r, const char *rule)
{
	const char	*s = t_printf(t, "%s (%s)", reason_name(r), rule != NULL ?
			    rule : "arbiter-rules(7) Reach");
	int		 i;

	for (i = 0; i < sh->nwhy; i++)
		if (strcmp(sh->why[i], s) == 0)
			return i;
	if (sh->nwhy == sh->capwhy) {
		const char **v;

		sh->capwhy = sh->capwhy < 16 ? 16 : 2 * sh->capwhy;
		v = t_alloc(t, (size_t)sh->capwhy * sizeof(*v));
		if (sh->nwhy > 0)
			memcpy(v, sh->why, (size_t)sh->nwhy * sizeof(*v));
		sh->why = v;
	}
	sh->why[sh->nwhy] = s;
	return sh->nwhy++;
}

void
sheet_graph(struct arb_turn *t, struct sheet *sh, const struct rgraph *g)
{
	struct sbuf	*b = &sh->groups;
	int		 i, k;

	/* The state graph (rules.h, reach_graph), flat: for each node its
	 * cell; 2 x (0 where the walk may end there, else 1 + the index of
	 * why not) + 1 where the step into it stopped the walk; the same
	 * 0 or 1 + why with its cell flipped; its number of steps; and each
	 * step as two numbers: the node it reaches and 4 x its cost + 2
	 * where it is a flipped one + 1 where it is tested; or -1 - the
	 * cell it is refused into and 2 x why (the reason's index) + 2
	 * where flipped, or, over the budget, -1 - (2 x its cost + 1 where
	 * flipped). */
	putf(t, b, ",\"ov\":%d,\"G\":[", why(t, sh, g->over.reason,
	    g->over.rule));
	for (i = 0; i < g->nnode; i++) {
		const struct rg_node *x = &g->node[i];
		int	 code = x->end == R_OK ? 0 : 1 + why(t, sh, x->end,
			    x->endrule);
		int	 vcode = x->vend == R_OK ? 0 : 1 + why(t, sh, x->vend,
			    x->vendrule);

		putf(t, b, "%s%d,%d,%d,%d", i > 0 ? "," : "", x->cell,
		    2 * code + (x->stop ? 1 : 0), vcode, x->n);
		for (k = x->first; k < x->first + x->n; k++) {
			const struct rg_edge *e = &g->edge[k];
			int	 fl = e->flip ? 1 : 0;

			if (e->to >= 0)
				putf(t, b, ",%d,%d", e->to, 4 * e->cost +
				    2 * fl + (e->tested ? 1 : 0));
			else if (e->over)
				putf(t, b, ",%d,%d", -1 - e->cell,
				    -1 - (2 * e->cost + fl));
			else
				putf(t, b, ",%d,%d", -1 - e->cell, 2 * (e->cut ?
				    why(t, sh, R_NO_ROUTE, "not on this sheet: "
				    "its graph was cut") : why(t, sh, e->why,
				    e->rule)) + fl);
		}
	}
	sh->nsteps += g->nnode + g->nedge;
	puts_(t, b, "]");
	if (sh->cut || g->cut)
		puts_(t, b, ",\"cut\":true");
	sh->open = true;
	sh->firstw = true;
	sh->wopen = false;
}

int
sheet_why(struct arb_turn *t, struct sheet *sh, enum reason r,
    const char *rule)
{
	return why(t, sh, r, rule != NULL && *rule != '\0' ? rule : NULL);
}

void
sheet_targets(struct arb_turn *t, struct sheet *sh, int k, const int *code)
{
	struct sbuf	*b = &sh->groups;
	int		 c, run = 0, cur = -1, first = 1;

	/* Runs over the cells in the board's order: 0 where the order may
	 * name the cell, else 1 + the index of why not; and how many. */
	puts_(t, b, ",\"k_");
	puts_(t, b, t->rs->order_kinds[k].key);
	puts_(t, b, "\":[");
	for (c = 0; c <= t->board.ncells; c++) {
		int	 x = c == t->board.ncells ? -2 : code[c];

		if (x == cur) {
			run++;
			continue;
		}
		if (run > 0) {
			putf(t, b, "%s%d,%d", first ? "" : ",", cur, run);
			first = 0;
		}
		cur = x;
		run = 1;
	}
	puts_(t, b, "]");
	sh->nsteps += 1;
}

void
sheet_refused(struct arb_turn *t, struct sheet *sh, int cell,
    const char *rule, const char *why)
{
	struct sbuf	*b = &sh->groups;

	if (!sh->wopen) {
		puts_(t, b, ",\"w\":[");
		sh->wopen = true;
	}

	putf(t, b, "%s[%d,", sh->firstw ? "" : ",", cell);
	jstr(t, b, t_printf(t, "%s (%s)", why, rule));
	puts_(t, b, "]");
	sh->firstw = false;
}

static void
lines(FILE *fp, const char *const *v)
{
	for (; *v != NULL; v++)
		fputs(*v, fp);
}

/* The data: everything the script knows of the game. */
static void
data(struct arb_turn *t, struct sheet *sh, struct sbuf *b)
{
	const struct okind *ok;
	const char	*count = NULL;
	char		 buf[32];
	size_t		 i;
	int		 c, k;

	close_group(t, sh);
	puts_(t, b, "{\"ruleset\":");
	jstr(t, b, t->rs->name);
	puts_(t, b, ",\"player\":");
	jstr(t, b, t->players.v[sh->player].name);
	putf(t, b, ",\"turn\":%d,\"hash\":", t->number);
	jstr(t, b, sh->hash);
	puts_(t, b, ",\"kinds\":[");
	for (ok = t->rs->order_kinds, k = 0; ok[k].key != NULL; k++) {
		putf(t, b, "%s[", k > 0 ? "," : "");
		jstr(t, b, ok[k].key);
		puts_(t, b, ok[k].arg == OK_PATH ? ",\"path\"" :
		    ok[k].arg == OK_CELL ? ",\"cell\"" : ",\"rule\"");
		/* What an order of it costs of the pool (the player's
		 * first resource), which the page takes off for the
		 * orders after it. */
		if (ok[k].arg == OK_CELL && ok[k].price > 0 && sh->pool == 0)
			putf(t, b, ",%d", ok[k].price);
		else if (ok[k].arg == OK_CELL && t->rs->cell_test != NULL)
			puts_(t, b, ",0");
		/* Tested from where the unit stands (rules.h, cell_test):
		 * after a move of the unit, the test says nothing. */
		if (ok[k].arg == OK_CELL && t->rs->cell_test != NULL)
			puts_(t, b, ",1");
		puts_(t, b, "]");
		if (ok[k].count != NULL)
			count = ok[k].count;
	}
	puts_(t, b, "],\"count\":");
	if (count != NULL)
		jstr(t, b, count);
	else
		puts_(t, b, "null");
	puts_(t, b, ",\"walks\":");
	puts_(t, b, t->rs->walk_step != NULL ? "true" : "false");
	puts_(t, b, ",\"pool\":");
	if (sh->pool >= 0) {
		jstr(t, b, t->rs->player_res[sh->pool]);
		putf(t, b, ",\"poolv\":%ld",
		    t->players.v[sh->player].res[sh->pool]);
	} else
		puts_(t, b, "null");
	puts_(t, b, ",\n\"why\":[");
	for (k = 0; k < sh->nwhy; k++) {
		if (k > 0)
			puts_(t, b, ",");
		jstr(t, b, sh->why[k]);
	}
	puts_(t, b, "]");
	if (t->board.kind == BOARD_HEX)
		putf(t, b, ",\"cols\":%d,\"odd\":%d", t->board.cols,
		    t->board.odd_low ? 1 : 0);
	if (t->board.kind == BOARD_TABLE) {
		/* A step's distance: more than the first, at most the
		 * second. */
		putf(t, b, ",\"stepd\":[%g,%g]", MAN_STEP_MIN, MAN_STEP_MAX);
		/* The terrain pieces, which an order may snap to. */
		puts_(t, b, ",\"pieces\":[");
		for (i = 0; i < t->board.pieces.n; i++) {
			if (i > 0)
				puts_(t, b, ",");
			jstr(t, b, t->board.pieces.v[i].id);
		}
		puts_(t, b, "]");
	}
	puts_(t, b, ",\n\"labels\":[");
	for (c = 0; c < t->board.ncells; c++) {
		if (c > 0)
			puts_(t, b, ",");
		jstr(t, b, board_label(&t->board, c, buf));
	}
	/* The player's units: id, cell (-1: none, on a table), group. */
	puts_(t, b, "],\n\"units\":[");
	for (i = 0, k = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];

		if (u->player != sh->player || u->gone || u->left)
			continue;
		putf(t, b, "%s[", k++ > 0 ? "," : "");
		jstr(t, b, u->id);
		putf(t, b, ",%d,%d", t->board.kind == BOARD_TABLE ? -1 :
		    u->at, sh->group[i]);
		/* On a table: its movement points, and the prices of its
		 * maneuvers (rules.h, man_prices). */
		if (t->rs->man_prices != NULL) {
			int	 pr[8], j;

			putf(t, b, ",%ld,[", t->rs->man_prices(t, (int)i, pr));
			for (j = 0; j < 8; j++)
				putf(t, b, "%s%d", j > 0 ? "," : "", pr[j]);
			puts_(t, b, "]");
		}
		puts_(t, b, "]");
	}
	puts_(t, b, "],\n\"groups\":[\n");
	if (sh->groups.n > 0)
		put(t, b, sh->groups.p, sh->groups.n);
	puts_(t, b, "]}");
}

void
sheet_write(struct arb_turn *t, struct sheet *sh, const char *svg,
    size_t svglen, FILE *fp)
{
	struct sbuf	 b;
	const char	*s = svg, *end = svg + svglen, *p;

	memset(&b, 0, sizeof(b));
	data(t, sh, &b);
	/* The picture without its XML declaration: inline in HTML. */
	if (svglen >= 5 && memcmp(s, "<?xml", 5) == 0 &&
	    (p = memchr(s, '\n', svglen)) != NULL)
		s = p + 1;
	lines(fp, sheet_head);
	fprintf(fp, "<title>%s: ", t->rs->name);
	for (p = t->players.v[sh->player].name; *p != '\0'; p++)
		if (*p == '<')
			fputs("&lt;", fp);
		else if (*p == '&')
			fputs("&amp;", fp);
		else
			fputc(*p, fp);
	fprintf(fp, "'s orders, turn %d</title>\n", t->number);
	lines(fp, sheet_body);
	fwrite(s, 1, (size_t)(end - s), fp);
	lines(fp, sheet_panel);
	fputs("<script type=\"application/json\" id=\"sheet-data\">", fp);
	fwrite(b.p, 1, b.n, fp);
	fputs("</script>\n", fp);
	lines(fp, sheet_script);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
}
