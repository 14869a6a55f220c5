/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The fuzz target for orders as text (issue 27; arbiter-orders(5), The
 * text form).  The first byte picks a built-in map (0 mod 3 aeonis, 1
 * territory with names that hold spaces and hyphens, 2 arcane-legions);
 * the rest is an orders file, read as the turn reads it and adjudicated.
 * Besides a clean run under ASan and UBSan it checks that (a) every
 * problem of the file has a line and a column within the text; and, for
 * a text all of whose lines can be read, (b) its canonical text
 * (--orders-text), read again, means the JSON the text means
 * (--orders-json), byte for byte; (c) the canonical text of the canonical
 * text is itself.  A failed check prints "fuzz_text:
 * finding: ..." and calls abort().  Built by `make fuzz-text` with clang
 * -fsanitize=fuzzer, and replayed by tests/fuzz_main.c in make check.
 */
#define _GNU_SOURCE		/* memmem */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char hex[] =
    "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 6},\n"
    " \"players\": {\"red\": {\"ap\": 9, \"mana\": 3,\n"
    "   \"discoveries\": [\"translocation\"]}, \"Blue Team\": "
    "{\"ap\": 9}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"cavalry\", "
    "\"at\": \"0101\"},\n"
    "  {\"id\": \"R-2\", \"player\": \"red\", \"type\": \"infantry\", "
    "\"at\": \"0101\"},\n"
    "  {\"id\": \"b 1\", \"player\": \"Blue Team\", \"type\": "
    "\"infantry\", \"at\": \"0403\"}]}\n";

static const char graph[] =
    "{\"arbiter\": 1, \"ruleset\": \"territory\", \"turn\": 1,\n"
    " \"board\": {\"grid\": \"graph\", \"territories\": [\"A\", "
    "\"A-B\", \"North Wood\", \"a:b\", \"B\"],\n"
    "   \"edges\": [[\"A\", \"A-B\"], [\"A-B\", \"North Wood\"],\n"
    "   [\"North Wood\", \"a:b\"], [\"a:b\", \"B\"], [\"B\", \"A\"]]},\n"
    " \"cells\": {\"A\": {\"owner\": \"red\", \"armies\": 9},\n"
    "   \"B\": {\"owner\": \"blue\", \"armies\": 3}},\n"
    " \"players\": {\"red\": {}, \"blue\": {}}}\n";

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
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"formation\", "
    "\"pose\": {\"x\": 3, \"y\": 4, \"facing\": 180},\n"
    "   \"codex\": {\"forward\": 1, \"back\": 2, \"left\": 2, \"right\": "
    "2},\n   \"figures\": [{\"icons\": 2}]}]}\n";

static void
finding(const char *what)
{
	fprintf(stderr, "fuzz_text: finding: %s\n", what);
	abort();
}

/* The file written back (ARB_ORDERS_TEXT or 0) into *out; false when it
 * cannot be (not JSON, no header). */
static bool
written(const char *map, const char *text, size_t len, int flags,
    char **out, size_t *outlen)
{
	struct arb_turn	*t;
	struct arb_error e;
	FILE		*fp;
	int		 rc = -1;

	*out = NULL;
	*outlen = 0;
	if ((t = arb_turn_new()) == NULL)
		return false;
	if (arb_turn_load_map(t, "map", map, strlen(map), &e) == 0 &&
	    (fp = open_memstream(out, outlen)) != NULL) {
		rc = arb_turn_write_orders(t, "fuzz", text, len, flags, fp,
		    &e);
		fclose(fp);
	}
	arb_turn_free(t);
	if (rc != 0) {
		free(*out);
		*out = NULL;
	}
	return rc == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*map, *text = (const char *)data + 1;
	struct arb_turn	*t;
	struct arb_error e;
	char		*t1, *t2, *j1, *j2;
	size_t		 n1, n2, m1, m2, i, len = size - 1;
	long		 lines = 1;
	FILE		*fp;

	if (size < 1)
		return 0;
	map = data[0] % 3 == 0 ? hex : data[0] % 3 == 1 ? graph : table;
	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			lines++;
	if ((t = arb_turn_new()) == NULL)
		return 0;
	if (arb_turn_load_map(t, "map", map, strlen(map), &e) != 0)
		finding("the built-in map does not load");
	if (arb_turn_load_orders(t, "fuzz", NULL, text, len, &e) != 0)
		goto out;
	for (i = 0; arb_turn_problem(t, i, &e) == 0; i++)
		if (e.line < 1 || e.column < 1 || e.line > lines)
			finding("a problem without its line");
	if (arb_turn_run(t, ARB_TRACE, &e) == 0 &&
	    (fp = fopen("/dev/null", "w")) != NULL) {
		arb_turn_write_result(t, ARB_RESULT_TRACE, fp, &e);
		fclose(fp);
	}
out:
	arb_turn_free(t);
	/* (b) and (c) for a text: JSON keeps members a text has not. */
	for (i = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	    i < len && strchr(" \t\r\n", text[i]) != NULL && text[i] != '\0';
	    i++)
		;
	if (i == len || text[i] == '{' || text[i] == '[')
		return 0;
	if (!written(map, text, len, 0, &j1, &m1))
		return 0;
	/* A line that cannot be read means no orders: it is written back as
	 * it stands, and need not read back alike. */
	if (memmem(j1, m1, "\"_text\"", 7) != NULL) {
		free(j1);
		return 0;
	}
	if (!written(map, text, len, ARB_ORDERS_TEXT, &t1, &n1))
		finding("a file written as JSON but not as text");
	if (!written(map, t1, n1, 0, &j2, &m2))
		finding("the canonical text does not read");
	if (m1 != m2 || memcmp(j1, j2, m1) != 0)
		finding("the canonical text means other orders");
	if (!written(map, t1, n1, ARB_ORDERS_TEXT, &t2, &n2) || n1 != n2 ||
	    memcmp(t1, t2, n1) != 0)
		finding("the canonical text is not canonical");
	free(j1);
	free(j2);
	free(t1);
	free(t2);
	return 0;
}
