/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The model layer (model.h): the trace, a list of events, each a list of
 * fields, kept only when the run asked for it; the formats layer writes it
 * as JSON Lines or text.
 */
#include <stdarg.h>
#include <string.h>

#include "model/model.h"

void
trace_event(struct arb_turn *t, const char *ev, ...)
{
	struct tevent	*te;
	struct tfield	 f[24];
	const char	*key;
	va_list		 ap;
	int		 n = 0;

	if (!(t->flags & ARB_TRACE))
		return;
	f[n].key = "ev";
	f[n].type = TF_STR;
	f[n++].s = ev;
	va_start(ap, ev);
	while ((key = va_arg(ap, const char *)) != NULL && n < 24) {
		f[n].key = key;
		f[n].type = va_arg(ap, enum tftype);
		if (f[n].type == TF_ORDER) {
			const struct order *o;

			o = va_arg(ap, const struct order *);
			/* Order ids are unique only within a file: the
			 * player goes with the id. */
			f[n].type = TF_STR;
			f[n++].s = o->id;
			if (n == 24)
				break;
			f[n].key = strcmp(key, "order") == 0 ? "player" :
			    t_printf(t, "%s_player", key);
			f[n].type = TF_STR;
			f[n].s = t->players.v[o->player].name;
		} else if (f[n].type == TF_NULL)
			f[n].s = NULL;
		else if (f[n].type == TF_STR)
			f[n].s = t_strdup(t, va_arg(ap, const char *));
		else if (f[n].type == TF_REAL)
			f[n].d = geom_round(va_arg(ap, double));
		else
			f[n].i = va_arg(ap, long);
		n++;
	}
	va_end(ap);
	te = VPUSH(t, t->trace);
	te->nf = n;
	te->f = t_alloc(t, (size_t)n * sizeof(*f));
	memcpy(te->f, f, (size_t)n * sizeof(*f));
}

