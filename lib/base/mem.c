/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Memory that lives with a turn, growable vectors, a string map, and the
 * jump back to the public entry point when something fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* The arena: big chunks, freed all at once with the turn. */
struct chunk {
	struct chunk	*next;
	size_t		 used, size;
	max_align_t	 data[];
};

#define CHUNK	(64 * 1024)

void
t_nomem(struct arb_turn *t)
{
	t_fail(t, ARB_ENOMEM, "out of memory");
}

/*
 * Drops the bytes of any broken UTF-8 sequence from s, in place: a message
 * that shortens a name (%.40s) or is cut at its buffer's end may end a
 * character halfway, and a diagnostic should never carry half of one.
 */
void
utf8_mend(char *s)
{
	unsigned char	*r = (unsigned char *)s, *w = r;
	int		 n, k;

	while (*r != '\0') {
		n = *r < 0x80 ? 0 : (*r & 0xe0) == 0xc0 ? 1 :
		    (*r & 0xf0) == 0xe0 ? 2 : (*r & 0xf8) == 0xf0 ? 3 : -1;
		for (k = 1; n > 0 && k <= n; k++)
			if ((r[k] & 0xc0) != 0x80)
				break;
		if (n < 0 || k <= n) {		/* broken: drop its lead */
			r++;
			continue;
		}
		for (k = 0; k <= n; k++)
			*w++ = *r++;
	}
	*w = '\0';
}

void
t_fail(struct arb_turn *t, enum arb_errcode code, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[sizeof(t->err->text)];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Bad data found while a file is being read: say where. */
	if (code == ARB_EDATA && t->ld != NULL)
		ld_fail(t->ld, "%s", buf);
	if (t->err->code == ARB_EOK) {
		t->err->code = code;
		utf8_mend(buf);
		memcpy(t->err->text, buf, sizeof(buf));
	}
	longjmp(*t->jmp, 1);
}

void *
t_alloc(struct arb_turn *t, size_t n)
{
	struct chunk	*c = t->arena;
	size_t		 a = sizeof(max_align_t);
	void		*p;

	n = (n + a - 1) / a * a;
	if (c == NULL || c->size - c->used < n) {
		size_t size = n > CHUNK / 4 ? n : CHUNK;

		c = malloc(sizeof(*c) + size);
		if (c == NULL)
			t_nomem(t);
		c->size = size;
		c->used = 0;
		/* A big block goes behind the current chunk, so the
		 * current one keeps serving small requests. */
		if (size > CHUNK && t->arena != NULL) {
			c->next = t->arena->next;
			t->arena->next = c;
		} else {
			c->next = t->arena;
			t->arena = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

void
arena_release(struct chunk *c)
{
	struct chunk	*next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

char *
t_strdup(struct arb_turn *t, const char *s)
{
	size_t	 n = strlen(s) + 1;
	char	*p = t_alloc(t, n);

	memcpy(p, s, n);
	return p;
}

char *
t_vprintf(struct arb_turn *t, const char *fmt, va_list ap)
{
	va_list	 ap2;
	char	 buf[512], *p;
	int	 n;

	va_copy(ap2, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		t_fail(t, ARB_EINTERNAL, "bad format");
	}
	if ((size_t)n < sizeof(buf)) {
		va_end(ap2);
		return t_strdup(t, buf);
	}
	/* Too long for the buffer: format again into the whole length, so
	 * that no message is ever cut (a cut could split a UTF-8
	 * character, which the JSON writer refuses). */
	p = t_alloc(t, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

char *
t_printf(struct arb_turn *t, const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = t_vprintf(t, fmt, ap);
	va_end(ap);
	return p;
}

/*
 * Grows *vecp (an array of elements of size bytes, cap of them) to hold
 * need.  Vectors are malloc'ed, not arena memory, because they move; the
 * turn frees them in arb_turn_free().
 */
void
t_grow(struct arb_turn *t, void *vecp, size_t *cap, size_t need,
    size_t size)
{
	void	**v = vecp, *p;
	size_t	  n;

	if (need <= *cap)
		return;
	n = *cap < 8 ? 8 : *cap * 2;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / size)
		t_nomem(t);
	p = realloc(*v, n * size);
	if (p == NULL)
		t_nomem(t);
	*v = p;
	*cap = n;
}

void *
t_push(struct arb_turn *t, void *v, size_t *cap, size_t *n, size_t size)
{
	t_grow(t, &v, cap, *n + 1, size);
	memset((char *)v + *n * size, 0, size);
	++*n;
	return v;
}

/*
 * SipHash-2-4 (Aumasson and Bernstein), keyed per map: the ids and names
 * in a player's file cannot be chosen to collide, because the key is drawn
 * when the map is made.  Nothing ever iterates a map, so the output does
 * not depend on the key.
 */
#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND do {							\
	v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);	\
	v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);	\
} while (0)

static uint64_t
siphash(const uint64_t key[2], const char *s)
{
	uint64_t v0 = 0x736f6d6570736575u ^ key[0];
	uint64_t v1 = 0x646f72616e646f6du ^ key[1];
	uint64_t v2 = 0x6c7967656e657261u ^ key[0];
	uint64_t v3 = 0x7465646279746573u ^ key[1];
	uint64_t m;
	size_t	 n = strlen(s), i, k;

	for (i = 0; i + 8 <= n; i += 8) {
		for (m = 0, k = 0; k < 8; k++)
			m |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	for (m = (uint64_t)n << 56, k = 0; i + k < n; k++)
		m |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
	v3 ^= m;
	SIPROUND;
	SIPROUND;
	v0 ^= m;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/* splitmix64's finaliser: spreads a weak seed over all 64 bits. */
static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/*
 * The turn's hash key, drawn once, when its first map is made: from the
 * system's random source where there is one (read as a file, so lib/
 * stays ISO C), else from the clock and the addresses the program was
 * loaded at.  Every map of the turn takes it.
 */
static void
turn_key(struct arb_turn *t, uint64_t key[2])
{
	FILE		*fp;
	uint64_t	 k[2] = { 0, 0 };

	if (!t->hashkey_set) {
		if ((fp = fopen("/dev/urandom", "rb")) != NULL) {
			if (fread(k, sizeof(k), 1, fp) != 1)
				k[0] = k[1] = 0;
			fclose(fp);
		}
		t->hashkey[0] = k[0] ^ mix((uint64_t)time(NULL) ^
		    (uint64_t)(uintptr_t)t);
		t->hashkey[1] = k[1] ^ mix((uint64_t)clock() ^
		    (uint64_t)(uintptr_t)&turn_key);
		t->hashkey_set = true;
	}
	key[0] = t->hashkey[0];
	key[1] = t->hashkey[1];
}

int
strmap_get(const struct strmap *m, const char *key)
{
	size_t	 i;

	if (m->cap == 0)
		return -1;
	for (i = siphash(m->key, key) & (m->cap - 1); m->keys[i] != NULL;
	    i = (i + 1) & (m->cap - 1))
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
	return -1;
}

void
strmap_put(struct arb_turn *t, struct strmap *m, const char *key, int val)
{
	size_t	 i;

	if (2 * (m->n + 1) > m->cap) {
		struct strmap	 old = *m;
		size_t		 cap = m->cap ? 2 * m->cap : 16;

		if (old.cap == 0)
			turn_key(t, m->key);
		m->keys = calloc(cap, sizeof(*m->keys));
		m->vals = calloc(cap, sizeof(*m->vals));
		if (m->keys == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->vals);
			*m = old;
			t_nomem(t);
		}
		m->cap = cap;
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i] != NULL)
				strmap_put(t, m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	for (i = siphash(m->key, key) & (m->cap - 1); m->keys[i] != NULL;
	    i = (i + 1) & (m->cap - 1)) {
		m->probes++;
		if (strcmp(m->keys[i], key) == 0) {
			m->vals[i] = val;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

void
strmap_release(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/*
 * An integer map, for data kept only where the map has some (the sides of
 * a few hexes among millions).  Keys are stored plus one, so 0 marks an
 * empty slot; the slot is chosen by a keyed mix, as in a strmap.
 */
static size_t
intmap_slot(const struct intmap *m, uint64_t key)
{
	size_t	 i;

	for (i = (size_t)mix(key ^ m->key) & (m->cap - 1);
	    m->keys[i] != 0 && m->keys[i] != key + 1;
	    i = (i + 1) & (m->cap - 1))
		;
	return i;
}

uint64_t
intmap_get(const struct intmap *m, uint64_t key)
{
	size_t	 i;

	if (m->cap == 0)
		return 0;
	i = intmap_slot(m, key);
	return m->keys[i] != 0 ? m->vals[i] : 0;
}

uint64_t *
intmap_at(struct arb_turn *t, struct intmap *m, uint64_t key)
{
	size_t	 i;

	if (2 * (m->n + 1) > m->cap) {
		struct intmap	 old = *m;
		size_t		 cap = m->cap ? 2 * m->cap : 16;

		if (old.cap == 0) {
			uint64_t	 k[2];

			turn_key(t, k);
			m->key = k[0] ^ k[1];
		}
		m->keys = calloc(cap, sizeof(*m->keys));
		m->vals = calloc(cap, sizeof(*m->vals));
		if (m->keys == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->vals);
			*m = old;
			t_nomem(t);
		}
		m->cap = cap;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i] != 0) {
				size_t	 j = intmap_slot(m, old.keys[i] - 1);

				m->keys[j] = old.keys[i];
				m->vals[j] = old.vals[i];
			}
		free(old.keys);
		free(old.vals);
	}
	i = intmap_slot(m, key);
	if (m->keys[i] == 0) {
		m->keys[i] = key + 1;
		m->n++;
	}
	return &m->vals[i];
}

void
intmap_release(struct intmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
