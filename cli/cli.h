/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * For the command line's files only (cli/): what its parts share.
 * arbiter.c has the options, files in and out, messages, exit codes and
 * --verify; fair.c the fair dice' commands (--commit, --replay, --audit).
 */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

#include <stdbool.h>
#include <stddef.h>
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

/* arbiter.c */
/* Reports e on standard error; the exit status it calls for. */
int	 report(const struct arb_error *);
/* A map that failed to load: every problem of it (e, when none). */
int	 report_map(struct arb_turn *, const struct arb_error *);
/* "out of memory" on standard error; 70. */
int	 nomem(void);
/* The whole file (NUL-terminated, free it), or NULL with *rc set after a
 * message. */
char	*slurp(const char *path, size_t *len, int *rc);
/* The umpire's key from a --secret file: 0, or an exit status after a
 * message. */
int	 read_secret(const char *path, unsigned char *key);
void	 wipe(void *, size_t);
/* No core dump of the process, and (Linux) no reading its memory: before
 * the key is read. */
void	 no_dumps(void);
int	 hexval(int c);		/* 0-15, or -1 */
/* Writes len bytes to path ("-": standard output) whole or not at all:
 * 0, or an exit status after a message. */
int	 write_bytes(const char *path, const char *buf, size_t len);
/* Where want and got first differ, in reason ("WHAT differs at /ptr:
 * expected X, got Y"): true when they differ. */
bool	 json_differs(const char *what, const json_t *want,
	    const json_t *got, char *reason, size_t size);

/* fair.c */
/* arbiter --secret KEY --commit [--game NAME] [-o FILE] map.json */
int	 commit_map(const char *secret, const char *game, const char *map,
	    const char *output);
/* --replay RESULT: gives t the value RESULT reveals, and the next map's
 * commitment it records, before the map is loaded: 0, or an exit status
 * after a message. */
int	 replay_from(struct arb_turn *t, const char *result);
/* arbiter [--rolls F] --audit RESULT [-n NEXT] map.json [player=]orders */
int	 audit(const char *result, int argc, char **argv, const char *rolls,
	    const char *next);

#endif /* ARBITER_CLI_H */
