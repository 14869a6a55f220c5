/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * A placeholder: `arbiter game send` is built on another branch, which
 * replaces this file.
 */
#include <stdio.h>

#include "arbiter.h"
#include "cli.h"
#include "game.h"

int
game_send(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "%s: send: not built on this branch\n", progname);
	return EXIT_INTERNAL;
}
