/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The command line: its usage and help, its options, run(), which does
 * what they ask with the other files of cli/ (cli.h lists them), and
 * main().
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"

#define OPT_SVGSTART	0x101	/* --svg-start: a long option only */
#define OPT_REPLAY	0x102	/* --replay: the replay page */
#define OPT_SVGREGION	0x103	/* --svg-region */
#define OPT_SHEET	0x104	/* --sheet */

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-chtV] [-n next.json] [-o result.json] "
	    "[-r ruleset] [-s seed]\n"
	    "               [--max-input bytes] [--rolls file] [--secret file]\n"
	    "               [--strict] [--text] [--threads n]\n"
	    "               [--trace-file file] [--svg file] [--svg-next file]"
	    "\n               [--svg-start file] [--svg-region region] "
	    "[--png file]\n               [--png-width pixels]\n"
	    "               [--sheet file] "
	    "[--for player | --for all --outdir dir]"
	    "\n               [--rerun result.json] [--replay file]"
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
	    "                        .txt, .next.json (not with -c) and, "
	    "with --svg,\n"
	    "                        --svg-next, --png, --replay, --sheet: "
	    ".svg, .next.svg,\n"
	    "                        .png, .replay.html, .sheet.html\n"
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
	    "      --replay FILE     the page that steps through the turn "
	    "(HTML)\n"
	    "      --rerun RESULT    the umpire's run without the key, from "
	    "the value\n"
	    "                        RESULT reveals\n"
	    "      --secret FILE     the umpire's secret key for the dice\n"
	    "  -s, --seed N          use seed N for the dice, not the map's\n"
	    "      --svg FILE        draw the turn as SVG in FILE\n"
	    "      --svg-next FILE   draw the board as the next turn begins\n"
	    "      --sheet FILE      the --for player's order sheet (HTML) "
	    "for the next turn\n"
	    "      --svg-start FILE  draw the board as this turn begins\n"
	    "      --svg-region R    the pictures' region: all, or hexes A:B"
	    ", or\n                        territories A,B,... (default: "
	    "a large board\n                        around what happened)\n"
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

/* Whether r has a region's form (--svg-region): "all", or names
 * (nonempty) joined by one ':' or by ','. */
static bool
region_form(const char *r)
{
	const char	*p;
	bool		 colon = false, comma = false;

	if (strcmp(r, "all") == 0)
		return true;
	if (*r == '\0' || *r == ':' || *r == ',')
		return false;
	for (p = r; *p != '\0'; p++) {
		if (*p != ':' && *p != ',')
			continue;
		if (p[1] == '\0' || p[1] == ':' || p[1] == ',' ||
		    (*p == ':' && (colon || comma)) || (*p == ',' && colon))
			return false;
		colon |= *p == ':';
		comma |= *p == ',';
	}
	return true;
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
		{ "svg-region", required_argument, NULL, OPT_SVGREGION },
		{ "png", required_argument, NULL, 'p' },
		{ "png-width", required_argument, NULL, 'w' },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "for", required_argument, NULL, 'F' },
		{ "outdir", required_argument, NULL, 'D' },
		{ "sheet", required_argument, NULL, OPT_SHEET },
		/* Fair dice (fair.c). */
		{ "audit", required_argument, NULL, 'a' },
		{ "commit", no_argument, NULL, 'C' },
		{ "game", required_argument, NULL, 'm' },
		{ "rerun", required_argument, NULL, 'y' },
		{ "orders-json", no_argument, NULL, 'j' },
		{ "orders-text", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*output = "-", *next = NULL, *tracefile = NULL;
	const char	*ruleset = NULL, *names[NOUTS], *argv0 = argv[0];
	const char	*svg = NULL, *svgnext = NULL, *forp = NULL;
	const char	*outdir = NULL, *svgstart = NULL, *sheet = NULL;
	char		*paths[8 * 64];
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
	const char	*auditing = NULL, *game = NULL, *rerun = NULL;
	const char	*replay = NULL;
	const char	*png = NULL, *cnames[3];
	bool		 committing = false, not_audit = false, others;
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
			rerun = optarg;
			turn_opts = true;
			break;
		case OPT_REPLAY:
			/* --replay RESULT was --rerun's name before issue 32:
			 * a result given to it (a .json) is refused, not
			 * overwritten with a page. */
			len = strlen(optarg);
			if (len >= 5 && strcasecmp(optarg + len - 5,
			    ".json") == 0) {
				fprintf(stderr, "%s: --replay %s: --replay now "
				    "writes the replay page (HTML), and --rerun "
				    "re-runs a committed turn from its result "
				    "(--rerun %s)\n", progname, optarg, optarg);
				return EXIT_USAGE;
			}
			replay = optarg;
			turn_opts = true;
			not_audit = true;
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
		case OPT_SVGREGION:
			/* Its cells are looked up on the board when a
			 * picture is drawn (65); its form here. */
			if (!region_form(optarg)) {
				fprintf(stderr, "%s: bad --svg-region \"%s\": "
				    "expected all, two hexes' labels A:B, or "
				    "territories' names A,B,...\n", progname,
				    optarg);
				return EXIT_USAGE;
			}
			svg_region = optarg;
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
		    png != NULL || reach != NULL || rerun != NULL ||
		    replay != NULL) {
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
	if (rerun != NULL && (secret != NULL || seeded || rolls != NULL)) {
		fprintf(stderr, "%s: --rerun takes the dice from the result's "
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
		if (argc != 2) {
			usage(stderr);
			return EXIT_USAGE;
		}
		return orders_form(t, argv, orders_as == 2);
	}
	if (reach != NULL || nwith > 0) {
		/* --reach takes only --unit, --output, --text and
		 * --threads. */
		others = check || next != NULL || tracefile != NULL ||
		    trace || strict || rolls != NULL || secret != NULL ||
		    seeded || ruleset != NULL || svg != NULL ||
		    svgnext != NULL || svgstart != NULL || png != NULL ||
		    replay != NULL || forp != NULL || outdir != NULL ||
		    sheet != NULL;
		if (reach == NULL || others || argc < 1 || argc > 2) {
			if (reach == NULL)
				fprintf(stderr, "%s: --unit goes with "
				    "--reach\n", progname);
			else if (others)
				fprintf(stderr, "%s: --reach takes only "
				    "--unit, --output, --text and "
				    "--threads\n", progname);
			else
				fprintf(stderr, "%s: --reach takes the map "
				    "and at most one orders file\n",
				    progname);
			usage(stderr);
			rc = EXIT_USAGE;
		} else
			rc = reach_query(t, argc, argv, reach, with, nwith,
			    output, textual);
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
	if (replay != NULL) {
		wkind[nnames] = W_REPLAY;
		wwho[nnames] = -1;
		names[nnames++] = replay;
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
	if (rerun != NULL && (rc = replay_from(t, rerun)) != 0)
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
	    svgnext != NULL, replay != NULL, sheet != NULL)) == 0)
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
	    (trace || tracefile != NULL || forp != NULL || replay != NULL ?
	    ARB_TRACE : 0),
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
	/* arbiter game COMMAND ... (game.c, arbiter-game(1)). */
	if (argc > 1 && strcmp(argv[1], "game") == 0)
		return game_main(argc - 1, argv + 1);
	if ((t = arb_turn_new()) == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_INTERNAL;
	}
	rc = run(argc, argv, t);
	arb_turn_free(t);
	return rc;
}
