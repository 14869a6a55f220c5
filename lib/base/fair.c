/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Fair dice: libsodium's HMAC-SHA-256, SHA-256 and random bytes, and the
 * exact form of the derivation that arbiter-rules(7) documents so that
 * anyone can check it with standard tools.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "base/fair.h"

/*
 * libsodium asks for sodium_init() before any of its functions; it may be
 * called again and from several threads at once.  Hashing does not depend
 * on what it sets up, so a failure matters only to the random bytes.
 */
static int
ready(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

void
fair_derive(const unsigned char key[FAIR_KEYLEN], const char *game,
    long turn, unsigned char r[FAIR_HASHLEN])
{
	crypto_auth_hmacsha256_state st;
	char	 num[32];

	(void)ready();
	snprintf(num, sizeof(num), "%ld", turn);
	crypto_auth_hmacsha256_init(&st, key, FAIR_KEYLEN);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)
	    FAIR_DOMAIN "\n", sizeof(FAIR_DOMAIN));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)game,
	    strlen(game));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)"\n", 1);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)num,
	    strlen(num));
	crypto_auth_hmacsha256_final(&st, r);
	sodium_memzero(&st, sizeof(st));
}

uint64_t
fair_seed(const unsigned char r[FAIR_HASHLEN])
{
	uint64_t x = 0;
	int	 i;

	for (i = 0; i < 8; i++)
		x = x << 8 | r[i];
	return x % (uint64_t)INT64_MAX;		/* 2^63 - 1 */
}

void
fair_sha256(const void *p, size_t n, unsigned char out[FAIR_HASHLEN])
{
	(void)ready();
	crypto_hash_sha256(out, p, n);
}

void
fair_hex(const unsigned char *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t	 i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long
fair_unhex(const char *s, size_t n, unsigned char *out)
{
	size_t	 i;
	int	 hi, lo;

	for (i = 0; i < n; i++) {
		if ((hi = nibble(s[2 * i])) < 0)
			return (long)(2 * i);
		if ((lo = nibble(s[2 * i + 1])) < 0)
			return (long)(2 * i + 1);
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return -1;
}

int
fair_random(unsigned char *p, size_t n)
{
	if (ready() != 0)
		return -1;
	randombytes_buf(p, n);
	return 0;
}

void
fair_wipe(void *p, size_t n)
{
	sodium_memzero(p, n);
}
