/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The command line: options, files in and out, messages and exit codes.
 * The only code that prints or exits.
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "arbiter.h"

/* Exit codes, listed in arbiter(1). */
enum exitcode {
	EXIT_OK = 0,
	EXIT_ILLEGAL = 1,		/* --check: illegal or failed orders */
	EXIT_USAGE = EX_USAGE,		/* 64 */
	EXIT_DATA = EX_DATAERR,		/* 65 */
	EXIT_NOINPUT = EX_NOINPUT,	/* 66 */
	EXIT_INTERNAL = EX_SOFTWARE,	/* 70 */
	EXIT_CANTCREAT = EX_CANTCREAT	/* 73 */
};

static const char *progname = "arbiter";

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-chtV] [-n next.json] [-o result.json] "
	    "[-r ruleset] [-s seed]\n"
	    "               [--max-input bytes] [--trace-file file [--text]]"
	    "\n               map.json [player=]orders.json ...\n",
	    progname);
}

static void
help(void)
{
	usage(stdout);
	printf("\n"
	    "Adjudicates one turn: reads the map and one orders file per "
	    "player,\n"
	    "writes the result as JSON.  See arbiter(1).\n\n"
	    "  -c, --check           validate the orders only; exit 1 if any "
	    "fails\n"
	    "  -h, --help            show this help\n"
	    "      --max-input BYTES refuse an input larger than BYTES (k, M, "
	    "G);\n"
	    "                        the default is 64M\n"
	    "  -n, --next FILE       write the next turn's map to FILE\n"
	    "  -o, --output FILE     write the result to FILE, not standard "
	    "output\n"
	    "  -r, --ruleset NAME    require the map to use rule system NAME\n"
	    "  -s, --seed N          use seed N for the dice, not the map's\n"
	    "  -t, --trace           include the trace in the result\n"
	    "      --trace-file FILE write the trace to FILE as JSON Lines\n"
	    "      --text            with --trace-file: readable text lines\n"
	    "  -V, --version         show the version\n\n"
	    "Map \"-\" is standard input.  Exit: 0 done, 1 illegal or failed "
	    "orders (--check),\n"
	    "64 usage, 65 bad data, 66 cannot open, 70 internal, 73 cannot "
	    "create.\n");
}

/* Reports e as "arbiter: file:line:column: text at /pointer". */
static int
report(const struct arb_error *e)
{
	if (e->code == ARB_EDATA) {
		/* Line 0: about a value, not about a place in the text. */
		if (e->line > 0)
			fprintf(stderr, "%s: %s:%d:%d: %s", progname, e->file,
			    e->line, e->column, e->text);
		else
			fprintf(stderr, "%s: %s: %s", progname, e->file,
			    e->text);
		if (e->pointer[0] != '\0')
			fprintf(stderr, " at %s", e->pointer);
		fputc('\n', stderr);
		return EXIT_DATA;
	}
	if (e->file[0] != '\0')
		fprintf(stderr, "%s: %s: %s\n", progname, e->file, e->text);
	else
		fprintf(stderr, "%s: %s\n", progname, e->text);
	return EXIT_INTERNAL;
}

/*
 * Inputs larger than this are refused unless --max-input says otherwise.
 * The benchmark's turns (a map of 1000 x 1000 hexes, 100000 orders) are
 * about 10 MB and 1 MB per file.
 */
#define INPUT_LIMIT	(64ULL << 20)
#define INPUT_CEIL	((unsigned long long)(SIZE_MAX / 4))

static unsigned long long max_input = INPUT_LIMIT;

/* Parses BYTES, or BYTES with k, M or G (binary multiples); 0 when bad. */
static unsigned long long
parse_bytes(const char *s)
{
	unsigned long long	 n;
	char			*end;
	int			 shift = 0;

	if (s[0] < '0' || s[0] > '9')
		return 0;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0)
		return 0;
	if (end[0] != '\0' && end[1] == '\0') {
		if (end[0] == 'k' || end[0] == 'K')
			shift = 10;
		else if (end[0] == 'M')
			shift = 20;
		else if (end[0] == 'G')
			shift = 30;
		else
			return 0;
	} else if (end[0] != '\0')
		return 0;
	if (n > INPUT_CEIL >> shift)
		return 0;
	return n << shift;
}

/*
 * Reads a whole file ("-": standard input), but no more than max_input
 * bytes, so that /dev/zero or an endless pipe is refused as soon as it
 * passes the limit.  NULL after a message, with *rc the exit status.
 */
static char *
slurp(const char *path, size_t *len, int *rc)
{
	FILE		*fp = stdin;
	const char	*name = "<stdin>";
	char		*buf = NULL, *p;
	size_t		 cap = 0, n = 0, want, r;

	*rc = EXIT_NOINPUT;
	if (strcmp(path, "-") != 0) {
		name = path;
		fp = fopen(path, "rb");
	}
	if (fp == NULL) {
		fprintf(stderr, "%s: cannot open %s: %s\n", progname, path,
		    strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			if (n > max_input)
				break;
			cap = cap == 0 ? 65536 : 2 * cap;
			if (cap > max_input + 1)
				cap = (size_t)max_input + 1;
			if ((p = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "%s: %s: out of memory\n",
				    progname, name);
				*rc = EXIT_INTERNAL;
				goto fail;
			}
			buf = p;
		}
		want = cap - n;
		r = fread(buf + n, 1, want, fp);
		n += r;
		if (r < want)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "%s: cannot read %s: %s\n", progname, name,
		    strerror(errno));
		goto fail;
	}
	if (n > max_input) {
		fprintf(stderr, "%s: %s: larger than %llu bytes (see "
		    "--max-input)\n", progname, name, max_input);
		goto fail;
	}
	if (fp != stdin)
		fclose(fp);
	*len = n;
	return buf;
fail:
	free(buf);
	if (fp != stdin)
		fclose(fp);
	return NULL;
}

/*
 * The length of the UTF-8 sequence s starts with, or 0 when it is not
 * valid there: overlong forms, surrogates and code points past U+10FFFF
 * are refused, as jansson refuses them.
 */
static size_t
utf8_seq(const unsigned char *s)
{
	unsigned int	 cp, min;
	size_t		 i, n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Checks that a name which goes into the result is UTF-8, as JSON text
 * must be; else says so, with every byte that is not valid UTF-8, every
 * control character and the backslash escaped as \xHH.
 */
static bool
name_is_utf8(const char *s, const char *what)
{
	const unsigned char	*p;
	size_t			 n;

	for (p = (const unsigned char *)s; *p != '\0'; p += n)
		if ((n = utf8_seq(p)) == 0)
			break;
	if (*p == '\0')
		return true;
	fprintf(stderr, "%s: ", progname);
	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		n = utf8_seq(p);
		if (n == 0 || *p < 0x20 || *p == 0x7f || *p == '\\') {
			fprintf(stderr, "\\x%02x", *p);
			n = 1;
		} else
			fwrite(p, 1, n, stderr);
	}
	fprintf(stderr, ": %s is not valid UTF-8\n", what);
	return false;
}

/*
 * What a name on the command line stands for, to find two names for one
 * file: the inodes of the file and, for a symbolic link, of the link; for
 * a name that does not exist, its directory and last component.
 */
struct ident {
	const char	*name;
	const char	*role;		/* "the map", "the result"... */
	bool		 any;		/* false: never the same as another */
	int		 nid;
	dev_t		 dev[2];
	ino_t		 ino[2];
	const char	*base;		/* when missing: the last component */
	bool		 indir;		/* and the directory is known */
	dev_t		 ddev;
	ino_t		 dino;
};

/* Fills id for name; false when memory runs out. */
static bool
ident_init(struct ident *id, const char *name, const char *role)
{
	struct stat	 st, lst;
	const char	*slash;
	char		*dir;
	bool		 s, l;

	memset(id, 0, sizeof(*id));
	id->name = name;
	id->role = role;
	/* Standard input or output: the file behind it, unless a device
	 * (a terminal, /dev/null). */
	if (strcmp(name, "-") == 0) {
		if (fstat(strcmp(role, "the map") == 0 ? STDIN_FILENO :
		    STDOUT_FILENO, &st) == 0 && !S_ISCHR(st.st_mode)) {
			id->any = true;
			id->dev[id->nid] = st.st_dev;
			id->ino[id->nid++] = st.st_ino;
		}
		return true;
	}
	s = stat(name, &st) == 0;
	l = lstat(name, &lst) == 0;
	/* Any number of outputs may go to /dev/null. */
	if (s && S_ISCHR(st.st_mode))
		return true;
	id->any = true;
	if (s) {
		id->dev[id->nid] = st.st_dev;
		id->ino[id->nid++] = st.st_ino;
	}
	if (l && (!s || lst.st_dev != st.st_dev || lst.st_ino != st.st_ino)) {
		id->dev[id->nid] = lst.st_dev;
		id->ino[id->nid++] = lst.st_ino;
	}
	if (l)
		return true;
	slash = strrchr(name, '/');
	id->base = slash == NULL ? name : slash + 1;
	if (slash == NULL)
		dir = strdup(".");
	else if (slash == name)
		dir = strdup("/");
	else
		dir = strndup(name, (size_t)(slash - name));
	if (dir == NULL)
		return false;
	if (stat(dir, &st) == 0) {
		id->indir = true;
		id->ddev = st.st_dev;
		id->dino = st.st_ino;
	}
	free(dir);
	return true;
}

static bool
ident_same(const struct ident *a, const struct ident *b)
{
	int	 i, j;

	if (!a->any || !b->any)
		return false;
	for (i = 0; i < a->nid; i++)
		for (j = 0; j < b->nid; j++)
			if (a->dev[i] == b->dev[j] && a->ino[i] == b->ino[j])
				return true;
	if (a->base == NULL || b->base == NULL || a->indir != b->indir)
		return false;
	if (!a->indir)
		return strcmp(a->name, b->name) == 0;
	return a->ddev == b->ddev && a->dino == b->dino &&
	    strcmp(a->base, b->base) == 0;
}

/*
 * Fatal signals (hangup, interrupt, termination) remove the temporary
 * files before the program dies of them.  A slot is set and cleared with
 * the signals held, so the handler never sees a file half recorded.
 */
static const int	 fatal[] = { SIGHUP, SIGINT, SIGTERM };
static char *volatile	 doomed[3];
static sigset_t		 unheld;

static void
on_fatal(int sig)
{
	size_t	 i;

	for (i = 0; i < sizeof(doomed) / sizeof(doomed[0]); i++)
		if (doomed[i] != NULL)
			unlink(doomed[i]);
	signal(sig, SIG_DFL);
	raise(sig);	/* delivered as the handler returns */
}

static void
catch_fatal(void)
{
	struct sigaction sa, old;
	size_t		 i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&sa.sa_mask, fatal[i]);
	/* A reader that goes away is a write error (73), not a death that
	 * leaves the temporaries behind. */
	signal(SIGPIPE, SIG_IGN);
	/* A signal ignored on entry (nohup, a background job) stays so. */
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		if (sigaction(fatal[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(fatal[i], &sa, NULL);
}

/* Holds the fatal signals (on), or lets them through again. */
static void
hold(bool on)
{
	sigset_t	 set;
	size_t		 i;

	if (!on) {
		sigprocmask(SIG_SETMASK, &unheld, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	sigprocmask(SIG_BLOCK, &set, &unheld);
}

/*
 * An output file written whole or not at all: into NAME.XXXXXX beside
 * it, renamed over NAME once every output has been written.
 */
struct out {
	const char	*path;
	char		*tmp;		/* NULL: written directly, or stdout */
	char		*bak;		/* a second name for the old file, */
	bool		 kept;		/* when it has one */
	bool		 existed;	/* the target was there before */
	char		*dir;		/* the directory, to sync */
	FILE		*fp;
	mode_t		 mode;
	int		 slot;		/* in doomed[] */
	bool		 placed;	/* renamed into place */
};

static int
nomem(void)
{
	fprintf(stderr, "%s: out of memory\n", progname);
	return EXIT_INTERNAL;
}

/*
 * Opens an output.  The target is opened first, without truncating it,
 * and the open descriptor decides: a device or a pipe (/dev/null,
 * /dev/stdout) is written as it is, since renaming a file over it would
 * replace it; anything else gets a temporary file beside it, with the
 * permissions of the regular file it replaces.  Returns 0, or an exit
 * status after a message.
 */
/* The descriptor a name stands for (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1. */
static int
fd_name(const char *path)
{
	const char	*n = NULL;
	char		*end;
	long		 fd;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		n = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		n = path + 14;
	if (n == NULL || *n < '0' || *n > '9')
		return -1;
	fd = strtol(n, &end, 10);
	return *end == '\0' && fd <= INT_MAX ? (int)fd : -1;
}

static int
out_open(struct out *o, const char *path, int slot)
{
	struct stat	 st;
	const char	*slash;
	mode_t		 mask;
	int		 fd, oerr;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->slot = slot;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	mask = umask(0);
	umask(mask);
	o->mode = 0666 & ~mask;
	/* A name for a descriptor already open (/dev/stdout, /dev/fd/N,
	 * /proc/self/fd/N) is written through that descriptor, as standard
	 * output is: renaming a file over it would replace the name, not what
	 * it stands for, and opening it anew would not reach a pipe. */
	if ((fd = fd_name(path)) >= 0) {
		if ((fd = dup(fd)) == -1 || (o->fp = fdopen(fd, "w")) == NULL) {
			oerr = errno;
			if (fd != -1)
				close(fd);
			goto fail;
		}
		return 0;
	}
	if ((fd = open(path, O_WRONLY | O_NOCTTY)) != -1) {
		if (fstat(fd, &st) == -1) {
			oerr = errno;
			close(fd);
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			if ((o->fp = fdopen(fd, "w")) == NULL) {
				oerr = errno;
				close(fd);
				goto fail;
			}
			return 0;
		}
		o->mode = st.st_mode & 07777;
		close(fd);
	} else if (errno != ENOENT) {
		/* Unwritable, yet a regular file can be replaced. */
		oerr = errno;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			goto fail;
		o->mode = st.st_mode & 07777;
	}
	slash = strrchr(path, '/');
	if (slash == NULL)
		o->dir = strdup(".");
	else if (slash == path)
		o->dir = strdup("/");
	else
		o->dir = strndup(path, (size_t)(slash - path));
	o->tmp = malloc(strlen(path) + 8);
	o->bak = malloc(strlen(path) + 8);
	if (o->dir == NULL || o->tmp == NULL || o->bak == NULL)
		return nomem();
	sprintf(o->tmp, "%s.XXXXXX", path);
	hold(true);
	if ((fd = mkstemp(o->tmp)) != -1)
		doomed[slot] = o->tmp;
	hold(false);
	if (fd == -1) {
		oerr = errno;
		free(o->tmp);
		o->tmp = NULL;
		goto fail;
	}
	if (fchmod(fd, o->mode) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
		oerr = errno;
		close(fd);
		if (oerr == ENOMEM)
			return nomem();
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "%s: cannot create %s: %s\n", progname, path,
	    strerror(oerr));
	return oerr == ENOMEM ? EXIT_INTERNAL : EXIT_CANTCREAT;
}

/* Flushes and closes o; 0, or an exit status after a message. */
static int
out_finish(struct out *o)
{
	int	 rc = 0;

	if (o->fp == NULL || o->fp == stdout)
		return 0;
	if (fflush(o->fp) != 0 || ferror(o->fp) || (o->tmp != NULL &&
	    fsync(fileno(o->fp)) != 0))
		rc = EXIT_CANTCREAT;
	if (fclose(o->fp) != 0)
		rc = EXIT_CANTCREAT;
	o->fp = NULL;
	if (rc != 0)
		fprintf(stderr, "%s: cannot write %s: %s\n", progname,
		    o->path, strerror(errno));
	return rc;
}

/* Removes o's temporary file, unless it was renamed, and frees o. */
static void
out_release(struct out *o)
{
	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp != NULL) {
		hold(true);
		if (doomed[o->slot] != NULL)	/* not renamed */
			unlink(o->tmp);
		doomed[o->slot] = NULL;
		hold(false);
	}
	free(o->tmp);
	free(o->bak);
	free(o->dir);
	o->tmp = o->bak = o->dir = NULL;
}

/* Gives the file at o->path a second name, o->bak, beside it. */
static bool
out_keep(struct out *o)
{
	int	 fd, tries;

	for (tries = 0; tries < 100; tries++) {
		sprintf(o->bak, "%s.XXXXXX", o->path);
		if ((fd = mkstemp(o->bak)) == -1)
			break;
		close(fd);
		unlink(o->bak);
		/* linkat() without AT_SYMLINK_FOLLOW: a link keeps itself. */
		if (linkat(AT_FDCWD, o->path, AT_FDCWD, o->bak, 0) == 0) {
			o->kept = true;
			return true;
		}
		if (errno != EEXIST)
			break;
	}
	return false;
}

/* Puts back what o replaced: its old file, or no file.  False after a
 * message; the old file then keeps its second name. */
static bool
out_restore(struct out *o)
{
	o->placed = false;
	if (o->kept) {
		if (rename(o->bak, o->path) == 0) {
			o->kept = false;
			return true;
		}
		fprintf(stderr, "%s: cannot put back %s: %s; its old "
		    "contents are in %s\n", progname, o->path,
		    strerror(errno), o->bak);
		return false;
	}
	if (o->existed) {
		fprintf(stderr, "%s: cannot put back %s: its file system has "
		    "no hard links to keep it by\n", progname, o->path);
		return false;
	}
	if (unlink(o->path) == 0)
		return true;
	fprintf(stderr, "%s: cannot remove the new %s: %s\n", progname,
	    o->path, strerror(errno));
	return false;
}

/* Syncs each directory an output was renamed in, once. */
static bool
sync_dirs(struct out *outs, int n)
{
	struct stat	 st, seen[3];
	int		 i, j, fd, nseen = 0;

	for (i = 0; i < n; i++) {
		if (outs[i].tmp == NULL)
			continue;
		if ((fd = open(outs[i].dir, O_RDONLY)) == -1) {
			/* A directory we may not read cannot be synced. */
			if (errno == EACCES)
				continue;
			goto fail;
		}
		if (fstat(fd, &st) != 0) {
			close(fd);
			goto fail;
		}
		for (j = 0; j < nseen; j++)
			if (seen[j].st_dev == st.st_dev &&
			    seen[j].st_ino == st.st_ino)
				break;
		if (j == nseen) {
			seen[nseen++] = st;
			/* EINVAL: this file system cannot sync a directory. */
			if (fsync(fd) != 0 && errno != EINVAL) {
				close(fd);
				goto fail;
			}
		}
		close(fd);
	}
	return true;
fail:
	fprintf(stderr, "%s: cannot sync %s: %s\n", progname, outs[i].dir,
	    strerror(errno));
	return false;
}

/*
 * Puts every written output in place, or none.  Before anything is
 * renamed, each target must be replaceable (not a directory) and each old
 * file gets a second name; if a rename, or syncing the directories, then
 * fails, the outputs already renamed are put back.  Call with the fatal
 * signals held.  False after a message.
 */
static bool
commit(struct out *outs, int n)
{
	struct stat	 st;
	int		 i, last = -1;
	bool		 good = true;

	for (i = 0; i < n; i++)
		if (outs[i].tmp != NULL)
			last = i;
	for (i = 0; good && i < n; i++) {
		struct out *o = &outs[i];

		if (o->tmp == NULL)
			continue;
		if (lstat(o->path, &st) != 0) {
			if (errno == ENOENT)
				continue;
		} else {
			o->existed = true;
			if (S_ISDIR(st.st_mode))
				errno = EISDIR;
			/* Without hard links, the last one can still go
			 * in: only a failed directory sync needs it back. */
			else if (out_keep(o) || (i == last && (errno == EPERM ||
			    errno == ENOTSUP || errno == EMLINK)))
				continue;
		}
		fprintf(stderr, "%s: cannot replace %s: %s\n", progname,
		    o->path, strerror(errno));
		good = false;
	}
	for (i = 0; good && i < n; i++) {
		if (outs[i].tmp == NULL)
			continue;
		if (rename(outs[i].tmp, outs[i].path) != 0) {
			fprintf(stderr, "%s: cannot rename %s to %s: %s\n",
			    progname, outs[i].tmp, outs[i].path,
			    strerror(errno));
			good = false;
			break;
		}
		outs[i].placed = true;
		doomed[outs[i].slot] = NULL;
	}
	if (good)
		good = sync_dirs(outs, n);
	for (i = n - 1; i >= 0; i--) {
		if (!good && outs[i].placed && !out_restore(&outs[i]))
			continue;
		if (outs[i].kept)
			unlink(outs[i].bak);
	}
	return good;
}

/* Writes output i of the turn to fp; 0, or an exit status after a
 * message. */
static int
write_one(struct arb_turn *t, const struct out *o, int i, bool trace,
    bool textual, FILE *fp)
{
	struct arb_error e;
	int		 rc;

	if (i == 0)
		rc = arb_turn_write_result(t, trace ? ARB_RESULT_TRACE : 0, fp,
		    &e);
	else if (i == 1)
		rc = arb_turn_write_next(t, fp, &e);
	else
		rc = arb_turn_write_trace(t, textual, fp, &e);
	if (rc == 0)
		return 0;
	if (e.code != ARB_EWRITE)
		return report(&e);
	fprintf(stderr, "%s: cannot write %s: %s\n", progname,
	    fp == stdout ? "standard output" : o->path, e.text);
	return EXIT_CANTCREAT;
}

/*
 * Writes the outputs: the result, the next map, the trace (NULL names are
 * not written).  Files first, all in place or none; standard output last.
 */
static int
write_all(struct arb_turn *t, const char *const names[3], bool trace,
    bool textual)
{
	struct out	 outs[3];
	int		 i, rc = 0;

	for (i = 0; i < 3; i++)
		memset(&outs[i], 0, sizeof(outs[i]));
	for (i = 0; rc == 0 && i < 3; i++)
		if (names[i] != NULL)
			rc = out_open(&outs[i], names[i], i);
	for (i = 0; rc == 0 && i < 3; i++)
		if (outs[i].fp != NULL && outs[i].fp != stdout)
			rc = write_one(t, &outs[i], i, trace, textual,
			    outs[i].fp);
	for (i = 0; rc == 0 && i < 3; i++)
		rc = out_finish(&outs[i]);
	if (rc == 0) {
		hold(true);
		if (!commit(outs, 3))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	for (i = 0; i < 3; i++)
		out_release(&outs[i]);
	/* Standard output last, once the files are safely in place. */
	for (i = 0; rc == 0 && i < 3; i++) {
		if (names[i] == NULL || strcmp(names[i], "-") != 0)
			continue;
		rc = write_one(t, &outs[i], i, trace, textual, stdout);
		if (rc == 0 && fflush(stdout) != 0) {
			fprintf(stderr, "%s: cannot write standard output: "
			    "%s\n", progname, strerror(errno));
			rc = EXIT_CANTCREAT;
		}
	}
	return rc;
}

/* An orders operand: "player=path", where player has no slash. */
struct operand {
	char	*path;
	char	*player;	/* or NULL */
};

/*
 * Refuses, before anything is read, names that would lose a file: an
 * output that is the same file as another output or as an input.  Also
 * names that cannot go into the result, which is UTF-8.
 */
static int
check_names(const char *map, struct operand *ops, int nops,
    const char *const names[3])
{
	static const char *const roles[3] = {
		"the result", "the next map", "the trace"
	};
	struct ident	*ids;
	int		 i, j, n = 0, nout, rc = 0;

	if (strcmp(map, "-") != 0 && !name_is_utf8(map, "file name"))
		return EXIT_USAGE;
	for (i = 0; i < nops; i++) {
		if (!name_is_utf8(ops[i].path, "file name") ||
		    (ops[i].player != NULL &&
		    !name_is_utf8(ops[i].player, "player name")))
			return EXIT_USAGE;
	}
	if ((ids = calloc((size_t)nops + 4, sizeof(*ids))) == NULL)
		return nomem();
	for (i = 0; rc == 0 && i < 3; i++)
		if (names[i] != NULL && !ident_init(&ids[n++], names[i],
		    roles[i]))
			rc = nomem();
	nout = n;
	if (rc == 0 && !ident_init(&ids[n++], map, "the map"))
		rc = nomem();
	for (i = 0; rc == 0 && i < nops; i++)
		if (!ident_init(&ids[n++], ops[i].path, "the orders"))
			rc = nomem();
	/* Each name against the outputs before it; inputs may repeat. */
	for (i = 1; rc == 0 && i < n; i++)
		for (j = 0; rc == 0 && j < i && j < nout; j++) {
			if (ident_same(&ids[i], &ids[j])) {
				fprintf(stderr, "%s: %s: %s is the same file "
				    "as %s, %s\n", progname, ids[i].name,
				    ids[i].role, ids[j].role, ids[j].name);
				rc = EXIT_USAGE;
			}
		}
	free(ids);
	return rc;
}

static int
run(int argc, char **argv, struct arb_turn *t)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "max-input", required_argument, NULL, 'M' },
		{ "next", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "ruleset", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "trace", no_argument, NULL, 't' },
		{ "trace-file", required_argument, NULL, 'T' },
		{ "text", no_argument, NULL, 'X' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*output = "-", *next = NULL, *tracefile = NULL;
	const char	*ruleset = NULL, *names[3];
	struct operand	*ops = NULL;
	struct arb_error e;
	char		*text, *end;
	size_t		 len;
	bool		 check = false, trace = false, textual = false;
	int		 ch, i, nops, rc;

	while ((ch = getopt_long(argc, argv, "chn:o:r:s:tV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			check = true;
			break;
		case 'h':
			help();
			return EXIT_OK;
		case 'M':
			if ((max_input = parse_bytes(optarg)) == 0) {
				fprintf(stderr, "%s: bad --max-input \"%s\": "
				    "expected a number of bytes, with k, M "
				    "or G for binary multiples\n", progname,
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			next = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			ruleset = optarg;
			break;
		case 's': {
			unsigned long long s;

			errno = 0;
			s = strtoull(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    optarg[0] == '-' || s > LLONG_MAX - 1) {
				fprintf(stderr, "%s: bad seed \"%s\": expected "
				    "an integer from 0 to %lld\n", progname,
				    optarg, LLONG_MAX - 1);
				return EXIT_USAGE;
			}
			arb_turn_set_seed(t, s);
			break;
		}
		case 't':
			trace = true;
			break;
		case 'T':
			tracefile = optarg;
			break;
		case 'X':
			textual = true;
			break;
		case 'V':
			printf("arbiter %s\n", ARB_VERSION);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (textual && tracefile == NULL) {
		fprintf(stderr, "%s: --text goes with --trace-file\n",
		    progname);
		return EXIT_USAGE;
	}
	if (check)
		next = NULL;	/* --check writes no next map */
	if ((tracefile != NULL && strcmp(tracefile, "-") == 0 &&
	    strcmp(output, "-") == 0) || (next != NULL &&
	    strcmp(next, "-") == 0 && (strcmp(output, "-") == 0 ||
	    (tracefile != NULL && strcmp(tracefile, "-") == 0)))) {
		fprintf(stderr, "%s: only one output can go to standard "
		    "output\n", progname);
		return EXIT_USAGE;
	}
	nops = argc - 1;
	if ((ops = calloc((size_t)nops + 1, sizeof(*ops))) == NULL)
		return nomem();
	for (i = 0; i < nops; i++) {
		char	*arg = argv[i + 1], *eq = strchr(arg, '=');

		ops[i].path = arg;
		if (eq != NULL && eq != arg && memchr(arg, '/',
		    (size_t)(eq - arg)) == NULL) {
			*eq = '\0';
			ops[i].player = arg;
			ops[i].path = eq + 1;
		}
		if (strcmp(ops[i].path, "-") == 0) {
			fprintf(stderr, "%s: only the map can be read from "
			    "standard input\n", progname);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	names[0] = output;
	names[1] = next;
	names[2] = tracefile;
	if ((rc = check_names(argv[0], ops, nops, names)) != 0)
		goto out;
	catch_fatal();

	if ((text = slurp(argv[0], &len, &rc)) == NULL)
		goto out;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ?
	    "<stdin>" : argv[0], text, len, &e);
	free(text);
	if (rc != 0) {
		rc = report(&e);
		goto out;
	}
	if (ruleset != NULL && arb_turn_ruleset(t) != NULL &&
	    strcmp(ruleset, arb_turn_ruleset(t)) != 0) {
		fprintf(stderr, "%s: %s: the map's ruleset is \"%s\", not "
		    "\"%s\"\n", progname, argv[0], arb_turn_ruleset(t),
		    ruleset);
		rc = EXIT_DATA;
		goto out;
	}
	for (i = 0; i < nops; i++) {
		if ((text = slurp(ops[i].path, &len, &rc)) == NULL)
			goto out;
		rc = arb_turn_load_orders(t, ops[i].path, ops[i].player, text,
		    len, &e);
		free(text);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (arb_turn_run(t, (check ? ARB_CHECK : 0) |
	    (trace || tracefile != NULL ? ARB_TRACE : 0), &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if ((rc = write_all(t, names, trace, textual)) == 0 && check &&
	    arb_turn_illegal(t) > 0)
		rc = EXIT_ILLEGAL;
out:
	free(ops);
	return rc;
}

int
main(int argc, char **argv)
{
	struct arb_turn	*t = arb_turn_new();
	int		 rc;

	if (t == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_INTERNAL;
	}
	rc = run(argc, argv, t);
	arb_turn_free(t);
	return rc;
}
