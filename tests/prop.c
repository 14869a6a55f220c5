/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * prop: writes random valid turns for the property test, tests/prop.sh.
 *
 *	prop turn RULESET SEED DIR [contend]
 *					DIR/map.json and DIR/orders/P.json
 *	prop orders SEED MAP DIR	DIR/orders/P.json for the map MAP
 *
 * A map is small (a board of a few dozen hexes, territories or table
 * slots, two to four players, a few units each) and uses most of what
 * arbiter-map(5) allows for its rule system; the orders follow
 * arbiter-orders(5): they name the player's own units, cells that exist
 * and paths of adjacent cells, so that the turn is valid input, but
 * nothing else is checked, and many orders are refused: a refusal is a
 * ruling.  The same arguments always give the same files (a fixed
 * xorshift generator).  orders reads any map, so that a second turn can
 * be played on the next map the first one wrote.
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static const char *const players[] = { "red", "blue", "green", "gold" };

/* prop turn ... contend: some moves head for the hexes where the moves of
 * the players written before end (their cells and players here), and
 * morne-plaine units have fewer zones and more movement points, so that
 * a refusal names another player's order (tests/hidden.py). */
static int	 contend;
static int	 ends[256], end_player[256], nends;

static uint64_t	 state;

static void
seed(unsigned long s)
{
	state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)s * 0xbf58476d1ce4e5b9ULL);
	if (state == 0)
		state = 1;
}

/* A number from 0 to n - 1. */
static int
rnd(int n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return n > 0 ? (int)(state % (uint64_t)n) : 0;
}

static int
chance(int percent)
{
	return rnd(100) < percent;
}

static const char *
pick(const char *const *v, int n)
{
	return v[rnd(n)];
}

static json_t *
must(json_t *v)
{
	if (v == NULL) {
		fprintf(stderr, "prop: out of memory\n");
		exit(70);
	}
	return v;
}

static void
set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, must(v)) != 0)
		exit(70);
}

static void
add(json_t *a, json_t *v)
{
	if (json_array_append_new(a, must(v)) != 0)
		exit(70);
}

/* The hex board: labels and neighbours as arbiter-map(5) describes. */
struct hex {
	int	 cols, rows, width, oddlow;
};

static void
hex_init(struct hex *h, int cols, int rows, int oddlow)
{
	int	 m = cols > rows ? cols : rows;

	h->cols = cols;
	h->rows = rows;
	h->oddlow = oddlow;
	for (h->width = 0; m > 0; m /= 10)
		h->width++;
	if (h->width < 2)
		h->width = 2;
}

static json_t *
hex_label(const struct hex *h, int cell)
{
	char	 buf[32];

	snprintf(buf, sizeof(buf), "%0*d%0*d", h->width, cell % h->cols + 1,
	    h->width, cell / h->cols + 1);
	return json_string(buf);
}

/* The cell of a label, or -1. */
static int
hex_cell(const struct hex *h, const char *s)
{
	int	 c = 0, r = 0, i;

	if (s == NULL || (int)strlen(s) != 2 * h->width)
		return -1;
	for (i = 0; i < h->width; i++) {
		c = c * 10 + (s[i] - '0');
		r = r * 10 + (s[h->width + i] - '0');
	}
	if (c < 1 || c > h->cols || r < 1 || r > h->rows)
		return -1;
	return (r - 1) * h->cols + c - 1;
}

/* The neighbour of cell in direction d (0 north, clockwise), or -1. */
static int
hex_step(const struct hex *h, int cell, int d)
{
	static const int dc[6] = { 0, 1, 1, 0, -1, -1 };
	int	 c = cell % h->cols + 1, r = cell / h->cols + 1;
	int	 low = (c % 2 == 0) != h->oddlow;
	int	 up = low ? r : r - 1;
	int	 dr[6];
	int	 nc, nr;

	dr[0] = r - 1;
	dr[1] = up;
	dr[2] = up + 1;
	dr[3] = r + 1;
	dr[4] = up + 1;
	dr[5] = up;
	nc = c + dc[d];
	nr = dr[d];
	if (nc < 1 || nc > h->cols || nr < 1 || nr > h->rows)
		return -1;
	return (nr - 1) * h->cols + nc - 1;
}

/* A random neighbour of cell (there is one on boards of 2 cells or more). */
static int
hex_any_step(const struct hex *h, int cell)
{
	int	 d, n;

	for (;;) {
		d = rnd(6);
		if ((n = hex_step(h, cell, d)) >= 0)
			return n;
	}
}

static int
hex_ncells(const struct hex *h)
{
	return h->cols * h->rows;
}

static json_t *
board_hex(struct hex *h, int min, int span)
{
	json_t	*b = must(json_object());

	hex_init(h, min + rnd(span), min + rnd(span), chance(30));
	set(b, "grid", json_string("hex"));
	set(b, "cols", json_integer(h->cols));
	set(b, "rows", json_integer(h->rows));
	if (h->oddlow)
		set(b, "layout", json_string("odd-low"));
	return b;
}

/* Terrain in compact rows from the first n terrains (legend a, b, ...). */
static void
terrain_rows(json_t *b, const struct hex *h, const char *const *ter, int n,
    int percent)
{
	json_t	*legend = must(json_object()), *rows = must(json_array());
	char	 key[2] = "a", line[64];
	int	 i, c, r;

	for (i = 0; i < n; i++) {
		key[0] = (char)('a' + i);
		set(legend, key, json_string(ter[i]));
	}
	for (r = 0; r < h->rows; r++) {
		for (c = 0; c < h->cols; c++)
			line[c] = (char)('a' + (chance(percent) ?
			    rnd(n) : 0));
		line[c] = '\0';
		add(rows, json_string(line));
	}
	set(b, "legend", legend);
	set(b, "terrain", rows);
}

static json_t *
players_object(int np)
{
	json_t	*p = must(json_object());
	int	 i;

	for (i = 0; i < np; i++)
		set(p, players[i], json_object());
	return p;
}

static void
maybe_treaty(json_t *pl, int np)
{
	int	 a = rnd(np), b = rnd(np);

	if (np < 2 || a == b || !chance(30))
		return;
	set(json_object_get(pl, players[a]), "treaties",
	    json_pack("[s]", players[b]));
}

static void
maybe_turn_order(json_t *m, int np)
{
	json_t	*a;
	int	 v[4] = { 0, 1, 2, 3 }, i, j, x;

	if (!chance(50))
		return;
	for (i = np - 1; i > 0; i--) {
		j = rnd(i + 1);
		x = v[i];
		v[i] = v[j];
		v[j] = x;
	}
	a = must(json_array());
	for (i = 0; i < np; i++)
		add(a, json_string(players[v[i]]));
	set(m, "turn_order", a);
}

static json_t *
map_head(const char *ruleset)
{
	json_t	*m = must(json_object());

	set(m, "arbiter", json_integer(1));
	set(m, "ruleset", json_string(ruleset));
	set(m, "turn", json_integer(1 + rnd(9)));
	set(m, "seed", json_integer(rnd(100000)));
	return m;
}

/* A free cell for a unit: -1 after many tries. */
static int
free_cell(const struct hex *h, const int *occ, int player, int share,
    const char *const *ter, const char *avoid)
{
	int	 i, c;

	for (i = 0; i < 200; i++) {
		c = rnd(hex_ncells(h));
		if (avoid != NULL && ter[c] != NULL &&
		    strcmp(ter[c], avoid) == 0)
			continue;
		if (occ[c] < 0 || (share && occ[c] == player))
			return c;
	}
	return -1;
}

static json_t *
unit_new(const char *id, int player, const char *type, const struct hex *h,
    int cell)
{
	json_t	*u = must(json_object());

	set(u, "id", json_string(id));
	set(u, "player", json_string(players[player]));
	set(u, "type", json_string(type));
	set(u, "at", hex_label(h, cell));
	return u;
}

static json_t *
map_aeonis(void)
{
	static const char *const ter[] = {
		"plains", "forest", "mountain", "desert", "city", "ruins",
		"lake"
	};
	static const char *const feat[] = {
		"portal", "bridge", "trade_hub", "city"
	};
	static const char *const types[] = {
		"infantry", "cavalry", "archers", "lord", "caravan", "griffin"
	};
	json_t		*m = map_head("aeonis"), *b, *cells, *pl, *units, *c;
	json_t		*a;
	struct hex	 h;
	const char	*cellter[64];
	int		 occ[64], np = 2 + rnd(3), i, k, n, cell, p;
	char		 id[16];

	b = board_hex(&h, 4, 4);
	set(b, "default", json_string("plains"));
	memset(cellter, 0, sizeof(cellter));
	set(m, "board", b);
	cells = must(json_object());
	for (i = 0; i < hex_ncells(&h); i++) {
		occ[i] = -1;
		if (!chance(35))
			continue;
		c = must(json_object());
		if (chance(60)) {
			cellter[i] = pick(ter, 7);
			set(c, "terrain", json_string(cellter[i]));
		}
		if (chance(40)) {
			a = must(json_array());
			k = rnd(4);
			add(a, json_string(feat[k]));
			if (chance(20))
				add(a, json_string(feat[(k + 1) % 4]));
			set(c, "features", a);
		}
		if (chance(40))
			set(c, "owner", json_string(players[rnd(np)]));
		{
			json_t *l = hex_label(&h, i);

			set(cells, json_string_value(l), c);
			json_decref(l);
		}
	}
	set(m, "cells", cells);
	pl = players_object(np);
	for (i = 0; i < np; i++) {
		json_t *po = json_object_get(pl, players[i]);

		set(po, "ap", json_integer(rnd(13)));
		if (chance(50))
			set(po, "mana", json_integer(rnd(4)));
		if (chance(40))
			set(po, "discoveries", json_pack("[s]",
			    "translocation"));
	}
	maybe_treaty(pl, np);
	set(m, "players", pl);
	maybe_turn_order(m, np);
	if (chance(30)) {
		a = must(json_array());
		add(a, json_string(chance(50) ? "winters_grip" :
		    "festival_of_winds"));
		set(m, "events", a);
	}
	if (chance(30)) {
		a = must(json_array());
		if (chance(50))
			add(a, json_pack("{s:s}", "kind", "road_networks"));
		else {
			json_t *l = hex_label(&h, rnd(hex_ncells(&h)));

			add(a, json_pack("{s:s, s:[o], s:[s]}", "kind",
			    "borders", "cells", l, "players",
			    players[rnd(np)]));
		}
		set(m, "motions", a);
	}
	if (chance(30))
		set(m, "rules", json_pack("{s:b, s:{s:i}}", "cavalry_plains",
		    chance(50), "terrain_cost", "forest", rnd(4)));
	n = 5;
	if (chance(30)) {
		set(m, "types", json_pack("{s:{s:i, s:b, s:b}}", "griffin",
		    "range", 1 + rnd(3), "military", 1, "flying", 1));
		n = 6;
	}
	units = must(json_array());
	for (p = 0; p < np; p++)
		for (k = 0; k < 2 + rnd(3); k++) {
			cell = free_cell(&h, occ, p, 1, cellter, "lake");
			if (cell < 0)
				break;
			occ[cell] = p;
			snprintf(id, sizeof(id), "%.2s%d", players[p], k + 1);
			c = unit_new(id, p, pick(types, n), &h, cell);
			set(c, "strength", json_integer(1 + rnd(3)));
			if (chance(20))
				set(c, "range", json_integer(rnd(4)));
			if (chance(20))
				set(c, "desert_turns", json_integer(rnd(3)));
			add(units, c);
		}
	set(m, "units", units);
	return m;
}

static json_t *
map_territory(void)
{
	json_t	*m = map_head("territory"), *b, *ts, *es, *cells, *c, *a;
	int	 n = 4 + rnd(5), np = 2 + rnd(3), i, j, k, e[8][8];
	char	 name[16], other[16];

	memset(e, 0, sizeof(e));
	b = must(json_object());
	set(b, "grid", json_string("graph"));
	ts = must(json_array());
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "T%d", i + 1);
		add(ts, json_string(name));
	}
	set(b, "territories", ts);
	es = must(json_array());
	/* A tree, then a few more edges. */
	for (i = 1; i < n; i++) {
		j = rnd(i);
		e[i][j] = e[j][i] = 1;
	}
	for (k = 0; k < n / 2; k++) {
		i = rnd(n);
		j = rnd(n);
		if (i != j)
			e[i][j] = e[j][i] = 1;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (!e[i][j])
				continue;
			snprintf(name, sizeof(name), "T%d", i + 1);
			snprintf(other, sizeof(other), "T%d", j + 1);
			if (chance(50))
				add(es, json_pack("[s, s]", name, other));
			else
				add(es, json_pack("[s, s]", other, name));
		}
	set(b, "edges", es);
	set(m, "board", b);
	cells = must(json_object());
	for (i = 0; i < n; i++) {
		c = must(json_object());
		if (chance(80)) {
			set(c, "owner", json_string(players[rnd(np)]));
			set(c, "armies", json_integer(rnd(10)));
			if (chance(40))
				set(c, "loyalty", json_integer(rnd(4)));
		}
		if (chance(30)) {
			a = must(json_array());
			if (chance(50))
				add(a, json_string("watchtower"));
			if (chance(50))
				add(a, json_string("bivouac"));
			set(c, "features", a);
		}
		snprintf(name, sizeof(name), "T%d", i + 1);
		set(cells, name, c);
	}
	set(m, "cells", cells);
	c = players_object(np);
	maybe_treaty(c, np);
	set(m, "players", c);
	maybe_turn_order(m, np);
	if (chance(50))
		set(m, "rules", json_pack("{s:b}", "upkeep", chance(50)));
	return m;
}

/* A chain of up to len adjacent cells that does not cross itself. */
static json_t *
hex_chain(const struct hex *h, int len)
{
	json_t	*a = must(json_array()), *l;
	int	 seen[64] = { 0 }, cell = rnd(hex_ncells(h)), i, next, tries;

	for (i = 0; i < len; i++) {
		l = hex_label(h, cell);
		add(a, l);
		seen[cell] = 1;
		for (tries = 0; tries < 20; tries++) {
			next = hex_any_step(h, cell);
			if (!seen[next])
				break;
		}
		if (seen[next])
			break;
		cell = next;
	}
	if (json_array_size(a) < 2)
		add(a, hex_label(h, hex_any_step(h, cell)));
	return a;
}

static void
hexsides(json_t *m, const struct hex *h, const char *const *feat, int nf,
    int count, const char *bridge)
{
	json_t	*a = must(json_array());
	int	 i, c, d;
	const char *f;

	for (i = 0; i < count; i++) {
		c = rnd(hex_ncells(h));
		d = hex_any_step(h, c);
		f = pick(feat, nf);
		add(a, json_pack("{s:[o, o], s:s}", "cells", hex_label(h, c),
		    hex_label(h, d), "feature", f));
		if (bridge != NULL && strcmp(f, "stream") == 0 && chance(50))
			add(a, json_pack("{s:[o, o], s:s}", "cells",
			    hex_label(h, d), hex_label(h, c), "feature",
			    bridge));
	}
	set(m, "hexsides", a);
}

/* The row string of terrain rows b for cell, its character set to ch. */
static void
terrain_set(json_t *b, const struct hex *h, int cell, char ch)
{
	json_t	*rows = json_object_get(b, "terrain");
	char	 line[64];
	int	 r = cell / h->cols;

	snprintf(line, sizeof(line), "%s", json_string_value(
	    json_array_get(rows, (size_t)r)));
	line[cell % h->cols] = ch;
	if (json_array_set_new(rows, (size_t)r, json_string(line)) != 0)
		abort();
}

/*
 * A charge lane, often (issue 28: random turns had no charges): a unit
 * made cavalry, two clear free hexes straight on from it and an enemy on
 * clear ground beyond them, where the cavalry's order may charge it
 * (orders_hexes()).  occ[c] is the player standing in c, or -1.
 */
static void
charge_lane(json_t *b, const struct hex *h, json_t *units, int *occ, int np)
{
	json_t	*u, *e;
	int	 i, d, k, p, at, c1, c2, c3;
	char	 id[16];

	if (json_array_size(units) == 0 || !chance(80))
		return;
	u = json_array_get(units, (size_t)rnd((int)json_array_size(units)));
	at = hex_cell(h, json_string_value(json_object_get(u, "at")));
	for (p = 0; p < np && strcmp(players[p], json_string_value(
	    json_object_get(u, "player"))) != 0; p++)
		continue;
	for (i = 0, d = rnd(6); i < 6; i++, d = (d + 1) % 6) {
		if ((c1 = hex_step(h, at, d)) < 0 || occ[c1] >= 0 ||
		    (c2 = hex_step(h, c1, d)) < 0 || occ[c2] >= 0 ||
		    (c3 = hex_step(h, c2, d)) < 0 ||
		    (occ[c3] >= 0 && occ[c3] == p))
			continue;
		set(u, "type", json_string("cavalry"));
		set(u, "ma", json_integer(4 + rnd(5)));
		if (json_object_get(u, "mv") == NULL ||
		    json_integer_value(json_object_get(u, "mv")) == 0)
			set(u, "mv", json_integer(1 + rnd(3)));
		json_object_del(u, "radius");
		json_object_del(u, "bombarded");
		terrain_set(b, h, c1, 'a');
		terrain_set(b, h, c2, 'a');
		terrain_set(b, h, c3, 'a');
		if (occ[c3] < 0) {
			k = (p + 1 + rnd(np - 1)) % np;
			snprintf(id, sizeof(id), "%.2s%d", players[k], 9);
			e = unit_new(id, k, chance(50) ? "infantry" :
			    "artillery", h, c3);
			set(e, "strength", json_integer(1 + rnd(4)));
			set(e, "ma", json_integer(rnd(5)));
			set(e, "mv", json_integer(rnd(4)));
			add(units, e);
			occ[c3] = k;
		}
		return;
	}
}

static json_t *
map_morne(void)
{
	static const char *const ter[] = {
		"clear", "rough", "coppice", "orchards", "woods", "village",
		"marsh"
	};
	static const char *const feat[] = {
		"stream", "ford", "river", "major_river", "slope",
		"double_slope", "triple_slope"
	};
	static const char *const types[] = {
		"leader", "infantry", "cavalry", "artillery"
	};
	json_t		*m = map_head("morne-plaine"), *b, *a, *pl, *u, *units;
	struct hex	 h;
	int		 occ[64], np = 2 + rnd(2), i, p, k, cell;
	const char	*type;
	char		 id[16];

	b = board_hex(&h, 5, 3);
	set(b, "default", json_string("clear"));
	terrain_rows(b, &h, ter, 7, 35);
	set(m, "board", b);
	hexsides(m, &h, feat, 7, rnd(6), "bridge");
	a = must(json_array());
	for (i = 0; i < rnd(3); i++)
		add(a, json_pack("{s:s, s:o}", "kind", chance(50) ? "road" :
		    "track", "cells", hex_chain(&h, 2 + rnd(5))));
	set(m, "connections", a);
	pl = players_object(np);
	maybe_treaty(pl, np);
	set(m, "players", pl);
	maybe_turn_order(m, np);
	for (i = 0; i < hex_ncells(&h); i++)
		occ[i] = -1;
	units = must(json_array());
	for (p = 0; p < np; p++)
		for (k = 0; k < 2 + rnd(3); k++) {
			/* Units of different players often stand close. */
			cell = free_cell(&h, occ, p, 0, NULL, NULL);
			if (cell < 0)
				break;
			occ[cell] = p;
			snprintf(id, sizeof(id), "%.2s%d", players[p], k + 1);
			type = pick(types, 4);
			u = unit_new(id, p, type, &h, cell);
			set(u, "strength", json_integer(1 + rnd(4)));
			set(u, "ma", json_integer(rnd(9)));
			if (strcmp(type, "leader") != 0)
				set(u, "mv", json_integer(rnd(4)));
			else
				set(u, "radius", json_integer(rnd(3)));
			if (chance(10))
				set(u, "bombarded", json_true());
			if (chance(10))
				set(u, "demoralised", json_true());
			/* contend: fewer zones and more movement points, so
			 * that a path reaches the hex another unit took. */
			if (contend && chance(60))
				set(u, "demoralised", json_true());
			if (contend)
				set(u, "ma", json_integer(3 + rnd(6)));
			add(units, u);
		}
	charge_lane(b, &h, units, occ, np);
	set(m, "units", units);
	return m;
}

static json_t *
map_xconq(void)
{
	static const char *const types[] = { "tank", "inf", "ship" };
	json_t		*m = map_head("xconq"), *b, *cells, *ut, *tb, *pl;
	json_t		*units, *u, *t, *a;
	struct hex	 h;
	int		 occ[64], np = 2 + rnd(2), i, p, k, cell;
	int		 fuel = chance(60);
	int		 hp[3];
	const char	*cellter[64], *type;
	char		 id[16];

	b = board_hex(&h, 4, 4);
	set(b, "default", json_string("plains"));
	set(m, "board", b);
	set(m, "terrain-types", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}",
	    "plains", "cell", "forest", "cell", "sea", "cell", "river",
	    "border", "road", "connection", "snow", "coating"));
	if (fuel)
		set(m, "materials", json_pack("[s]", "fuel"));
	ut = must(json_object());
	for (i = 0; i < 3; i++) {
		t = must(json_object());
		hp[i] = chance(30);
		if (chance(40))
			set(t, "acp-to-move", json_integer(rnd(3)));
		if (chance(50))
			set(t, "speed", json_integer(50 + 50 * rnd(4)));
		if (chance(20))
			set(t, "speed-min", json_integer(rnd(100)));
		if (chance(20))
			set(t, "speed-max", json_integer(100 + rnd(200)));
		if (chance(40))
			set(t, "move-range", json_integer(1 + rnd(2)));
		if (chance(40))
			set(t, "free-mp", json_integer(rnd(3)));
		if (chance(30))
			set(t, "mp-to-leave-world", json_integer(rnd(4) - 1));
		if (hp[i])
			set(t, "speed-damage-effect", json_pack("[[i, i], "
			    "[i, i]]", 1, 25 * (1 + rnd(3)), 4, 100));
		set(ut, types[i], t);
	}
	set(m, "unit-types", ut);
	tb = must(json_object());
	if (chance(50))
		set(tb, "mp-to-enter-terrain", json_pack("{s:{s:i, s:i}}",
		    "tank", "forest", rnd(4) - 1, "sea", -1));
	if (chance(40))
		set(tb, "mp-to-leave-terrain", json_pack("{s:{s:i}}", "inf",
		    "forest", rnd(3)));
	if (chance(50))
		set(tb, "mp-to-traverse", json_pack("{s:{s:i, s:i}}", "tank",
		    "road", rnd(2), "river", rnd(4) - 1));
	if (chance(50))
		set(tb, "zoc-range", json_pack("{s:{s:i, s:i}}", "inf", "tank",
		    rnd(3) - 1, "inf", rnd(2)));
	if (chance(50))
		set(tb, "mp-to-enter-zoc", json_pack("{s:{s:i}}", "tank",
		    "inf", rnd(4) - 1));
	if (chance(30))
		set(tb, "mp-to-leave-zoc", json_pack("{s:{s:i}}", "inf",
		    "tank", rnd(3) - 1));
	if (chance(30))
		set(tb, "mp-to-traverse-zoc", json_pack("{s:{s:i}}", "tank",
		    "inf", rnd(3) - 1));
	if (chance(30))
		set(tb, "zoc-into-terrain", json_pack("{s:{s:b}}", "inf",
		    "forest", chance(50)));
	if (chance(30))
		set(tb, "zoc-from-terrain-effect", json_pack("{s:{s:i}}",
		    "inf", "forest", 50 * rnd(3)));
	if (chance(30))
		set(tb, "speed-occupant-effect", json_pack("{s:{s:i}}", "tank",
		    "inf", 50 + 25 * rnd(4)));
	if (fuel && chance(60))
		set(tb, "consumption-per-move", json_pack("{s:{s:i}}", "tank",
		    "fuel", rnd(3)));
	if (fuel && chance(40))
		set(tb, "material-to-move", json_pack("{s:{s:i}}", "tank",
		    "fuel", rnd(3)));
	if (chance(30))
		set(tb, "altitude-min", json_pack("{s:{s:i}}", "tank", "sea",
		    1));
	set(m, "tables", tb);
	cells = must(json_object());
	memset(cellter, 0, sizeof(cellter));
	for (i = 0; i < hex_ncells(&h); i++) {
		json_t *c, *l;

		occ[i] = -1;
		if (!chance(35))
			continue;
		c = must(json_object());
		cellter[i] = chance(60) ? "forest" : "sea";
		set(c, "terrain", json_string(cellter[i]));
		if (chance(30))
			set(c, "features", json_pack("[s]", "snow"));
		l = hex_label(&h, i);
		set(cells, json_string_value(l), c);
		json_decref(l);
	}
	set(m, "cells", cells);
	hexsides(m, &h, (const char *const[]){ "river" }, 1, rnd(4), NULL);
	a = must(json_array());
	if (chance(60))
		add(a, json_pack("{s:s, s:o}", "kind", "road", "cells",
		    hex_chain(&h, 2 + rnd(4))));
	set(m, "connections", a);
	pl = players_object(np);
	maybe_treaty(pl, np);
	set(m, "players", pl);
	maybe_turn_order(m, np);
	units = must(json_array());
	for (p = 0; p < np; p++)
		for (k = 0; k < 2 + rnd(3); k++) {
			cell = free_cell(&h, occ, p, 1, cellter, "sea");
			if (cell < 0)
				break;
			occ[cell] = p;
			snprintf(id, sizeof(id), "%.2s%d", players[p], k + 1);
			i = rnd(3);
			type = types[i];
			u = unit_new(id, p, type, &h, cell);
			set(u, "acp", json_integer(rnd(9)));
			if (hp[i] || chance(30))
				set(u, "hp", json_integer(1 + rnd(6)));
			if (i == 0 && chance(30))
				set(u, "occupants", json_pack("[s]", "inf"));
			if (fuel && chance(60))
				set(u, "supplies", json_pack("{s:i}", "fuel",
				    rnd(6)));
			add(units, u);
		}
	set(m, "units", units);
	return m;
}

/* The pose of a unit: x and y in steps, facing in degrees. */
static json_t *
pose(double x, double y, int facing)
{
	return json_pack("{s:f, s:f, s:i}", "x", x, "y", y, "facing", facing);
}

static json_t *
table_unit(const char *id, int player, int formation, json_t *p)
{
	json_t	*u = must(json_object()), *figs = must(json_array()), *f;
	int	 i, n = 1 + rnd(4), named = chance(50);
	char	 name[8];

	set(u, "id", json_string(id));
	set(u, "player", json_string(players[player]));
	set(u, "type", json_string(formation ? "formation" : "sortie"));
	set(u, "pose", p);
	set(u, "codex", json_pack("{s:i, s:i, s:i, s:i}", "forward",
	    chance(10) ? 0 : 1, "back", 1 + rnd(3), "left", 1 + rnd(3),
	    "right", 1 + rnd(3)));
	for (i = 0; i < n; i++) {
		f = must(json_object());
		if (named) {
			snprintf(name, sizeof(name), "%c", 'a' + i);
			set(f, "name", json_string(name));
		}
		set(f, "icons", json_integer(rnd(4)));
		if (chance(15))
			set(f, "ready", json_false());
		add(figs, f);
	}
	set(u, "figures", figs);
	return u;
}

static json_t *
map_arcane(void)
{
	json_t	*m = map_head("arcane-legions"), *b, *pieces, *pl, *units;
	int	 slot[25], np = 2 + rnd(2), i, k, p, q, s, nu = 0;
	double	 x, y;
	char	 id[16];

	for (i = 0; i < 25; i++)
		slot[i] = i;
	for (i = 24; i > 0; i--) {
		k = rnd(i + 1);
		s = slot[i];
		slot[i] = slot[k];
		slot[k] = s;
	}
	s = 0;
	b = must(json_object());
	set(b, "grid", json_string("table"));
	set(b, "width", json_integer(24));
	set(b, "height", json_integer(24));
	pieces = must(json_array());
	/* Slots are 4 steps apart, so that nothing in one overlaps another;
	 * a piece is a square or a diamond of side 2 in its slot. */
	for (k = 0; k < rnd(3); k++, s++) {
		x = 4 + 4 * (slot[s] % 5);
		y = 4 + 4 * (slot[s] / 5);
		snprintf(id, sizeof(id), "rock%d", k + 1);
		if (chance(50))
			add(pieces, json_pack("{s:s, s:[[f,f],[f,f],[f,f],"
			    "[f,f]]}", "id", id, "polygon", x - 1, y - 1,
			    x + 1, y - 1, x + 1, y + 1, x - 1, y + 1));
		else
			add(pieces, json_pack("{s:s, s:[[f,f],[f,f],[f,f],"
			    "[f,f]]}", "id", id, "polygon", x, y - 1.4,
			    x + 1.4, y, x, y + 1.4, x - 1.4, y));
	}
	set(b, "pieces", pieces);
	set(m, "board", b);
	pl = players_object(np);
	for (i = 0; i < np; i++)
		set(json_object_get(pl, players[i]), "order_points",
		    json_integer(rnd(7)));
	maybe_treaty(pl, np);
	set(m, "players", pl);
	maybe_turn_order(m, np);
	units = must(json_array());
	for (p = 0; p < np; p++)
		for (k = 0; k < 1 + rnd(3); k++, s++) {
			x = 4 + 4 * (slot[s] % 5);
			y = 4 + 4 * (slot[s] / 5);
			snprintf(id, sizeof(id), "%.2s%d", players[p], ++nu);
			if (!chance(40)) {
				add(units, table_unit(id, p, chance(50),
				    pose(x, y, 45 * rnd(8))));
				continue;
			}
			/* Two enemies that touch, for breakaways: a base
			 * 1 deep below the slot's centre and a sortie
			 * above it. */
			q = (p + 1 + rnd(np - 1)) % np;
			add(units, table_unit(id, p, chance(50), pose(x,
			    y - 0.5, chance(50) ? 0 : 180)));
			snprintf(id, sizeof(id), "%.2s%d", players[q], ++nu);
			add(units, table_unit(id, q, 0, pose(x, y + 0.5,
			    90 * rnd(4))));
		}
	set(m, "units", units);
	return m;
}

/* The map as orders see it. */
struct map {
	json_t		*root, *units;
	const char	*ruleset, *grid;
	struct hex	 h;
	int		 turn;
	const char	*pnames[64];
	int		 np;
};

static void
map_read(struct map *mp, json_t *root)
{
	json_t		*b = json_object_get(root, "board"), *v;
	const char	*key, *layout;

	memset(mp, 0, sizeof(*mp));
	mp->root = root;
	mp->ruleset = json_string_value(json_object_get(root, "ruleset"));
	mp->grid = json_string_value(json_object_get(b, "grid"));
	mp->turn = (int)json_integer_value(json_object_get(root, "turn"));
	if (mp->turn == 0)
		mp->turn = 1;
	mp->units = json_object_get(root, "units");
	layout = json_string_value(json_object_get(b, "layout"));
	if (mp->grid != NULL && strcmp(mp->grid, "hex") == 0)
		hex_init(&mp->h, (int)json_integer_value(json_object_get(b,
		    "cols")), (int)json_integer_value(json_object_get(b,
		    "rows")), layout != NULL && strcmp(layout, "odd-low") == 0);
	json_object_foreach(json_object_get(root, "players"), key, v)
		if (mp->np < 64)
			mp->pnames[mp->np++] = key;
}

/* contend: the end of a move of player's, for the players after it. */

static void
end_add(const struct map *mp, int player, const json_t *path)
{
	int	 c = hex_cell(&mp->h, json_string_value(json_array_get(path,
		    json_array_size(path) - 1)));

	if (contend && c >= 0 && nends < 256) {
		ends[nends] = c;
		end_player[nends++] = player;
	}
}

/* A path from at toward another player's end hex, one step nearer each
 * time (distances by breadth-first search), or NULL. */
static json_t *
toward(const struct map *mp, int player, const char *at)
{
	static int	 dist[4096], queue[4096];
	json_t		*a;
	int		 from = hex_cell(&mp->h, at), n = hex_ncells(&mp->h);
	int		 k, to, head = 0, tail = 0, c, d, nb, best, steps;

	if (!contend || from < 0 || n > 4096 || nends == 0)
		return NULL;
	k = rnd(nends);
	if (end_player[k] == player || (to = ends[k]) == from)
		return NULL;
	for (c = 0; c < n; c++)
		dist[c] = -1;
	dist[to] = 0;
	queue[tail++] = to;
	while (head < tail) {
		c = queue[head++];
		for (d = 0; d < 6; d++)
			if ((nb = hex_step(&mp->h, c, d)) >= 0 &&
			    dist[nb] < 0) {
				dist[nb] = dist[c] + 1;
				queue[tail++] = nb;
			}
	}
	a = must(json_array());
	add(a, json_string(at));
	for (c = from, steps = 0; c != to && steps < 6; steps++) {
		best = -1;
		for (d = 0; d < 6; d++)
			if ((nb = hex_step(&mp->h, c, d)) >= 0 &&
			    dist[nb] >= 0 && dist[nb] < dist[c] &&
			    (best < 0 || rnd(2)))
				best = nb;
		if (best < 0)
			break;
		c = best;
		add(a, hex_label(&mp->h, c));
	}
	return a;
}

/* A random walk of len steps from the label at; at when it is no cell. */
static json_t *
walk(const struct map *mp, const char *at, int len)
{
	json_t	*a = must(json_array());
	int	 cell = hex_cell(&mp->h, at), i;

	add(a, json_string(at));
	if (cell < 0)
		return a;
	for (i = 0; i < len; i++) {
		cell = hex_any_step(&mp->h, cell);
		add(a, hex_label(&mp->h, cell));
	}
	return a;
}

static const char *
unit_at(const json_t *u)
{
	return json_string_value(json_object_get(u, "at"));
}

static int
owns(const json_t *u, const char *player)
{
	const char *p = json_string_value(json_object_get(u, "player"));

	return p != NULL && strcmp(p, player) == 0;
}

/* The player of the unit at cell, or NULL. */
static const char *
player_at(const struct map *mp, int cell)
{
	json_t	*v;
	size_t	 i;

	json_array_foreach(mp->units, i, v)
		if (hex_cell(&mp->h, unit_at(v)) == cell)
			return json_string_value(json_object_get(v, "player"));
	return NULL;
}

/*
 * morne-plaine: a cavalry unit's charge, often, where an enemy stands
 * three hexes straight on (charge_lane()): the path of two hexes toward
 * it, or NULL.
 */
static json_t *
charge_path(const struct map *mp, const json_t *u, const char *player)
{
	const char	*type = json_string_value(json_object_get(u, "type"));
	const char	*e;
	json_t		*a;
	int		 at = hex_cell(&mp->h, unit_at(u)), d, c1, c2, c3;

	if (type == NULL || strcmp(type, "cavalry") != 0 || at < 0 ||
	    !chance(85))
		return NULL;
	for (d = 0; d < 6; d++) {
		if ((c1 = hex_step(&mp->h, at, d)) < 0 ||
		    (c2 = hex_step(&mp->h, c1, d)) < 0 ||
		    (c3 = hex_step(&mp->h, c2, d)) < 0)
			continue;
		if (player_at(mp, c1) != NULL || player_at(mp, c2) != NULL ||
		    (e = player_at(mp, c3)) == NULL || strcmp(e, player) == 0)
			continue;
		a = must(json_array());
		add(a, hex_label(&mp->h, at));
		add(a, hex_label(&mp->h, c1));
		add(a, hex_label(&mp->h, c2));
		return a;
	}
	return NULL;
}

static void
orders_hexes(const struct map *mp, const char *player, json_t *orders)
{
	static const char *const steps[] = {
		"forward", "back", "left", "right"
	};
	static const char *const sides[] = {
		"front", "back", "left", "right"
	};
	json_t		*u, *o, *g, *v, *w, *a;
	const char	*at, *end;
	size_t		 i, j;
	int		 aeonis = strcmp(mp->ruleset, "aeonis") == 0;
	int		 xconq = strcmp(mp->ruleset, "xconq") == 0;
	int		 morne = strcmp(mp->ruleset, "morne-plaine") == 0;
	int		 table = !aeonis && !xconq && !morne, n = 0, pi;
	char		 id[16];

	for (pi = 0; pi < mp->np && strcmp(mp->pnames[pi], player) != 0; pi++)
		continue;

	json_array_foreach(mp->units, i, u) {
		if (!owns(u, player) || !chance(70))
			continue;
		at = unit_at(u);
		snprintf(id, sizeof(id), "o%d", ++n);
		o = must(json_object());
		set(o, "id", json_string(id));
		g = must(json_array());
		add(g, json_string(json_string_value(json_object_get(u,
		    "id"))));
		/* An aeonis group: the other units of the hex, often. */
		json_array_foreach(mp->units, j, v)
			if (aeonis && j != i && owns(v, player) &&
			    strcmp(unit_at(v), at) == 0 && chance(60))
				add(g, json_string(json_string_value(
				    json_object_get(v, "id"))));
		set(o, "units", g);
		if (table && chance(25)) {
			/* A breakaway on an enemy, the nearest often. */
			json_t		*best = NULL, *figs;
			double		 d, bd = 1e9, x, y;

			x = json_number_value(json_object_get(json_object_get(
			    u, "pose"), "x"));
			y = json_number_value(json_object_get(json_object_get(
			    u, "pose"), "y"));
			json_array_foreach(mp->units, j, v) {
				json_t *pv = json_object_get(v, "pose");

				if (owns(v, player))
					continue;
				d = (json_number_value(json_object_get(pv,
				    "x")) - x) * (json_number_value(
				    json_object_get(pv, "x")) - x) +
				    (json_number_value(json_object_get(pv,
				    "y")) - y) * (json_number_value(
				    json_object_get(pv, "y")) - y) +
				    rnd(40);
				if (d < bd) {
					bd = d;
					best = v;
				}
			}
			if (best == NULL) {
				json_decref(o);
				continue;
			}
			set(o, "breakaway", json_string(json_string_value(
			    json_object_get(best, "id"))));
			figs = json_object_get(best, "figures");
			a = must(json_array());
			json_array_foreach(figs, j, w) {
				const char *nm = json_string_value(
				    json_object_get(w, "name"));
				char buf[32];

				if (!chance(30))
					continue;
				if (nm == NULL) {
					snprintf(buf, sizeof(buf), "%zu",
					    j + 1);
					nm = buf;
				}
				add(a, json_string(nm));
			}
			set(o, "lost", a);
		} else if (table) {
			a = must(json_array());
			for (j = 0; j < 1 + (size_t)rnd(3); j++)
				if (chance(60))
					add(a, json_pack("{s:s, s:f}", "step",
					    pick(steps, 4), "distance",
					    (1 + rnd(4)) / 4.0));
				else {
					w = json_pack("{s:s, s:i}", "turn",
					    chance(50) ? "left" : "right",
					    "angle", chance(50) ? 45 : 90);
					if (chance(40))
						set(w, "off", json_string(
						    pick(sides, 4)));
					if (chance(30))
						set(w, "notch", json_string(
						    pick((const char *const[]){
						    "middle", "near", "far" },
						    3)));
					add(a, w);
				}
			set(o, "move", a);
			if (chance(30))
				set(o, "snap", json_string(chance(50) ?
				    "left" : "right"));
			if (chance(30))
				set(o, "slide", json_string(pick(
				    (const char *const[]){ "left", "right",
				    "none" }, 3)));
		} else if (aeonis) {
			switch (rnd(10)) {
			case 0:
			case 1:
				set(o, "attack", hex_label(&mp->h, hex_any_step(
				    &mp->h, hex_cell(&mp->h, at))));
				break;
			case 2:
				set(o, "translocate", hex_label(&mp->h,
				    rnd(hex_ncells(&mp->h))));
				break;
			case 3:
				set(o, "reinforce", hex_label(&mp->h,
				    rnd(hex_ncells(&mp->h))));
				break;
			default:
				if ((a = toward(mp, pi, at)) != NULL &&
				    !chance(50)) {
					json_decref(a);
					a = NULL;
				}
				if (a == NULL)
					a = walk(mp, at, 1 + rnd(2));
				set(o, "move", a);
				end_add(mp, pi, a);
			}
		} else if (morne && (a = charge_path(mp, u, player)) != NULL) {
			set(o, "move", a);
			end_add(mp, pi, a);
		} else if (morne && chance(20)) {
			set(o, "retreat", hex_label(&mp->h, hex_any_step(
			    &mp->h, hex_cell(&mp->h, at))));
		} else if (xconq && chance(15)) {
			int c = hex_cell(&mp->h, at);

			if (chance(50))
				c = rnd(mp->h.cols);	/* row 1 */
			set(o, "leave_world", hex_label(&mp->h, c));
		} else {
			if ((a = toward(mp, pi, at)) != NULL &&
			    !chance(50)) {
				json_decref(a);
				a = NULL;
			}
			if (a == NULL)
				a = walk(mp, at, 1 + rnd(4));
			set(o, "move", a);
			end_add(mp, pi, a);
			/* A second move from where the first ends. */
			if (morne && chance(25)) {
				add(orders, o);
				end = json_string_value(json_array_get(a,
				    json_array_size(a) - 1));
				snprintf(id, sizeof(id), "o%d", ++n);
				o = json_pack("{s:s, s:[s], s:o}", "id", id,
				    "units", json_string_value(
				    json_object_get(u, "id")), "move",
				    walk(mp, end, 1 + rnd(2)));
			}
		}
		add(orders, must(o));
	}
}

static void
orders_territory(const struct map *mp, const char *player, json_t *orders)
{
	json_t		*b = json_object_get(mp->root, "board");
	json_t		*ts = json_object_get(b, "territories");
	json_t		*es = json_object_get(b, "edges");
	json_t		*cells = json_object_get(mp->root, "cells"), *c, *a;
	const char	*name, *cur, *next;
	size_t		 i, n;
	int		 k = 0, s, armies;
	char		 id[16];

	json_object_foreach(cells, name, c) {
		const char *own = json_string_value(json_object_get(c,
		    "owner"));

		if (own == NULL || strcmp(own, player) != 0)
			continue;
		for (s = rnd(3); s > 0; s--) {
			armies = (int)json_integer_value(json_object_get(c,
			    "armies"));
			a = must(json_array());
			add(a, json_string(chance(10) ? json_string_value(
			    json_array_get(ts, (size_t)rnd((int)
			    json_array_size(ts)))) : name));
			cur = name;
			for (n = 0; n < 1 + (size_t)rnd(2); n++) {
				/* A random border of cur. */
				next = NULL;
				for (i = 0; i < 20 && next == NULL; i++) {
					json_t *e = json_array_get(es,
					    (size_t)rnd((int)json_array_size(
					    es)));
					const char *x = json_string_value(
					    json_array_get(e, 0));
					const char *y = json_string_value(
					    json_array_get(e, 1));

					if (x != NULL && strcmp(x, cur) == 0)
						next = y;
					else if (y != NULL &&
					    strcmp(y, cur) == 0)
						next = x;
				}
				if (next == NULL)
					break;
				add(a, json_string(next));
				cur = next;
			}
			snprintf(id, sizeof(id), "t%d", ++k);
			add(orders, json_pack("{s:s, s:i, s:o}", "id", id,
			    "armies", 1 + rnd(armies > 1 ? armies : 1), "move",
			    a));
		}
	}
}

static void
write_json(json_t *v, const char *dir, const char *name)
{
	char	 path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (json_dump_file(v, path, JSON_INDENT(1)) != 0) {
		fprintf(stderr, "prop: cannot write %s\n", path);
		exit(73);
	}
}

/* DIR/orders/P.json for most players of the map. */
static void
orders(json_t *root, const char *dir)
{
	struct map	 mp;
	json_t		*f, *o;
	char		 name[128];
	int		 p, one;

	map_read(&mp, root);
	one = rnd(mp.np);	/* at least one file */
	for (p = 0; p < mp.np; p++) {
		if (mp.ruleset == NULL || (p != one && !chance(80)))
			continue;
		o = must(json_array());
		if (strcmp(mp.ruleset, "territory") == 0)
			orders_territory(&mp, mp.pnames[p], o);
		else
			orders_hexes(&mp, mp.pnames[p], o);
		f = json_pack("{s:i, s:s, s:i, s:o}", "arbiter", 1, "player",
		    mp.pnames[p], "turn", mp.turn, "orders", o);
		snprintf(name, sizeof(name), "orders/%s.json", mp.pnames[p]);
		write_json(must(f), dir, name);
		json_decref(f);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: prop turn RULESET SEED DIR [contend]\n"
	    "       prop orders SEED MAP DIR\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	json_error_t	 je;
	json_t		*m = NULL;
	char		 sub[4096];

	if (argc == 6 && strcmp(argv[1], "turn") == 0 &&
	    strcmp(argv[5], "contend") == 0)
		contend = 1;
	else if (argc != 5)
		usage();
	if (strcmp(argv[1], "turn") == 0) {
		seed(strtoul(argv[3], NULL, 10));
		if (strcmp(argv[2], "aeonis") == 0)
			m = map_aeonis();
		else if (strcmp(argv[2], "territory") == 0)
			m = map_territory();
		else if (strcmp(argv[2], "morne-plaine") == 0)
			m = map_morne();
		else if (strcmp(argv[2], "xconq") == 0)
			m = map_xconq();
		else if (strcmp(argv[2], "arcane-legions") == 0)
			m = map_arcane();
		else
			usage();
	} else if (strcmp(argv[1], "orders") == 0) {
		seed(strtoul(argv[2], NULL, 10));
		if ((m = json_load_file(argv[3], 0, &je)) == NULL) {
			fprintf(stderr, "prop: %s:%d: %s\n", argv[3], je.line,
			    je.text);
			return 66;
		}
	} else
		usage();
	snprintf(sub, sizeof(sub), "%s/orders", argv[4]);
	mkdir(argv[4], 0777);
	if (mkdir(sub, 0777) != 0) {
		perror(sub);
		return 73;
	}
	if (strcmp(argv[1], "turn") == 0)
		write_json(m, argv[4], "map.json");
	orders(m, argv[4]);
	json_decref(m);
	return 0;
}
