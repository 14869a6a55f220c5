/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The command line: options, files in and out, messages and exit codes.
 * The only code that prints or exits.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700	/* realpath() */

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include <jansson.h>

#include "arbiter.h"
#include "cli.h"

const char *const progname = "arbiter";

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-chtV] [-n next.json] [-o result.json] "
	    "[-r ruleset] [-s seed]\n"
	    "               [--max-input bytes] [--rolls file] [--secret file]\n"
	    "               [--strict] [--text] [--threads n]\n"
	    "               [--trace-file file] [--svg file] [--svg-next file]"
	    "\n               [--svg-start file] [--png file] "
	    "[--png-width pixels]\n"
	    "               [--sheet file] "
	    "[--for player | --for all --outdir dir]"
	    " [--replay result.json]"
	    "\n               map.json [player=]orders.json ...\n"
	    "       %s [--text] [--threads n] [-o reach.json] --reach unit\n"
	    "               [--unit id ...] map.json [player=orders.json]\n"
	    "       %s [--max-input bytes] --verify dir ...\n"
	    "       %s --new-secret file\n"
	    "       %s --secret file --commit [--game name] [-o map.json] "
	    "map.json\n"
	    "       %s [--rolls file] --audit result.json [-n next.json]\n"
	    "               map.json [player=]orders.json ...\n"
	    "       %s --orders-json | --orders-text map.json orders\n",
	    progname, progname, progname, progname, progname, progname,
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
	    "fails;\n"
	    "                        every problem of the orders files is "
	    "listed\n"
	    "      --for PLAYER      the result as PLAYER may see it (text with "
	    "--text);\n"
	    "                        --for all --outdir DIR: every player's "
	    "DIR/PLAYER.json,\n"
	    "                        .txt and, with --svg, .svg\n"
	    "      --audit RESULT    check a turn without the key: files, "
	    "dice, replay\n"
	    "      --commit          with --secret: the map committed to its "
	    "turn's dice\n"
	    "      --game NAME       with --commit: the game's name\n"
	    "  -h, --help            show this help\n"
	    "      --max-input BYTES refuse an input larger than BYTES (k, M, "
	    "G);\n"
	    "                        the default is 64M\n"
	    "  -n, --next FILE       write the next turn's map to FILE\n"
	    "      --new-secret FILE make a new secret key for the dice in FILE"
	    "\n"
	    "  -o, --output FILE     write the result to FILE, not standard "
	    "output\n"
	    "      --orders-json     write the orders file (JSON or text) as "
	    "JSON\n"
	    "      --orders-text     write the orders file as canonical text\n"
	    "      --reach UNIT      list the cells UNIT can end its move in"
	    "\n                        this turn, with costs and paths (a "
	    "territory\n                        in territory); --text: one "
	    "line per cell\n"
	    "  -r, --ruleset NAME    require the map to use rule system NAME\n"
	    "      --rolls FILE      use the die values in FILE (a JSON array)"
	    "\n"
	    "      --png FILE        the picture (as --svg draws it) as PNG\n"
	    "      --png-width N     the PNG's width in pixels\n"
	    "      --replay RESULT   the umpire's run without the key, from "
	    "the value\n"
	    "                        RESULT reveals\n"
	    "      --secret FILE     the umpire's secret key for the dice\n"
	    "  -s, --seed N          use seed N for the dice, not the map's\n"
	    "      --svg FILE        draw the turn as SVG in FILE\n"
	    "      --svg-next FILE   draw the board as the next turn begins\n"
	    "      --sheet FILE      the --for player's order sheet (HTML) "
	    "for the next turn\n"
	    "      --svg-start FILE  draw the board as this turn begins\n"
	    "      --strict          fail (65) on any refused order or file, "
	    "listing\n"
	    "                        every problem; write nothing\n"
	    "  -t, --trace           include the trace in the result\n"
	    "      --trace-file FILE write the trace to FILE as JSON Lines\n"
	    "      --text            the trace (--trace-file) and the check's "
	    "report\n"
	    "                        (--check) as readable text\n"
	    "      --threads N       run at most N threads at once (default 2;"
	    "\n                        1: one); the output is the same\n"
	    "      --verify DIR...   run the rulings in each DIR and compare "
	    "them\n"
	    "                        with what they expect (see arbiter(1))\n"
	    "      --unit ID         with --reach: a unit that moves with "
	    "UNIT\n"
	    "  -V, --version         show the version\n\n"
	    "Map \"-\" is standard input.  Exit: 0 done, 1 illegal or failed "
	    "orders (--check)\n"
	    "or a ruling that differs (--verify), 64 usage, 65 bad data, 66 "
	    "cannot open,\n"
	    "70 internal, 73 cannot create.\n");
}

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
	struct arb_error pe;
	size_t		 k;

	if (e->code != ARB_EDATA || arb_turn_problem(t, 0, &pe) != 0)
		return report(e);
	for (k = 0; arb_turn_problem(t, k, &pe) == 0; k++)
		report(&pe);
	return EXIT_DATA;
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
static int
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
static char *
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

/*
 * The outputs: names[i] is written as wkind[i], for player wwho[i] (-1:
 * the umpire's).  The first three are the result, the next map and the
 * trace; pictures and players' reports follow (--svg, --svg-next, --for).
 */
#define NOUTS	(8 + 7 * 64)
enum { W_RESULT, W_NEXT, W_TRACE, W_SVG, W_SVGNEXT, W_SVGSTART, W_VIEW,
    W_VIEWTEXT, W_PNG, W_SHEET };
#define OPT_SVGSTART	0x101	/* --svg-start: a long option only */
#define OPT_SHEET	0x102	/* --sheet */
static int		 png_width;	/* --png-width, 0: the picture's */
static int		 wkind[NOUTS] = { W_RESULT, W_NEXT, W_TRACE };
static int		 wwho[NOUTS] = { -1, -1, -1 };
static int		 nnames = 3;
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
	bool		 synced;	/* its directory synced, which is */
	dev_t		 ddev;
	ino_t		 dino;
};

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

/* --check --text: the result as a report a player can read in a mail. */
static bool report_text;

static const char *
jstr(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* A blank line, then prefix and text in lines of at most 72 columns. */
static void
wrap(FILE *fp, const char *prefix, const char *text)
{
	size_t	 col, n;
	bool	 first = true;	/* the first word of its line */

	fprintf(fp, "\n%s", prefix);
	col = strlen(prefix);
	while (*text != '\0') {
		n = strcspn(text, " ");
		if (!first && col + 1 + n > 72) {
			fputc('\n', fp);
			col = 0;
		} else if (!first) {
			fputc(' ', fp);
			col++;
		}
		first = false;
		fwrite(text, 1, n, fp);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', fp);
}

static void
text_report(const json_t *r, FILE *fp)
{
	const json_t	*f, *o, *pr, *rf;
	size_t		 i, k, n[3] = { 0, 0, 0 };
	const char	*st;

	fprintf(fp, "arbiter --check: turn %" JSON_INTEGER_FORMAT " of %s\n",
	    json_integer_value(json_object_get(r, "turn")), jstr(r,
	    "ruleset"));
	wrap(fp, "Assumed: ", jstr(r, "assumed"));
	json_array_foreach(json_object_get(r, "files"), i, f) {
		const json_t *pl = json_object_get(f, "player");

		if (json_object_get(f, "status") == NULL)
			continue;	/* the map, the rolls: no orders */
		fprintf(fp, "\n%s (%s): %s\n", jstr(f, "file"),
		    json_is_string(pl) ? json_string_value(pl) :
		    "player not known", strcmp(jstr(f, "status"),
		    "refused") != 0 ? "read" : json_is_string(pl) ?
		    "refused whole: this player's units hold" :
		    "refused whole");
		if (strcmp(jstr(f, "status"), "refused") == 0)
			json_array_foreach(json_object_get(f, "problems"), k,
			    pr)
				fprintf(fp, "  problem: %s (%s)\n",
				    jstr(pr, "message"), jstr(pr, "reason"));
		json_array_foreach(json_object_get(r, "orders"), k, o) {
			if (strcmp(jstr(o, "file"), jstr(f, "file")) != 0)
				continue;
			st = jstr(o, "status");
			n[strcmp(st, "legal") == 0 ? 0 : strcmp(st,
			    "illegal") == 0 ? 1 : 2]++;
			fprintf(fp, "  order %s: %s", jstr(o, "id"), st);
			if (strcmp(st, "legal") != 0)
				fprintf(fp, ", %s", jstr(o, "reason"));
			/* An orders text's order, as it was understood. */
			if (json_is_string(json_object_get(o, "text")))
				fprintf(fp, "\n    as read: %s", jstr(o,
				    "text"));
			fprintf(fp, "\n    %s\n", jstr(o, "message"));
		}
	}
	rf = json_object_get(r, "refused");
	fprintf(fp, "\nIn all: %zu legal, %zu illegal, %zu failed; refused: "
	    "%" JSON_INTEGER_FORMAT " orders, %" JSON_INTEGER_FORMAT
	    " files.\n", n[0], n[1], n[2],
	    json_integer_value(json_object_get(rf, "orders")),
	    json_integer_value(json_object_get(rf, "files")));
	k = n[0] + n[1] + n[2];
	i = (size_t)json_integer_value(json_object_get(rf, "orders"));
	fprintf(fp, "%zu order%s read, %zu refused\n", k, k == 1 ? "" : "s",
	    i);
}

/* Writes the result, as a text report when asked. */
static int
write_result(struct arb_turn *t, bool trace, FILE *fp, struct arb_error *e)
{
	json_error_t	 je;
	json_t		*r;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*mem;
	int		 rc;

	if (!report_text)
		return arb_turn_write_result(t, trace ? ARB_RESULT_TRACE : 0,
		    fp, e);
	memset(e, 0, sizeof(*e));
	if ((mem = open_memstream(&buf, &len)) == NULL) {
		e->code = ARB_ENOMEM;
		snprintf(e->text, sizeof(e->text), "out of memory");
		return -1;
	}
	rc = arb_turn_write_result(t, 0, mem, e);
	if (fclose(mem) != 0 && rc == 0) {
		e->code = ARB_ENOMEM;
		snprintf(e->text, sizeof(e->text), "out of memory");
		rc = -1;
	}
	if (rc == 0) {
		if ((r = json_loadb(buf, len, 0, &je)) == NULL) {
			e->code = ARB_EINTERNAL;
			snprintf(e->text, sizeof(e->text), "the result does "
			    "not read back: %s", je.text);
			rc = -1;
		} else {
			text_report(r, fp);
			json_decref(r);
			if (ferror(fp)) {
				e->code = ARB_EWRITE;
				snprintf(e->text, sizeof(e->text), "%s",
				    strerror(errno));
				rc = -1;
			}
		}
	}
	free(buf);
	return rc;
}

/* Writes output i of the turn to fp; 0, or an exit status after a
 * message. */
static int
write_one(struct arb_turn *t, const struct out *o, int i, bool trace,
    bool textual, FILE *fp)
{
	struct arb_error e;
	int		 rc;

	switch (wkind[i]) {
	case W_RESULT:
		rc = write_result(t, trace, fp, &e);
		break;
	case W_NEXT:
		rc = arb_turn_write_next(t, fp, &e);
		break;
	case W_TRACE:
		rc = wwho[i] < 0 ? arb_turn_write_trace(t, textual, fp, &e) :
		    arb_turn_write_trace_for(t, wwho[i], textual, fp, &e);
		break;
	case W_PNG:
		rc = arb_turn_write_png(t, 0, wwho[i], png_width, fp, &e);
		break;
	case W_SHEET:
		rc = arb_turn_write_sheet(t, wwho[i], fp, &e);
		break;
	case W_SVG:
	case W_SVGNEXT:
	case W_SVGSTART:
		rc = arb_turn_write_svg(t, wkind[i] == W_SVGNEXT ?
		    ARB_SVG_NEXT : wkind[i] == W_SVGSTART ? ARB_SVG_START : 0,
		    wwho[i], fp, &e);
		break;
	default:
		rc = arb_turn_write_view(t, wwho[i], (wkind[i] == W_VIEWTEXT ?
		    ARB_VIEW_TEXT : 0) | (trace ? ARB_VIEW_TRACE : 0), fp, &e);
	}
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
write_all(struct arb_turn *t, const char *const names[], bool trace,
    bool textual)
{
	static struct out outs[NOUTS];
	int		 i, rc = 0;

	for (i = 0; i < nnames; i++)
		memset(&outs[i], 0, sizeof(outs[i]));
	for (i = 0; rc == 0 && i < nnames; i++)
		if (names[i] != NULL)
			rc = out_open(&outs[i], names[i], i);
	for (i = 0; rc == 0 && i < nnames; i++)
		if (outs[i].fp != NULL && outs[i].fp != stdout)
			rc = write_one(t, &outs[i], i, trace, textual,
			    outs[i].fp);
	for (i = 0; rc == 0 && i < nnames; i++)
		rc = out_finish(&outs[i]);
	if (rc == 0) {
		hold(true);
		if (!commit(outs, nnames))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	for (i = 0; i < nnames; i++)
		out_release(&outs[i]);
	/* Standard output last, once the files are safely in place. */
	for (i = 0; rc == 0 && i < nnames; i++) {
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

/* An orders operand: "player=path", where player has no slash. */
struct operand {
	char	*path;
	char	*player;	/* or NULL */
	char	*text;		/* read ahead of the map, or NULL */
	size_t	 len;
};

/*
 * Refuses, before anything is read, names that would lose a file: an
 * output that is the same file as another output or as an input.  Also
 * names that cannot go into the result, which is UTF-8.
 */
static int
check_names(const char *map, struct operand *ops, int nops,
    const char *const names[], const char *secret, const char *rolls)
{
	static const char *const roles[W_SHEET + 1] = {	/* by W_ */
		"the result", "the next map", "the trace", "the picture",
		"the next picture", "the start picture", "a player's report",
		"a player's report", "the picture as PNG", "the order sheet"
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

/*
 * --verify: runs the rulings in directories laid out as the casebook's
 * and compares what the program writes with what they expect.  Each case
 * runs this same program in a child, in the case's directory, so that its
 * options, messages and exit status are exactly what a user gets, and a
 * case that crashes or leaks cannot take the others with it.  The child's
 * result, messages and next map come back through pipes: nothing is
 * written to a file.
 */

/* A growing buffer, for what a case writes and for a JSON Pointer. */
struct buf {
	char	*p;
	size_t	 len, cap;
};

static bool
buf_add(struct buf *b, const char *s, size_t n)
{
	char	*p;
	size_t	 cap;

	if (b->len + n + 1 > b->cap) {
		cap = b->cap == 0 ? 4096 : b->cap;
		while (cap < b->len + n + 1)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL)
			return false;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return true;
}

static void
buf_release(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/*
 * What a case's file can be besides readable: a name that leads out of
 * the case (absolute, "..", or a symbolic link to outside), or not a
 * regular file (a named pipe would make --verify wait for ever).
 */
#define CASE_OUT	(-2)
#define CASE_NOTREG	(-3)

static const char *
case_error(int e)
{
	if (e == CASE_OUT)
		return "leads out of the case";
	if (e == CASE_NOTREG)
		return "not a regular file";
	return strerror(e);
}

/*
 * Checks name, a file of the case in dir (base: the case's real path):
 * 0 when it is a regular file in the case, CASE_OUT, CASE_NOTREG, or an
 * errno value (ENOENT: no such file).
 */
static int
case_path(const char *base, const char *dir, const char *name)
{
	struct stat	 st;
	const char	*p;
	char		*path, *real;
	size_t		 n = strlen(base);
	int		 e = 0;

	if (name[0] == '/')
		return CASE_OUT;
	for (p = name; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			return CASE_OUT;
	if ((path = malloc(strlen(dir) + strlen(name) + 2)) == NULL)
		return ENOMEM;
	sprintf(path, "%s/%s", dir, name);
	real = realpath(path, NULL);
	if (real == NULL)
		e = errno;
	else if (n > 0 && base[n - 1] == '/' ? strncmp(real, base, n) != 0 :
	    strncmp(real, base, n) != 0 || real[n] != '/')
		e = CASE_OUT;
	else if (stat(real, &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = CASE_NOTREG;
	free(real);
	free(path);
	return e;
}

/*
 * Reads name in the directory dfd into b.  0, ENOENT when there is no
 * such file, CASE_NOTREG, or another errno value.  Opened without
 * waiting (O_NONBLOCK): a named pipe is refused, never read.
 */
static int
read_at(int dfd, const char *name, struct buf *b)
{
	struct stat	 st;
	char	 chunk[65536];
	ssize_t	 r;
	int	 fd, e;

	if ((fd = openat(dfd, name, O_RDONLY | O_NOCTTY | O_NONBLOCK)) == -1)
		return errno;
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return CASE_NOTREG;
	}
	for (;;) {
		if ((r = read(fd, chunk, sizeof(chunk))) == -1) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		if (b->len + (size_t)r > max_input) {
			close(fd);
			return EFBIG;
		}
		if (!buf_add(b, chunk, (size_t)r)) {
			close(fd);
			return ENOMEM;
		}
	}
	close(fd);
	/* An empty file still gives a string. */
	return buf_add(b, "", 0) ? 0 : ENOMEM;
}

/* read_at() for a file of the case, which must not lead out of it. */
static int
read_case(const char *base, const char *dir, int dfd, const char *name,
    struct buf *b)
{
	int	 e;

	if ((e = case_path(base, dir, name)) != 0)
		return e;
	return read_at(dfd, name, b);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The case's orders, "orders/NAME.json", "orders/NAME.txt" and
 * "NAME.eml" (a mail), in the byte order of their names, as the
 * casebook's shell passes them in the C locale.  NULL terminated; *n is
 * their number.  NULL when memory runs out.
 */
static char **
list_orders(int dfd, size_t *n)
{
	struct dirent	*de;
	DIR		*d;
	char		**v, **nv;
	size_t		 cap = 8, len;
	int		 fd;

	*n = 0;
	if ((v = calloc(cap + 1, sizeof(*v))) == NULL)
		return NULL;
	if ((fd = openat(dfd, "orders", O_RDONLY | O_DIRECTORY)) == -1)
		return v;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return v;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* As the globs orders/ *.json, *.txt (orders as text) and
		 * *.eml (a mail): no dot files. */
		if (de->d_name[0] == '.' || len < 5 ||
		    (strcmp(de->d_name + len - 5, ".json") != 0 &&
		    strcmp(de->d_name + len - 4, ".txt") != 0 &&
		    strcmp(de->d_name + len - 4, ".eml") != 0))
			continue;
		if (*n == cap) {
			cap *= 2;
			if ((nv = realloc(v, (cap + 1) * sizeof(*v))) == NULL)
				goto fail;
			v = nv;
		}
		if ((v[*n] = malloc(len + 8)) == NULL)
			goto fail;
		snprintf(v[*n], len + 8, "orders/%s", de->d_name);
		v[++*n] = NULL;
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_names);
	return v;
fail:
	closedir(d);
	while (*n > 0)
		free(v[--*n]);
	free(v);
	return NULL;
}

/*
 * The options a case's args may hold (issue 26: an archive is input, not
 * instructions): none that names a file outside the case or a key.
 * Long options are written in full, as getopt_long would otherwise take
 * "--trace-f" for --trace-file.
 */
static const char *const case_flags[] = {
	"check", "trace", "strict", "text", NULL
};
static const char *const case_valued[] = {
	"seed", "ruleset", "threads", "for", "reach", "unit", "rolls", NULL
};

/* Why the long option name (len bytes) may not be in a case. */
static const char *
case_refusal(const char *name, size_t len)
{
	static const char *const writes[] = {
		"output", "next", "svg", "svg-next", "svg-start",
		"trace-file", "outdir", "new-secret", "png", "sheet", NULL
	};
	static const char *const reads[] = { "audit", "replay", NULL };
	static const char *const all[] = {
		"check", "trace", "strict", "text", "seed", "ruleset",
		"threads", "for", "reach", "unit", "rolls", "output", "next",
		"svg", "svg-next", "svg-start", "trace-file", "outdir",
		"new-secret", "secret", "verify", "max-input", "help",
		"version", "audit", "commit", "game", "replay", "png",
		"png-width", "orders-json", "orders-text", "sheet", NULL
	};
	int	 k, hits = 0;

	for (k = 0; writes[k] != NULL; k++)
		if (strlen(writes[k]) == len && strncmp(name, writes[k],
		    len) == 0)
			return "writes a file";
	for (k = 0; reads[k] != NULL; k++)
		if (strlen(reads[k]) == len && strncmp(name, reads[k],
		    len) == 0)
			return "names a file";
	if (len == 6 && strncmp(name, "secret", len) == 0)
		return "names a key";
	if (len == 6 && strncmp(name, "verify", len) == 0)
		return "runs other cases";
	for (k = 0; all[k] != NULL; k++)
		if (strlen(all[k]) == len && strncmp(name, all[k], len) == 0)
			return "is not an option of a case";
	for (k = 0; all[k] != NULL; k++)
		if (strncmp(name, all[k], len) == 0)
			hits++;
	return hits > 0 ? "is not written in full" :
	    "is not an option of arbiter";
}

/*
 * Checks a case's args, tok[0..n-1], as getopt_long would read them
 * (short options grouped, a value in the same word or the next): only
 * -c, -t, -s, -r and the long options above.  *rolls is the file of
 * --rolls, or NULL.  True when the case may run; else false with reason.
 */
static bool
case_args(char *const tok[], size_t n, const char **rolls, char *reason,
    size_t size)
{
	const char	*t, *eq, *p;
	size_t		 i, len;
	int		 k;

	*rolls = NULL;
	for (i = 0; i < n; i++) {
		t = tok[i];
		if (t[0] != '-' || t[1] == '\0') {
			snprintf(reason, size, "args: \"%s\" names a file: a "
			    "case's files are its map.json and orders/*.json",
			    t);
			return false;
		}
		if (t[1] == '-' && t[2] == '\0') {
			snprintf(reason, size, "args: -- ends the options: a "
			    "case's files are its map.json and orders/*.json");
			return false;
		}
		if (t[1] == '-') {
			eq = strchr(t, '=');
			len = eq != NULL ? (size_t)(eq - t - 2) : strlen(t + 2);
			for (k = 0; case_flags[k] != NULL; k++)
				if (strlen(case_flags[k]) == len &&
				    strncmp(t + 2, case_flags[k], len) == 0)
					break;
			if (case_flags[k] != NULL && eq == NULL)
				continue;
			if (case_flags[k] != NULL) {
				snprintf(reason, size, "args: --%s takes no "
				    "value", case_flags[k]);
				return false;
			}
			for (k = 0; case_valued[k] != NULL; k++)
				if (strlen(case_valued[k]) == len &&
				    strncmp(t + 2, case_valued[k], len) == 0)
					break;
			if (case_valued[k] == NULL) {
				snprintf(reason, size, "args: %.*s %s",
				    (int)len + 2, t, case_refusal(t + 2, len));
				return false;
			}
			if (eq == NULL && i + 1 == n) {
				snprintf(reason, size, "args: --%s needs a "
				    "value", case_valued[k]);
				return false;
			}
			p = eq != NULL ? eq + 1 : tok[++i];
			if (strcmp(case_valued[k], "rolls") == 0)
				*rolls = p;
			continue;
		}
		for (p = t + 1; *p != '\0'; p++) {
			if (*p == 'c' || *p == 't')
				continue;
			if (*p != 's' && *p != 'r') {
				snprintf(reason, size, "args: -%c %s", *p,
				    *p == 'o' || *p == 'n' ? "writes a file" :
				    *p == 'h' || *p == 'V' ?
				    "is not an option of a case" :
				    "is not an option of arbiter");
				return false;
			}
			if (p[1] == '\0' && i + 1 == n) {
				snprintf(reason, size, "args: -%c needs a "
				    "value", *p);
				return false;
			}
			if (p[1] == '\0')
				i++;
			break;
		}
	}
	return true;
}

/* What a case wrote, and how it ended. */
struct outcome {
	struct buf	 out, err, next;
	int		 status;	/* exit status, or -1 */
	int		 sig;		/* the signal that killed it, or 0 */
};

/*
 * Runs self with argv in the directory dfd, the child's standard output,
 * standard error and descriptor 3 (its next map, with -n /dev/fd/3)
 * read into o.  False when the child could not be started, with errno.
 */
static bool
run_case(const char *self, char *const argv[], int dfd, struct outcome *o)
{
	struct pollfd	 pfd[3];
	struct buf	*bufs[3];
	char		 chunk[65536];
	ssize_t		 r;
	pid_t		 pid;
	int		 p[3][2], i, j, open_fds, st, e;

	bufs[0] = &o->out;
	bufs[1] = &o->err;
	bufs[2] = &o->next;
	for (i = 0; i < 3; i++)
		p[i][0] = p[i][1] = -1;
	for (i = 0; i < 3; i++) {
		if (pipe(p[i]) != 0)
			goto fail;
		for (j = 0; j < 2; j++)
			fcntl(p[i][j], F_SETFD, FD_CLOEXEC);
	}
	fflush(stdout);
	if ((pid = fork()) == -1)
		goto fail;
	if (pid == 0) {
		int	 w[3];

		/* Into the case, then the pipes out of the way of 1, 2 and
		 * 3 (which dfd may be) before those are replaced. */
		if (fchdir(dfd) != 0)
			_exit(EXIT_INTERNAL);
		for (i = 0; i < 3; i++)
			if ((w[i] = fcntl(p[i][1], F_DUPFD_CLOEXEC, 10)) == -1)
				_exit(EXIT_INTERNAL);
		if (dup2(w[0], STDOUT_FILENO) == -1 ||
		    dup2(w[1], STDERR_FILENO) == -1 || dup2(w[2], 3) == -1)
			_exit(EXIT_INTERNAL);
		if (self != NULL)
			execv(self, argv);
		else {
			execv("/proc/self/exe", argv);
			execvp(argv[0], argv);
		}
		fprintf(stderr, "%s: cannot run %s: %s\n", progname,
		    self != NULL ? self : argv[0], strerror(errno));
		_exit(EXIT_INTERNAL);
	}
	for (i = 0; i < 3; i++) {
		close(p[i][1]);
		p[i][1] = -1;
		pfd[i].fd = p[i][0];
		pfd[i].events = POLLIN;
	}
	/* Read all three at once: a child blocked on one full pipe while
	 * we wait on another would never finish. */
	for (open_fds = 3; open_fds > 0;) {
		if (poll(pfd, 3, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 3; i++) {
			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			r = read(pfd[i].fd, chunk, sizeof(chunk));
			if (r == -1 && errno == EINTR)
				continue;
			if (r > 0 && buf_add(bufs[i], chunk, (size_t)r))
				continue;
			/* The end, an error or no memory: stop reading;
			 * the child then sees a broken pipe. */
			close(pfd[i].fd);
			p[i][0] = pfd[i].fd = -1;
			open_fds--;
		}
	}
	for (i = 0; i < 3; i++)
		if (p[i][0] != -1)
			close(p[i][0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return false;
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	o->sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	for (i = 0; i < 3; i++)
		if (!buf_add(bufs[i], "", 0)) {
			errno = ENOMEM;
			return false;
		}
	return true;
fail:
	e = errno;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			if (p[i][j] != -1)
				close(p[i][j]);
	errno = e;
	return false;
}

/* Shows v in reason, compact, cut to about 80 bytes ("nothing" for
 * NULL). */
static void
show_json(const json_t *v, char *s, size_t size)
{
	char	*d;
	size_t	 n;

	if (v == NULL) {
		snprintf(s, size, "nothing");
		return;
	}
	if ((d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL) {
		snprintf(s, size, "(out of memory)");
		return;
	}
	n = strlen(d);
	if (n > 80) {
		/* Not inside a UTF-8 sequence. */
		for (n = 77; n > 0 && ((unsigned char)d[n] & 0xc0) == 0x80;)
			n--;
		snprintf(s, size, "%.*s...", (int)n, d);
	} else
		snprintf(s, size, "%s", d);
	free(d);
}

/* Appends "/key" to the JSON Pointer ptr, with ~ and / escaped. */
static bool
ptr_push(struct buf *ptr, const char *key)
{
	if (!buf_add(ptr, "/", 1))
		return false;
	for (; *key != '\0'; key++) {
		if (*key == '~' && !buf_add(ptr, "~0", 2))
			return false;
		else if (*key == '/' && !buf_add(ptr, "~1", 2))
			return false;
		else if (*key != '~' && *key != '/' && !buf_add(ptr, key, 1))
			return false;
	}
	return true;
}

/*
 * Finds the first difference between want and got, walking want in the
 * order of its document (members got has and want lacks come after
 * want's own).  True with ptr the JSON Pointer of the place and *w and *g
 * the values there (NULL: none); false when they are equal.
 */
static bool
json_diff(const json_t *want, const json_t *got, struct buf *ptr,
    const json_t **w, const json_t **g)
{
	const char	*key;
	json_t		*wv, *gv;
	size_t		 i, mark = ptr->len;
	char		 num[32];

	*w = want;
	*g = got;
	if (json_typeof(want) != json_typeof(got))
		return true;
	if (json_is_object(want)) {
		json_object_foreach((json_t *)want, key, wv) {
			if (!ptr_push(ptr, key))
				return true;
			if ((gv = json_object_get(got, key)) == NULL) {
				*w = wv;
				*g = NULL;
				return true;
			}
			if (json_diff(wv, gv, ptr, w, g))
				return true;
			ptr->len = mark;
			ptr->p[mark] = '\0';
		}
		json_object_foreach((json_t *)got, key, gv) {
			if (json_object_get(want, key) != NULL)
				continue;
			ptr_push(ptr, key);
			*w = NULL;
			*g = gv;
			return true;
		}
		return false;
	}
	if (json_is_array(want)) {
		for (i = 0; i < json_array_size(want) ||
		    i < json_array_size(got); i++) {
			snprintf(num, sizeof(num), "/%zu", i);
			if (!buf_add(ptr, num, strlen(num)))
				return true;
			wv = json_array_get(want, i);
			gv = json_array_get(got, i);
			if (wv == NULL || gv == NULL) {
				*w = wv;
				*g = gv;
				return true;
			}
			if (json_diff(wv, gv, ptr, w, g))
				return true;
			ptr->len = mark;
			ptr->p[mark] = '\0';
		}
		return false;
	}
	return !json_equal((json_t *)want, (json_t *)got);
}

bool
json_differs(const char *what, const json_t *want, const json_t *got,
    char *reason, size_t size)
{
	struct buf	 ptr = { NULL, 0, 0 };
	const json_t	*wv, *gv;
	char		 ws[128], gs[128];
	bool		 differ = true;

	if (!buf_add(&ptr, "", 0))
		snprintf(reason, size, "%s differs (out of memory)", what);
	else if (json_diff(want, got, &ptr, &wv, &gv)) {
		show_json(wv, ws, sizeof(ws));
		show_json(gv, gs, sizeof(gs));
		snprintf(reason, size, "%s differs at %s: expected %s, got %s",
		    what, ptr.len == 0 ? "the root" : ptr.p, ws, gs);
	} else
		differ = false;
	buf_release(&ptr);
	return differ;
}

/* In v, every string that is from or begins with "from:" now names to. */
static void
rename_in(json_t *v, char *const *from, const char *const *to, size_t np)
{
	const char	*s, *key;
	json_t		*e;
	char		*n;
	size_t		 i, k, fl, best = np, bl = 0;

	if (json_is_object(v)) {
		json_object_foreach(v, key, e)
			rename_in(e, from, to, np);
		return;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			rename_in(e, from, to, np);
		return;
	}
	if ((s = json_string_value(v)) == NULL)
		return;
	/* The longest name the string is or begins with: renamed once. */
	for (k = 0; k < np; k++) {
		fl = strlen(from[k]);
		if (strncmp(s, from[k], fl) == 0 && (s[fl] == '\0' ||
		    s[fl] == ':') && (best == np || fl > bl))
			best = k, bl = fl;
	}
	if (best == np)
		return;
	if ((n = malloc(strlen(to[best]) + strlen(s + bl) + 1)) == NULL)
		return;		/* then it differs, as it would */
	sprintf(n, "%s%s", to[best], s + bl);
	json_string_set(v, n);
	free(n);
}

/*
 * Results of one turn made in different folders name its files
 * differently ("t1/map.json", "map.json"): where the files of want and got
 * (/files) pair one to one by their SHA-256 (each of got's files paired
 * once, in their order where several have one SHA-256), got's names are
 * changed to want's, all at once, in every string that is a name or a
 * message that begins with it.  True when a name was changed.
 */
static bool
same_names(const json_t *want, json_t *got)
{
	const json_t	*wf = json_object_get(want, "files"), *we;
	json_t		*gf = json_object_get(got, "files"), *ge;
	const char	*wn, *gn, *ws, *gs, **to = NULL;
	char		**from = NULL;
	bool		*used = NULL;
	size_t		 i, j, n, np = 0;
	bool		 changed = false;

	if (!json_is_array(wf) || !json_is_array(gf) ||
	    (n = json_array_size(wf)) != json_array_size(gf) || n == 0)
		return false;
	if ((used = calloc(n, sizeof(*used))) == NULL ||
	    (from = calloc(n, sizeof(*from))) == NULL ||
	    (to = calloc(n, sizeof(*to))) == NULL)
		goto out;
	/* Pair every file first: a partial pairing changes nothing. */
	for (i = 0; i < n; i++) {
		we = json_array_get(wf, i);
		ws = json_string_value(json_object_get(we, "sha256"));
		wn = json_string_value(json_object_get(we, "file"));
		for (j = 0; j < n; j++) {
			ge = json_array_get(gf, j);
			gs = json_string_value(json_object_get(ge, "sha256"));
			if (!used[j] && ws != NULL && gs != NULL &&
			    strcmp(ws, gs) == 0)
				break;
		}
		if (j == n)
			goto out;
		used[j] = true;
		gn = json_string_value(json_object_get(json_array_get(gf, j),
		    "file"));
		if (wn == NULL || gn == NULL || strcmp(wn, gn) == 0)
			continue;
		/* Copies: the strings renamed are gn themselves. */
		if ((from[np] = strdup(gn)) == NULL)
			goto out;
		to[np++] = wn;
	}
	if (np > 0) {
		rename_in(got, from, to, np);
		changed = true;
	}
out:
	for (i = 0; i < np; i++)
		free(from[i]);
	free(from);
	free(to);
	free(used);
	return changed;
}

/*
 * Compares what a case wrote (got) with the file that says what it
 * should be (want), both JSON texts; what is "the result" or "the next
 * map".  True when they are the same bytes; else false with reason
 * filled.
 */
/*
 * The bytes of a result with the value of its top-level "program" member
 * (the version that made the ruling) left out, in a new buffer: a ruling
 * made by an older arbiter still holds if nothing else differs.  NULL when
 * there is no such member or memory runs out.
 */
static char *
unversioned(const struct buf *b, size_t *len)
{
	static const char key[] = "\n  \"program\": \"";
	const char	*p, *q, *e = b->p + b->len;
	char		*out;

	for (p = b->p; p + sizeof(key) - 1 <= e; p++)
		if (memcmp(p, key, sizeof(key) - 1) == 0)
			break;
	if (p + sizeof(key) - 1 > e)
		return NULL;
	p += sizeof(key) - 1;
	for (q = p; q < e && *q != '"'; q++)
		if (*q == '\\')
			q++;
	if (q >= e || (out = malloc(b->len)) == NULL)
		return NULL;
	memcpy(out, b->p, (size_t)(p - b->p));
	memcpy(out + (p - b->p), q, (size_t)(e - q));
	*len = (size_t)(p - b->p) + (size_t)(e - q);
	return out;
}

static bool
same_json(const char *what, const char *file, const struct buf *want,
    const struct buf *got, char *reason, size_t size)
{
	json_error_t	 je;
	json_t		*w, *g;
	size_t		 i;
	int		 line = 1, col = 1;

	char		*wu, *gu;
	size_t		 wn = 0, gn = 0;
	bool		 same;

	if (want->len == got->len && memcmp(want->p, got->p, got->len) == 0)
		return true;
	wu = unversioned(want, &wn);
	gu = unversioned(got, &gn);
	same = wu != NULL && gu != NULL && wn == gn && memcmp(wu, gu, wn) == 0;
	free(wu);
	free(gu);
	if (same)
		return true;
	/* A key twice is refused: readers differ on which value holds,
	 * and jansson would keep one of them unseen. */
	if ((w = json_loadb(want->p, want->len, JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(reason, size, "%s is not JSON: %d:%d: %s", file,
		    je.line, je.column, je.text);
		return false;
	}
	if ((g = json_loadb(got->p, got->len, JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(reason, size, "%s is not JSON: %d:%d: %s", what,
		    je.line, je.column, je.text);
		json_decref(w);
		return false;
	}
	/* The program's version is not compared (see unversioned()). */
	if (json_is_object(w) && json_is_object(g) &&
	    json_object_get(w, "program") != NULL &&
	    json_object_get(g, "program") != NULL)
		json_object_set(g, "program", json_object_get(w, "program"));
	/* A result made in another folder names the same files otherwise:
	 * they are paired by their SHA-256. */
	if (same_names(w, g)) {
		if (!json_differs(what, w, g, reason, size))
			reason[0] = '\0';
	} else if (json_differs(what, w, g, reason, size))
		;
	else {
		for (i = 0; i < want->len && i < got->len &&
		    want->p[i] == got->p[i]; i++) {
			if (want->p[i] == '\n')
				line++, col = 1;
			else
				col++;
		}
		snprintf(reason, size, "%s differs in bytes only (the JSON is "
		    "equal), from line %d, column %d", what, line, col);
	}
	json_decref(g);
	json_decref(w);
	return reason[0] == '\0';
}

/* Copies line number n (from 1) of s into d, or "nothing"; control
 * characters become '?'. */
static void
show_line(const char *s, size_t len, int n, char *d, size_t size)
{
	const char	*end = s + len, *nl;
	size_t		 i, k;

	for (; n > 1 && s < end; n--) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			s = end;
		else
			s = nl + 1;
	}
	if (s >= end) {
		snprintf(d, size, "nothing");
		return;
	}
	d[0] = '"';
	for (i = 0, k = 1; s + i < end && s[i] != '\n' && k + 5 < size;
	    i++, k++)
		d[k] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	if (s + i < end && s[i] != '\n') {
		memcpy(d + k, "...", 3);
		k += 3;
	}
	d[k++] = '"';
	d[k] = '\0';
}

/* The line (from 1) on which a and b first differ. */
static int
first_line(const struct buf *a, const struct buf *b)
{
	size_t	 i;
	int	 line = 1;

	for (i = 0; i < a->len && i < b->len && a->p[i] == b->p[i]; i++)
		if (a->p[i] == '\n')
			line++;
	return line;
}

/*
 * Verifies the case in dir: "ok dir" or "not ok dir: reason" on standard
 * output.  0 when it passes, 1 when it fails, or an exit status after a
 * message.
 */
/* The expected result is the umpire's, made with the key: it reveals
 * the turn's value or records the next map's commitment. */
static bool
umpires(const struct buf *want)
{
	json_t	*r = json_loadb(want->p, want->len, JSON_REJECT_DUPLICATES,
	    NULL), *d;
	bool	 yes;

	d = json_object_get(r, "dice");
	yes = json_object_get(d, "reveal") != NULL ||
	    json_object_get(d, "next_commitment") != NULL;
	json_decref(r);
	return yes;
}

static int
verify_one(const char *self, const char *dir)
{
	struct buf	 args = { NULL, 0, 0 }, want = { NULL, 0, 0 };
	struct buf	 werr = { NULL, 0, 0 }, wnext = { NULL, 0, 0 };
	struct buf	 wstat = { NULL, 0, 0 };
	struct outcome	 o;
	char		**orders = NULL, **argv = NULL, *tok, *end;
	char		 reason[600], ws[200], gs[200], *base = NULL;
	const char	*file = NULL, *rolls = NULL, *name;
	bool		 has_want, has_err, has_next;
	size_t		 norders = 0, n = 0, i, nargs;
	long		 wantst = 0;
	int		 dfd, e, rc = EXIT_OK;

	memset(&o, 0, sizeof(o));
	reason[0] = '\0';
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		e = errno;
		goto noinput;
	}
	if ((base = realpath(dir, NULL)) == NULL) {
		e = errno;
		goto noinput;
	}
	/* The expected files: each may be missing, none unreadable, none
	 * a link out of the case. */
	if ((e = read_case(base, dir, dfd, file = "args", &args)) == ENOENT)
		e = 0;
	if (e == 0 && (e = read_case(base, dir, dfd, file = "expected.json",
	    &want)) == ENOENT)
		e = 0;
	has_want = want.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd, file = "expected.err",
	    &werr)) == ENOENT)
		e = 0;
	has_err = werr.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd,
	    file = "expected.next.json", &wnext)) == ENOENT)
		e = 0;
	has_next = wnext.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd,
	    file = "expected.status", &wstat)) == ENOENT)
		e = 0;
	if (e == ENOMEM)
		goto nomem;
	if (e == CASE_OUT) {
		snprintf(reason, sizeof(reason), "%s leads out of the case",
		    file);
		goto done;
	}
	if (e != 0)
		goto noinput;
	file = NULL;
	if (wstat.p != NULL) {
		errno = 0;
		wantst = strtol(wstat.p, &end, 10);
		while (*end == '\n' || *end == ' ' || *end == '\t')
			end++;
		if (errno != 0 || end == wstat.p || *end != '\0' ||
		    wantst < 0 || wantst > 255) {
			snprintf(reason, sizeof(reason), "expected.status is "
			    "not an exit status");
			goto done;
		}
	}
	if ((orders = list_orders(dfd, &norders)) == NULL)
		goto nomem;
	/* self, the args, --replay expected.json, -n /dev/fd/3, map.json,
	 * the orders, NULL. */
	if ((argv = calloc(args.len / 2 + norders + 8, sizeof(*argv))) ==
	    NULL)
		goto nomem;
	argv[n++] = (char *)progname;
	if (args.p != NULL)
		for (tok = strtok(args.p, " \t\n\r\v\f"); tok != NULL;
		    tok = strtok(NULL, " \t\n\r\v\f"))
			argv[n++] = tok;
	nargs = n - 1;
	/* A turn the umpire made with the key is replayed from what its
	 * result reveals: an archive verifies without the key. */
	if (has_want && umpires(&want)) {
		argv[n++] = (char *)"--replay";
		argv[n++] = (char *)"expected.json";
	}
	if (has_next) {
		argv[n++] = (char *)"-n";
		argv[n++] = (char *)"/dev/fd/3";
	}
	argv[n++] = (char *)"map.json";
	for (i = 0; i < norders; i++)
		argv[n++] = orders[i];
	argv[n] = NULL;
	/* Only options that name no file outside the case and no key; the
	 * files the case reads regular files of its own. */
	if (!case_args(argv + 1, nargs, &rolls, reason, sizeof(reason)))
		goto done;
	for (i = 0; i < norders + 2; i++) {
		name = i == 0 ? "map.json" : i == 1 ? rolls : orders[i - 2];
		if (name == NULL || (e = case_path(base, dir, name)) == 0 ||
		    e == ENOENT)	/* missing: the case says so */
			continue;
		if (e == ENOMEM)
			goto nomem;
		file = name;
		if (e != CASE_OUT)
			goto noinput;
		snprintf(reason, sizeof(reason), "%s%s%s leads out of the "
		    "case", i == 1 ? "args: --rolls " : "", name,
		    i == 1 ? ":" : "");
		goto done;
	}
	if (!run_case(self, argv, dfd, &o)) {
		if (errno == ENOMEM)
			goto nomem;
		snprintf(reason, sizeof(reason), "cannot run the case: %s",
		    strerror(errno));
		goto done;
	}
	show_line(o.err.p, o.err.len, 1, gs, sizeof(gs));
	if (o.sig != 0)
		snprintf(reason, sizeof(reason), "killed by signal %d%s%s%s",
		    o.sig, o.err.len > 0 ? " (" : "", o.err.len > 0 ? gs : "",
		    o.err.len > 0 ? ")" : "");
	else if (o.status != wantst)
		snprintf(reason, sizeof(reason), "exit status %d, expected "
		    "%ld%s%s%s", o.status, wantst, o.err.len > 0 ? " (" : "",
		    o.err.len > 0 ? gs : "", o.err.len > 0 ? ")" : "");
	else if (has_want && !same_json("result", "expected.json", &want,
	    &o.out, reason, sizeof(reason)))
		;
	else if (has_err && (o.err.len != werr.len ||
	    memcmp(o.err.p, werr.p, werr.len) != 0)) {
		i = (size_t)first_line(&werr, &o.err);
		show_line(werr.p, werr.len, (int)i, ws, sizeof(ws));
		show_line(o.err.p, o.err.len, (int)i, gs, sizeof(gs));
		snprintf(reason, sizeof(reason), "diagnostic differs at line "
		    "%zu: expected %s, got %s", i, ws, gs);
	} else if (!has_err && o.err.len > 0)
		snprintf(reason, sizeof(reason), "unexpected output on "
		    "standard error: %s", gs);
	else if (!has_want && !has_err)
		snprintf(reason, sizeof(reason), "no expected.json or "
		    "expected.err");
	else if (has_next)
		same_json("next map", "expected.next.json", &wnext, &o.next,
		    reason, sizeof(reason));
	goto done;
nomem:
	rc = nomem();
	snprintf(reason, sizeof(reason), "out of memory");
	goto done;
noinput:
	if (file != NULL)
		fprintf(stderr, "%s: cannot read %s/%s: %s\n", progname, dir,
		    file, case_error(e));
	else
		fprintf(stderr, "%s: cannot open %s: %s\n", progname, dir,
		    strerror(e));
	snprintf(reason, sizeof(reason), "cannot read%s%s: %s", file != NULL ?
	    " " : "", file != NULL ? file : "", case_error(e));
	rc = EXIT_NOINPUT;
done:
	if (reason[0] == '\0')
		printf("ok %s\n", dir);
	else {
		printf("not ok %s: %s\n", dir, reason);
		if (rc == EXIT_OK)
			rc = EXIT_ILLEGAL;
	}
	/* Out as the case ends, so that a run killed later keeps it. */
	fflush(stdout);
	free(base);
	if (dfd != -1)
		close(dfd);
	for (i = 0; orders != NULL && i < norders; i++)
		free(orders[i]);
	free(orders);
	free(argv);
	buf_release(&o.out);
	buf_release(&o.err);
	buf_release(&o.next);
	buf_release(&wstat);
	buf_release(&wnext);
	buf_release(&werr);
	buf_release(&want);
	buf_release(&args);
	return rc;
}

/*
 * arbiter --verify DIR...: each case in turn, then the count.  The worst
 * outcome decides the exit status: 66 for a directory that cannot be
 * read, else 1 for a case that fails.
 */
static int
verify(const char *argv0, int ndirs, char **dirs)
{
	char	*self = NULL, *cwd;
	int	 i, r, rc = EXIT_OK, pass = 0, failed = 0;

	/* A case's args may not start a --verify of its own directory,
	 * which would run itself without end. */
	if (getenv("ARBITER_VERIFYING") != NULL) {
		fprintf(stderr, "%s: --verify inside a case of --verify\n",
		    progname);
		return EXIT_USAGE;
	}
	if (setenv("ARBITER_VERIFYING", "1", 1) != 0)
		return nomem();
	/* The children run in the cases' directories: a relative name for
	 * the program would not find it there.  Without a slash, the
	 * program was found on PATH (or is /proc/self/exe). */
	if (argv0[0] == '/')
		self = strdup(argv0);
	else if (strchr(argv0, '/') != NULL && (cwd = getcwd(NULL, 0)) !=
	    NULL) {
		if ((self = malloc(strlen(cwd) + strlen(argv0) + 2)) != NULL)
			sprintf(self, "%s/%s", cwd, argv0);
		free(cwd);
	}
	if (strchr(argv0, '/') != NULL && self == NULL)
		return nomem();
	for (i = 0; i < ndirs; i++) {
		r = verify_one(self, dirs[i]);
		if (r == EXIT_OK)
			pass++;
		else
			failed++;
		if (r > rc)
			rc = r;
	}
	printf("verify: %d passed, %d failed\n", pass, failed);
	free(self);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, strerror(errno));
		return EXIT_CANTCREAT;
	}
	return rc;
}

/*
 * While a key is in memory the process dumps no core and, on Linux, is
 * not dumpable: no core file, and no other process of the user may read
 * its memory through ptrace or /proc (arbiter(1), SECURITY).
 */
void
no_dumps(void)
{
	struct rlimit	 rl;

	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
#ifdef __linux__
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/*
 * The umpire's secret (arbiter(1), --new-secret and --secret): 32 bytes
 * from the system's random source, kept as 64 lowercase hexadecimal
 * digits and a newline in a file only its owner may read.
 */
#define SECRET_HINT	"a secret is 64 hexadecimal digits and a newline " \
			"(arbiter --new-secret makes one)"

/* Wipes a key and its text so that they do not linger in memory. */
void
wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n-- > 0)
		*v++ = 0;
}

int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* --new-secret: never over an existing file (O_EXCL), mode 0600. */
static int
new_secret(const char *path)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char	 key[ARB_SECRET_LEN];
	char		 text[2 * ARB_SECRET_LEN + 1];
	size_t		 i, off = 0;
	ssize_t		 w;
	int		 fd, rc = EXIT_OK;

	if (!name_is_utf8(path, "file name"))
		return EXIT_USAGE;
	no_dumps();
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY,
	    0600)) == -1) {
		fprintf(stderr, "%s: cannot create %s: %s\n", progname, path,
		    strerror(errno));
		return EXIT_CANTCREAT;
	}
	if (arb_secret_new(key) != 0) {
		fprintf(stderr, "%s: cannot draw a secret from the system's "
		    "random source\n", progname);
		close(fd);
		unlink(path);
		return EXIT_INTERNAL;
	}
	for (i = 0; i < ARB_SECRET_LEN; i++) {
		text[2 * i] = digits[key[i] >> 4];
		text[2 * i + 1] = digits[key[i] & 15];
	}
	text[2 * ARB_SECRET_LEN] = '\n';
	/* The umask may only have taken bits away: 0600 whatever it is. */
	if (fchmod(fd, 0600) != 0)
		rc = EXIT_CANTCREAT;
	while (rc == EXIT_OK && off < sizeof(text)) {
		if ((w = write(fd, text + off, sizeof(text) - off)) == -1) {
			if (errno == EINTR)
				continue;
			rc = EXIT_CANTCREAT;
		} else
			off += (size_t)w;
	}
	if (rc == EXIT_OK && fsync(fd) != 0 && errno != EINVAL)
		rc = EXIT_CANTCREAT;
	if (close(fd) != 0 && rc == EXIT_OK)
		rc = EXIT_CANTCREAT;
	if (rc != EXIT_OK) {
		fprintf(stderr, "%s: cannot write %s: %s\n", progname, path,
		    strerror(errno));
		unlink(path);
	}
	wipe(key, sizeof(key));
	wipe(text, sizeof(text));
	return rc;
}

/* --secret: reads the key; 66 when it cannot be read, 65 when it is not
 * 64 hexadecimal digits and a newline (at the place that is wrong). */
int
read_secret(const char *path, unsigned char *key)
{
	char	 buf[2 * ARB_SECRET_LEN + 8];
	size_t	 n = 0, i;
	ssize_t	 r;
	int	 fd, hi, lo, line = 1, col, rc;

	if ((fd = open_input(path, false, &rc)) == -1)
		return rc;
	while (n < sizeof(buf)) {
		if ((r = read(fd, buf + n, sizeof(buf) - n)) == -1) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: cannot read %s: %s\n", progname,
			    path, strerror(errno));
			close(fd);
			wipe(buf, sizeof(buf));
			return EXIT_NOINPUT;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	for (i = 0; i < n && i < 2 * ARB_SECRET_LEN && hexval(buf[i]) >= 0;)
		i++;
	col = (int)i + 1;
	if (i < 2 * ARB_SECRET_LEN && i < n && buf[i] != '\n')
		fprintf(stderr, "%s: %s:1:%d: not a hexadecimal digit: %s\n",
		    progname, path, col, SECRET_HINT);
	else if (i < 2 * ARB_SECRET_LEN)
		fprintf(stderr, "%s: %s:1:%d: %zu digits where a secret has "
		    "%d: %s\n", progname, path, col, i, 2 * ARB_SECRET_LEN,
		    SECRET_HINT);
	else if (i < n && hexval(buf[i]) >= 0)
		fprintf(stderr, "%s: %s:1:%d: more than %d digits: %s\n",
		    progname, path, col, 2 * ARB_SECRET_LEN, SECRET_HINT);
	else if (i < n && (buf[i] != '\n' || i + 1 < n)) {
		if (buf[i] == '\n') {
			line = 2;
			col = 1;
		}
		fprintf(stderr, "%s: %s:%d:%d: text after the secret: %s\n",
		    progname, path, line, col, SECRET_HINT);
	} else {
		for (i = 0; i < ARB_SECRET_LEN; i++) {
			hi = hexval(buf[2 * i]);
			lo = hexval(buf[2 * i + 1]);
			key[i] = (unsigned char)(hi << 4 | lo);
		}
		wipe(buf, sizeof(buf));
		return EXIT_OK;
	}
	wipe(buf, sizeof(buf));
	return EXIT_DATA;
}

/*
 * --for: the player's report in place of the result (and their picture
 * for --svg), or with "all" every player's report in outdir, named
 * PLAYER.json, PLAYER.txt and, with --svg, PLAYER.svg.  An unknown
 * player is a usage error (64), with the nearest name; a player's name
 * that cannot be a file's (a slash, a control character, "." or "..")
 * is bad data (65).
 */
static int
for_players(struct arb_turn *t, const char *forp, const char *outdir,
    const char *names[], char **paths, int *npaths, bool svg, bool png,
    bool next, bool svgnext, bool sheet)
{
	/* The report, the letter, the picture (SVG and PNG), the next map,
	 * the picture of the next board and the order sheet. */
	static const char *const ext[7] = { "json", "txt", "svg", "png",
	    "next.json", "next.svg", "sheet.html" };
	static const int kind[7] = { W_VIEW, W_VIEWTEXT, W_SVG, W_PNG,
	    W_NEXT, W_SVGNEXT, W_SHEET };
	const char	*hint, *name;
	const unsigned char *c;
	int		 p, i, k;

	if (outdir == NULL) {
		if ((p = arb_turn_find_player(t, forp, &hint)) < 0) {
			fprintf(stderr, "%s: --for: no player \"%s\" on this "
			    "map%s%s%s\n", progname, forp, hint != NULL ?
			    " (did you mean \"" : "", hint != NULL ? hint : "",
			    hint != NULL ? "\"?)" : "");
			return EXIT_USAGE;
		}
		/* The trace too is cut to what the player may see. */
		for (i = 0; i < nnames; i++)
			if (wkind[i] == W_VIEW || wkind[i] == W_VIEWTEXT ||
			    wkind[i] == W_SVG || wkind[i] == W_PNG ||
			    wkind[i] == W_TRACE || wkind[i] == W_SHEET)
				wwho[i] = p;
		return 0;
	}
	for (p = 0; (name = arb_turn_player(t, p)) != NULL; p++) {
		for (c = (const unsigned char *)name; *c != '\0'; c++)
			if (*c == '/' || *c < ' ' || *c == 127)
				break;
		if (*c != '\0' || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0) {
			fprintf(stderr, "%s: --outdir: player \"%s\" cannot "
			    "name a file\n", progname, name);
			return EXIT_DATA;
		}
		for (k = 0; k < 7; k++) {
			char	*path;

			if ((k == 2 && !svg) || (k == 3 && !png) ||
			    (k == 4 && !next) || (k == 5 && !(next && svgnext))
			    || (k == 6 && !(next && sheet)))
				continue;
			if (nnames >= NOUTS || (path = malloc(strlen(outdir) +
			    strlen(name) + strlen(ext[k]) + 3)) == NULL)
				return nomem();
			sprintf(path, "%s/%s.%s", outdir, name, ext[k]);
			paths[(*npaths)++] = path;
			wkind[nnames] = kind[k];
			wwho[nnames] = p;
			names[nnames++] = path;
		}
	}
	return 0;
}

/*
 * --orders-json, --orders-text map.json orders: the orders file written
 * back, as JSON or as canonical text, to standard output.
 */
static int
orders_form(struct arb_turn *t, int argc, char **argv, bool text)
{
	struct arb_error e;
	char		*buf;
	size_t		 len;
	int		 rc;

	if (argc != 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((buf = slurp(argv[0], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ? "<stdin>" :
	    argv[0], buf, len, &e);
	free(buf);
	if (rc != 0)
		return report(&e);
	if ((buf = slurp(argv[1], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_write_orders(t, argv[1], buf, len, text ?
	    ARB_ORDERS_TEXT : 0, stdout, &e);
	free(buf);
	if (rc != 0) {
		if (e.code != ARB_EWRITE)
			return report(&e);
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, e.text);
		return EXIT_CANTCREAT;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, strerror(errno));
		return EXIT_CANTCREAT;
	}
	return 0;
}

/*
 * --reach UNIT map.json [player=orders.json]: where the unit can end its
 * move (arbiter(1)); one output, all or nothing.
 */
static int
reach_query(struct arb_turn *t, int argc, char **argv, const char *unit,
    const char **with, int nwith, const char *output, bool textual,
    bool others)
{
	struct operand	 op;
	struct out	 out;
	struct arb_error e;
	const char	*names[3];
	char		*text;
	size_t		 len;
	int		 rc = 0, nfiles = 0;

	if (unit == NULL || others || argc < 1 || argc > 2) {
		if (unit == NULL)
			fprintf(stderr, "%s: --unit goes with --reach\n",
			    progname);
		else if (others)
			fprintf(stderr, "%s: --reach takes only --unit, "
			    "--output, --text and --threads\n", progname);
		else
			fprintf(stderr, "%s: --reach takes the map and at "
			    "most one orders file\n", progname);
		usage(stderr);
		return EXIT_USAGE;
	}
	memset(&op, 0, sizeof(op));
	if (argc == 2) {
		char	*eq = strchr(argv[1], '=');

		op.path = argv[1];
		if (eq != NULL && eq != argv[1] && memchr(argv[1], '/',
		    (size_t)(eq - argv[1])) == NULL) {
			*eq = '\0';
			op.player = argv[1];
			op.path = eq + 1;
		}
		if (strcmp(op.path, "-") == 0) {
			fprintf(stderr, "%s: only the map can be read from "
			    "standard input\n", progname);
			return EXIT_USAGE;
		}
	}
	names[0] = output;
	names[1] = names[2] = NULL;
	if ((rc = check_names(argv[0], &op, argc - 1, names, NULL, NULL)) !=
	    0)
		return rc;
	catch_fatal();
	if ((text = slurp(argv[0], &len, &rc)) == NULL)
		return rc;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ? "<stdin>" :
	    argv[0], text, len, &e);
	free(text);
	if (rc != 0)
		return report_map(t, &e);
	if (!arb_turn_walks(t)) {
		fprintf(stderr, "%s: %s: %s moves on an open table, not from "
		    "cell to cell: --reach has nothing to list\n", progname,
		    argv[0], arb_turn_ruleset(t));
		return EXIT_USAGE;
	}
	if (argc == 2) {
		if ((text = slurp(op.path, &len, &rc)) == NULL)
			return rc;
		rc = arb_turn_load_orders(t, op.path, op.player, text, len,
		    &e);
		free(text);
		if (rc != 0)
			return report(&e);
		/* The orders before the unit's are played out: a file
		 * with problems would give a reach from another state
		 * than the player means, so every problem is listed and
		 * nothing is answered. */
		if (arb_turn_refused(t, &nfiles) > 0 || nfiles > 0) {
			struct arb_error pe;
			size_t	 k;

			for (k = 0; arb_turn_problem(t, k, &pe) == 0; k++)
				report(&pe);
			fprintf(stderr, "%s: --reach: %s has problems; mend "
			    "them first\n", progname, op.path);
			return EXIT_DATA;
		}
	}
	if (arb_turn_reach(t, unit, with, nwith, &e) != 0)
		return report(&e);
	memset(&out, 0, sizeof(out));
	if ((rc = out_open(&out, output, 0)) == 0 && out.fp != stdout &&
	    arb_turn_write_reach(t, textual, out.fp, &e) != 0)
		rc = e.code == ARB_EWRITE ? EXIT_CANTCREAT : report(&e);
	if (rc == 0)
		rc = out_finish(&out);
	if (rc == 0) {
		hold(true);
		if (!commit(&out, 1))
			rc = EXIT_CANTCREAT;
		hold(false);
	}
	out_release(&out);
	if (rc == 0 && strcmp(output, "-") == 0) {
		if (arb_turn_write_reach(t, textual, stdout, &e) != 0)
			rc = e.code == ARB_EWRITE ? EXIT_CANTCREAT :
			    report(&e);
		else if (fflush(stdout) != 0)
			rc = EXIT_CANTCREAT;
		if (rc == EXIT_CANTCREAT)
			fprintf(stderr, "%s: cannot write standard output: "
			    "%s\n", progname, strerror(errno));
	}
	return rc;
}

static int
run(int argc, char **argv, struct arb_turn *t)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "max-input", required_argument, NULL, 'M' },
		{ "new-secret", required_argument, NULL, 'K' },
		{ "next", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "rolls", required_argument, NULL, 'R' },
		{ "reach", required_argument, NULL, 'A' },
		{ "ruleset", required_argument, NULL, 'r' },
		{ "secret", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'P' },
		{ "trace", no_argument, NULL, 't' },
		{ "trace-file", required_argument, NULL, 'T' },
		{ "unit", required_argument, NULL, 'U' },
		{ "text", no_argument, NULL, 'X' },
		{ "threads", required_argument, NULL, 'H' },
		{ "verify", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		/* Pictures and players' reports. */
		{ "svg", required_argument, NULL, 'G' },
		{ "svg-next", required_argument, NULL, 'g' },
		{ "svg-start", required_argument, NULL, OPT_SVGSTART },
		{ "png", required_argument, NULL, 'p' },
		{ "png-width", required_argument, NULL, 'w' },
		{ "for", required_argument, NULL, 'F' },
		{ "outdir", required_argument, NULL, 'D' },
		{ "sheet", required_argument, NULL, OPT_SHEET },
		/* Fair dice (fair.c). */
		{ "audit", required_argument, NULL, 'a' },
		{ "commit", no_argument, NULL, 'C' },
		{ "game", required_argument, NULL, 'm' },
		{ "replay", required_argument, NULL, 'y' },
		{ "orders-json", no_argument, NULL, 'j' },
		{ "orders-text", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*output = "-", *next = NULL, *tracefile = NULL;
	const char	*ruleset = NULL, *names[NOUTS], *argv0 = argv[0];
	const char	*svg = NULL, *svgnext = NULL, *forp = NULL;
	const char	*outdir = NULL, *svgstart = NULL, *sheet = NULL;
	char		*paths[7 * 64];
	int		 npaths = 0;
	bool		 output_set = false;
	const char	*secret = NULL, *rolls = NULL, *newsecret = NULL;
	const char	*reach = NULL, **with = NULL;
	int		 nwith = 0;
	unsigned char	 key[ARB_SECRET_LEN];
	struct operand	*ops = NULL;
	struct arb_text	*ahead = NULL;
	int		 nahead;
	struct arb_error e;
	char		*text, *end;
	size_t		 len;
	bool		 check = false, trace = false, textual = false;
	bool		 strict = false;
	int		 orders_as = 0;	/* --orders-json 1, -text 2 */
	struct arb_error pe;
	size_t		 k;
	int		 nfiles;
	bool		 verifying = false, turn_opts = false, seeded = false;
	const char	*auditing = NULL, *game = NULL, *replay = NULL;
	const char	*png = NULL, *cnames[3];
	bool		 committing = false, not_audit = false;
	int		 ch, i, nops, rc, nstd, threads = 2;

	while ((ch = getopt_long(argc, argv, "chn:o:r:s:tV", longopts,
	    NULL)) != -1) {
		/* Options for one turn, which --verify does not take;
		 * --rolls is the one --audit takes too. */
		if (strchr("cnorstTXSPGgFDAUHpw", ch) != NULL)
			turn_opts = true;
		/* --audit takes -n (the next map) too. */
		if (strchr("corstTXSPGgFDAUHpwy", ch) != NULL)
			not_audit = true;
		switch (ch) {
		case 'a':
			auditing = optarg;
			break;
		case 'p':
			png = optarg;
			break;
		case 'w': {
			long	 n;

			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    n < 16 || n > 16384) {
				fprintf(stderr, "%s: bad --png-width \"%s\": "
				    "expected a number of pixels from 16 to "
				    "16384\n", progname, optarg);
				return EXIT_USAGE;
			}
			png_width = (int)n;
			break;
		}
		case 'C':
			committing = true;
			break;
		case 'm':
			game = optarg;
			break;
		case 'y':
			replay = optarg;
			turn_opts = true;
			break;
		case 'A':
			reach = optarg;
			break;
		case 'U': {
			const char **w = realloc(with, ((size_t)nwith + 1) *
			    sizeof(*with));

			if (w == NULL) {
				free(with);
				return nomem();
			}
			with = w;
			with[nwith++] = optarg;
			break;
		}
		case 'c':
			check = true;
			break;
		case 'j':
		case 'J':
			orders_as = ch == 'j' ? 1 : 2;
			break;
		case 'h':
			help();
			return EXIT_OK;
		case 'H': {
			long	 n;

			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    n < 1 || n > 1024) {
				fprintf(stderr, "%s: bad --threads \"%s\": "
				    "expected a number from 1 to 1024\n",
				    progname, optarg);
				return EXIT_USAGE;
			}
			arb_turn_threads(t, (int)n);
			threads = (int)n;
			break;
		}
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
			output_set = true;
			break;
		case 'G':
			svg = optarg;
			break;
		case 'g':
			svgnext = optarg;
			break;
		case OPT_SVGSTART:
			svgstart = optarg;
			break;
		case OPT_SHEET:
			sheet = optarg;
			break;
		case 'F':
			forp = optarg;
			break;
		case 'D':
			outdir = optarg;
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
			seeded = true;
			break;
		}
		case 'K':
			newsecret = optarg;
			break;
		case 'R':
			rolls = optarg;
			break;
		case 'S':
			secret = optarg;
			break;
		case 'P':
			strict = true;
			break;
		case 't':
			trace = true;
			break;
		case 'T':
			tracefile = optarg;
			break;
		case 'X':
			textual = true;
			break;
		case 'v':
			verifying = true;
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
	if (newsecret != NULL) {
		/* Alone: a key is made apart from any turn. */
		if (argc > 0 || verifying || turn_opts || rolls != NULL) {
			usage(stderr);
			return EXIT_USAGE;
		}
		return new_secret(newsecret);
	}
	if (committing || game != NULL) {
		/* A map committed for its own turn: the key, the map and
		 * where it goes, nothing else. */
		if (!committing || argc != 1 || verifying || auditing != NULL ||
		    check || next != NULL || tracefile != NULL || trace ||
		    strict || rolls != NULL || seeded || ruleset != NULL ||
		    svg != NULL || svgnext != NULL || forp != NULL ||
		    svgstart != NULL || sheet != NULL ||
		    png != NULL || reach != NULL || replay != NULL) {
			usage(stderr);
			return EXIT_USAGE;
		}
		if (game != NULL && !name_is_utf8(game, "game name"))
			return EXIT_USAGE;
		/* Before anything is read: the output is neither the key
		 * nor the map, and the map is not the key. */
		cnames[0] = output_set ? output : "-";
		cnames[1] = cnames[2] = NULL;
		if ((rc = check_names(argv[0], NULL, 0, cnames, secret,
		    NULL)) != 0)
			return rc;
		return commit_map(secret, game, argv[0], output_set ? output :
		    NULL);
	}
	if (auditing != NULL) {
		/* The player's audit: without the key. */
		if (verifying || not_audit || secret != NULL) {
			if (secret != NULL)
				fprintf(stderr, "%s: --audit needs no key, "
				    "and takes none\n", progname);
			else
				usage(stderr);
			return EXIT_USAGE;
		}
		return audit(auditing, argc, argv, rolls, next);
	}
	if (replay != NULL && (secret != NULL || seeded || rolls != NULL)) {
		fprintf(stderr, "%s: --replay takes the dice from the result's "
		    "revealed value: it goes with none of --secret, --seed and "
		    "--rolls\n", progname);
		return EXIT_USAGE;
	}
	if (rolls != NULL && strcmp(rolls, "-") == 0) {
		fprintf(stderr, "%s: only the map can be read from standard "
		    "input\n", progname);
		return EXIT_USAGE;
	}
	if (seeded && (secret != NULL || rolls != NULL)) {
		fprintf(stderr, "%s: --seed replaces the dice: it goes with "
		    "neither --secret nor --rolls\n", progname);
		return EXIT_USAGE;
	}
	if (argc < 1 || (verifying && (turn_opts || rolls != NULL))) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (verifying) {
		free(with);
		return verify(argv0, argc, argv);
	}
	if (orders_as != 0) {
		if (turn_opts || rolls != NULL || reach != NULL ||
		    nwith > 0) {
			fprintf(stderr, "%s: --orders-json and --orders-text "
			    "take only the map and one orders file\n",
			    progname);
			usage(stderr);
			return EXIT_USAGE;
		}
		free(with);
		return orders_form(t, argc, argv, orders_as == 2);
	}
	if (reach != NULL || nwith > 0) {
		rc = reach_query(t, argc, argv, reach, with, nwith, output,
		    textual, check || next != NULL || tracefile != NULL ||
		    trace || strict || rolls != NULL || secret != NULL ||
		    seeded || ruleset != NULL || svg != NULL ||
		    svgnext != NULL || svgstart != NULL || png != NULL ||
		    forp != NULL || outdir != NULL || sheet != NULL);
		free(with);
		return rc;
	}
	if (textual && tracefile == NULL && !check && forp == NULL) {
		fprintf(stderr, "%s: --text goes with --trace-file, --check or "
		    "--for\n", progname);
		return EXIT_USAGE;
	}
	if ((outdir != NULL) != (forp != NULL && strcmp(forp, "all") == 0)) {
		fprintf(stderr, "%s: --outdir goes with --for all, and --for "
		    "all with --outdir\n", progname);
		return EXIT_USAGE;
	}
	/* A sheet is a player's: --for PLAYER's in FILE, or with --for all
	 * each player's in the outdir (FILE is then not written). */
	if (sheet != NULL && forp == NULL) {
		fprintf(stderr, "%s: --sheet goes with --for\n", progname);
		return EXIT_USAGE;
	}
	/* --check --text: the report is text (and so is the trace). */
	report_text = textual && check;
	if (check)	/* --check: no next map */
		next = svgnext = svgstart = sheet = NULL;
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
	/* --for all: the result only where -o says; --for PLAYER: the
	 * player's report instead of it (text with --text). */
	if (outdir != NULL && !output_set)
		names[0] = NULL;
	if (forp != NULL && outdir == NULL)
		wkind[0] = textual ? W_VIEWTEXT : W_VIEW;
	if (svg != NULL) {
		wkind[nnames] = W_SVG;
		wwho[nnames] = -1;
		names[nnames++] = svg;
	}
	if (svgnext != NULL) {
		wkind[nnames] = W_SVGNEXT;
		wwho[nnames] = -1;
		names[nnames++] = svgnext;
	}
	if (svgstart != NULL) {
		wkind[nnames] = W_SVGSTART;
		wwho[nnames] = -1;
		names[nnames++] = svgstart;
	}
	if (png != NULL) {
		wkind[nnames] = W_PNG;
		wwho[nnames] = -1;
		names[nnames++] = png;
	}
	if (sheet != NULL && outdir == NULL) {
		wkind[nnames] = W_SHEET;
		wwho[nnames] = -1;
		names[nnames++] = sheet;
	}
	for (i = 0, nstd = 0; i < nnames; i++)
		nstd += names[i] != NULL && strcmp(names[i], "-") == 0;
	if (nstd > 1) {
		fprintf(stderr, "%s: only one output can go to standard "
		    "output\n", progname);
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = check_names(argv[0], ops, nops, names, secret, rolls)) != 0)
		goto out;
	catch_fatal();
	/* The key before the map: the map's commitment is checked as it is
	 * read, where a mismatch can be shown at its place. */
	if (secret != NULL) {
		no_dumps();
		if ((rc = read_secret(secret, key)) != 0)
			goto out;
		arb_turn_set_secret(t, key);
		wipe(key, sizeof(key));
	}
	if (replay != NULL && (rc = replay_from(t, replay)) != 0)
		goto out;

	if ((text = slurp(argv[0], &len, &rc)) == NULL)
		goto out;
	/* The orders files are read now, so that the library parses them
	 * while it loads the map (arb_turn_load_map_ahead()): as many as
	 * can be read, in order; the first that cannot is read again in
	 * its turn below, which says why, after the map's own errors.
	 * With --threads 1, each is read in its turn. */
	if ((ahead = calloc((size_t)nops + 1, sizeof(*ahead))) == NULL) {
		free(text);
		rc = nomem();
		goto out;
	}
	for (nahead = 0; threads > 1 && nahead < nops; nahead++) {
		struct stat	 sb;

		/* Regular files only: a pipe read now and refused could not
		 * be read again. */
		if (strcmp(ops[nahead].path, "-") == 0 ||
		    stat(ops[nahead].path, &sb) != 0 || !S_ISREG(sb.st_mode))
			break;
		ops[nahead].text = slurp_as(ops[nahead].path, &ops[nahead].len,
		    &rc, true);
		if (ops[nahead].text == NULL)
			break;
		ahead[nahead].text = ops[nahead].text;
		ahead[nahead].len = ops[nahead].len;
	}
	rc = arb_turn_load_map_ahead(t, strcmp(argv[0], "-") == 0 ?
	    "<stdin>" : argv[0], text, len, ahead, (size_t)nahead, &e);
	free(text);
	if (rc != 0) {
		rc = report_map(t, &e);
		goto out;
	}
	/* The key on a map with a plain seed: fair from the next turn. */
	if (secret != NULL && !arb_turn_committed(t))
		fprintf(stderr, "%s: %s: warning: this turn was not committed "
		    "to its dice: they come from the map's plain seed, which "
		    "players could try out beforehand; its next map commits "
		    "(a game is fair from its first turn when that turn's map "
		    "is made with --commit)\n", progname, argv[0]);
	if (ruleset != NULL && arb_turn_ruleset(t) != NULL &&
	    strcmp(ruleset, arb_turn_ruleset(t)) != 0) {
		fprintf(stderr, "%s: %s: the map's ruleset is \"%s\", not "
		    "\"%s\"\n", progname, argv[0], arb_turn_ruleset(t),
		    ruleset);
		rc = EXIT_DATA;
		goto out;
	}
	if (forp != NULL && (rc = for_players(t, forp, outdir, names,
	    paths, &npaths, svg != NULL, png != NULL, !check,
	    svgnext != NULL, sheet != NULL)) == 0)
		rc = check_names(argv[0], ops, nops, names, secret, rolls);
	if (rc != 0)
		goto out;
	/* --check: each order of a text as it was read, for the echo. */
	arb_turn_echo(t, check);
	for (i = 0; i < nops; i++) {
		if ((text = ops[i].text) != NULL)
			len = ops[i].len;
		else if ((text = slurp(ops[i].path, &len, &rc)) == NULL)
			goto out;
		rc = arb_turn_load_orders(t, ops[i].path, ops[i].player, text,
		    len, &e);
		free(text);
		ops[i].text = NULL;
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	if (rolls != NULL) {
		if ((text = slurp(rolls, &len, &rc)) == NULL)
			goto out;
		rc = arb_turn_load_rolls(t, rolls, text, len, &e);
		free(text);
		if (rc != 0) {
			rc = report(&e);
			goto out;
		}
	}
	/* Refused orders and files are rulings; --check and --strict also
	 * list every problem, and --strict fails on any.  With --for
	 * PLAYER, only PLAYER's: the others' quote their orders. */
	if (strict || check) {
		const char	*hint;
		int		 who = -1, hidden = 0;

		if (forp != NULL && outdir == NULL)
			who = arb_turn_find_player(t, forp, &hint);
		for (k = 0; arb_turn_problem(t, k, &pe) == 0; k++) {
			if (who < 0 || arb_turn_problem_player(t, k) == who)
				report(&pe);
			else
				hidden++;
		}
		if (strict && hidden > 0)
			fprintf(stderr, "%s: --strict: other players' orders "
			    "have problems, not shown with --for\n", progname);
	}
	if (strict && (arb_turn_refused(t, &nfiles) > 0 || nfiles > 0)) {
		rc = EXIT_DATA;
		goto out;
	}
	/* A player's letter reads the trace (arbiter-result(5)). */
	if (arb_turn_run(t, (check ? ARB_CHECK : 0) |
	    (trace || tracefile != NULL || forp != NULL ? ARB_TRACE : 0),
	    &e) != 0) {
		rc = report(&e);
		goto out;
	}
	if ((rc = write_all(t, names, trace, textual)) == 0 && check &&
	    (arb_turn_illegal(t) > 0 || (arb_turn_refused(t, &nfiles),
	    nfiles > 0)))
		rc = EXIT_ILLEGAL;
out:
	while (npaths > 0)
		free(paths[--npaths]);
	/* The library may still be reading the texts not loaded. */
	arb_turn_end_ahead(t);
	for (i = 0; ops != NULL && i < nops; i++)
		free(ops[i].text);
	free(ops);
	free(ahead);
	return rc;
}

int
main(int argc, char **argv)
{
	struct arb_turn	*t;
	int		 rc, fd;

	/* Standard input, output and error closed by the caller are opened
	 * on /dev/null, so that no file of ours takes their numbers and a
	 * name such as /dev/stdout can never reach one. */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return EXIT_INTERNAL;
	if ((t = arb_turn_new()) == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_INTERNAL;
	}
	rc = run(argc, argv, t);
	arb_turn_free(t);
	return rc;
}
