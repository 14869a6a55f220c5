/*
 * The base layer of libarbiter: memory that lives with a turn, growable
 * vectors, string and integer maps, UTF-8 mending.  It knows nothing of
 * JSON, boards or rule systems; it uses the C library and the types of
 * arbiter.h (struct arb_error and its codes) only.
 *
 * Memory: everything a turn allocates hangs off its struct mem and dies
 * with mem_release().  The allocation helpers never return NULL: when
 * memory runs out they jump to m->jmp, the public entry point that was
 * called, which reports ARB_ENOMEM (the technique Lua uses for its own
 * allocator).  Code above therefore never checks for NULL and never frees
 * anything it took from the arena.
 */
#ifndef ARBITER_BASE_H
#define ARBITER_BASE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arbiter.h"

struct chunk;

struct mem {
	jmp_buf			*jmp;	/* where failures jump */
	struct arb_error	*err;	/* where they are told */
	struct chunk		*arena;
	uint64_t		 hashkey[2];	/* for every map of the turn */
	bool			 hashkey_set;
};

void	*mem_alloc(struct mem *, size_t);	/* zeroed, lives with m */
/* A place in m's memory to come back to: mem_rewind() takes back all that
 * was allocated since mem_mark(), at once.  For work whose tables are
 * large and die with it (a picture's, sized by the board), so that a turn
 * that does it many times (a picture a player) holds one at a time. */
struct mem_mark {
	struct chunk	*head, *next;
	size_t		 used;
};
void	 mem_mark(const struct mem *, struct mem_mark *);
void	 mem_rewind(struct mem *, const struct mem_mark *);
char	*mem_strdup(struct mem *, const char *);
char	*mem_printf(struct mem *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
char	*mem_vprintf(struct mem *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
/* Grows *vecp (cap elements of size bytes) to hold need; malloc'ed,
 * because vectors move: their owner frees them. */
void	 mem_grow(struct mem *, void *vecp, size_t *cap, size_t need,
	    size_t size);
void	*mem_push(struct mem *, void *v, size_t *cap, size_t *n, size_t size);
void	 mem_release(struct mem *);	/* the arena; m stays usable */
/* Tells the failure (the first one told wins) and jumps to m->jmp. */
void	 mem_fail(struct mem *, enum arb_errcode, const char *, ...)
	    __attribute__((noreturn, format(printf, 3, 4)));
void	 mem_nomem(struct mem *) __attribute__((noreturn));
void	 utf8_mend(char *);	/* drops broken UTF-8 sequences */
/* The length of the UTF-8 character at p (n bytes left), its code point
 * in *cp; 0 when the bytes are no character as RFC 3629 and jansson read
 * them (a broken or overlong sequence, a surrogate, past U+10FFFF).  The
 * one reader of UTF-8 of the library (mem.c). */
int	 utf8_char(const unsigned char *p, size_t n, unsigned long *cp);
int	 processors(void);	/* online, at least 1 */

/* suggest.c: what a name that is not known probably meant. */
#define SUGGEST_MAXLEN	64	/* longer names are never close */
struct suggest {
	const char	*typed;
	const char	*best;		/* NULL: nothing close */
	size_t		 dist;
};
size_t	 edit_distance(const char *, const char *, size_t max);
void	 suggest_start(struct suggest *, const char *typed);
void	 suggest_offer(struct suggest *, const char *candidate);
bool	 same_but_case(const char *, const char *);

/* A pool: memory handed out in order from big blocks and taken back all
 * at once, either kept for reuse (pool_reset) or given back (pool_release).
 * pool_alloc() returns NULL when memory runs out: it serves code that
 * cannot jump (a library's allocator hook). */
struct pool {
	struct chunk	*head;		/* the block being filled */
	struct chunk	*spare;		/* blocks kept by pool_reset() */
};
void	*pool_alloc(struct pool *, size_t);
void	 pool_reset(struct pool *);
void	 pool_release(struct pool *);
size_t	 pool_size(const struct pool *);	/* bytes of its blocks */
/* Moves every block of from (emptied) to to's spares; the blocks of
 * from's spares, up to want bytes or just past, to to's spares. */
void	 pool_give(struct pool *from, struct pool *to);
void	 pool_take(struct pool *from, struct pool *to, size_t want);

/* A vector of T; MPUSH(m, vec) returns a pointer to a new, zeroed last
 * element. */
#define VEC(T)		struct { T *v; size_t n, cap; }
#define MPUSH(m, vec)	((vec).v = mem_push((m), (vec).v, &(vec).cap, \
			    &(vec).n, sizeof(*(vec).v)), &(vec).v[(vec).n - 1])

/* A string to int map; keys are lent and must outlive it.  The hash is
 * keyed with the mem's key, drawn once, so chosen keys cannot collide. */
struct strslot {
	const char	*key;		/* NULL: empty */
	uint32_t	 hash;		/* the key's hash, its low half */
	int		 val;
};
struct strmap {
	struct strslot	 *slots;
	size_t		  cap, n;
	uint64_t	  key[2];	/* SipHash key, drawn on first use */
	size_t		  probes;	/* slots put looked at (tests) */
};
int	 strmap_get(const struct strmap *, const char *);	/* -1: absent */
void	 strmap_put(struct mem *, struct strmap *, const char *, int);
void	 strmap_release(struct strmap *);

/* A map from integers (below UINT64_MAX) to integers, for data that is
 * sparse: absent keys read as 0. */
struct intmap {
	uint64_t	 *keys;		/* key + 1, or 0: empty */
	uint64_t	 *vals;
	size_t		  cap, n;
	uint64_t	  key;		/* hash key, drawn on first use */
};
uint64_t  intmap_get(const struct intmap *, uint64_t key);
uint64_t *intmap_at(struct mem *, struct intmap *, uint64_t key);
void	  intmap_release(struct intmap *);

#endif /* ARBITER_BASE_H */
