/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode (arbiter-game(1)): `arbiter game COMMAND DIR ...`, a
 * folder per game that takes the players' mail in, runs its turns, queues
 * the mail that goes out and keeps the history.  Built on libarbiter's
 * public interface (arbiter.h) and the command line's shared parts
 * (cli.h); GMime reads the incoming mail's headers only.
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

#define EXIT_TEMPFAIL	EX_TEMPFAIL	/* 75: receive could not file */
#define MAXMAIL		(4L * 1024 * 1024)
#define STAGE		".stage"
#define COMMIT		".commit"

/* The game being worked on: game.json, and the time of the command. */
struct game {
	json_t		*j;
	const char	*name, *umpire, *from;
	long		 turn;
	time_t		 now, deadline;
	int		 nplayers;
	char		 stamp[32];	/* now, as YYYYMMDDTHHMMSSZ */
	/* The plan of the command's commit, and its queued mails. */
	char		*plan;
	size_t		 planlen;
	long		 seq;		/* the next outbox number */
	int		 queued;
};

/* snprintf, for texts that fit (paths of the folder's own names, lines
 * cut on purpose): a cut is no error. */
static void	 xsnprintf(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
xsnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

static const char *
gstr(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static long
jint(const json_t *o, const char *key, long dflt)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : dflt;
}

static const char *
player_name(const struct game *g, int i)
{
	return gstr(json_array_get(json_object_get(g->j, "players"),
	    (size_t)i), "name");
}

static const char *
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
static void
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

static void
iso(time_t t, char *buf, size_t size)
{
	struct tm	 tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* "YYYY-MM-DDTHH:MM:SSZ": true and *t, or false. */
static bool
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
	*t = timegm(&tm);
	return *t != (time_t)-1;
}

/* The time of the command: ARB_GAME_NOW when set (for tests and for an
 * umpire who runs a turn as of a given time), else the clock. */
static bool
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

void
game_turnname(long n, char *buf, size_t size)
{
	xsnprintf(buf, size, "%04ld", n);
}

/* Files. */

static bool
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

static int
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
static int
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

static int
cantwrite(const char *path)
{
	fprintf(stderr, "%s: game: cannot write %s: %s\n", progname, path,
	    strerror(errno));
	return EXIT_CANTCREAT;
}

/* A file of the stage opened for writing (its folders made). */
static FILE *
wopen(const char *path)
{
	if (mkdirs(path, false) != 0)
		return NULL;
	return fopen(path, "wbx");
}

/* Closes a file of the stage: 0, or -1 with errno (a full disk, ...). */
static int
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

static int
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
static char *
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

static json_t *
cleans(const char *s, bool oneline)
{
	return clean(s, strlen(s), oneline, oneline ? 200 : (size_t)-1 / 4);
}

/* A growing text. */
struct text {
	char	*s;
	size_t	 len;
	FILE	*fp;
};

static bool
text_open(struct text *t)
{
	t->s = NULL;
	t->len = 0;
	return (t->fp = open_memstream(&t->s, &t->len)) != NULL;
}

static bool
text_close(struct text *t)
{
	bool	 ok = !ferror(t->fp);

	if (fclose(t->fp) != 0)
		ok = false;
	t->fp = NULL;
	return ok;
}

/* The plan and the queue. */

static int
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

/* A Message-ID given by a mail, if it looks like one: "<x@y>", no space
 * or control character, at most 250 bytes. */
static bool
sane_msgid(const char *s)
{
	size_t	 n;

	if (s == NULL || (n = strlen(s)) < 3 || n > 250 || s[0] != '<' ||
	    s[n - 1] != '>' || strchr(s, '@') == NULL)
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 127)
			return false;
	return true;
}

/*
 * Queues a mail (the outbox description of arbiter-game(1)) in the
 * stage, to be moved into outbox/ by the commit.  attach is NULL or a
 * NULL-terminated list of triples: file (relative to DIR), type, name.
 */
static int
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

	if ((g->j = json_load_file("game.json", JSON_REJECT_DUPLICATES,
	    &je)) == NULL) {
		fprintf(stderr, "%s: game: game.json: %s\n", progname,
		    errno == ENOENT || !exists("game.json") ?
		    "no such file: not a game folder (arbiter game new)" :
		    je.text);
		return exists("game.json") ? EXIT_DATA : EXIT_NOINPUT;
	}
	ps = json_object_get(g->j, "players");
	g->name = gstr(g->j, "game");
	g->umpire = gstr(g->j, "umpire");
	g->from = gstr(g->j, "from");
	g->turn = jint(g->j, "turn", 0);
	g->nplayers = json_is_array(ps) ? (int)json_array_size(ps) : 0;
	if (g->from == NULL)
		g->from = g->umpire;
	if (g->name == NULL || g->umpire == NULL || g->turn < 1 ||
	    g->nplayers < 1 || !parse_iso(gstr(g->j, "deadline"),
	    &g->deadline)) {
		fprintf(stderr, "%s: game: game.json: not a game's "
		    "description (arbiter-game(1))\n", progname);
		return EXIT_DATA;
	}
	return 0;
}

static int	 stage_page(struct game *, long);

/* game.json with the turn, the deadline and redone as given, into the
 * stage, and planned last; with staged, the history page with it. */
static int
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
		next = strchr(line, '\n');
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
		if (mkdirs(sp + 1, false) != 0 || (rename(from, sp + 1) != 0 &&
		    errno != ENOENT)) {
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
static int
commit(struct game *g)
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
static int
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
	}
	if (rm_rf(STAGE) != 0)
		return cantwrite(STAGE);
	return 0;
}

/* Into DIR, locked: 0, or an exit status after a message. */
static int
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

static void
leave(struct game *g)
{
	json_decref(g->j);
	free(g->plan);
}

/* A link of an existing file into the stage (a copy where links fail). */
static int
stage_link(const char *from, const char *to)
{
	char	*buf;
	size_t	 len;
	int	 rc;

	if (mkdirs(to, false) != 0)
		return -1;
	if (link(from, to) == 0)
		return 0;
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

static char **
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

static void
free_list(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The headers of a received mail that the game reads (GMime). */
struct head {
	char	*from;		/* the first sender's address, lower case */
	char	*msgid;		/* "<...>", or NULL */
	char	*subject;
	time_t	 date;
	bool	 dated;
};

static void
head_free(struct head *h)
{
	free(h->from);
	free(h->msgid);
	free(h->subject);
	memset(h, 0, sizeof(*h));
}

/* 0, or -1 when buf is no mail (why says so). */
static int
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

	memset(h, 0, sizeof(*h));
	*why = "unreadable: not a mail (its header cannot be parsed)";
	st = g_mime_stream_mem_new_with_buffer(buf, len);
	p = g_mime_parser_new_with_stream(st);
	m = g_mime_parser_construct_message(p, NULL);
	g_object_unref(p);
	g_object_unref(st);
	if (m == NULL)
		return -1;
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
	if ((dt = g_mime_message_get_date(m)) != NULL) {
		h->date = (time_t)g_date_time_to_unix(dt);
		h->dated = true;
	}
	g_object_unref(m);
	return h->from != NULL ? 0 : -1;
}

/* A player's name that can name files: letters, digits, '-', '_', '.',
 * not first. */
static bool
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
static bool
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

/* new DIR MAP --player NAME=ADDRESS ... */
static int
cmd_new(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "player", required_argument, NULL, 'p' },
		{ "umpire", required_argument, NULL, 'u' },
		{ "from", required_argument, NULL, 'f' },
		{ "period", required_argument, NULL, 'P' },
		{ "deadline", required_argument, NULL, 'd' },
		{ "game", required_argument, NULL, 'g' },
		{ "send-command", required_argument, NULL, 's' },
		{ "no-early", no_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	struct arb_turn	*t = NULL;
	struct arb_error e;
	unsigned char	 key[ARB_SECRET_LEN];
	char		 hex[2 * ARB_SECRET_LEN + 2], map[PATH_MAX], tn[32];
	char		 dl[32], path[PATH_MAX], *text = NULL, *end;
	const char	*umpire = "umpire@localhost", *from = NULL, *game = NULL;
	const char	*sendcmd = "sendmail -t -i", *deadline = NULL, *s;
	char		*players[256];
	json_t		*j = NULL, *ps, *mj = NULL;
	size_t		 len;
	long		 period = 7, turn;
	int		 np = 0, c, i, k, rc;
	bool		 early = true;

	memset(&g, 0, sizeof(g));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'p':
			if (np == 256 || strchr(optarg, '=') == NULL) {
				fprintf(stderr, "%s: game new: --player "
				    "NAME=ADDRESS\n", progname);
				return EXIT_USAGE;
			}
			players[np++] = optarg;
			break;
		case 'u':
			umpire = optarg;
			break;
		case 'f':
			from = optarg;
			break;
		case 'P':
			period = strtol(optarg, &end, 10);
			if (*end != '\0' || period < 1 || period > 3650) {
				fprintf(stderr, "%s: game new: --period: "
				    "days, from 1 to 3650\n", progname);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			deadline = optarg;
			break;
		case 'g':
			game = optarg;
			break;
		case 's':
			sendcmd = optarg;
			break;
		case 'E':
			early = false;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 2 || np == 0) {
		fprintf(stderr, "usage: %s game new DIR MAP --player "
		    "NAME=ADDRESS ... [--umpire ADDRESS] [--from ADDRESS] "
		    "[--period DAYS] [--deadline TIME] [--game NAME] "
		    "[--send-command CMD] [--no-early]\n", progname);
		return EXIT_USAGE;
	}
	if (!get_now(&g))
		return EXIT_USAGE;
	if (deadline != NULL && !parse_iso(deadline, &g.deadline)) {
		fprintf(stderr, "%s: game new: --deadline: expected "
		    "YYYY-MM-DDTHH:MM:SSZ\n", progname);
		return EXIT_USAGE;
	}
	if (deadline == NULL)
		g.deadline = g.now + period * 86400;
	if (!safe_addr(umpire) || (from != NULL && !safe_addr(from))) {
		fprintf(stderr, "%s: game new: a bad mail address: %s\n",
		    progname, safe_addr(umpire) ? from : umpire);
		return EXIT_USAGE;
	}
	if (realpath(argv[optind + 1], map) == NULL) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind + 1], strerror(errno));
		return EXIT_NOINPUT;
	}
	if (game == NULL) {
		/* The folder's name. */
		xsnprintf(path, sizeof(path), "%s", argv[optind]);
		while ((len = strlen(path)) > 1 && path[len - 1] == '/')
			path[len - 1] = '\0';
		game = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
		    path;
	}
	if (mkdir(argv[optind], 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind], strerror(errno));
		return EXIT_CANTCREAT;
	}
	if (chdir(argv[optind]) != 0) {
		fprintf(stderr, "%s: game new: %s: %s\n", progname,
		    argv[optind], strerror(errno));
		return EXIT_NOINPUT;
	}
	if ((rc = lock_dir(true)) != 0)
		return rc;
	if (exists("game.json")) {
		fprintf(stderr, "%s: game new: %s is a game already\n",
		    progname, argv[optind]);
		return EXIT_CANTCREAT;
	}
	no_dumps();
	if (arb_secret_new(key) != 0) {
		fprintf(stderr, "%s: game new: no random source\n", progname);
		return EXIT_INTERNAL;
	}
	for (i = 0; i < ARB_SECRET_LEN; i++)
		sprintf(hex + 2 * i, "%02x", key[i]);
	wipe(key, sizeof(key));
	hex[2 * ARB_SECRET_LEN] = '\n';
	hex[2 * ARB_SECRET_LEN + 1] = '\0';
	if (mkdirs(STAGE "/turns", true) != 0 || wfile(STAGE "/umpire.key",
	    hex, strlen(hex)) != 0 || chmod(STAGE "/umpire.key", 0600) != 0) {
		wipe(hex, sizeof(hex));
		return cantwrite(STAGE "/umpire.key");
	}
	wipe(hex, sizeof(hex));
	/* The map committed to its dice (arbiter --commit), which checks it
	 * as arbiter would. */
	if ((rc = commit_map(STAGE "/umpire.key", game, map,
	    STAGE "/map.json")) != 0)
		goto out;
	rc = EXIT_DATA;
	if ((text = readall(STAGE "/map.json", &len)) == NULL ||
	    (mj = json_loadb(text, len, 0, NULL)) == NULL ||
	    (t = arb_turn_new()) == NULL) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_load_map(t, "map.json", text, len, &e) != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	turn = jint(mj, "turn", 1);
	/* Every player of the map has one address; every name given is a
	 * player's; a name that cannot name a file is refused. */
	ps = json_array();
	for (k = 0; (s = arb_turn_player(t, k)) != NULL; k++) {
		const char	*addr = NULL;

		if (!safe_name(s)) {
			fprintf(stderr, "%s: game new: player \"%s\" cannot "
			    "name a file (letters, digits, '-', '_', '.', not "
			    "first)\n", progname, s);
			json_decref(ps);
			goto out;
		}
		for (i = 0; i < np; i++) {
			size_t	 n = (size_t)(strchr(players[i], '=') -
			    players[i]);

			if (strlen(s) == n && strncmp(players[i], s, n) == 0)
				addr = players[i] + n + 1;
		}
		if (addr == NULL || !safe_addr(addr)) {
			fprintf(stderr, "%s: game new: player %s needs %s "
			    "mail address: --player %s=ADDRESS\n", progname,
			    s, addr == NULL ? "a" : "a good", s);
			json_decref(ps);
			rc = EXIT_USAGE;
			goto out;
		}
		json_array_append_new(ps, json_pack("{s:s, s:s}", "name", s,
		    "address", addr));
	}
	for (i = 0; i < np; i++) {
		char	 nm[256];

		xsnprintf(nm, sizeof(nm), "%.*s", (int)(strchr(players[i],
		    '=') - players[i]), players[i]);
		if (arb_turn_find_player(t, nm, &s) < 0) {
			fprintf(stderr, "%s: game new: --player: no player "
			    "\"%s\" on this map\n", progname, nm);
			json_decref(ps);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	iso(g.deadline, dl, sizeof(dl));
	j = json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:i, s:b, s:i, s:s, "
	    "s:i}", "game", game, "ruleset", arb_turn_ruleset(t), "players",
	    ps, "umpire", umpire, "from", from != NULL ? from : umpire,
	    "send_command", sendcmd, "period_days", (int)period, "early",
	    early, "turn", (int)turn, "deadline", dl, "redone", 0);
	if (j == NULL) {
		rc = nomem();
		goto out;
	}
	g.j = j;
	g.name = game;
	game_turnname(turn, tn, sizeof(tn));
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/map.json", tn);
	if (mkdirs(path, false) != 0 || rename(STAGE "/map.json", path) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/mail", tn);
	if (mkdirs(path, true) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	xsnprintf(path, sizeof(path), STAGE "/turns/%s/orders", tn);
	if (mkdirs(path, true) != 0 || mkdirs(STAGE "/aside", true) != 0 ||
	    mkdirs(STAGE "/outbox", true) != 0 ||
	    mkdirs(STAGE "/sent", true) != 0) {
		rc = cantwrite(STAGE);
		goto out;
	}
	plan_add(&g, STAGE "/turns", "turns");
	plan_add(&g, STAGE "/aside", "aside");
	plan_add(&g, STAGE "/outbox", "outbox");
	plan_add(&g, STAGE "/sent", "sent");
	plan_add(&g, STAGE "/umpire.key", "umpire.key");
	if ((rc = stage_game(&g, turn, g.deadline, 0, 0)) != 0)
		goto out;
	if ((rc = commit(&g)) != 0)
		goto out;
	printf("game %s: turn %ld opens, deadline %s; players:", game, turn,
	    dl);
	for (k = 0; (s = arb_turn_player(t, k)) != NULL; k++)
		printf(" %s", s);
	printf("\n");
	rc = 0;
out:
	if (rc != 0)
		rm_rf(STAGE);
	arb_turn_free(t);
	json_decref(mj);
	json_decref(j);
	free(g.plan);
	free(text);
	return rc;
}

/* A player's orders checked against the open turn's map. */
struct check {
	int	 state;		/* 0: no orders, 1: with problems, 2: ready */
	int	 problems, orders;
	char	 reason[32];	/* the file's refusal, or "" */
	long	 turn;		/* the turn the orders name, or 0 */
	char	*canon;		/* the orders as canonical text, or NULL */
	char	*report;	/* each order's ruling, each problem */
};

static void
check_free(struct check *c)
{
	free(c->canon);
	free(c->report);
	memset(c, 0, sizeof(*c));
}

static const char *
jget(const json_t *o, const char *key)
{
	const char	*s = gstr(o, key);

	return s != NULL ? s : "";
}

/* The check of an orders text for player, under the name file: 0, or an
 * exit status after a message (the map is bad, memory ran out). */
static int
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
static int
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

static int
count_orders(struct game *g, long turn)
{
	char	 path[PATH_MAX], tn[32];
	int	 i, n = 0;

	game_turnname(turn, tn, sizeof(tn));
	for (i = 0; i < g->nplayers; i++) {
		xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn,
		    player_name(g, i));
		if (exists(path))
			n++;
	}
	return n;
}

/* Reads standard input: at most max bytes kept, the rest read and
 * counted in *total. */
static char *
read_stdin(size_t max, size_t *len, size_t *total)
{
	char	*buf, drain[65536];
	size_t	 n = 0, r;

	if ((buf = malloc(max + 1)) == NULL)
		return NULL;
	while (n < max && (r = fread(buf + n, 1, max - n, stdin)) > 0)
		n += r;
	*len = n;
	*total = n;
	while ((r = fread(drain, 1, sizeof(drain), stdin)) > 0)
		*total += r;
	buf[n] = '\0';
	return buf;
}

/* Whether a mail with this text is filed already, anywhere in DIR: in a
 * turn's mail/ or aside/.  Its path in found. */
static bool
filed(const char *buf, size_t len, const char *sha8, char *found,
    size_t size)
{
	char		**turns, **names, dir[PATH_MAX], path[PATH_MAX];
	char		*other;
	size_t		 nt, nn, i, k, olen, sl = strlen(sha8);
	bool		 yes = false;

	turns = list_dir("turns", &nt);
	for (i = 0; i <= nt && !yes; i++) {
		if (i < nt)
			xsnprintf(dir, sizeof(dir), "turns/%s/mail", turns[i]);
		else
			xsnprintf(dir, sizeof(dir), "aside");
		names = list_dir(dir, &nn);
		for (k = 0; k < nn && !yes; k++) {
			size_t	 l = strlen(names[k]);

			if (l < sl + 4 || strncmp(names[k] + l - sl - 4,
			    sha8, sl) != 0)
				continue;
			xsnprintf(path, sizeof(path), "%s/%s", dir, names[k]);
			if ((other = readall(path, &olen)) == NULL)
				continue;
			if (olen == len && memcmp(other, buf, len) == 0) {
				yes = true;
				xsnprintf(found, size, "%s", path);
			}
			free(other);
		}
		free_list(names, nn);
	}
	free_list(turns, nt);
	return yes;
}

/* The mail filed aside (aside/NAME.eml and NAME.why) and the umpire
 * told. */
static int
aside(struct game *g, const char *name, const char *buf, size_t len,
    const char *why, const char *detail)
{
	char	 path[PATH_MAX], dst[PATH_MAX], line[600], body[2048];
	char	 subject[256];
	json_t	*w;

	xsnprintf(path, sizeof(path), STAGE "/%s.eml", name);
	xsnprintf(dst, sizeof(dst), "aside/%s.eml", name);
	if (wfile(path, buf, len) != 0 || plan_add(g, path, dst) != 0)
		return cantwrite(path);
	/* The reason on one line, without what the mail could inject. */
	xsnprintf(line, sizeof(line), "%s%s%s", why, detail != NULL ? ": " :
	    "", detail != NULL ? detail : "");
	if ((w = cleans(line, true)) == NULL)
		return nomem();
	xsnprintf(line, sizeof(line), "%s\n", json_string_value(w));
	xsnprintf(path, sizeof(path), STAGE "/%s.why", name);
	xsnprintf(dst, sizeof(dst), "aside/%s.why", name);
	if (wfile(path, line, strlen(line)) != 0 ||
	    plan_add(g, path, dst) != 0) {
		json_decref(w);
		return cantwrite(path);
	}
	xsnprintf(body, sizeof(body), "A mail was filed aside, not read as "
	    "orders:\n\n  aside/%s.eml\n  why: %s\n\nNothing else was done "
	    "with it.  If it holds a player's orders, save them as the "
	    "player's and give them to arbiter game receive again, or answer "
	    "the sender.\n", name, json_string_value(w));
	xsnprintf(subject, sizeof(subject), "[%s turn %ld] a mail filed aside",
	    g->name, g->turn);
	json_decref(w);
	if (queue(g, "aside", g->umpire, g->turn, NULL, subject, body, NULL,
	    NULL) != 0)
		return cantwrite(STAGE "/outbox");
	printf("filed aside as aside/%s.eml: %s\n", name, why);
	return 0;
}

static void
indent(FILE *fp, const char *s)
{
	const char	*nl;

	while (*s != '\0') {
		nl = strchr(s, '\n');
		fprintf(fp, "  %.*s\n", (int)(nl != NULL ? nl - s :
		    (long)strlen(s)), s);
		s = nl != NULL ? nl + 1 : s + strlen(s);
	}
}

/* receive DIR < mail */
static int
cmd_receive(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "max-size", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	struct head	 h, old;
	struct check	 ck;
	struct text	 body;
	unsigned char	 sum[crypto_hash_sha256_BYTES];
	char		 name[64], sha8[9], found[PATH_MAX], tn[32];
	char		 path[PATH_MAX], dst[PATH_MAX], detail[600], date[32];
	char		 odate[32], dl[32], subject[256], *buf, *map = NULL;
	char		*end;
	const char	*why, *player = NULL, *subj;
	size_t		 len, total, maplen, max = MAXMAIL;
	int		 c, i, rc, had, n, pi = 0;
	bool		 noorders, older = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'm':
			max = strtoul(optarg, &end, 10);
			if (*end != '\0' || max < 1024 || max > 1L << 30) {
				fprintf(stderr, "%s: game receive: "
				    "--max-size: bytes, from 1024 to 2^30\n",
				    progname);
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s game receive DIR [--max-size "
		    "BYTES] < mail\n", progname);
		return EXIT_USAGE;
	}
	if ((buf = read_stdin(max, &len, &total)) == NULL)
		return nomem();
	memset(&h, 0, sizeof(h));
	memset(&old, 0, sizeof(old));
	memset(&ck, 0, sizeof(ck));
	if ((rc = enter(argv[optind], &g, true)) != 0) {
		free(buf);
		leave(&g);
		return rc == EXIT_CANTCREAT ? EXIT_TEMPFAIL : rc;
	}
	crypto_hash_sha256(sum, (const unsigned char *)buf, len);
	xsnprintf(sha8, sizeof(sha8), "%02x%02x%02x%02x", sum[0], sum[1],
	    sum[2], sum[3]);
	xsnprintf(name, sizeof(name), "%s-%s", g.stamp, sha8);
	game_turnname(g.turn, tn, sizeof(tn));
	if (filed(buf, len, sha8, found, sizeof(found))) {
		printf("filed already as %s: nothing done\n", found);
		rc = 0;
		goto out;
	}
	if (mkdirs(STAGE, true) != 0) {
		rc = cantwrite(STAGE);
		goto out;
	}
	if (total > len) {
		xsnprintf(detail, sizeof(detail), "%zu bytes, more than %zu; "
		    "the first %zu kept", total, max, len);
		rc = aside(&g, name, buf, len, "too large", detail);
		goto commit;
	}
	if (memchr(buf, '\0', len) != NULL) {
		rc = aside(&g, name, buf, len, "unreadable", "a NUL byte in "
		    "the mail");
		goto commit;
	}
	if (head_read(buf, len, &h, &why) != 0) {
		rc = aside(&g, name, buf, len, why, NULL);
		goto commit;
	}
	for (i = 0; i < g.nplayers; i++)
		if (strcasecmp(h.from, player_addr(&g, i)) == 0) {
			player = player_name(&g, i);
			pi = i;
		}
	if (player == NULL) {
		rc = aside(&g, name, buf, len, "unknown sender", h.from);
		goto commit;
	}
	if ((rc = read_map(&g, &map, &maplen)) != 0)
		goto out;
	xsnprintf(path, sizeof(path), "orders/%s.eml", player);
	if ((rc = check_orders(map, maplen, player, path, buf, len,
	    &ck)) != 0)
		goto out;
	subj = h.subject != NULL ? h.subject : "";
	if (strcmp(ck.reason, "bad_mail") == 0 || (strcmp(ck.reason,
	    "wrong_turn") == 0 && ck.turn > 0 && ck.turn < g.turn)) {
		bool	 late = strcmp(ck.reason, "bad_mail") != 0;

		if (late)
			xsnprintf(detail, sizeof(detail), "orders for turn %ld, "
			    "from %s; the open turn is %ld", ck.turn,
			    player, g.turn);
		else
			xsnprintf(detail, sizeof(detail), "from %s", player);
		if ((rc = aside(&g, name, buf, len, late ? "turn already run" :
		    "unreadable", detail)) != 0)
			goto out;
		if (!text_open(&body)) {
			rc = nomem();
			goto out;
		}
		fprintf(body.fp, "Game %s, turn %ld.\n\nYour mail \"%s\" %s, "
		    "so it was not read as orders: it was filed aside for the "
		    "umpire.\n", g.name, g.turn, subj, late ?
		    "holds orders for a turn that has been run already" :
		    "could not be read as a mail");
		if (ck.report != NULL && *ck.report != '\0')
			fprintf(body.fp, "\n%s", ck.report);
		if (!text_close(&body)) {
			free(body.s);
			rc = nomem();
			goto out;
		}
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] your mail "
		    "was not read", g.name, g.turn);
		rc = queue(&g, "ack", player_addr(&g, pi), g.turn, player,
		    subject, body.s, h.msgid, NULL);
		free(body.s);
		goto commit;
	}
	noorders = strcmp(ck.reason, "not_orders") == 0 ||
	    strcmp(ck.reason, "no_orders") == 0 ||
	    strcmp(ck.reason, "html_only") == 0;
	if (!h.dated)
		h.date = g.now;
	iso(h.date, date, sizeof(date));
	xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn, player);
	had = exists(path);
	if (had) {
		char	*ob;
		size_t	 ol;
		const char *ow;

		if ((ob = readall(path, &ol)) != NULL) {
			if (head_read(ob, ol, &old, &ow) == 0 && old.dated &&
			    old.date > h.date)
				older = true;
			free(ob);
		}
		iso(old.date, odate, sizeof(odate));
	}
	xsnprintf(path, sizeof(path), STAGE "/mail.eml");
	xsnprintf(dst, sizeof(dst), "turns/%s/mail/%s.eml", tn, name);
	if (wfile(path, buf, len) != 0 || plan_add(&g, path, dst) != 0) {
		rc = cantwrite(path);
		goto out;
	}
	if (!noorders && !older) {
		xsnprintf(dst, sizeof(dst), "turns/%s/orders/%s.eml", tn,
		    player);
		if (stage_link(STAGE "/mail.eml", STAGE "/orders.eml") != 0 ||
		    plan_add(&g, STAGE "/orders.eml", dst) != 0) {
			rc = cantwrite(STAGE "/orders.eml");
			goto out;
		}
	}
	n = count_orders(&g, g.turn) + (!had && !noorders && !older ? 1 : 0);
	iso(g.deadline, dl, sizeof(dl));
	if (!text_open(&body)) {
		rc = nomem();
		goto out;
	}
	fprintf(body.fp, "Game %s, turn %ld, deadline %s.\n\n", g.name,
	    g.turn, dl);
	fprintf(body.fp, "Your mail \"%s\", dated %s, was received and "
	    "filed as turns/%s/mail/%s.eml.\n", subj, date, tn, name);
	if (older)
		fprintf(body.fp, "\nIt is older than the mail whose orders "
		    "count (dated %s): an older mail arriving late does not "
		    "replace a newer one, so the orders of the newer mail "
		    "still count, and the orders below do not.\n", odate);
	else if (noorders)
		fprintf(body.fp, "\nNo orders were found in it (%s): %s\n",
		    ck.reason, had ? "the orders you sent before still "
		    "count." : "you have no orders for this turn yet.");
	else
		fprintf(body.fp, "\nThese orders now count for turn %ld%s.\n",
		    g.turn, had ? ", in place of those you sent before" : "");
	if (!noorders) {
		fprintf(body.fp, "\nYour orders as understood:\n\n");
		if (ck.canon != NULL)
			indent(body.fp, ck.canon);
		else
			fprintf(body.fp, "  (none could be read)\n");
	}
	fprintf(body.fp, "\nThe orders checked against the turn's map:\n");
	if (ck.report != NULL && *ck.report != '\0')
		fputs(ck.report, body.fp);
	else
		fprintf(body.fp, "  no orders\n");
	if (ck.problems > 0)
		fprintf(body.fp, "\n%d problem%s: correct %s and send all "
		    "your orders again before the deadline.\n", ck.problems,
		    ck.problems == 1 ? "" : "s", ck.problems == 1 ? "it" :
		    "them");
	else if (!noorders)
		fprintf(body.fp, "\nNo problems found.\n");
	fprintf(body.fp, "\n%d of %d players have sent orders for turn %ld."
	    "\n", n, g.nplayers, g.turn);
	if (!text_close(&body)) {
		free(body.s);
		rc = nomem();
		goto out;
	}
	xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s", g.name,
	    g.turn, older ? "an older mail, not used" : noorders ?
	    "no orders found" : ck.problems > 0 ?
	    "orders received, with problems" : "orders received");
	rc = queue(&g, "ack", player_addr(&g, pi), g.turn, player, subject,
	    body.s, h.msgid, NULL);
	free(body.s);
	if (rc != 0) {
		rc = cantwrite(STAGE "/outbox");
		goto out;
	}
	printf("%s: %s from %s (%d of %d players have sent orders)\n",
	    name, older ? "an older mail, filed, "
	    "not used" : noorders ? "no orders, filed" : "orders filed",
	    player, n, g.nplayers);
commit:
	if (rc == 0)
		rc = commit(&g);
out:
	if (rc != 0)
		rm_rf(STAGE);
	check_free(&ck);
	head_free(&h);
	head_free(&old);
	free(map);
	free(buf);
	leave(&g);
	return rc == EXIT_CANTCREAT ? EXIT_TEMPFAIL : rc;
}

/* Each player's state for the open turn (struct check's), in states. */
static int
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

/* "in 2 days 3 hours" or "passed". */
static void
until(time_t now, time_t when, char *buf, size_t size)
{
	long	 d = (long)(when - now);

	if (d <= 0)
		xsnprintf(buf, size, "passed");
	else
		xsnprintf(buf, size, "in %ld day%s %ld hour%s %ld minute%s",
		    d / 86400, d / 86400 == 1 ? "" : "s", d % 86400 / 3600,
		    d % 86400 / 3600 == 1 ? "" : "s", d % 3600 / 60,
		    d % 3600 / 60 == 1 ? "" : "s");
}

/* status DIR */
static int
cmd_status(int argc, char **argv)
{
	static const char *const said[3] = { "no orders",
	    "orders with problems", "ready" };
	struct game	 g;
	int		 states[256], problems[256], i, n = 0, rc;
	size_t		 nq, na;
	char		 dl[32], left[80], **q, **a;

	if (argc != 2) {
		fprintf(stderr, "usage: %s game status DIR\n", progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[1], &g, true)) != 0 ||
	    (rc = player_states(&g, states, problems)) != 0) {
		leave(&g);
		return rc;
	}
	iso(g.deadline, dl, sizeof(dl));
	until(g.now, g.deadline, left, sizeof(left));
	printf("game %s (%s), turn %ld, deadline %s (%s)\n", g.name,
	    jget(g.j, "ruleset"), g.turn, dl, left);
	for (i = 0; i < g.nplayers; i++) {
		printf("  %s: %s", player_name(&g, i), said[states[i]]);
		if (states[i] == 1)
			printf(" (%d problem%s)", problems[i], problems[i] ==
			    1 ? "" : "s");
		printf("\n");
		n += states[i] > 0;
	}
	q = list_dir("outbox", &nq);
	a = list_dir("aside", &na);
	printf("%d of %d players have sent orders; %s; %zu mail%s queued, "
	    "%zu filed aside\n", n, g.nplayers,
	    json_is_true(json_object_get(g.j, "early")) ?
	    "the turn runs early once every player is ready" :
	    "the turn runs at its deadline", nq, nq == 1 ? "" : "s", na / 2);
	free_list(q, nq);
	free_list(a, na);
	leave(&g);
	return 0;
}

/* One output of a turn, by kind. */
enum okind { O_RESULT, O_TRACE, O_TRACEJ, O_SVG, O_PNG, O_NEXT, O_VIEW,
    O_LETTER, O_SVGNEXT, O_PNGNEXT };

static int
output(struct arb_turn *t, const char *path, enum okind k, int p)
{
	struct arb_error e;
	FILE		*fp;
	int		 rc = -1;

	if ((fp = wopen(path)) == NULL)
		return cantwrite(path);
	switch (k) {
	case O_RESULT:
		rc = arb_turn_write_result(t, 0, fp, &e);
		break;
	case O_TRACE:
	case O_TRACEJ:
		rc = arb_turn_write_trace(t, k == O_TRACE, fp, &e);
		break;
	case O_SVG:
	case O_SVGNEXT:
		rc = arb_turn_write_svg(t, k == O_SVGNEXT ? ARB_SVG_NEXT : 0,
		    p, fp, &e);
		break;
	case O_PNG:
	case O_PNGNEXT:
		rc = arb_turn_write_png(t, k == O_PNGNEXT ? ARB_SVG_NEXT : 0,
		    p, 0, fp, &e);
		break;
	case O_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case O_VIEW:
	case O_LETTER:
		rc = arb_turn_write_view(t, p, k == O_LETTER ? ARB_VIEW_TEXT :
		    0, fp, &e);
		break;
	}
	if (rc != 0) {
		fclose(fp);
		if (e.code == ARB_EWRITE) {
			fprintf(stderr, "%s: game: cannot write %s: %s\n",
			    progname, path, e.text);
			return EXIT_CANTCREAT;
		}
		return report(&e);
	}
	if (wclose(fp, path) != 0)
		return cantwrite(path);
	return 0;
}

/* What a turn's result says of its players: who sent orders, and the
 * summary's text. */
struct turninfo {
	char	*summary;
	char	 sent[1024], none[1024];	/* names, ", "-separated */
};

static void
addname(char *list, size_t size, const char *name)
{
	size_t	 n = strlen(list);

	xsnprintf(list + n, size - n, "%s%s", n > 0 ? ", " : "", name);
}

static int
summarize(struct game *g, long n, const char *resultpath, const char *how,
    struct turninfo *ti)
{
	json_t		*r, *f, *o, *pr;
	json_error_t	 je;
	struct text	 s;
	size_t		 i, k;
	int		 p, refusals = 0;
	char		 when[32];
	bool		 sent;

	memset(ti, 0, sizeof(*ti));
	if ((r = json_load_file(resultpath, 0, &je)) == NULL) {
		fprintf(stderr, "%s: game: %s: %s\n", progname, resultpath,
		    je.text);
		return EXIT_INTERNAL;
	}
	for (p = 0; p < g->nplayers; p++) {
		sent = false;
		json_array_foreach(json_object_get(r, "files"), i, f)
			if (strcmp(jget(f, "player"), player_name(g, p)) == 0)
				sent = true;
		addname(sent ? ti->sent : ti->none, sizeof(ti->sent),
		    player_name(g, p));
	}
	if (!text_open(&s)) {
		json_decref(r);
		return nomem();
	}
	iso(g->now, when, sizeof(when));
	fprintf(s.fp, "Game %s, turn %ld (%s): the umpire's summary.\n"
	    "Run at %s%s.\n\n", g->name, n, jget(r, "ruleset"), when, how);
	fprintf(s.fp, "Orders received from: %s\n", ti->sent[0] != '\0' ?
	    ti->sent : "nobody");
	fprintf(s.fp, "No orders received from: %s\n", ti->none[0] != '\0' ?
	    ti->none : "nobody (every player sent orders)");
	fprintf(s.fp, "\nRefusals:\n");
	json_array_foreach(json_object_get(r, "files"), i, f) {
		if (strcmp(jget(f, "status"), "refused") != 0)
			continue;
		json_array_foreach(json_object_get(f, "problems"), k, pr) {
			fprintf(s.fp, "  %s: the whole file refused: %s (%s)\n",
			    jget(f, "player"), jget(pr, "message"),
			    jget(pr, "reason"));
			refusals++;
		}
	}
	json_array_foreach(json_object_get(r, "orders"), i, o) {
		if (strcmp(jget(o, "status"), "illegal") != 0 &&
		    strcmp(jget(o, "status"), "failed") != 0)
			continue;
		fprintf(s.fp, "  %s order %s: %s, %s: %s\n", jget(o, "player"),
		    jget(o, "id"), jget(o, "status"), jget(o, "reason"),
		    jget(o, "message"));
		refusals++;
	}
	if (refusals == 0)
		fprintf(s.fp, "  none\n");
	fprintf(s.fp, "\nThe orders:\n");
	i = 0;
	json_array_foreach(json_object_get(r, "orders"), k, o) {
		fprintf(s.fp, "  %s order %s: %s: %s\n", jget(o, "player"),
		    jget(o, "id"), jget(o, "status"), jget(o, "message"));
		i++;
	}
	if (i == 0)
		fprintf(s.fp, "  none\n");
	json_decref(r);
	if (!text_close(&s)) {
		free(s.s);
		return nomem();
	}
	ti->summary = s.s;
	return 0;
}

enum mode { M_RUN, M_PREVIEW, M_REDO };

/*
 * Turn n adjudicated from the files of src (map.json, orders/PLAYER.eml)
 * into out: every output of the turn's folder, and the next map as
 * nextmap.  0, or an exit status after a message.
 */
static int
adjudicate(long n, const char *src, const char *out, const char *nextmap)
{
	static const struct { const char *name; enum okind k; } umpire[] = {
		{ "result.json", O_RESULT }, { "trace.txt", O_TRACE },
		{ "trace.jsonl", O_TRACEJ }, { "turn.svg", O_SVG },
		{ "turn.png", O_PNG } }, each[] = {
		{ "letter.txt", O_LETTER }, { "report.json", O_VIEW },
		{ "turn.svg", O_SVG }, { "turn.png", O_PNG },
		{ "next.json", O_NEXT }, { "next.svg", O_SVGNEXT },
		{ "next.png", O_PNGNEXT } };
	struct arb_turn	*t;
	struct arb_error e;
	unsigned char	 key[ARB_SECRET_LEN];
	char		 path[PATH_MAX], *buf;
	const char	*name;
	size_t		 len, i;
	int		 p, rc;

	(void)n;
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	no_dumps();
	if ((rc = read_secret("umpire.key", key)) != 0) {
		arb_turn_free(t);
		return rc;
	}
	arb_turn_set_secret(t, key);
	wipe(key, sizeof(key));
	xsnprintf(path, sizeof(path), "%s/map.json", src);
	if ((buf = readall(path, &len)) == NULL) {
		rc = EXIT_NOINPUT;
		fprintf(stderr, "%s: game: %s: %s\n", progname, path,
		    strerror(errno));
		goto out;
	}
	rc = arb_turn_load_map(t, "map.json", buf, len, &e);
	free(buf);
	if (rc != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		char	 file[PATH_MAX];

		xsnprintf(path, sizeof(path), "%s/orders/%s.eml", src, name);
		if ((buf = readall(path, &len)) == NULL)
			continue;
		xsnprintf(file, sizeof(file), "orders/%s.eml", name);
		rc = arb_turn_load_orders(t, file, name, buf, len, &e);
		free(buf);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (arb_turn_run(t, ARB_TRACE, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	for (i = 0; i < sizeof(umpire) / sizeof(umpire[0]); i++) {
		xsnprintf(path, sizeof(path), "%s/%s", out, umpire[i].name);
		if ((rc = output(t, path, umpire[i].k, -1)) != 0)
			goto out;
		if (i == 0)
			fail_at("result");
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++)
		for (i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
			xsnprintf(path, sizeof(path), "%s/players/%s/%s", out,
			    name, each[i].name);
			if ((rc = output(t, path, each[i].k, p)) != 0)
				goto out;
		}
	fail_at("players");
	rc = output(t, nextmap, O_NEXT, -1);
out:
	arb_turn_free(t);
	return rc;
}

/* The mails of a turn that was run: each player's letter, the umpire's
 * summary (or, for a preview, the umpire's alone). */
static int
turn_mails(struct game *g, long n, const char *dir, enum mode mode,
    const struct turninfo *ti)
{
	char		 path[PATH_MAX], subject[256], a[9][PATH_MAX];
	char		 nm[3][64], *letter;
	const char	*att[10];
	struct text	 b;
	int		 i, rc;

	xsnprintf(nm[0], sizeof(nm[0]), "turn-%ld.png", n);
	xsnprintf(nm[1], sizeof(nm[1]), "turn-%ld.svg", n);
	xsnprintf(nm[2], sizeof(nm[2]), "map-turn-%ld.json", n + 1);
	for (i = 0; mode != M_PREVIEW && i < g->nplayers; i++) {
		const char *pn = player_name(g, i);

		xsnprintf(path, sizeof(path), STAGE "/t/players/%s/letter.txt",
		    pn);
		if ((letter = readall(path, NULL)) == NULL)
			return cantwrite(path);
		if (!text_open(&b)) {
			free(letter);
			return nomem();
		}
		fprintf(b.fp, "Game %s, turn %ld%s.\n", g->name, n,
		    mode == M_REDO ? ": the umpire re-ran this turn, and this "
		    "letter replaces the one sent before; orders sent for "
		    "later turns must be sent again" : "");
		fprintf(b.fp, "No orders received from: %s%s.\n\n",
		    ti->none[0] != '\0' ? ti->none : "nobody",
		    ti->none[0] != '\0' ? " (their units held)" : "");
		fputs(letter, b.fp);
		free(letter);
		if (!text_close(&b)) {
			free(b.s);
			return nomem();
		}
		xsnprintf(a[0], sizeof(a[0]), "%s/players/%s/turn.png", dir, pn);
		xsnprintf(a[1], sizeof(a[1]), "%s/players/%s/turn.svg", dir, pn);
		xsnprintf(a[2], sizeof(a[2]), "%s/players/%s/next.json", dir,
		    pn);
		att[0] = a[0], att[1] = "image/png", att[2] = nm[0];
		att[3] = a[1], att[4] = "image/svg+xml", att[5] = nm[1];
		att[6] = a[2], att[7] = "application/json", att[8] = nm[2];
		att[9] = NULL;
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s", g->name,
		    n, mode == M_REDO ? "the turn re-run: your letter" :
		    "your letter");
		rc = queue(g, mode == M_REDO ? "redo" : "turn",
		    player_addr(g, i), n, pn, subject, b.s, NULL, att);
		free(b.s);
		if (rc != 0)
			return cantwrite(STAGE "/outbox");
	}
	if (!text_open(&b))
		return nomem();
	if (mode == M_PREVIEW)
		fprintf(b.fp, "A preview of turn %ld: nothing was sent to the "
		    "players and the turn is still open.  Its files are in "
		    "%s; the letters are attached.\n\n", n, dir);
	fputs(ti->summary, b.fp);
	if (!text_close(&b)) {
		free(b.s);
		return nomem();
	}
	xsnprintf(a[0], sizeof(a[0]), "%s/turn.png", dir);
	xsnprintf(a[1], sizeof(a[1]), "%s/turn.svg", dir);
	xsnprintf(a[2], sizeof(a[2]), "%s/result.json", dir);
	att[0] = a[0], att[1] = "image/png", att[2] = nm[0];
	att[3] = a[1], att[4] = "image/svg+xml", att[5] = nm[1];
	att[6] = a[2], att[7] = "application/json", att[8] = "result.json";
	att[9] = NULL;
	if (mode == M_PREVIEW) {
		/* The letters, as the players would get them. */
		static const char *pa[3 * 32 + 10];
		static char pp[32][PATH_MAX], pl[32][96];
		int	 k = 9;

		memcpy(pa, att, 9 * sizeof(*att));
		for (i = 0; i < g->nplayers && i < 32; i++) {
			xsnprintf(pp[i], sizeof(pp[i]), "%s/players/%s/"
			    "letter.txt", dir, player_name(g, i));
			xsnprintf(pl[i], sizeof(pl[i]), "letter-%s.txt",
			    player_name(g, i));
			pa[k++] = pp[i];
			pa[k++] = "text/plain";
			pa[k++] = pl[i];
		}
		pa[k] = NULL;
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] preview",
		    g->name, n);
		rc = queue(g, "preview", g->umpire, n, NULL, subject, b.s,
		    NULL, pa);
	} else {
		xsnprintf(subject, sizeof(subject), "[%s turn %ld] %s",
		    g->name, n, mode == M_REDO ? "the turn re-run: summary" :
		    "summary");
		rc = queue(g, mode == M_REDO ? "redo" : "turn", g->umpire, n,
		    NULL, subject, b.s, NULL, att);
	}
	free(b.s);
	return rc != 0 ? cantwrite(STAGE "/outbox") : 0;
}

/* The history page into the stage, planned. */
static int
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

/* Links the inputs of turn folder src (map.json, mail/, orders/) into
 * dst. */
static int
link_inputs(const char *src, const char *dst)
{
	static const char *const sub[2] = { "mail", "orders" };
	char	 a[PATH_MAX], b[PATH_MAX], **v;
	size_t	 n, k;
	int	 i;

	xsnprintf(a, sizeof(a), "%s/map.json", src);
	xsnprintf(b, sizeof(b), "%s/map.json", dst);
	if (stage_link(a, b) != 0)
		return cantwrite(b);
	for (i = 0; i < 2; i++) {
		xsnprintf(b, sizeof(b), "%s/%s", dst, sub[i]);
		if (mkdirs(b, true) != 0)
			return cantwrite(b);
		xsnprintf(a, sizeof(a), "%s/%s", src, sub[i]);
		v = list_dir(a, &n);
		for (k = 0; k < n; k++) {
			xsnprintf(a, sizeof(a), "%s/%s/%s", src, sub[i], v[k]);
			xsnprintf(b, sizeof(b), "%s/%s/%s", dst, sub[i], v[k]);
			if (stage_link(a, b) != 0) {
				free_list(v, n);
				return cantwrite(b);
			}
		}
		free_list(v, n);
	}
	return 0;
}

/* Turn n (the open one, or for redo an earlier one) run into the stage
 * and committed. */
static int
run_turn(struct game *g, long n, enum mode mode)
{
	char		 tn[32], nn[32], src[PATH_MAX], dst[PATH_MAX];
	char		 path[PATH_MAX], dl[32], **v;
	const char	*how = "";
	struct turninfo	 ti;
	size_t		 k, nv;
	long		 m;
	time_t		 deadline = g->now + jint(g->j, "period_days", 7) *
			    86400;
	int		 rc;

	memset(&ti, 0, sizeof(ti));
	game_turnname(n, tn, sizeof(tn));
	game_turnname(n + 1, nn, sizeof(nn));
	xsnprintf(src, sizeof(src), "turns/%s", tn);
	if (mkdirs(STAGE "/t", true) != 0 ||
	    mkdirs(STAGE "/next/mail", true) != 0 ||
	    mkdirs(STAGE "/next/orders", true) != 0)
		return cantwrite(STAGE);
	if ((rc = adjudicate(n, src, STAGE "/t",
	    STAGE "/next/map.json")) != 0)
		return rc;
	if (mode == M_PREVIEW)
		how = "; a preview: nothing was sent to the players";
	else if (mode == M_REDO)
		how = "; re-run by the umpire (redo)";
	if ((rc = summarize(g, n, STAGE "/t/result.json", how, &ti)) != 0)
		return rc;
	if (wfile(STAGE "/t/summary.txt", ti.summary,
	    strlen(ti.summary)) != 0) {
		rc = cantwrite(STAGE "/t/summary.txt");
		goto out;
	}
	if (mode == M_PREVIEW) {
		xsnprintf(dst, sizeof(dst), "preview/%s", tn);
		if ((rc = turn_mails(g, n, dst, mode, &ti)) != 0)
			goto out;
		/* The preview before, replaced. */
		if (exists(dst))
			plan_add(g, dst, COMMIT "/old-preview");
		plan_add(g, STAGE "/t", dst);
		rc = commit(g);
		if (rc == 0)
			printf("turn %ld previewed in %s: a mail to the "
			    "umpire queued; the turn is still open\n", n, dst);
		goto out;
	}
	if ((rc = turn_mails(g, n, src, mode, &ti)) != 0)
		goto out;
	if (mode == M_RUN) {
		v = list_dir(STAGE "/t", &nv);
		for (k = 0; k < nv; k++) {
			xsnprintf(path, sizeof(path), STAGE "/t/%s", v[k]);
			xsnprintf(dst, sizeof(dst), "%s/%s", src, v[k]);
			plan_add(g, path, dst);
		}
		free_list(v, nv);
	} else {
		/* redo: the turn and the later ones moved aside, the turn
		 * made again from its inputs. */
		if ((rc = link_inputs(src, STAGE "/t")) != 0)
			goto out;
		for (m = n; m < g->turn + 1; m++) {
			char	 mn[32];

			game_turnname(m, mn, sizeof(mn));
			xsnprintf(path, sizeof(path), "turns/%s", mn);
			xsnprintf(dst, sizeof(dst), "redone/%s-%s", mn,
			    g->stamp);
			if (exists(path))
				plan_add(g, path, dst);
		}
		plan_add(g, STAGE "/t", src);
	}
	xsnprintf(dst, sizeof(dst), "turns/%s", nn);
	plan_add(g, STAGE "/next", dst);
	if ((rc = stage_game(g, n + 1, deadline, jint(g->j, "redone", 0) +
	    (mode == M_REDO), n)) != 0)
		goto out;
	rc = commit(g);
	if (rc == 0) {
		iso(deadline, dl, sizeof(dl));
		printf("turn %ld %s; %d mails queued; turn %ld opens, "
		    "deadline %s\n", n, mode == M_REDO ? "re-run" : "run",
		    g->queued, n + 1, dl);
	}
out:
	free(ti.summary);
	return rc;
}

/* run DIR [--now] [--preview] */
static int
cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "now", no_argument, NULL, 'n' },
		{ "preview", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	struct game	 g;
	int		 states[256], problems[256], c, i, rc, ready = 0;
	bool		 now = false, preview = false;
	char		 dl[32];

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		switch (c) {
		case 'n':
			now = true;
			break;
		case 'p':
			preview = true;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: %s game run DIR [--now] [--preview]\n",
		    progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[optind], &g, true)) != 0)
		goto out;
	if (!now && !preview && g.now < g.deadline) {
		if ((rc = player_states(&g, states, problems)) != 0)
			goto out;
		for (i = 0; i < g.nplayers; i++)
			ready += states[i] == 2;
		iso(g.deadline, dl, sizeof(dl));
		if (!json_is_true(json_object_get(g.j, "early")) ||
		    ready < g.nplayers) {
			printf("turn %ld runs at its deadline, %s (%d of %d "
			    "players ready): nothing done\n", g.turn, dl,
			    ready, g.nplayers);
			goto out;
		}
		printf("every player is ready: turn %ld runs early\n",
		    g.turn);
	}
	rc = run_turn(&g, g.turn, preview ? M_PREVIEW : M_RUN);
out:
	if (rc != 0)
		rm_rf(STAGE);
	leave(&g);
	return rc;
}

/* redo DIR TURN */
static int
cmd_redo(int argc, char **argv)
{
	struct game	 g;
	long		 n;
	char		*end, tn[32], path[PATH_MAX];
	int		 rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s game redo DIR TURN\n", progname);
		return EXIT_USAGE;
	}
	n = strtol(argv[2], &end, 10);
	if (*end != '\0' || n < 1) {
		fprintf(stderr, "%s: game redo: TURN: a turn number\n",
		    progname);
		return EXIT_USAGE;
	}
	if ((rc = enter(argv[1], &g, true)) != 0)
		goto out;
	game_turnname(n, tn, sizeof(tn));
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	if (n >= g.turn || !exists(path)) {
		fprintf(stderr, "%s: game redo: turn %ld has not been run "
		    "(the open turn is %ld)\n", progname, n, g.turn);
		rc = EXIT_DATA;
		goto out;
	}
	rc = run_turn(&g, n, M_REDO);
out:
	if (rc != 0)
		rm_rf(STAGE);
	leave(&g);
	return rc;
}

/* A file compared with the bytes a replay wrote: NULL when the same,
 * else why not. */
static const char *
same_bytes(const char *path, const char *got, size_t gotlen, char *why,
    size_t size)
{
	char	*want;
	size_t	 len, i;

	if ((want = readall(path, &len)) == NULL) {
		xsnprintf(why, size, "%s: %s", path, strerror(errno));
		return why;
	}
	for (i = 0; i < len && i < gotlen && want[i] == got[i]; i++)
		continue;
	free(want);
	if (i == len && i == gotlen)
		return NULL;
	xsnprintf(why, size, "%s differs from the replay at byte %zu", path,
	    i);
	return why;
}

/* Turn n replayed without the key: 0 when its result, trace and next
 * map are the same bytes, 1 when not (said), else an exit status. */
static int
verify_turn(long n)
{
	struct arb_turn	*t;
	struct arb_error e;
	struct text	 r, tr, nx;
	char		 tn[32], nn[32], path[PATH_MAX], why[PATH_MAX + 64];
	char		*buf;
	const char	*name, *bad = NULL;
	size_t		 len;
	int		 p, rc;

	game_turnname(n, tn, sizeof(tn));
	game_turnname(n + 1, nn, sizeof(nn));
	memset(&r, 0, sizeof(r));
	memset(&tr, 0, sizeof(tr));
	memset(&nx, 0, sizeof(nx));
	if ((t = arb_turn_new()) == NULL)
		return nomem();
	arb_turn_threads(t, 1);
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	/* The value the result reveals, and the next map's commitment it
	 * records (arbiter --replay). */
	if ((rc = replay_from(t, path)) != 0)
		goto out;
	xsnprintf(path, sizeof(path), "turns/%s/map.json", tn);
	if ((buf = readall(path, &len)) == NULL) {
		rc = EXIT_NOINPUT;
		fprintf(stderr, "%s: game verify: %s: %s\n", progname, path,
		    strerror(errno));
		goto out;
	}
	rc = arb_turn_load_map(t, "map.json", buf, len, &e);
	free(buf);
	if (rc != 0) {
		rc = report(&e);
		goto out;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		char	 file[PATH_MAX];

		xsnprintf(path, sizeof(path), "turns/%s/orders/%s.eml", tn,
		    name);
		if ((buf = readall(path, &len)) == NULL)
			continue;
		xsnprintf(file, sizeof(file), "orders/%s.eml", name);
		rc = arb_turn_load_orders(t, file, name, buf, len, &e);
		free(buf);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (arb_turn_run(t, ARB_TRACE, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if (!text_open(&r) || !text_open(&tr) || !text_open(&nx)) {
		rc = nomem();
		goto out;
	}
	if (arb_turn_write_result(t, 0, r.fp, &e) != 0 ||
	    arb_turn_write_trace(t, 0, tr.fp, &e) != 0 ||
	    arb_turn_write_next(t, nx.fp, &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if (!text_close(&r) || !text_close(&tr) || !text_close(&nx)) {
		rc = nomem();
		goto out;
	}
	xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
	bad = same_bytes(path, r.s, r.len, why, sizeof(why));
	xsnprintf(path, sizeof(path), "turns/%s/trace.jsonl", tn);
	if (bad == NULL)
		bad = same_bytes(path, tr.s, tr.len, why, sizeof(why));
	xsnprintf(path, sizeof(path), "turns/%s/map.json", nn);
	if (bad == NULL)
		bad = same_bytes(path, nx.s, nx.len, why, sizeof(why));
	if (bad == NULL)
		printf("ok turn %ld: its result, trace and next map replay to "
		    "the same bytes without the key\n", n);
	else
		printf("not ok turn %ld: %s\n", n, bad);
	rc = bad != NULL;
out:
	if (r.fp != NULL)
		fclose(r.fp);
	if (tr.fp != NULL)
		fclose(tr.fp);
	if (nx.fp != NULL)
		fclose(nx.fp);
	free(r.s);
	free(tr.s);
	free(nx.s);
	arb_turn_free(t);
	if (rc > 1)
		printf("not ok turn %ld: it could not be replayed (above)\n",
		    n);
	return rc;
}

/* verify DIR */
static int
cmd_verify(int argc, char **argv)
{
	struct game	 g;
	long		 n;
	int		 rc, bad = 0, first = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s game verify DIR\n", progname);
		return EXIT_USAGE;
	}
	/* No lock and no key: anyone with a copy of the folder can. */
	if ((rc = enter(argv[1], &g, false)) != 0) {
		leave(&g);
		return rc;
	}
	for (n = 1; n < g.turn; n++) {
		char	 tn[32], path[PATH_MAX];

		game_turnname(n, tn, sizeof(tn));
		xsnprintf(path, sizeof(path), "turns/%s/result.json", tn);
		if (!exists(path))
			continue;	/* before the game's first turn */
		rc = verify_turn(n);
		if (rc != 0) {
			bad++;
			if (first == 0)
				first = rc;
		}
	}
	printf("verify: %ld turn%s, %d not ok\n", g.turn - 1, g.turn == 2 ?
	    "" : "s", bad);
	leave(&g);
	return first;
}

static void
game_usage(FILE *fp)
{
	fprintf(fp, "usage: %s game new DIR MAP --player NAME=ADDRESS ... "
	    "[options]\n"
	    "       %s game receive DIR < mail\n"
	    "       %s game status DIR\n"
	    "       %s game run DIR [--now] [--preview]\n"
	    "       %s game redo DIR TURN\n"
	    "       %s game send DIR\n"
	    "       %s game verify DIR\n", progname, progname, progname,
	    progname, progname, progname, progname);
}

int
game_main(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **);
	} cmds[] = {
		{ "new", cmd_new }, { "receive", cmd_receive },
		{ "status", cmd_status }, { "run", cmd_run },
		{ "redo", cmd_redo }, { "send", game_send },
		{ "verify", cmd_verify }
	};
	size_t	 i;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		game_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	signal(SIGPIPE, SIG_IGN);
	umask(022);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			if (cmds[i].fn != game_send)
				g_mime_init();
			return cmds[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "%s: game: no command \"%s\"\n", progname, argv[1]);
	game_usage(stderr);
	return EXIT_USAGE;
}
