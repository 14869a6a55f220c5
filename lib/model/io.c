/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): the model's values as JSON (cells, players,
 * units, reals, poses and points), and t_fail(), which locates a failure
 * about data in the file being read.  Uses the JSON layer's primitives;
 * the reader's owner is the turn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

#define TURN(ld)	((struct arb_turn *)(ld)->owner)

int
ld_cellv(struct ld *ld, const struct jv *v)
{
	const char	*s = ld_namev(ld, v, "cell", "a cell label");
	int		 c;

	if ((c = board_find(&TURN(ld)->board, s)) < 0)
		ld_fail(ld, "unknown cell \"%.40s\"", s);
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

	if ((u = strmap_get(&TURN(ld)->unit_ids, s)) < 0)
		ld_fail(ld, "unknown unit \"%.40s\"", s);
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

void
t_fail(struct arb_turn *t, enum arb_errcode code, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[sizeof(t->mem.err->text)];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Bad data found while a file is being read: say where. */
	if (code == ARB_EDATA && t->ld != NULL)
		ld_fail(t->ld, "%s", buf);
	mem_fail(&t->mem, code, "%s", buf);
}
