/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * A placeholder of the game mode's commands on the branch that builds
 * `send` (gamepost.c): only `arbiter game send DIR` is dispatched.  The
 * game branch's game.c replaces this file whole.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "game.h"

int
game_main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "send") == 0)
		return game_send(argc - 1, argv + 1);
	fprintf(stderr, "%s game: only send is built on this branch\n",
	    progname);
	return EXIT_USAGE;
}
