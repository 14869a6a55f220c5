/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): fair dice over a turn (arbiter-rules(7),
 * Dice): the map's game and commitment, the umpire's key checked against
 * it, where the turn's dice come from, the rolls from outside, and the
 * next map's commitment.  The cryptography is base/fair.c's.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "base/fair.h"

static const char *const dice_keys[] = { "commitment", NULL };

const char *
fair_hexstr(struct arb_turn *t, const unsigned char *h)
{
	char	*s = t_alloc(t, 2 * FAIR_HASHLEN + 1);

	fair_hex(h, FAIR_HASHLEN, s);
	return s;
}

/*
 * The map's "game" and "dice" (read after its turn and seed).  With the
 * key, a commitment is checked here, where a mismatch can be shown at its
 * place, and the turn's seed is the one derived from the key.
 */
void
fair_loaded(struct arb_turn *t, struct ld *ld, const struct jv *root)
{
	const struct jv	*d = ld_get(root, "dice");
	const char	*s, *p;
	unsigned char	 h[FAIR_HASHLEN];

	if (ld_get(root, "game") != NULL) {
		t->game = ld_str(ld, root, "game", NULL);
		ld_push(ld, "game");
		if (t->game[0] == '\0')
			ld_fail(ld, "bad game \"\": expected a name");
		for (p = t->game; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				ld_fail(ld, "bad game: a control character "
				    "(U+%04X) in its name", (unsigned char)*p);
		ld_pop(ld);
	}
	t->key_seen = t->key_set || t->reveal_set || t->next_set;
	t->fair_read = true;
	if (d == NULL) {
		/* A plain seed; with the key, the next map commits. */
		if (t->key_set && t->game == NULL)
			ld_fail(ld, "the umpire's secret is given but the "
			    "map names no game: a map must name its game "
			    "(\"game\") to commit to its next turn's dice");
		if (t->reveal_set)
			ld_fail(ld, "a replay from a revealed value, but the "
			    "map does not commit to its dice (it has a plain "
			    "seed): there is nothing to check the value "
			    "against");
		return;
	}
	ld_push(ld, "dice");
	if (!ld_is_object(d))
		ld_fail(ld, "bad dice: expected an object with a commitment");
	ld_keys(ld, d, dice_keys, NULL);
	if (ld_get(root, "seed") != NULL)
		ld_fail(ld, "the map has both a plain \"seed\" and a "
		    "commitment to its dice: a map has one or the other");
	if (t->game == NULL)
		ld_fail(ld, "a map that commits to its dice must name its "
		    "game (\"game\"): the dice are derived from it");
	if ((s = ld_str(ld, d, "commitment", NULL)) == NULL)
		ld_fail(ld, "no \"commitment\" in the dice");
	ld_push(ld, "commitment");
	if (strlen(s) != 2 * FAIR_HASHLEN ||
	    fair_unhex(s, FAIR_HASHLEN, t->commitment) >= 0)
		ld_fail(ld, "bad commitment \"%.16s%s\": expected 64 "
		    "hexadecimal digits, the SHA-256 of the turn's dice", s,
		    strlen(s) > 16 ? "..." : "");
	t->committed = true;
	if (t->key_set) {
		fair_derive(t->key, t->game, t->number, t->reveal);
		fair_sha256(t->reveal, FAIR_HASHLEN, h);
		if (memcmp(h, t->commitment, FAIR_HASHLEN) != 0)
			ld_fail(ld, "the umpire's secret does not give this "
			    "commitment: another key, or the map's game or "
			    "turn was changed");
		if (!t->seed_set)
			t->seed = fair_seed(t->reveal);
	} else if (!t->reveal_set && t->next_set) {
		ld_fail(ld, "a replay of a turn that committed to its dice "
		    "needs the value its result revealed (/dice/reveal)");
	} else if (t->reveal_set) {
		/* A replay: anyone can check R against the commitment. */
		fair_sha256(t->reveal, FAIR_HASHLEN, h);
		if (memcmp(h, t->commitment, FAIR_HASHLEN) != 0)
			ld_fail(ld, "the revealed value does not give this "
			    "commitment: its SHA-256 is %.16s...",
			    fair_hexstr(t, h));
		if (!t->seed_set)
			t->seed = fair_seed(t->reveal);
	}
	ld_pop(ld);
	ld_pop(ld);
}

bool
fair_umpires(const struct arb_turn *t)
{
	return t->key_set || (t->reveal_set && t->committed) || t->next_set;
}

/* Where the dice come from, at the start of a run. */
void
fair_begin(struct arb_turn *t)
{
	struct arb_error *e = t->mem.err;

	/* A key given after the map was not checked against it. */
	if ((t->key_set && !t->key_seen) || t->fair_late)
		t_fail(t, ARB_EINTERNAL, "arb_turn_set_secret() or "
		    "arb_turn_set_reveal() after arb_turn_load_map()");
	if (t->committed && !fair_umpires(t) && !t->seed_set &&
	    !(t->flags & ARB_CHECK)) {
		snprintf(e->file, sizeof(e->file), "%s", t->mapfile);
		snprintf(e->pointer, sizeof(e->pointer), "/dice");
		t_fail(t, ARB_EDATA, "the map commits to its dice: "
		    "adjudicating it needs the umpire's secret (--secret), or, "
		    "to replay a revealed turn, its seed (--seed)");
	}
	if (t->rollsfile != NULL)
		t->dsrc = DS_ROLLS;
	else if (t->seed_set || !t->committed)
		t->dsrc = DS_SEED;
	else if (t->flags & ARB_CHECK)
		t->dsrc = DS_UNKNOWN;
	else
		t->dsrc = DS_SECRET;
	t->dice = t->seed;
}

/* The seed may be shown unless it is a committed turn's under --check. */
bool
fair_seed_shown(const struct arb_turn *t)
{
	return !t->committed || t->seed_set ||
	    (fair_umpires(t) && !(t->flags & ARB_CHECK));
}

const char *
fair_next_commitment(struct arb_turn *t)
{
	unsigned char	 r[FAIR_HASHLEN], h[FAIR_HASHLEN];

	if (!t->key_set)
		return t->next_set ? fair_hexstr(t, t->next_commitment) : NULL;
	fair_derive(t->key, t->game, (long)t->number + 1, r);
	fair_sha256(r, FAIR_HASHLEN, h);
	fair_wipe(r, sizeof(r));
	return fair_hexstr(t, h);
}

int
fair_next_roll(struct arb_turn *t, int sides, const char *why)
{
	long	 v;

	if (t->rolls_used < t->nrolls) {
		v = t->rolls[t->rolls_used];
		if (v > sides) {
			struct ld *ld = &t->reader;

			ld_start(ld, &t->mem, t->mem.err, t->rollsfile,
			    t->rollstext, t->rollslen);
			ld_pushi(ld, t->rolls_used);
			ld_fail(ld, "roll %zu is %ld, which a d%d cannot roll "
			    "(1 to %d): the die of %s", t->rolls_used + 1, v,
			    sides, sides, why);
		}
		t->rolls_used++;
		return (int)v;
	}
	/* None left: go on with the lowest face, to count how many more
	 * the turn draws (at least; the missing rolls may change it). */
	if (t->rolls_missing++ == 0) {
		t->missing_sides = sides;
		t->missing_why = why;
	}
	return 1;
}

void
fair_end(struct arb_turn *t)
{
	struct arb_error *e = t->mem.err;

	if (t->rolls_missing == 0)
		return;
	snprintf(e->file, sizeof(e->file), "%s", t->rollsfile);
	t_fail(t, ARB_EDATA, "%zu roll%s given, and the turn needs at least "
	    "%zu: the first missing is a d%d, the die of %s", t->nrolls,
	    t->nrolls == 1 ? "" : "s", t->nrolls + t->rolls_missing,
	    t->missing_sides, t->missing_why);
}
