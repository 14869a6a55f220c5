/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The rule systems' layer (rules.h): the registry, the only place outside
 * a rule system's own file that names it.
 */
#include <stddef.h>
#include <string.h>

#include "rules/rules.h"

static const struct ruleset *const registry[] = {
	&rules_aeonis,
	&rules_territory,
	&rules_morne,
	&rules_xconq,
	&rules_arcane,
	NULL
};

static const char *const registry_names[] = {
	"aeonis",
	"territory",
	"morne-plaine",
	"xconq",
	"arcane-legions",
	NULL
};

const struct ruleset *
rules_find(const char *name)
{
	size_t	 i;

	for (i = 0; registry[i] != NULL; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const char *const *
rules_names(void)
{
	return registry_names;
}
