/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Unit tests of the pieces: hex geometry, table geometry, locate(), the
 * dice, the string map, the loaders' messages through the public
 * interface, and the reach search.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "format/format.h"
#include "base/fair.h"
#include "json/doc.h"

static int passed, failed;

#define CHECK(cond) do {						\
	if (cond)							\
		passed++;						\
	else {								\
		failed++;						\
		printf("%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
	}								\
} while (0)

static struct board
hexboard(int cols, int rows, bool odd_low)
{
	struct board b;

	memset(&b, 0, sizeof(b));
	b.kind = BOARD_HEX;
	b.cols = cols;
	b.rows = rows;
	b.width = cols > 99 || rows > 99 ? 3 : 2;
	b.odd_low = odd_low;
	b.ncells = cols * rows;
	b.colsinv = ((uint64_t)1 << 40) / (uint64_t)cols + 1;
	return b;
}

/* Are the neighbours of label exactly the labels in want (any order)? */
static bool
neighbours_are(const struct board *b, const char *label, const char *want)
{
	int	 nb[6], n = board_neighbors(b, board_find(b, label), nb), i;
	char	 buf[32], got[128] = "";
	size_t	 count = 0;

	for (i = 0; i < n; i++) {
		board_label(b, nb[i], buf);
		if (strstr(want, buf) == NULL)
			return false;
		strcat(got, buf);
	}
	for (i = 0; want[i] != '\0'; i++)
		if (want[i] == ' ')
			count++;
	return (size_t)n == count + 1;
}

static void
test_hex(void)
{
	struct board	 b = hexboard(12, 10, false), o = hexboard(12, 10, true);
	struct board	 w = hexboard(120, 5, false);
	char		 buf[32];

	CHECK(board_find(&b, "0304") == 3 * 12 + 2);
	CHECK(strcmp(board_label(&b, board_find(&b, "0304"), buf), "0304") == 0);
	CHECK(board_find(&b, "0000") == -1);
	CHECK(board_find(&b, "1301") == -1);
	CHECK(board_find(&b, "0111") == -1);
	CHECK(board_find(&b, "304") == -1);
	CHECK(board_find(&b, "03a4") == -1);
	CHECK(board_find(&b, "1210") == 9 * 12 + 11);
	/* DESIGN.md: 0304 touches 0303, 0305, 0203, 0204, 0403, 0404. */
	CHECK(neighbours_are(&b, "0304", "0303 0305 0203 0204 0403 0404"));
	/* An even column sits lower: its side neighbours are r and r+1. */
	CHECK(neighbours_are(&b, "0404", "0403 0405 0304 0305 0504 0505"));
	/* Corners and edges. */
	CHECK(neighbours_are(&b, "0101", "0102 0201"));
	CHECK(neighbours_are(&b, "0201", "0202 0101 0102 0301 0302"));
	CHECK(neighbours_are(&b, "1210", "1209 1110"));
	/* odd-low: the odd columns sit lower. */
	CHECK(neighbours_are(&o, "0304", "0303 0305 0204 0205 0404 0405"));
	CHECK(board_is_adjacent(&b, board_find(&b, "0304"),
	    board_find(&b, "0403")));
	CHECK(!board_is_adjacent(&b, board_find(&b, "0304"),
	    board_find(&b, "0405")));
	/* Wider labels. */
	CHECK(board_find(&w, "120005") == 4 * 120 + 119);
	CHECK(strcmp(board_label(&w, 0, buf), "001001") == 0);
}

/* board_row(): a product for a division, exact on every board the maps
 * allow (9999 columns at most, MAXHEXES hexes): checked at each row's
 * first and last hex, where a product that is off shows. */
static void
test_board_row(void)
{
	static const int cols[] = { 1, 2, 3, 7, 10, 999, 1000, 1023, 4093,
	    9973, 9999 };
	int		 i, r, bad = 0;

	for (i = 0; i < (int)(sizeof(cols) / sizeof(cols[0])); i++) {
		struct board b = hexboard(cols[i], 1, false);

		b.colsinv = ((uint64_t)1 << 40) / (uint64_t)cols[i] + 1;
		for (r = 0; (long)r * cols[i] < MAXHEXES; r++) {
			int	 first = r * cols[i], last = first + cols[i] - 1;

			bad += board_row(&b, first) != r;
			bad += last < MAXHEXES && board_row(&b, last) != r;
		}
	}
	CHECK(bad == 0);
}

/* board_ring(): the hexes at exactly d from a centre, each once, on
 * boards of either column parity, at their edges and beyond them. */
static void
test_hex_ring(void)
{
	static const int dims[][2] = { { 12, 10 }, { 1, 1 }, { 7, 3 },
	    { 2, 9 } };
	int		 ring[6 * 30 + 1], i, k, c, d, n, want, bad;
	unsigned char	 seen[120];

	for (i = 0; i < 8; i++) {
		struct board b = hexboard(dims[i / 2][0], dims[i / 2][1],
		    i % 2 != 0);

		bad = 0;
		for (c = 0; c < b.ncells; c++)
			for (d = 0; d <= 25; d++) {
				n = board_ring(&b, c, d, ring);
				memset(seen, 0, sizeof(seen));
				for (k = 0; k < n; k++) {
					if (ring[k] < 0 || ring[k] >= b.ncells ||
					    seen[ring[k]] ||
					    board_distance(&b, c, ring[k]) != d)
						bad++;
					else
						seen[ring[k]] = 1;
				}
				for (want = 0, k = 0; k < b.ncells; k++)
					want += board_distance(&b, c, k) == d;
				if (n != want || n > (d == 0 ? 1 : 6 * d))
					bad++;
			}
		CHECK(bad == 0);
	}
}

/* Directions, straight lines and distances on a hex board. */
static void
test_hex_lines(void)
{
	struct board	 b = hexboard(12, 10, false), o = hexboard(12, 10, true);
	int		 c = board_find(&b, "0304"), d, x;
	char		 buf[32];

#define AT(bd, l)	board_find((bd), (l))
	/* Clockwise from north: N, NE, SE, S, SW, NW. */
	CHECK(board_step(&b, c, 0) == AT(&b, "0303"));
	CHECK(board_step(&b, c, 1) == AT(&b, "0403"));
	CHECK(board_step(&b, c, 2) == AT(&b, "0404"));
	CHECK(board_step(&b, c, 3) == AT(&b, "0305"));
	CHECK(board_step(&b, c, 4) == AT(&b, "0204"));
	CHECK(board_step(&b, c, 5) == AT(&b, "0203"));
	CHECK(board_step(&b, AT(&b, "0101"), 0) == -1);
	CHECK(board_step(&b, AT(&b, "0101"), 5) == -1);
	/* Each direction and its opposite. */
	for (d = 0; d < 6; d++) {
		x = board_step(&b, c, d);
		CHECK(board_dir(&b, c, x) == d);
		CHECK(board_dir(&b, x, c) == (d + 3) % 6);
		CHECK(board_distance(&b, c, x) == 1);
		CHECK(board_distance(&o, c, board_step(&o, c, d)) == 1);
	}
	CHECK(board_dir(&b, c, AT(&b, "0306")) == -1);
	/* A straight line north-east from 0304: 0403, 0503, 0602. */
	x = board_step(&b, board_step(&b, c, 1), 1);
	CHECK(strcmp(board_label(&b, x, buf), "0503") == 0);
	CHECK(strcmp(board_label(&b, board_step(&b, x, 1), buf), "0602") == 0);
	CHECK(board_distance(&b, c, board_step(&b, x, 1)) == 3);
	/* Distances: along a column, across columns, back and forth. */
	CHECK(board_distance(&b, c, c) == 0);
	CHECK(board_distance(&b, c, AT(&b, "0308")) == 4);
	CHECK(board_distance(&b, c, AT(&b, "0704")) == 4);
	CHECK(board_distance(&b, AT(&b, "0704"), c) == 4);
	CHECK(board_distance(&b, c, AT(&b, "0706")) == 4);
	CHECK(board_distance(&b, c, AT(&b, "0707")) == 5);
	CHECK(board_distance(&b, AT(&b, "0101"), AT(&b, "1210")) == 15);
#undef AT
}

static void
test_locate(void)
{
	const char	*doc = "{\n  \"a\": [1, {\"b~/c\": \"x\"}],\n"
	    "  \"\\u00e9t\\u00e9\": {\"k\": true}, \"z\": \"\xc3\xa9\", "
	    "\"y\": 5\n}";
	size_t		 len = strlen(doc);
	int		 line, col;

	CHECK(locate(doc, len, "", &line, &col) == 0 && line == 1 &&
	    col == 1);
	CHECK(locate(doc, len, "/a", &line, &col) == 0 && line == 2 &&
	    col == 8);
	CHECK(locate(doc, len, "/a/1/b~0~1c", &line, &col) == 0 &&
	    line == 2 && col == 21);
	CHECK(locate(doc, len, "/\xc3\xa9t\xc3\xa9/k", &line, &col) == 0 &&
	    line == 3 && col == 26);
	/* Columns count characters: "é" is one. */
	CHECK(locate(doc, len, "/y", &line, &col) == 0 && line == 3 &&
	    col == 48);
	CHECK(locate(doc, len, "/nosuch", &line, &col) == -1);
	CHECK(locate(doc, len, "/a/7", &line, &col) == -1);
	CHECK(locate("[", 1, "/0", &line, &col) == -1);
}

/*
 * The JSON Pointer kept for messages: a key of any length, with ~ and /,
 * is kept whole and popped exactly; an error's copy is cut at a character
 * and marked; the line:column comes from the value, never from the cut.
 */
static void
test_pointer(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct ld	*ld = &t->reader;
	char		 key[601], doc[700];
	size_t		 i;
	int		 rc;

	for (i = 0; i < 600; i++)
		key[i] = i % 3 == 0 ? '~' : i % 3 == 1 ? '/' : 'k';
	key[600] = '\0';
	ld_start(ld, &t->mem, &e, "x.json", "{}", 2);
	ld_push(ld, "units");
	ld_pushi(ld, 3);
	ld_push(ld, key);
	CHECK(ld->depth == 3 && ld->plen == strlen("/units/3") + 1 + 1000);
	ld_pop(ld);
	ld_push(ld, "at");
	CHECK(strcmp(ld->ptr, "/units/3/at") == 0 && ld->depth == 3);
	ld_pop(ld);
	ld_pop(ld);
	ld_pop(ld);
	ld_pop(ld);			/* one too many: harmless */
	CHECK(ld->depth == 0 && strcmp(ld->ptr, "") == 0);
	arb_turn_free(t);

	/* An unknown key of 601 characters on line 3: the message points at
	 * its value there (column 613), and the pointer is cut with "...". */
	snprintf(doc, sizeof(doc), "{\"arbiter\": 1, \"ruleset\": "
	    "\"aeonis\",\n\"turn\": 1,\n  \"\\u00e9%s\": 0}", key);
	t = arb_turn_new();
	rc = arb_turn_load_map(t, "x.json", doc, strlen(doc), &e);
	CHECK(rc == -1 && e.code == ARB_EDATA && e.line == 3 &&
	    e.column == 613 && strncmp(e.text, "unknown key", 11) == 0);
	CHECK(strlen(e.pointer) < sizeof(e.pointer) &&
	    strncmp(e.pointer, "/\xc3\xa9~0~1k~0", 9) == 0 &&
	    strcmp(e.pointer + strlen(e.pointer) - 3, "...") == 0);
	arb_turn_free(t);
}

/*
 * Keys chosen to collide under an unkeyed hash (here FNV-1a, the hash we
 * used to have: 2000 ids whose hash ends in 12 zero bits) cost no more to
 * put in a map than any others.
 */
static void
test_strmap_collisions(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct strmap	 m;
	static char	 ids[2000][16];
	unsigned long	 k = 0;
	int		 n, ok = 1;
	jmp_buf		 jb;

	memset(&m, 0, sizeof(m));
	t->mem.jmp = &jb;
	if (setjmp(jb) != 0) {
		CHECK(!"out of memory");
		return;
	}
	for (n = 0; n < 2000; k++) {
		uint64_t	 h = 14695981039346656037u;
		const char	*p;

		snprintf(ids[n], sizeof(ids[n]), "o%lu", k);
		for (p = ids[n]; *p != '\0'; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211u;
		if ((h & 4095) == 0)
			n++;
	}
	for (n = 0; n < 2000; n++)
		strmap_put(&t->mem, &m, ids[n], n);
	for (n = 0; n < 2000; n++)
		ok &= strmap_get(&m, ids[n]) == n;
	CHECK(ok && m.n == 2000);
	/* Unkeyed, about n * n / 2 = 2,000,000; keyed, about 1.5 n. */
	CHECK(m.probes < 20 * 2000);
	strmap_release(&m);
	t->mem.jmp = NULL;
	arb_turn_free(t);
}

/* The sparse integer map: absent keys read 0; values survive growth. */
static void
test_intmap(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct intmap	 m;
	uint64_t	 k;
	int		 ok = 1;
	jmp_buf		 jb;

	memset(&m, 0, sizeof(m));
	t->mem.jmp = &jb;
	if (setjmp(jb) != 0) {
		CHECK(!"out of memory");
		return;
	}
	CHECK(intmap_get(&m, 5) == 0);
	for (k = 0; k < 30000; k += 3)
		*intmap_at(&t->mem, &m, k * 6 + 1) |= k + 7;
	for (k = 0; k < 30000; k++)
		ok &= intmap_get(&m, k * 6 + 1) == (k % 3 == 0 ? k + 7 : 0);
	CHECK(ok && m.n == 10000 && intmap_get(&m, 0) == 0);
	*intmap_at(&t->mem, &m, 0) = 9;
	CHECK(intmap_get(&m, 0) == 9 && m.n == 10001);
	intmap_release(&m);
	t->mem.jmp = NULL;
	arb_turn_free(t);
}

static void
test_dice(void)
{
	uint64_t	 s = 0;
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	jmp_buf		 jb;
	int		 i, counts[7] = { 0 };

	/* The published first output of splitmix64 from state 0. */
	CHECK(splitmix64(&s) == 0xe220a8397b1dcdafu);
	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) == 0) {
		t->dice = 42;
		for (i = 0; i < 6000; i++)
			counts[dice_roll(t, 6, "test")]++;
		CHECK(counts[0] == 0);
		for (i = 1; i <= 6; i++)
			CHECK(counts[i] > 850 && counts[i] < 1150);
		CHECK(t->draws.n == 6000);
	} else
		CHECK(!"jumped");
	t->mem.jmp = NULL;
	arb_turn_free(t);
}

/*
 * The fair dice' derivation (arbiter-rules(7), Dice) against vectors
 * worked out apart from arbiter, with
 *	printf 'arbiter-dice-1\nmorne test\n1' |
 *	    openssl dgst -sha256 -mac HMAC -macopt hexkey:000102...1f
 * and Python's hmac and hashlib (seed: the first 8 bytes, big-endian,
 * mod 2^63 - 1; commitment: SHA-256 of R).
 */
static void
test_fair(void)
{
	unsigned char	 key[FAIR_KEYLEN], r[FAIR_HASHLEN], h[FAIR_HASHLEN];
	unsigned char	 back[FAIR_HASHLEN];
	char		 hex[2 * FAIR_HASHLEN + 1];
	int		 i;

	for (i = 0; i < FAIR_KEYLEN; i++)
		key[i] = (unsigned char)i;
	fair_derive(key, "morne test", 1, r);
	fair_hex(r, FAIR_HASHLEN, hex);
	CHECK(strcmp(hex, "116a42b363e0769997a26c2601eaea32"
	    "a5573526d0aae6832485b44f08e985d8") == 0);
	CHECK(fair_seed(r) == 1254888784418338457u);
	fair_sha256(r, FAIR_HASHLEN, h);
	fair_hex(h, FAIR_HASHLEN, hex);
	CHECK(strcmp(hex, "13abf24bffb6939c46606739c05e5444"
	    "de53bfab4aa0fd6168caf8e67823a3df") == 0);
	/* Another turn, another game: other dice. */
	fair_derive(key, "morne test", 2, h);
	CHECK(memcmp(r, h, FAIR_HASHLEN) != 0);
	fair_derive(key, "morne tesT", 1, h);
	CHECK(memcmp(r, h, FAIR_HASHLEN) != 0);
	/* SHA-256 of "abc" (FIPS 180-2). */
	fair_sha256("abc", 3, h);
	fair_hex(h, FAIR_HASHLEN, hex);
	CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad") == 0);
	/* Hex both ways; the first bad digit is named. */
	CHECK(fair_unhex(hex, FAIR_HASHLEN, back) == -1);
	CHECK(memcmp(back, h, FAIR_HASHLEN) == 0);
	CHECK(fair_unhex("ABcd", 2, back) == -1 && back[0] == 0xab &&
	    back[1] == 0xcd);
	CHECK(fair_unhex("abxd", 2, back) == 2);
	/* The seed is below LONG_MAX: all ones reduce to 1. */
	memset(r, 0xff, sizeof(r));
	CHECK(fair_seed(r) == 1);
	memset(r, 0x7f, 1);
	CHECK(fair_seed(r) == 0);
	/* Random keys differ. */
	CHECK(fair_random(key, sizeof(key)) == 0);
	CHECK(fair_random(r, sizeof(r)) == 0);
	CHECK(memcmp(key, r, FAIR_KEYLEN) != 0);
}

static void
test_strmap(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct strmap	 m = { 0 };
	struct arb_error e;
	jmp_buf		 jb;
	char		 keys[1000][16];
	int		 i, bad = 0;

	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) == 0) {
		for (i = 0; i < 1000; i++) {
			snprintf(keys[i], sizeof(keys[i]), "k%d", i);
			strmap_put(&t->mem, &m, keys[i], i);
		}
		for (i = 0; i < 1000; i++)
			if (strmap_get(&m, keys[i]) != i)
				bad++;
		CHECK(bad == 0);
		CHECK(strmap_get(&m, "k1000") == -1);
		CHECK(m.n == 1000);
	}
	strmap_release(&m);
	arb_turn_free(t);
}

/* Loads a map text; returns the error (code ARB_EOK when it loaded). */
static struct arb_error
load(const char *text)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;

	arb_turn_load_map(t, "m.json", text, strlen(text), &e);
	arb_turn_free(t);
	return e;
}

#define MAP(rest) "{\"arbiter\": 1, \"ruleset\": \"aeonis\",\n" \
	"\"board\": {\"grid\": \"hex\", \"cols\": 4, \"rows\": 3},\n" \
	"\"players\": {\"red\": {\"ap\": 3}},\n" rest "}"

static void
test_load(void)
{
	struct arb_error e;

	e = load(MAP("\"units\": []"));
	CHECK(e.code == ARB_EOK);
	/* A syntax error: jansson's position, no pointer. */
	e = load("{\"arbiter\": 1,\n \"x\": [troo]}");
	CHECK(e.code == ARB_EDATA && e.line == 2 && e.column == 11 &&
	    e.pointer[0] == '\0' && strcmp(e.file, "m.json") == 0);
	e = load(MAP("\"units\": [{\"id\": \"a\", \"player\": \"red\", "
	    "\"type\": \"infantry\", \"at\": \"0504\"}]"));
	CHECK(e.code == ARB_EDATA && e.line == 4 && e.column == 66 &&
	    strcmp(e.pointer, "/units/0/at") == 0 &&
	    strcmp(e.text, "unknown cell \"0504\"") == 0);
	e = load(MAP("\"units\": [{\"id\": \"a\", \"player\": \"red\", "
	    "\"type\": \"infantry\", \"at\": \"0101\", \"strength\": -2}]"));
	CHECK(e.code == ARB_EDATA && strcmp(e.pointer,
	    "/units/0/strength") == 0 && strstr(e.text, "-2") != NULL);
	e = load(MAP("\"units\": [], \"extra\": 1"));
	CHECK(e.code == ARB_EDATA && strcmp(e.pointer, "/extra") == 0);
	e = load(MAP("\"_comment\": \"ignored\", \"units\": []"));
	CHECK(e.code == ARB_EOK);
	e = load("[]");
	CHECK(e.code == ARB_EDATA && e.line == 1 && e.column == 1);
	e = load("");
	CHECK(e.code == ARB_EDATA && e.line >= 1 && e.column >= 1);
}

/*
 * Messages are built whole, however long, so a long unit id keeps its UTF-8
 * intact.  Should the JSON writer refuse a string all the same, the write
 * fails with ARB_EINTERNAL and the piece being written is freed:
 * AddressSanitizer, which make check runs this under, reports a leak
 * otherwise.
 */
/* utf8_char(), the library's one reader of UTF-8, as RFC 3629 and
 * jansson read it (the text reader once took the overlong E0 86 92 for
 * U+0192: the fuzzer's). */
static void
test_utf8_char(void)
{
	static const struct {
		const char	*s;
		int		 len;
		unsigned long	 cp;
	} cases[] = {
		{ "A", 1, 0x41 }, { "\x7f", 1, 0x7f },
		{ "\xc3\xa9", 2, 0xe9 }, { "\xe2\x82\xac", 3, 0x20ac },
		{ "\xf0\x9f\x8e\xb2", 4, 0x1f3b2 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		{ "\xc0\x80", 0, 0 }, { "\xc1\xbf", 0, 0 },
		{ "\xe0\x86\x92", 0, 0 }, { "\xf0\x80\x80\x80", 0, 0 },
		{ "\xed\xa0\x80", 0, 0 }, { "\xed\xbf\xbf", 0, 0 },
		{ "\xf4\x90\x80\x80", 0, 0 }, { "\xf5\x80\x80\x80", 0, 0 },
		{ "\xf8\x88\x80\x80\x80", 0, 0 }, { "\x80", 0, 0 },
		{ "\xc3", 0, 0 }, { "\xe2\x82", 0, 0 }, { "\xc3(", 0, 0 },
	};
	unsigned long	 cp;
	size_t		 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cp = 0;
		CHECK(utf8_char((const unsigned char *)cases[i].s,
		    strlen(cases[i].s), &cp) == cases[i].len &&
		    (cases[i].len == 0 || cp == cases[i].cp));
	}
	/* n bounds it: a character cut by the end of the bytes given. */
	CHECK(utf8_char((const unsigned char *)"\xc3\xa9", 1, &cp) == 0);
	CHECK(utf8_char((const unsigned char *)"", 0, &cp) == 0);
}

/* Messages cut in the middle of a character are mended. */
static void
test_utf8_mend(void)
{
	char	 a[] = "caf\xc3\xa9 \xc3", b[] = "\xe2\x82\"x\xe2\x82\xac";
	char	 c[] = "\xf0\x9f\x8e", d[] = "plain \xff text";
	char	 e[64];

	utf8_mend(a);
	CHECK(strcmp(a, "caf\xc3\xa9 ") == 0);
	utf8_mend(b);
	CHECK(strcmp(b, "\"x\xe2\x82\xac") == 0);
	utf8_mend(c);
	CHECK(strcmp(c, "") == 0);
	utf8_mend(d);
	CHECK(strcmp(d, "plain  text") == 0);
	/* A cut at five bytes leaves half of the third "é". */
	snprintf(e, sizeof(e), "%.5s|", "\xc3\xa9\xc3\xa9\xc3\xa9");
	utf8_mend(e);
	CHECK(strcmp(e, "\xc3\xa9\xc3\xa9|") == 0);
	/* What is not UTF-8 though it looks so (found by fuzz_turn in a
	 * mail's text: jansson refused the line, and the run said "out of
	 * memory"): a lead past U+10FFFF (f5, f4 90), an overlong form
	 * (c0 80, e0 80 80, f0 80 80 80), a surrogate (ed a0 80). */
	{
		char	 f[] = "en\xf5\xbc\x97\x92" "ers|\xc0\x80|\xe0\x80\x80|"
		    "\xf0\x80\x80\x80|\xed\xa0\x80|\xf4\x90\x80\x80|"
		    "\xf4\x8f\xbf\xbf";
		json_t	*v;

		utf8_mend(f);
		CHECK((v = json_string(f)) != NULL);
		json_decref(v);
		CHECK(strcmp(f, "eners||||||\xf4\x8f\xbf\xbf") == 0);
	}
}

static void
test_messages(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	char		 id[2 * 300 + 1], map[1024], orders[1024];
	const char	*msg;
	FILE		*fp;
	int		 i;

	for (i = 0; i < 300; i++)
		memcpy(id + 2 * i, "\xc3\xa9", 2);	/* U+00E9 */
	id[2 * 300] = '\0';
	snprintf(map, sizeof(map), MAP("\"units\": [{\"id\": \"%s\", "
	    "\"player\": \"red\", \"type\": \"infantry\", \"at\": "
	    "\"0101\"}]"), id);
	snprintf(orders, sizeof(orders), "{\"arbiter\": 1, \"player\": "
	    "\"red\", \"turn\": 1, \"orders\": [{\"id\": \"a\", "
	    "\"units\": [\"%s\"], \"move\": [\"0101\", \"0201\"]}]}", id);
	CHECK(arb_turn_load_map(t, "m.json", map, strlen(map), &e) == 0);
	CHECK(arb_turn_load_orders(t, "o.json", NULL, orders, strlen(orders),
	    &e) == 0);
	CHECK(arb_turn_run(t, ARB_TRACE, &e) == 0);
	msg = t->orders.n == 1 ? t->orders.v[0].msg : NULL;
	CHECK(msg != NULL && strncmp(msg, id, strlen(id)) == 0 &&
	    strcmp(msg + strlen(id), " move 0101 to 0201 for 1 AP "
	    "(0201 plains 1)") == 0);
	/* A string the writer refuses: a lone UTF-8 lead byte. */
	CHECK((fp = tmpfile()) != NULL);
	if (t->orders.n == 1 && fp != NULL) {
		t->orders.v[0].msg = "\xc3";
		CHECK(arb_turn_write_result(t, ARB_RESULT_TRACE, fp, &e) ==
		    -1 && e.code == ARB_EINTERNAL && t->json == NULL);
	}
	if (fp != NULL)
		fclose(fp);
	arb_turn_free(t);
}

#define GRAPH(edges, cells) "{\"arbiter\": 1, \"ruleset\": " \
	"\"territory\",\n\"board\": {\"grid\": \"graph\", " \
	"\"territories\": [\"A\", \"B\", \"C\", \"D\"],\n" \
	"\"edges\": " edges "},\n\"players\": {\"red\": {}}" cells "}"

/* Graph boards: names, edges both ways, and the loader's refusals. */
static void
test_graph(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	const char	*text = GRAPH("[[\"A\", \"B\"], [\"C\", \"A\"], "
	    "[\"C\", \"D\"]]", "");
	struct board	*b;
	char		 buf[32];

	CHECK(arb_turn_load_map(t, "g.json", text, strlen(text), &e) == 0);
	b = &t->board;
	CHECK(b->kind == BOARD_GRAPH && b->ncells == 4);
	CHECK(board_find(b, "C") == 2 && board_find(b, "E") == -1);
	CHECK(strcmp(board_label(b, 3, buf), "D") == 0);
	CHECK(board_is_adjacent(b, 0, 1) && board_is_adjacent(b, 1, 0));
	CHECK(board_is_adjacent(b, 0, 2) && board_is_adjacent(b, 2, 0));
	CHECK(board_is_adjacent(b, 2, 3) && !board_is_adjacent(b, 0, 3));
	CHECK(!board_is_adjacent(b, 1, 2) && !board_is_adjacent(b, 0, 0));
	arb_turn_free(t);

	e = load(GRAPH("[[\"A\", \"A\"]]", ""));
	CHECK(e.code == ARB_EDATA && strcmp(e.pointer, "/board/edges/0") ==
	    0);
	e = load(GRAPH("[[\"A\", \"B\"], [\"B\", \"A\"]]", ""));
	CHECK(e.code == ARB_EDATA && strstr(e.text, "twice") != NULL);
	e = load(GRAPH("[[\"A\", \"E\"]]", ""));
	CHECK(e.code == ARB_EDATA && strcmp(e.pointer, "/board/edges/0/1") ==
	    0);
	e = load(GRAPH("[]", ",\n\"cells\": {\"B\": {\"armies\": 2}}"));
	CHECK(e.code == ARB_EDATA && e.line == 5 && strcmp(e.pointer,
	    "/cells/B/armies") == 0);
	e = load(GRAPH("[]", ",\n\"cells\": {\"B\": {\"owner\": \"red\", "
	    "\"armies\": 2}}"));
	CHECK(e.code == ARB_EOK);
	/* A hex rule system refuses a graph board. */
	e = load("{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"board\": "
	    "{\"grid\": \"graph\"}, \"players\": {\"red\": {}}}");
	CHECK(e.code == ARB_EDATA && strcmp(e.pointer, "/board/grid") == 0);
}

static bool
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Convex polygons on a table: each answer worked out by hand. */
static void
test_geom(void)
{
	struct pt	 sq[4] = { { 0, 0 }, { 0, 2 }, { 2, 2 }, { 2, 0 } };
	struct pt	 b[4] = { { 3, 0 }, { 4, 0 }, { 4, 1 }, { 3, 1 } };
	struct pt	 bad[4] = { { 0, 0 }, { 2, 2 }, { 2, 0 }, { 0, 2 } };
	struct pt	 line[3] = { { 0, 0 }, { 1, 1 }, { 2, 2 } };
	struct pt	 out[16], p;
	int		 n;

	/* Clockwise is turned round; a bow tie and a line are refused. */
	CHECK(geom_convex(sq, 4) == 0 && near(geom_area(sq, 4), 4));
	CHECK(geom_convex(bad, 4) < 0);
	CHECK(geom_convex(line, 3) < 0);
	CHECK(geom_convex(b, 4) == 0);
	/* 1 apart: no overlap; moving east, contact after 1, and only if
	 * the way is long enough to go on into it. */
	CHECK(!geom_overlaps(sq, 4, b, 4));
	CHECK(near(geom_sweep(sq, 4, pt_make(1, 0), 2, b, 4), 1));
	CHECK(geom_sweep(sq, 4, pt_make(1, 0), 1, b, 4) < 0);
	CHECK(geom_sweep(sq, 4, pt_make(-1, 0), 5, b, 4) < 0);
	/* Sliding along a side it touches is no collision. */
	b[0].x = b[3].x = 2;
	CHECK(!geom_overlaps(sq, 4, b, 4));
	CHECK(geom_sweep(sq, 4, pt_make(0, 1), 3, b, 4) < 0);
	CHECK(near(geom_shared(sq, 4, b, 4), 1));
	CHECK(geom_sweep(sq, 4, pt_make(1, 0), 0.5, b, 4) == 0);
	/* Overlap of 1 by 1 with a square shifted by (1, 1). */
	{
		struct pt c[4] = { { 1, 1 }, { 3, 1 }, { 3, 3 }, { 1, 3 } };

		n = geom_clip(sq, 4, c, 4, out);
		CHECK(n == 4 && near(fabs(geom_area(out, n)), 1));
		CHECK(near(geom_depth(sq, 4, c, 4), 1));
		CHECK(geom_inside(c, 4, pt_make(2, 2)));
		CHECK(!geom_inside(c, 4, pt_make(1, 2)));
	}
	/* Bearings and turns: 90 degrees counterclockwise about (1, 1). */
	p = pt_bearing(90);
	CHECK(p.x == 1 && p.y == 0);
	p = geom_rotate(pt_make(2, 1), pt_make(1, 1), 90);
	CHECK(near(p.x, 1) && near(p.y, 2));
	CHECK(near(geom_angle(pt_make(1, 0), pt_make(0, 1)), 90));
	CHECK(near(geom_angle(pt_make(0, 1), pt_make(1, 0)), 270));
	CHECK(geom_norm360(-90) == 270 && geom_norm360(360) == 0);
	CHECK(geom_round(1.0605) == 1.061 || geom_round(1.0605) == 1.06);
	CHECK(geom_round(-0.0001) == 0 && !signbit(geom_round(-0.0001)));
	CHECK(near(geom_segdist(pt_make(1, 1), pt_make(0, 0), pt_make(2, 0)),
	    1));
}

/*
 * Refusals through the public interface: a bad order and a bad file are
 * rulings (the loads succeed), counted, and their problems listed by
 * player then file name, whatever the order of loading; a byte-order mark
 * is skipped.
 */
static void
test_refusals(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	const char	*map = "\xef\xbb\xbf" MAP("\"units\": [{\"id\": \"a1\", "
	    "\"player\": \"red\", \"type\": \"infantry\", \"at\": \"0101\"}]");
	const char	*bad = "{\"arbiter\": 1, \"player\": \"red\", "
	    "\"turn\": 1,\n\"orders\": [{\"units\": [\"a2\"], "
	    "\"move\": [\"0101\", \"0201\"]},\n{\"units\": [\"a1\"], "
	    "\"move\": [\"0101\", \"0201\"]}]}";
	const char	*junk = "\xef\xbb\xbf[1, 2";
	int		 files = -1;

	CHECK(arb_turn_load_map(t, "m.json", map, strlen(map), &e) == 0);
	CHECK(arb_turn_load_orders(t, "z.json", NULL, junk, strlen(junk),
	    &e) == 0);
	CHECK(arb_turn_load_orders(t, "y.json", NULL, bad, strlen(bad),
	    &e) == 0);
	CHECK(arb_turn_refused(t, &files) == 1 && files == 1);
	/* red's file first, though loaded second; then the unknown one. */
	CHECK(arb_turn_problem(t, 0, &e) == 0 && e.code == ARB_EDATA &&
	    strcmp(e.file, "y.json") == 0 && e.line == 2 && e.column == 23 &&
	    strcmp(e.pointer, "/orders/0/units/0") == 0 &&
	    strcmp(e.text, "unknown unit \"a2\" (did you mean \"a1\"?)") == 0);
	CHECK(arb_turn_problem(t, 1, &e) == 0 && strcmp(e.file, "z.json") ==
	    0 && e.line == 1 && e.pointer[0] == '\0' &&
	    strncmp(e.text, "not JSON: ", 10) == 0);
	CHECK(arb_turn_problem(t, 2, &e) == -1);
	CHECK(arb_turn_run(t, 0, &e) == 0);
	CHECK(t->orders.n == 2 && t->orders.v[0].status == OS_ILLEGAL &&
	    t->orders.v[0].reason == R_UNKNOWN_UNIT &&
	    t->orders.v[1].status == OS_DONE);
	CHECK(arb_turn_illegal(t) == 1);
	arb_turn_free(t);
}

/* suggest.c: the edit distance and which names are suggested. */
static void
test_suggest(void)
{
	struct suggest	 s;
	char		 longer[SUGGEST_MAXLEN + 2];

	CHECK(edit_distance("", "", 2) == 0);
	CHECK(edit_distance("abc", "abc", 2) == 0);
	CHECK(edit_distance("r-inf-9", "r-inf-1", 2) == 1);	/* replaced */
	CHECK(edit_distance("move", "mve", 2) == 1);		/* removed */
	CHECK(edit_distance("move", "moove", 2) == 1);		/* added */
	CHECK(edit_distance("mvoe", "move", 2) == 1);		/* swapped */
	CHECK(edit_distance("kitten", "sitting", 5) == 3);
	CHECK(edit_distance("kitten", "sitting", 2) == 3);	/* max + 1 */
	CHECK(edit_distance("a", "abcdef", 2) == 3);		/* lengths */
	CHECK(edit_distance("ca", "abc", 5) == 3);	/* no second swap */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK(edit_distance(longer, longer, 2) == 3);	/* too long */
	/* The nearest, ties to the first in byte order, never itself. */
	suggest_start(&s, "r-inf-9");
	suggest_offer(&s, "r-inf-9");
	suggest_offer(&s, "r-inf-2");
	suggest_offer(&s, "r-cav-1");
	suggest_offer(&s, "r-inf-1");
	CHECK(s.best != NULL && strcmp(s.best, "r-inf-1") == 0 &&
	    s.dist == 1);
	/* Short names: one edit at most; long ones: two. */
	suggest_start(&s, "a1");
	suggest_offer(&s, "b2");
	CHECK(s.best == NULL);
	suggest_offer(&s, "a2");
	CHECK(s.best != NULL && strcmp(s.best, "a2") == 0);
	suggest_start(&s, "x");
	suggest_offer(&s, "yz");
	CHECK(s.best == NULL);
	suggest_start(&s, "cavalry-12");
	suggest_offer(&s, "cavlary-21");	/* two swaps */
	CHECK(s.best != NULL && s.dist == 2);
	suggest_offer(&s, "infantry-1");
	CHECK(strcmp(s.best, "cavlary-21") == 0);
	CHECK(same_but_case("Red", "red") && same_but_case("BLUE", "blue") &&
	    !same_but_case("red", "reds") && !same_but_case("red", "rod"));
}

/* The pool hands out aligned, distinct memory, and reuses its blocks. */
static void
test_pool(void)
{
	struct pool	 p = { NULL, NULL };
	char		*a, *b, *c;

	a = pool_alloc(&p, 3);
	b = pool_alloc(&p, 5);
	CHECK(a != NULL && b != NULL && b >= a + 3);
	CHECK((uintptr_t)b % sizeof(max_align_t) == 0);
	c = pool_alloc(&p, (size_t)80 << 20);		/* a block of its own */
	CHECK(c != NULL);
	memset(c, 1, (size_t)80 << 20);
	pool_reset(&p);
	CHECK(p.head == NULL && p.spare != NULL);
	CHECK(pool_alloc(&p, 100) != NULL && p.head != NULL);
	CHECK(pool_alloc(&p, SIZE_MAX - 8) == NULL);
	pool_release(&p);
	CHECK(p.head == NULL && p.spare == NULL);
}

/* mem_rewind() takes back what was allocated since mem_mark(), small and
 * big blocks alike, and keeps what was before (AddressSanitizer sees a
 * block freed twice or one kept and lost; LeakSanitizer one left). */
static void
test_mem_mark(void)
{
	struct mem	 m;
	struct mem_mark	 outer, inner;
	struct arb_error e;
	jmp_buf		 jb;
	char		*before, *a, *big, *again;
	int		 i;

	memset(&m, 0, sizeof(m));
	memset(&e, 0, sizeof(e));
	m.err = &e;
	m.jmp = &jb;
	if (setjmp(jb) != 0) {
		CHECK(0);
		mem_release(&m);
		return;
	}
	mem_mark(&m, &outer);			/* an empty arena */
	a = mem_alloc(&m, 10);
	big = mem_alloc(&m, (size_t)1 << 20);	/* behind the head */
	CHECK(a != NULL && big != NULL);
	mem_rewind(&m, &outer);
	CHECK(m.arena == NULL);
	before = mem_strdup(&m, "kept");
	mem_mark(&m, &outer);
	for (i = 0; i < 3; i++) {
		a = mem_alloc(&m, 40000);	/* new heads */
		big = mem_alloc(&m, (size_t)1 << 20);
		memset(a, 1, 40000);
		memset(big, 2, (size_t)1 << 20);
		mem_mark(&m, &inner);
		CHECK(mem_alloc(&m, 100000) != NULL);
		mem_rewind(&m, &inner);
	}
	mem_rewind(&m, &outer);
	CHECK(strcmp(before, "kept") == 0);
	again = mem_alloc(&m, 8);		/* where the mark was */
	CHECK(again == before + sizeof(max_align_t) * ((5 +
	    sizeof(max_align_t) - 1) / sizeof(max_align_t)));
	CHECK(again[0] == 0 && strcmp(before, "kept") == 0);
	mem_release(&m);
}

/* A document parsed in the pool is dropped whole; jansson values made
 * outside a parse (an embedding program's) are malloc'ed and freed as
 * usual, before and after (AddressSanitizer checks every free). */
static void
test_pooled_parse(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	json_t		*mine = json_pack("{s:[i,i]}", "a", 1, 2);
	const char	 text[] = "{\"x\": [1, 2, {\"y\": \"z\"}]}";
	struct ld	*ld = &t->reader;
	jmp_buf		 jb;

	CHECK(mine != NULL);
	memset(&e, 0, sizeof(e));
	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) == 0) {
		ld_start(ld, &t->mem, &e, "x.json", text, sizeof(text) - 1);
		CHECK(ld_get(ld_parse(ld), "x") != NULL);
		CHECK(ld->pooled && ld->pool.head != NULL);
		ld_close(ld);
		CHECK(ld->doc == NULL && ld->pool.head == NULL);
	} else
		CHECK(0);
	t->mem.jmp = NULL;
	CHECK(json_array_append_new(json_object_get(mine, "a"),
	    json_string("after")) == 0);
	json_decref(mine);
	arb_turn_free(t);
}

/* mem_printf() gives what snprintf() gives, by hand or not. */
static void
test_printf(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	char		 want[2048], big[1100];
	const char	*got;
	jmp_buf		 jb;
	int		 bad = 0;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memset(&e, 0, sizeof(e));
	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) != 0) {
		CHECK(0);
		goto out;
	}
#define SAME(...) do {							\
	snprintf(want, sizeof(want), __VA_ARGS__);			\
	got = mem_printf(&t->mem, __VA_ARGS__);				\
	if (strcmp(got, want) != 0) {					\
		bad++;							\
		printf("mem_printf: \"%s\", not \"%s\"\n", got, want);	\
	}								\
} while (0)
	SAME("plain");
	SAME("%s and %s", "a", "");
	SAME("%d %d %d %d", 0, -1, INT_MAX, INT_MIN);
	SAME("%ld %ld %ld", 0L, LONG_MAX, LONG_MIN);
	SAME("%u %lu %zu", 0u, ULONG_MAX, (size_t)SIZE_MAX);
	SAME("100%% %s%%", "sure");
	SAME("%.40s|%.3s|%.0s|%.10s", big, "abcdef", "abc", "ab");
	SAME("\"%.40s\"%s", "\xc3\xa9t\xc3\xa9", "\xe2\x82\xac");
	SAME("%s", big);				/* longer than 512 */
	SAME("%5d|%-3s|%x|%g", 42, "a", 255u, 1.5);	/* not by hand */
	SAME("%s%d", "a", 1);
#undef SAME
	CHECK(bad == 0);
out:
	t->mem.jmp = NULL;
	arb_turn_free(t);
}

/* o_string() escapes as jansson does, whatever falls in its eight-byte
 * words: each special byte or character at each place in strings of 0 to
 * 20 bytes. */
static void
test_o_string(void)
{
	static const char *const odd[] = { "\"", "\\", "\n", "\x01", "\x1f",
	    "\x7f", " ", "~", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
	    "/", "!", "#", "]", "[" };
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct out	*w = calloc(1, sizeof(*w));
	FILE		*fp = tmpfile();
	char		 str[64], got[256];
	size_t		 len, pos, k, n;
	jmp_buf		 jb;
	int		 bad = 0, runs = 0;

	CHECK(w != NULL && fp != NULL);
	if (w == NULL || fp == NULL)
		return;
	memset(&e, 0, sizeof(e));
	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) != 0) {
		CHECK(0);
		goto out;
	}
	for (len = 0; len <= 20; len++)
		for (pos = 0; pos <= len; pos++)
			for (k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
				json_t	*v;
				char	*want;

				n = strlen(odd[k]);
				memset(str, 'a' + (int)(len % 26), len + n);
				memcpy(str + pos, odd[k], n);
				str[len + n] = '\0';
				memset(w, 0, sizeof(*w));
				w->m = &t->mem;
				w->fp = fp;
				rewind(fp);
				o_string(w, str, len + n);
				o_flush(w);
				fflush(fp);
				n = (size_t)ftell(fp);
				rewind(fp);
				got[fread(got, 1, n < sizeof(got) - 1 ? n :
				    sizeof(got) - 1, fp)] = '\0';
				v = json_string(str);
				want = json_dumps(v, JSON_ENCODE_ANY);
				bad += want == NULL || strcmp(want, got) != 0;
				runs++;
				free(want);
				json_decref(v);
			}
	CHECK(runs > 3000 && bad == 0);
out:
	t->mem.jmp = NULL;
	fclose(fp);
	free(w);
	arb_turn_free(t);
}

/* A text parsed ahead (in this thread here) is read as if parsed then,
 * and given back with its own pool; one that is not JSON keeps nothing
 * and is parsed again when read, which says why. */
static void
test_ahead(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct ld_ahead	 a, b;
	const char	 good[] = "\xef\xbb\xbf{\"x\": [1, 2]}";
	const char	 bad[] = "{\"x\": [1, 2}";
	struct ld	*ld = &t->reader;
	char		 text[200];
	int		 line = 0, column = 0;
	jmp_buf		 jb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.text = good;
	a.len = sizeof(good) - 1;
	b.text = bad;
	b.len = sizeof(bad) - 1;
	ld_ahead_parse(&a);
	ld_ahead_parse(&b);
	CHECK(a.doc != NULL && a.pooled && a.pool.head != NULL);
	CHECK(b.doc == NULL && b.pool.head == NULL && b.pool.spare == NULL);
	memset(&e, 0, sizeof(e));
	t->mem.err = &e;
	t->mem.jmp = &jb;
	if (setjmp(jb) == 0) {
		ld_start(ld, &t->mem, &e, "a.json", a.text, a.len);
		ld_ahead_take(ld, &a);
		CHECK(ld_len(ld, ld_get(ld_try_parse(ld, text, sizeof(text),
		    &line, &column), "x")) == 2);
		CHECK(a.doc == NULL && ld->docpool == &a.pool);
		ld_close(ld);
		/* Its blocks stay with a, for its owner to pass on. */
		CHECK(a.pool.head == NULL && a.pool.spare != NULL);
		CHECK(ld->pool.head == NULL && ld->pool.spare == NULL);
		ld_start(ld, &t->mem, &e, "b.json", b.text, b.len);
		ld_ahead_take(ld, &b);
		CHECK(ld_try_parse(ld, text, sizeof(text), &line, &column) ==
		    NULL && line == 1 && column == 12);
		ld_close(ld);
	} else
		CHECK(0);
	t->mem.jmp = NULL;
	ld_ahead_drop(&a);
	ld_ahead_drop(&b);
	CHECK(a.pool.head == NULL && a.pool.spare == NULL);
	arb_turn_free(t);
}

/* Blocks pass from pool to pool whole, and are used again. */
static void
test_pool_pass(void)
{
	struct pool	 a = { NULL, NULL }, b = { NULL, NULL };
	size_t		 size;

	CHECK(pool_alloc(&a, (size_t)1 << 20) != NULL);
	CHECK(pool_alloc(&a, 100) != NULL);
	size = pool_size(&a);
	pool_give(&a, &b);
	CHECK(a.head == NULL && a.spare == NULL && b.head == NULL);
	CHECK(pool_size(&b) == size);
	pool_take(&b, &a, 1);		/* one block at least */
	CHECK(a.spare != NULL && pool_size(&a) + pool_size(&b) == size);
	pool_take(&b, &a, SIZE_MAX);
	CHECK(b.spare == NULL && pool_size(&a) == size);
	CHECK(pool_alloc(&a, 1000) != NULL && pool_size(&a) == size);
	pool_release(&a);
	pool_release(&b);
}

static char *
read_all(const char *path, size_t *len)
{
	FILE	*fp = fopen(path, "rb");
	char	*p = NULL;
	long	 n;

	if (fp != NULL && fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 && (p = malloc((size_t)n + 1)) != NULL &&
	    fread(p, 1, (size_t)n, fp) == (size_t)n)
		*len = (size_t)n;
	else {
		free(p);
		p = NULL;
	}
	if (fp != NULL)
		fclose(fp);
	return p;
}

/* The key or a revealed value given after the map was not checked
 * against its commitment: the run fails, as the library was misused. */
static void
test_late_fair(void)
{
	struct arb_turn	*t;
	struct arb_error e;
	unsigned char	 r[32];
	size_t		 n = 0;
	char		*map;

	map = read_all("fixtures/aeonis/demo-turn/map.json", &n);
	CHECK(map != NULL);
	if (map == NULL)
		return;
	memset(r, 7, sizeof(r));
	t = arb_turn_new();
	CHECK(arb_turn_load_map(t, "map.json", map, n, &e) == 0);
	arb_turn_set_reveal(t, r, NULL);
	CHECK(arb_turn_run(t, 0, &e) == -1 && e.code == ARB_EINTERNAL);
	arb_turn_free(t);
	t = arb_turn_new();
	CHECK(arb_turn_load_map(t, "map.json", map, n, &e) == 0);
	arb_turn_set_reveal(t, NULL, r);
	CHECK(arb_turn_run(t, 0, &e) == -1 && e.code == ARB_EINTERNAL);
	arb_turn_free(t);
	free(map);
	/* With the key before the map (which names its game), a next
	 * commitment after it. */
	if ((map = read_all("fixtures/morne-plaine/d-secret-starts/map.json",
	    &n)) == NULL) {
		CHECK(map != NULL);
		return;
	}
	t = arb_turn_new();
	arb_turn_set_secret(t, r);
	CHECK(arb_turn_load_map(t, "map.json", map, n, &e) == 0);
	arb_turn_set_reveal(t, NULL, r);
	CHECK(arb_turn_run(t, 0, &e) == -1 && e.code == ARB_EINTERNAL);
	arb_turn_free(t);
	free(map);
}

/* Nothing is read into a turn once it has run: orders or rolls loaded
 * after the run would be named in the result as evidence the ruling
 * never used. */
static void
test_after_run(void)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	size_t		 n = 0, k = 0;
	char		*map = read_all("fixtures/aeonis/demo-turn/map.json", &n);
	char		*red = read_all("fixtures/aeonis/demo-turn/orders/red.json",
			    &k);

	CHECK(map != NULL && red != NULL);
	if (map == NULL || red == NULL)
		goto out;
	CHECK(arb_turn_load_map(t, "map.json", map, n, &e) == 0);
	CHECK(arb_turn_run(t, 0, &e) == 0);
	CHECK(arb_turn_load_orders(t, "red.json", NULL, red, k, &e) == -1 &&
	    e.code == ARB_EINTERNAL);
	CHECK(arb_turn_load_rolls(t, "rolls.json", "[1]", 3, &e) == -1 &&
	    e.code == ARB_EINTERNAL);
out:
	free(map);
	free(red);
	arb_turn_free(t);
}

/*
 * The search (lib/rules/reach.c) on an aeonis row of six hexes whose
 * terrain costs 37 AP, more than the bucket ring's first 16: the ring
 * grows; a lord of range 3 reaches three hexes; a target beyond its range
 * has no path, and the nearest approach is the step into the hex next to
 * it, refused out_of_range.  On a plains board, the tie-break: two paths
 * of one cost and length, the one whose cell before the end comes first
 * in the board's order.
 */
/* A search that looks its hexes up ahead on a second thread (rules.h,
 * walk_look) finds what it finds alone, under the sanitizers. */
static void
test_reach_ahead(void)
{
	static const int modes[] = { REACH_AHEAD_NEVER, REACH_AHEAD_ALWAYS,
	    REACH_AHEAD_FIRST, REACH_AHEAD_AUTO };
	char		 map[8192];
	size_t		 len;
	struct arb_turn	*t;
	struct arb_error e;
	struct reach_query *q;
	long		 sum[4];
	int		 n[4], i, k, path[128];

	len = (size_t)snprintf(map, sizeof(map), "{\"arbiter\": 1, "
	    "\"ruleset\": \"aeonis\", \"board\": {\"grid\": \"hex\", "
	    "\"cols\": 40, \"rows\": 40, \"default\": \"plains\"}, "
	    "\"players\": {\"red\": {\"ap\": 70}, \"blue\": {\"ap\": 1}}, "
	    "\"units\": [{\"id\": \"r\", \"player\": \"red\", \"type\": "
	    "\"infantry\", \"at\": \"2020\", \"range\": 100}");
	for (k = 0; k < 40; k++)	/* blue's, for zones of control */
		len += (size_t)snprintf(map + len, sizeof(map) - len,
		    ", {\"id\": \"b%d\", \"player\": \"blue\", \"type\": "
		    "\"infantry\", \"at\": \"%02d%02d\"}", k, 1 + k * 7 % 40,
		    1 + k * 13 % 40);
	snprintf(map + len, sizeof(map) - len, "]}");
	for (i = 0; i < 4; i++) {
		t = arb_turn_new();
		reach_ahead(t, modes[i]);
		n[i] = -1;
		sum[i] = 0;
		if (arb_turn_load_map(t, "ahead.json", map, strlen(map),
		    &e) != 0 || arb_turn_reach(t, "r", NULL, 0, &e) != 0) {
			printf("# %s\n", e.text);
			arb_turn_free(t);
			continue;
		}
		q = t->reachq;
		n[i] = q->r.n;
		for (k = 0; k < q->r.n; k++) {
			int	 j;

			reach_path(t, q->r.v[k].label, path);
			sum[i] += q->r.v[k].cost * 7 + q->r.v[k].cell * 3;
			for (j = 0; j <= q->r.v[k].steps; j++)
				sum[i] = sum[i] * 31 % 1000000007 + path[j];
		}
		arb_turn_free(t);
	}
	CHECK(n[0] > 1000);
	for (i = 1; i < 4; i++)
		CHECK(n[i] == n[0] && sum[i] == sum[0]);
}

static void
test_reach(void)
{
	static const char row[] = "{\"arbiter\": 1, \"ruleset\": \"aeonis\", "
	    "\"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 1, "
	    "\"default\": \"mountain\"}, \"rules\": {\"terrain_cost\": "
	    "{\"mountain\": 37}}, \"players\": {\"red\": {\"ap\": 200}}, "
	    "\"units\": [{\"id\": \"l\", \"player\": \"red\", \"type\": "
	    "\"lord\", \"at\": \"0101\", \"range\": 3}]}";
	static const char flat[] = "{\"arbiter\": 1, \"ruleset\": \"aeonis\", "
	    "\"board\": {\"grid\": \"hex\", \"cols\": 3, \"rows\": 3}, "
	    "\"players\": {\"red\": {\"ap\": 9}}, \"units\": [{\"id\": "
	    "\"l\", \"player\": \"red\", \"type\": \"lord\", \"at\": "
	    "\"0101\", \"range\": 2}]}";
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct reach_query *q;
	struct reach	 r;
	int		 i, path[4], seen = 0;

	CHECK(arb_turn_load_map(t, "row.json", row, strlen(row), &e) == 0);
	CHECK(arb_turn_reach(t, "l", NULL, 0, &e) == 0);
	q = t->reachq;
	CHECK(q != NULL && q->r.budget == 200 && q->r.n == 3);
	for (i = 0; q != NULL && i < q->r.n; i++) {
		int	 c = q->r.v[i].cell;

		CHECK(q->r.v[i].cost == 37L * c && q->r.v[i].steps == c);
		seen |= 1 << c;
	}
	CHECK(seen == 0xe);
	if (q != NULL) {
		reach_search(t, &q->o, board_find(&t->board, "0601"), &r);
		CHECK(!r.found && r.near.reason == R_OUT_OF_RANGE &&
		    !r.near_end && r.near_to == board_find(&t->board,
		    "0501") && reach_steps(t, r.near_label) == 3);
	}
	arb_turn_free(t);
	t = arb_turn_new();
	CHECK(arb_turn_load_map(t, "flat.json", flat, strlen(flat), &e) == 0);
	CHECK(arb_turn_reach(t, "l", NULL, 0, &e) == 0);
	q = t->reachq;
	if (q != NULL) {
		reach_search(t, &q->o, board_find(&t->board, "0202"), &r);
		CHECK(r.found && r.n == 1 && r.v[0].cost == 2 &&
		    r.v[0].steps == 2);
		path[0] = q->o.cells[0];
		reach_path(t, r.v[0].label, path);
		CHECK(path[0] == board_find(&t->board, "0101") &&
		    path[1] == board_find(&t->board, "0201") &&
		    path[2] == board_find(&t->board, "0202"));
	}
	CHECK(arb_turn_reach(t, "l", NULL, 0, &e) == -1 &&
	    e.code == ARB_EINTERNAL);	/* once a turn */
	arb_turn_free(t);
	/* An unknown unit: 65's error, with a suggestion. */
	t = arb_turn_new();
	CHECK(arb_turn_load_map(t, "flat.json", flat, strlen(flat), &e) == 0);
	CHECK(arb_turn_reach(t, "k", NULL, 0, &e) == -1 &&
	    e.code == ARB_EDATA && strstr(e.text, "did you mean \"l\"") !=
	    NULL && strcmp(e.pointer, "/units") == 0);
	arb_turn_free(t);
}

/*
 * The state graph (rules.h, reach_graph; the order sheet, issue 32): a
 * lord of range 2 on a plain of 3 x 3 hexes, 9 AP.  Every step costs 1;
 * a state is the hexes entered, so that no node costs more than 2, each
 * step's node costs at most its own plus 1, a third hex is refused
 * out_of_range, and 0202 is reached in two steps and may be ended in.  A
 * second red unit's hex flipped changes nothing in aeonis (friends
 * stack): no step is listed again.
 */
static void
test_reach_graph(void)
{
	static const char flat[] = "{\"arbiter\": 1, \"ruleset\": \"aeonis\", "
	    "\"board\": {\"grid\": \"hex\", \"cols\": 3, \"rows\": 3}, "
	    "\"players\": {\"red\": {\"ap\": 9}}, \"units\": [{\"id\": "
	    "\"l\", \"player\": \"red\", \"type\": \"lord\", \"at\": "
	    "\"0101\", \"range\": 2}, {\"id\": \"m\", \"player\": \"red\", "
	    "\"type\": \"lord\", \"at\": \"0303\"}]}";
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct reach_query *q;
	struct rgraph	 g;
	int		 i, k, range = 0, flips = 0, worse = 0, at0202 = 0;

	CHECK(arb_turn_load_map(t, "flat.json", flat, strlen(flat), &e) == 0);
	CHECK(arb_turn_reach(t, "l", NULL, 0, &e) == 0);
	q = t->reachq;
	if (q == NULL) {
		arb_turn_free(t);
		return;
	}
	reach_graph(t, &q->o, 1000, &g);
	CHECK(g.budget == 9 && g.nnode > 1 && !g.cut && g.flips);
	CHECK(g.node[0].cell == board_find(&t->board, "0101") &&
	    g.node[0].cost == 0);
	for (i = 0; i < g.nnode; i++) {
		const struct rg_node *x = &g.node[i];

		if (x->cost > 2)
			worse++;
		if (x->cell == board_find(&t->board, "0202") && x->cost == 2 &&
		    x->end == R_OK)
			at0202++;
		for (k = x->first; k < x->first + x->n; k++) {
			const struct rg_edge *ed = &g.edge[k];

			flips += ed->flip;
			if (ed->to < 0) {
				range += ed->why == R_OUT_OF_RANGE;
				continue;
			}
			if (ed->cost != 1 || g.node[ed->to].cost > x->cost + 1)
				worse++;
		}
	}
	CHECK(worse == 0 && range > 0 && at0202 == 1 && flips == 0);
	arb_turn_free(t);
}

/*
 * The order sheet (issue 32): only after the run, only a player's; one
 * HTML page with nothing from elsewhere (no src=, no address but the SVG
 * namespaces), its unit's reach in the data; and a unit id that would
 * end the script element ("</script>") is escaped in the picture and in
 * the data, so that the page has exactly its two script elements.
 */
static void
test_sheet(void)
{
	static const char map[] = "{\"arbiter\": 1, \"ruleset\": \"aeonis\", "
	    "\"turn\": 3, \"board\": {\"grid\": \"hex\", \"cols\": 3, "
	    "\"rows\": 3}, \"players\": {\"red\": {\"ap\": 9}, \"blue\": "
	    "{\"ap\": 9}}, \"units\": [{\"id\": \"</script><b>\", \"player\": "
	    "\"red\", \"type\": \"infantry\", \"at\": \"0101\"}, "
	    "{\"id\": \"b\", \"player\": \"blue\", \"type\": \"infantry\", "
	    "\"at\": \"0303\"}]}";
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	char		*buf = NULL, *p;
	size_t		 len = 0;
	FILE		*fp;
	int		 n;

	CHECK(arb_turn_load_map(t, "m.json", map, strlen(map), &e) == 0);
	CHECK(arb_turn_write_sheet(t, 0, stdout, &e) == -1 &&
	    e.code == ARB_EINTERNAL);		/* before the run */
	CHECK(arb_turn_run(t, 0, &e) == 0);
	CHECK(arb_turn_write_sheet(t, 2, stdout, &e) == -1 &&
	    e.code == ARB_EINTERNAL);		/* no player 2 */
	fp = tmpfile();
	CHECK(fp != NULL);
	if (fp == NULL)
		goto out;
	CHECK(arb_turn_write_sheet(t, 0, fp, &e) == 0);
	len = (size_t)ftell(fp);
	rewind(fp);
	if ((buf = calloc(1, len + 1)) != NULL &&
	    fread(buf, 1, len, fp) != len) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	CHECK(buf != NULL && strncmp(buf, "<!DOCTYPE html>", 15) == 0);
	if (buf == NULL)
		goto out;
	CHECK(strstr(buf, "src=") == NULL && strstr(buf, "https:") == NULL);
	for (p = buf; (p = strstr(p, "http://")) != NULL; p++)
		CHECK(strncmp(p, "http://www.w3.org/", 18) == 0);
	for (n = 0, p = buf; (p = strstr(p, "</script>")) != NULL; p++)
		n++;
	CHECK(n == 2);
	CHECK(strstr(buf, "id=\"orders\"") != NULL &&
	    strstr(buf, "data-cell=\"0202\"") != NULL &&
	    strstr(buf, "\"player\":\"red\",\"turn\":4") != NULL &&
	    strstr(buf, "\"u\":[\"\\u003c/script\\u003e\\u003cb\\u003e\"]")
	    != NULL);
out:
	free(buf);
	arb_turn_free(t);
}

int
main(void)
{
	test_hex();
	test_geom();
	test_hex_lines();
	test_hex_ring();
	test_board_row();
	test_locate();
	test_pointer();
	test_strmap_collisions();
	test_intmap();
	test_dice();
	test_fair();
	test_strmap();
	test_load();
	test_messages();
	test_utf8_char();
	test_utf8_mend();
	test_graph();
	test_suggest();
	test_refusals();
	test_pool();
	test_mem_mark();
	test_pooled_parse();
	test_o_string();
	test_printf();
	test_ahead();
	test_pool_pass();
	test_after_run();
	test_late_fair();
	test_reach();
	test_reach_ahead();
	test_reach_graph();
	test_sheet();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
