/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * For the game mode's files only (cli/game*.c): what they share.
 * gamefs.c has the folder (time, files, the plan of a commit and its
 * carrying out, the lock, the queue of mails, a mail's headers); game.c
 * the commands new, receive and status and the dispatch; gamerun.c run,
 * redo and verify.
 */
#ifndef ARBITER_GAMEINT_H
#define ARBITER_GAMEINT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "game.h"

#define EXIT_TEMPFAIL	EX_TEMPFAIL	/* 75: receive could not file */
#define MAXMAIL		(4L * 1024 * 1024)
#define STAGE		".stage"
#define COMMIT		".commit"

/* The game being worked on: game.json, and the time of the command. */
struct game {
	json_t		*j;
	const char	*name, *umpire, *from;
	long		 turn;
	time_t		 now, deadline;
	int		 nplayers;
	char		 stamp[32];	/* now, as YYYYMMDDTHHMMSSZ */
	/* The plan of the command's commit, and its queued mails. */
	char		*plan;
	size_t		 planlen;
	long		 seq;		/* the next outbox number */
	int		 queued;
};

/* A growing text. */
struct text {
	char	*s;
	size_t	 len;
	FILE	*fp;
};

/* The headers of a received mail that the game reads (GMime). */
struct head {
	char	*from;		/* the first sender's address, lower case */
	char	*msgid;		/* "<...>", or NULL */
	char	*subject;
	time_t	 date;
	bool	 dated;
	bool	 automatic;	/* Auto-Submitted, other than "no" (RFC 3834) */
};

/* A player's orders checked against the open turn's map. */
struct check {
	int	 state;		/* 0: no orders, 1: with problems, 2: ready */
	int	 problems, orders;
	char	 reason[32];	/* the file's refusal, or "" */
	long	 turn;		/* the turn the orders name, or 0 */
	char	*canon;		/* the orders as canonical text, or NULL */
	char	*report;	/* each order's ruling, each problem */
};

int	 cantwrite(const char *path);
json_t	 *cleans(const char *s, bool oneline);
int	 gm_commit(struct game *g);
int	 enter(const char *dir, struct game *g, bool lock);
bool	 exists(const char *path);
void	 fail_at(const char *step);
void	 free_list(char **v, size_t n);
bool	 get_now(struct game *g);
const char	 *gstr(const json_t *o, const char *key);
void	 head_free(struct head *h);
int	 head_read(const char *buf, size_t len, struct head *h,
	    const char **why);
void	 iso(time_t t, char *buf, size_t size);
long	 jint(const json_t *o, const char *key, long dflt);
void	 leave(struct game *g);
char	 **list_dir(const char *path, size_t *n);
int	 lock_dir(bool quiet);
extern bool game_finished;	/* lock_dir() finished an interrupted one */
int	 mkdirs(const char *path, bool dir);
bool	 parse_iso(const char *s, time_t *t);
int	 plan_add(struct game *g, const char *from, const char *to);
const char	 *player_addr(const struct game *g, int i);
const char	 *player_name(const struct game *g, int i);
int	 queue(struct game *g, const char *kind, const char *to, long turn,
	    const char *player, const char *subject, const char *body,
	    const char *in_reply_to, const char *const *attach);
char	 *readall(const char *path, size_t *len);
int	 rm_rf(const char *path);
bool	 safe_addr(const char *s);
bool	 safe_name(const char *s);
int	 stage_game(struct game *g, long turn, time_t deadline, long redone,
	    long staged);
int	 stage_copy(const char *from, const char *to);
bool	 text_close(struct text *t);
bool	 text_open(struct text *t);
int	 wclose(FILE *fp, const char *path);
int	 wfile(const char *path, const char *buf, size_t len);
FILE	 *wopen(const char *path);
void	 xsnprintf(char *, size_t, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
const char	 *jget(const json_t *o, const char *key);
/* gamecheck.c: a player's orders read for the open turn. */
void	 check_free(struct check *c);
int	 check_orders(const char *map, size_t maplen, const char *player,
	    const char *file, const char *text, size_t len, struct check *c);
int	 read_map(struct game *g, char **map, size_t *len);
int	 player_states(struct game *g, int *states, int *problems);
int	 stage_page(struct game *g, long staged);
/* The commands of gamerun.c. */
int	 cmd_run(int, char **);
int	 cmd_redo(int, char **);
int	 cmd_verify(int, char **);

#endif /* ARBITER_GAMEINT_H */
