/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The rule systems' layer (rules.h): the registry, the only place outside
 * a rule system's own file that names it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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

static bool
in_list(const char *const *l, const char *key)
{
	for (; l != NULL && *l != NULL; l++)
		if (strcmp(*l, key) == 0)
			return true;
	return false;
}

static bool
in_fields(const struct ufield *f, const char *key)
{
	for (; f != NULL && f->name != NULL; f++)
		if (strcmp(f->name, key) == 0)
			return true;
	return false;
}

/* Whether rs's maps have key anywhere a map names its own keys. */
static bool
has_key(const struct ruleset *rs, const char *key)
{
	int	 m;

	if (in_list(rs->map_keys, key) || in_list(rs->player_res, key) ||
	    in_list(rs->unit_keys, key) || in_fields(rs->unit_x, key) ||
	    in_fields(rs->cell_x, key))
		return true;
	for (m = 0; rs->unit_marks != NULL && rs->unit_marks[m] != NULL; m++)
		if ((rs->marks_in >> m & 1) &&
		    strcmp(rs->unit_marks[m], key) == 0)
			return true;
	return false;
}

bool
registry_key_elsewhere(const struct ruleset *rs, const char *key, char *buf,
    size_t size)
{
	const struct ruleset *has[sizeof(registry) / sizeof(registry[0])];
	size_t	 i, n = 0;

	buf[0] = '\0';
	for (i = 0; registry[i] != NULL; i++)
		if (registry[i] != rs && has_key(registry[i], key))
			has[n++] = registry[i];
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
		    i == 0 ? "" : i + 1 == n ? " and " : ", ", has[i]->name);
	return n > 0;
}
