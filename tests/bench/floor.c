/*
 * floor: the benchmark's yardstick.  Does what any adjudicator of the
 * turn must do at the least, with jansson alone: loads the map and the
 * order files, and writes a result of the same shape and about the same
 * size as arbiter's (every order echoed with a status and a message, every
 * unit with its place and strength, a claim of every destination, the
 * players' AP), indented the same.
 * For a territory turn it echoes the orders with their armies, writes a
 * loss for each and every territory as it ends.  It applies no rule.
 *
 *	floor OUT MAP ORDERS...
 *
 * The parse floor, the least any jansson-based tool can do: jansson
 * parses every input, all held at once, then BYTES bytes (arbiter's
 * result's size) are written to OUT in 64 KiB writes.
 *
 *	floor -b BYTES OUT MAP ORDERS...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static json_t *
load(const char *path)
{
	json_error_t	 je;
	json_t		*v = json_load_file(path, JSON_REJECT_DUPLICATES, &je);

	if (v == NULL) {
		fprintf(stderr, "floor: %s:%d:%d: %s\n", path, je.line,
		    je.column, je.text);
		return NULL;
	}
	return v;
}

static const char *
str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

/*
 * The territory result: every order echoed with its armies, a loss for
 * each, every territory as it ends, the players.
 */
static int
territory(json_t *map, json_t *root, int argc, char *argv[])
{
	json_t	*orders = json_array(), *losses = json_array();
	json_t	*cells = json_array(), *players = json_object(), *v;
	json_t	*cellmap = json_object_get(map, "cells");
	const char *key;
	size_t	 i;
	int	 f;

	for (f = 3; f < argc; f++) {
		json_t	*file = load(argv[f]), *list;

		if (file == NULL)
			return 65;
		list = json_object_get(file, "orders");
		for (i = 0; i < json_array_size(list); i++) {
			json_t	*o = json_array_get(list, i), *e;
			json_t	*path = json_object_get(o, "move");
			json_int_t n = json_integer_value(json_object_get(o,
			    "armies"));
			char	 msg[256];

			e = json_object();
			json_object_set_new(e, "file", json_string(argv[f]));
			json_object_set_new(e, "index", json_integer((int)i));
			json_object_set(e, "player",
			    json_object_get(file, "player"));
			json_object_set(e, "id", json_object_get(o, "id"));
			json_object_set_new(e, "kind", json_string("move"));
			json_object_set_new(e, "units", json_array());
			json_object_set(e, "path", path);
			json_object_set_new(e, "status", json_string("done"));
			json_object_set_new(e, "reason", json_string("ok"));
			json_object_set_new(e, "rule",
			    json_string("territory 2"));
			snprintf(msg, sizeof(msg), "%d armies from %s to %s: "
			    "%d arrived, %d lost", (int)n,
			    json_string_value(json_array_get(path, 0)),
			    json_string_value(json_array_get(path, 1)),
			    (int)n / 2, (int)n - (int)n / 2);
			json_object_set_new(e, "message", json_string(msg));
			json_object_set_new(e, "armies", json_integer(n));
			json_object_set_new(e, "arrived", json_integer(n / 2));
			json_object_set_new(e, "lost", json_integer(n - n / 2));
			json_array_append_new(orders, e);
			e = json_object();
			json_object_set(e, "player",
			    json_object_get(file, "player"));
			json_object_set_new(e, "step", json_integer(1));
			json_object_set(e, "at", json_array_get(path, 0));
			json_object_set(e, "target", json_array_get(path, 1));
			json_object_set_new(e, "armies", json_integer(n - n / 2));
			json_object_set_new(e, "cause", json_string("skirmish"));
			json_object_set(e, "order", json_object_get(o, "id"));
			json_array_append_new(losses, e);
		}
		json_decref(file);
	}
	v = json_object_get(json_object_get(map, "board"), "territories");
	for (i = 0; i < json_array_size(v); i++) {
		json_t	*name = json_array_get(v, i), *e = json_object();
		json_t	*c = json_object_get(cellmap, json_string_value(name));
		json_t	*x;

		json_object_set(e, "cell", name);
		x = json_object_get(c, "owner");
		json_object_set_new(e, "owner", x != NULL ? json_incref(x) :
		    json_null());
		x = json_object_get(c, "armies");
		json_object_set_new(e, "armies", x != NULL ? json_incref(x) :
		    json_integer(0));
		x = json_object_get(c, "loyalty");
		json_object_set_new(e, "loyalty", x != NULL ? json_incref(x) :
		    json_integer(0));
		x = json_object_get(c, "features");
		json_object_set_new(e, "features", x != NULL ? json_incref(x) :
		    json_array());
		json_array_append_new(cells, e);
	}
	json_object_set_new(root, "orders", orders);
	json_object_set_new(root, "attacks", json_array());
	json_object_set_new(root, "units", json_array());
	json_object_set_new(root, "losses", losses);
	json_object_set_new(root, "ownership", json_array());
	json_object_set_new(root, "loyalty", json_array());
	json_object_set_new(root, "cells", cells);
	json_object_foreach(json_object_get(map, "players"), key, v) {
		json_t *p = json_object();

		json_object_set_new(p, "armies", json_integer(0));
		json_object_set_new(p, "armies_lost", json_integer(0));
		json_object_set_new(p, "armies_gained", json_integer(0));
		json_object_set_new(p, "armies_left", json_integer(0));
		json_object_set_new(players, key, p);
	}
	json_object_set_new(root, "players", players);
	return 0;
}

static int
parse_floor(int argc, char *argv[])
{
	static char	 buf[65536];
	json_t		*held[4096];
	long long	 left;
	size_t		 n;
	int		 f, nheld = 0;
	FILE		*fp;

	if (argc < 5 || (left = atoll(argv[2])) < 0 || argc - 4 > 4096) {
		fprintf(stderr, "usage: floor -b BYTES OUT MAP ORDERS...\n");
		return 64;
	}
	for (f = 4; f < argc; f++)
		if ((held[nheld++] = load(argv[f])) == NULL)
			return 65;
	memset(buf, ' ', sizeof(buf));
	if ((fp = fopen(argv[3], "w")) == NULL) {
		perror(argv[3]);
		return 73;
	}
	for (; left > 0; left -= (long long)n) {
		n = left < (long long)sizeof(buf) ? (size_t)left : sizeof(buf);
		if (fwrite(buf, 1, n, fp) != n)
			return 73;
	}
	if (fclose(fp) != 0)
		return 73;
	while (nheld > 0)
		json_decref(held[--nheld]);
	return 0;
}

int
main(int argc, char *argv[])
{
	json_t		*map, *root, *orders, *own, *units, *players, *v;
	const char	*key;
	size_t		 i, j;
	int		 f;
	FILE		*fp;

	if (argc > 2 && strcmp(argv[1], "-b") == 0)
		return parse_floor(argc, argv);
	if (argc < 4) {
		fprintf(stderr, "usage: floor [-b bytes] OUT MAP ORDERS...\n");
		return 64;
	}
	if ((map = load(argv[2])) == NULL)
		return 65;
	root = json_object();
	json_object_set_new(root, "arbiter", json_integer(1));
	json_object_set(root, "ruleset", json_object_get(map, "ruleset"));
	json_object_set(root, "turn", json_object_get(map, "turn"));
	json_object_set(root, "seed", json_object_get(map, "seed"));
	if (strcmp(str(map, "ruleset"), "territory") == 0) {
		int rc = territory(map, root, argc, argv);

		if (rc != 0)
			return rc;
		goto write;
	}
	orders = json_array();
	own = json_array();
	for (f = 3; f < argc; f++) {
		json_t	*file = load(argv[f]), *list;

		if (file == NULL)
			return 65;
		list = json_object_get(file, "orders");
		for (i = 0; i < json_array_size(list); i++) {
			json_t	*o = json_array_get(list, i), *e;
			json_t	*path = json_object_get(o, "move");
			char	 msg[256];

			e = json_object();
			json_object_set_new(e, "file", json_string(argv[f]));
			json_object_set_new(e, "index", json_integer((int)i));
			json_object_set(e, "player",
			    json_object_get(file, "player"));
			json_object_set(e, "id", json_object_get(o, "id"));
			json_object_set_new(e, "kind", json_string("move"));
			json_object_set(e, "units", json_object_get(o, "units"));
			json_object_set(e, "path", path);
			json_object_set_new(e, "status", json_string("done"));
			json_object_set_new(e, "reason", json_string("ok"));
			json_object_set_new(e, "rule", json_string("aeonis 1"));
			snprintf(msg, sizeof(msg), "%s move %s to %s for %d AP "
			    "(%s plains 1)", json_string_value(json_array_get(
			    json_object_get(o, "units"), 0)),
			    json_string_value(json_array_get(path, 0)),
			    json_string_value(json_array_get(path,
			    json_array_size(path) - 1)),
			    (int)json_array_size(path) - 1,
			    json_string_value(json_array_get(path, 1)));
			json_object_set_new(e, "message", json_string(msg));
			json_object_set_new(e, "cost", json_integer(1));
			json_object_set_new(e, "ap_left", json_integer(999999));
			json_array_append_new(orders, e);
			e = json_object();
			json_object_set(e, "cell", json_array_get(path,
			    json_array_size(path) - 1));
			json_object_set_new(e, "from", json_null());
			json_object_set(e, "to", json_object_get(file, "player"));
			json_object_set_new(e, "why", json_string("claimed"));
			json_object_set(e, "order", json_object_get(o, "id"));
			json_array_append_new(own, e);
		}
		json_decref(file);
	}
	json_object_set_new(root, "orders", orders);
	json_object_set_new(root, "attacks", json_array());

	units = json_array();
	v = json_object_get(map, "units");
	for (j = 0; j < json_array_size(v); j++) {
		json_t	*u = json_array_get(v, j), *e = json_object();

		json_object_set(e, "id", json_object_get(u, "id"));
		json_object_set(e, "player", json_object_get(u, "player"));
		json_object_set(e, "type", json_object_get(u, "type"));
		json_object_set(e, "from", json_object_get(u, "at"));
		json_object_set(e, "at", json_object_get(u, "at"));
		json_object_set(e, "strength", json_object_get(u, "strength"));
		json_object_set_new(e, "desert_turns", json_integer(0));
		json_object_set_new(e, "status", json_string(
		    strcmp(str(u, "type"), "") != 0 ? "moved" : "holding"));
		json_array_append_new(units, e);
	}
	json_object_set_new(root, "units", units);
	json_object_set_new(root, "losses", json_array());
	json_object_set_new(root, "ownership", own);
	json_object_set_new(root, "loyalty", json_array());
	players = json_object();
	json_object_foreach(json_object_get(map, "players"), key, v) {
		json_t *p = json_object();

		json_object_set(p, "ap", json_object_get(v, "ap"));
		json_object_set_new(p, "ap_spent", json_integer(0));
		json_object_set(p, "ap_left", json_object_get(v, "ap"));
		json_object_set_new(players, key, p);
	}
	json_object_set_new(root, "players", players);
write:
	if ((fp = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 73;
	}
	if (json_dumpf(root, fp, JSON_INDENT(2)) != 0 || fputc('\n', fp) ==
	    EOF || fclose(fp) != 0) {
		perror(argv[1]);
		return 74;
	}
	json_decref(root);
	json_decref(map);
	return 0;
}
