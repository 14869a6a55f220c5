/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The fuzz target for the loaders and the turn.  The first byte picks the
 * role of the rest: even, a map, adjudicated with no orders; 1 mod 16, an
 * orders file for a small aeonis map; 5 mod 16, one for a small
 * morne-plaine map; 9 mod 16, one for a small arcane-legions table;
 * 13 mod 16, one for a small xconq map; 3 mod 4, one for a small territory
 * map; each adjudicated.  Built by `make fuzz` with
 * clang -fsanitize=fuzzer, and replayed by tests/fuzz_main.c in make check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A small map, for inputs that play an orders file. */
static const char map[] =
    "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 6},\n"
    " \"cells\": {\"0303\": {\"features\": [\"portal\"]},\n"
    "   \"0505\": {\"features\": [\"portal\"]},\n"
    "   \"0202\": {\"terrain\": \"lake\"}},\n"
    " \"players\": {\"red\": {\"ap\": 9, \"mana\": 3,\n"
    "   \"discoveries\": [\"translocation\"]}, \"blue\": {\"ap\": 9}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"cavalry\", "
    "\"at\": \"0101\"},\n"
    "  {\"id\": \"r2\", \"player\": \"red\", \"type\": \"infantry\", "
    "\"at\": \"0101\"},\n"
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"infantry\", "
    "\"at\": \"0403\"}]}\n";

/* A small territory map, for inputs whose first byte is 3 mod 4. */
static const char graph[] =
    "{\"arbiter\": 1, \"ruleset\": \"territory\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"graph\", \"territories\": [\"A\", \"B\",\n"
    "   \"C\", \"D\"], \"edges\": [[\"A\", \"B\"], [\"B\", \"C\"],\n"
    "   [\"C\", \"D\"], [\"D\", \"A\"]]},\n"
    " \"cells\": {\"A\": {\"owner\": \"red\", \"armies\": 9},\n"
    "   \"B\": {\"owner\": \"blue\", \"armies\": 3,\n"
    "   \"features\": [\"watchtower\", \"bivouac\"]},\n"
    "   \"C\": {\"owner\": \"green\", \"armies\": 4}},\n"
    " \"players\": {\"red\": {}, \"blue\": {}, \"green\": {}},\n"
    " \"rules\": {\"upkeep\": true}}\n";

/* A small morne-plaine map, for inputs whose first byte is 5 mod 16. */
static const char morne[] =
    "{\"arbiter\": 1, \"ruleset\": \"morne-plaine\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 6},\n"
    " \"cells\": {\"0303\": {\"terrain\": \"marsh\"},\n"
    "   \"0404\": {\"terrain\": \"village\"}},\n"
    " \"hexsides\": [{\"cells\": [\"0202\", \"0203\"], \"feature\": "
    "\"stream\"}],\n"
    " \"connections\": [{\"kind\": \"road\", \"cells\": [\"0101\", "
    "\"0102\", \"0103\", \"0104\"]}],\n"
    " \"players\": {\"red\": {}, \"blue\": {}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"cavalry\", "
    "\"at\": \"0101\", \"ma\": 6, \"mv\": 3},\n"
    "  {\"id\": \"r2\", \"player\": \"red\", \"type\": \"infantry\", "
    "\"at\": \"0201\", \"ma\": 4, \"mv\": 3},\n"
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"infantry\", "
    "\"at\": \"0105\", \"ma\": 4, \"mv\": 1}]}\n";

/* A small xconq map, for inputs whose first byte is 13 mod 16. */
static const char xconq[] =
    "{\"arbiter\": 1, \"ruleset\": \"xconq\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 6, "
    "\"default\": \"plains\"},\n"
    " \"terrain-types\": {\"plains\": \"cell\", \"sea\": \"cell\", "
    "\"river\": \"border\", \"road\": \"connection\", \"snow\": "
    "\"coating\"},\n"
    " \"materials\": [\"fuel\"],\n"
    " \"unit-types\": {\"tank\": {\"speed\": 150, \"move-range\": 2, "
    "\"free-mp\": 1, \"mp-to-leave-world\": 1,\n"
    "   \"speed-damage-effect\": [[1, 50], [9, 100]]}, \"inf\": {}},\n"
    " \"tables\": {\"mp-to-traverse\": {\"tank\": {\"road\": 0}},\n"
    "   \"altitude-min\": {\"tank\": {\"sea\": 1}},\n"
    "   \"zoc-range\": {\"inf\": {\"tank\": 1}},\n"
    "   \"mp-to-enter-zoc\": {\"tank\": {\"inf\": 2}},\n"
    "   \"consumption-per-move\": {\"tank\": {\"fuel\": 1}}},\n"
    " \"cells\": {\"0303\": {\"terrain\": \"sea\"}, \"0202\": "
    "{\"features\": [\"snow\"]}},\n"
    " \"hexsides\": [{\"cells\": [\"0101\", \"0102\"], \"feature\": "
    "\"river\"}],\n"
    " \"connections\": [{\"kind\": \"road\", \"cells\": [\"0101\", "
    "\"0102\", \"0103\"]}],\n"
    " \"players\": {\"red\": {}, \"blue\": {}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"tank\", "
    "\"at\": \"0101\", \"acp\": 6, \"hp\": 5, \"occupants\": "
    "[\"inf\"], \"supplies\": {\"fuel\": 4}},\n"
    "  {\"id\": \"r2\", \"player\": \"red\", \"type\": \"inf\", "
    "\"at\": \"0201\", \"acp\": 2},\n"
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"inf\", "
    "\"at\": \"0105\", \"acp\": 2}]}\n";

/* A small arcane-legions table, for inputs whose first byte is 9 mod 16:
 * units that touch, a piece at an angle, a breakaway's target. */
static const char table[] =
    "{\"arbiter\": 1, \"ruleset\": \"arcane-legions\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"table\", \"width\": 12, \"height\": 12,\n"
    "   \"pieces\": [{\"id\": \"rock\", \"polygon\": [[6,6],[7,5],[8,6],"
    "[7,7]]}]},\n"
    " \"players\": {\"red\": {\"order_points\": 5}, \"blue\": "
    "{\"order_points\": 3}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"formation\", "
    "\"pose\": {\"x\": 3, \"y\": 3, \"facing\": 0},\n"
    "   \"codex\": {\"forward\": 1, \"back\": 2, \"left\": 2, \"right\": "
    "2},\n   \"figures\": [{\"name\": \"a\", \"icons\": 3}, {\"icons\": "
    "2}]},\n"
    "  {\"id\": \"r2\", \"player\": \"red\", \"type\": \"sortie\", "
    "\"pose\": {\"x\": 9, \"y\": 2, \"facing\": 30},\n"
    "   \"codex\": {\"forward\": 1, \"back\": 1, \"left\": 1, \"right\": "
    "1},\n   \"figures\": [{\"icons\": 4}]},\n"
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"formation\", "
    "\"pose\": {\"x\": 3, \"y\": 4, \"facing\": 180},\n"
    "   \"codex\": {\"forward\": 1, \"back\": 2, \"left\": 2, \"right\": "
    "2},\n   \"figures\": [{\"icons\": 2}]}]}\n";

/* A map refused (issue 26): its problems in document order, at most 50
 * and one that counts the rest, each about the map. */
static void
map_problems(struct arb_turn *t, const struct arb_error *e)
{
	struct arb_error p;
	size_t		 k;
	int		 line = 0, col = 0;

	for (k = 0; arb_turn_problem(t, k, &p) == 0; k++) {
		if (e->code != ARB_EDATA || p.code != ARB_EDATA || k > 50 ||
		    strcmp(p.file, "fuzz") != 0)
			abort();
		if (p.line == 0) {	/* "and N more": the last, after 50 */
			if (k != 50 || arb_turn_problem(t, k + 1, &p) == 0)
				abort();
			break;
		}
		if (p.line < line || (p.line == line && p.column < col))
			abort();
		line = p.line;
		col = p.column;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arb_turn	*t;
	struct arb_error e;
	FILE		*fp;

	if (size < 1)
		return 0;
	if ((t = arb_turn_new()) == NULL)
		return 0;
	if (data[0] % 2 == 0) {
		if (arb_turn_load_map(t, "fuzz", (const char *)data + 1,
		    size - 1, &e) != 0) {
			map_problems(t, &e);
			goto out;
		}
	} else if (data[0] % 4 == 3) {
		if (arb_turn_load_map(t, "graph", graph, strlen(graph),
		    &e) != 0 || arb_turn_load_orders(t, "fuzz", NULL,
		    (const char *)data + 1, size - 1, &e) != 0)
			goto out;
	} else if (data[0] % 16 == 13) {
		if (arb_turn_load_map(t, "xconq", xconq, strlen(xconq),
		    &e) != 0 || arb_turn_load_orders(t, "fuzz", NULL,
		    (const char *)data + 1, size - 1, &e) != 0)
			goto out;
	} else if (data[0] % 16 == 9) {
		if (arb_turn_load_map(t, "table", table, strlen(table),
		    &e) != 0 || arb_turn_load_orders(t, "fuzz", NULL,
		    (const char *)data + 1, size - 1, &e) != 0)
			goto out;
	} else if (data[0] % 16 == 5) {
		if (arb_turn_load_map(t, "morne", morne, strlen(morne),
		    &e) != 0 || arb_turn_load_orders(t, "fuzz", NULL,
		    (const char *)data + 1, size - 1, &e) != 0)
			goto out;
	} else if (arb_turn_load_map(t, "map", map, strlen(map), &e) != 0 ||
	    arb_turn_load_orders(t, "fuzz", NULL, (const char *)data + 1,
	    size - 1, &e) != 0)
		goto out;
	if (arb_turn_run(t, ARB_TRACE, &e) != 0)
		goto out;
	if ((fp = fopen("/dev/null", "w")) != NULL) {
		arb_turn_write_result(t, ARB_RESULT_TRACE, fp, &e);
		arb_turn_write_next(t, fp, &e);
		arb_turn_write_trace(t, 1, fp, &e);
		fclose(fp);
	}
out:
	arb_turn_free(t);
	return 0;
}
