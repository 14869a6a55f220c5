/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The fuzz target for a whole turn: a map and the orders files of several
 * players in one input.  The input is cut at every occurrence of the four
 * bytes "\n%%\n" (a line "%%", which no JSON text contains): the first
 * part is the map, each later part one orders file, at most MAXFILES of
 * them; an input with more parts is ignored.  Orders file k (from 1) is
 * named "orders/k.json" whatever its place in a run, and speaks for the
 * player it names.
 *
 * Besides running without a sanitizer report, a turn that loads must:
 *   (a) give the same bytes when run again on a fresh turn: the result
 *	 with its trace, the next map, the trace as JSON Lines and as text;
 *   (b) write a next map that loads again, and runs without orders;
 *   (c) run without an error: arbiter checks that the forces balance
 *	 and reports ARB_EINTERNAL when they do not (bad data found by the
 *	 run, a map committed to its dice without the key, is a refusal);
 *   (d) agree with --check (ARB_CHECK): every order whose status is
 *	 "done" in the result of the real run, matched by its "file" and
 *	 "index" members, has the status "legal" in the result of the check;
 *   (e) give the same result, next map and trace bytes when the orders
 *	 files are loaded in the reverse order.
 * A broken rule is a finding: the target prints it and calls abort().
 * The environment variable FUZZ_TURN_LAX may list rule systems, separated
 * by commas, for which (e) is not checked (a known bug being fixed).
 *
 * Built by `make fuzz-turn` with clang -fsanitize=fuzzer; tests/fuzz_main.c
 * replays tests/corpus/turn/ and tests/crashes/turn/ through it in make
 * check.  See tests/fuzz/README.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arbiter.h"

#define MAXFILES 8
#define SEP	"\n%%\n"
#define SEPLEN	4

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct part {
	const char	*text;
	size_t		 len;
	char		 name[32];
};

enum { O_RESULT, O_NEXT, O_TRACE, O_TEXT, NOUT };

static const char *const outname[NOUT] = {
	"result", "next map", "trace", "text trace"
};

/* What one run wrote. */
struct outs {
	char	*buf[NOUT];
	size_t	 len[NOUT];
	char	 ruleset[32];
};

static void
finding(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_turn: finding: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	abort();
}

static void
outs_free(struct outs *o)
{
	int	 i;

	for (i = 0; i < NOUT; i++) {
		free(o->buf[i]);
		o->buf[i] = NULL;
	}
}

/* Writes one output of t into o->buf[which]; a failure is a finding. */
static void
capture(struct arb_turn *t, struct outs *o, int which, int rflags)
{
	struct arb_error e;
	FILE		*fp;
	int		 rc = -1;

	if ((fp = open_memstream(&o->buf[which], &o->len[which])) == NULL)
		finding("open_memstream", NULL);
	switch (which) {
	case O_RESULT:
		rc = arb_turn_write_result(t, rflags, fp, &e);
		break;
	case O_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case O_TRACE:
		rc = arb_turn_write_trace(t, 0, fp, &e);
		break;
	case O_TEXT:
		rc = arb_turn_write_trace(t, 1, fp, &e);
		break;
	}
	if (fclose(fp) != 0)
		finding("fclose", NULL);
	/* The last turn a map can have has no next map (arbiter-map(5)):
	 * bad data at /turn, and nothing to reload. */
	if (rc != 0 && which == O_NEXT && e.code == ARB_EDATA &&
	    strcmp(e.pointer, "/turn") == 0) {
		o->len[O_NEXT] = 0;
		return;
	}
	if (rc != 0)
		finding("cannot write the output", e.text);
}

/*
 * Loads the map and the orders files in the order perm gives, runs the
 * turn with flags and writes its outputs.  Returns 0 when the input is
 * refused (bad data, as arbiter would report it); 1 when it ran.
 */
static int
run(const struct part *parts, const int *perm, int nfiles, int flags,
    struct outs *o)
{
	struct arb_turn	*t;
	struct arb_error e;
	const char	*rs;
	int		 i;

	memset(o, 0, sizeof(*o));
	if ((t = arb_turn_new()) == NULL)
		finding("arb_turn_new", NULL);
	if (arb_turn_load_map(t, "map.json", parts[0].text, parts[0].len,
	    &e) != 0)
		goto refused;
	rs = arb_turn_ruleset(t);
	snprintf(o->ruleset, sizeof(o->ruleset), "%s", rs != NULL ? rs : "");
	for (i = 0; i < nfiles; i++) {
		const struct part *p = &parts[1 + perm[i]];

		if (arb_turn_load_orders(t, p->name, NULL, p->text, p->len,
		    &e) != 0)
			goto refused;
	}
	/* (c): an internal error, the forces' balance among them.  Bad
	 * data is a refusal: a map that commits to its dice cannot be
	 * adjudicated without the umpire's key (arbiter-rules(7), Dice). */
	if (arb_turn_run(t, flags, &e) != 0) {
		if (e.code == ARB_EDATA)
			goto refused;
		finding("arb_turn_run failed", e.text);
	}
	if (flags & ARB_CHECK)
		capture(t, o, O_RESULT, 0);
	else {
		capture(t, o, O_RESULT, ARB_RESULT_TRACE);
		capture(t, o, O_NEXT, 0);
		capture(t, o, O_TRACE, 0);
		capture(t, o, O_TEXT, 0);
	}
	arb_turn_free(t);
	return 1;
refused:
	if (e.code != ARB_EDATA)
		finding("loading failed, but not for bad data", e.text);
	arb_turn_free(t);
	return 0;
}

/* (a) and (e): the same bytes in each output. */
static void
compare(const struct outs *a, const struct outs *b, const char *what)
{
	char	 msg[64];
	int	 i;

	for (i = 0; i < NOUT; i++) {
		if (a->len[i] == b->len[i] && (a->len[i] == 0 ||
		    memcmp(a->buf[i], b->buf[i], a->len[i]) == 0))
			continue;
		snprintf(msg, sizeof(msg), "%s (%s)", outname[i],
		    a->ruleset);
		finding(what, msg);
	}
}

/* (b): the next map loads, and a turn with no orders runs on it. */
static void
reload(const struct outs *o)
{
	struct arb_turn	*t;
	struct arb_error e;

	if (o->len[O_NEXT] == 0)
		return;		/* the last turn: no next map */
	if ((t = arb_turn_new()) == NULL)
		finding("arb_turn_new", NULL);
	if (arb_turn_load_map(t, "next.json", o->buf[O_NEXT], o->len[O_NEXT],
	    &e) != 0)
		finding("the next map does not load", e.text);
	if (arb_turn_run(t, 0, &e) != 0)
		finding("the next map does not run", e.text);
	arb_turn_free(t);
}

/* The status of the order of file and index in the result's orders. */
static const char *
status_of(json_t *orders, const char *file, json_int_t index)
{
	json_t	*o;
	size_t	 i;

	json_array_foreach(orders, i, o) {
		const char *f = json_string_value(json_object_get(o, "file"));

		if (f != NULL && strcmp(f, file) == 0 &&
		    json_integer_value(json_object_get(o, "index")) == index)
			return json_string_value(json_object_get(o,
			    "status"));
	}
	return NULL;
}

/* (d): what the real run did, --check calls legal. */
static void
agree(const struct outs *real, const struct outs *check)
{
	json_error_t	 je;
	json_t		*r, *c, *ro, *co, *o;
	const char	*st, *file;
	char		 msg[128];
	size_t		 i;

	r = json_loadb(real->buf[O_RESULT], real->len[O_RESULT], 0, &je);
	c = json_loadb(check->buf[O_RESULT], check->len[O_RESULT], 0, &je);
	if (r == NULL || c == NULL)
		finding("the result is not JSON", je.text);
	ro = json_object_get(r, "orders");
	co = json_object_get(c, "orders");
	if (!json_is_array(ro) || !json_is_array(co) ||
	    json_array_size(ro) != json_array_size(co))
		finding("the results list different orders", real->ruleset);
	json_array_foreach(ro, i, o) {
		st = json_string_value(json_object_get(o, "status"));
		file = json_string_value(json_object_get(o, "file"));
		if (st == NULL || file == NULL)
			finding("an order without status or file", NULL);
		if (strcmp(st, "done") != 0)
			continue;
		st = status_of(co, file, json_integer_value(
		    json_object_get(o, "index")));
		if (st == NULL || strcmp(st, "legal") != 0) {
			snprintf(msg, sizeof(msg), "%s order %s is %s under "
			    "--check (%s)", file, json_string_value(
			    json_object_get(o, "id")), st != NULL ? st :
			    "missing", real->ruleset);
			finding("done, but not legal under --check", msg);
		}
	}
	json_decref(r);
	json_decref(c);
}

/* Whether FUZZ_TURN_LAX names the rule system rs. */
static int
lax(const char *rs)
{
	const char	*l = getenv("FUZZ_TURN_LAX"), *p;
	size_t		 n = strlen(rs);

	for (p = l; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
		p += strspn(p, ",");
		if (strncmp(p, rs, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part	 parts[1 + MAXFILES];
	struct outs	 first, again, check, rev;
	const char	*p = (const char *)data, *end = p + size, *q;
	int		 perm[MAXFILES], n = 0, i;

	/* Cut the input into the map and the orders files. */
	for (;;) {
		q = NULL;
		if ((size_t)(end - p) >= SEPLEN)
			for (q = p; q + SEPLEN <= end; q++)
				if (memcmp(q, SEP, SEPLEN) == 0)
					break;
		if (q != NULL && q + SEPLEN > end)
			q = NULL;
		if (n == 1 + MAXFILES)
			return 0;
		parts[n].text = p;
		parts[n].len = q != NULL ? (size_t)(q - p) : (size_t)(end - p);
		if (n > 0)
			snprintf(parts[n].name, sizeof(parts[n].name),
			    "orders/%d.json", n);
		n++;
		if (q == NULL)
			break;
		p = q + SEPLEN;
	}
	for (i = 0; i < n - 1; i++)
		perm[i] = i;

	if (!run(parts, perm, n - 1, ARB_TRACE, &first))
		return 0;
	/* (a) */
	if (!run(parts, perm, n - 1, ARB_TRACE, &again))
		finding("refused on the second run", NULL);
	compare(&first, &again, "a rerun gives other bytes");
	outs_free(&again);
	/* (b) */
	reload(&first);
	/* (d) */
	if (!run(parts, perm, n - 1, ARB_CHECK, &check))
		finding("refused under --check", NULL);
	agree(&first, &check);
	outs_free(&check);
	/* (e) */
	if (n > 2 && !lax(first.ruleset)) {
		for (i = 0; i < n - 1; i++)
			perm[i] = n - 2 - i;
		if (!run(parts, perm, n - 1, ARB_TRACE, &rev))
			finding("refused in the reverse order", NULL);
		compare(&first, &rev, "the reverse order gives other bytes");
		outs_free(&rev);
	}
	outs_free(&first);
	return 0;
}
