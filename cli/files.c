/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The command line's files: messages, inputs read within --max-input,
 * the names of the files checked before anything is read, and outputs
 * written all or none (a fatal signal removes the temporary files).
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter.h"
#include "cli.h"

const char *const progname = "arbiter";

/* Reports e as "arbiter: file:line:column: text at /pointer". */
int
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

/* A map refused: each of its problems (the first is e), or e alone. */
int
report_map(struct arb_turn *t, const struct arb_error *e)
{
	return report_map_as(t, e, NULL);
}

/* As report_map(), each place in the map named as the file "as" where
 * it is given: a game loads turns/NNNN/map.json as "map.json", the name
 * its result keeps, and says where the umpire is to mend it. */
int
report_map_as(struct arb_turn *t, const struct arb_error *e, const char *as)
{
	struct arb_error pe;
	size_t		 k;

	if (e->code != ARB_EDATA || arb_turn_problem(t, 0, &pe) != 0) {
		pe = *e;
		if (as != NULL && pe.file[0] != '\0')
			snprintf(pe.file, sizeof(pe.file), "%s", as);
		return report(&pe);
	}
	for (k = 0; arb_turn_problem(t, k, &pe) == 0; k++) {
		if (as != NULL && pe.file[0] != '\0')
			snprintf(pe.file, sizeof(pe.file), "%s", as);
		report(&pe);
	}
	return EXIT_DATA;
}

/*
 * Inputs larger than this are refused unless --max-input says otherwise.
 * The benchmark's turns (a map of 1000 x 1000 hexes, 100000 orders) are
 * about 10 MB and 1 MB per file.
 */
#define INPUT_LIMIT	(64ULL << 20)
#define INPUT_CEIL	((unsigned long long)(SIZE_MAX / 4))

unsigned long long max_input = INPUT_LIMIT;

/* Parses BYTES, or BYTES with k, M or G (binary multiples); 0 when bad. */
unsigned long long
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

static int	 fd_name(const char *);

/* What a file that is not a regular file is, for a message. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a named pipe";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

/*
 * Opens an input to read: a regular file, or a descriptor named on
 * purpose (/dev/stdin, /dev/fd/N, /proc/self/fd/N), which is read as it
 * is.  Anything else, a named pipe, a device or a directory, is refused
 * at once: opened without waiting for a writer (O_NONBLOCK), it is never
 * read.  The descriptor, or -1 after a message (none when quiet) with *rc
 * the exit status.
 */
int
open_input(const char *path, bool quiet, int *rc)
{
	struct stat	 st;
	int		 fd, fl;

	*rc = EXIT_NOINPUT;
	if (strcmp(path, "/dev/stdin") == 0 || fd_name(path) >= 0) {
		if ((fd = open(path, O_RDONLY | O_NOCTTY)) == -1 && !quiet)
			fprintf(stderr, "%s: cannot open %s: %s\n", progname,
			    path, strerror(errno));
		return fd;
	}
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)) == -1) {
		if (!quiet)
			fprintf(stderr, "%s: cannot open %s: %s\n", progname,
			    path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		if (!quiet)
			fprintf(stderr, "%s: cannot read %s: %s\n", progname,
			    path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (!quiet)
			fprintf(stderr, "%s: %s: not a regular file (%s)\n",
			    progname, path, file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/*
 * Reads a whole file ("-": standard input), but no more than max_input
 * bytes, so that /dev/zero or an endless pipe is refused as soon as it
 * passes the limit.  NULL after a message (none when quiet), with *rc
 * the exit status.
 */
char *
slurp_as(const char *path, size_t *len, int *rc, bool quiet)
{
	const char	*name = "<stdin>";
	char		*buf = NULL, *p;
	size_t		 cap = 0, n = 0;
	ssize_t		 r;
	int		 fd = STDIN_FILENO;

	*rc = EXIT_NOINPUT;
	if (strcmp(path, "-") != 0) {
		name = path;
		if ((fd = open_input(path, quiet, rc)) == -1)
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
				if (!quiet)
					fprintf(stderr, "%s: %s: out of "
					    "memory\n", progname, name);
				*rc = EXIT_INTERNAL;
				goto fail;
			}
			buf = p;
		}
		if ((r = read(fd, buf + n, cap - n)) == -1) {
			if (errno == EINTR)
				continue;
			if (!quiet)
				fprintf(stderr, "%s: cannot read %s: %s\n",
				    progname, name, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max_input) {
		if (!quiet)
			fprintf(stderr, "%s: %s: larger than %llu bytes (see "
			    "--max-input)\n", progname, name, max_input);
		goto fail;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*len = n;
	return buf;
fail:
	free(buf);
	if (fd != STDIN_FILENO)
		close(fd);
	return NULL;
}

char *
slurp(const char *path, size_t *len, int *rc)
{
	return slurp_as(path, len, rc, false);
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
bool
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
	/* Standard input or output: the file behind it when a regular file
	 * (only those can be overwritten; a pipe or a socket may well be
	 * both standard input and output). */
	if (strcmp(name, "-") == 0) {
		if (fstat(strcmp(role, "the map") == 0 ? STDIN_FILENO :
		    STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
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

/* The outputs (cli.h): the result, the next map and the trace first. */
int		 png_width;
const char	*svg_region;
int		 wkind[NOUTS] = { W_RESULT, W_NEXT, W_TRACE };
int		 wwho[NOUTS] = { -1, -1, -1 };
int		 nnames = 3;
static char *volatile	 doomed[NOUTS];
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

void
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
void
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

int
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

int
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
int
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
void
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

/* Syncs each directory an output was renamed in, once: outputs may lie
 * in any number of directories, each one is compared with those of the
 * outputs before it. */
static bool
sync_dirs(struct out *outs, int n)
{
	struct stat	 st;
	int		 i, j, fd;

	for (i = 0; i < n; i++)
		outs[i].synced = false;
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
		for (j = 0; j < i; j++)
			if (outs[j].synced && outs[j].ddev == st.st_dev &&
			    outs[j].dino == st.st_ino)
				break;
		if (j == i) {
			/* EINVAL: this file system cannot sync a directory. */
			if (fsync(fd) != 0 && errno != EINVAL) {
				close(fd);
				goto fail;
			}
			outs[i].synced = true;
			outs[i].ddev = st.st_dev;
			outs[i].dino = st.st_ino;
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
bool
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

int
write_bytes(const char *path, const char *buf, size_t len)
{
	struct out	 o;
	int		 rc;

	catch_fatal();
	if ((rc = out_open(&o, path, 0)) == 0 && o.fp != stdout &&
	    fwrite(buf, 1, len, o.fp) != len) {
		fprintf(stderr, "%s: cannot write %s: %s\n", progname, path,
		    strerror(errno));
		rc = EXIT_CANTCREAT;
	}
	if (rc == 0)
		rc = out_finish(&o);
	if (rc == 0) {
		hold(true);
		if (!commit(&o, 1))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	out_release(&o);
	if (rc == 0 && strcmp(path, "-") == 0 &&
	    (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, strerror(errno));
		rc = EXIT_CANTCREAT;
	}
	return rc;
}

/*
 * Refuses, before anything is read, names that would lose a file: an
 * output that is the same file as another output or as an input.  Also
 * names that cannot go into the result, which is UTF-8.
 */
int
check_names(const char *map, struct operand *ops, int nops,
    const char *const names[], const char *secret, const char *rolls)
{
	static const char *const roles[W_SHEET + 1] = {	/* by W_ */
		"the result", "the next map", "the trace", "the picture",
		"the next picture", "the start picture", "a player's report",
		"a player's report", "the picture as PNG", "the replay page",
		"the order sheet"
	};
	struct ident	*ids;
	int		 i, j, n = 0, nout, nin, rc = 0;

	if (strcmp(map, "-") != 0 && !name_is_utf8(map, "file name"))
		return EXIT_USAGE;
	if (rolls != NULL && !name_is_utf8(rolls, "file name"))
		return EXIT_USAGE;
	for (i = 0; i < nops; i++) {
		if (!name_is_utf8(ops[i].path, "file name") ||
		    (ops[i].player != NULL &&
		    !name_is_utf8(ops[i].player, "player name")))
			return EXIT_USAGE;
	}
	if ((ids = calloc((size_t)nops + (size_t)nnames + 3, sizeof(*ids))) ==
	    NULL)
		return nomem();
	/* A name for a descriptor must name one open now, before any file
	 * of ours could take its number. */
	for (i = 0; i < nnames; i++) {
		int	 fd = names[i] != NULL ? fd_name(names[i]) : -1;

		if (fd >= 0 && fcntl(fd, F_GETFD) == -1) {
			fprintf(stderr, "%s: cannot create %s: %s\n",
			    progname, names[i], strerror(errno));
			free(ids);
			return EXIT_CANTCREAT;
		}
	}
	for (i = 0; rc == 0 && i < nnames; i++)
		if (names[i] != NULL && !ident_init(&ids[n++], names[i],
		    roles[wkind[i]]))
			rc = nomem();
	nout = n;
	if (rc == 0 && !ident_init(&ids[n++], map, "the map"))
		rc = nomem();
	for (i = 0; rc == 0 && i < nops; i++)
		if (!ident_init(&ids[n++], ops[i].path, "the orders"))
			rc = nomem();
	nin = n;
	if (rc == 0 && secret != NULL && !ident_init(&ids[n++], secret,
	    "the secret"))
		rc = nomem();
	if (rc == 0 && rolls != NULL && !ident_init(&ids[n++], rolls,
	    "the rolls"))
		rc = nomem();
	/* The key and the rolls are never read as a map or orders, whose
	 * text goes into messages and the result (a key globbed among the
	 * orders files); nor the key as rolls. */
	for (i = nout; rc == 0 && i < n; i++)
		for (j = i < nin ? nin : i + 1; rc == 0 && j < n; j++) {
			if (ident_same(&ids[i], &ids[j])) {
				fprintf(stderr, "%s: %s: %s is the same file "
				    "as %s, %s\n", progname, ids[i].name,
				    ids[i].role, ids[j].role, ids[j].name);
				rc = EXIT_USAGE;
			}
		}
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
