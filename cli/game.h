/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode, `arbiter game COMMAND DIR ...` (arbiter-game(1)): a game
 * folder that takes mail in, runs its turns and keeps their history, on
 * libarbiter's public interface.  game.c has the commands, gamepage.c the
 * history page, gamepost.c the command send.
 */
#ifndef ARBITER_GAME_H
#define ARBITER_GAME_H

#include <stdio.h>

#include <jansson.h>

/* arbiter game COMMAND ...: argv[0] is "game".  An exit status. */
int	 game_main(int argc, char **argv);
/* arbiter game send DIR (gamepost.c): argv[0] is "send". */
int	 game_send(int argc, char **argv);

/*
 * The history page of the game whose game.json is g, its turns under dir
 * (turns/NNNN); the turn `staged`, when not 0, is read from the folder
 * stage instead (a run not yet in place).  0, or -1 with errno set.
 */
int	 game_page(FILE *fp, const char *dir, const json_t *g, long staged,
	    const char *stage);
/* The folder name of turn n: "0001", more digits past 9999. */
void	 game_turnname(long n, char *buf, size_t size);

#endif /* ARBITER_GAME_H */
