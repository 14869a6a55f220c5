/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The base layer (base.h): a string map and an integer map, hashed with a
 * key drawn once per struct mem.  Uses the C library only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"

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

	/* Words in the machine's byte order: a big-endian machine hashes
	 * other values, and nothing depends on which. */
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&m, s + i, 8);
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
mem_key(struct mem *m, uint64_t key[2])
{
	FILE		*fp;
	uint64_t	 k[2] = { 0, 0 };

	if (!m->hashkey_set) {
		if ((fp = fopen("/dev/urandom", "rb")) != NULL) {
			if (fread(k, sizeof(k), 1, fp) != 1)
				k[0] = k[1] = 0;
			fclose(fp);
		}
		m->hashkey[0] = k[0] ^ mix((uint64_t)time(NULL) ^
		    (uint64_t)(uintptr_t)m);
		m->hashkey[1] = k[1] ^ mix((uint64_t)clock() ^
		    (uint64_t)(uintptr_t)&mem_key);
		m->hashkey_set = true;
	}
	key[0] = m->hashkey[0];
	key[1] = m->hashkey[1];
}

/*
 * A slot keeps its key's hash (its low 32 bits: the table never has 2^32
 * slots), so a probe compares strings only where the hashes agree, and a
 * table that grows moves its keys without hashing them again.
 */
int
strmap_get(const struct strmap *m, const char *key)
{
	uint64_t	 h;
	size_t		 i;

	if (m->cap == 0)
		return -1;
	h = siphash(m->key, key);
	for (i = h & (m->cap - 1); m->slots[i].key != NULL;
	    i = (i + 1) & (m->cap - 1))
		if (m->slots[i].hash == (uint32_t)h &&
		    strcmp(m->slots[i].key, key) == 0)
			return m->slots[i].val;
	return -1;
}

void
strmap_put(struct mem *mem, struct strmap *m, const char *key, int val)
{
	uint64_t	 h;
	size_t		 i, j;

	if (2 * (m->n + 1) > m->cap) {
		struct strslot	*slots;
		size_t		 cap = m->cap ? 2 * m->cap : 16;

		if (m->cap == 0)
			mem_key(mem, m->key);
		if ((slots = calloc(cap, sizeof(*slots))) == NULL)
			mem_nomem(mem);
		for (j = 0; j < m->cap; j++) {
			if (m->slots[j].key == NULL)
				continue;
			/* The slot is found again from the hash kept: its
			 * low bits are the ones that pick a slot. */
			for (i = m->slots[j].hash & (cap - 1);
			    slots[i].key != NULL; i = (i + 1) & (cap - 1))
				m->probes++;
			slots[i] = m->slots[j];
		}
		free(m->slots);
		m->slots = slots;
		m->cap = cap;
	}
	h = siphash(m->key, key);
	for (i = h & (m->cap - 1); m->slots[i].key != NULL;
	    i = (i + 1) & (m->cap - 1)) {
		m->probes++;
		if (m->slots[i].hash == (uint32_t)h &&
		    strcmp(m->slots[i].key, key) == 0) {
			m->slots[i].val = val;
			return;
		}
	}
	m->slots[i].key = key;
	m->slots[i].hash = (uint32_t)h;
	m->slots[i].val = val;
	m->n++;
}

void
strmap_release(struct strmap *m)
{
	free(m->slots);
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
intmap_at(struct mem *mem, struct intmap *m, uint64_t key)
{
	size_t	 i;

	if (2 * (m->n + 1) > m->cap) {
		struct intmap	 old = *m;
		size_t		 cap = m->cap ? 2 * m->cap : 16;

		if (old.cap == 0) {
			uint64_t	 k[2];

			mem_key(mem, k);
			m->key = k[0] ^ k[1];
		}
		m->keys = calloc(cap, sizeof(*m->keys));
		m->vals = calloc(cap, sizeof(*m->vals));
		if (m->keys == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->vals);
			*m = old;
			mem_nomem(mem);
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
