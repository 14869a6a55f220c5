/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Running out of memory anywhere, and a full disk: for each k, the k-th
 * allocation of a whole turn (loading, running, writing the result with
 * its trace, the next map, the text trace, the pictures and a player's
 * reports) fails, and the turn must
 * then fail with ARB_ENOMEM, never another code, and give back every
 * byte it took (the allocations still live after arb_turn_free() are
 * counted).  Then the same turn written to /dev/full must fail with
 * ARB_EWRITE and give back every byte too.
 *
 *	tests/oom CASE_DIR ...	(each a casebook case: map.json, orders/,
 *				JSON or text)
 *
 * Only orders/NAME.json are read: a mail (orders/NAME.eml) goes through GMime,
 * whose allocations abort the program when memory runs out (README,
 * Limits).
 *
 * The allocator is replaced for the whole program (malloc, calloc,
 * realloc and free, over glibc's __libc_* functions), so this test is
 * built without the sanitizers.  Prints one TAP line per case and ends
 * with "oom: N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"
#include "rules/rules.h"		/* reach_ahead() */

extern void	*__libc_malloc(size_t);
extern void	*__libc_calloc(size_t, size_t);
extern void	*__libc_realloc(void *, size_t);
extern void	 __libc_free(void *);

/* Atomic: the turn's second thread (arb_turn_load_map_ahead()) allocates
 * too, so which allocation is the k-th may vary from run to run. */
static _Atomic long live;	/* allocations not yet freed */
static _Atomic long calls;	/* allocations since armed */
static long	 fail_at = -1;	/* the one that fails, from 1 */
static _Atomic int armed;

/* A failure sets errno as the real allocator's does (POSIX): a stream
 * in memory (a player's report) reports it so. */
static int
failing(void)
{
	if (armed && ++calls == fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *
malloc(size_t n)
{
	void	*p;

	if (failing())
		return NULL;
	if ((p = __libc_malloc(n)) != NULL)
		live++;
	return p;
}

void *
calloc(size_t a, size_t b)
{
	void	*p;

	if (failing())
		return NULL;
	if ((p = __libc_calloc(a, b)) != NULL)
		live++;
	return p;
}

void *
realloc(void *q, size_t n)
{
	void	*p;

	if (failing())
		return NULL;
	p = __libc_realloc(q, n);
	if (p != NULL && q == NULL)
		live++;
	return p;
}

void
free(void *p)
{
	if (p != NULL)
		live--;
	__libc_free(p);
}

struct input {
	char	*name, *text;
	size_t	 len;
};

static int
slurp(struct input *in, const char *path)
{
	FILE	*fp = fopen(path, "rb");
	long	 n;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0)
		return -1;
	rewind(fp);
	in->text = malloc((size_t)n + 1);
	in->name = strdup(path);
	if (in->text == NULL || in->name == NULL ||
	    fread(in->text, 1, (size_t)n, fp) != (size_t)n)
		return -1;
	in->len = (size_t)n;
	fclose(fp);
	return 0;
}

/* One whole turn; 0, or the error's code.  With ahead, the orders are
 * parsed on the turn's second thread while the map loads, and every
 * search of a "to" order looks its hexes up ahead on a second thread
 * (rules.h, walk_look), so that memory runs out while it runs. */
static int
turn(struct input *in, int n, FILE *out, int ahead)
{
	struct arb_turn	*t;
	struct arb_error e;
	struct arb_text	 texts[64];
	int		 rc, i;

	if ((t = arb_turn_new()) == NULL)
		return ARB_ENOMEM;
	if (ahead)
		reach_ahead(t, REACH_AHEAD_ALWAYS);
	for (i = 1; i < n; i++) {
		texts[i - 1].text = in[i].text;
		texts[i - 1].len = in[i].len;
	}
	rc = arb_turn_load_map_ahead(t, in[0].name, in[0].text, in[0].len,
	    texts, ahead ? (size_t)(n - 1) : 0, &e);
	for (i = 1; rc == 0 && i < n; i++)
		rc = arb_turn_load_orders(t, in[i].name, NULL, in[i].text,
		    in[i].len, &e);
	if (rc == 0)
		rc = arb_turn_run(t, ARB_TRACE, &e);
	if (rc == 0)
		rc = arb_turn_write_result(t, ARB_RESULT_TRACE, out, &e);
	if (rc == 0)
		rc = arb_turn_write_next(t, out, &e);
	if (rc == 0)
		rc = arb_turn_write_trace(t, 1, out, &e);
	/* The pictures and the first player's reports (issue 16).  A graph
	 * without positions is laid out by Graphviz in a child process
	 * (svg.c), which inherits the failing allocator: its failures are
	 * ARB_ENOMEM too (issue 26).  A fork for each allocation of every
	 * territory case would take minutes, so only the pictures' cases
	 * (svg-*) draw a graph. */
	if (strcmp(arb_turn_ruleset(t), "territory") != 0 ||
	    strstr(in[0].name, "/svg-") != NULL) {
		if (rc == 0)
			rc = arb_turn_write_svg(t, 0, 0, out, &e);
		if (rc == 0)
			rc = arb_turn_write_svg(t, ARB_SVG_NEXT, -1, out, &e);
	}
	/* The order sheet (issue 32): its memory streams, its second turn
	 * and its searches, for the pictures' cases. */
	if (rc == 0 && strstr(in[0].name, "/svg-") != NULL)
		rc = arb_turn_write_sheet(t, 0, out, &e);
	if (rc == 0)
		rc = arb_turn_write_view(t, 0, ARB_VIEW_TRACE, out, &e);
	if (rc == 0)
		rc = arb_turn_write_view(t, 0, ARB_VIEW_TEXT, out, &e);
	arb_turn_free(t);
	return rc == 0 ? 0 : (int)e.code;
}

int
main(int argc, char **argv)
{
	FILE		*null = fopen("/dev/null", "w");
	FILE		*full = fopen("/dev/full", "w");
	struct input	 in[64];
	int		 a, n, rc, ahead, pass = 0, fail = 0;
	long		 k, base, total;

	if (null == NULL || full == NULL)
		return 2;
	/* Unbuffered, so that stdio allocates nothing while armed and
	 * every write to /dev/full fails at once. */
	setvbuf(null, NULL, _IONBF, 0);
	setvbuf(full, NULL, _IONBF, 0);
	for (a = 1; a < argc; a++) {
		char		 path[4096];
		DIR		*d;
		struct dirent	*de;
		const char	*why = NULL;
		char		*names[63];
		int		 i, j;

		snprintf(path, sizeof(path), "%s/map.json", argv[a]);
		n = 0;
		if (slurp(&in[n++], path) != 0)
			return 2;
		snprintf(path, sizeof(path), "%s/orders", argv[a]);
		if ((d = opendir(path)) == NULL)
			return 2;
		j = 0;
		while ((de = readdir(d)) != NULL && j < 63)
			if (strstr(de->d_name, ".json") != NULL ||
			    strstr(de->d_name, ".txt") != NULL)
				names[j++] = strdup(de->d_name);
		closedir(d);
		for (i = 0; i < j; i++) {
			snprintf(path, sizeof(path), "%s/orders/%s", argv[a],
			    names[i]);
			if (slurp(&in[n++], path) != 0)
				return 2;
			free(names[i]);
		}
		/* Once unarmed: what the libraries set up once for good
		 * (libsodium, jansson's hash seed, a thread's stack) is not a
		 * leak. */
		if (turn(in, n, null, 0) != 0 || turn(in, n, null, 1) != 0)
			return 2;
		for (ahead = 0; why == NULL && ahead < 2; ahead++) {
			armed = 1;
			calls = 0;
			fail_at = -1;
			base = live;
			rc = turn(in, n, null, ahead);
			total = calls;
			armed = 0;
			if (rc != 0 || live != base)
				why = "the turn does not run whole";
			for (k = 1; why == NULL && k <= total; k++) {
				armed = 1;
				calls = 0;
				fail_at = k;
				rc = turn(in, n, null, ahead);
				armed = 0;
				if (rc != ARB_ENOMEM && rc != 0)
					why = "a failed allocation is not "
					    "ARB_ENOMEM";
				else if (live != base)
					why = "a failed allocation leaks";
			}
		}
		if (why == NULL) {
			rc = turn(in, n, full, 1);
			if (rc != ARB_EWRITE)
				why = "a full disk is not ARB_EWRITE";
			else if (live != base)
				why = "a full disk leaks";
		}
		if (why == NULL) {
			pass++;
			printf("ok - %s: each of %ld allocations failed in "
			    "turn, orders parsed ahead and not\n", argv[a],
			    total);
		} else {
			fail++;
			printf("not ok - %s: %s (allocation %ld, code %d, "
			    "%ld live%s)\n", argv[a], why, k - 1, rc,
			    live - base, ahead > 1 ? ", parsed ahead" : "");
		}
		for (i = 0; i < n; i++) {
			free(in[i].text);
			free(in[i].name);
		}
	}
	printf("oom: %d passed, %d failed\n", pass, fail);
	return fail != 0;
}
