/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The library is reentrant: turns adjudicated at once in several threads
 * give the bytes each gives alone.  Built with ThreadSanitizer by make
 * check, which reports any data race between the threads.
 *
 *	threads CASEDIR...
 *
 * Each CASEDIR is a casebook case (map.json, orders/NAME.json, NAME.txt
 * and NAME.eml, mails, read with GMime, initialised once); each is
 * adjudicated once alone, then ROUNDS times in its own thread while the
 * others run, every other round with its orders parsed ahead on the
 * turn's own second thread (arb_turn_load_map_ahead()).  Each
 * adjudication writes the result, the next map, the trace, and every
 * picture (the umpire's and each player's, of the turn and of the next),
 * report and trace cut.  One more job, in a thread of its own, asks a
 * reach large enough for the search's look-ahead thread (rules.h,
 * walk_look: an aeonis unit with points and range for 64 hexes or more,
 * on a board of 48 by 48 hexes): alone without that thread, then ROUNDS
 * times with it among the others (every other round started whatever
 * the machine's processors), the same bytes.  Ends with "threads:
 * N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"
#include "format/format.h"	/* reach_ahead() */

#define ROUNDS	20
#define MAXCASE	16
#define MAXORD	8

/* The reach job's map: red's r-far, 100 points, range 80, in the middle
 * of 48 by 48 hexes of plains. */
static const char reachmap[] = "{ \"arbiter\": 1, \"ruleset\": \"aeonis\", "
    "\"turn\": 1, \"seed\": 1, \"board\": { \"grid\": \"hex\", "
    "\"cols\": 48, \"rows\": 48, \"default\": \"plains\" }, "
    "\"players\": { \"red\": { \"ap\": 100 }, \"blue\": { \"ap\": 3 } }, "
    "\"turn_order\": [\"red\", \"blue\"], \"units\": [ "
    "{ \"id\": \"r-far\", \"player\": \"red\", \"type\": \"infantry\", "
    "\"at\": \"2424\", \"range\": 80 }, "
    "{ \"id\": \"b-1\", \"player\": \"blue\", \"type\": \"infantry\", "
    "\"at\": \"0101\" } ] }";

struct job {
	const char	*dir;
	char		*map;
	size_t		 maplen;
	char		*ord[MAXORD];
	char		*ordname[MAXORD];
	size_t		 ordlen[MAXORD];
	int		 nord;
	char		*want;		/* the bytes alone */
	size_t		 wantlen;
	int		 bad;		/* rounds that differed */
	int		 reach;		/* the reach job */
};

static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf;
	long	 n;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0)
		return NULL;
	rewind(fp);
	if ((buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static int
byname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the case's map and orders files; -1 when it cannot. */
static int
job_load(struct job *j, const char *dir)
{
	char		 path[4096];
	DIR		*d;
	struct dirent	*de;
	int		 i;

	j->dir = dir;
	snprintf(path, sizeof(path), "%s/map.json", dir);
	if ((j->map = slurp(path, &j->maplen)) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/orders", dir);
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && j->nord < MAXORD) {
		size_t n = strlen(de->d_name);

		/* JSON, text (orders/NAME.txt) or a mail (NAME.eml). */
		if (de->d_name[0] == '.' || n < 5 ||
		    (strcmp(de->d_name + n - 5, ".json") != 0 &&
		    strcmp(de->d_name + n - 4, ".txt") != 0 &&
		    strcmp(de->d_name + n - 4, ".eml") != 0))
			continue;
		j->ordname[j->nord++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(j->ordname, (size_t)j->nord, sizeof(char *), byname);
	for (i = 0; i < j->nord; i++) {
		snprintf(path, sizeof(path), "%s/orders/%s", dir,
		    j->ordname[i]);
		if ((j->ord[i] = slurp(path, &j->ordlen[i])) == NULL)
			return -1;
	}
	return 0;
}

static int	 with_png;	/* views() writes the umpire's PNG */

/* Every picture (and, with_png, the umpire's as PNG), report and trace
 * cut of t, to fp; -1 on any error. */
static int
views(struct arb_turn *t, FILE *fp)
{
	struct arb_error e;
	int		 p;

	/* The umpire's PNG, 1600 pixels wide: large enough to be
	 * compressed in bands, by a second thread (png.c).  Only in the main
	 * thread, alone: pango's font map is one a thread, and one freed
	 * as its thread ends touches fontconfig's objects outside any lock
	 * (ThreadSanitizer: noticed, README "Embedding"). */
	if (with_png && arb_turn_write_png(t, 0, -1, 1600, fp, &e) != 0)
		return -1;
	for (p = -1; p < 0 || arb_turn_player(t, p) != NULL; p++)
		if (arb_turn_write_svg(t, 0, p, fp, &e) != 0 ||
		    arb_turn_write_svg(t, ARB_SVG_NEXT, p, fp, &e) != 0 ||
		    (p >= 0 && (arb_turn_write_view(t, p, ARB_VIEW_TRACE, fp,
		    &e) != 0 ||
		    arb_turn_write_view(t, p, ARB_VIEW_TEXT, fp, &e) != 0 ||
		    arb_turn_write_trace_for(t, p, 0, fp, &e) != 0 ||
		    arb_turn_write_trace_for(t, p, 1, fp, &e) != 0)))
			return -1;
	return 0;
}

/* The reach job: the reach of r-far as JSON and text, with the
 * look-ahead thread (ahead) or without; NULL on any error. */
static char *
reach(const struct job *j, size_t *len, int ahead)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	char		*buf = NULL;
	FILE		*fp = NULL;
	int		 rc = -1;

	if (t == NULL || arb_turn_load_map(t, "map.json", j->map, j->maplen,
	    &e) != 0)
		goto out;
	/* ahead 1: the library's choice, which starts it on a machine of
	 * two processors or more; 2: started whatever the machine, both
	 * threads at once from the first hex. */
	arb_turn_threads(t, ahead ? 2 : 1);
	if (ahead == 2)
		reach_ahead(t, REACH_AHEAD_ALWAYS);
	if (arb_turn_reach(t, "r-far", NULL, 0, &e) != 0 ||
	    (fp = open_memstream(&buf, len)) == NULL)
		goto out;
	if (arb_turn_write_reach(t, 0, fp, &e) == 0 &&
	    arb_turn_write_reach(t, 1, fp, &e) == 0)
		rc = 0;
out:
	if (fp != NULL && fclose(fp) != 0)
		rc = -1;
	arb_turn_free(t);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One adjudication: result with trace, next map, text trace, pictures,
 * reports and trace cuts, into a buffer the caller frees; NULL on any
 * error. */
static char *
adjudicate(const struct job *j, size_t *len, int ahead)
{
	struct arb_turn	*t = arb_turn_new();
	struct arb_error e;
	struct arb_text	 texts[MAXORD];
	char		*buf = NULL;
	FILE		*fp = NULL;
	int		 i, rc = -1;

	for (i = 0; i < j->nord; i++) {
		texts[i].text = j->ord[i];
		texts[i].len = j->ordlen[i];
	}
	if (t == NULL || arb_turn_load_map_ahead(t, "map.json", j->map,
	    j->maplen, texts, ahead ? (size_t)j->nord : 0, &e) != 0)
		goto out;
	for (i = 0; i < j->nord; i++)
		if (arb_turn_load_orders(t, j->ordname[i], NULL, j->ord[i],
		    j->ordlen[i], &e) != 0)
			goto out;
	if (arb_turn_run(t, ARB_TRACE, &e) != 0 ||
	    (fp = open_memstream(&buf, len)) == NULL)
		goto out;
	if (arb_turn_write_result(t, ARB_RESULT_TRACE, fp, &e) == 0 &&
	    arb_turn_write_next(t, fp, &e) == 0 &&
	    arb_turn_write_trace(t, 1, fp, &e) == 0 && views(t, fp) == 0)
		rc = 0;
out:
	if (fp != NULL && fclose(fp) != 0)
		rc = -1;
	arb_turn_free(t);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void *
run(void *arg)
{
	struct job	*j = arg;
	char		*got;
	size_t		 len;
	int		 r;

	for (r = 0; r < ROUNDS; r++) {
		got = j->reach ? reach(j, &len, 1 + r % 2) :
		    adjudicate(j, &len, r % 2);
		if (got == NULL || len != j->wantlen ||
		    memcmp(got, j->want, len) != 0)
			j->bad++;
		free(got);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	static struct job jobs[MAXCASE + 1];
	pthread_t	 th[MAXCASE + 1];
	int		 n = argc - 1, i, k, pass = 0, fail = 0;

	if (n < 2 || n > MAXCASE) {
		fprintf(stderr, "usage: threads CASEDIR CASEDIR...\n");
		return 64;
	}
	for (i = 0; i < n; i++)
		if (job_load(&jobs[i], argv[i + 1]) != 0 ||
		    (jobs[i].want = adjudicate(&jobs[i], &jobs[i].wantlen, 0)) ==
		    NULL) {
			printf("not ok - %s: cannot adjudicate it alone\n",
			    argv[i + 1]);
			printf("threads: 0 passed, 1 failed\n");
			return 1;
		}
	/* The reach job, alone without the look-ahead thread. */
	jobs[n].dir = "a reach of 100 points on 48 by 48 hexes";
	jobs[n].reach = 1;
	jobs[n].maplen = sizeof(reachmap) - 1;
	if ((jobs[n].map = strdup(reachmap)) == NULL ||
	    (jobs[n].want = reach(&jobs[n], &jobs[n].wantlen, 0)) == NULL) {
		printf("not ok - %s: cannot ask it alone\n", jobs[n].dir);
		printf("threads: 0 passed, 1 failed\n");
		return 1;
	}
	n++;
	/* The first case's PNG in bands, twice, alone: the same bytes. */
	with_png = 1;
	{
		char	*a, *b;
		size_t	 alen, blen;

		a = adjudicate(&jobs[0], &alen, 0);
		b = adjudicate(&jobs[0], &blen, 0);
		if (a != NULL && b != NULL && alen == blen &&
		    alen > jobs[0].wantlen && memcmp(a, b, alen) == 0) {
			pass++;
			printf("ok - %s: its PNG compressed in bands on a "
			    "second thread, twice: same bytes\n", jobs[0].dir);
		} else {
			fail++;
			printf("not ok - %s: its PNG drawn in bands, twice, "
			    "differed\n", jobs[0].dir);
		}
		free(a);
		free(b);
	}
	with_png = 0;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, run, &jobs[i]) != 0) {
			printf("threads: 0 passed, 1 failed (no thread)\n");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++) {
		if (jobs[i].bad == 0) {
			pass++;
			printf("ok - %s: %d rounds in a thread, same bytes\n",
			    jobs[i].dir, ROUNDS);
		} else {
			fail++;
			printf("not ok - %s: %d of %d rounds differed\n",
			    jobs[i].dir, jobs[i].bad, ROUNDS);
		}
		free(jobs[i].map);
		free(jobs[i].want);
		for (k = 0; k < jobs[i].nord; k++) {
			free(jobs[i].ord[k]);
			free(jobs[i].ordname[k]);
		}
	}
	printf("threads: %d passed, %d failed\n", pass, fail);
	return fail > 0;
}
