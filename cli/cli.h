/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * For the command line's files only (cli/): what its parts share.  The
 * driver is one layer above libarbiter, of which it uses the public API
 * (arbiter.h) alone; its files, lowest first (a file calls only those
 * before it; tests/layers.sh):
 *	files.c		messages, inputs, the names checked, the outputs
 *			written all or none
 *	secret.c	the umpire's key (--new-secret, --secret)
 *	report.c	what a turn writes, the text report, --for,
 *			--orders-json and --orders-text, --reach
 *	verify.c	--verify
 *	fair.c		the fair dice' commands (--commit, --rerun, --audit)
 *	arbiter.c	usage, the options, run() and main()
 * The game mode (game.h: game.c, gamepage.c, gamepost.c; `arbiter game
 * COMMAND DIR ...`) is a layer above the driver: main() hands it the
 * command line, and nothing else of the driver calls it.
 */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sysexits.h>

#include <jansson.h>

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

extern const char *const progname;

/* files.c */
/* Reports e on standard error; the exit status it calls for. */
int	 report(const struct arb_error *);
/* A map that failed to load: every problem of it (e, when none). */
int	 report_map(struct arb_turn *, const struct arb_error *);
int	 report_map_as(struct arb_turn *, const struct arb_error *,
	    const char *);
/* "out of memory" on standard error; 70. */
int	 nomem(void);
/* --max-input: the most bytes an input may have. */
extern unsigned long long max_input;
/* BYTES, or BYTES with k, M or G (binary multiples); 0 when bad. */
unsigned long long parse_bytes(const char *s);
/* An input opened to read (a regular file, or a descriptor named on
 * purpose), or -1 after a message (none when quiet), with *rc set. */
int	 open_input(const char *path, bool quiet, int *rc);
/* The whole file (NUL-terminated, free it), or NULL with *rc set after a
 * message (none when quiet). */
char	*slurp(const char *path, size_t *len, int *rc);
char	*slurp_as(const char *path, size_t *len, int *rc, bool quiet);
/* True when s is UTF-8; else false after a message naming it as what. */
bool	 name_is_utf8(const char *s, const char *what);

/*
 * The outputs: names[i] is written as wkind[i], for player wwho[i] (-1:
 * the umpire's).  The first three are the result, the next map and the
 * trace; pictures and players' reports follow (--svg, --svg-next, --for).
 */
#define NOUTS	(9 + 8 * 64)
enum { W_RESULT, W_NEXT, W_TRACE, W_SVG, W_SVGNEXT, W_SVGSTART, W_VIEW,
    W_VIEWTEXT, W_PNG, W_REPLAY, W_SHEET };
extern int	 png_width;	/* --png-width, 0: the picture's */
extern const char *svg_region;	/* --svg-region, NULL: by the board */
extern int	 wkind[NOUTS];
extern int	 wwho[NOUTS];
extern int	 nnames;

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

/* The fatal signals remove the temporary files (catch_fatal), and are
 * held (hold(true)) while they are recorded or renamed. */
void	 catch_fatal(void);
void	 hold(bool on);
/* Opens output slot (in 0..NOUTS-1) at path: 0, or an exit status after
 * a message. */
int	 out_open(struct out *o, const char *path, int slot);
/* Flushes and closes o; 0, or an exit status after a message. */
int	 out_finish(struct out *o);
/* Removes o's temporary file, unless it was renamed, and frees o. */
void	 out_release(struct out *o);
/* Puts every written output in place, or none; with the fatal signals
 * held.  False after a message. */
bool	 commit(struct out *outs, int n);
/* Writes len bytes to path ("-": standard output) whole or not at all:
 * 0, or an exit status after a message. */
int	 write_bytes(const char *path, const char *buf, size_t len);

/* An orders operand: "player=path", where player has no slash. */
struct operand {
	char	*path;
	char	*player;	/* or NULL */
	char	*text;		/* read ahead of the map, or NULL */
	size_t	 len;
};
/* Refuses, before anything is read, an output that is the same file as
 * another or as an input, and names that are not UTF-8: 0, or an exit
 * status after a message. */
int	 check_names(const char *map, struct operand *ops, int nops,
	    const char *const names[], const char *secret, const char *rolls);

/* secret.c */
/* The umpire's key from a --secret file: 0, or an exit status after a
 * message. */
int	 read_secret(const char *path, unsigned char *key);
void	 wipe(void *, size_t);
/* No core dump of the process, and (Linux) no reading its memory: before
 * the key is read. */
void	 no_dumps(void);
int	 hexval(int c);		/* 0-15, or -1 */
/* --new-secret PATH: 0, or an exit status after a message. */
int	 new_secret(const char *path);

/* report.c */
/* --check --text: the result as a report a player can read. */
extern bool report_text;
/* Writes the outputs names[0..nnames-1] (NULL: not written), files all
 * or none, then standard output: 0, or an exit status after a message. */
int	 write_all(struct arb_turn *t, const char *const names[], bool trace,
	    bool textual);
/* --for PLAYER or --for all --outdir DIR: the outputs of the players. */
int	 for_players(struct arb_turn *t, const char *forp, const char *outdir,
	    const char *names[], char **paths, int *npaths, bool svg, bool png,
	    bool next, bool svgnext, bool replay, bool sheet);
/* --orders-json, --orders-text map.json orders: argv holds those two. */
int	 orders_form(struct arb_turn *t, char **argv, bool text);
/* --reach UNIT map.json [player=orders.json] (argc: 1 or 2). */
int	 reach_query(struct arb_turn *t, int argc, char **argv,
	    const char *unit, const char **with, int nwith,
	    const char *output, bool textual);

/* verify.c */
/* --verify DIR...: argv0 is the program's name as it was run. */
int	 verify(const char *argv0, int ndirs, char **dirs);
/* Where want and got first differ, in reason ("WHAT differs at /ptr:
 * expected X, got Y"): true when they differ. */
bool	 json_differs(const char *what, const json_t *want,
	    const json_t *got, char *reason, size_t size);

/* fair.c */
/* arbiter --secret KEY --commit [--game NAME] [-o FILE] map.json */
int	 commit_map(const char *secret, const char *game, const char *map,
	    const char *output);
/* --rerun RESULT: gives t the value RESULT reveals, and the next map's
 * commitment it records, before the map is loaded: 0, or an exit status
 * after a message. */
int	 replay_from(struct arb_turn *t, const char *result);
/* arbiter [--rolls F] --audit RESULT [-n NEXT] map.json [player=]orders */
int	 audit(const char *result, int argc, char **argv, const char *rolls,
	    const char *next);

#endif /* ARBITER_CLI_H */
