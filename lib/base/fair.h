/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Fair dice (arbiter-rules(7), Dice): the umpire's secret key, the keyed
 * derivation of a turn's seed, its commitment, and the SHA-256 of the
 * inputs.  Every primitive is libsodium's; nothing here is hand-written
 * cryptography.
 */
#ifndef ARBITER_FAIR_H
#define ARBITER_FAIR_H

#include <stddef.h>
#include <stdint.h>

#define FAIR_KEYLEN	32	/* the secret: 32 bytes, 64 hex digits */
#define FAIR_HASHLEN	32	/* SHA-256 and HMAC-SHA-256 */
#define FAIR_DOMAIN	"arbiter-dice-1"

/* R = HMAC-SHA-256(key, "arbiter-dice-1\n" game "\n" turn in decimal). */
void	 fair_derive(const unsigned char key[FAIR_KEYLEN], const char *game,
	    long turn, unsigned char r[FAIR_HASHLEN]);
/* The seed: R's first 8 bytes, big-endian, modulo LONG_MAX (0 to
 * LONG_MAX - 1, the range of a map's seed). */
uint64_t fair_seed(const unsigned char r[FAIR_HASHLEN]);
void	 fair_sha256(const void *, size_t, unsigned char out[FAIR_HASHLEN]);
/* n bytes as 2n lowercase hex digits and a NUL. */
void	 fair_hex(const unsigned char *, size_t n, char *out);
/* 2n hex digits (either case) into n bytes: -1, or the index of the
 * first character that is not a hex digit. */
long	 fair_unhex(const char *s, size_t n, unsigned char *out);
/* n bytes from the system's random source: 0, or -1. */
int	 fair_random(unsigned char *, size_t n);
/* Wipes n bytes so that the compiler cannot drop it. */
void	 fair_wipe(void *, size_t n);

#endif /* ARBITER_FAIR_H */
