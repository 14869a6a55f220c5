/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Suggestions for messages about a player's orders: what was probably
 * meant.  The edit distance is the optimal string alignment distance
 * (Levenshtein's, with a swap of two neighbours counting as one edit, the
 * commonest typing slip), counted in bytes.  A name is suggested only when
 * it is close: at most two edits, and at most a third of the length of
 * what was typed (one edit for names of up to five bytes), so that "a1"
 * suggests "a2" but "x" suggests nothing in particular.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/*
 * The distance between a and b, or max + 1 when it is larger than max
 * (then the work stops early).  Names longer than SUGGEST_MAXLEN bytes
 * are never close to anything.
 */
size_t
edit_distance(const char *a, const char *b, size_t max)
{
	size_t	 na = strlen(a), nb = strlen(b), i, j;
	size_t	 rows[3][SUGGEST_MAXLEN + 1];
	size_t	*pp, *p, *c, best;

	if (na > SUGGEST_MAXLEN || nb > SUGGEST_MAXLEN)
		return max + 1;
	if ((na > nb ? na - nb : nb - na) > max)
		return max + 1;
	pp = rows[0];
	p = rows[1];
	c = rows[2];
	for (j = 0; j <= nb; j++)
		p[j] = j;
	for (i = 1; i <= na; i++) {
		c[0] = i;
		best = c[0];
		for (j = 1; j <= nb; j++) {
			size_t	 cost = a[i - 1] != b[j - 1];
			size_t	 d = p[j - 1] + cost;

			if (p[j] + 1 < d)
				d = p[j] + 1;
			if (c[j - 1] + 1 < d)
				d = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			c[j] = d;
			if (d < best)
				best = d;
		}
		if (best > max)
			return max + 1;
		/* Rotate: the previous row becomes the one before it. */
		{
			size_t *tmp = pp;

			pp = p;
			p = c;
			c = tmp;
		}
	}
	return p[nb] > max ? max + 1 : p[nb];
}

/* The most edits a suggestion for typed may be away from it. */
static size_t
allowed(const char *typed)
{
	size_t	 n = strlen(typed) / 3;

	if (n < 1)
		n = 1;
	return n > 2 ? 2 : n;
}

void
suggest_start(struct suggest *s, const char *typed)
{
	s->typed = typed;
	s->best = NULL;
	s->dist = allowed(typed) + 1;
}

/*
 * Offers a candidate: it becomes the suggestion when it is nearer than
 * the best so far, or as near and first in byte order, so that the
 * suggestion never depends on the order candidates come in.  The typed
 * name itself is never suggested.
 */
void
suggest_offer(struct suggest *s, const char *cand)
{
	size_t	 d;

	if (cand == NULL || strcmp(cand, s->typed) == 0)
		return;
	d = edit_distance(s->typed, cand, allowed(s->typed));
	if (d > allowed(s->typed))
		return;
	if (s->best == NULL || d < s->dist || (d == s->dist &&
	    strcmp(cand, s->best) < 0)) {
		s->best = cand;
		s->dist = d;
	}
}

/* ASCII letters folded to lower case: "Red" and "red" are the same. */
bool
same_but_case(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}
