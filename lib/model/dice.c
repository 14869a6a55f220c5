/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): the dice, drawn from a seeded generator (or
 * taken from rolls from outside) and recorded, each draw, for the result.
 */
#include <stdarg.h>
#include <stdint.h>

#include "model/model.h"

/*
 * The dice: splitmix64 (Steele, Lea and Flood, 2014), seeded with the map's
 * seed (or the one derived from the umpire's key).  A d-sided roll takes
 * draws until one falls below the largest multiple of d, so every face is
 * equally likely, then adds 1 to its remainder.  Rolls from outside are
 * taken in order instead.  Every roll is recorded for the result; a roll
 * nobody may know (a check of a committed map) is 0, and recorded only as
 * a trace event without a value.
 */
uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

int
dice_roll(struct arb_turn *t, int sides, const char *why)
{
	uint64_t	 limit = UINT64_MAX - UINT64_MAX % (uint64_t)sides, x;
	struct draw	*d;
	int		 v;

	if (t->dsrc == DS_UNKNOWN) {
		trace_event(t, "roll", "sides", TF_INT, (long)sides, "why",
		    TF_STR, why, "depends_on_dice", TF_BOOL, 1L, NULL);
		return 0;
	}
	if (t->dsrc == DS_ROLLS)
		v = fair_next_roll(t, sides, why);
	else {
		do
			x = splitmix64(&t->dice);
		while (x >= limit);
		v = (int)(x % (uint64_t)sides) + 1;
	}
	d = VPUSH(t, t->draws);
	d->sides = sides;
	d->value = v;
	d->why = why;
	trace_event(t, "roll", "sides", TF_INT, (long)sides, "value", TF_INT,
	    (long)d->value, "why", TF_STR, why, NULL);
	return d->value;
}

void
dice_decided(struct arb_turn *t, const char *fmt, ...)
{
	va_list	 ap;

	if (t->draws.n == 0 || t->draws.v[t->draws.n - 1].decided != NULL)
		return;
	va_start(ap, fmt);
	t->draws.v[t->draws.n - 1].decided = t_vprintf(t, fmt, ap);
	va_end(ap);
}
