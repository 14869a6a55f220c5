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
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
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
	    "               [--trace-file file [--text]] map.json "
	    "[player=]orders.json ...\n", progname);
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
		fprintf(stderr, "%s: %s:%d:%d: %s", progname, e->file,
		    e->line, e->column, e->text);
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

/* Reads a whole file ("-": standard input); NULL after a message. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char	*buf = NULL, *p;
	size_t	 cap = 0, n = 0, r;

	if (fp == NULL) {
		fprintf(stderr, "%s: cannot open %s: %s\n", progname, path,
		    strerror(errno));
		return NULL;
	}
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			if ((p = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "%s: %s: out of memory\n",
				    progname, path);
				exit(EXIT_INTERNAL);
			}
			buf = p;
		}
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
	} while (r > 0);
	if (ferror(fp)) {
		fprintf(stderr, "%s: cannot read %s: %s\n", progname, path,
		    strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (fp != stdin)
		fclose(fp);
	*len = n;
	return buf;
}

/*
 * An output file written whole or not at all: into NAME.XXXXXX beside
 * it, renamed over NAME once everything has been written.
 */
struct out {
	const char	*path;
	char		*tmp;
	FILE		*fp;
};

static bool
out_open(struct out *o, const char *path)
{
	struct stat	 st;
	mode_t		 mask;
	int		 fd;

	o->path = path;
	o->fp = NULL;
	o->tmp = NULL;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return true;
	}
	/* A device or a pipe (/dev/null, /dev/stdout) is written as it
	 * is: renaming a file over it would replace it. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((o->fp = fopen(path, "w")) == NULL)
			fprintf(stderr, "%s: cannot create %s: %s\n",
			    progname, path, strerror(errno));
		return o->fp != NULL;
	}
	if ((o->tmp = malloc(strlen(path) + 8)) == NULL)
		return false;
	sprintf(o->tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(o->tmp)) == -1) {
		fprintf(stderr, "%s: cannot create %s: %s\n", progname, path,
		    strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return false;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	if ((o->fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlink(o->tmp);
		return false;
	}
	return true;
}

/* Flushes o to the disk; false after a message. */
static bool
out_flush(struct out *o)
{
	if (o->fp == NULL || o->fp == stdout)
		return true;
	if (fflush(o->fp) == 0 && !ferror(o->fp) && (o->tmp == NULL ||
	    fsync(fileno(o->fp)) == 0))
		return true;
	fprintf(stderr, "%s: cannot write %s: %s\n", progname, o->path,
	    strerror(errno));
	return false;
}

/* Closes o: with commit, renames it into place; else removes it. */
static bool
out_close(struct out *o, bool commit)
{
	bool	 good = true;

	if (o->fp == NULL || o->fp == stdout) {
		o->fp = NULL;
		return true;
	}
	if (fclose(o->fp) != 0 && commit) {
		fprintf(stderr, "%s: cannot write %s: %s\n", progname,
		    o->path, strerror(errno));
		good = false;
	}
	o->fp = NULL;
	if (o->tmp == NULL)
		return good;
	if (commit && good && rename(o->tmp, o->path) != 0) {
		fprintf(stderr, "%s: cannot rename %s to %s: %s\n", progname,
		    o->tmp, o->path, strerror(errno));
		good = false;
	}
	if (!commit || !good)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return good;
}

static int
run(int argc, char **argv, struct arb_turn *t)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
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
	const char	*ruleset = NULL;
	struct arb_error e;
	struct out	 outs[3];
	char		*text, *end;
	size_t		 len;
	bool		 check = false, trace = false, textual = false, good;
	int		 ch, i, n = 0, rc;

	while ((ch = getopt_long(argc, argv, "chn:o:r:s:tV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			check = true;
			break;
		case 'h':
			help();
			return EXIT_OK;
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
	for (i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (strcmp(argv[i], "-") == 0 || (eq != NULL &&
		    strcmp(eq + 1, "-") == 0 && memchr(argv[i], '/',
		    (size_t)(eq - argv[i])) == NULL)) {
			fprintf(stderr, "%s: only the map can be read from "
			    "standard input\n", progname);
			return EXIT_USAGE;
		}
	}

	if ((text = slurp(argv[0], &len)) == NULL)
		return EXIT_NOINPUT;
	rc = arb_turn_load_map(t, strcmp(argv[0], "-") == 0 ?
	    "<stdin>" : argv[0], text, len, &e);
	free(text);
	if (rc != 0)
		return report(&e);
	if (ruleset != NULL && arb_turn_ruleset(t) != NULL &&
	    strcmp(ruleset, arb_turn_ruleset(t)) != 0) {
		fprintf(stderr, "%s: %s: the map's ruleset is \"%s\", not "
		    "\"%s\"\n", progname, argv[0], arb_turn_ruleset(t),
		    ruleset);
		return EXIT_DATA;
	}
	for (i = 1; i < argc; i++) {
		char	*path = argv[i], *eq = strchr(path, '='), *player;

		/* "player=path", where player has no slash. */
		player = NULL;
		if (eq != NULL && eq != path && memchr(path, '/',
		    (size_t)(eq - path)) == NULL) {
			*eq = '\0';
			player = path;
			path = eq + 1;
		}
		if ((text = slurp(path, &len)) == NULL)
			return EXIT_NOINPUT;
		rc = arb_turn_load_orders(t, path, player, text, len, &e);
		free(text);
		if (rc != 0)
			return report(&e);
	}
	if (arb_turn_run(t, (check ? ARB_CHECK : 0) |
	    (trace || tracefile != NULL ? ARB_TRACE : 0), &e) != 0)
		return report(&e);

	/* Every output into its temporary file, then all renamed. */
	good = out_open(&outs[n], output) && (n++, true);
	if (good && next != NULL)
		good = out_open(&outs[n], next) && (n++, true);
	if (good && tracefile != NULL)
		good = out_open(&outs[n], tracefile) && (n++, true);
	for (i = 0; good && i < n; i++) {
		if (outs[i].fp == stdout)
			continue;
		if (i == 0)
			rc = arb_turn_write_result(t, trace ?
			    ARB_RESULT_TRACE : 0, outs[i].fp, &e);
		else if (outs[i].path == next)
			rc = arb_turn_write_next(t, outs[i].fp, &e);
		else
			rc = arb_turn_write_trace(t, textual, outs[i].fp, &e);
		if (rc != 0) {
			fprintf(stderr, "%s: cannot write %s: %s\n", progname,
			    outs[i].path, e.text);
			good = false;
		}
	}
	for (i = 0; good && i < n; i++)
		good = out_flush(&outs[i]);
	/* Renamed only when every one has been written. */
	for (i = 0; i < n; i++)
		if (!out_close(&outs[i], good))
			good = false;
	if (!good)
		return EXIT_CANTCREAT;
	/* Standard output last, once the files are safely in place. */
	for (i = 0; i < n; i++) {
		if (strcmp(outs[i].path, "-") != 0)
			continue;
		if (i == 0)
			rc = arb_turn_write_result(t, trace ?
			    ARB_RESULT_TRACE : 0, stdout, &e);
		else if (outs[i].path == next)
			rc = arb_turn_write_next(t, stdout, &e);
		else
			rc = arb_turn_write_trace(t, textual, stdout, &e);
		if (rc != 0 || fflush(stdout) != 0) {
			fprintf(stderr, "%s: cannot write standard output\n",
			    progname);
			return EXIT_CANTCREAT;
		}
	}
	if (check && arb_turn_illegal(t) > 0)
		return EXIT_ILLEGAL;
	return EXIT_OK;
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
