/*
 * reach: the speed of a reach query (issue 15) against a plain
 * breadth-first search over the same grid.
 *
 *	reach DIR [AP]
 *
 * Loads DIR/map.json (gen's 1000 x 1000 aeonis map, without its
 * orders), takes the infantry unit nearest the board's centre, gives it
 * a range of 1000 hexes and its player AP points (default 250: points
 * for at least 200 hexes), and times the search (reach_search, the
 * --reach query less the reading of the map and the writing of the
 * answer) against a plain breadth-first search over the whole grid from
 * the same hex (a byte per hex and a queue), the yardstick of issue 15.
 * Also timed: a BFS cut at depth AP (every hex costs at least 1, so it
 * visits every hex the query could reach and prices none), and the query
 * with the map read.  TYPE=cavalry takes a cavalry unit instead (a walk
 * whose state changes).  The search is timed as --reach runs it (with
 * its second thread, which looks the hexes up ahead: rules.h,
 * walk_look), with the processor time of both threads, and on one
 * thread.  Each is run RUNS times (default 3) and the best time kept.
 * REPEAT=n searches n times more for a profiler (ONE=1: on one
 * thread).  Prints them and the ratios; exits 1 when the search takes
 * more than twice the plain BFS.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/format.h"

static double
clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double
now(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/* The baseline: hexes within depth of start, by a plain BFS. */
static long
bfs(const struct board *b, int start, int depth)
{
	unsigned char	*seen = calloc((size_t)b->ncells, 1);
	int		*q = malloc((size_t)b->ncells * sizeof(int));
	int		*d = malloc((size_t)b->ncells * sizeof(int));
	int		 nq = 0, i, k, n, nb[6];

	if (seen == NULL || q == NULL || d == NULL)
		exit(70);
	seen[start] = 1;
	d[start] = 0;
	q[nq++] = start;
	for (i = 0; i < nq; i++) {
		if (d[q[i]] == depth)
			continue;
		n = board_neighbors(b, q[i], nb);
		for (k = 0; k < n; k++)
			if (!seen[nb[k]]) {
				seen[nb[k]] = 1;
				d[nb[k]] = d[q[i]] + 1;
				q[nq++] = nb[k];
			}
	}
	free(seen);
	free(q);
	free(d);
	return nq;
}

/* The yardstick: every hex of the board, by a plain BFS from start. */
static long
bfs_all(const struct board *b, int start)
{
	unsigned char	*seen = calloc((size_t)b->ncells, 1);
	int		*q = malloc((size_t)b->ncells * sizeof(int));
	int		 nq = 0, i, k, n, nb[6];

	if (seen == NULL || q == NULL)
		exit(70);
	seen[start] = 1;
	q[nq++] = start;
	for (i = 0; i < nq; i++) {
		n = board_neighbors(b, q[i], nb);
		for (k = 0; k < n; k++)
			if (!seen[nb[k]]) {
				seen[nb[k]] = 1;
				q[nq++] = nb[k];
			}
	}
	free(seen);
	free(q);
	return nq;
}

/* Loads the map: 0, or an exit status. */
static int
load(struct arb_turn *t, const char *path, const char *text, long len)
{
	struct arb_error e;

	if (arb_turn_load_map(t, path, text, (size_t)len, &e) != 0) {
		fprintf(stderr, "reach: %s\n", e.text);
		return 65;
	}
	return 0;
}

/* The infantry unit (or TYPE) nearest the centre, given range 1000 and ap
 * AP. */
static int
unit_for(struct arb_turn *t, long ap)
{
	int	 i, u = 0, best = -1;

	for (i = 0; i < (int)t->units.n; i++) {
		const struct unit *un = &t->units.v[i];
		int	 c = t->board.ncells / 2 + t->board.cols / 2, d;

		if (strcmp(t->types.v[un->type].name, getenv("TYPE") != NULL ?
		    getenv("TYPE") : "infantry") != 0)
			continue;
		d = board_distance(&t->board, un->at, c);
		if (best < 0 || d < best) {
			best = d;
			u = i;
		}
	}
	t->units.v[u].range = 1000;
	t->players.v[t->units.v[u].player].res[0] = ap;	/* aeonis "ap" */
	return u;
}

int
main(int argc, char **argv)
{
	struct arb_error e;
	struct arb_turn	*t;
	struct reach_query *q;
	struct reach	 r;
	char		 path[4096], *text;
	const char	*env = getenv("RUNS");
	long		 ap = argc > 2 ? atol(argv[2]) : 250, len, cells = 0;
	int		 runs = env != NULL ? atoi(env) : 3, i, u, rc, k;
	int		 repeat = getenv("REPEAT") != NULL ?
			    atoi(getenv("REPEAT")) : 0;
	double		 ts = 1e18, tb = 1e18, tl = 1e18, tq = 1e18, t0;
	double		 tg = 1e18, t1 = 1e18, tc = 1e18, c0;
	long		 all = 0;
	FILE		*fp;

	if (argc < 2) {
		fprintf(stderr, "usage: reach DIR [AP]\n");
		return 64;
	}
	snprintf(path, sizeof(path), "%s/map.json", argv[1]);
	if ((fp = fopen(path, "rb")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0 ||
	    (text = malloc((size_t)len + 1)) == NULL ||
	    fread(text, 1, (size_t)len, fp) != (size_t)len) {
		perror(path);
		return 66;
	}
	fclose(fp);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < runs; i++) {
		t = arb_turn_new();
		t0 = now();
		if ((rc = load(t, path, text, len)) != 0)
			return rc;
		t0 = now() - t0;
		if (t0 < tl)
			tl = t0;
		u = unit_for(t, ap);
		/* The query: the driver's start, then the search. */
		t0 = now();
		if (arb_turn_reach(t, t->units.v[u].id, NULL, 0, &e) != 0) {
			fprintf(stderr, "reach: %s\n", e.text);
			return 65;
		}
		t0 = now() - t0;
		if (t0 < tq)
			tq = t0;
		q = t->reachq;
		/* The search alone, again (its memory kept from the query),
		 * and the BFS. */
		c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
		t0 = now();
		/* Each search within --reach's bound, as the query's. */
		reach_limit(t, reach_spent(t) + REACH_LABELS);
		reach_search(t, &q->o, -1, &r);
		t0 = now() - t0;
		c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
		if (getenv("ONE") != NULL)	/* ONE=1: the profile's */
			reach_ahead(t, REACH_AHEAD_NEVER);
		for (k = 0; k < repeat; k++) {	/* REPEAT=n: for a profiler */
			reach_limit(t, reach_spent(t) + REACH_LABELS);
			reach_search(t, &q->o, -1, &r);
		}
		reach_ahead(t, REACH_AHEAD_AUTO);
		if (t0 < ts)
			ts = t0;
		if (c0 < tc)
			tc = c0;
		t0 = now();
		cells = bfs(&t->board, q->o.cells[0], (int)ap);
		t0 = now() - t0;
		if (t0 < tb)
			tb = t0;
		t0 = now();
		all = bfs_all(&t->board, q->o.cells[0]);
		t0 = now() - t0;
		if (t0 < tg)
			tg = t0;
		/* The search on one thread (rules.h, reach_ahead()). */
		reach_ahead(t, REACH_AHEAD_NEVER);
		t0 = now();
		reach_limit(t, reach_spent(t) + REACH_LABELS);
		reach_search(t, &q->o, -1, &r);
		t0 = now() - t0;
		reach_ahead(t, REACH_AHEAD_AUTO);
		if (t0 < t1)
			t1 = t0;
		arb_turn_free(t);
	}
	free(text);
	printf("search    %8.1f ms  %7d cells found, budget %ld AP%s\n", ts,
	    r.n, r.budget, r.truncated ? " (cut at --reach's labels)" : "");
	printf("BFS       %8.1f ms  %7ld hexes: the whole grid from the unit\n",
	    tg, all);
	printf("          %8.2f x the BFS (goal <= 2.00: %s)\n", ts / tg,
	    ts <= 2 * tg ? "met" : "MISSED");
	printf("one thread%8.1f ms  the search without its second thread: "
	    "%.2f x the BFS (reported)\n", t1, t1 / tg);
	printf("CPU       %8.1f ms  both threads' time in the search\n", tc);
	printf("BFS cut   %8.1f ms  %7ld hexes within %ld hexes (every hex the "
	    "search could reach)\n", tb, cells, ap);
	printf("          %8.2f x the cut BFS (reported)\n", ts / tb);
	printf("map read  %8.1f ms\n", tl);
	printf("query     %8.1f ms  (the map read, then the query: %.1f ms)\n",
	    tl + tq, tq);
	printf("          %8.2f x the map read and the BFS\n",
	    (tl + tq) / (tl + tg));
	return ts <= 2 * tg ? 0 : 1;
}
