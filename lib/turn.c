/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The top of libarbiter: the public entry points (arbiter.h), each run
 * under a jump point that failures below come back to, and the driver
 * (players in turn order, each player's orders in file order; a rule
 * system called only through struct ruleset).  Uses every layer below.
 */
#define _POSIX_C_SOURCE 200809L	/* pthreads */

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "base/fair.h"

const char *const *
arb_rulesets(void)
{
	return rules_names();
}

struct arb_turn *
arb_turn_new(void)
{
	struct arb_turn	*t = calloc(1, sizeof(struct arb_turn));

	if (t != NULL)
		t->ahead_cur = -1;
	return t;
}

static void	ahead_end(struct arb_turn *);

void
arb_turn_free(struct arb_turn *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	reach_stop(t);		/* before what its thread may read */
	for (i = 0; i < t->orders.n; i++)
		free(t->orders.v[i].nums.v);
	if (t->rs != NULL && t->rs->release != NULL && t->rsdata != NULL)
		t->rs->release(t);
	reach_release(t);
	free(t->orders.v);
	free(t->units.v);
	free(t->players.v);
	free(t->types.v);
	free(t->files.v);
	free(t->sequence.v);
	free(t->attacks.v);
	free(t->losses.v);
	free(t->gains.v);
	free(t->destroyed.v);
	free(t->ownership.v);
	free(t->loyalty.v);
	free(t->draws.v);
	free(t->trace.v);
	free(t->problems.v);
	free(t->psorted);
	free(t->board.sides.v);
	free(t->board.sidefeats.v);
	free(t->board.conns.v);
	free(t->board.pieces.v);
	free(t->mailbuf);
	ld_release(&t->reader);
	fair_wipe(t->key, sizeof(t->key));
	fair_wipe(t->reveal, sizeof(t->reveal));
	strmap_release(&t->unit_ids);
	strmap_release(&t->player_names);
	strmap_release(&t->type_names);
	strmap_release(&t->order_ids);
	strmap_release(&t->board.by_name);
	strmap_release(&t->board.piece_ids);
	emit_release(t);
	pool_release(&t->wpool);
	ahead_end(t);
	mem_release(&t->mem);
	free(t);
}

/*
 * Every entry point runs its body under setjmp: a failure anywhere below
 * (bad data, no memory, a broken invariant) jumps back here.
 */
#define GUARD(t, e, fail) do {						\
	memset((e), 0, sizeof(*(e)));					\
	(t)->mem.err = (e);						\
	(t)->mem.jmp = &jb;						\
	if (setjmp(jb) != 0) {						\
		reach_stop(t);	/* a search's second thread */		\
		(t)->mem.jmp = NULL;					\
		(t)->ld = NULL;						\
		ld_close(&(t)->reader);					\
		jv_pool(NULL);						\
		fail;							\
		return -1;						\
	}								\
} while (0)

/*
 * The second thread of arb_turn_load_map_ahead().  While the map loads in
 * the caller's thread, and then while the orders load, it parses the
 * orders texts in their order, each into its own pool, and takes the
 * SHA-256 of each text and of the map.  The caller's thread parses a text
 * itself when it comes to one the helper has not begun, and waits for one
 * it has.  What the helper touches (its struct, the texts ahead and their
 * pools) is shared under its lock, by the states below: a text's pool is
 * the helper's while its parse is BUSY and the reader's once DONE.
 *
 * Memory: documents parsed ahead and not yet read may take up to
 * AHEAD_SHARE times the bytes of the orders texts (about a third of
 * their documents), so that the peak, with the map's document and the
 * model, stays near that of reading the files one after the other; the
 * blocks of the map's document and of each document read go to the next
 * ones, so that their pages are not asked of the system again.
 */
#define AHEAD_SHARE	4
#define AHEAD_GROWTH	12	/* a document's bytes by its text's, about */

enum { TODO, BUSY, DONE, MINE, USED };

struct helper {
	pthread_t	 thread;
	bool		 running;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;		/* any state changed */
	bool		 stop;
	struct ld_ahead	*v;
	size_t		 n;
	unsigned char	*parse, *hash;	/* states, by text */
	size_t		*cost;		/* bytes held by each DONE document */
	size_t		 budget, held;
	struct pool	 cache;		/* blocks read documents left */
	const char	*map;
	size_t		 maplen;
	unsigned char	 mapsha[32];
	int		 maphash;	/* TODO, BUSY or DONE */
};

/* The next thing the helper may do, with the lock held: parse text *i
 * (1), hash text *i (2) or the map (3); 0: nothing yet; -1: nothing
 * left. */
static int
next_task(struct helper *h, size_t *i)
{
	size_t	 k, est;
	bool	 left = false;

	if (h->maphash == TODO)
		return 3;
	for (k = 0; k < h->n && h->parse[k] != TODO; k++)
		;
	if (k < h->n) {
		left = true;
		est = AHEAD_GROWTH * h->v[k].len;
		if (h->held + est <= h->budget) {
			*i = k;
			return 1;
		}
	}
	for (k = 0; k < h->n; k++)
		if (h->hash[k] == TODO) {
			*i = k;
			return 2;
		}
	return left ? 0 : -1;
}

static void *
help(void *arg)
{
	struct helper	*h = arg;
	size_t		 i = 0, est, got;
	int		 task;

	pthread_mutex_lock(&h->lock);
	while (!h->stop && (task = next_task(h, &i)) >= 0) {
		if (task == 0) {
			pthread_cond_wait(&h->cond, &h->lock);
			continue;
		}
		if (task == 1) {
			est = AHEAD_GROWTH * h->v[i].len;
			h->parse[i] = BUSY;
			h->held += est;
			pool_take(&h->cache, &h->v[i].pool, est);
			pthread_mutex_unlock(&h->lock);
			ld_ahead_parse(&h->v[i]);
			got = pool_size(&h->v[i].pool);
			pthread_mutex_lock(&h->lock);
			h->held = h->held - est + got;
			h->cost[i] = got;
			h->parse[i] = DONE;
		} else if (task == 2) {
			h->hash[i] = BUSY;
			pthread_mutex_unlock(&h->lock);
			fair_sha256(h->v[i].text, h->v[i].len,
			    h->v[i].sha256);
			pthread_mutex_lock(&h->lock);
			h->hash[i] = DONE;
		} else {
			h->maphash = BUSY;
			pthread_mutex_unlock(&h->lock);
			fair_sha256(h->map, h->maplen, h->mapsha);
			pthread_mutex_lock(&h->lock);
			h->maphash = DONE;
		}
		pthread_cond_broadcast(&h->cond);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/*
 * Starts the helper on the orders texts; false (nothing ahead) when it
 * cannot be had: the turn is then read in this thread alone, as by
 * arb_turn_load_map().
 */
static bool
ahead_start(struct arb_turn *t, const char *text, size_t len,
    const struct arb_text *orders, size_t n)
{
	struct helper	*h;
	size_t		 i;

	if (n == 0)
		return false;
	t->ahead = t_alloc(t, n * sizeof(*t->ahead));
	if ((h = calloc(1, sizeof(*h) + n * (2 + sizeof(size_t)))) == NULL)
		return false;
	h->cost = (size_t *)(h + 1);
	h->parse = (unsigned char *)(h->cost + n);
	h->hash = h->parse + n;
	for (i = 0; i < n; i++) {
		t->ahead[i].text = orders[i].text;
		t->ahead[i].len = orders[i].len;
		h->budget += AHEAD_SHARE * orders[i].len;
		/* An orders text is read in this thread: only its hash is
		 * taken ahead. */
		if (text_is(orders[i].text, orders[i].len))
			h->parse[i] = USED;
	}
	h->v = t->ahead;
	h->n = n;
	h->map = text;
	h->maplen = len;
	if (pthread_mutex_init(&h->lock, NULL) != 0) {
		free(h);
		return false;
	}
	if (pthread_cond_init(&h->cond, NULL) != 0) {
		pthread_mutex_destroy(&h->lock);
		free(h);
		return false;
	}
	if (pthread_create(&h->thread, NULL, help, h) != 0) {
		pthread_cond_destroy(&h->cond);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return false;
	}
	h->running = true;
	t->nahead = n;
	t->helper = h;
	return true;
}

/*
 * Waits for the helper to end (told to stop first unless everything it
 * does is still wanted).  What it parsed stays for arb_turn_load_orders().
 */
static void
ahead_join(struct arb_turn *t, bool stop)
{
	struct helper	*h = t->helper;

	if (h == NULL || !h->running)
		return;
	pthread_mutex_lock(&h->lock);
	if (stop)
		h->stop = true;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->thread, NULL);
	h->running = false;
}

/* The map's hash, before its text goes back to the caller: the
 * helper's, or taken here when it has not begun it. */
static void
ahead_map_hash(struct arb_turn *t)
{
	struct helper	*h = t->helper;
	bool		 mine;

	pthread_mutex_lock(&h->lock);
	if ((mine = h->maphash == TODO))
		h->maphash = MINE;
	while (h->maphash == BUSY)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	if (mine)
		fair_sha256(h->map, h->maplen, t->mapsha);
	else
		memcpy(t->mapsha, h->mapsha, sizeof(t->mapsha));
	h->map = NULL;
}

/* Ends the helper and drops what it parsed (the map failed, or the
 * turn is freed). */
static void
ahead_end(struct arb_turn *t)
{
	struct helper	*h = t->helper;
	size_t		 i;

	if (h == NULL)
		return;
	ahead_join(t, true);
	for (i = 0; i < t->nahead; i++)
		ld_ahead_drop(&t->ahead[i]);
	t->nahead = 0;
	pool_release(&h->cache);
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
	free(h);
	t->helper = NULL;
}

/* The map is read: of its document's blocks, as many as the documents
 * ahead may hold go to them, the rest back to the system. */
static void
ahead_map_read(struct arb_turn *t)
{
	struct helper	*h = t->helper;
	struct ld	*ld = &t->reader;
	size_t		 i, want = 0;

	ld_close(ld);
	pool_reset(&ld->pool);
	pthread_mutex_lock(&h->lock);
	for (i = 0; i < h->n; i++)
		if (h->parse[i] == TODO)
			want += AHEAD_GROWTH * h->v[i].len;
	pool_take(&ld->pool, &h->cache, want < h->budget ? want :
	    h->budget);
	pool_release(&ld->pool);
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

int
arb_turn_load_map_ahead(struct arb_turn *t, const char *name,
    const char *text, size_t len, const struct arb_text *orders,
    size_t norders, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;

	GUARD(t, e, ahead_end(t); emit_release(t); load_map_refused(t));
	if (t->rs != NULL || t->helper != NULL)
		t_fail(t, ARB_EINTERNAL, "the map is loaded already");
	ld_start(ld, &t->mem, e, name, text, len);
	t->mapfile = t_strdup(t, name);
	if (!ahead_start(t, text, len, orders, norders))
		fair_sha256(text, len, t->mapsha);
	load_map(t, ld);
	if (t->helper != NULL) {
		ahead_map_hash(t);
		ahead_map_read(t);
	}
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_load_map(struct arb_turn *t, const char *name, const char *text,
    size_t len, struct arb_error *e)
{
	return arb_turn_load_map_ahead(t, name, text, len, NULL, 0, e);
}

/* The text parsed ahead for this file, if any: the same bytes, given
 * again, and not yet read; -1 when none. */
static long
ahead_find(struct arb_turn *t, const char *text, size_t len)
{
	struct ld_ahead	*a;
	size_t		 i, k;

	for (k = 0; k < t->nahead; k++) {
		i = (t->ahead_next + k) % t->nahead;
		a = &t->ahead[i];
		if (!a->taken && a->text == text && a->len == len) {
			t->ahead_next = i + 1;
			a->taken = true;
			return (long)i;
		}
	}
	return -1;
}

/* Text i is read now: true when the helper parsed it (after waiting for
 * it, when it is at it); false when this thread parses it. */
static bool
ahead_claim(struct arb_turn *t, size_t i)
{
	struct helper	*h = t->helper;
	bool		 done;

	pthread_mutex_lock(&h->lock);
	if (h->parse[i] == TODO) {
		h->parse[i] = MINE;
		pool_take(&h->cache, &t->reader.pool,
		    AHEAD_GROWTH * t->ahead[i].len);
	}
	while (h->parse[i] == BUSY)
		pthread_cond_wait(&h->cond, &h->lock);
	done = h->parse[i] == DONE;
	pthread_mutex_unlock(&h->lock);
	return done && t->ahead[i].doc != NULL;
}

/* Text i is read and its document released (or it failed). */
static void
ahead_read(struct arb_turn *t, size_t i)
{
	struct helper	*h = t->helper;

	pthread_mutex_lock(&h->lock);
	if (h->parse[i] == DONE)
		h->held -= h->cost[i];
	/* The blocks of its document, closed, for the next ones. */
	pool_give(h->parse[i] == DONE ? &t->ahead[i].pool : &t->reader.pool,
	    &h->cache);
	h->parse[i] = USED;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

/* Text i is no longer the helper's to hash (its loading failed): waits
 * while it hashes it, so that the caller may free it once told. */
static void
ahead_unhash(struct arb_turn *t, size_t i)
{
	struct helper	*h = t->helper;

	pthread_mutex_lock(&h->lock);
	if (h->hash[i] == TODO)
		h->hash[i] = MINE;
	while (h->hash[i] == BUSY)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

void
arb_turn_end_ahead(struct arb_turn *t)
{
	ahead_end(t);
}

/* The SHA-256 of text i, into sha: the helper's, or taken here. */
static void
ahead_hash(struct arb_turn *t, size_t i, unsigned char *sha)
{
	struct helper	*h = t->helper;
	bool		 mine;

	pthread_mutex_lock(&h->lock);
	if ((mine = h->hash[i] == TODO))
		h->hash[i] = MINE;
	while (h->hash[i] == BUSY)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	if (mine)
		fair_sha256(t->ahead[i].text, t->ahead[i].len, sha);
	else
		memcpy(sha, t->ahead[i].sha256, 32);
}

int
arb_turn_load_orders(struct arb_turn *t, const char *name,
    const char *player, const char *text, size_t len, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;
	long		 i;

	GUARD(t, e, if (t->ahead_cur >= 0) { ahead_read(t,
	    (size_t)t->ahead_cur); ahead_unhash(t, (size_t)t->ahead_cur); }
	    t->ahead_cur = -1; free(t->mailbuf); t->mailbuf = NULL;
	    emit_release(t));
	if (t->rs == NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "orders before the map or after the "
		    "run");
	ld_start(ld, &t->mem, e, name, text, len);
	t->ahead_cur = i = ahead_find(t, text, len);
	if (i >= 0 && ahead_claim(t, (size_t)i))
		ld_ahead_take(ld, &t->ahead[i]);
	/* A mail (arbiter-orders(5), MAIL) is never JSON: the helper's
	 * parse of it failed, and its part is read in load_mail(). */
	if (ld->ahead == NULL && mail_is(name, ld->text, ld->len))
		load_mail(t, ld, player);
	else
		load_orders(t, ld, player);
	t->ahead_cur = -1;
	if (i >= 0) {
		ahead_read(t, (size_t)i);
		ahead_hash(t, (size_t)i, t->files.v[t->files.n - 1].sha256);
	} else
		fair_sha256(text, len, t->files.v[t->files.n - 1].sha256);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_orders(struct arb_turn *t, const char *name, const char *text,
    size_t len, int flags, FILE *fp, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;

	GUARD(t, e, free(t->mailbuf); t->mailbuf = NULL);
	if (t->rs == NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "orders before the map or after the "
		    "run");
	ld_start(ld, &t->mem, e, name, text, len);
	/* A mail: the orders of the part that holds them, as load_mail()
	 * reads it (the part's text in t->mailbuf, its lines and columns
	 * its own), or refused as a turn refuses it. */
	if (mail_is(name, text, len)) {
		struct mail	 m;

		if (!mail_read(text, len, &m))
			t_nomem(t);
		t->mailbuf = m.buf;
		if (m.kind == 0)
			ld_fail(ld, "%s", m.why);
		ld_start(ld, &t->mem, e, name, m.text, m.len);
	}
	emit_orders(t, ld, (flags & ARB_ORDERS_TEXT) != 0, fp);
	free(t->mailbuf);
	t->mailbuf = NULL;
	ld_close(ld);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_load_rolls(struct arb_turn *t, const char *name, const char *text,
    size_t len, struct arb_error *e)
{
	jmp_buf		 jb;
	struct ld	*ld = &t->reader;
	char		*copy;

	GUARD(t, e, emit_release(t));
	if (t->rollsfile != NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "rolls loaded twice, or after the run");
	/* A copy: a roll out of range for its die is found in the run, and
	 * shown at its place in the file. */
	copy = t_alloc(t, len + 1);
	memcpy(copy, text, len);
	ld_start(ld, &t->mem, e, name, copy, len);
	load_rolls(t, ld);
	t->rollsfile = t_strdup(t, name);
	t->rollstext = copy;
	t->rollslen = len;
	fair_sha256(text, len, t->rollssha);
	t->mem.jmp = NULL;
	return 0;
}

void
arb_turn_threads(struct arb_turn *t, int n)
{
	reach_ahead(t, n > 1 ? REACH_AHEAD_AUTO : REACH_AHEAD_NEVER);
	t->one_thread = n <= 1;
}

void
arb_turn_echo(struct arb_turn *t, int on)
{
	t->echo = on != 0;
}

void
arb_turn_set_secret(struct arb_turn *t, const unsigned char *key)
{
	memcpy(t->key, key, sizeof(t->key));
	t->key_set = true;
	if (t->fair_read)
		t->fair_late = true;	/* arb_turn_run() fails */
}

void
arb_turn_set_reveal(struct arb_turn *t, const unsigned char *reveal,
    const unsigned char *next)
{
	if (reveal != NULL) {
		memcpy(t->reveal, reveal, sizeof(t->reveal));
		t->reveal_set = true;
	}
	if (next != NULL) {
		memcpy(t->next_commitment, next, sizeof(t->next_commitment));
		t->next_set = true;
	}
	/* Not checked against the map's commitment: arb_turn_run() fails. */
	if (t->fair_read && (reveal != NULL || next != NULL))
		t->fair_late = true;
}

void
arb_commitment(const unsigned char *key, const char *game, long turn,
    char *hex)
{
	unsigned char	 r[FAIR_HASHLEN], h[FAIR_HASHLEN];

	fair_derive(key, game, turn, r);
	fair_sha256(r, FAIR_HASHLEN, h);
	fair_wipe(r, sizeof(r));
	fair_hex(h, FAIR_HASHLEN, hex);
}

int
arb_turn_committed(const struct arb_turn *t)
{
	return t->committed ? 1 : 0;
}

int
arb_secret_new(unsigned char *key)
{
	return fair_random(key, ARB_SECRET_LEN);
}

const char *
arb_turn_ruleset(const struct arb_turn *t)
{
	return t->rs != NULL ? t->rs->name : NULL;
}

void
arb_turn_set_seed(struct arb_turn *t, unsigned long long seed)
{
	t->seed = seed;
	t->seed_set = true;
}

/*
 * The balance every run checks: for each player, what it held at the
 * start (units' strength, and the cells' first counter in the cells it
 * owned), plus what it raised, equals what it holds at the end plus what
 * the losses record.
 */
static void
check_balance(struct arb_turn *t)
{
	struct board	*b = &t->board;
	long		 bal[MAXPLAYERS] = { 0 };
	size_t		 i;
	int		 c;

	for (i = 0; i < t->units.n; i++) {
		struct unit *u = &t->units.v[i];

		bal[u->player] += u->strength0 - (u->gone ? 0 : u->strength);
	}
	for (c = 0; b->cx[0] != NULL && c < b->ncells; c++) {
		if (b->owner0[c] >= 0)
			bal[b->owner0[c]] += b->cx0[0][c];
		if (b->cells[c].owner >= 0)
			bal[b->cells[c].owner] -= b->cx[0][c];
	}
	for (i = 0; i < t->losses.n; i++)
		bal[t->losses.v[i].player] -= t->losses.v[i].strength;
	for (i = 0; i < t->gains.n; i++)
		bal[t->gains.v[i].player] += t->gains.v[i].strength;
	for (i = 0; i < t->players.n; i++)
		if (bal[i] != 0)
			t_fail(t, ARB_EINTERNAL, "the forces of %s do not "
			    "balance: %ld unaccounted", t->players.v[i].name,
			    bal[i]);
}

static const char *path_text(struct arb_turn *, const int *, int);

/* A path in a message: whole up to 8 cells, else its start, its last
 * three cells and how many steps it takes. */
static const char *
path_brief(struct arb_turn *t, const int *cells, int n)
{
	const char	*a, *b, *c;

	if (n <= 8)
		return path_text(t, cells, n);
	a = t_strdup(t, cell_name(t, cells[0]));
	b = t_strdup(t, cell_name(t, cells[n - 3]));
	c = t_strdup(t, cell_name(t, cells[n - 2]));
	return t_printf(t, "%s ... %s, %s, %s (%d steps)", a, b, c,
	    cell_name(t, cells[n - 1]), n - 1);
}

/* "a, b, c": the labels of a path, for the trace. */
static const char *
path_text(struct arb_turn *t, const int *cells, int n)
{
	size_t	 size = 1, len = 0, k;
	char	*buf;
	int	 i;

	for (i = 0; i < n; i++)
		size += strlen(cell_name(t, cells[i])) + 2;
	buf = t_alloc(t, size);
	for (i = 0; i < n; i++) {
		k = strlen(cell_name(t, cells[i]));
		if (i > 0) {
			memcpy(buf + len, ", ", 2);
			len += 2;
		}
		memcpy(buf + len, cell_name(t, cells[i]), k);
		len += k;
	}
	return buf;
}

/*
 * Where a destination order starts: its "from", else the cell of its
 * first unit in the map's order that is still on the board.
 */
static int
route_start(struct arb_turn *t, const struct order *o)
{
	int	 i, u = -1;

	if (o->from >= 0)
		return o->from;
	for (i = 0; i < o->nunits; i++)
		if (!t->units.v[o->units[i]].gone && (u < 0 ||
		    o->units[i] < u))
			u = o->units[i];
	return t->units.v[u >= 0 ? u : o->units[0]].at;
}

/*
 * A check's "to" order with no route (issue 28): is there one when the
 * units that may move away first (unit_may_move_first()) are not on the
 * board?  Returns the one in the way, on the route found or next to it,
 * after ruling the order depends_on_orders; -1 when there is none, or no
 * route either.  why and rule are the refusal's.
 */
static int
route_without(struct arb_turn *t, struct order *o, int start,
    const char *why, const char *rule)
{
	struct reach	 r;
	int		*lifted, nl = 0, i, k, n, dep = -1, *cells;
	size_t		 u;
	long		 used;

	if (!(t->flags & ARB_CHECK) || !t->rs->route_depends)
		return -1;
	lifted = t_alloc(t, t->units.n * sizeof(int) + 1);
	for (u = 0; u < t->units.n; u++)
		if (t->units.v[u].at >= 0 && unit_may_move_first(t, (int)u,
		    o->player)) {
			unit_unlink(t, (int)u);
			lifted[nl++] = (int)u;
		}
	if (nl == 0)
		return -1;
	/* Within what is left of the player's bound (route()). */
	memset(&r, 0, sizeof(r));
	used = reach_spent(t);
	reach_search(t, o, o->to, &r);
	t->route_used[o->player] += reach_spent(t) - used;
	/* Back where they were, in the lists' order. */
	for (i = 0; i < nl; i++)
		unit_place(t, lifted[i], t->units.v[lifted[i]].at);
	if (!r.found || r.truncated)
		return -1;
	n = r.v[0].steps + 1;
	cells = t_alloc(t, (size_t)n * sizeof(int));
	reach_path(t, r.v[0].label, cells);
	/* The unit in the way: one on the route, else one next to it. */
	for (k = 0; k < 2 && dep < 0; k++)
		for (i = 1; i < n && dep < 0; i++) {
			int j;

			for (j = 0; j < nl && dep < 0; j++) {
				int at = t->units.v[lifted[j]].at;

				if (k == 0 ? at == cells[i] :
				    board_is_adjacent(&t->board, at, cells[i]))
					dep = lifted[j];
			}
		}
	if (dep < 0)
		dep = lifted[0];
	order_depends(t, o, dep, R_NO_ROUTE, rule, t_printf(t, "no legal "
	    "path from %s to %s: %s; without the units of the players who "
	    "act first, which they may move, %s reaches it",
	    cell_name(t, start), cell_name(t, o->to), why,
	    path_text(t, cells, n)));
	return dep;
}

/*
 * Why a search from start to target found no path, from its nearest
 * approach (a "to" order's no_route, and the order sheet's cells out of
 * reach).
 */
static const char *
near_why(struct arb_turn *t, const struct reach *r, int start, int target)
{
	const char	*why;
	int		*cells, n;

	if (r->budget < 0)
		return t_printf(t, "the move cannot begin: %s",
		    reason_name(r->near.reason));
	if (r->near_to < 0)
		return "no cell is in reach";
	n = reach_steps(t, r->near_label) + 1;
	cells = t_alloc(t, (size_t)n * sizeof(int));
	cells[0] = start;
	reach_path(t, r->near_label, cells);
	why = path_brief(t, cells, n);
	return t_printf(t, "the nearest approach, %s, %s %s: %s", why,
	    r->near_end ? "cannot end in" : r->near.reason == R_ZOC_STOP ?
	    "must stop there, short of" : "cannot go on to",
	    cell_name(t, !r->near_end && r->near.reason == R_ZOC_STOP ?
	    target : r->near_to), reason_name(r->near.reason));
}

/*
 * A destination order ("to", issue 15) at its moment: the cheapest legal
 * path in the state of that moment becomes its path, and the order is
 * adjudicated as if written so.  No path: illegal, no_route, saying why
 * the nearest approach fails.  Returns false when it was ruled.
 */
static bool
route(struct arb_turn *t, struct order *o)
{
	struct reach	 r;
	const char	*why, *rule;
	int		 start = route_start(t, o), n;
	long		 used;

	o->cells = t_alloc(t, sizeof(int));
	o->cells[0] = start;
	o->ncells = 1;
	if (start == o->to) {
		trace_event(t, "route", "order", TF_ORDER, o, "to", TF_CELL,
		    (long)o->to, "found", TF_BOOL, 0L, NULL);
		order_rule(t, o, OS_ILLEGAL, R_EMPTY_PATH,
		    "arbiter-orders(5) to", "the destination %s is where the "
		    "move starts: a move enters at least one cell",
		    cell_name(t, start));
		return false;
	}
	/* A bound on each player's path finding, so that orders files of
	 * a size the limits allow cannot ask for hours of it, and no player
	 * can spend another's: the search's count of cells runs on over
	 * the turn, and this player may take ROUTE_LABELS of it. */
	memset(&r, 0, sizeof(r));
	if (t->route_used == NULL)
		t->route_used = t_alloc(t, t->players.n * sizeof(long) + 1);
	used = reach_spent(t);
	reach_limit(t, used + ROUTE_LABELS - t->route_used[o->player]);
	if (t->route_used[o->player] < ROUTE_LABELS)
		reach_search(t, o, o->to, &r);
	t->route_used[o->player] += reach_spent(t) - used;
	if (t->route_used[o->player] >= ROUTE_LABELS && (!r.found ||
	    r.truncated)) {
		trace_event(t, "route", "order", TF_ORDER, o, "to", TF_CELL,
		    (long)o->to, "found", TF_BOOL, 0L, NULL);
		order_rule(t, o, OS_ILLEGAL, R_NO_ROUTE, "arbiter-orders(5) to",
		    "no path from %s to %s was found within the %ld cells a "
		    "player's destination orders may search in a turn; give "
		    "the path", cell_name(t, start), cell_name(t, o->to),
		    ROUTE_LABELS);
		return false;
	}
	if (!r.found) {
		rule = r.near.rule != NULL ? r.near.rule :
		    "arbiter-rules(7) Reach";
		why = near_why(t, &r, start, o->to);
		trace_event(t, "route", "order", TF_ORDER, o, "to", TF_CELL,
		    (long)o->to, "found", TF_BOOL, 0L, NULL);
		if (route_without(t, o, start, why, rule) >= 0)
			return false;
		order_rule(t, o, OS_ILLEGAL, R_NO_ROUTE, rule,
		    "no legal path from %s to %s: %s", cell_name(t, start),
		    cell_name(t, o->to), why);
		return false;
	}
	n = r.v[0].steps + 1;
	o->cells = t_alloc(t, (size_t)n * sizeof(int));
	reach_path(t, r.v[0].label, o->cells);
	o->ncells = n;
	o->routed = true;
	o->route_cost = r.v[0].cost;
	trace_event(t, "route", "order", TF_ORDER, o, "to", TF_CELL,
	    (long)o->to, "found", TF_BOOL, 1L, "path", TF_STR,
	    path_text(t, o->cells, n), "steps", TF_INT, (long)(n - 1),
	    "cost", TF_INT, r.v[0].cost, NULL);
	return true;
}

/* Players in turn order; each player's orders in file order. */
static void
sequence(struct arb_turn *t)
{
	size_t	 i, k;

	for (i = 0; i < t->players.n; i++) {
		int f = t->players.v[t->turn_order[i]].ofile;

		for (k = 0; f >= 0 && k < t->orders.n; k++)
			if (t->orders.v[k].file == f)
				*VPUSH(t, t->sequence) = (int)k;
	}
}

/* One order at its moment. */
static void
play(struct arb_turn *t, struct order *o)
{
	/* An order that could not be read was ruled on then: it is never
	 * validated nor carried out. */
	if (o->refused) {
		trace_event(t, "ruling", "order", TF_STR, o->id, "player",
		    TF_STR, t->players.v[o->player].name, "status", TF_STR,
		    "illegal", "reason", TF_STR, reason_name(o->reason),
		    "rule", TF_STR, o->rule, "message", TF_STR, o->msg, NULL);
		return;
	}
	/* A destination order's path is found at its moment. */
	if (o->has_to && !route(t, o))
		return;
	/* Validation rules an order illegal, or failed when an earlier
	 * order is the cause; either way it is not carried out. */
	t->rs->validate(t, o);
	if (o->status == OS_PENDING && t->rs->resolve == NULL)
		t->rs->execute(t, o);
}

int
arb_turn_walks(const struct arb_turn *t)
{
	return t->rs != NULL && t->rs->walk_step != NULL;
}

/* An unknown unit or cell named by --reach: said as the loaders do. */
static void
reach_unknown(struct arb_turn *t, const char *what, const char *name)
{
	struct suggest	 sg;
	size_t		 i;
	char		 buf[32];

	suggest_start(&sg, name);
	if (*what == 'u')
		for (i = 0; i < t->units.n; i++)
			suggest_offer(&sg, t->units.v[i].id);
	else
		for (i = 0; i < (size_t)t->board.ncells; i++)
			suggest_offer(&sg, board_label(&t->board, (int)i, buf));
	t->mem.err->line = 0;
	snprintf(t->mem.err->pointer, sizeof(t->mem.err->pointer), "%s",
	    *what == 'u' ? "/units" : "/cells");
	if (sg.best != NULL)
		t_fail(t, ARB_EDATA, "unknown %s \"%.40s\" (did you mean "
		    "\"%.40s\"?)", what, name, sg.best);
	t_fail(t, ARB_EDATA, "unknown %s \"%.40s\"", what, name);
}

/* Does o concern the reach's unit u, or cell c? */
static bool
names_it(const struct order *o, int u, int c)
{
	int	 i;

	if (o->refused)
		return false;
	if (u < 0)
		return o->has_to ? o->from == c : o->ncells > 0 &&
		    o->cells[0] == c;
	for (i = 0; i < o->nunits; i++)
		if (o->units[i] == u)
			return true;
	return false;
}

int
arb_turn_reach(struct arb_turn *t, const char *unit, const char *const *with,
    int nwith, struct arb_error *e)
{
	jmp_buf			 jb;
	const struct okind	*ok;
	struct reach_query	*q;
	struct order		*o;
	size_t			 i;
	int			 k, pk;
	volatile int		 u = -1, c = -1;

	GUARD(t, e, (void)0);
	if (t->rs == NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "no map loaded, or run already");
	snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
	utf8_mend(e->file);
	if (!arb_turn_walks(t))
		t_fail(t, ARB_EDATA, "%s moves on %s, not from cell to cell: "
		    "there is no reach to list", t->rs->name,
		    t->board.kind == BOARD_TABLE ? "an open table" :
		    "no path");
	ok = t->rs->order_kinds;
	for (pk = 0; ok[pk].key != NULL && ok[pk].arg != OK_PATH; pk++)
		;
	q = t_alloc(t, sizeof(*q));
	o = &q->o;
	q->unit = t_strdup(t, unit);
	o->kind = pk;
	o->id = "reach";
	o->to = o->from = -1;
	if (ok[pk].count != NULL) {
		if ((c = board_find(&t->board, unit)) < 0)
			reach_unknown(t, t->board.kind == BOARD_GRAPH ?
			    "territory" : "cell", unit);
		if (nwith > 0)
			t_fail(t, ARB_EDATA, "%s's orders move %s from a "
			    "cell, not units: --unit does not apply",
			    t->rs->name, ok[pk].count);
		o->player = t->board.cells[c].owner;
		if (o->player < 0)
			t_fail(t, ARB_EDATA, "%s is neutral: it has no %s to "
			    "move", unit, ok[pk].count);
	} else {
		if ((u = strmap_get(&t->unit_ids, unit)) < 0)
			reach_unknown(t, "unit", unit);
		o->player = t->units.v[u].player;
		o->units = t_alloc(t, ((size_t)nwith + 1) * sizeof(int));
		o->units[o->nunits++] = u;
		for (k = 0; k < nwith; k++) {
			int	 w = strmap_get(&t->unit_ids, with[k]), j;

			if (w < 0)
				reach_unknown(t, "unit", with[k]);
			if (t->units.v[w].player != o->player)
				t_fail(t, ARB_EDATA, "unit \"%.40s\" is %s's, "
				    "not %s's: a group is one player's",
				    with[k], t->players.v[
				    t->units.v[w].player].name,
				    t->players.v[o->player].name);
			for (j = 0; j < o->nunits; j++)
				if (o->units[j] == w)
					t_fail(t, ARB_EDATA, "unit \"%.40s\" "
					    "named twice", with[k]);
			o->units[o->nunits++] = w;
		}
	}
	/* The orders file, if any, is the unit's player's: it is that
	 * player's earlier orders that are played out. */
	for (i = 0; i < t->files.n; i++)
		if (t->files.v[i].player != o->player) {
			snprintf(e->file, sizeof(e->file), "%s",
			    t->files.v[i].name);
			utf8_mend(e->file);
			t_fail(t, ARB_EDATA, "the orders file is %s's, and %s "
			    "is %s's: --reach plays out the earlier orders of "
			    "the player who moves it", t->files.v[i].player >= 0
			    ? t->players.v[t->files.v[i].player].name :
			    "no player's", unit, t->players.v[o->player].name);
		}
	/* The orders before the unit's first, played out. */
	t->ran = true;
	t->flags = ARB_CHECK;
	ld_release(&t->reader);
	ahead_end(t);
	fair_begin(t);
	sequence(t);
	t->rs->begin(t);
	for (i = 0; i < t->sequence.n; i++) {
		struct order *p = &t->orders.v[t->sequence.v[i]];

		if (names_it(p, u, c))
			break;
		play(t, p);
		q->played++;
	}
	if (u >= 0) {
		if (t->units.v[u].gone)
			t_fail(t, ARB_EDATA, "unit \"%.40s\" is gone by then: "
			    "it has no reach", unit);
		c = t->units.v[u].at;
		if (t->rs->walk_stack && nwith == 0) {
			/* The player's units in its hex, in map order. */
			int	 n = 0, v;

			for (v = t->board.cells[c].first_unit; v >= 0;
			    v = t->units.v[v].next)
				n += t->units.v[v].player == o->player;
			o->units = t_alloc(t, (size_t)n * sizeof(int) + 1);
			o->nunits = 0;
			for (i = 0; i < t->units.n; i++)
				if (!t->units.v[i].gone &&
				    t->units.v[i].at == c &&
				    t->units.v[i].player == o->player)
					o->units[o->nunits++] = (int)i;
		}
	} else
		o->n = t->board.cx[0] != NULL ? t->board.cx[0][c] : 0;
	o->cells = t_alloc(t, sizeof(int));
	o->cells[0] = c;
	o->ncells = 1;
	/* The query asked for: all of it, up to the labels a search may
	 * settle within the memory of any mode (the answer then says it
	 * was cut: the cheapest cells are listed, the dearest missing). */
	reach_limit(t, reach_spent(t) + REACH_LABELS);
	reach_search(t, o, -1, &q->r);
	if (q->r.budget < 0)
		t_fail(t, ARB_EDATA, "%s cannot move: %s (%s)", o->nunits > 1 ?
		    unit_list(t, o->units, o->nunits) : unit,
		    reason_name(q->r.over.reason), q->r.over.rule != NULL ?
		    q->r.over.rule : "arbiter-rules(7) Reach");
	t->reachq = q;
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_reach(struct arb_turn *t, int text, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	if (t->reachq == NULL)
		t_fail(t, ARB_EINTERNAL, "no reach was asked");
	emit_reach(t, text, fp);
	t->mem.jmp = NULL;
	return 0;
}

/* The order sheet's bounds (arbiter(1), --sheet): the labels its searches
 * settle in all, and (sheet.c) the steps of paths it writes. */
#define SHEET_LABELS	4000000L

/* The per group bound on the nodes of its state graph (rules.h,
 * reach_graph), and the cell orders' validations of the whole sheet (a
 * kind with every cell as its target is one group's ncells of them). */
#define SHEET_NODES	20000
#define SHEET_CHECKS	4000000L

/*
 * A group's orders that name a cell (OK_CELL: an attack, a retreat, ...):
 * every cell of the board as the target of each such kind, ruled by the
 * rule system's validation as --check would rule the order first in the
 * player's file, so that the page refuses what --check would, with the
 * same reason.  What validation allocates is taken back at once.
 */
struct sheet_checks {
	int		*code;		/* per cell, for one kind: 0, or 1 +
					 * sheet_why()'s */
	long		 left;		/* validations the sheet may make */
};

static void
sheet_cell_orders(struct arb_turn *n, struct sheet *sh, const struct order *o,
    struct sheet_checks *sc)
{
	const struct okind *ok = n->rs->order_kinds;
	struct mem_mark	 mk;
	enum reason	 why, lastwhy = R_OK;
	char		 last[96] = "";
	int		 k, c, lastcode = 0;

	if (o->nunits == 0 || sheet_full(sh))
		return;
	for (k = 0; ok[k].key != NULL; k++) {
		if (ok[k].arg != OK_CELL || ok[k].count != NULL)
			continue;
		/* Past the sheet's bound, the page leaves them to --check. */
		if (sc->left < n->board.ncells)
			return;
		sc->left -= n->board.ncells;
		for (c = 0; c < n->board.ncells; c++) {
			struct order	 a = *o;
			int		 cell = c;
			char		 buf[96];

			mem_mark(&n->mem, &mk);
			a.kind = k;
			a.cells = &cell;
			a.ncells = 1;
			a.status = OS_PENDING;
			a.reason = R_OK;
			a.rule = NULL;
			a.msg = NULL;
			n->rs->validate(n, &a);
			why = a.status == OS_ILLEGAL || a.status ==
			    OS_FAILED ? a.reason : R_OK;
			snprintf(buf, sizeof(buf), "%s", a.rule != NULL ?
			    a.rule : "");
			/* What only carrying it out refuses, where the rule
			 * system can say it unchanged. */
			if (why == R_OK && n->rs->cell_test != NULL) {
				const char	*rl = NULL;

				why = n->rs->cell_test(n, &a, &rl);
				snprintf(buf, sizeof(buf), "%s", rl != NULL ?
				    rl : "");
			}
			mem_rewind(&n->mem, &mk);
			/* The reason's index in the page's table (the same
			 * as the cell before's, most often). */
			if (why == R_OK)
				sc->code[c] = 0;
			else if (why == lastwhy && strcmp(buf, last) == 0)
				sc->code[c] = lastcode;
			else {
				sc->code[c] = lastcode = 1 + sheet_why(n, sh,
				    why, buf);
				lastwhy = why;
				memcpy(last, buf, sizeof(last));
			}
		}
		sheet_targets(n, sh, k, sc->code);
	}
}

/*
 * One group of the sheet: its reach as --reach finds it, its state graph
 * for the paths clicked step by step, and why it cannot move, if it
 * cannot.  of: the stack it is a part of (sheet.c), or -1.
 */
static void
sheet_search(struct arb_turn *n, struct sheet *sh, const struct order *o,
    int of, long spent0, struct sheet_checks *sc)
{
	struct reach	 r;
	struct rgraph	 g;
	long		 left;

	/* Past the sheet's bounds, a group is searched no further than its
	 * start (for its budget), and its reach said cut. */
	left = SHEET_LABELS - (reach_spent(n) - spent0);
	if (sheet_full(sh) || left < 1)
		left = 1;
	reach_limit(n, reach_spent(n) + (left < REACH_LABELS ? left :
	    REACH_LABELS));
	reach_search(n, o, -1, &r);
	sheet_group(n, sh, o, &r, of);
	reach_graph(n, o, sheet_full(sh) ? 1 : SHEET_NODES, &g);
	sheet_graph(n, sh, &g);
	sheet_cell_orders(n, sh, o, sc);
	if (r.budget < 0)
		sheet_refused(n, sh, -1, r.over.rule, t_printf(n,
		    "it cannot move: %s", reason_name(r.over.reason)));
}

/*
 * The order sheet's reach (arbiter(1), --sheet): n is the next map's
 * turn, just loaded; every group of the player's units (or, where the
 * rule system's orders move a count from a cell, every cell of the
 * player's that holds some) is searched as --reach searches it with no
 * orders, with its state graph; a stack's units each alone too.
 * sheet.c writes the page.
 */
static int
sheet_run(struct arb_turn *n, int player, const char *hash,
    const char *svg, size_t svglen, FILE *fp, struct arb_error *e)
{
	jmp_buf			 jb;
	const struct okind	*ok;
	struct sheet		*sh;
	struct order		*o;
	struct sheet_checks	 sc;
	bool			*done;
	int			 pk, c, k, nb;
	size_t			 i, j;
	long			 spent0;

	GUARD(n, e, (void)0);
	if (player >= (int)n->players.n)
		t_fail(n, ARB_EINTERNAL, "the next map lost a player");
	n->ran = true;
	n->flags = ARB_CHECK;
	ld_release(&n->reader);
	ahead_end(n);
	fair_begin(n);
	sequence(n);
	n->rs->begin(n);
	sh = sheet_begin(n, player, hash);
	spent0 = reach_spent(n);
	if (!arb_turn_walks(n)) {
		sheet_write(n, sh, svg, svglen, fp);
		n->mem.jmp = NULL;
		return 0;
	}
	ok = n->rs->order_kinds;
	for (pk = 0; ok[pk].key != NULL && ok[pk].arg != OK_PATH; pk++)
		;
	sc.code = t_alloc(n, ((size_t)n->board.ncells + 1) *
	    sizeof(*sc.code));
	sc.left = SHEET_CHECKS;
	done = t_alloc(n, n->units.n + 1);
	for (i = 0; i < (ok[pk].count != NULL ? (size_t)n->board.ncells :
	    n->units.n); i++) {
		const struct unit *u = &n->units.v[i];

		o = t_alloc(n, sizeof(*o));
		o->kind = pk;
		o->id = "sheet";
		o->to = o->from = -1;
		o->player = player;
		if (ok[pk].count != NULL) {
			c = (int)i;
			if (n->board.cells[c].owner != player ||
			    n->board.cx[0] == NULL || n->board.cx[0][c] <= 0)
				continue;
			o->n = n->board.cx[0][c];
		} else {
			if (u->player != player || u->gone || u->left ||
			    done[i] || u->at < 0)
				continue;
			c = u->at;
			/* Its group: the player's units in its hex, where they
			 * move together (in the map's order), or it alone. */
			k = 0;
			for (nb = n->board.cells[c].first_unit; nb >= 0;
			    nb = n->units.v[nb].next)
				k++;
			o->units = t_alloc(n, ((size_t)k + 1) * sizeof(int));
			for (j = i; j < n->units.n && (j == i ||
			    n->rs->walk_stack); j++)
				if (j == i || (n->rs->walk_stack &&
				    !n->units.v[j].gone &&
				    n->units.v[j].at == c &&
				    n->units.v[j].player == player)) {
					o->units[o->nunits++] = (int)j;
					done[j] = true;
				}
		}
		o->cells = t_alloc(n, sizeof(int));
		o->cells[0] = c;
		o->ncells = 1;
		sheet_search(n, sh, o, -1, spent0, &sc);
		/* A stack's units, each alone (a stack may split). */
		if (o->nunits > 1) {
			int	 of = sheet_groups(sh) - 1;

			for (k = 0; k < o->nunits; k++) {
				struct order *a = t_alloc(n, sizeof(*a));

				*a = *o;
				a->units = o->units + k;
				a->nunits = 1;
				sheet_search(n, sh, a, of, spent0, &sc);
			}
		}
	}
	sheet_write(n, sh, svg, svglen, fp);
	n->mem.jmp = NULL;
	return 0;
}

/* A memory stream that could not be opened or closed: out of memory. */
static int
sheet_nomem(struct arb_error *e)
{
	memset(e, 0, sizeof(*e));
	e->code = ARB_ENOMEM;
	snprintf(e->text, sizeof(e->text), "out of memory");
	return -1;
}

int
arb_turn_write_sheet(struct arb_turn *t, int player, FILE *fp,
    struct arb_error *e)
{
	struct arb_turn	*n;
	const char	*bg = t->disp_bg;
	char		*svg = NULL, *map = NULL, hash[17];
	size_t		 svglen = 0, maplen = 0, i;
	unsigned char	 sha[32];
	FILE		*m;
	int		 rc;

	memset(e, 0, sizeof(*e));
	if (!t->ran || (t->flags & ARB_CHECK) || player < 0 ||
	    player >= (int)t->players.n) {
		e->code = ARB_EINTERNAL;
		snprintf(e->text, sizeof(e->text), "a sheet is a player's, "
		    "after the run");
		return -1;
	}
	/* The next map (an error when there is no next turn), and the
	 * picture of it as the player sees it; a background that is a file
	 * beside the map is left out: the page fetches nothing.  Each by
	 * its entry point, which returns here whatever fails. */
	if ((m = open_memstream(&map, &maplen)) == NULL)
		return sheet_nomem(e);
	rc = arb_turn_write_next(t, m, e);
	if (fclose(m) != 0 || map == NULL) {
		free(map);
		return rc != 0 ? -1 : sheet_nomem(e);
	}
	if (rc != 0) {
		free(map);
		return -1;
	}
	if ((m = open_memstream(&svg, &svglen)) == NULL) {
		free(map);
		return sheet_nomem(e);
	}
	if (bg != NULL && strncmp(bg, "data:", 5) != 0)
		t->disp_bg = NULL;
	rc = arb_turn_write_svg(t, ARB_SVG_NEXT, player, m, e);
	t->disp_bg = bg;
	if (fclose(m) != 0 || svg == NULL || rc != 0) {
		free(map);
		free(svg);
		return rc != 0 ? -1 : sheet_nomem(e);
	}
	fair_sha256(map, maplen, sha);
	for (i = 0; i < 8; i++)
		snprintf(hash + 2 * i, 3, "%02x", sha[i]);
	/* The next map, read back as a turn of its own. */
	if ((n = arb_turn_new()) == NULL) {
		free(svg);
		free(map);
		return sheet_nomem(e);
	}
	n->reach_ahead = t->reach_ahead;
	n->one_thread = t->one_thread;
	rc = arb_turn_load_map(n, t->mapfile, map, maplen, e);
	free(map);
	if (rc == 0)
		rc = sheet_run(n, player, hash, svg, svglen, fp, e);
	else if (e->code == ARB_EDATA)
		e->code = ARB_EINTERNAL;	/* our own next map */
	arb_turn_free(n);
	free(svg);
	return rc;
}

int
arb_turn_run(struct arb_turn *t, int flags, struct arb_error *e)
{
	jmp_buf		 jb;
	size_t		 i;

	GUARD(t, e, (void)0);
	if (t->rs == NULL || t->ran)
		t_fail(t, ARB_EINTERNAL, "no map loaded, or run twice");
	t->ran = true;
	t->flags = flags;
	ld_release(&t->reader);		/* no file is read any more */
	ahead_end(t);
	fair_begin(t);
	sequence(t);
	if (fair_seed_shown(t) && t->seed >= 1ULL << 53)
		trace_event(t, "turn", "ruleset", TF_STR, t->rs->name, "turn",
		    TF_INT, (long)t->number, "seed", TF_INT, (long)t->seed,
		    "seed_text", TF_STR, t_printf(t, "%llu",
		    (unsigned long long)t->seed), NULL);
	else if (fair_seed_shown(t))
		trace_event(t, "turn", "ruleset", TF_STR, t->rs->name, "turn",
		    TF_INT, (long)t->number, "seed", TF_INT, (long)t->seed,
		    NULL);
	else
		trace_event(t, "turn", "ruleset", TF_STR, t->rs->name, "turn",
		    TF_INT, (long)t->number, NULL);
	t->rs->begin(t);
	for (i = 0; i < t->sequence.n; i++)
		play(t, &t->orders.v[t->sequence.v[i]]);
	/* A simultaneous rule system moves everything at once; --check
	 * stops at validation.  The end may still decide standing orders
	 * (a retreat that was or was not needed). */
	if (t->rs->resolve != NULL && !(flags & ARB_CHECK))
		t->rs->resolve(t);
	if (!(flags & ARB_CHECK))
		t->rs->end(t);
	else if (t->rs->standing != NULL)
		t->rs->standing(t);
	for (i = 0; i < t->sequence.n; i++) {
		struct order *o = &t->orders.v[t->sequence.v[i]];

		if (o->status == OS_PENDING && (flags & ARB_CHECK))
			o->status = OS_LEGAL;
		if (o->status == OS_PENDING)
			t_fail(t, ARB_EINTERNAL, "order %s left undecided",
			    o->id);
		if (o->status == OS_ILLEGAL || o->status == OS_FAILED)
			t->illegal++;
	}
	fair_end(t);
	if (!(flags & ARB_CHECK))
		check_balance(t);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_illegal(const struct arb_turn *t)
{
	return t->illegal;
}

int
arb_turn_refused(const struct arb_turn *t, int *files)
{
	if (files != NULL)
		*files = t->refused_files;
	return t->refused_orders;
}

/* For qsort's comparisons. */
static _Thread_local const struct arb_turn *sorting;

static int
by_problem(const void *a, const void *b)
{
	const struct problem *x = &sorting->problems.v[*(const int *)a];
	const struct problem *y = &sorting->problems.v[*(const int *)b];
	int	 c;

	if (x->file != y->file &&
	    (c = file_cmp(sorting, x->file, y->file)) != 0)
		return c;
	return (*(const int *)a > *(const int *)b) -
	    (*(const int *)a < *(const int *)b);
}

/* Problem i of a map that was refused, sorted already (load.c); after
 * the last kept, how many more there were. */
static int
map_problem(struct arb_turn *t, size_t i, struct arb_error *e)
{
	const struct problem *pr;

	if (i > t->problems.n || (i == t->problems.n && t->mapmore == 0))
		return -1;
	e->code = ARB_EDATA;
	snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
	utf8_mend(e->file);
	if (i == t->problems.n) {
		snprintf(e->text, sizeof(e->text), "and %d more problem%s",
		    t->mapmore, t->mapmore == 1 ? "" : "s");
		return 0;
	}
	pr = &t->problems.v[i];
	e->line = pr->line;
	e->column = pr->column;
	snprintf(e->pointer, sizeof(e->pointer), "%s", pr->pointer);
	snprintf(e->text, sizeof(e->text), "%s", pr->text);
	utf8_mend(e->pointer);
	utf8_mend(e->text);
	return 0;
}

int
arb_turn_problem(struct arb_turn *t, size_t i, struct arb_error *e)
{
	const struct problem *pr;
	size_t	 k;

	memset(e, 0, sizeof(*e));
	if (t->problems.n > 0 && t->problems.v[0].file < 0)
		return map_problem(t, i, e);
	if (i >= t->problems.n)
		return -1;
	if (t->nsorted != t->problems.n) {
		free(t->psorted);
		t->nsorted = 0;
		if ((t->psorted = malloc(t->problems.n * sizeof(int))) == NULL)
			return -1;
		for (k = 0; k < t->problems.n; k++)
			t->psorted[k] = (int)k;
		sorting = t;
		qsort(t->psorted, t->problems.n, sizeof(int), by_problem);
		sorting = NULL;
		t->nsorted = t->problems.n;
	}
	pr = &t->problems.v[t->psorted[i]];
	e->code = ARB_EDATA;
	e->line = pr->line;
	e->column = pr->column;
	snprintf(e->file, sizeof(e->file), "%s", t->files.v[pr->file].name);
	/* A text's pointer is into the JSON it means: its line and column
	 * say where the player wrote it. */
	if (!t->files.v[pr->file].text)
		snprintf(e->pointer, sizeof(e->pointer), "%s", pr->pointer);
	snprintf(e->text, sizeof(e->text), "%s", pr->text);
	utf8_mend(e->file);
	utf8_mend(e->pointer);
	utf8_mend(e->text);
	return 0;
}

int
arb_turn_problem_player(struct arb_turn *t, size_t i)
{
	struct arb_error e;

	if (arb_turn_problem(t, i, &e) != 0)
		return -1;
	return t->files.v[t->problems.v[t->psorted[i]].file].player;
}

int
arb_turn_write_result(struct arb_turn *t, int flags, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	emit_result(t, flags, fp);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_next(struct arb_turn *t, FILE *fp, struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	if (t->number == INT_MAX) {
		/* Said of the map's turn, before anything is written. */
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
		snprintf(e->pointer, sizeof(e->pointer), "/turn");
		snprintf(e->text, sizeof(e->text), "turn %d is the last a "
		    "map can have: there is no next map", t->number);
		utf8_mend(e->file);
		t->mem.jmp = NULL;
		return -1;
	}
	emit_next(t, fp);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_trace(struct arb_turn *t, int text, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	emit_trace(t, text, fp);
	t->mem.jmp = NULL;
	return 0;
}


/* Pictures and players' reports (arbiter.h; format/svg.c, view.c). */
const char *
arb_turn_player(const struct arb_turn *t, int i)
{
	return i >= 0 && (size_t)i < t->players.n ? t->players.v[i].name :
	    NULL;
}

int
arb_turn_find_player(struct arb_turn *t, const char *name,
    const char **hint)
{
	return view_player(t, name, hint);
}

int
arb_turn_write_svg(struct arb_turn *t, int flags, int player, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, emit_release(t));
	emit_svg(t, ((flags & ARB_SVG_NEXT) ? SVG_NEXT : 0) |
	    ((flags & ARB_SVG_START) ? SVG_START : 0), player, fp);
	t->mem.jmp = NULL;
	return 0;
}

void
arb_turn_svg_region(struct arb_turn *t, const char *region)
{
	t->svg_region = region;
}

int
arb_turn_write_png(struct arb_turn *t, int flags, int player, int width,
    FILE *fp, struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, view_drop(t); emit_release(t));
	emit_png(t, ((flags & ARB_SVG_NEXT) ? SVG_NEXT : 0) |
	    ((flags & ARB_SVG_START) ? SVG_START : 0), player, width, fp);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_view(struct arb_turn *t, int player, int flags, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, view_drop(t); emit_release(t));
	emit_view(t, player, ((flags & ARB_VIEW_TEXT) ? VIEW_TEXT : 0) |
	    ((flags & ARB_VIEW_TRACE) ? VIEW_TRACE : 0), fp);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_replay(struct arb_turn *t, int player, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, t->trace_for = 0; view_drop(t); emit_release(t));
	emit_replay(t, player, fp);
	t->mem.jmp = NULL;
	return 0;
}

int
arb_turn_write_trace_for(struct arb_turn *t, int player, int text, FILE *fp,
    struct arb_error *e)
{
	jmp_buf		 jb;

	GUARD(t, e, t->trace_for = 0; emit_release(t));
	t->trace_for = player + 1;
	emit_trace(t, text, fp);
	t->trace_for = 0;
	t->mem.jmp = NULL;
	return 0;
}
