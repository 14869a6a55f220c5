/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The command line's fair dice (arbiter(1), FAIR DICE): --commit gives a
 * map its commitment for its own turn, so that a game is fair from its
 * first turn; --rerun adjudicates a committed turn again from the value
 * its result revealed, without the key; --audit is a player's check of a
 * turn, in one command.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "arbiter.h"
#include "cli.h"

#define HASHLEN		32

/* 64 hex digits into 32 bytes: true when s is exactly that. */
static bool
unhex(const char *s, unsigned char *out)
{
	size_t	 i;

	if (s == NULL || strlen(s) != 2 * HASHLEN)
		return false;
	for (i = 0; i < HASHLEN; i++) {
		if (hexval(s[2 * i]) < 0 || hexval(s[2 * i + 1]) < 0)
			return false;
		out[i] = (unsigned char)(hexval(s[2 * i]) << 4 |
		    hexval(s[2 * i + 1]));
	}
	return true;
}

static void
tohex(const unsigned char *h, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t	 i;

	for (i = 0; i < HASHLEN; i++) {
		out[2 * i] = digits[h[i] >> 4];
		out[2 * i + 1] = digits[h[i] & 15];
	}
	out[2 * HASHLEN] = '\0';
}

/* The file as JSON (an object), or NULL after a message (*rc set). */
static json_t *
load_object(const char *path, const char *what, char **text, size_t *len,
    int *rc)
{
	json_error_t	 je;
	json_t		*v;

	if ((*text = slurp(path, len, rc)) == NULL)
		return NULL;
	*rc = 0;
	/* A key twice is refused: readers differ on which value holds. */
	if ((v = json_loadb(*text, *len, JSON_REJECT_DUPLICATES, &je)) ==
	    NULL) {
		fprintf(stderr, "%s: %s:%d:%d: not %s: %s\n", progname, path,
		    je.line, je.column, what, je.text);
		free(*text);
		*text = NULL;
		*rc = EXIT_DATA;
	}
	return v;
}

/*
 * The map with its commitment: its members in their order, without
 * "seed", "game" and "dice", with "game" before "turn" and "dice" after
 * it, as the next maps arbiter writes have them.
 */
/* Whether every real in v reads back the same written with p significant
 * digits. */
static bool
reals_keep(const json_t *v, int p)
{
	const char	*k;
	json_t		*m;
	size_t		 i;
	char		 buf[40];

	switch (json_typeof(v)) {
	case JSON_REAL:
		snprintf(buf, sizeof(buf), "%.*g", p, json_real_value(v));
		return strtod(buf, NULL) == json_real_value(v);
	case JSON_ARRAY:
		json_array_foreach(v, i, m)
			if (!reals_keep(m, p))
				return false;
		return true;
	case JSON_OBJECT:
		json_object_foreach((json_t *)v, k, m)
			if (!reals_keep(m, p))
				return false;
		return true;
	default:
		return true;
	}
}

/* The fewest significant digits (15 to 17) that write every real of v
 * exactly: 10.3 stays 10.3, and no real changes its value. */
static int
reals_digits(const json_t *v)
{
	int		 p;

	for (p = 15; p < 17 && !reals_keep(v, p); p++)
		continue;
	return p;
}

static json_t *
committed(const json_t *map, const char *game, const char *commitment)
{
	json_t		*out = json_object(), *d = json_object(), *v;
	const char	*key;
	bool		 turn = false;

	if (out == NULL || d == NULL ||
	    json_object_set_new(d, "commitment", json_string(commitment)))
		goto fail;
	json_object_foreach((json_t *)map, key, v) {
		if (strcmp(key, "seed") == 0 || strcmp(key, "game") == 0 ||
		    strcmp(key, "dice") == 0)
			continue;
		if (strcmp(key, "turn") == 0 &&
		    json_object_set_new(out, "game", json_string(game)) != 0)
			goto fail;
		if (json_object_set(out, key, v) != 0)
			goto fail;
		if (strcmp(key, "turn") == 0) {
			turn = true;
			if (json_object_set(out, "dice", d) != 0)
				goto fail;
		}
	}
	/* A map without "turn" (turn 1): the game and the dice last. */
	if (!turn && (json_object_set_new(out, "game", json_string(game)) !=
	    0 || json_object_set(out, "dice", d) != 0))
		goto fail;
	json_decref(d);
	return out;
fail:
	json_decref(d);
	json_decref(out);
	return NULL;
}

int
commit_map(const char *secret, const char *game, const char *path,
    const char *output)
{
	struct arb_turn	*t = NULL;
	struct arb_error e;
	unsigned char	 key[ARB_SECRET_LEN];
	json_t		*map = NULL, *out = NULL, *v;
	char		*text = NULL, *dump = NULL, hex[2 * HASHLEN + 1];
	size_t		 len;
	long		 turn;
	int		 rc = 0;

	if (secret == NULL) {
		fprintf(stderr, "%s: --commit needs the umpire's key "
		    "(--secret)\n", progname);
		return EXIT_USAGE;
	}
	if ((map = load_object(path, "a map: JSON", &text, &len, &rc)) ==
	    NULL)
		return rc;
	/* The map as it is must be a good map: every check arbiter makes. */
	if ((t = arb_turn_new()) == NULL) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_load_map(t, path, text, len, &e) != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	if (arb_turn_committed(t)) {
		fprintf(stderr, "%s: %s: the map commits to its dice already "
		    "(\"dice\")\n", progname, path);
		rc = EXIT_DATA;
		goto out;
	}
	arb_turn_free(t);
	t = NULL;
	if (game == NULL)
		game = json_string_value(json_object_get(map, "game"));
	if (game == NULL) {
		fprintf(stderr, "%s: %s: the map names no game: name it with "
		    "--game NAME (its dice are derived from the name)\n",
		    progname, path);
		rc = EXIT_USAGE;
		goto out;
	}
	v = json_object_get(map, "turn");
	turn = json_is_integer(v) ? (long)json_integer_value(v) : 1;
	no_dumps();
	if ((rc = read_secret(secret, key)) != 0)
		goto out;
	arb_commitment(key, game, turn, hex);
	if ((out = committed(map, game, hex)) == NULL ||
	    (dump = json_dumps(out, JSON_INDENT(2) |
	    JSON_REAL_PRECISION(reals_digits(out)))) == NULL) {
		wipe(key, sizeof(key));
		rc = nomem();
		goto out;
	}
	len = strlen(dump);
	dump[len++] = '\n';	/* in place of the NUL, which is not written */
	/* What is written must load with the key: the game is a good name
	 * and the commitment the key's. */
	if ((t = arb_turn_new()) == NULL) {
		wipe(key, sizeof(key));
		rc = nomem();
		goto out;
	}
	arb_turn_set_secret(t, key);
	wipe(key, sizeof(key));
	if (arb_turn_load_map(t, output != NULL ? output : "-", dump, len,
	    &e) != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	rc = write_bytes(output != NULL ? output : "-", dump, len);
out:
	if (t != NULL)
		arb_turn_free(t);
	free(dump);
	json_decref(out);
	json_decref(map);
	free(text);
	return rc;
}

/* R and the next commitment that a result records (one may be missing,
 * not both), or false after a message. */
static bool
revealed(const json_t *res, const char *path, unsigned char *r,
    bool *has_r, unsigned char *next, bool *has_next)
{
	const json_t	*d = json_object_get(res, "dice");
	const char	*s;

	s = json_string_value(json_object_get(d, "reveal"));
	*has_r = s != NULL;
	if (s != NULL && !unhex(s, r)) {
		fprintf(stderr, "%s: %s: bad /dice/reveal: expected 64 "
		    "hexadecimal digits\n", progname, path);
		return false;
	}
	s = json_string_value(json_object_get(d, "next_commitment"));
	*has_next = s != NULL;
	if (s != NULL && !unhex(s, next)) {
		fprintf(stderr, "%s: %s: bad /dice/next_commitment: expected "
		    "64 hexadecimal digits\n", progname, path);
		return false;
	}
	if (!*has_r && !*has_next) {
		fprintf(stderr, "%s: %s: nothing to replay from: the result "
		    "neither reveals a committed turn's value (/dice/reveal) "
		    "nor records a next map's commitment "
		    "(/dice/next_commitment); it was not made with the "
		    "umpire's key\n", progname, path);
		return false;
	}
	return true;
}

int
replay_from(struct arb_turn *t, const char *path)
{
	unsigned char	 r[HASHLEN], next[HASHLEN];
	json_t		*res;
	char		*text;
	size_t		 len;
	bool		 has_r, has_next;
	int		 rc = 0;

	if ((res = load_object(path, "a result: JSON", &text, &len, &rc)) ==
	    NULL)
		return rc;
	if (!revealed(res, path, r, &has_r, next, &has_next))
		rc = EXIT_DATA;
	else
		arb_turn_set_reveal(t, has_r ? r : NULL, has_next ? next :
		    NULL);
	json_decref(res);
	free(text);
	return rc;
}

/*
 * --audit.  Each check is a line, "ok WHAT" or "not ok WHAT: WHY", in
 * this order; the exit status is the first failed check's (arbiter(1),
 * FAIR DICE):
 */
enum audit_status {
	AUDIT_REPLAY = 1,	/* the replay is not the result */
	AUDIT_FILE = 2,		/* a file is not the one the result records */
	AUDIT_REVEAL = 3,	/* R does not hash to the commitment */
	AUDIT_SEED = 4,		/* the seed is not the one R gives */
	AUDIT_UNFAIR = 5	/* not committed, or no next commitment */
};

struct audit {
	int	 passed, failed, status;
};

static void
verdict(struct audit *a, int status, const char *what, const char *why)
{
	if (why == NULL) {
		printf("ok %s\n", what);
		a->passed++;
	} else {
		printf("not ok %s: %s\n", what, why);
		a->failed++;
		if (a->status == 0)
			a->status = status;
	}
	fflush(stdout);
}

/* An input file: its name as given, the player it is bound to, its text
 * and SHA-256, and the name the result records for it. */
struct input {
	const char	*path, *player, *recorded;
	char		*text;
	size_t		 len;
	char		 sha[2 * HASHLEN + 1];
};

static int
read_input(struct input *in)
{
	unsigned char	 h[HASHLEN];
	int		 rc = 0;

	if ((in->text = slurp(in->path, &in->len, &rc)) == NULL)
		return rc;
	crypto_hash_sha256(h, (const unsigned char *)in->text, in->len);
	tohex(h, in->sha);
	return 0;
}

/*
 * Which entry of the result's files is in: the map only the first, an
 * orders file only an orders entry (one with a "status"), the rolls only
 * the entry without; each entry one input's only, the first unused one
 * with in's SHA-256, so that files with the same text pair in their
 * order.  The entry's index, or -1.
 */
static long
match_entry(const json_t *files, const struct input *in, int kind,
    bool *used)
{
	const json_t	*f;
	const char	*s;
	size_t		 k;

	json_array_foreach(files, k, f) {
		if (used[k] || (kind == 0) != (k == 0))
			continue;
		if (kind != 0 && (kind == 1) !=
		    (json_object_get(f, "status") != NULL))
			continue;
		s = json_string_value(json_object_get(f, "sha256"));
		if (s != NULL && strcmp(s, in->sha) == 0) {
			used[k] = true;
			return (long)k;
		}
	}
	return -1;
}

/* Why in matches no entry: its digest is the map's, or an entry's that
 * another input took, or none. */
static void
why_unmatched(const json_t *files, const struct input *in, int kind,
    char *why, size_t size)
{
	const json_t	*f;
	const char	*s;
	size_t		 k;

	json_array_foreach(files, k, f) {
		s = json_string_value(json_object_get(f, "sha256"));
		if (s == NULL || strcmp(s, in->sha) != 0)
			continue;
		if (k == 0 && kind != 0)
			snprintf(why, size, "it is the map, given again as "
			    "%s", kind == 1 ? "orders" : "the rolls");
		else if (k == 0 || kind == 0)
			snprintf(why, size, "it is an orders or rolls file, "
			    "given as the map (the map comes first)");
		else
			snprintf(why, size, "the result records it once "
			    "(%s), and it is given again",
			    json_string_value(json_object_get(f, "file")));
		return;
	}
	snprintf(why, size, "its SHA-256 is %.16s..., which the result "
	    "records for no %s: it was changed, or it is another turn's",
	    in->sha, kind == 0 ? "map" : "file");
}

/* The turn adjudicated again from the files under their recorded names:
 * its result in *out (free it), or an exit status after a message. */
static int
replay(struct input *in, int n, const unsigned char *r,
    const unsigned char *next, bool committed, unsigned long long seed,
    struct input *rolls, bool trace, char **out, size_t *outlen)
{
	struct arb_turn	*t;
	struct arb_error e;
	FILE		*fp;
	int		 i, rc = 0;

	*out = NULL;
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	arb_turn_threads(t, 1);
	if (committed)
		arb_turn_set_reveal(t, r, next);
	else {
		/* A plain seed, whose next map may commit; a rolls turn
		 * has no seed to give. */
		if (rolls == NULL)
			arb_turn_set_seed(t, seed);
		if (next != NULL)
			arb_turn_set_reveal(t, NULL, next);
	}
	if (arb_turn_load_map(t, in[0].recorded, in[0].text, in[0].len,
	    &e) != 0)
		goto fail;
	for (i = 1; i < n; i++)
		if (arb_turn_load_orders(t, in[i].recorded, in[i].player,
		    in[i].text, in[i].len, &e) != 0)
			goto fail;
	if (rolls != NULL && arb_turn_load_rolls(t, rolls->recorded,
	    rolls->text, rolls->len, &e) != 0)
		goto fail;
	if (arb_turn_run(t, trace ? ARB_TRACE : 0, &e) != 0)
		goto fail;
	if ((fp = open_memstream(out, outlen)) == NULL) {
		arb_turn_free(t);
		return nomem();
	}
	if (arb_turn_write_result(t, trace ? ARB_RESULT_TRACE : 0, fp,
	    &e) != 0) {
		fclose(fp);
		goto fail;
	}
	if (fclose(fp) != 0) {
		arb_turn_free(t);
		return nomem();
	}
	arb_turn_free(t);
	return 0;
fail:
	rc = report(&e);
	arb_turn_free(t);
	free(*out);
	*out = NULL;
	return rc;
}

/* (first 8 bytes of R, big-endian) mod (2^63 - 1): arbiter-rules(7). */
static unsigned long long
seed_of(const unsigned char *r)
{
	unsigned long long v = 0;
	int	 i;

	for (i = 0; i < 8; i++)
		v = v << 8 | r[i];
	return v % 0x7fffffffffffffffULL;
}

/* The result's seed, exactly: seed_text where there is one. */
static bool
result_seed(const json_t *d, unsigned long long *seed)
{
	const json_t	*v = json_object_get(d, "seed_text");
	char		*end;

	if (json_is_string(v)) {
		errno = 0;
		*seed = strtoull(json_string_value(v), &end, 10);
		return errno == 0 && *end == '\0' &&
		    json_string_value(v)[0] != '\0';
	}
	v = json_object_get(d, "seed");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return false;
	*seed = (unsigned long long)json_integer_value(v);
	return true;
}

/*
 * The next map (-n), which the players were sent for the next turn: it
 * carries the commitment the result records, for the game and turn after
 * this one.  Only then does the next commitment bind the umpire.
 */
static void
check_next(struct audit *a, const char *path, const json_t *map,
    const char *recorded)
{
	json_t		*nx;
	json_error_t	 je;
	const json_t	*v;
	const char	*c, *g, *ng;
	char		 what[700], why[700];
	long		 turn, nturn;

	snprintf(what, sizeof(what), "the next map %s carries the next "
	    "commitment the result records, for the next turn", path);
	if ((nx = json_load_file(path, JSON_REJECT_DUPLICATES, &je)) ==
	    NULL) {
		snprintf(why, sizeof(why), "it cannot be read as JSON: %d:%d: "
		    "%s", je.line, je.column, je.text);
		verdict(a, AUDIT_FILE, what, why);
		return;
	}
	c = json_string_value(json_object_get(json_object_get(nx, "dice"),
	    "commitment"));
	g = json_string_value(json_object_get(map, "game"));
	ng = json_string_value(json_object_get(nx, "game"));
	v = json_object_get(map, "turn");
	turn = json_is_integer(v) ? (long)json_integer_value(v) : 1;
	v = json_object_get(nx, "turn");
	nturn = json_is_integer(v) ? (long)json_integer_value(v) : 1;
	if (recorded == NULL)
		snprintf(why, sizeof(why), "the result records no next "
		    "commitment");
	else if (c == NULL || strcmp(c, recorded) != 0)
		snprintf(why, sizeof(why), "its commitment is %.16s%s, the "
		    "result's %.16s...: the result or the next map was "
		    "changed", c != NULL ? c : "missing", c != NULL ? "..." :
		    "", recorded);
	else if (g == NULL || ng == NULL || strcmp(g, ng) != 0)
		snprintf(why, sizeof(why), "it is another game's");
	else if (nturn != turn + 1)
		snprintf(why, sizeof(why), "it is turn %ld's, not turn %ld's",
		    nturn, turn + 1);
	else
		why[0] = '\0';
	verdict(a, AUDIT_FILE, what, why[0] != '\0' ? why : NULL);
	json_decref(nx);
}

int
audit(const char *rpath, int argc, char **argv, const char *rollspath,
    const char *nextpath)
{
	struct audit	 a = { 0, 0, 0 };
	struct input	*in = NULL;
	json_t		*res = NULL, *map = NULL, *got = NULL, *files, *d, *f;
	unsigned char	 r[HASHLEN], next[HASHLEN], h[HASHLEN], c[HASHLEN];
	char		*rtext = NULL, *out = NULL, why[700], what[700];
	char		 hex[2 * HASHLEN + 1];
	const char	*s, *source;
	size_t		 rlen, outlen, k;
	unsigned long long seed = 0, rseed;
	bool		 committed, has_next = false, replayable = true;
	bool		*used = NULL;
	int		 i, nin = 0, rc = 0;

	if (argc < 1) {
		fprintf(stderr, "%s: --audit RESULT needs the map and the "
		    "orders files of the turn\n", progname);
		return EXIT_USAGE;
	}
	if ((res = load_object(rpath, "a result: JSON", &rtext, &rlen,
	    &rc)) == NULL)
		return rc;
	if (json_object_get(res, "for") != NULL) {
		fprintf(stderr, "%s: %s: a player's report (--for), not a "
		    "result: the audit needs the umpire's full result, which "
		    "the report cuts\n", progname, rpath);
		rc = EXIT_DATA;
		goto out;
	}
	files = json_object_get(res, "files");
	d = json_object_get(res, "dice");
	if (!json_is_array(files) || json_array_size(files) < 1 ||
	    !json_is_object(d) || json_object_get(res, "check") != NULL) {
		fprintf(stderr, "%s: %s: not the result of a turn (a result "
		    "has /files and /dice, and no /check)\n", progname, rpath);
		rc = EXIT_DATA;
		goto out;
	}
	source = json_string_value(json_object_get(d, "source"));
	nin = argc + (rollspath != NULL ? 1 : 0);
	if ((in = calloc((size_t)nin, sizeof(*in))) == NULL ||
	    (used = calloc(json_array_size(files), sizeof(*used))) == NULL) {
		rc = nomem();
		goto out;
	}
	for (i = 0; i < argc; i++) {
		char	*eq = strchr(argv[i], '=');

		in[i].path = argv[i];
		if (i > 0 && eq != NULL && eq != argv[i] &&
		    memchr(argv[i], '/', (size_t)(eq - argv[i])) == NULL) {
			*eq = '\0';
			in[i].player = argv[i];
			in[i].path = eq + 1;
		}
		if ((rc = read_input(&in[i])) != 0)
			goto out;
	}
	if (rollspath != NULL) {
		in[argc].path = rollspath;
		if ((rc = read_input(&in[argc])) != 0)
			goto out;
	}

	/* Each file given is one the result records (the map first, the
	 * rolls last), each entry one file's, and the result records no
	 * file that was not given.  An orders file is replayed bound to
	 * the player its entry records, as the umpire's run bound it. */
	for (i = 0; i < nin; i++) {
		int	 kind = i == 0 ? 0 : i < argc ? 1 : 2;
		long	 m = match_entry(files, &in[i], kind, used);

		if (m >= 0) {
			f = json_array_get(files, (size_t)m);
			in[i].recorded = json_string_value(json_object_get(f,
			    "file"));
			if (in[i].recorded == NULL)
				in[i].recorded = in[i].path;
			if (json_is_string(json_object_get(f, "player")))
				in[i].player = json_string_value(
				    json_object_get(f, "player"));
		} else
			why_unmatched(files, &in[i], kind, why, sizeof(why));
		snprintf(what, sizeof(what), "%s is the %s the result records",
		    in[i].path, kind == 0 ? "map" : kind == 1 ? "file" :
		    "rolls file");
		verdict(&a, AUDIT_FILE, what, m < 0 ? why : NULL);
		if (m < 0)
			replayable = false;
	}
	json_array_foreach(files, k, f) {
		if (used[k])
			continue;
		s = json_string_value(json_object_get(f, "file"));
		snprintf(what, sizeof(what), "every file the result records "
		    "is given");
		snprintf(why, sizeof(why), "%s is not (give it too%s)",
		    s != NULL ? s : "a file", k > 0 && json_object_get(f,
		    "status") == NULL ? ", with --rolls" : "");
		verdict(&a, AUDIT_FILE, what, why);
		replayable = false;
	}

	/* The dice. */
	s = json_string_value(json_object_get(d, "next_commitment"));
	has_next = s != NULL && unhex(s, next);
	map = json_loadb(in[0].text, in[0].len, JSON_REJECT_DUPLICATES,
	    NULL);
	s = json_string_value(json_object_get(json_object_get(map, "dice"),
	    "commitment"));
	committed = s != NULL && unhex(s, c);
	if (source != NULL && strcmp(source, "rolls") == 0) {
		s = json_string_value(json_object_get(d, "rolls"));
		snprintf(what, sizeof(what), "the dice are the rolls of %s, as "
		    "the result says (arbiter does not vouch for rolls from "
		    "outside)", s != NULL ? s : "a rolls file");
		verdict(&a, AUDIT_UNFAIR, what, rollspath == NULL ?
		    "the rolls file is not given (--rolls FILE)" : NULL);
		if (rollspath == NULL)
			replayable = false;
		if (committed)
			verdict(&a, AUDIT_UNFAIR, "the dice are the ones the "
			    "map commits to", "the dice came from a rolls "
			    "file on a map that commits to its dice: the "
			    "commitment does not bind them (the umpire could "
			    "pick every die after the orders were in)");
		/* The replay is given R where there is one, for the next
		 * map's commitment; the dice are the rolls. */
		s = json_string_value(json_object_get(d, "reveal"));
		committed = committed && unhex(s, r);
	} else if (!committed) {
		verdict(&a, AUDIT_UNFAIR, "the map commits to the turn's dice",
		    "the map has a plain seed, so its dice could have been "
		    "tried out before the turn; a game is fair from the first "
		    "turn whose map commits (arbiter --commit)");
		if (!result_seed(d, &seed))
			replayable = false;
	} else {
		s = json_string_value(json_object_get(d, "reveal"));
		if (!unhex(s, r)) {
			verdict(&a, AUDIT_REVEAL, "the result reveals the "
			    "turn's value R", "there is no /dice/reveal of 64 "
			    "hexadecimal digits");
			replayable = false;
		} else {
			crypto_hash_sha256(h, r, HASHLEN);
			tohex(h, hex);
			snprintf(what, sizeof(what), "SHA-256 of the revealed "
			    "value is the map's commitment %.16s...",
			    json_string_value(json_object_get(json_object_get(
			    map, "dice"), "commitment")));
			snprintf(why, sizeof(why), "it is %.16s...: the value "
			    "is not the one the umpire committed to", hex);
			if (memcmp(h, c, HASHLEN) != 0)
				replayable = false;
			verdict(&a, AUDIT_REVEAL, what, memcmp(h, c,
			    HASHLEN) != 0 ? why : NULL);
			seed = seed_of(r);
			snprintf(what, sizeof(what), "the seed is the one the "
			    "revealed value gives, %llu", seed);
			if (!result_seed(d, &rseed))
				snprintf(why, sizeof(why), "the result has no "
				    "seed");
			else
				snprintf(why, sizeof(why), "the result's seed "
				    "is %llu: its dice are not the committed "
				    "ones", rseed);
			verdict(&a, AUDIT_SEED, what, !result_seed(d, &rseed) ||
			    rseed != seed ? why : NULL);
		}
		s = json_string_value(json_object_get(d, "next_commitment"));
		snprintf(what, sizeof(what), "the next map's commitment is "
		    "recorded%s%.16s%s", has_next ? ", " : "",
		    has_next ? s : "", has_next ? "..." : "");
		verdict(&a, AUDIT_UNFAIR, what, has_next ? NULL : "there is no "
		    "/dice/next_commitment of 64 hexadecimal digits, so the "
		    "next turn's dice are not fixed yet");
	}
	if (nextpath != NULL)
		check_next(&a, nextpath, map, has_next ?
		    json_string_value(json_object_get(d, "next_commitment")) :
		    NULL);

	/* The replay, from the files under the names the result records. */
	if (!replayable) {
		verdict(&a, AUDIT_REPLAY, "the turn replays to the result",
		    "not replayed, for the failures above");
		goto out;
	}
	if ((rc = replay(in, argc, r, has_next ? next : NULL, committed, seed,
	    rollspath != NULL ? &in[argc] : NULL,
	    json_object_get(res, "trace") != NULL, &out, &outlen)) != 0) {
		/* Not a changed ruling: the files, under the names and
		 * players the result records, do not load as a turn. */
		if (rc == EXIT_DATA)
			verdict(&a, EXIT_DATA, "the turn replays to the "
			    "result", "the replay could not be made (above): "
			    "the files given do not make the turn the result "
			    "records");
		goto out;
	}
	if ((got = json_loadb(out, outlen, JSON_REJECT_DUPLICATES, NULL)) ==
	    NULL) {
		rc = nomem();
		goto out;
	}
	/* The version of the program is not compared. */
	if (json_object_get(res, "program") != NULL)
		json_object_set(got, "program", json_object_get(res,
		    "program"));
	verdict(&a, AUDIT_REPLAY, "the turn replays to the result, every "
	    "ruling and roll", json_differs("the replay", res, got, why,
	    sizeof(why)) ? why : NULL);
out:
	if (a.passed + a.failed > 0) {
		printf("audit: %d passed, %d failed\n", a.passed, a.failed);
		fflush(stdout);
	}
	free(out);
	json_decref(got);
	json_decref(map);
	for (i = 0; in != NULL && i < nin; i++)
		free(in[i].text);
	free(in);
	free(used);
	json_decref(res);
	free(rtext);
	return rc != 0 ? rc : a.status;
}
