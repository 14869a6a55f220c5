/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): writing the result, the next turn's map
 * and the trace, through the JSON layer's writer (doc.h).  Members are
 * written in a fixed order and lists in a fixed order (units by id, orders
 * in adjudication order), so the same turn always gives the same bytes.
 * The rule system writes its own parts through struct ruleset.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "json/doc.h"

/* Seeds from here on are also written as text (seed_text): a reader that
 * takes JSON numbers as doubles (jq 1.6, JavaScript) would round them. */
#define SEED_EXACT	(1ULL << 53)

/*
 * The turn whose output this thread is writing, for the sort of units by
 * id (qsort passes no context).  Each writing entry point sets it, and
 * gives the JSON layer its mem (jw_begin); being per thread, two turns can
 * be written at once in two threads.
 */
static _Thread_local struct arb_turn *T;

static void
begin(struct arb_turn *t)
{
	T = t;
	jw_begin(&t->mem);
	t->wpooled = jv_pool(&t->wpool);
}

/* The end of a writing call that did not fail (GUARD calls jv_pool(NULL)
 * when one does). */
static void
end(struct arb_turn *t)
{
	emit_release(t);
	jv_pool(NULL);
}

/*
 * Drops the document being written.  Values are built in the turn's
 * write pool (jv_pool), so one dropped drops everything built since the
 * last: the writers hold in t->json the one value they are building, and
 * nothing else lives between two calls of this.
 */
void
emit_release(struct arb_turn *t)
{
	if (t->wpooled)
		pool_reset(&t->wpool);
	else
		json_decref(t->json);
	t->json = NULL;
}

static json_t *
str(const char *s)
{
	return jw_ok(json_string_nocheck(s));
}

static json_t *
num(long i)
{
	return jw_ok(json_integer(i));
}

static json_t *
cellv(struct arb_turn *t, int cell)
{
	char	 buf[32];

	return str(board_label(&t->board, cell, buf));
}

static json_t *
playerv(struct arb_turn *t, long p)
{
	return p < 0 ? jw_ok(json_null()) : str(t->players.v[p].name);
}

static const char *const status_names[] = {
	"pending", "legal", "done", "illegal", "failed"
};

static json_t *
event_json(struct arb_turn *t, const struct tevent *te)
{
	json_t	*j = t->json = jw_ok(json_object());
	int	 i;

	for (i = 0; i < te->nf; i++) {
		const struct tfield *f = &te->f[i];

		switch (f->type) {
		case TF_INT:
			jw_set(j, f->key, num(f->i));
			break;
		case TF_ORDER:		/* trace_event() made it TF_STR */
		case TF_STR:
			jw_set(j, f->key, str(f->s));
			break;
		case TF_CELL:
			jw_set(j, f->key, cellv(t, (int)f->i));
			break;
		case TF_BOOL:
			jw_set(j, f->key, jw_ok(json_boolean(f->i)));
			break;
		case TF_REAL:
			jw_set(j, f->key, jw_ok(json_real(f->d)));
			break;
		case TF_NULL:
			jw_set(j, f->key, jw_ok(json_null()));
			break;
		}
	}
	return j;
}

static int
by_id(const void *a, const void *b)
{
	const struct unit *ua = &T->units.v[*(const int *)a];
	const struct unit *ub = &T->units.v[*(const int *)b];

	return strcmp(ua->id, ub->id);
}

/*
 * The result is written as it is built, one member or array element at a
 * time, so that a large turn never holds the whole document in memory.
 * Each piece is a small jansson value dumped with JSON_INDENT(2) and moved
 * right to its depth; the bytes are those a dump of the whole tree would
 * give (strings never hold a raw newline, so every newline is jansson's).
 */
/*
 * Writes the piece v at depth and releases it.  The turn holds v while it
 * is written, so that if writing fails the entry point's emit_release()
 * frees it (t_fail() does not come back here).
 */
static void
put(struct out *w, json_t *v, int depth)
{
	((struct arb_turn *)w->owner)->json = v;
	o_value(w, v, depth, true);
	emit_release(w->owner);
}

/* A member of the top object: ",\n  \"key\": value". */
static void
member(struct out *w, const char *key, json_t *v)
{
	o_str(w, ",\n  \"");
	o_str(w, key);
	o_str(w, "\": ");
	put(w, v, 1);
}

static void
open_array(struct out *w, const char *key)
{
	o_str(w, ",\n  \"");
	o_str(w, key);
	o_str(w, "\": [");
	w->first = true;
}

static void
element(struct out *w, json_t *v)
{
	o_str(w, w->first ? "\n    " : ",\n    ");
	w->first = false;
	put(w, v, 2);
}

static void
close_array(struct out *w)
{
	o_str(w, w->first ? "]" : "\n  ]");
}

/*
 * The core's parts of the result are written as they are made, member by
 * member, with no jansson value built for them: a struct ob is an object
 * or array open at its depth.  A rule system's own members still come as
 * a jansson object (its hooks write through emit_set_*), written inline
 * by ob_members().  The bytes are those a dump of the whole tree gives.
 */
struct ob {
	struct out	*w;
	int		 depth;
	bool		 any;		/* a member or element is written */
	char		 close;
};

static void
ob_open(struct ob *o, struct out *w, int depth, char open)
{
	o->w = w;
	o->depth = depth;
	o->any = false;
	o->close = open == '{' ? '}' : ']';
	o_put(w, &open, 1);
}

/* The next element's place. */
static void
ob_next(struct ob *o)
{
	if (o->any)
		o_put(o->w, ",", 1);
	o->any = true;
	o_indent(o->w, o->depth + 1);
}

static void
ob_close(struct ob *o)
{
	if (o->any)
		o_indent(o->w, o->depth);
	o_put(o->w, &o->close, 1);
}

static void
ob_key(struct ob *o, const char *key)
{
	o_key(o->w, o->any, o->depth + 1, key);
	o->any = true;
}

static void
o_text(struct out *w, const char *s)
{
	o_string(w, s, strlen(s));
}

static void
ob_str(struct ob *o, const char *key, const char *s)
{
	ob_key(o, key);
	o_text(o->w, s);
}

static void
ob_int(struct ob *o, const char *key, long long v)
{
	ob_key(o, key);
	o_int(o->w, v);
}

static void
o_cell(struct out *w, int cell)
{
	char	 buf[32];

	o_text(w, board_label(&((struct arb_turn *)w->owner)->board, cell,
	    buf));
}

static void
ob_cell(struct ob *o, const char *key, int cell)
{
	ob_key(o, key);
	o_cell(o->w, cell);
}

/* A player's name, or null for nobody (-1). */
static void
ob_player(struct ob *o, const char *key, long p)
{
	struct arb_turn	*t = o->w->owner;

	ob_key(o, key);
	if (p < 0)
		o_put(o->w, "null", 4);
	else
		o_text(o->w, t->players.v[p].name);
}

static void
ob_units(struct ob *o, const char *key, const int *units, int n)
{
	struct arb_turn	*t = o->w->owner;
	struct ob	 a;
	int		 i;

	ob_key(o, key);
	ob_open(&a, o->w, o->depth + 1, '[');
	for (i = 0; i < n; i++) {
		ob_next(&a);
		o_text(o->w, t->units.v[units[i]].id);
	}
	ob_close(&a);
}

/* The order that made a change: its id, which is unique only in its
 * file, and its player. */
static void
ob_order(struct ob *o, int order)
{
	struct arb_turn		*t = o->w->owner;
	const struct order	*od = &t->orders.v[order];

	ob_str(o, "order", od->id);
	ob_str(o, "order_player", t->players.v[od->player].name);
}

/* A pose, as emit_set_pose() sets one. */
static void
ob_pose(struct ob *o, const char *key, const struct pose *p)
{
	struct ob	 j;

	ob_key(o, key);
	ob_open(&j, o->w, o->depth + 1, '{');
	ob_key(&j, "x");
	o_real(o->w, geom_round(p->x));
	ob_key(&j, "y");
	o_real(o->w, geom_round(p->y));
	ob_key(&j, "facing");
	o_real(o->w, geom_norm360(geom_round(p->facing)));
	ob_close(&j);
}

/* The members of a rule system's object j, then j released.  The turn
 * holds j while it is written (see put()). */
static void
ob_members(struct ob *o, json_t *j)
{
	struct arb_turn	*t = o->w->owner;
	const char	*key;
	json_t		*v;

	t->json = j;
	json_object_foreach(j, key, v) {
		ob_key(o, key);
		o_value(o->w, v, o->depth + 1, true);
	}
	emit_release(t);
}

/* An element of a top-level array (open_array()): an object at depth 2. */
static void
ob_element(struct ob *o, struct out *w)
{
	o_str(w, w->first ? "\n    " : ",\n    ");
	w->first = false;
	ob_open(o, w, 2, '{');
}

static void
write_order(struct out *w, const struct order *o)
{
	struct arb_turn		*t = w->owner;
	const struct okind	*k = &t->rs->order_kinds[o->kind < 0 ? 0 :
				    o->kind];
	struct ob		 j, a;
	size_t			 i;

	ob_element(&j, w);
	ob_str(&j, "file", t->files.v[o->file].name);
	ob_int(&j, "index", o->index);
	ob_str(&j, "player", t->players.v[o->player].name);
	ob_str(&j, "id", o->id);
	/* An orders text's: the order as it was understood. */
	if (o->text != NULL)
		ob_str(&j, "text", o->text);
	/* An order that could not be read: what was understood of it, and
	 * the problem. */
	if (o->refused) {
		ob_key(&j, "kind");
		if (o->kind >= 0)
			o_text(w, k->key);
		else
			o_put(w, "null", 4);
		ob_units(&j, "units", o->units, o->nunits);
		ob_str(&j, "status", status_names[o->status]);
		ob_str(&j, "reason", reason_name(o->reason));
		ob_str(&j, "rule", o->rule);
		ob_str(&j, "message", o->msg);
		ob_close(&j);
		return;
	}
	ob_str(&j, "kind", k->key);
	ob_units(&j, "units", o->units, o->nunits);
	if (k->arg == OK_RULE)
		;	/* report_order writes what the order said */
	else if (k->arg == OK_PATH) {
		ob_key(&j, "path");
		ob_open(&a, w, 3, '[');
		for (i = 0; i < (size_t)o->ncells; i++) {
			ob_next(&a);
			o_cell(w, o->cells[i]);
		}
		ob_close(&a);
		/* A destination order: the path above was found from it. */
		if (o->has_to)
			ob_cell(&j, "to", o->to);
		/* Where a move that stopped short of the path's end
		 * stopped (the path's first cell: it did not move). */
		if (o->stop > 0 && o->stop <= o->ncells)
			ob_cell(&j, "stopped_at", o->cells[o->stop - 1]);
	} else
		ob_cell(&j, "target", o->cells[0]);
	ob_str(&j, "status", status_names[o->status]);
	ob_str(&j, "reason", reason_name(o->reason));
	if (o->rule != NULL)
		ob_str(&j, "rule", o->rule);
	ob_str(&j, "message", o->msg != NULL ? o->msg : "");
	for (i = 0; i < o->nums.n; i++)
		ob_int(&j, o->nums.v[i].key, o->nums.v[i].val);
	if (t->rs->report_order != NULL) {
		json_t	*r = jw_ok(json_object());

		t->json = r;
		t->rs->report_order(t, o, (struct jv *)r);
		ob_members(&j, r);
	}
	ob_close(&j);
}

static void
write_unit(struct out *w, int ui)
{
	struct arb_turn		*t = w->owner;
	const struct unit	*u = &t->units.v[ui];
	const struct ufield	*x = t->rs->unit_x;
	struct ob		 j;
	int			 k;

	ob_element(&j, w);
	ob_str(&j, "id", u->id);
	ob_str(&j, "player", t->players.v[u->player].name);
	ob_str(&j, "type", t->types.v[u->type].name);
	if (t->board.kind == BOARD_TABLE) {
		ob_pose(&j, "start", &u->pose0);
		ob_pose(&j, "pose", &u->pose);
	} else {
		ob_cell(&j, "from", u->from);
		ob_cell(&j, "at", u->at);
	}
	ob_int(&j, "strength", u->gone ? 0 : u->strength);
	for (k = 0; x != NULL && x[k].name != NULL; k++)
		ob_int(&j, x[k].name, u->x[k]);
	for (k = 0; t->rs->unit_marks != NULL &&
	    t->rs->unit_marks[k] != NULL; k++)
		if (u->marks >> k & 1) {
			ob_key(&j, t->rs->unit_marks[k]);
			o_put(w, "true", 4);
		}
	if (t->rs->save_unit != NULL) {
		json_t	*r = jw_ok(json_object());

		t->json = r;
		t->rs->save_unit(t, ui, (struct jv *)r, false);
		ob_members(&j, r);
	}
	ob_str(&j, "status", u->gone ? "eliminated" : u->left ?
	    "left_world" : u->moved ? "moved" : u->named ? "stayed" :
	    "holding");
	ob_close(&j);
}

static void
changes(struct out *w, const char *key, const struct ochange *v, size_t n,
    bool players)
{
	struct ob	 j;
	size_t		 i;

	open_array(w, key);
	for (i = 0; i < n; i++) {
		ob_element(&j, w);
		ob_cell(&j, "cell", v[i].cell);
		if (players) {
			ob_player(&j, "from", v[i].from);
			ob_player(&j, "to", v[i].to);
		} else {
			ob_int(&j, "from", v[i].from);
			ob_int(&j, "to", v[i].to);
		}
		ob_str(&j, "why", v[i].why);
		if (v[i].order >= 0)
			ob_order(&j, v[i].order);
		ob_close(&j);
	}
	close_array(w);
}

/* Where a rule system counts forces in cells: every cell as it ends. */
static void
cells(struct out *w)
{
	struct arb_turn	*t = w->owner;
	struct board	*b = &t->board;
	const struct ufield *cx = t->rs->cell_x;
	struct ob	 j, a;
	int		 c, k;

	open_array(w, "cells");
	for (c = 0; c < b->ncells; c++) {
		const struct cell *cl = &b->cells[c];

		ob_element(&j, w);
		ob_cell(&j, "cell", c);
		ob_player(&j, "owner", cl->owner);
		for (k = 0; cx[k].name != NULL; k++)
			ob_int(&j, cx[k].name, b->cx[k][c]);
		ob_int(&j, "loyalty", cl->loyalty);
		ob_key(&j, "features");
		ob_open(&a, w, 3, '[');
		for (k = 0; k < b->nfeatures; k++)
			if (cl->features >> k & 1) {
				ob_next(&a);
				o_text(w, b->features[k]);
			}
		ob_close(&a);
		ob_close(&j);
	}
	close_array(w);
}

/* Cell features as an array of names (the next map). */
static json_t *
features(struct arb_turn *t, uint32_t f)
{
	json_t	*a = jw_ok(json_array());
	int	 k;

	for (k = 0; k < t->board.nfeatures; k++)
		if (f >> k & 1)
			jw_add(a, str(t->board.features[k]));
	return a;
}

/* A player's forces in cells: at the start, lost, at the end. */
static void
holdings(struct arb_turn *t, json_t *j, int p)
{
	struct board	*b = &t->board;
	const char	*name = t->rs->cell_x[0].name;
	long		 before = 0, after = 0, lost = 0, gained = 0;
	size_t		 i;
	int		 c;
	char		 key[64];

	for (c = 0; c < b->ncells; c++) {
		if (b->owner0[c] == p)
			before += b->cx0[0][c];
		if (b->cells[c].owner == p)
			after += b->cx[0][c];
	}
	for (i = 0; i < t->losses.n; i++)
		if (t->losses.v[i].player == p && t->losses.v[i].unit < 0)
			lost += t->losses.v[i].strength;
	for (i = 0; i < t->gains.n; i++)
		if (t->gains.v[i].player == p)
			gained += t->gains.v[i].strength;
	jw_set(j, name, num(before));
	snprintf(key, sizeof(key), "%s_lost", name);
	jw_set(j, key, num(lost));
	snprintf(key, sizeof(key), "%s_gained", name);
	jw_set(j, key, num(gained));
	snprintf(key, sizeof(key), "%s_left", name);
	jw_set(j, key, num(after));
}

static int
by_file(const void *a, const void *b)
{
	return file_cmp(T, *(const int *)a, *(const int *)b);
}

static void
ob_sha(struct ob *o, const unsigned char *sha)
{
	ob_str(o, "sha256", fair_hexstr(o->w->owner, sha));
}

/*
 * The evidence: every input file with the SHA-256 of its text as read,
 * the map first, then the orders files, each with what became of it and
 * its problems, in an order that does not depend on the command line's
 * (file_cmp()), then the rolls.
 */
static void
emit_files(struct arb_turn *t, struct out *w)
{
	int		*idx = t_alloc(t, (t->files.n + 1) * sizeof(int));
	struct ob	 j, a, p;
	size_t		 i, k;

	for (i = 0; i < t->files.n; i++)
		idx[i] = (int)i;
	qsort(idx, t->files.n, sizeof(int), by_file);
	open_array(w, "files");
	ob_element(&j, w);
	ob_str(&j, "file", t->mapfile);
	ob_sha(&j, t->mapsha);
	ob_close(&j);
	for (i = 0; i < t->files.n; i++) {
		const struct ofile *f = &t->files.v[idx[i]];

		ob_element(&j, w);
		ob_str(&j, "file", f->name);
		ob_sha(&j, f->sha256);
		if (f->text)
			ob_str(&j, "form", "text");
		if (f->mail) {
			/* A mail: its header, and the part read. */
			ob_key(&j, "mail");
			ob_open(&a, w, 3, '{');
			ob_str(&a, "message_id", f->mail_id);
			ob_str(&a, "from", f->mail_from);
			ob_str(&a, "date", f->mail_date);
			if (f->mail_part != NULL)
				ob_str(&a, "part", f->mail_part);
			ob_close(&a);
		}
		ob_player(&j, "player", f->player);
		ob_str(&j, "status", f->refused ? "refused" : "read");
		ob_key(&j, "problems");
		ob_open(&a, w, 3, '[');
		for (k = 0; k < t->problems.n; k++) {
			const struct problem *pr = &t->problems.v[k];

			if (pr->file != idx[i])
				continue;
			ob_next(&a);
			ob_open(&p, w, 4, '{');
			ob_str(&p, "reason", reason_name(pr->reason));
			ob_int(&p, "line", pr->line);
			ob_int(&p, "column", pr->column);
			ob_str(&p, "pointer", pr->pointer);
			ob_str(&p, "message", pr->msg);
			ob_close(&p);
		}
		ob_close(&a);
		ob_close(&j);
	}
	if (t->rollsfile != NULL) {
		ob_element(&j, w);
		ob_str(&j, "file", t->rollsfile);
		ob_sha(&j, t->rollssha);
		ob_close(&j);
	}
	close_array(w);
}

/* Where the dice came from, and every roll. */
static json_t *
dice_json(struct arb_turn *t)
{
	json_t	*j = t->json = jw_ok(json_object()), *a;
	const char *c;
	size_t	 i;

	if (t->dsrc == DS_SECRET)
		jw_set(j, "source", str("secret"));
	else if (t->dsrc == DS_ROLLS)
		jw_set(j, "source", str("rolls"));
	if (t->dsrc != DS_ROLLS) {
		jw_set(j, "seed", jw_ok(json_integer((json_int_t)t->seed)));
		if (t->seed >= SEED_EXACT)
			jw_set(j, "seed_text", str(t_printf(t, "%llu",
			    (unsigned long long)t->seed)));
	}
	if (t->committed && fair_umpires(t)) {
		jw_set(j, "commitment", str(fair_hexstr(t, t->commitment)));
		jw_set(j, "reveal", str(fair_hexstr(t, t->reveal)));
	}
	if ((c = fair_next_commitment(t)) != NULL)
		jw_set(j, "next_commitment", str(c));
	if (t->dsrc == DS_ROLLS) {
		jw_set(j, "rolls", str(t->rollsfile));
		jw_set(j, "rolls_given", num((long)t->nrolls));
	}
	a = jw_ok(json_array());
	for (i = 0; i < t->draws.n; i++) {
		json_t *d = jw_ok(json_object());

		jw_set(d, "sides", num(t->draws.v[i].sides));
		jw_set(d, "value", num(t->draws.v[i].value));
		jw_set(d, "why", str(t->draws.v[i].why));
		if (t->draws.v[i].decided != NULL)
			jw_set(d, "decided", str(t->draws.v[i].decided));
		jw_add(a, d);
	}
	jw_set(j, "draws", a);
	return j;
}

void
emit_result(struct arb_turn *t, int flags, FILE *fp)
{
	const char *const *res = t->rs->player_res;
	const struct ufield *cx = t->rs->cell_x;
	struct out	*w0 = t_alloc(t, sizeof(*w0));
	struct ob	 ob;
	json_t		*j, *p;
	int		*idx;
	size_t		 i;
	int		 k;

	begin(t);
	w0->m = &t->mem;
	w0->owner = t;
	w0->fp = fp;
#define w (*w0)
	o_str(&w, "{\n  \"arbiter\": 1");
	member(&w, "ruleset", str(t->rs->name));
	/* What made the ruling: the program, and its rulings' version. */
	member(&w, "program", str("arbiter " ARB_VERSION));
	member(&w, "rulings", str(t->rs->rulings));
	member(&w, "turn", num(t->number));
	if (fair_seed_shown(t)) {
		member(&w, "seed", jw_ok(json_integer((json_int_t)t->seed)));
		if (t->seed >= SEED_EXACT)
			member(&w, "seed_text", str(t_printf(t, "%llu",
			    (unsigned long long)t->seed)));
	}
	if (t->flags & ARB_CHECK) {
		member(&w, "check", jw_ok(json_true()));
		/* What a check before the deadline cannot know. */
		member(&w, "assumed", str("the orders given are judged one "
		    "after another as the turn would take them; the orders of "
		    "players whose files were not given are not known, so "
		    "their units are taken to hold, though those who act "
		    "earlier may move first in the turn itself"));
	}
	j = jw_ok(json_object());
	jw_set(j, "orders", num(t->refused_orders));
	jw_set(j, "files", num(t->refused_files));
	member(&w, "refused", j);
	emit_files(t, &w);
	open_array(&w, "orders");
	for (i = 0; i < t->sequence.n; i++)
		write_order(&w, &t->orders.v[t->sequence.v[i]]);
	close_array(&w);
	if (!(t->flags & ARB_CHECK)) {
		open_array(&w, "attacks");
		for (i = 0; i < t->attacks.n; i++) {
			const struct attack *at = &t->attacks.v[i];
			const struct order *o = &t->orders.v[at->order];

			ob_element(&ob, &w);
			ob_str(&ob, "order", o->id);
			ob_str(&ob, "player", t->players.v[o->player].name);
			ob_units(&ob, "units", o->units, o->nunits);
			ob_cell(&ob, "from", at->from);
			ob_cell(&ob, "target", at->target);
			ob_units(&ob, "defenders", at->defenders,
			    at->ndefenders);
			ob_close(&ob);
		}
		close_array(&w);
		idx = t_alloc(t, t->units.n * sizeof(int) + 1);
		for (i = 0; i < t->units.n; i++)
			idx[i] = (int)i;
		qsort(idx, t->units.n, sizeof(int), by_id);
		open_array(&w, "units");
		for (i = 0; i < t->units.n; i++)
			write_unit(&w, idx[i]);
		close_array(&w);
		open_array(&w, "losses");
		for (i = 0; i < t->losses.n; i++) {
			const struct loss *l = &t->losses.v[i];

			ob_element(&ob, &w);
			if (l->unit >= 0)
				ob_str(&ob, "unit", t->units.v[l->unit].id);
			ob_str(&ob, "player", t->players.v[l->player].name);
			if (l->step > 0)
				ob_int(&ob, "step", l->step);
			if (l->at >= 0)
				ob_cell(&ob, "at", l->at);
			if (l->posed)
				ob_pose(&ob, "pose", &l->pose);
			if (l->target >= 0)
				ob_cell(&ob, "target", l->target);
			ob_int(&ob, l->unit >= 0 ? "strength" : cx[0].name,
			    l->strength);
			ob_str(&ob, "cause", l->cause);
			if (l->order >= 0)
				ob_order(&ob, l->order);
			ob_close(&ob);
		}
		close_array(&w);
		changes(&w, "ownership", t->ownership.v, t->ownership.n, true);
		changes(&w, "loyalty", t->loyalty.v, t->loyalty.n, false);
		if (cx != NULL) {
			cells(&w);
			open_array(&w, "destroyed");
			for (i = 0; i < t->destroyed.n; i++) {
				const struct destroyed *d = &t->destroyed.v[i];

				ob_element(&ob, &w);
				ob_cell(&ob, "cell", d->cell);
				ob_str(&ob, "feature",
				    t->board.features[d->feature]);
				if (d->order >= 0)
					ob_order(&ob, d->order);
				ob_close(&ob);
			}
			close_array(&w);
			open_array(&w, "gains");
			for (i = 0; i < t->gains.n; i++) {
				const struct loss *g = &t->gains.v[i];

				ob_element(&ob, &w);
				ob_str(&ob, "player",
				    t->players.v[g->player].name);
				ob_cell(&ob, "at", g->at);
				ob_int(&ob, cx[0].name, g->strength);
				ob_str(&ob, "cause", g->cause);
				ob_close(&ob);
			}
			close_array(&w);
		}
		if (t->rs->report != NULL) {
			const char	*key;
			json_t		*v;

			j = t->json = jw_ok(json_object());
			t->rs->report(t, (struct jv *)j);
			json_object_foreach(j, key, v) {
				o_str(&w, ",\n  \"");
				o_str(&w, key);
				o_str(&w, "\": ");
				o_value(&w, v, 1, true);
			}
			emit_release(t);
		}
		/* Each piece is held (t->json) from the start, so that a
		 * failure while it is built drops it too. */
		p = t->json = jw_ok(json_object());
		for (i = 0; i < t->players.n; i++) {
			const struct player *pl = &t->players.v[i];

			j = jw_ok(json_object());
			if (cx != NULL)
				holdings(t, j, (int)i);
			for (k = 0; res != NULL && res[k] != NULL; k++) {
				char key[64];

				jw_set(j, res[k], num(pl->res0[k]));
				snprintf(key, sizeof(key), "%s_spent", res[k]);
				jw_set(j, key, num(pl->res0[k] - pl->res[k]));
				snprintf(key, sizeof(key), "%s_left", res[k]);
				jw_set(j, key, num(pl->res[k]));
			}
			jw_set(p, pl->name, j);
		}
		member(&w, "players", p);
		member(&w, "dice", dice_json(t));
	}
	if (flags & ARB_RESULT_TRACE) {
		open_array(&w, "trace");
		for (i = 0; i < t->trace.n; i++)
			element(&w, event_json(t, &t->trace.v[i]));
		close_array(&w);
	}
	o_str(&w, "\n}\n");
	o_flush(&w);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
	end(t);
#undef w
}

/*
 * A value of the text trace: bare when it is a plain word, else quoted
 * with JSON's escapes, so that one event is always one line.
 */
static void
text_value(FILE *fp, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= ' ' || *p == '"' || *p == '\\' || *p == 127)
			break;
	/* "-" is quoted: bare, it is no value (TF_NULL). */
	if (*p == '\0' && s[0] != '\0' && strcmp(s, "-") != 0) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < ' ' || *p == 127)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

void
emit_trace(struct arb_turn *t, int text, FILE *fp)
{
	size_t	 i;
	int	 k;
	char	 buf[32];

	begin(t);
	if (!text) {
		struct out	*w = t_alloc(t, sizeof(*w));

		w->m = &t->mem;
		w->owner = t;
		w->fp = fp;
		for (i = 0; i < t->trace.n; i++) {
			if (!view_event(t, &t->trace.v[i]))	/* display.c */
				continue;
			t->json = event_json(t, &t->trace.v[i]);
			o_value(w, t->json, 0, false);
			o_put(w, "\n", 1);
			emit_release(t);
		}
		o_flush(w);
		if (ferror(fp))
			jw_fail(&t->mem, fp, errno);
		end(t);
		return;
	}
	for (i = 0; i < t->trace.n; i++) {
		const struct tevent *te = &t->trace.v[i];

		if (!view_event(t, te))	/* display.c */
			continue;
		/* "step: order=1 from=0304 to=0404 cost=2" */
		fprintf(fp, "%s:", te->f[0].s);
		for (k = 1; k < te->nf; k++) {
			const struct tfield *f = &te->f[k];

			if (f->type == TF_INT)
				fprintf(fp, " %s=%ld", f->key, f->i);
			else if (f->type == TF_BOOL)
				fprintf(fp, " %s=%s", f->key, f->i ? "yes" :
				    "no");
			else if (f->type == TF_REAL)
				fprintf(fp, " %s=%.15g", f->key, f->d);
			else if (f->type == TF_NULL)
				fprintf(fp, " %s=-", f->key);
			else {
				fprintf(fp, " %s=", f->key);
				text_value(fp, f->type == TF_CELL ?
				    board_label(&t->board, (int)f->i, buf) :
				    f->s);
			}
		}
		if (fputc('\n', fp) == EOF || ferror(fp))
			jw_fail(&t->mem, fp, errno);
	}
	end(t);
}

/*
 * The next turn's map: what the map said, with the turn's outcome in it.
 * Terrain goes back in the form it came: rows with the legend where the map
 * had them, else cells.
 */
void
emit_next(struct arb_turn *t, FILE *fp)
{
	const char *const *res = t->rs->player_res;
	const struct ufield *x = t->rs->unit_x, *cx = t->rs->cell_x;
	struct board	*b = &t->board;
	json_t		*root, *j, *a, *c, *cells;
	const char	*nc;
	size_t		 i;
	int		 k, ch;
	char		 legend_of[256];
	char		 key[2] = { 0, 0 };

	begin(t);
	memset(legend_of, 0, sizeof(legend_of));
	root = t->json = jw_ok(json_object());
	jw_set(root, "arbiter", num(1));
	jw_set(root, "ruleset", str(t->rs->name));
	if (t->game != NULL)
		jw_set(root, "game", str(t->game));
	/* Checked before anything is written (arb_turn_write_next). */
	jw_set(root, "turn", num(t->number + 1));
	/* With the key, the next map commits to its dice (and has no
	 * seed); else seeds go round: the next after the largest a map may
	 * give is 0. */
	if ((nc = fair_next_commitment(t)) != NULL) {
		j = jw_ok(json_object());
		jw_set(j, "commitment", str(nc));
		jw_set(root, "dice", j);
	} else if (fair_umpires(t))
		t_fail(t, ARB_EDATA, "a replay from a revealed value cannot "
		    "write the next map without its commitment, which only "
		    "the key makes: give the result that records it");
	else
		jw_set(root, "seed", jw_ok(json_integer((json_int_t)(t->seed <
		    (uint64_t)LONG_MAX - 1 ? t->seed + 1 : 0))));
	j = jw_ok(json_object());
	if (b->kind == BOARD_GRAPH) {
		jw_set(j, "grid", str("graph"));
		a = jw_ok(json_array());
		for (i = 0; i < (size_t)b->ncells; i++)
			jw_add(a, cellv(t, (int)i));
		jw_set(j, "territories", a);
		a = jw_ok(json_array());
		for (i = 0; i < (size_t)b->ncells; i++)
			for (k = b->adj_at[i]; k < b->adj_at[i + 1]; k++) {
				json_t *e;

				if (b->adj[k] < (int)i)
					continue;
				e = jw_ok(json_array());
				jw_add(e, cellv(t, (int)i));
				jw_add(e, cellv(t, b->adj[k]));
				jw_add(a, e);
			}
		jw_set(j, "edges", a);
	} else if (b->kind == BOARD_TABLE) {
		jw_set(j, "grid", str("table"));
		jw_set(j, "width", jw_ok(json_real(b->tw)));
		jw_set(j, "height", jw_ok(json_real(b->th)));
		a = jw_ok(json_array());
		for (i = 0; i < b->pieces.n; i++) {
			json_t	*pc = jw_ok(json_object());
			json_t	*poly = jw_ok(json_array());

			jw_set(pc, "id", str(b->pieces.v[i].id));
			for (k = 0; k < b->pieces.v[i].n; k++) {
				json_t		*cj = jw_ok(json_array());
				struct pt	 q = b->pieces.v[i].p[k];

				jw_add(cj, jw_ok(json_real(q.x)));
				jw_add(cj, jw_ok(json_real(q.y)));
				jw_add(poly, cj);
			}
			jw_set(pc, "polygon", poly);
			jw_add(a, pc);
		}
		if (b->pieces.n > 0)
			jw_set(j, "pieces", a);
		else
			json_decref(a);
	} else {
		jw_set(j, "grid", str("hex"));
		jw_set(j, "cols", num(b->cols));
		jw_set(j, "rows", num(b->rows));
	}
	if (b->nterrains > 0)
		jw_set(j, "default", str(b->terrains[b->default_terrain]));
	if (b->odd_low)
		jw_set(j, "layout", str("odd-low"));
	if (b->has_rows) {
		json_t	*l = jw_ok(json_object());
		char	*row = t_alloc(t, (size_t)b->cols + 1);
		bool	 used[256] = { false };
		int	 r, col;

		for (ch = 33; ch < 127; ch++) {
			if (b->legend[ch] == NULL)
				continue;
			key[0] = (char)ch;
			jw_set(l, key, str(b->legend[ch]));
			for (k = 0; k < b->nterrains; k++)
				if (strcmp(b->terrains[k], b->legend[ch]) == 0 &&
				    legend_of[k] == 0)
					legend_of[k] = (char)ch;
		}
		/* A terrain no legend character stands for (a cell given
		 * one in "cells") gets a free character, so that every row
		 * is whole. */
		for (i = 0; i < (size_t)b->ncells; i++)
			used[b->cells[i].terrain] = true;
		for (k = 0, ch = 33; k < b->nterrains; k++) {
			if (legend_of[k] != 0 || !used[k])
				continue;
			while (ch < 127 && (b->legend[ch] != NULL ||
			    ch == '"' || ch == '\\'))
				ch++;
			if (ch == 127)
				break;
			key[0] = (char)ch;
			jw_set(l, key, str(b->terrains[k]));
			legend_of[k] = (char)ch++;
		}
		jw_set(j, "legend", l);
		a = jw_ok(json_array());
		for (r = 0; r < b->rows; r++) {
			for (col = 0; col < b->cols; col++) {
				int tr = b->cells[r * b->cols + col].terrain;

				row[col] = legend_of[tr] ? legend_of[tr] :
				    legend_of[b->default_terrain];
			}
			jw_add(a, str(row));
		}
		jw_set(j, "terrain", a);
	}
	jw_set(root, "board", j);
	cells = jw_ok(json_object());
	for (i = 0; i < (size_t)b->ncells; i++) {
		const struct cell *cl = &b->cells[i];
		bool	 terr = b->has_rows ? legend_of[cl->terrain] == 0 &&
		    cl->terrain != b->default_terrain :
		    cl->terrain != b->default_terrain;
		bool	 counted = false;
		char	 lbl[32];

		for (k = 0; cx != NULL && cx[k].name != NULL; k++)
			counted |= b->cx[k][i] != cx[k].dflt;
		if (!terr && cl->features == 0 && cl->owner < 0 &&
		    cl->loyalty == 0 && !counted)
			continue;
		c = jw_ok(json_object());
		if (terr)
			jw_set(c, "terrain", str(b->terrains[cl->terrain]));
		if (cl->features != 0)
			jw_set(c, "features", features(t, cl->features));
		if (cl->owner >= 0)
			jw_set(c, "owner", playerv(t, cl->owner));
		for (k = 0; cx != NULL && cx[k].name != NULL; k++)
			if (b->cx[k][i] != cx[k].dflt)
				jw_set(c, cx[k].name, num(b->cx[k][i]));
		if (cl->loyalty != 0)
			jw_set(c, "loyalty", num(cl->loyalty));
		jw_set(cells, board_label(b, (int)i, lbl), c);
	}
	if (b->kind != BOARD_TABLE)
		jw_set(root, "cells", cells);
	else
		json_decref(cells);
	if (b->sides.n > 0) {
		a = jw_ok(json_array());
		for (i = 0; i < b->sides.n; i++) {
			json_t	*s = jw_ok(json_object());
			json_t	*p = jw_ok(json_array());

			jw_add(p, cellv(t, b->sides.v[i].a));
			jw_add(p, cellv(t, b->sides.v[i].b));
			jw_set(s, "cells", p);
			jw_set(s, "feature", str(b->sidefeats.v[
			    b->sides.v[i].feature]));
			jw_add(a, s);
		}
		jw_set(root, "hexsides", a);
	}
	if (b->conns.n > 0) {
		a = jw_ok(json_array());
		for (i = 0; i < b->conns.n; i++) {
			json_t	*s = jw_ok(json_object());
			json_t	*p = jw_ok(json_array());

			jw_set(s, "kind", str(b->conns.v[i].kind));
			for (k = 0; k < b->conns.v[i].ncells; k++)
				jw_add(p, cellv(t, b->conns.v[i].cells[k]));
			jw_set(s, "cells", p);
			jw_add(a, s);
		}
		jw_set(root, "connections", a);
	}
	j = jw_ok(json_object());
	for (i = 0; i < t->players.n; i++) {
		const struct player *pl = &t->players.v[i];
		json_t	*pj = jw_ok(json_object());

		for (k = 0; res != NULL && res[k] != NULL; k++)
			jw_set(pj, res[k], num(t->rs->res_resets[k] ?
			    pl->res0[k] : pl->res[k]));
		if (pl->treaties != 0) {
			a = jw_ok(json_array());
			for (k = 0; k < (int)t->players.n; k++)
				if (pl->treaties >> k & 1)
					jw_add(a, str(t->players.v[k].name));
			jw_set(pj, "treaties", a);
		}
		if (pl->ndisc > 0) {
			a = jw_ok(json_array());
			for (k = 0; k < pl->ndisc; k++)
				jw_add(a, str(pl->disc[k]));
			jw_set(pj, "discoveries", a);
		}
		jw_set(j, pl->name, pj);
	}
	jw_set(root, "players", j);
	a = jw_ok(json_array());
	for (i = 0; i < t->players.n; i++)
		jw_add(a, str(t->players.v[t->turn_order[i]].name));
	jw_set(root, "turn_order", a);
	t->rs->save(t, (struct jv *)root);
	a = jw_ok(json_array());
	for (i = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];
		json_t *uj;

		if (u->gone || u->left)
			continue;
		uj = jw_ok(json_object());
		jw_set(uj, "id", str(u->id));
		jw_set(uj, "player", str(t->players.v[u->player].name));
		jw_set(uj, "type", str(t->types.v[u->type].name));
		if (b->kind == BOARD_TABLE) {
			/* Unrounded (15 digits): a pose rounded to 0.001
			 * could overlap what it touches by more than the
			 * tolerance, and the map would not load. */
			json_t	*pj = jw_ok(json_object());

			jw_set(pj, "x", jw_ok(json_real(u->pose.x)));
			jw_set(pj, "y", jw_ok(json_real(u->pose.y)));
			jw_set(pj, "facing", jw_ok(json_real(u->pose.facing)));
			jw_set(uj, "pose", pj);
		}
		else {
			jw_set(uj, "at", cellv(t, u->at));
			jw_set(uj, "strength", num(u->strength));
		}
		if (u->range >= 0)
			jw_set(uj, "range", num(u->range));
		for (k = 0; x != NULL && x[k].name != NULL; k++)
			if (u->x[k] != x[k].dflt || u->has_x[k])
				jw_set(uj, x[k].name, num(u->x[k]));
		for (k = 0; t->rs->unit_marks != NULL &&
		    t->rs->unit_marks[k] != NULL; k++)
			if ((u->marks & t->rs->marks_kept) >> k & 1)
				jw_set(uj, t->rs->unit_marks[k],
				    jw_ok(json_true()));
		if (t->rs->save_unit != NULL)
			t->rs->save_unit(t, (int)i, (struct jv *)uj, true);
		jw_add(a, uj);
	}
	jw_set(root, "units", a);
	emit_display(t, (struct jv *)root);	/* display.c */
	jw_dump(&t->mem, t, root, true, fp);
	end(t);
}


/* The cells found, by label (strcmp: the labels' bytes). */
static _Thread_local struct arb_turn *RQ;

static int
by_label(const void *a, const void *b)
{
	const struct reach_cell *x = a, *y = b;
	char	 bx[32], by[32];

	return strcmp(board_label(&RQ->board, x->cell, bx),
	    board_label(&RQ->board, y->cell, by));
}

/*
 * --reach (arbiter-result(5), Reach): the walk, its budget, and each cell
 * it can end in, by label, with its cost, the points left, the last step
 * of one cheapest path and its flags; then the steps of those paths, each
 * once, as a tree: its cell and the step it comes from.  Written as it is
 * made, the answer grows with the cells and the labels of their paths,
 * not with the paths' lengths times the cells (issue 26: every path whole
 * made gigabytes).  The steps are numbered as the cells meet them, each
 * path from its start, so the numbers depend on the paths alone.  As
 * text, one line per cell, with the cell its path comes from.
 */
void
emit_reach(struct arb_turn *t, int text, FILE *fp)
{
	struct reach_query *q = t->reachq;
	struct reach	*r = &q->r;
	const struct order *o = &q->o;
	struct out	*w0 = t_alloc(t, sizeof(*w0));
	struct ob	 ob;
	json_t		*a, *j;
	int		*path, *idx, *chain, *steps, i, k, l, n, nsteps = 0;
	size_t		 nlab = reach_labels(t);
	char		 buf[32];

	RQ = t;
	qsort(r->v, (size_t)r->n, sizeof(*r->v), by_label);
	RQ = NULL;
	if (text) {
		for (i = 0; i < r->n; i++) {
			const struct reach_cell *rc = &r->v[i];

			l = reach_parent(t, rc->label);
			fprintf(fp, "%s cost %ld left %ld steps %d from ",
			    board_label(&t->board, rc->cell, buf), rc->cost,
			    r->budget - rc->cost, rc->steps);
			fprintf(fp, "%s%s%s\n", board_label(&t->board, l < 0 ?
			    o->cells[0] : reach_cell(t, l), buf), rc->tested ?
			    " tested" : "", rc->stop ? " stop" : "");
		}
		if (r->truncated)
			fprintf(fp, "truncated: the search stopped at %ld "
			    "labels; a cell not listed costs at least as "
			    "much as the dearest listed\n", REACH_LABELS);
		if (ferror(fp))
			t_fail(t, ARB_EWRITE, "%s", strerror(errno));
		return;
	}
	/* idx[label]: its step's number, or -1; steps[k]: step k's label. */
	idx = t_alloc(t, (nlab + 1) * sizeof(int));
	for (k = 0; k < (int)nlab; k++)
		idx[k] = -1;
	steps = t_alloc(t, (nlab + 1) * sizeof(int));
	chain = t_alloc(t, ((size_t)MAXSTEPS + 2) * sizeof(int));
	path = t->rs->walk_report != NULL ? t_alloc(t, ((size_t)MAXSTEPS +
	    2) * sizeof(int)) : NULL;
	begin(t);
	w0->m = &t->mem;
	w0->owner = t;
	w0->fp = fp;
#define w (*w0)
	o_str(&w, "{\n  \"arbiter\": 1");
	member(&w, "ruleset", str(t->rs->name));
	member(&w, "turn", num(t->number));
	member(&w, "unit", str(q->unit));
	member(&w, "player", playerv(t, o->player));
	if (o->nunits > 0) {
		a = jw_ok(json_array());
		for (i = 0; i < o->nunits; i++)
			jw_add(a, str(t->units.v[o->units[i]].id));
		member(&w, "units", a);
	} else
		member(&w, t->rs->order_kinds[o->kind].count, num(o->n));
	member(&w, "at", cellv(t, o->cells[0]));
	member(&w, "orders_before", num(q->played));
	member(&w, "budget", num(r->budget));
	if (r->truncated)
		member(&w, "truncated", jw_ok(json_true()));
	open_array(&w, "cells");
	for (i = 0; i < r->n; i++) {
		const struct reach_cell *rc = &r->v[i];

		/* The labels of its path not yet numbered, last first (the
		 * first label is the start's: it is no step). */
		for (n = 0, l = rc->label; l >= 0 && reach_parent(t, l) >= 0 &&
		    idx[l] < 0; l = reach_parent(t, l))
			chain[n++] = l;
		while (n > 0) {
			l = chain[--n];
			idx[l] = nsteps;
			steps[nsteps++] = l;
		}
		ob_element(&ob, &w);
		ob_cell(&ob, "cell", rc->cell);
		ob_int(&ob, "cost", rc->cost);
		ob_int(&ob, "left", r->budget - rc->cost);
		ob_int(&ob, "step", idx[rc->label]);
		ob_key(&ob, "tested");
		o_str(&w, rc->tested ? "true" : "false");
		ob_key(&ob, "stop");
		o_str(&w, rc->stop ? "true" : "false");
		if (path != NULL) {
			path[0] = o->cells[0];
			reach_path(t, rc->label, path);
			t->json = j = jw_ok(json_object());
			t->rs->walk_report(t, o, path, rc->steps + 1,
			    (struct jv *)j);
			ob_members(&ob, j);
		}
		ob_close(&ob);
	}
	close_array(&w);
	open_array(&w, "steps");
	for (k = 0; k < nsteps; k++) {
		l = reach_parent(t, steps[k]);
		ob_element(&ob, &w);
		ob_cell(&ob, "cell", reach_cell(t, steps[k]));
		ob_int(&ob, "from", idx[l]);	/* the start's is -1 */
		ob_close(&ob);
	}
	close_array(&w);
	o_str(&w, "\n}\n");
	o_flush(&w);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
#undef w
	end(t);
}
