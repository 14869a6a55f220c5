/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode's reading of one player's orders for the open turn
 * (arbiter-game(1)): each mail read as orders against the turn's map with
 * --check's rulings, the orders as understood (canonical text) and every
 * problem, for receive's acknowledgement, status and run's "every player
 * is ready".
 */
#define _GNU_SOURCE

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"
#include "gameint.h"
void
check_free(struct check *c)
{
	free(c->canon);
	free(c->report);
	memset(c, 0, sizeof(*c));
}

const char *
jget(const json_t *o, const char *key)
{
	const char	*s = gstr(o, key);

	return s != NULL ? s : "";
}

/* The check of an orders text for player, under the name file: 0, or an
 * exit status after a message (the map is bad, memory ran out). */
int
check_orders(const char *map, size_t maplen, const char *player,
    const char *file, const char *text, size_t len, struct check *c)
{
	struct arb_turn	*t;
	struct arb_error e;
	struct text	 out, res;
	json_t		*r = NULL, *f, *o, *pr, *oj;
	size_t		 i, k;
	int		 rc = 0;

	memset(c, 0, sizeof(*c));
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	arb_turn_threads(t, 1);
	arb_turn_echo(t, 1);
	if (arb_turn_load_map(t, "map.json", map, maplen, &e) != 0) {
		rc = report_map(t, &e);
		arb_turn_free(t);
		return rc;
	}
	if (!text_open(&out)) {
		arb_turn_free(t);
		return nomem();
	}
	if (arb_turn_write_orders(t, file, text, len, ARB_ORDERS_TEXT,
	    out.fp, &e) == 0 && text_close(&out))
		c->canon = out.s;
	else {
		if (out.fp != NULL)
			fclose(out.fp);
		free(out.s);
	}
	/* The turn the orders name (as JSON). */
	if (text_open(&out)) {
		if (arb_turn_write_orders(t, file, text, len, 0, out.fp,
		    &e) == 0 && text_close(&out)) {
			oj = json_loadb(out.s, out.len, 0, NULL);
			c->turn = jint(oj, "turn", 0);
			json_decref(oj);
		} else if (out.fp != NULL)
			fclose(out.fp);
		free(out.s);
	}
	if (arb_turn_load_orders(t, file, player, text, len, &e) != 0 ||
	    arb_turn_run(t, ARB_CHECK, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if (!text_open(&res)) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_write_result(t, 0, res.fp, &e) != 0 ||
	    !text_close(&res) || (r = json_loadb(res.s, res.len, 0,
	    NULL)) == NULL) {
		if (res.fp != NULL)
			fclose(res.fp);
		free(res.s);
		rc = nomem();
		goto out;
	}
	free(res.s);
	if (!text_open(&out)) {
		rc = nomem();
		goto out;
	}
	c->state = 2;
	json_array_foreach(json_object_get(r, "files"), i, f) {
		if (strcmp(jget(f, "file"), file) != 0)
			continue;
		if (strcmp(jget(f, "status"), "refused") == 0) {
			c->state = 1;
			fprintf(out.fp, "The whole mail was refused: your "
			    "units would hold.\n");
		}
		json_array_foreach(json_object_get(f, "problems"), k, pr) {
			if (k == 0)
				xsnprintf(c->reason, sizeof(c->reason), "%s",
				    jget(pr, "reason"));
			if (strcmp(jget(f, "status"), "refused") == 0) {
				fprintf(out.fp, "  problem: %s (%s)\n",
				    jget(pr, "message"), jget(pr, "reason"));
				c->problems++;
			}
		}
		if (strcmp(jget(f, "status"), "refused") != 0)
			c->reason[0] = '\0';
	}
	json_array_foreach(json_object_get(r, "orders"), k, o) {
		if (strcmp(jget(o, "file"), file) != 0)
			continue;
		c->orders++;
		fprintf(out.fp, "  order %s: %s", jget(o, "id"),
		    jget(o, "status"));
		if (strcmp(jget(o, "status"), "legal") != 0) {
			fprintf(out.fp, ", %s", jget(o, "reason"));
			c->problems++;
			c->state = 1;
		}
		if (json_is_string(json_object_get(o, "text")))
			fprintf(out.fp, "\n    as read: %s", jget(o, "text"));
		fprintf(out.fp, "\n    %s\n", jget(o, "message"));
	}
	if (!text_close(&out)) {
		free(out.s);
		rc = nomem();
		goto out;
	}
	c->report = out.s;
out:
	json_decref(r);
	arb_turn_free(t);
	return rc;
}

/* The open turn's folder, map and players with orders. */
int
read_map(struct game *g, char **map, size_t *len)
{
	char	 path[PATH_MAX], tn[32];

	game_turnname(g->turn, tn, sizeof(tn));
	xsnprintf(path, sizeof(path), "turns/%s/map.json", tn);
	if ((*map = readall(path, len)) == NULL) {
		fprintf(stderr, "%s: game: %s: %s\n", progname, path,
		    strerror(errno));
		return EXIT_NOINPUT;
	}
	return 0;
}

/* Each player's state for the open turn (struct check's), in states. */
int
player_states(struct game *g, int *states, int *problems)
{
	struct check	 ck;
	char		 path[PATH_MAX], file[PATH_MAX], tn[32], *map, *buf;
	size_t		 maplen, len;
	int		 i, rc;

	if ((rc = read_map(g, &map, &maplen)) != 0)
		return rc;
	game_turnname(g->turn, tn, sizeof(tn));
	for (i = 0; i < g->nplayers; i++) {
		states[i] = 0;
		problems[i] = 0;
		xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn,
		    player_name(g, i));
		if ((buf = readall(path, &len)) == NULL)
			continue;
		xsnprintf(file, sizeof(file), "orders/%s.eml",
		    player_name(g, i));
		rc = check_orders(map, maplen, player_name(g, i), file, buf,
		    len, &ck);
		free(buf);
		if (rc != 0) {
			free(map);
			return rc;
		}
		states[i] = ck.state;
		problems[i] = ck.problems;
		check_free(&ck);
	}
	free(map);
	return 0;
}
