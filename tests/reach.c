/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The property test of reach (issue 15), in process through the library.
 * On random small boards of each rule system with walk hooks (the table
 * systems[] below), for a random unit:
 *
 *  1. every cell arb_turn_reach() reports, ordered as its reported path,
 *     is done, at exactly the reported cost, when the turn is adjudicated;
 *     and an order that gives only "to" that cell takes the same path;
 *  2. every path within the unit's range (all steps to a neighbour, or
 *     any cell the rule system's walk_next may offer: every portal), each
 *     adjudicated as a real turn, is either not done, or ends in a
 *     reported cell at a cost no lower than reported; and the reported
 *     path is the first of the done paths to its cell by the tie-break
 *     (cost, steps, then the cells read back from the end in board
 *     order), so no cheaper path and no unreported cell exists;
 *  3. the reach document is the same bytes whether the search looks the
 *     cells up ahead on a second thread or not (rules.h, walk_look):
 *     the trials take turns to run their searches, "to" orders
 *     included, without the second thread, with it at once, and with
 *     its answers alone (it looks up all it would first); each writes
 *     the document the three ways.
 *
 * A rule system joins by adding a line to systems[]: a generator that
 * writes a map (and names the unit, the player and the longest path
 * worth enumerating), and how a done order's cost is read.
 *
 *	tests/reach [trials] [seed] [system]
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

#define MAXPATH	8

struct gen {
	char	 map[16384];
	size_t	 len;
	char	 unit[32];	/* what --reach names */
	char	 player[16];
	char	 units[64];	/* the order's "units": [...] text, or "" */
	char	 count[32];	/* or its count member: "\"armies\": 3" */
	int	 maxsteps;	/* paths longer cannot be legal */
	long	 base;		/* a cost "-num": base less the num */
};

struct system {
	const char	*name;
	void		(*gen)(uint64_t *, struct gen *);
	const char	*cost;	/* the order's num with its cost, or NULL:
				 * the steps; "-num": g->base less the
				 * num (xconq: acp at the start less the
				 * acp left) */
};

static int passed, failed;
/* The reason of the order adjudicate() ran last. */
static enum reason last_reason;
static long ncellsrep, npaths, ndone;
static uint64_t rng;
/* REACH_AHEAD_NEVER, _ALWAYS or _FIRST: this trial's searches. */
static int ahead;

static void
fail(const char *sys, unsigned trial, const char *fmt, ...)
{
	va_list	 ap;

	failed++;
	printf("not ok - %s trial %u: ", sys, trial);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int
pick(uint64_t *r, int n)
{
	return (int)(splitmix64(r) % (uint64_t)n);
}

static void
add(struct gen *g, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	g->len += (size_t)vsnprintf(g->map + g->len, sizeof(g->map) - g->len,
	    fmt, ap);
	va_end(ap);
}

/*
 * aeonis: a board of up to 5 x 4 hexes of every terrain, portals
 * (owned or not), bridges, trade hubs, borders, roads, the events, the
 * cavalry plains rule on or off; red's group of one or two units (a
 * flyer among the types) against blue's units.
 */
static bool pairs;	/* gen_aeonis_pairs() */

static void
gen_aeonis(uint64_t *r, struct gen *g)
{
	static const char terr[] = "....ffmdlcr", flat[] = ".....f";
	static const char *const types[] = {
		"infantry", "cavalry", "cavalry", "archers", "lord", "caravan",
		"wyvern", "camel"
	};
	int	 cols = 3 + pick(r, 3), rows = 3 + pick(r, 2), c, k, n;
	int	 at, nu, first = 1;
	char	 grid[8][8];

	if (pairs) {	/* smaller, for paths of four steps */
		cols = 3;
		rows = 2 + pick(r, 2);
	}
	at = pick(r, cols * rows);
	g->len = 0;
	add(g, "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1, "
	    "\"seed\": 1, \"board\": {\"grid\": \"hex\", \"cols\": %d, "
	    "\"rows\": %d, \"default\": \"plains\", \"legend\": {\".\": "
	    "\"plains\", \"f\": \"forest\", \"m\": \"mountain\", \"d\": "
	    "\"desert\", \"l\": \"lake\", \"c\": \"city\", \"r\": \"ruins\"}, "
	    "\"terrain\": [", cols, rows);
	for (k = 0; k < rows; k++) {
		for (c = 0; c < cols; c++)
			grid[k][c] = pairs ? flat[pick(r, (int)sizeof(flat) -
			    1)] : terr[pick(r, (int)sizeof(terr) - 1)];
		grid[k][cols] = '\0';
	}
	grid[at / cols][at % cols] = '.';
	for (k = 0; k < rows; k++)
		add(g, "%s\"%s\"", k ? ", " : "", grid[k]);
	add(g, "]}, \"cells\": {");
	for (c = 0; c < cols * rows; c++) {
		const char *f[3];
		int	 nf = 0, own = pick(r, 8);

		if (pick(r, 5) == 0)
			f[nf++] = "portal";
		if (grid[c / cols][c % cols] == 'l' && pick(r, 2) == 0)
			f[nf++] = "bridge";
		if (pick(r, pairs ? 3 : 12) == 0)
			f[nf++] = "trade_hub";
		if (nf == 0 && own > 1)
			continue;
		add(g, "%s\"%02d%02d\": {", first ? "" : ", ", c % cols + 1,
		    c / cols + 1);
		first = 0;
		if (own <= 1)
			add(g, "\"owner\": \"%s\"%s", own ? "blue" : "red",
			    nf ? ", " : "");
		if (nf > 0) {
			add(g, "\"features\": [");
			for (k = 0; k < nf; k++)
				add(g, "%s\"%s\"", k ? ", " : "", f[k]);
			add(g, "]");
		}
		add(g, "}");
	}
	add(g, "}, \"players\": {\"red\": {\"ap\": %d%s}, \"blue\": "
	    "{\"ap\": 3}}, \"turn_order\": [\"red\", \"blue\"], ",
	    pick(r, 9), pick(r, 4) == 0 ? ", \"treaties\": [\"blue\"]" : "");
	/* A camel is cavalry and trade: its plains pairs next to trade
	 * hubs cost by the hex. */
	add(g, "\"types\": {\"wyvern\": {\"range\": 3, \"flying\": true, "
	    "\"military\": true}, \"camel\": {\"range\": 3, \"cavalry\": "
	    "true, \"trade\": true}}, ");
	if (pairs)
		add(g, "\"rules\": {\"cavalry_plains\": true}, ");
	else if (pick(r, 2) == 0)
		add(g, "\"rules\": {\"cavalry_plains\": %s}, ", pick(r, 2) ?
		    "true" : "false");
	n = pairs ? 1 : pick(r, 4);	/* pairs: winter's grip, so that
					 * a hub changes a plains hex's cost */
	add(g, "\"events\": [%s%s%s], ", n & 1 ? "\"winters_grip\"" : "",
	    n == 3 ? ", " : "", n & 2 ? "\"festival_of_winds\"" : "");
	add(g, "\"motions\": [");
	first = 1;
	if (pick(r, 2)) {
		add(g, "{\"kind\": \"road_networks\"}");
		first = 0;
	}
	if (pick(r, 3) == 0) {
		c = pick(r, cols * rows);
		add(g, "%s{\"kind\": \"borders\", \"cells\": [\"%02d%02d\"]%s}",
		    first ? "" : ", ", c % cols + 1, c / cols + 1,
		    pick(r, 2) ? ", \"players\": [\"red\"]" : "");
	}
	add(g, "], \"units\": [");
	nu = 1 + pick(r, 2);
	g->units[0] = '\0';
	for (k = 0; k < nu; k++) {
		add(g, "%s{\"id\": \"r%d\", \"player\": \"red\", \"type\": "
		    "\"%s\", \"at\": \"%02d%02d\"%s}", k ? ", " : "", k,
		    pairs ? types[pick(r, 2) ? 7 : 1] : types[pick(r, 8)],
		    at % cols + 1, at / cols + 1,
		    pick(r, 3) == 0 ? ", \"range\": 3" : "");
		snprintf(g->units + strlen(g->units), sizeof(g->units) -
		    strlen(g->units), "%s\"r%d\"", k ? ", " : "", k);
	}
	n = pick(r, 4);
	for (k = 0; k < n; k++) {
		c = pick(r, cols * rows);
		if (c == at)
			continue;
		add(g, ", {\"id\": \"b%d\", \"player\": \"blue\", \"type\": "
		    "\"%s\", \"at\": \"%02d%02d\"}", k, types[pick(r, 6)],
		    c % cols + 1, c / cols + 1);
	}
	add(g, "]}");
	snprintf(g->unit, sizeof(g->unit), "r0");
	snprintf(g->player, sizeof(g->player), "red");
	g->count[0] = '\0';
	g->maxsteps = pairs ? 4 : 3;	/* a pair, then a run of two */
}

/*
 * territory: a random graph of 5 to 7 territories, owned by red, blue or
 * no one, with armies and watchtowers; red moves from one of its own.
 */
static void
gen_territory(uint64_t *r, struct gen *g)
{
	static const char *const names[] = { "A", "B", "C", "D", "E", "F",
	    "G" };
	int	 n = 5 + pick(r, 3), i, k, first = 1, from = pick(r, n);

	g->len = 0;
	add(g, "{\"arbiter\": 1, \"ruleset\": \"territory\", \"turn\": 1, "
	    "\"board\": {\"grid\": \"graph\", \"territories\": [");
	for (i = 0; i < n; i++)
		add(g, "%s\"%s\"", i ? ", " : "", names[i]);
	add(g, "], \"edges\": [");
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (k == i + 1 || pick(r, 4) == 0) {
				add(g, "%s[\"%s\", \"%s\"]", first ? "" : ", ",
				    names[i], names[k]);
				first = 0;
			}
	add(g, "]}, \"cells\": {");
	for (i = 0; i < n; i++) {
		int	 own = i == from ? 0 : pick(r, 3);

		add(g, "%s\"%s\": {", i ? ", " : "", names[i]);
		if (own < 2)
			add(g, "\"owner\": \"%s\", \"armies\": %d",
			    own ? "blue" : "red", 1 + pick(r, 4));
		if (pick(r, 4) == 0)
			add(g, "%s\"features\": [\"watchtower\"]", own < 2 ?
			    ", " : "");
		add(g, "}");
	}
	add(g, "}, \"players\": {\"red\": {}, \"blue\": {}}}");
	snprintf(g->unit, sizeof(g->unit), "%s", names[from]);
	snprintf(g->player, sizeof(g->player), "red");
	g->units[0] = '\0';
	snprintf(g->count, sizeof(g->count), "\"armies\": 1");
	g->maxsteps = 2;
}

/* A random chain of 2 to 4 cells, each the next one's neighbour (one
 * column right in the same row, or one row down: always neighbours on a
 * hex board), as JSON labels. */
static void
chain(uint64_t *r, struct gen *g, int cols, int rows)
{
	int	 c = pick(r, cols - 1), w = pick(r, rows - 1), n = 2 + pick(r, 3);
	int	 k;

	for (k = 0; k < n; k++) {
		add(g, "%s\"%02d%02d\"", k ? ", " : "", c + 1, w + 1);
		if (pick(r, 2) && c + 1 < cols)
			c++;
		else if (w + 1 < rows)
			w++;
		else if (c + 1 < cols)
			c++;
		else
			break;
	}
}

/*
 * morne-plaine: a board of up to 5 x 4 hexes of every terrain (marsh
 * rarely), hexsides of every feature, roads and a track that cross,
 * french's unit of any class against allied units, demoralised or not,
 * and sometimes a french unit in the way.
 */
static void
gen_morne(uint64_t *r, struct gen *g)
{
	static const char terr[] = ".....rcowvm";
	static const char *const feats[] = {
		"stream", "ford", "river", "major_river", "bridge", "slope",
		"double_slope", "triple_slope"
	};
	static const char *const cls[] = {
		"leader", "infantry", "cavalry", "cavalry", "artillery"
	};
	int	 cols = 3 + pick(r, 3), rows = 3 + pick(r, 2), c, k, n, a;
	int	 at = pick(r, cols * rows), used[32], nused = 0;
	char	 grid[8][8];

	g->len = 0;
	add(g, "{\"arbiter\": 1, \"ruleset\": \"morne-plaine\", \"turn\": 1, "
	    "\"seed\": %d, \"board\": {\"grid\": \"hex\", \"cols\": %d, "
	    "\"rows\": %d, \"default\": \"clear\", \"legend\": {\".\": "
	    "\"clear\", \"r\": \"rough\", \"c\": \"coppice\", \"o\": "
	    "\"orchards\", \"w\": \"woods\", \"v\": \"village\", \"m\": "
	    "\"marsh\"}, \"terrain\": [", 1 + pick(r, 100), cols, rows);
	for (k = 0; k < rows; k++) {
		for (c = 0; c < cols; c++)
			grid[k][c] = terr[pick(r, (int)sizeof(terr) - 1)];
		grid[k][cols] = '\0';
	}
	for (k = 0; k < rows; k++)
		add(g, "%s\"%s\"", k ? ", " : "", grid[k]);
	add(g, "]}, \"hexsides\": [");
	n = pick(r, 5);
	for (k = 0; k < n; k++) {
		c = pick(r, cols * rows);
		if (pick(r, 2) && c % cols + 1 < cols)
			a = c + 1;
		else if (c / cols + 1 < rows)
			a = c + cols;
		else
			a = c - cols;
		add(g, "%s{\"cells\": [\"%02d%02d\", \"%02d%02d\"], "
		    "\"feature\": \"%s\"}", k ? ", " : "", c % cols + 1,
		    c / cols + 1, a % cols + 1, a / cols + 1,
		    feats[pick(r, 8)]);
	}
	add(g, "], \"connections\": [");
	n = 1 + pick(r, 3);
	for (k = 0; k < n; k++) {
		add(g, "%s{\"kind\": \"%s\", \"cells\": [", k ? ", " : "",
		    k == 2 ? "track" : "road");
		chain(r, g, cols, rows);
		add(g, "]}");
	}
	add(g, "], \"players\": {\"french\": {}, \"allies\": {}}, "
	    "\"turn_order\": [\"french\", \"allies\"], \"units\": [");
	add(g, "{\"id\": \"u\", \"player\": \"french\", \"type\": \"%s\", "
	    "\"at\": \"%02d%02d\", \"strength\": 3, \"ma\": %d, \"mv\": 3}",
	    cls[pick(r, 5)], at % cols + 1, at / cols + 1, 1 + pick(r, 6));
	used[nused++] = at;
	n = pick(r, 5);
	for (k = 0; k < n; k++) {
		int	 j;

		c = pick(r, cols * rows);
		for (j = 0; j < nused && used[j] != c; j++)
			continue;
		if (j < nused)
			continue;
		used[nused++] = c;
		add(g, ", {\"id\": \"e%d\", \"player\": \"%s\", \"type\": "
		    "\"%s\", \"at\": \"%02d%02d\", \"strength\": 3, \"ma\": "
		    "3, \"mv\": %d}", k, k == 3 ? "french" : "allies",
		    cls[pick(r, 5)], c % cols + 1, c / cols + 1,
		    pick(r, 4) == 0 ? 0 : 4);
	}
	add(g, "]}");
	snprintf(g->unit, sizeof(g->unit), "u");
	snprintf(g->player, sizeof(g->player), "french");
	snprintf(g->units, sizeof(g->units), "\"u\"");
	g->count[0] = '\0';
	g->maxsteps = 3;
}

/*
 * xconq: a board of up to 5 x 4 cells of plains, forest, hills and sea
 * (where red cannot exist), rivers on some cell sides (borders, some
 * slid along), roads (connections), a unit type of random speed,
 * acp-to-move, move-range, free-mp and acp-min, sometimes fuel it
 * consumes, against blue tanks whose zones have random extras.
 */
static void
gen_xconq(uint64_t *r, struct gen *g)
{
	static const char terr[] = "....fhs";
	static const int speeds[] = { 100, 100, 50, 70, 150 };
	int	 cols = 3 + pick(r, 3), rows = 3 + pick(r, 2), c, k, n, a;
	int	 at = pick(r, cols * rows), acp = 1 + pick(r, 6);
	int	 range = pick(r, 4) == 0 ? 2 : 1, fuel = pick(r, 3) == 0;
	char	 grid[8][8];

	g->len = 0;
	add(g, "{\"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1, "
	    "\"seed\": 1, \"board\": {\"grid\": \"hex\", \"cols\": %d, "
	    "\"rows\": %d, \"default\": \"plains\", \"legend\": {\".\": "
	    "\"plains\", \"f\": \"forest\", \"h\": \"hills\", \"s\": "
	    "\"sea\"}, \"terrain\": [", cols, rows);
	for (k = 0; k < rows; k++) {
		for (c = 0; c < cols; c++)
			grid[k][c] = terr[pick(r, (int)sizeof(terr) - 1)];
		grid[k][cols] = '\0';
	}
	grid[at / cols][at % cols] = '.';
	for (k = 0; k < rows; k++)
		add(g, "%s\"%s\"", k ? ", " : "", grid[k]);
	add(g, "]}, \"terrain-types\": {\"plains\": \"cell\", \"forest\": "
	    "\"cell\", \"hills\": \"cell\", \"sea\": \"cell\", \"river\": "
	    "\"border\", \"road\": \"connection\"}, \"materials\": "
	    "[\"fuel\"], \"unit-types\": {\"infantry\": {\"speed\": %d, "
	    "\"acp-to-move\": %d, \"move-range\": %d, \"free-mp\": %d, "
	    "\"acp-min\": %d}, \"tank\": {}}, \"tables\": {",
	    speeds[pick(r, 5)], pick(r, 3), range, pick(r, 3),
	    pick(r, 4) == 0 ? -2 : 0);
	add(g, "\"mp-to-enter-terrain\": {\"infantry\": {\"forest\": 2, "
	    "\"hills\": %d, \"river\": %d, \"road\": 0}}, "
	    "\"mp-to-leave-terrain\": {\"infantry\": {\"hills\": %d, "
	    "\"road\": 0}}, \"mp-to-traverse\": {\"infantry\": {\"river\": "
	    "%d, \"road\": %d}}, \"altitude-min\": {\"infantry\": {\"sea\": "
	    "1}}, \"zoc-range\": {\"tank\": {\"infantry\": %d}}, "
	    "\"mp-to-enter-zoc\": {\"infantry\": {\"tank\": %d}}, "
	    "\"mp-to-leave-zoc\": {\"infantry\": {\"tank\": %d}}, "
	    "\"mp-to-traverse-zoc\": {\"infantry\": {\"tank\": %d}}",
	    1 + pick(r, 3), 1 + pick(r, 3), pick(r, 2), pick(r, 6) - 1,
	    pick(r, 2), pick(r, 3) - 1, pick(r, 5) - 1, pick(r, 3),
	    pick(r, 4) - 1);
	if (fuel)
		add(g, ", \"consumption-per-move\": {\"infantry\": {\"fuel\": "
		    "1}}");
	add(g, "}, \"hexsides\": [");
	n = pick(r, 4);
	for (k = 0; k < n; k++) {
		c = pick(r, cols * rows);
		if (pick(r, 2) && c % cols + 1 < cols)
			a = c + 1;
		else if (c / cols + 1 < rows)
			a = c + cols;
		else
			a = c - cols;
		add(g, "%s{\"cells\": [\"%02d%02d\", \"%02d%02d\"], "
		    "\"feature\": \"river\"}", k ? ", " : "", c % cols + 1,
		    c / cols + 1, a % cols + 1, a / cols + 1);
	}
	add(g, "], \"connections\": [");
	n = pick(r, 3);
	for (k = 0; k < n; k++) {
		add(g, "%s{\"kind\": \"road\", \"cells\": [", k ? ", " : "");
		chain(r, g, cols, rows);
		add(g, "]}");
	}
	add(g, "], \"players\": {\"red\": {}, \"blue\": {}}, "
	    "\"turn_order\": [\"red\", \"blue\"], \"units\": [");
	add(g, "{\"id\": \"r1\", \"player\": \"red\", \"type\": \"infantry\", "
	    "\"at\": \"%02d%02d\", \"acp\": %d", at % cols + 1, at / cols + 1,
	    acp);
	if (fuel)
		add(g, ", \"supplies\": {\"fuel\": %d}", pick(r, 4));
	add(g, "}");
	n = pick(r, 3);
	for (k = 0; k < n; k++) {
		c = pick(r, cols * rows);
		add(g, ", {\"id\": \"b%d\", \"player\": \"blue\", \"type\": "
		    "\"tank\", \"at\": \"%02d%02d\", \"acp\": 1}", k,
		    c % cols + 1, c / cols + 1);
	}
	add(g, "]}");
	snprintf(g->unit, sizeof(g->unit), "r1");
	snprintf(g->player, sizeof(g->player), "red");
	snprintf(g->units, sizeof(g->units), "\"r1\"");
	g->count[0] = '\0';
	g->base = acp;
	g->maxsteps = range > 1 || strstr(g->map, "\"river\"}") != NULL ? 2 : 3;
}

/* aeonis again: cavalry (or camels, cavalry and trade) pairing their
 * plains hexes on a board of plains, in winter, next to trade hubs. */
static void
gen_aeonis_pairs(uint64_t *r, struct gen *g)
{
	pairs = true;
	gen_aeonis(r, g);
	pairs = false;
}

static const struct system systems[] = {
	{ "aeonis", gen_aeonis, "cost" },
	{ "aeonis-pairs", gen_aeonis_pairs, "cost" },
	{ "territory", gen_territory, NULL },
	{ "morne-plaine", gen_morne, "cost" },
	{ "xconq", gen_xconq, "-acp_left" },
	{ NULL, NULL, NULL }
};

/* One turn: the map and one order for the player; the order's status and
 * cost (or -1), and its path into path[] (when not NULL). */
static int
adjudicate(const struct system *s, const struct gen *g, const char *how,
    long *cost, int *path, int *npath)
{
	struct arb_error e;
	struct arb_turn	*t = arb_turn_new();
	char		 orders[1024];
	struct order	*o;
	int		 st = -1, i;
	size_t		 k;

	snprintf(orders, sizeof(orders), "{\"arbiter\": 1, \"player\": "
	    "\"%s\", \"turn\": 1, \"orders\": [{\"id\": \"o\", %s%s%s, %s}]}",
	    g->player, g->units[0] ? "\"units\": [" : g->count, g->units,
	    g->units[0] ? "]" : "", how);
	reach_ahead(t, ahead);
	if (arb_turn_load_map(t, "map", g->map, g->len, &e) != 0 ||
	    arb_turn_load_orders(t, "orders", g->player, orders,
	    strlen(orders), &e) != 0 || arb_turn_run(t, 0, &e) != 0) {
		printf("# %s: %s at %s\n# %s\n# %s\n", s->name, e.text,
		    e.pointer, g->map, orders);
		arb_turn_free(t);
		return -2;
	}
	o = &t->orders.v[0];
	st = o->status;
	*cost = -1;
	if (st == OS_DONE && s->cost == NULL)
		*cost = o->ncells - 1;
	last_reason = o->reason;
	for (k = 0; st == OS_DONE && s->cost != NULL && k < o->nums.n; k++)
		if (s->cost[0] == '-' && strcmp(o->nums.v[k].key, s->cost +
		    1) == 0)
			*cost = g->base - o->nums.v[k].val;
		else if (strcmp(o->nums.v[k].key, s->cost) == 0)
			*cost = o->nums.v[k].val;
	if (path != NULL) {
		*npath = o->ncells;
		for (i = 0; i < o->ncells && i < MAXPATH + 1; i++)
			path[i] = o->cells[i];
	}
	arb_turn_free(t);
	return st;
}

/* The tie-break: is path a (na cells, cost ca) before b? */
static bool
before(const int *a, int na, long ca, const int *b, int nb, long cb)
{
	int	 i;

	if (ca != cb)
		return ca < cb;
	if (na != nb)
		return na < nb;
	for (i = na - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i];
	return false;
}

/* The reach document of g's unit, its searches looking ahead or not;
 * malloc'ed, or NULL. */
static char *
reach_doc(const struct gen *g, int mode, size_t *len)
{
	struct arb_error e;
	struct arb_turn	*t = arb_turn_new();
	char		*buf = NULL;
	FILE		*fp = open_memstream(&buf, len);
	int		 rc;

	reach_ahead(t, mode);
	rc = fp == NULL || arb_turn_load_map(t, "map", g->map, g->len,
	    &e) != 0 || arb_turn_reach(t, g->unit, NULL, 0, &e) != 0 ||
	    arb_turn_write_reach(t, 0, fp, &e) != 0;
	if (fp != NULL)
		fclose(fp);
	arb_turn_free(t);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct best {
	long	 cost;
	int	 path[MAXPATH + 1], n;
};

static void
trial(const struct system *s, unsigned n)
{
	struct gen	 g;
	struct arb_error e;
	struct arb_turn	*t = arb_turn_new();
	struct reach_query *q;
	struct best	*best;
	const struct board *b;
	int		 i, k, path[MAXPATH + 1], idx[MAXPATH + 1], ncells;
	int		 got[MAXPATH + 1], ngot, d;
	long		 cost;
	char		 how[512], lbl[32];
	bool		 bad = false;
	unsigned char	*start;
	struct wstep	 over;

	s->gen(&rng, &g);
	ahead = n % 3 == 0 ? REACH_AHEAD_NEVER : n % 3 == 1 ?
	    REACH_AHEAD_ALWAYS : REACH_AHEAD_FIRST;
	reach_ahead(t, ahead);
	if (arb_turn_load_map(t, "map", g.map, g.len, &e) != 0 ||
	    arb_turn_reach(t, g.unit, NULL, 0, &e) != 0) {
		fail(s->name, n, "reach: %s at %s\n# %s", e.text, e.pointer,
		    g.map);
		arb_turn_free(t);
		return;
	}
	q = t->reachq;
	b = &t->board;
	ncells = b->ncells;
	best = calloc((size_t)ncells, sizeof(*best));
	for (i = 0; i < ncells; i++)
		best[i].cost = -1;
	/* 1. Each reported cell: its path done at its cost; "to" finds it. */
	for (i = 0; i < q->r.n && !bad; i++) {
		const struct reach_cell *rc = &q->r.v[i];
		int	 p[MAXPATH + 1];
		size_t	 len;

		p[0] = q->o.cells[0];
		reach_path(t, rc->label, p);
		len = (size_t)snprintf(how, sizeof(how), "\"move\": [");
		for (k = 0; k <= rc->steps; k++)
			len += (size_t)snprintf(how + len, sizeof(how) - len,
			    "%s\"%s\"", k ? ", " : "", board_label(b, p[k], lbl));
		snprintf(how + len, sizeof(how) - len, "]");
		k = adjudicate(s, &g, how, &cost, NULL, NULL);
		/* A tested step may go the other way on the map's dice (a
		 * unit stuck in a marsh short of the end). */
		if (rc->tested && k == OS_FAILED && last_reason == R_STUCK)
			cost = rc->cost, k = OS_DONE;
		if (k != OS_DONE || cost != rc->cost) {
			fail(s->name, n, "%s reported at cost %ld: %s is not "
			    "done at that cost (%ld)\n# %s", board_label(b,
			    rc->cell, lbl), rc->cost, how, cost, g.map);
			bad = true;
			break;
		}
		snprintf(how, sizeof(how), "%s\"to\": \"%s\"", g.count[0] ?
		    "\"from\": \"" : "", board_label(b, rc->cell, lbl));
		if (g.count[0]) {
			char	 from[64];

			snprintf(from, sizeof(from), "\"from\": \"%s\", ",
			    board_label(b, q->o.cells[0], lbl));
			snprintf(how, sizeof(how), "%s\"to\": \"%s\"", from,
			    board_label(b, rc->cell, lbl));
		}
		k = adjudicate(s, &g, how, &cost, got, &ngot);
		if (rc->tested && k == OS_FAILED && last_reason == R_STUCK)
			cost = rc->cost, k = OS_DONE;
		if (k != OS_DONE || cost != rc->cost || ngot != rc->steps + 1 ||
		    memcmp(got, p, (size_t)ngot * sizeof(int)) != 0) {
			fail(s->name, n, "%s: \"to\" does not take the "
			    "reported path at cost %ld (got %ld)\n# %s",
			    board_label(b, rc->cell, lbl), rc->cost, cost,
			    g.map);
			bad = true;
		}
		ncellsrep++;
		best[rc->cell].cost = rc->cost;
		best[rc->cell].n = rc->steps + 1;
		memcpy(best[rc->cell].path, p, (size_t)(rc->steps + 1) *
		    sizeof(int));
	}
	/* 2. Every path of up to maxsteps steps to a neighbour or a cell
	 * walk_next offers, depth first. */
	start = calloc(1, t->rs->walk_size + 1);
	(void)t->rs->walk_begin(t, &q->o, start, &over);
	path[0] = q->o.cells[0];
	idx[1] = 0;
	d = 1;
	while (!bad && d >= 1) {
		int	 next[256], nn;

		nn = t->rs->walk_next(t, &q->o, start, path[d - 1], next,
		    256);
		nn = nn > 256 ? 256 : nn;
		if (idx[d] >= nn) {
			d--;
			if (d >= 1)
				idx[d]++;
			continue;
		}
		path[d] = next[idx[d]];
		{
			size_t	 len = (size_t)snprintf(how, sizeof(how),
			    "\"move\": [");
			int	 c = path[d], st;

			for (k = 0; k <= d; k++)
				len += (size_t)snprintf(how + len,
				    sizeof(how) - len, "%s\"%s\"", k ? ", " :
				    "", board_label(b, path[k], lbl));
			snprintf(how + len, sizeof(how) - len, "]");
			st = adjudicate(s, &g, how, &cost, NULL, NULL);
			npaths++;
			/* Done short of its end: a zone of control cut it
			 * (morne-plaine); its part up to there is a path of
			 * its own. */
			if (st == OS_DONE && last_reason == R_ZOC_STOP)
				st = OS_FAILED;
			ndone += st == OS_DONE;
			if (st == OS_DONE && c != path[0] && (best[c].cost < 0 ||
			    before(path, d + 1, cost, best[c].path, best[c].n,
			    best[c].cost))) {
				fail(s->name, n, "%s is done at cost %ld, "
				    "before what reach reports (%ld)\n# %s",
				    how, cost, best[c].cost, g.map);
				bad = true;
			}
		}
		if (d < g.maxsteps) {
			d++;
			idx[d] = 0;
		} else
			idx[d]++;
	}
	/* 3. The same bytes with and without the second thread. */
	if (!bad) {
		char	*a, *f, *o;
		size_t	 na, nf, no;

		a = reach_doc(&g, REACH_AHEAD_ALWAYS, &na);
		f = reach_doc(&g, REACH_AHEAD_FIRST, &nf);
		o = reach_doc(&g, REACH_AHEAD_NEVER, &no);
		if (a == NULL || f == NULL || o == NULL || na != no ||
		    nf != no || memcmp(a, o, no) != 0 ||
		    memcmp(f, o, no) != 0) {
			fail(s->name, n, "the reach document differs with "
			    "the cells looked up ahead\n# %s", g.map);
			bad = true;
		}
		free(a);
		free(f);
		free(o);
	}
	if (!bad)
		passed++;
	free(start);
	free(best);
	arb_turn_free(t);
}

int
main(int argc, char **argv)
{
	unsigned	 trials = argc > 1 ? (unsigned)atoi(argv[1]) : 150, n;
	const struct system *s;

	rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 15;
	for (s = systems; s->name != NULL; s++)
		for (n = 0; n < trials; n++)
			if (argc <= 3 || strcmp(argv[3], s->name) == 0)
				trial(s, n);
	printf("# %ld cells reported, %ld paths adjudicated, %ld done\n",
	    ncellsrep, npaths, ndone);
	printf("reach: %d passed, %d failed\n", passed, failed);
	return failed > 0;
}
