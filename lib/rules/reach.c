/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Reach: where an order's units can end a walk, and the cheapest path to
 * each cell, found over the rule system's walk hooks (rules.h, struct
 * wstep), so that the search prices every step with the code that
 * adjudicates it.  It names no rule system.  The search and its
 * tie-break are described in rules.h and arbiter-rules(7), Reach.
 *
 * Memory: the labels, the per-cell heads and the queue are malloc'ed and
 * kept with the turn between searches (t->reachmem), so that a turn of
 * many destination orders allocates once; per-cell arrays are reset by a
 * stamp, not cleared.
 *
 * Speed (tests/bench/reach): a walk whose state no step changes
 * (walk_begin's fixed: an aeonis infantry group with range to spare, no
 * portal) keeps one state for all its labels and, without a target,
 * never prices a step into a cell it has settled.  Such cells are left
 * out without a branch each (which neighbours are settled is no pattern
 * a processor can guess).  The cells a label may step to are found one
 * label ahead, so that their records are on their way from memory while
 * the label before is expanded.  And a large search on a hex board has
 * the rule system look up the hexes ahead of it (rules.h, walk_look) on
 * a second thread, ring by ring about the start: the search then finds
 * most hexes looked up, and the two threads' answers are the same, so
 * the result does not depend on which found a hex first.
 */
#define _POSIX_C_SOURCE 200809L	/* pthreads */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

#define L_DEAD		0x01	/* dominated: never expanded */
#define L_SETTLED	0x02	/* left the queue */
#define L_STOP		0x04	/* the step into it stops the walk */
#define L_TESTED	0x08	/* some step of its path is tested */

struct rlabel {
	long		 cost;
	int		 cell, parent, steps;
	int		 next_at;	/* next live label at its cell */
	int		 next_q;	/* queue link */
	unsigned char	 flags;
};

struct reachmem {
	struct rlabel	*lab;
	size_t		 nlab, caplab;
	unsigned char	*st;		/* nlab states of stride bytes */
	size_t		 capst, size;
	size_t		 stride;	/* size in whole 8-byte words */
	size_t		 kept;		/* stride, or 0: a fixed walk's labels
					 * share the first one's state */
	struct rcell {			/* per cell, in one place for the
					 * cache: valid when stamp is now */
		unsigned	 stamp;	/* now * 2, + 1 once a label left the
					 * queue here and the walk may go on
					 * from it */
		int		 head;	/* its live labels */
		int		 best;	/* the label found, or -1 */
	}		*pc;
	int		*dist;		/* per cell: to the target */
	int		*bfsq;		/* distance()'s queue */
	unsigned	*dstamp;	/* per cell: dist valid */
	unsigned	 now;
	int		 ncells;
	int		*bucket;	/* by cost mod nbucket */
	size_t		 nbucket;
	int		*bysteps;	/* the bucket at hand, by steps */
	int		*next[2];	/* walk_next's cells: the label's at
					 * hand, and (ahead) the next one's */
	int		 maxnext[2];
	int		 ahead;		/* the label next[1] is for, or -1 */
	int		 nahead;
	int		*found;		/* the cells found, in order, each
					 * with its label (pairs) */
	size_t		 nfound, capfound;
	struct reach_cell *cells;	/* the answer's (struct reach v) */
	size_t		 capcells;
	bool		 moved;		/* a cell's best label changed after
					 * it was found */
	unsigned char	*tmp;		/* a state being tried */
	unsigned char	*cur;		/* the state of the label expanded */
	long		 spent;		/* labels settled, all searches */
	long		 limit;		/* a search stops there (0: none) */
	struct look {			/* the second thread (walk_look) */
		bool		 on;
		pthread_t	 thread;
		atomic_int	 stop;
		atomic_int	 begun;	/* it has (REACH_AHEAD_ALWAYS) */
		struct arb_turn	*t;
		const struct order *o;
		int		 start, radius;
		int		*ring;	/* board_ring()'s, 6 radius + 1 */
		size_t		 capring;
	}		 look;
	void		*graph;		/* reach_graph()'s (struct gmem) */
};

/* Stops the second thread, if it runs, and waits for it. */
static void
look_stop(struct reachmem *m)
{
	if (!m->look.on)
		return;
	atomic_store_explicit(&m->look.stop, 1, memory_order_relaxed);
	pthread_join(m->look.thread, NULL);
	m->look.on = false;
}

/* Out of memory: the second thread stops before the turn gives up. */
static void __attribute__((noreturn))
nomem(struct arb_turn *t)
{
	if (t->reachmem != NULL)
		look_stop(t->reachmem);
	t_nomem(t);
}

/* t_grow(), but stopping the second thread before a failure. */
static void
grow(struct arb_turn *t, void *vecp, size_t *cap, size_t need, size_t size)
{
	void	**v = vecp, *p;
	size_t	  n;

	if (need <= *cap)
		return;
	n = *cap < 8 ? 8 : *cap * 2;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / size || (p = realloc(*v, n * size)) == NULL)
		nomem(t);
	*v = p;
	*cap = n;
}

static void	 gmem_free(void *);

static struct reachmem *
reachmem(struct arb_turn *t)
{
	struct reachmem	*m = t->reachmem;
	size_t		 n = (size_t)t->board.ncells, i;

	if (m == NULL) {
		if ((m = calloc(1, sizeof(*m))) == NULL)
			t_nomem(t);
		t->reachmem = m;
	}
	if (m->ncells != t->board.ncells) {
		free(m->pc);
		free(m->dist);
		free(m->bfsq);
		free(m->dstamp);
		m->dist = m->bfsq = NULL;	/* distance() makes them */
		m->dstamp = NULL;
		m->ncells = 0;
		if ((m->pc = calloc(n + 1, sizeof(*m->pc))) == NULL)
			t_nomem(t);
		m->ncells = t->board.ncells;
		m->now = 0;
	}
	if (m->bysteps == NULL &&
	    (m->bysteps = malloc((MAXSTEPS + 2) * sizeof(int))) == NULL)
		t_nomem(t);
	if (++m->now >= UINT_MAX / 2) {	/* the stamps wrap */
		for (i = 0; i < n; i++)
			m->pc[i].stamp = 0;
		if (m->dstamp != NULL)
			memset(m->dstamp, 0, n * sizeof(unsigned));
		m->now = 1;
	}
	return m;
}

void
reach_stop(struct arb_turn *t)
{
	if (t->reachmem != NULL)
		look_stop(t->reachmem);
}

void
reach_release(struct arb_turn *t)
{
	struct reachmem	*m = t->reachmem;

	if (m == NULL)
		return;
	look_stop(m);		/* it stops at a search's end: never here */
	free(m->lab);
	free(m->st);
	free(m->pc);
	free(m->dist);
	free(m->bfsq);
	free(m->dstamp);
	free(m->bucket);
	free(m->bysteps);
	free(m->next[0]);
	free(m->next[1]);
	free(m->look.ring);
	free(m->found);
	free(m->cells);
	free(m->tmp);
	gmem_free(m->graph);
	free(m);
	t->reachmem = NULL;
}

static unsigned char *
state(struct reachmem *m, int l)
{
	return m->kept == 0 ? m->st : m->st + (size_t)l * m->kept;
}

/* A state copied: a few words, not a call to memcpy() for each step. */
static inline void
copy_state(const struct reachmem *m, unsigned char *to,
    const unsigned char *from)
{
	size_t	 i;

	if (m->stride == 16) {		/* the common size, unrolled */
		memcpy(to, from, 16);
		return;
	}
	for (i = 0; i < m->stride; i += 8)
		memcpy(to + i, from + i, 8);
}

static int
head(struct reachmem *m, int c)
{
	struct rcell	*pc = &m->pc[c];

	if (pc->stamp >> 1 != m->now) {
		pc->stamp = m->now << 1;
		pc->head = -1;
		pc->best = -1;
	}
	return pc->head;
}

/*
 * The tie-break between two paths of equal cost and steps to one cell:
 * read from the end back, the first cell that differs decides, the one
 * first in the board's order winning.  a and b are the labels before
 * the last cell (the paths are equally long).  < 0: a's path first.
 */
static int
pathcmp(const struct reachmem *m, int a, int b)
{
	while (a != b) {
		if (a < 0 || b < 0)
			return a < 0 ? -1 : 1;	/* not reached */
		if (m->lab[a].cell != m->lab[b].cell)
			return m->lab[a].cell < m->lab[b].cell ? -1 : 1;
		a = m->lab[a].parent;
		b = m->lab[b].parent;
	}
	return 0;
}

/* Does a (cost, steps, stop, parent, state) make b unneeded? */
static bool
dominates(const struct ruleset *rs, const struct reachmem *m, long ac,
    int as, bool astop, int ap, const void *ast, long bc, int bs, bool bstop,
    int bp, const void *bst)
{
	/* Cheaper wins whatever the steps: any way on from b costs more
	 * from b.  At one cost, fewer steps, then the tie-break. */
	if (ac > bc || (ac == bc && as > bs) || (astop && !bstop))
		return false;
	/* A fixed walk's states are all the same. */
	if (m->kept != 0 && (rs->walk_better != NULL ?
	    !rs->walk_better(ast, bst) : memcmp(ast, bst, m->size) != 0))
		return false;
	if (ac == bc && as == bs && pathcmp(m, ap, bp) > 0)
		return false;
	return true;
}

static inline void
enqueue(struct arb_turn *t, struct reachmem *m, int l, long cur)
{
	long	 c = m->lab[l].cost;
	size_t	 i, nb, k;

	if ((size_t)(c - cur) >= m->nbucket) {
		/* A bigger ring: every queued label goes to its new place. */
		int	*old = m->bucket;
		size_t	 on = m->nbucket;

		for (nb = on < 16 ? 16 : on; nb <= (size_t)(c - cur); nb *= 2)
			;
		if ((m->bucket = malloc(nb * sizeof(int))) == NULL) {
			m->bucket = old;
			nomem(t);
		}
		for (i = 0; i < nb; i++)
			m->bucket[i] = -1;
		m->nbucket = nb;
		for (i = 0; i < on; i++)
			while (old[i] >= 0) {
				int	 q = old[i];

				old[i] = m->lab[q].next_q;
				k = (size_t)m->lab[q].cost & (nb - 1);
				m->lab[q].next_q = m->bucket[k];
				m->bucket[k] = q;
			}
		free(old);
	}
	k = (size_t)c & (m->nbucket - 1);
	m->lab[l].next_q = m->bucket[k];
	m->bucket[k] = l;
}

/* A new label; its state is m->tmp. */
static inline int
label_new(struct arb_turn *t, struct reachmem *m, int cell, int parent,
    long cost, int steps, unsigned char flags)
{
	int	 l = (int)m->nlab;

	if (m->nlab >= INT_MAX - 1)
		nomem(t);
	if (m->nlab + 1 > m->caplab)
		grow(t, &m->lab, &m->caplab, m->nlab + 1, sizeof(*m->lab));
	if ((m->nlab + 1) * m->kept + m->stride > m->capst)
		grow(t, &m->st, &m->capst, (m->nlab + 1) * m->kept + m->stride,
		    1);
	m->nlab++;
	m->lab[l].cost = cost;
	m->lab[l].cell = cell;
	m->lab[l].parent = parent;
	m->lab[l].steps = steps;
	m->lab[l].flags = flags;
	m->lab[l].next_q = -1;
	copy_state(m, state(m, l), m->tmp);
	m->lab[l].next_at = head(m, cell);
	m->pc[cell].head = l;
	return l;
}

/*
 * Offers a way to cell (state m->tmp): dropped when a label there makes
 * it unneeded, else added, dropping the unsettled labels it makes
 * unneeded.  Returns the new label, or -1.
 */
static int
offer(struct arb_turn *t, struct reachmem *m, int cell, int parent,
    long cost, int steps, unsigned char flags)
{
	const struct ruleset *rs = t->rs;
	bool	 stop = flags & L_STOP;
	int	 l, *prev;

	if (head(m, cell) < 0)		/* the first way there */
		return label_new(t, m, cell, parent, cost, steps, flags);
	for (prev = &m->pc[cell].head, l = head(m, cell); l >= 0; l = *prev) {
		struct rlabel *x = &m->lab[l];

		if (dominates(rs, m, x->cost, x->steps, x->flags & L_STOP,
		    x->parent, state(m, l), cost, steps, stop, parent, m->tmp))
			return -1;
		if (!(x->flags & L_SETTLED) && dominates(rs, m, cost, steps,
		    stop, parent, m->tmp, x->cost, x->steps, x->flags & L_STOP,
		    x->parent, state(m, l))) {
			x->flags |= L_DEAD;
			*prev = x->next_at;	/* out of the cell's list */
			continue;
		}
		prev = &x->next_at;
	}
	return label_new(t, m, cell, parent, cost, steps, flags);
}

/* Has cell c a settled label that no later one can beat (a walk whose
 * state does not change)?  pc and now are m's, kept by the caller. */
static inline bool
settled(const struct rcell *pc, unsigned now, int c)
{
	return pc[c].stamp == (now << 1 | 1);
}

/* Board distance to the target: hex, or hops on a graph (found once). */
static int
distance(struct arb_turn *t, struct reachmem *m, int c, int target)
{
	const struct board *b = &t->board;
	int	*q, nq = 0, i, k;

	if (b->kind == BOARD_HEX)
		return board_distance(b, c, target);
	if (m->dstamp == NULL) {
		size_t	 n = (size_t)b->ncells + 1;

		if ((m->bfsq = malloc(n * sizeof(int))) == NULL ||
		    (m->dist = malloc(n * sizeof(int))) == NULL ||
		    (m->dstamp = calloc(n, sizeof(unsigned))) == NULL)
			nomem(t);
	}
	if (m->dstamp[target] != m->now) {
		/* A breadth-first search from the target, once. */
		q = m->bfsq;
		for (i = 0; i < b->ncells; i++) {
			m->dstamp[i] = m->now;
			m->dist[i] = INT_MAX;
		}
		m->dist[target] = 0;
		q[nq++] = target;
		for (i = 0; i < nq; i++)
			for (k = b->adj_at[q[i]]; k < b->adj_at[q[i] + 1];
			    k++)
				if (m->dist[b->adj[k]] == INT_MAX) {
					m->dist[b->adj[k]] =
					    m->dist[q[i]] + 1;
					q[nq++] = b->adj[k];
				}
	}
	return m->dist[c];
}

/*
 * The nearest approach so far: refused after label from (or the start),
 * at cell to.  Nearest to the target first, then cheapest, fewest steps,
 * first cell in the board's order, the step before the end.
 */
static void
approach(struct arb_turn *t, struct reachmem *m, struct reach *r,
    int target, int from, int to, bool end, const struct wstep *why,
    int *neard)
{
	int	 d = distance(t, m, to, target);
	long	 c = from >= 0 ? m->lab[from].cost : 0;
	int	 s = from >= 0 ? m->lab[from].steps : 0;

	if (r->near.reason != R_OK) {
		const struct rlabel *n = r->near_label >= 0 ?
		    &m->lab[r->near_label] : NULL;
		long	 nc = n != NULL ? n->cost : 0;
		int	 ns = n != NULL ? n->steps : 0;

		if (d != *neard) {
			if (d > *neard)
				return;
		} else if (c != nc) {
			if (c > nc)
				return;
		} else if (s != ns) {
			if (s > ns)
				return;
		} else if (to != r->near_to) {
			if (to > r->near_to)
				return;
		} else if (end || !r->near_end)
			return;
	}
	*neard = d;
	r->near_label = from;
	r->near_to = to;
	r->near_end = end;
	r->near = *why;
}

/* walk_next()'s cells from c, into m->next[h] (grown to hold them). */
static int
next_cells(struct arb_turn *t, struct reachmem *m, const struct order *o,
    const void *st, int c, int h)
{
	const struct ruleset *rs = t->rs;
	int	 n;

	n = rs->walk_next(t, o, st, c, m->next[h], m->maxnext[h]);
	while (n > m->maxnext[h]) {
		int	*p = realloc(m->next[h], (size_t)n * sizeof(int));

		if (p == NULL)
			nomem(t);
		m->next[h] = p;
		m->maxnext[h] = n;
		n = rs->walk_next(t, o, st, c, m->next[h], m->maxnext[h]);
	}
	return n;
}

/* The second thread: the rule system looks up the hexes about the
 * start, ring after ring, until it is told to stop. */
static void *
look_run(void *arg)
{
	struct reachmem	*m = arg;
	struct arb_turn	*t = m->look.t;
	int		 d, i, n;

	atomic_store_explicit(&m->look.begun, 1, memory_order_relaxed);
	for (d = 0; d <= m->look.radius; d++) {
		n = board_ring(&t->board, m->look.start, d, m->look.ring);
		for (i = 0; i == 0 || i < n; i++) {
			if (i % 32 == 0 && atomic_load_explicit(&m->look.stop,
			    memory_order_relaxed))
				return NULL;
			if (i < n)
				t->rs->walk_look(t, m->look.o,
				    m->look.ring[i]);
		}
	}
	return NULL;
}

/*
 * Starts the second thread when the rule system can look ahead, the board
 * is of hexes, and (REACH_AHEAD_AUTO) the search is large enough to pay
 * for a thread and the machine has a processor for it: points and steps
 * for 64 hexes or more (walk_begin's span: a unit's range may bind
 * first).  The rings stop at the most steps the walk can take.
 */
static void
look_start(struct arb_turn *t, struct reachmem *m, const struct order *o,
    int target, long budget, long span)
{
	const struct board *b = &t->board;
	pthread_attr_t	 attr;
	int		 start = o->cells[0], radius, k;
	bool		 large;

	if (t->rs->walk_look == NULL || b->kind != BOARD_HEX ||
	    t->reach_ahead == REACH_AHEAD_NEVER)
		return;
	/* The steps it may take: its own bound, or (every step costing a
	 * point or more, but a few) twice its points. */
	if (span <= 0 || span / 2 > budget)
		span = budget > LONG_MAX / 2 ? LONG_MAX : 2 * budget;
	large = budget >= 64 && span >= 64 && (target < 0 ||
	    board_distance(b, start, target) >= 16) &&
	    processors() >= 2;
	if (t->reach_ahead == REACH_AHEAD_AUTO && !large)
		return;
	/* No ring beyond the farthest corner's, and one more (a lower
	 * column's last hex, next to a corner, may be one farther): the
	 * board ends there. */
	radius = 1;
	for (k = 0; k < 4; k++) {
		int	 d = board_distance(b, start, (k & 1 ? b->cols - 1 : 0) +
		    (k & 2 ? b->ncells - b->cols : 0));

		if (d + 1 > radius)
			radius = d + 1;
	}
	if (span < radius)
		radius = (int)span;	/* radius is an int: so is span now */
	grow(t, &m->look.ring, &m->look.capring, 6 * (size_t)radius + 1,
	    sizeof(int));
	m->look.t = t;
	m->look.o = o;
	m->look.start = start;
	m->look.radius = radius;
	atomic_store_explicit(&m->look.stop, 0, memory_order_relaxed);
	atomic_store_explicit(&m->look.begun, 0, memory_order_relaxed);
	t->rs->walk_look(t, o, -1);
	/* A small stack: it calls the rule system's look-ups alone. */
	if (pthread_attr_init(&attr) != 0)
		return;
	if (pthread_attr_setstacksize(&attr, 256 * 1024) == 0 &&
	    pthread_create(&m->look.thread, &attr, look_run, m) == 0)
		m->look.on = true;
	pthread_attr_destroy(&attr);
	/* The tests': the two threads at once from the first hex, or the
	 * second's answers alone. */
	if (m->look.on && t->reach_ahead == REACH_AHEAD_ALWAYS)
		while (!atomic_load_explicit(&m->look.begun,
		    memory_order_relaxed))
			sched_yield();
	if (m->look.on && t->reach_ahead == REACH_AHEAD_FIRST) {
		pthread_join(m->look.thread, NULL);
		m->look.on = false;
	}
}

void
reach_search(struct arb_turn *t, const struct order *o, int target,
    struct reach *r)
{
	const struct ruleset *rs = t->rs;
	struct reachmem	*m = reachmem(t);
	struct wstep	 s, over;
	long		 cur, budget;
	size_t		 queued = 0, i;
	int		 start = o->cells[0], l, k, n, neard = INT_MAX;
	int		 goal = -1;
	bool		 skip;
	const struct rcell *pcv;
	unsigned	 now;

	memset(r, 0, sizeof(*r));
	r->near_label = -1;
	r->near_to = -1;
	m->size = rs->walk_size;
	m->stride = (m->size + 7) / 8 * 8;
	m->nlab = 0;
	m->nfound = 0;
	m->moved = false;
	free(m->tmp);
	if ((m->tmp = calloc(2, m->stride + 8)) == NULL)
		t_nomem(t);
	m->cur = m->tmp + m->stride + 8;
	m->ahead = -1;
	for (i = 0; i < 2; i++)		/* never a null list to walk_next */
		if (m->maxnext[i] == 0) {
			if ((m->next[i] = malloc(64 * sizeof(int))) == NULL)
				t_nomem(t);
			m->maxnext[i] = 64;
		}
	for (i = 0; i < m->nbucket; i++)
		m->bucket[i] = -1;
	memset(&over, 0, sizeof(over));
	budget = rs->walk_begin(t, o, m->tmp, &over);
	r->over = over;
	r->budget = budget;
	/* Without a target, no refused step is wanted either. */
	skip = over.fixed && target < 0;
	m->kept = over.fixed ? 0 : m->stride;
	pcv = m->pc;
	now = m->now;
	if (budget < 0) {
		r->near = over;
		r->near_to = start;
		return;
	}
	look_start(t, m, o, target, budget, over.span);
	(void)head(m, start);
	l = label_new(t, m, start, -1, 0, 0, 0);
	enqueue(t, m, l, 0);
	queued++;
	for (cur = 0; queued > 0; cur++) {
		size_t	 b = (size_t)cur & (m->nbucket - 1);
		int	 lo = INT_MAX, hi = -1, st;

		if (m->bucket[b] < 0)
			continue;
		/* This cost's labels, by steps. */
		while (m->bucket[b] >= 0) {
			l = m->bucket[b];
			m->bucket[b] = m->lab[l].next_q;
			queued--;
			st = m->lab[l].steps;
			if (st > hi) {
				for (k = hi + 1; k <= st; k++)
					m->bysteps[k] = -1;
				hi = st;
			}
			if (st < lo)
				lo = st;
			m->lab[l].next_q = m->bysteps[st];
			m->bysteps[st] = l;
		}
		for (st = lo; st <= hi; st++)
			while (m->bysteps[st] >= 0) {
				struct rlabel *x;
				const char *rule = NULL;
				enum reason why;
				int	 c;

				l = m->bysteps[st];
				x = &m->lab[l];
				m->bysteps[st] = x->next_q;
				if (x->flags & L_DEAD)
					continue;
				x->flags |= L_SETTLED;
				if (!(x->flags & L_STOP))
					m->pc[x->cell].stamp |= 1;
				if (m->limit > 0 && m->spent >= m->limit) {
					r->truncated = true;
					goto done;
				}
				m->spent++;
				c = x->cell;
				if (goal >= 0 && (x->cost > m->lab[goal].cost ||
				    (x->cost == m->lab[goal].cost &&
				    x->steps > m->lab[goal].steps)))
					goto done;
				/* A cell the walk may end in. */
				if (x->steps > 0 && c != start &&
				    (target < 0 || c == target)) {
					why = rs->walk_end(t, o, state(m, l), c,
					    &rule);
					if (why == R_OK) {
						int	 bst;

						(void)head(m, c);
						bst = m->pc[c].best;
						if (bst < 0) {
							grow(t, &m->found,
							    &m->capfound,
							    2 * m->nfound + 2,
							    sizeof(int));
							m->found[2 *
							    m->nfound] = c;
							m->found[2 *
							    m->nfound++ + 1] =
							    l;
						} else
							m->moved = true;
						if (bst < 0 || x->cost <
						    m->lab[bst].cost ||
						    (x->cost ==
						    m->lab[bst].cost &&
						    (x->steps <
						    m->lab[bst].steps ||
						    (x->steps ==
						    m->lab[bst].steps &&
						    pathcmp(m, x->parent,
						    m->lab[bst].parent) < 0))))
							m->pc[c].best = l;
						if (c == target)
							goal = m->pc[c].best;
					} else if (target >= 0) {
						s.reason = why;
						s.rule = rule;
						s.cost = 0;
						s.stop = s.tested = false;
						approach(t, m, r, target, l, c,
						    true, &s, &neard);
					}
				}
				if (x->flags & L_STOP) {
					if (target >= 0 && c != target) {
						/* The step that stopped it,
						 * asked again for its clause. */
						memset(&s, 0, sizeof(s));
						if (x->parent >= 0) {
							copy_state(m, m->tmp,
							    state(m, x->parent));
							rs->walk_step(t, o,
							    m->tmp, m->lab[
							    x->parent].cell, c,
							    &s);
						}
						s.reason = R_ZOC_STOP;
						s.cost = 0;
						s.stop = s.tested = false;
						approach(t, m, r, target, l, c,
						    false, &s, &neard);
					}
					continue;
				}
				if (x->steps >= MAXSTEPS)
					continue;
				copy_state(m, m->cur, state(m, l));
				if (m->ahead == l) {	/* found ahead */
					int	*sw = m->next[0];

					m->next[0] = m->next[1];
					m->next[1] = sw;
					k = m->maxnext[0];
					m->maxnext[0] = m->maxnext[1];
					m->maxnext[1] = k;
					n = m->nahead;
				} else
					n = next_cells(t, m, o, m->cur, c, 0);
				m->ahead = -1;
				/* The next label's cells: their records
				 * (the rule system's, in walk_next, and ours)
				 * come from memory while this label's steps
				 * are priced.  Nothing settles in between, and
				 * walk_next() reads no label. */
				if ((k = m->bysteps[st]) >= 0 &&
				    !(m->lab[k].flags & (L_DEAD | L_STOP)) &&
				    m->lab[k].steps < MAXSTEPS) {
					int	 j;

					m->nahead = next_cells(t, m, o,
					    state(m, k), m->lab[k].cell, 1);
					m->ahead = k;
					for (j = 0; j < m->nahead; j++)
						__builtin_prefetch(
						    &pcv[m->next[1][j]]);
				}
				/* A cell settled in a walk whose state does
				 * not change: a step there costs no less,
				 * with more steps.  Such cells are left out
				 * without a branch each: which cells are
				 * settled is not a pattern a processor can
				 * guess. */
				if (skip) {
					int	 kept = 0;

					for (k = 0; k < n; k++) {
						int to = m->next[0][k];

						m->next[0][kept] = to;
						kept += !settled(pcv, now, to);
					}
					n = kept;
				}
				for (k = 0; k < n; k++) {
					int	 to = m->next[0][k], nl;
					long	 nc;
					unsigned char fl;

					x = &m->lab[l];	/* labels move */
					copy_state(m, m->tmp, m->cur);
					s.cost = 0;
					s.reason = R_OK;
					s.rule = NULL;
					s.stop = s.tested = s.fixed = false;
					rs->walk_step(t, o, m->tmp, c, to, &s);
					if (s.reason != R_OK) {
						if (target >= 0)
							approach(t, m, r, target,
							    l, to, false, &s,
							    &neard);
						continue;
					}
					nc = x->cost + s.cost;
					if (s.cost < 0 || nc > budget) {
						if (target >= 0)
							approach(t, m, r, target,
							    l, to, false,
							    &over, &neard);
						continue;
					}
					fl = (x->flags & L_TESTED) |
					    (s.stop ? L_STOP : 0) |
					    (s.tested ? L_TESTED : 0);
					nl = offer(t, m, to, l, nc, x->steps + 1,
					    fl);
					if (nl < 0)
						continue;
					if (s.cost == 0) {
						/* Same cost, one step more. */
						if (st + 1 > hi) {
							hi = st + 1;
							m->bysteps[hi] = -1;
						}
						m->lab[nl].next_q =
						    m->bysteps[st + 1];
						m->bysteps[st + 1] = nl;
					} else {
						enqueue(t, m, nl, cur);
						queued++;
					}
				}
			}
	}
done:
	look_stop(m);
	/* The cells found, in the order they were found. */
	r->found = goal >= 0;
	if (target >= 0 && goal < 0 && r->near.reason == R_OK) {
		/* Nothing refused on the way: the target is out of every
		 * path's reach (a graph in pieces). */
		r->near = over;
		r->near_to = target;
	}
	grow(t, &m->cells, &m->capcells, m->nfound + 1, sizeof(*m->cells));
	r->v = m->cells;
	for (i = 0; i < m->nfound; i++) {
		struct reach_cell *rc = &r->v[r->n++];
		int		 b = m->moved ? m->pc[m->found[2 * i]].best :
				    m->found[2 * i + 1];
		const struct rlabel *x = &m->lab[b];

		rc->cell = x->cell;
		rc->label = b;
		rc->cost = x->cost;
		rc->steps = x->steps;
		rc->stop = x->flags & L_STOP;
		rc->tested = x->flags & L_TESTED;
	}
}

/* Kept in the turn, so that it may be called outside an entry point. */
void
reach_ahead(struct arb_turn *t, int mode)
{
	t->reach_ahead = mode;
}

void
reach_limit(struct arb_turn *t, long limit)
{
	struct reachmem	*m = t->reachmem;

	if (m == NULL) {
		if ((m = calloc(1, sizeof(*m))) == NULL)
			t_nomem(t);
		t->reachmem = m;
	}
	m->limit = limit;
}

long
reach_spent(struct arb_turn *t)
{
	struct reachmem	*m = t->reachmem;

	return m != NULL ? m->spent : 0;
}

int
reach_steps(struct arb_turn *t, int label)
{
	struct reachmem	*m = t->reachmem;

	return label < 0 ? 0 : m->lab[label].steps;
}

int
reach_parent(struct arb_turn *t, int label)
{
	struct reachmem	*m = t->reachmem;

	return m->lab[label].parent;
}

long
reach_cost(struct arb_turn *t, int label)
{
	struct reachmem	*m = t->reachmem;

	return m->lab[label].cost;
}

int
reach_cell(struct arb_turn *t, int label)
{
	struct reachmem	*m = t->reachmem;

	return m->lab[label].cell;
}

size_t
reach_labels(struct arb_turn *t)
{
	struct reachmem	*m = t->reachmem;

	return m != NULL ? m->nlab : 0;
}

void
reach_path(struct arb_turn *t, int label, int *out)
{
	struct reachmem	*m = t->reachmem;
	int		 i;

	if (label < 0)
		return;
	for (i = m->lab[label].steps; label >= 0; i--) {
		out[i] = m->lab[label].cell;
		label = m->lab[label].parent;
	}
}

/*
 * The state graph (rules.h, reach_graph): a search over (cell, stopped,
 * state) by cost, with a binary heap, each node expanded once at its
 * cheapest cost, no node dropped for another.  The nodes are found again
 * by a hash of their cell, stop and state bytes.
 */
struct gmem {
	struct rg_node	*node;
	size_t		 capnode;
	struct rg_edge	*edge;
	size_t		 capedge;
	unsigned char	*st;		/* the nodes' states, stride each */
	size_t		 capst;
	int		*hash;		/* open addressing: node + 1, 0 free */
	size_t		 nhash;
	struct gent {
		long	 cost;
		int	 v;
	}		*heap;
	size_t		 capheap;
	bool		*done;
	size_t		 capdone;
	int		*next;
	int		 maxnext;
	int		*off;		/* a flip's units taken off */
	size_t		 capoff;
};

static void
gmem_free(void *p)
{
	struct gmem	*g = p;

	if (g == NULL)
		return;
	free(g->node);
	free(g->edge);
	free(g->st);
	free(g->hash);
	free(g->heap);
	free(g->done);
	free(g->next);
	free(g->off);
	free(g);
}

static size_t
ghash(int cell, bool stop, const unsigned char *st, size_t size)
{
	size_t	 h = (size_t)cell * 2654435761u + stop;
	size_t	 i;

	for (i = 0; i < size; i++)
		h = h * 131 + st[i];
	return h;
}

/* The heap holds nodes by the cost they were offered at, then number
 * (a stable order); a node offered again cheaper is there twice, the
 * dearer entry left when it comes out (the node is done). */
static bool
gless(const struct gent *a, const struct gent *b)
{
	return a->cost != b->cost ? a->cost < b->cost : a->v < b->v;
}

static void
gpush(struct arb_turn *t, struct gmem *g, size_t *n, int v, long cost)
{
	struct gent	 x = { cost, v };
	size_t		 i;

	grow(t, &g->heap, &g->capheap, *n + 1, sizeof(*g->heap));
	for (i = (*n)++; i > 0 && gless(&x, &g->heap[(i - 1) / 2]);
	    i = (i - 1) / 2)
		g->heap[i] = g->heap[(i - 1) / 2];
	g->heap[i] = x;
}

static int
gpop(struct gmem *g, size_t *n)
{
	struct gent	 top = g->heap[0], x = g->heap[--*n];
	size_t		 i = 0, k;

	for (;;) {
		k = 2 * i + 1;
		if (k >= *n)
			break;
		if (k + 1 < *n && gless(&g->heap[k + 1], &g->heap[k]))
			k++;
		if (!gless(&g->heap[k], &x))
			break;
		g->heap[i] = g->heap[k];
		i = k;
	}
	if (*n > 0)
		g->heap[i] = x;
	return top.v;
}

/* Is unit u one of the walk's? */
static bool
walks_it(const struct order *o, int u)
{
	int	 i;

	for (i = 0; i < o->nunits; i++)
		if (o->units[i] == u)
			return true;
	return false;
}

/*
 * Cell c's occupancy by the player's other units turned the other way
 * (rules.h, reach_graph): they are taken off its list, or, where none
 * stands there, unit ph is put there.  Returns how many were taken off,
 * or 0 for ph placed (its cell in *was), -1 for nothing done (no ph).
 * flip_back() undoes it.
 */
static int
flip(struct arb_turn *t, const struct order *o, int c, int ph, int *off,
    int *was)
{
	int	 u, n = 0;

	for (u = t->board.cells[c].first_unit; u >= 0; u = t->units.v[u].next)
		if (t->units.v[u].player == o->player && !walks_it(o, u))
			off[n++] = u;
	if (n > 0) {
		for (u = 0; u < n; u++)
			unit_unlink(t, off[u]);
		return n;
	}
	if (ph < 0)
		return -1;
	*was = t->units.v[ph].at;
	unit_place(t, ph, c);
	return 0;
}

static void
flip_back(struct arb_turn *t, int c, int n, const int *off, int ph, int was)
{
	int	 u;

	if (n == 0)
		unit_place(t, ph, was);
	for (u = 0; u < n; u++)
		unit_place(t, off[u], c);
}

/* The search of reach_graph() under way. */
struct gsearch {
	struct arb_turn	*t;
	const struct order *o;
	struct gmem	*g;
	struct rgraph	*r;
	size_t		 stride, nheap;
	int		 nn, ne, maxnodes;
	int		 ph;		/* the unit a flip places, or -1 */
	int		*off;		/* a flip's units taken off */
	unsigned char	*scratch;	/* walk_begin's state, thrown away */
};

/* The walk_begin of a flip: its answers are thrown away, but whatever
 * the rule system looks up is looked up again. */
static void
rebegin(struct gsearch *gs)
{
	struct wstep	 w;

	memset(gs->scratch, 0, gs->stride);
	memset(&w, 0, sizeof(w));
	(void)gs->t->rs->walk_begin(gs->t, gs->o, gs->scratch, &w);
}

/* The step from node v to cell to, whose answer is s and state st, as
 * an edge (a flipped one when fl). */
static void
gedge(struct gsearch *gs, int v, int to, const struct wstep *s,
    const unsigned char *st, bool fl)
{
	struct arb_turn	*t = gs->t;
	struct gmem	*g = gs->g;
	struct rg_edge	*e;
	size_t		 h;
	long		 nc;
	int		 w;

	grow(t, &g->edge, &g->capedge, (size_t)gs->ne + 1, sizeof(*g->edge));
	e = &g->edge[gs->ne++];
	g->node[v].n++;
	memset(e, 0, sizeof(*e));
	e->to = -1;
	e->cell = to;
	e->cost = s->cost;
	e->tested = s->tested;
	e->flip = fl;
	if (s->reason != R_OK) {
		e->why = s->reason;
		e->rule = s->rule;
		return;
	}
	nc = g->node[v].cost + s->cost;
	if (s->cost < 0 || nc > gs->r->budget) {
		e->over = true;
		e->why = gs->r->over.reason;
		e->rule = gs->r->over.rule;
		return;
	}
	/* The node it reaches: found, or new. */
	h = ghash(to, s->stop, st, t->rs->walk_size) & (g->nhash - 1);
	for (; (w = g->hash[h] - 1) >= 0; h = (h + 1) & (g->nhash - 1))
		if (g->node[w].cell == to && g->node[w].stop == s->stop &&
		    memcmp(g->st + (size_t)w * gs->stride, st,
		    t->rs->walk_size) == 0)
			break;
	if (w < 0) {
		if (gs->nn >= gs->maxnodes) {
			e->cut = true;
			gs->r->cut = true;
			return;
		}
		w = gs->nn++;
		grow(t, &g->node, &g->capnode, (size_t)gs->nn,
		    sizeof(*g->node));
		grow(t, &g->st, &g->capst, (size_t)gs->nn * gs->stride, 1);
		grow(t, &g->done, &g->capdone, (size_t)gs->nn, sizeof(bool));
		memset(&g->node[w], 0, sizeof(g->node[w]));
		g->node[w].cell = to;
		g->node[w].stop = s->stop;
		g->node[w].cost = nc;
		g->done[w] = false;
		memcpy(g->st + (size_t)w * gs->stride, st, gs->stride);
		g->hash[h] = w + 1;
		gpush(t, g, &gs->nheap, w, nc);
	} else if (!g->done[w] && nc < g->node[w].cost) {
		g->node[w].cost = nc;
		gpush(t, g, &gs->nheap, w, nc);
	}
	g->edge[gs->ne - 1].to = w;
}

/* Are two answers of a step the same? */
static bool
same_step(const struct wstep *a, const unsigned char *sa,
    const struct wstep *b, const unsigned char *sb, size_t size)
{
	if (a->reason != b->reason)
		return false;
	if (a->reason != R_OK)
		return a->rule == b->rule || (a->rule != NULL && b->rule !=
		    NULL && strcmp(a->rule, b->rule) == 0);
	return a->cost == b->cost && a->stop == b->stop &&
	    a->tested == b->tested && memcmp(sa, sb, size) == 0;
}

void
reach_graph(struct arb_turn *t, const struct order *o, int maxnodes,
    struct rgraph *r)
{
	const struct ruleset *rs = t->rs;
	struct reachmem	*m = reachmem(t);
	struct gsearch	 gs;
	struct gmem	*g;
	struct wstep	 s, s2, over;
	size_t		 stride, i, h;
	unsigned char	*tmp, *tmp2, *cur;
	int		 v, k, n, was = -1, noff;

	memset(r, 0, sizeof(*r));
	if (m->graph == NULL && (m->graph = calloc(1,
	    sizeof(struct gmem))) == NULL)
		nomem(t);
	g = m->graph;
	stride = (rs->walk_size + 7) / 8 * 8;
	if (stride == 0)
		stride = 8;
	free(m->tmp);
	if ((m->tmp = calloc(4, stride + 8)) == NULL)
		t_nomem(t);
	tmp = m->tmp;
	cur = tmp + stride + 8;
	tmp2 = cur + stride + 8;
	memset(&gs, 0, sizeof(gs));
	gs.t = t;
	gs.o = o;
	gs.g = g;
	gs.r = r;
	gs.stride = stride;
	gs.maxnodes = maxnodes;
	gs.scratch = tmp2 + stride + 8;
	gs.ph = -1;
	memset(&over, 0, sizeof(over));
	r->budget = rs->walk_begin(t, o, tmp, &over);
	r->over = over;
	if (r->budget < 0)
		return;
	/* The flips: a sequential rule system's units (not a count). */
	if (rs->resolve == NULL && o->nunits > 0 && t->board.kind !=
	    BOARD_TABLE) {
		for (i = 0; i < t->units.n && gs.ph < 0; i++)
			if (t->units.v[i].player == o->player &&
			    !t->units.v[i].gone && !t->units.v[i].left &&
			    t->units.v[i].at >= 0 && !walks_it(o, (int)i))
				gs.ph = (int)i;
		grow(t, &g->off, &g->capoff, t->units.n + 1, sizeof(int));
		gs.off = g->off;
		r->flips = true;
	}
	/* A table of twice the nodes it may hold. */
	if (g->nhash < 2 * (size_t)maxnodes + 2) {
		free(g->hash);
		g->nhash = 16;
		while (g->nhash < 2 * (size_t)maxnodes + 2)
			g->nhash *= 2;
		if ((g->hash = malloc(g->nhash * sizeof(int))) == NULL) {
			g->nhash = 0;
			nomem(t);
		}
	}
	memset(g->hash, 0, g->nhash * sizeof(int));
	if (g->maxnext == 0) {
		if ((g->next = malloc(64 * sizeof(int))) == NULL)
			nomem(t);
		g->maxnext = 64;
	}
	/* Node 0: the start. */
	grow(t, &g->node, &g->capnode, 1, sizeof(*g->node));
	grow(t, &g->st, &g->capst, stride, 1);
	memset(&g->node[0], 0, sizeof(g->node[0]));
	g->node[0].cell = o->cells[0];
	memcpy(g->st, tmp, stride);
	h = ghash(o->cells[0], false, tmp, rs->walk_size) & (g->nhash - 1);
	g->hash[h] = 1;
	gs.nn = 1;
	grow(t, &g->done, &g->capdone, 1, sizeof(bool));
	g->done[0] = false;
	gpush(t, g, &gs.nheap, 0, 0);
	while (gs.nheap > 0) {
		struct rg_node *x;

		v = gpop(g, &gs.nheap);
		if (g->done[v])
			continue;
		g->done[v] = true;
		x = &g->node[v];
		x->first = gs.ne;
		x->n = 0;
		x->endrule = x->vendrule = NULL;
		x->end = x->vend = R_OK;
		if (v > 0) {
			x->end = rs->walk_end(t, o, g->st + (size_t)v * stride,
			    x->cell, &x->endrule);
			x->vend = x->end;
			x->vendrule = x->endrule;
		}
		if (v > 0 && r->flips && (noff = flip(t, o, x->cell, gs.ph,
		    gs.off, &was)) >= 0) {
			rebegin(&gs);
			x->vend = rs->walk_end(t, o, g->st + (size_t)v * stride,
			    x->cell, &x->vendrule);
			flip_back(t, x->cell, noff, gs.off, gs.ph, was);
			rebegin(&gs);
		}
		if (x->stop)
			continue;
		memcpy(cur, g->st + (size_t)v * stride, stride);
		n = rs->walk_next(t, o, cur, x->cell, g->next, g->maxnext);
		while (n > g->maxnext) {
			int	*p = realloc(g->next, (size_t)n * sizeof(int));

			if (p == NULL)
				nomem(t);
			g->next = p;
			g->maxnext = n;
			n = rs->walk_next(t, o, cur, x->cell, g->next,
			    g->maxnext);
		}
		for (k = 0; k < n; k++) {
			int	 to = g->next[k];

			memcpy(tmp, cur, stride);
			memset(&s, 0, sizeof(s));
			rs->walk_step(t, o, tmp, g->node[v].cell, to, &s);
			gedge(&gs, v, to, &s, tmp, false);
			if (!r->flips || (noff = flip(t, o, to, gs.ph, gs.off,
			    &was)) < 0)
				continue;
			rebegin(&gs);
			memcpy(tmp2, cur, stride);
			memset(&s2, 0, sizeof(s2));
			rs->walk_step(t, o, tmp2, g->node[v].cell, to, &s2);
			flip_back(t, to, noff, gs.off, gs.ph, was);
			rebegin(&gs);
			if (!same_step(&s, tmp, &s2, tmp2, rs->walk_size))
				gedge(&gs, v, to, &s2, tmp2, true);
		}
	}
	/* Nodes never expanded (none: each left the heap). */
	for (i = 0; i < (size_t)gs.nn; i++)
		if (!g->done[i])
			g->node[i].n = 0;
	r->node = g->node;
	r->nnode = gs.nn;
	r->edge = g->edge;
	r->nedge = gs.ne;
}
