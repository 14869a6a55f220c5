/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The game mode of the command line (arbiter-game(1)): `arbiter game
 * COMMAND DIR ...`.  game.c has the commands that keep the game folder;
 * gamepost.c sends its outbox.
 */
#ifndef ARBITER_GAME_H
#define ARBITER_GAME_H

/* arbiter game ...: argv[0] is "game", argv[1] the command. */
int	 game_main(int argc, char **argv);

/* arbiter game send DIR: argv[0] is "send", argv[1] DIR.  Renders each
 * description of DIR/outbox into a message, hands it to the game's
 * send_command, files it in DIR/sent: the exit status (arbiter-game(1),
 * SEND). */
int	 game_send(int argc, char **argv);

#endif /* ARBITER_GAME_H */
