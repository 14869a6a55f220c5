/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): the model's values as JSON (cells, players,
 * units, reals, poses and points).  Uses the JSON layer's primitives; the
 * reader's owner is the turn.
 */
#include <stdio.h>
#include <string.h>

#include "model/model.h"

#define TURN(ld)	((struct arb_turn *)(ld)->owner)

const char *
hint_unit(struct ld *ld, const char *typed, int player)
{
	struct arb_turn	*t = TURN(ld);
	struct suggest	 sg;
	size_t		 i;

	if (!ld->hints)
		return NULL;
	suggest_start(&sg, typed);
	for (i = 0; i < t->units.n; i++)
		if (player < 0 || t->units.v[i].player == player)
			suggest_offer(&sg, t->units.v[i].id);
	if (sg.best == NULL)
		return NULL;
	return t_printf(t, "did you mean \"%.40s\"?", sg.best);
}

const char *
hint_cell(struct ld *ld, const char *typed)
{
	struct arb_turn	*t = TURN(ld);
	const struct board *b = &t->board;
	struct suggest	 sg;
	char		 form[16], lo[32], hi[32];
	int		 i;

	if (!ld->hints)
		return NULL;
	if (b->kind == BOARD_HEX) {
		for (i = 0; i < 2 * b->width && i < 15; i++)
			form[i] = i < b->width ? 'C' : 'R';
		form[i] = '\0';
		return t_printf(t, "labels here are %s from %s to %s", form,
		    board_label(b, 0, lo), board_label(b, b->ncells - 1, hi));
	}
	if (b->kind != BOARD_GRAPH)
		return NULL;
	for (i = 0; i < b->ncells; i++)
		if (same_but_case(typed, b->names[i]))
			return t_printf(t, "did you mean \"%.40s\"?",
			    b->names[i]);
	suggest_start(&sg, typed);
	for (i = 0; i < b->ncells; i++)
		suggest_offer(&sg, b->names[i]);
	if (sg.best == NULL)
		return NULL;
	return t_printf(t, "did you mean \"%.40s\"?", sg.best);
}

int
ld_cellv(struct ld *ld, const struct jv *v)
{
	const char	*s = ld_namev(ld, v, "cell", "a cell label");
	int		 c;

	if ((c = board_find(&TURN(ld)->board, s)) < 0) {
		ld->reason = R_UNKNOWN_CELL;
		ld->hint = hint_cell(ld, s);
		ld_fail(ld, "unknown cell \"%.40s\"", s);
	}
	return c;
}

int
ld_playerv(struct ld *ld, const struct jv *v)
{
	const char	*s = ld_namev(ld, v, "player", "a player name");
	int		 p;

	if ((p = strmap_get(&TURN(ld)->player_names, s)) < 0)
		ld_fail(ld, "unknown player \"%.40s\"", s);
	return p;
}

int
ld_unitv(struct ld *ld, const struct jv *v)
{
	const char	*s = ld_namev(ld, v, "unit", "a unit id");
	int		 u;

	if ((u = strmap_get(&TURN(ld)->unit_ids, s)) < 0) {
		ld->reason = R_UNKNOWN_UNIT;
		ld->hint = hint_unit(ld, s, -1);
		ld_fail(ld, "unknown unit \"%.40s\"", s);
	}
	return u;
}

void
emit_add_cell(struct arb_turn *t, struct jv *arr, int cell)
{
	char	 buf[32];

	emit_add_str(arr, board_label(&t->board, cell, buf));
}

/* Reals are rounded to 0.001 before they are set (geom_round); the
 * writer's 15 significant digits then print them back exactly ("1.061",
 * not "1.0609999999999999"). */
void
emit_set_real(struct jv *obj, const char *key, double val)
{
	emit_set_double(obj, key, geom_round(val));
}

void
emit_add_real(struct jv *arr, double val)
{
	emit_add_double(arr, geom_round(val));
}

void
emit_set_pose(struct jv *obj, const char *key, const struct pose *p)
{
	struct jv	*j = emit_set_object(obj, key);

	emit_set_real(j, "x", p->x);
	emit_set_real(j, "y", p->y);
	/* 359.9996 rounds to 360, which is 0. */
	emit_set_double(j, "facing", geom_norm360(geom_round(p->facing)));
}

void
emit_set_point(struct jv *obj, const char *key, struct pt p)
{
	struct jv	*a = emit_set_array(obj, key);

	emit_add_real(a, p.x);
	emit_add_real(a, p.y);
}
