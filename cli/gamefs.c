/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game folder (arbiter-game(1)): time, files, the queue of mails,
 * game.json, a mail's headers, the lock and the commits.
 *
 * Every command that changes DIR takes an exclusive flock(2) on DIR/lock,
 * builds what it writes in DIR/.stage, with a plan of renames, and makes
 * it the commit by renaming .stage to .commit; the plan is then carried
 * out step by step (DIR/.commit/step counts the steps done), game.json
 * last.  A command that finds .commit finishes it first; one that finds
 * .stage (a command killed before its commit) removes it.  So a failure
 * before the commit leaves DIR as it was, and one after it is completed
 * by the next command.
 */
#define _GNU_SOURCE	/* nftw's FTW_DEPTH, FTW_PHYS; timegm */

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <jansson.h>
#include <sodium.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"
#include "gameint.h"

/* snprintf, for texts that fit (paths of the folder's own names, lines
 * cut on purpose): a cut is no error. */
void
xsnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

const char *
gstr(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

long
jint(const json_t *o, const char *key, long dflt)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : dflt;
}

const char *
player_name(const struct game *g, int i)
{
	return gstr(json_array_get(json_object_get(g->j, "players"),
	    (size_t)i), "name");
}

const char *
player_addr(const struct game *g, int i)
{
	return gstr(json_array_get(json_object_get(g->j, "players"),
	    (size_t)i), "address");
}

/*
 * Testing only (arbiter-game(1), ENVIRONMENT): ARB_GAME_FAIL_AT=STEP
 * kills the command with SIGKILL at that step; ARB_GAME_FAIL_AT=enospc:NAME
 * makes the writing of every file named NAME fail as a full disk would.
 */
void
fail_at(const char *step)
{
	const char	*s = getenv("ARB_GAME_FAIL_AT");

	if (s != NULL && strcmp(s, step) == 0)
		kill(getpid(), SIGKILL);
}

static bool
fail_write(const char *path)
{
	const char	*s = getenv("ARB_GAME_FAIL_AT"), *b;

	if (s == NULL || strncmp(s, "enospc:", 7) != 0)
		return false;
	b = strrchr(path, '/');
	return strcmp(b != NULL ? b + 1 : path, s + 7) == 0;
}

/* Time. */

void
iso(time_t t, char *buf, size_t size)
{
	struct tm	 tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* "YYYY-MM-DDTHH:MM:SSZ": true and *t, or false. */
bool
parse_iso(const char *s, time_t *t)
{
	struct tm	 tm;
	int		 n = 0;

	memset(&tm, 0, sizeof(tm));
	if (s == NULL || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year,
	    &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
	    &n) != 6 || s[n] != '\0')
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	{
		/* A date that is one: timegm() would carry 2026-02-30 into
		 * March, and 99:99:99 into the next day. */
		struct tm	 want = tm, back;

		if ((*t = timegm(&tm)) == (time_t)-1 ||
		    gmtime_r(t, &back) == NULL)
			return false;
		return back.tm_year == want.tm_year &&
		    back.tm_mon == want.tm_mon && back.tm_mday == want.tm_mday &&
		    back.tm_hour == want.tm_hour && back.tm_min == want.tm_min &&
		    back.tm_sec == want.tm_sec;
	}
}

/* The time of the command: ARB_GAME_NOW when set (for tests and for an
 * umpire who runs a turn as of a given time), else the clock. */
bool
get_now(struct game *g)
{
	const char	*s = getenv("ARB_GAME_NOW");
	struct tm	 tm;

	if (s != NULL && *s != '\0') {
		if (!parse_iso(s, &g->now)) {
			fprintf(stderr, "%s: game: ARB_GAME_NOW: expected "
			    "YYYY-MM-DDTHH:MM:SSZ, not \"%s\"\n", progname, s);
			return false;
		}
	} else
		g->now = time(NULL);
	gmtime_r(&g->now, &tm);
	strftime(g->stamp, sizeof(g->stamp), "%Y%m%dT%H%M%SZ", &tm);
	return true;
}

/* Files. */

bool
exists(const char *path)
{
	struct stat	 st;

	return lstat(path, &st) == 0;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

int
rm_rf(const char *path)
{
	if (!exists(path))
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int
sync_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	int	 fd;

	(void)st;
	(void)f;
	if (flag != FTW_F && flag != FTW_D && flag != FTW_DP)
		return 0;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW)) < 0)
		return -1;
	if (fsync(fd) != 0 && errno != EINVAL) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int
sync_tree(const char *path)
{
	return nftw(path, sync_one, 16, FTW_PHYS);
}

static int
sync_dir(const char *path)
{
	int	 fd, rc;

	if ((fd = open(path, O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* mkdir -p of path's folders (of path itself too when dir). */
int
mkdirs(const char *path, bool dir)
{
	char	 buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (dir && mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

int
cantwrite(const char *path)
{
	fprintf(stderr, "%s: game: cannot write %s: %s\n", progname, path,
	    strerror(errno));
	return EXIT_CANTCREAT;
}

/* A file of the stage opened for writing (its folders made). */
FILE *
wopen(const char *path)
{
	if (mkdirs(path, false) != 0)
		return NULL;
	return fopen(path, "wbx");
}

/* Closes a file of the stage: 0, or -1 with errno (a full disk, ...). */
int
wclose(FILE *fp, const char *path)
{
	int	 err = 0;

	if (fflush(fp) != 0 || ferror(fp))
		err = errno != 0 ? errno : EIO;
	else if (fail_write(path))
		err = ENOSPC;
	if (fclose(fp) != 0 && err == 0)
		err = errno;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

int
wfile(const char *path, const char *buf, size_t len)
{
	FILE	*fp;

	if ((fp = wopen(path)) == NULL)
		return -1;
	if (len > 0 && fwrite(buf, 1, len, fp) != len) {
		fclose(fp);
		return -1;
	}
	return wclose(fp, path);
}

/* The whole file, NUL-terminated (free it), or NULL with errno. */
char *
readall(const char *path, size_t *len)
{
	FILE	*fp;
	char	*buf = NULL;
	size_t	 n = 0, cap = 0, r;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (cap - n < 65536) {
			char	*nb = realloc(buf, cap = cap * 2 + 65536 + 1);

			if (nb == NULL) {
				free(buf);
				fclose(fp);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, fp);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(fp)) {
		free(buf);
		fclose(fp);
		errno = EIO;
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

/* Text. */

/* The length of the UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
u8len(const unsigned char *s, size_t n)
{
	size_t	 k, i;
	unsigned long c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, c = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (k == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return k;
}

/*
 * s as a JSON string that can be put in a mail: valid UTF-8 (a byte that
 * is not becomes U+FFFD), no NUL; with oneline, no control character at
 * all (each becomes a space: no header can be injected), at most max
 * bytes; else tabs and line feeds are kept, CR dropped.
 */
static json_t *
clean(const char *s, size_t n, bool oneline, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	char		*out, *o;
	size_t		 i, k;
	json_t		*v;

	if ((out = malloc(n * 3 + 1)) == NULL)
		return NULL;
	o = out;
	for (i = 0; i < n && (size_t)(o - out) < max; i += k) {
		k = u8len(u + i, n - i);
		if (k == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			k = 1;
		} else if (k == 1 && (u[i] < 0x20 || u[i] == 0x7f)) {
			if (oneline)
				*o++ = ' ';
			else if (u[i] == '\n' || u[i] == '\t')
				*o++ = (char)u[i];
		} else if (k == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0) {
			if (oneline)
				*o++ = ' ';	/* C1 controls */
		} else if (k == 3 && oneline && u[i] == 0xe2 &&
		    u[i + 1] == 0x80 && (u[i + 2] == 0xa8 ||
		    u[i + 2] == 0xa9)) {
			*o++ = ' ';	/* line and paragraph separators */
		} else {
			memcpy(o, s + i, k);
			o += k;
		}
	}
	v = json_stringn(out, (size_t)(o - out));
	free(out);
	return v;
}

json_t *
cleans(const char *s, bool oneline)
{
	return clean(s, strlen(s), oneline, oneline ? 200 : (size_t)-1 / 4);
}

bool
text_open(struct text *t)
{
	t->s = NULL;
	t->len = 0;
	return (t->fp = open_memstream(&t->s, &t->len)) != NULL;
}

bool
text_close(struct text *t)
{
	bool	 ok = !ferror(t->fp);

	if (fclose(t->fp) != 0)
		ok = false;
	t->fp = NULL;
	return ok;
}

/* The plan and the queue. */

int
plan_add(struct game *g, const char *from, const char *to)
{
	size_t	 n = strlen(from) + strlen(to) + 2;
	char	*p;

	if ((p = realloc(g->plan, g->planlen + n + 1)) == NULL)
		return -1;
	g->plan = p;
	g->planlen += (size_t)sprintf(p + g->planlen, "%s %s\n", from, to);
	return 0;
}

/* The next outbox number: past every queued and sent mail's. */
static long
next_seq(void)
{
	static const char *const dirs[2] = { "outbox", "sent" };
	struct dirent	*de;
	DIR		*d;
	long		 max = 0, v;
	char		*end;
	int		 i;

	for (i = 0; i < 2; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			v = strtol(de->d_name, &end, 10);
			if (end != de->d_name && *end == '.' && v > max)
				max = v;
		}
		closedir(d);
	}
	return max + 1;
}

static void
token(const char *s, char *out, size_t size)
{
	size_t	 n = 0;

	for (; *s != '\0' && n + 1 < size; s++)
		out[n++] = isalnum((unsigned char)*s) || *s == '-' ||
		    *s == '.' ? *s : '_';
	out[n] = '\0';
}

/* A Message-ID given by a mail, if it looks like one: "<x@y>", at least
 * 5 and at most 250 bytes, inside no space, control character, '<', '>',
 * '"' or '\\' (what send takes as an In-Reply-To, gamepost.c's
 * msgid_ok(): a reply to anything else would stay queued for ever). */
static bool
sane_msgid(const char *s)
{
	size_t	 n, i;

	if (s == NULL || (n = strlen(s)) < 5 || n > 250 || s[0] != '<' ||
	    s[n - 1] != '>' || strchr(s, '@') == NULL)
		return false;
	for (i = 1; i + 1 < n; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 127 ||
		    s[i] == '<' || s[i] == '>' || s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

/*
 * Queues a mail (the outbox description of arbiter-game(1)) in the
 * stage, to be moved into outbox/ by the commit.  attach is NULL or a
 * NULL-terminated list of triples: file (relative to DIR), type, name.
 */
int
queue(struct game *g, const char *kind, const char *to, long turn,
    const char *player, const char *subject, const char *body,
    const char *in_reply_to, const char *const *attach)
{
	unsigned char	 h[crypto_hash_sha256_BYTES];
	json_t		*d, *a, *tl;
	char		 date[32], id[400], gt[64], pt[64], path[64], dst[64];
	char		*dump;
	int		 rc = -1, i;
	crypto_hash_sha256_state st;

	iso(g->now, date, sizeof(date));
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, (const unsigned char *)body,
	    strlen(body));
	crypto_hash_sha256_update(&st, (const unsigned char *)to, strlen(to));
	crypto_hash_sha256_update(&st, (const unsigned char *)&g->seq,
	    sizeof(g->seq));
	crypto_hash_sha256_final(&st, h);
	token(g->name, gt, sizeof(gt));
	token(player != NULL ? player : "umpire", pt, sizeof(pt));
	xsnprintf(id, sizeof(id), "<%s.%ld.%s.%s.%02x%02x%02x%02x%02x%02x@"
	    "arbiter>", gt, turn, kind, pt, h[0], h[1], h[2], h[3], h[4],
	    h[5]);
	d = json_object();
	a = json_array();
	tl = json_array();
	if (d == NULL || a == NULL || tl == NULL)
		goto out;
	json_array_append_new(tl, cleans(to, true));
	json_object_set_new(d, "kind", json_string(kind));
	json_object_set_new(d, "from", cleans(g->from, true));
	json_object_set(d, "to", tl);
	json_object_set_new(d, "subject", cleans(subject, true));
	json_object_set_new(d, "date", json_string(date));
	json_object_set_new(d, "message_id", json_string(id));
	if (in_reply_to != NULL && sane_msgid(in_reply_to))
		json_object_set_new(d, "in_reply_to",
		    json_string(in_reply_to));
	json_object_set_new(d, "body", cleans(body, false));
	for (i = 0; attach != NULL && attach[i] != NULL; i += 3) {
		json_t	*f = json_object();

		json_object_set_new(f, "file", json_string(attach[i]));
		json_object_set_new(f, "type", json_string(attach[i + 1]));
		json_object_set_new(f, "name", json_string(attach[i + 2]));
		json_array_append_new(a, f);
	}
	json_object_set(d, "attach", a);
	if ((dump = json_dumps(d, JSON_INDENT(2))) == NULL)
		goto out;
	/* json_dumps' text, its NUL made a line end. */
	{
		size_t	 n = strlen(dump);
		char	*nd = realloc(dump, n + 2);

		if (nd == NULL) {
			free(dump);
			goto out;
		}
		dump = nd;
		memcpy(dump + n, "\n", 2);
	}
	xsnprintf(path, sizeof(path), STAGE "/outbox/%06ld.json", g->seq);
	xsnprintf(dst, sizeof(dst), "outbox/%06ld.json", g->seq);
	g->seq++;
	g->queued++;
	if (wfile(path, dump, strlen(dump)) == 0 && plan_add(g, path, dst) == 0)
		rc = 0;
	free(dump);
out:
	json_decref(d);
	json_decref(a);
	json_decref(tl);
	return rc;
}

/* game.json, the lock, the commit. */

static int
load_game(struct game *g)
{
	json_error_t	 je;
	const json_t	*ps;

	const char	*bad = NULL;
	const json_t	*v;

	if ((g->j = json_load_file("game.json", JSON_REJECT_DUPLICATES,
	    &je)) == NULL) {
		if (errno == ENOENT || !exists("game.json")) {
			fprintf(stderr, "%s: game: game.json: no such file: "
			    "not a game folder (arbiter game new)\n",
			    progname);
			return EXIT_NOINPUT;
		}
		fprintf(stderr, "%s: game: game.json:%d:%d: %s\n", progname,
		    je.line, je.column, je.text);
		return EXIT_DATA;
	}
	ps = json_object_get(g->j, "players");
	g->name = gstr(g->j, "game");
	g->umpire = gstr(g->j, "umpire");
	g->from = gstr(g->j, "from");
	g->turn = jint(g->j, "turn", 0);
	g->nplayers = json_is_array(ps) ? (int)json_array_size(ps) : 0;
	if (g->from == NULL)
		g->from = g->umpire;
	/* The member that is wrong, named with what is wanted. */
	if (g->name == NULL)
		bad = "\"game\": its name, a string";
	else if (g->umpire == NULL)
		bad = "\"umpire\": the umpire's address, a string";
	else if (g->turn < 1)
		bad = "\"turn\": the open turn, an integer from 1";
	else if (g->nplayers < 1)
		bad = "\"players\": an array of { \"name\", \"address\" }";
	else if (!parse_iso(gstr(g->j, "deadline"), &g->deadline))
		bad = "\"deadline\": a time, YYYY-MM-DDTHH:MM:SSZ";
	else if ((v = json_object_get(g->j, "period_days")) != NULL &&
	    (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 3650))
		bad = "\"period_days\": days, an integer from 1 to 3650";
	if (bad != NULL) {
		fprintf(stderr, "%s: game: game.json: not a game's "
		    "description (arbiter-game(1)): %s\n", progname, bad);
		return EXIT_DATA;
	}
	return 0;
}

/* game.json with the turn, the deadline and redone as given, into the
 * stage, and planned last; with staged, the history page with it. */
int
stage_game(struct game *g, long turn, time_t deadline, long redone,
    long staged)
{
	char	 d[32], *dump;
	int	 rc;

	iso(deadline, d, sizeof(d));
	json_object_set_new(g->j, "turn", json_integer(turn));
	json_object_set_new(g->j, "deadline", json_string(d));
	json_object_set_new(g->j, "redone", json_integer(redone));
	if (staged > 0 && (rc = stage_page(g, staged)) != 0)
		return rc;
	if ((dump = json_dumps(g->j, JSON_INDENT(2))) == NULL)
		return nomem();
	{
		size_t	 n = strlen(dump);
		char	*nd = realloc(dump, n + 2);

		if (nd == NULL) {
			free(dump);
			return -1;
		}
		dump = nd;
		memcpy(dump + n, "\n", 2);
	}
	rc = wfile(STAGE "/game.json", dump, strlen(dump));
	free(dump);
	if (rc != 0 || plan_add(g, STAGE "/game.json", "game.json") != 0)
		return cantwrite(STAGE "/game.json");
	return 0;
}

/* Carries out the plan in .commit from the step it records. */
static int
finish_commit(void)
{
	char	*plan, *line, *next, *sp, buf[32], from[PATH_MAX];
	long	 step = 0, i;
	FILE	*fp;

	if ((plan = readall(COMMIT "/plan", NULL)) == NULL) {
		fprintf(stderr, "%s: game: %s/plan: %s\n", progname, COMMIT,
		    strerror(errno));
		return EXIT_INTERNAL;
	}
	if ((fp = fopen(COMMIT "/step", "r")) != NULL) {
		if (fgets(buf, sizeof(buf), fp) != NULL)
			step = strtol(buf, NULL, 10);
		fclose(fp);
	}
	for (i = 0, line = plan; *line != '\0'; line = next, i++) {
		if ((next = strchr(line, '\n')) == NULL)
			break;		/* a plan is whole lines */
		*next++ = '\0';
		if (i < step)
			continue;
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		*sp = '\0';
		/* The stage's paths were planned as .stage/...: they are
		 * in .commit now. */
		if (strncmp(line, STAGE "/", strlen(STAGE) + 1) == 0)
			xsnprintf(from, sizeof(from), COMMIT "/%s",
			    line + strlen(STAGE) + 1);
		else
			xsnprintf(from, sizeof(from), "%s", line);
		xsnprintf(buf, sizeof(buf), "eio:rename-%ld", i + 1);
		if (getenv("ARB_GAME_FAIL_AT") != NULL &&
		    strcmp(getenv("ARB_GAME_FAIL_AT"), buf) == 0)
			errno = EIO;	/* testing only: a rename fails */
		else if (mkdirs(sp + 1, false) == 0 && (rename(from,
		    sp + 1) == 0 || errno == ENOENT))
			errno = 0;
		if (errno != 0) {
			fprintf(stderr, "%s: game: cannot rename %s to %s: "
			    "%s\n", progname, from, sp + 1, strerror(errno));
			free(plan);
			return EXIT_CANTCREAT;
		}
		xsnprintf(buf, sizeof(buf), "%ld\n", i + 1);
		if (wfile(COMMIT "/step.new", buf, strlen(buf)) != 0 ||
		    rename(COMMIT "/step.new", COMMIT "/step") != 0) {
			free(plan);
			return cantwrite(COMMIT "/step");
		}
		xsnprintf(buf, sizeof(buf), "commit-%ld", i + 1);
		fail_at(buf);
	}
	free(plan);
	/* Every folder a rename touched, to the disk. */
	sync_dir(".");
	sync_dir("turns");
	sync_dir("outbox");
	fail_at("committed");
	if (rm_rf(COMMIT) != 0)
		return cantwrite(COMMIT);
	return 0;
}

/* The stage made the commit: written to the disk, then renamed. */
int
gm_commit(struct game *g)
{
	fail_at("stage");
	if (wfile(STAGE "/plan", g->plan != NULL ? g->plan : "",
	    g->planlen) != 0 || sync_tree(STAGE) != 0)
		return cantwrite(STAGE);
	if (rename(STAGE, COMMIT) != 0 || sync_dir(".") != 0)
		return cantwrite(COMMIT);
	return finish_commit();
}

/* The lock on DIR/lock (kept until the process ends), then what an
 * earlier command left: a commit finished, a stage removed. */
int
lock_dir(bool quiet)
{
	int	 fd, rc;

	if ((fd = open("lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return cantwrite("lock");
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR)
			return cantwrite("lock");
	if (exists(COMMIT)) {
		if (!quiet)
			fprintf(stderr, "%s: game: finishing a command that "
			    "was interrupted after its commit\n", progname);
		if ((rc = finish_commit()) != 0)
			return rc;
		game_finished = true;
	}
	if (rm_rf(STAGE) != 0)
		return cantwrite(STAGE);
	return 0;
}

/* Set when taking the lock finished a command interrupted after its
 * commit: run --now and redo then stop there (the command given again
 * would run a second turn). */
bool	 game_finished;

/* Into DIR, locked: 0, or an exit status after a message. */
int
enter(const char *dir, struct game *g, bool lock)
{
	int	 rc;

	memset(g, 0, sizeof(*g));
	if (!get_now(g))
		return EXIT_USAGE;
	if (chdir(dir) != 0) {
		fprintf(stderr, "%s: game: %s: %s\n", progname, dir,
		    strerror(errno));
		return EXIT_NOINPUT;
	}
	if (!exists("game.json") && !exists(COMMIT)) {
		fprintf(stderr, "%s: game: %s: not a game folder (no "
		    "game.json)\n", progname, dir);
		return EXIT_NOINPUT;
	}
	if (lock && (rc = lock_dir(false)) != 0)
		return rc;
	if ((rc = load_game(g)) != 0)
		return rc;
	g->seq = next_seq();
	return 0;
}

void
leave(struct game *g)
{
	json_decref(g->j);
	free(g->plan);
}

/* A copy of a file into the stage: never a link, so that a mail as
 * received does not change when the umpire corrects the orders that
 * count (orders/PLAYER.eml), in place, before a redo. */
int
stage_copy(const char *from, const char *to)
{
	char	*buf;
	size_t	 len;
	int	 rc;

	if ((buf = readall(from, &len)) == NULL)
		return -1;
	rc = wfile(to, buf, len);
	free(buf);
	return rc;
}

/* The names in a folder, sorted (free each and the array); n set. */
static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
list_dir(const char *path, size_t *n)
{
	struct dirent	*de;
	DIR		*d;
	char		**v = NULL, **nv;
	size_t		 cap = 0;

	*n = 0;
	if ((d = opendir(path)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (*n + 1 >= cap) {
			if ((nv = realloc(v, (cap = cap * 2 + 16) *
			    sizeof(*v))) == NULL)
				break;
			v = nv;
		}
		if ((v[*n] = strdup(de->d_name)) == NULL)
			break;
		(*n)++;
	}
	closedir(d);
	if (v != NULL)
		qsort(v, *n, sizeof(*v), cmpstr);
	return v;
}

void
free_list(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
head_free(struct head *h)
{
	free(h->from);
	free(h->msgid);
	free(h->subject);
	memset(h, 0, sizeof(*h));
}

/* 0, or -1 when buf is no mail (why says so). */
int
head_read(const char *buf, size_t len, struct head *h, const char **why)
{
	GMimeStream	*st;
	GMimeParser	*p;
	GMimeMessage	*m;
	InternetAddressList *l;
	InternetAddress	*a;
	GDateTime	*dt;
	const char	*s;
	char		*c;
	size_t		 hl;

	memset(h, 0, sizeof(*h));
	*why = "unreadable: not a mail (its header cannot be parsed)";
	/* The header alone: GMime is not given the body, whose parts (as
	 * many and as deep as a mail makes them) the library's reader
	 * bounds. */
	for (hl = 0; hl < len; hl++)
		if (buf[hl] == '\n' && (hl + 1 == len || buf[hl + 1] == '\n' ||
		    (buf[hl + 1] == '\r' && hl + 2 < len &&
		    buf[hl + 2] == '\n'))) {
			hl++;
			break;
		}
	st = g_mime_stream_mem_new_with_buffer(buf, hl);
	p = g_mime_parser_new_with_stream(st);
	m = g_mime_parser_construct_message(p, NULL);
	g_object_unref(p);
	g_object_unref(st);
	if (m == NULL)
		return -1;
	/* Mail is filed by its sender: a mail that names more than one
	 * (two addresses in From, two From fields) is nobody's. */
	{
		GMimeHeaderList	*hl2 = g_mime_object_get_header_list(
		    GMIME_OBJECT(m));
		int		 k, nfrom = 0;

		for (k = 0; hl2 != NULL &&
		    k < g_mime_header_list_get_count(hl2); k++)
			if (g_ascii_strcasecmp(g_mime_header_get_name(
			    g_mime_header_list_get_header_at(hl2, k)),
			    "From") == 0)
				nfrom++;
		l = g_mime_message_get_from(m);
		if (nfrom > 1 || (l != NULL &&
		    internet_address_list_length(l) > 1)) {
			*why = "unreadable: the mail names more than one "
			    "sender (From)";
			g_object_unref(m);
			return -1;
		}
	}
	*why = "unreadable: the mail has no From address";
	if ((l = g_mime_message_get_from(m)) != NULL &&
	    internet_address_list_length(l) > 0 &&
	    INTERNET_ADDRESS_IS_MAILBOX(a = internet_address_list_get_address(
	    l, 0)) && (s = internet_address_mailbox_get_addr(
	    INTERNET_ADDRESS_MAILBOX(a))) != NULL && *s != '\0') {
		if ((h->from = strdup(s)) != NULL)
			for (c = h->from; *c != '\0'; c++)
				*c = (char)tolower((unsigned char)*c);
	}
	if ((s = g_mime_message_get_message_id(m)) != NULL &&
	    (h->msgid = malloc(strlen(s) + 3)) != NULL)
		sprintf(h->msgid, "<%s>", s);
	if ((s = g_mime_message_get_subject(m)) != NULL)
		h->subject = strdup(s);
	/* A mail made by a program (RFC 3834): the game's own mail come
	 * back, an autoresponder; never answered. */
	if ((s = g_mime_object_get_header(GMIME_OBJECT(m),
	    "Auto-Submitted")) != NULL) {
		while (*s == ' ' || *s == '\t')
			s++;
		h->automatic = g_ascii_strncasecmp(s, "no", 2) != 0 ||
		    (s[2] != '\0' && s[2] != ' ' && s[2] != ';' &&
		    s[2] != '\t' && s[2] != '(');
	}
	if ((dt = g_mime_message_get_date(m)) != NULL) {
		h->date = (time_t)g_date_time_to_unix(dt);
		h->dated = true;
	}
	g_object_unref(m);
	return h->from != NULL ? 0 : -1;
}

/* A player's name that can name files: letters, digits, '-', '_', '.',
 * not first. */
bool
safe_name(const char *s)
{
	const char	*c;

	if (*s == '\0' || *s == '.' || strlen(s) > 64)
		return false;
	for (c = s; *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' &&
		    *c != '.')
			return false;
	return true;
}

/* A mail address as given on the command line: printable ASCII, one '@',
 * nothing a header would read as a separator. */
bool
safe_addr(const char *s)
{
	const char	*c;

	if (strlen(s) < 3 || strlen(s) > 254 || strchr(s, '@') == NULL ||
	    strchr(s, '@') != strrchr(s, '@'))
		return false;
	for (c = s; *c != '\0'; c++)
		if (*c <= ' ' || *c >= 127 || strchr("<>()[],;:\"\\", *c))
			return false;
	return true;
}

/* The history page into the stage, planned. */
int
stage_page(struct game *g, long staged)
{
	FILE	*fp;

	if ((fp = wopen(STAGE "/index.html")) == NULL)
		return cantwrite(STAGE "/index.html");
	if (game_page(fp, ".", g->j, staged, STAGE "/t") != 0) {
		fclose(fp);
		return cantwrite(STAGE "/index.html");
	}
	if (wclose(fp, STAGE "/index.html") != 0)
		return cantwrite(STAGE "/index.html");
	return plan_add(g, STAGE "/index.html", "index.html") != 0 ?
	    nomem() : 0;
}
