/*
 * The JSON layer of libarbiter: reading a file's values with a JSON
 * Pointer kept for messages and located failures (read.c), and building
 * documents for the writer (write.c).  It knows nothing of boards, units
 * or rule systems; it uses the base layer and, inside its .c files only,
 * jansson.  Above it, values are the opaque struct jv.
 */
#ifndef ARBITER_JSON_H
#define ARBITER_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"

struct jv;			/* a JSON value (a json_t underneath) */
struct ld_ahead;

/* The state of reading one file; its buffers are kept from file to file. */
struct ld {
	struct mem	*m;
	struct arb_error *e;
	void		*owner;		/* the layer above's, for its readers */
	const char	*file;
	const char	*text;
	size_t		 len;
	void		*doc;		/* the parsed document, or NULL */
	bool		 pooled;	/* doc lives in a pool (read.c) */
	struct pool	 pool;
	struct pool	*docpool;	/* the one doc lives in */
	struct ld_ahead	*ahead;		/* the next parse's, parsed already */
	/* Where we are: a JSON Pointer, whole however long (an error
	 * message gets it cut to fit), and where each level starts. */
	char		*ptr;		/* NULL or NUL-terminated */
	size_t		 plen, pcap;
	size_t		*mark;		/* mark[i]: plen before level i */
	size_t		 depth, mcap;
	/*
	 * Reading a player's file: a failure is a problem of the file, told
	 * to note() (with the reason and hint set for it, then reset) and
	 * jumping to recover instead of failing (NULL: it fails).
	 */
	jmp_buf		*recover;
	void		(*note)(struct ld *, const char *text);
	int		 reason;	/* the layer above's code for it */
	const char	*hint;		/* what was probably meant, or NULL */
	bool		 hints;		/* suggestions wanted (ld_meant()) */
	/*
	 * Reading the map (issue 26): every problem is told to note(), and
	 * the reading goes on where it can: ld_keys() notes each unknown
	 * key and returns, ld_problem() notes and returns, ld_try() reads
	 * an element under a recovery point of its own; a failure outside
	 * any is noted too, then fails.  elsewhere(), when set, says what a
	 * key near no name of ld_keys()'s lists is (NULL: nothing).
	 */
	bool		 many;
	const char	*(*elsewhere)(struct ld *, const char *key);
	/* ld_locate(): the elements of the array at this pointer are found
	 * from the last one located, not from the top again. */
	const char	*array;
	bool		 acache;
	const char	*acur;
	unsigned long	 aidx;
	int		 aline, acol;
	/* A text that is not JSON, read by the layer above into a document
	 * (an orders text): where a pointer of it is.  NULL: in the JSON
	 * text, as locate() finds it. */
	void		(*where)(struct ld *, const char *pointer, int *line,
			    int *column);
	void		*where_arg;
};

/*
 * A text parsed ahead, in any thread, before the file is read
 * (arb_turn_load_map_ahead()): ld_ahead_parse() touches nothing but a
 * and this thread's allocation hook, and builds the document in a's own
 * pool, which only ld_close() (after ld_ahead_take()) or ld_ahead_drop()
 * gives back, so that each document is released by the pool it came
 * from.  A text that fails to parse (a syntax error, or memory that ran
 * out) leaves no document: it is parsed again when read, which says why.
 */
struct ld_ahead {
	const char	*text;		/* as given, before any BOM */
	size_t		 len;
	void		*doc;		/* NULL: not parsed */
	bool		 pooled;	/* doc lives in pool */
	struct pool	 pool;
	bool		 taken;		/* handed to a reader */
	bool		 hashed;	/* sha256 is the text's */
	unsigned char	 sha256[32];
};
void	 ld_ahead_parse(struct ld_ahead *);	/* as ld_try_parse() */
void	 ld_ahead_drop(struct ld_ahead *);	/* unless taken */
/* After ld_start() with a's text: ld_try_parse() gives a's document
 * instead of parsing, and ld_close() releases it. */
void	 ld_ahead_take(struct ld *, struct ld_ahead *a);

/* Readies ld for one file (keeping its buffers; closing the last one). */
void	 ld_start(struct ld *, struct mem *, struct arb_error *,
	    const char *file, const char *text, size_t len);
const struct jv *ld_parse(struct ld *);	/* the top object */
const struct jv *ld_parse_any(struct ld *);	/* the top value */
/* Any JSON value; NULL on a syntax error, told in text (size bytes),
 * *line and *column. */
const struct jv *ld_try_parse(struct ld *, char *text, size_t size,
	    int *line, int *column);
bool	 ld_is_array(const struct jv *);
long	 ld_int_or(const struct jv *, long dflt);	/* v, or dflt */
/* A plain string (non-empty, no NUL) lent, or NULL. */
const char *ld_plain(const struct jv *);
/* "did you mean "x"?" for the name in a or b nearest typed, or NULL
 * (also when ld->hints is false). */
const char *ld_meant(struct ld *, const char *typed, const char *const *a,
	    const char *const *b);
/* The line and column of pointer (see ld->array). */
void	 ld_locate(struct ld *, const char *pointer, int *line,
	    int *column);
void	 ld_close(struct ld *);		/* the document (memory kept) */
void	 ld_release(struct ld *);	/* and all the memory */
void	 ld_push(struct ld *, const char *key);
void	 ld_pushi(struct ld *, size_t index);
void	 ld_pop(struct ld *);
const char *ld_where(const struct ld *);	/* the pointer so far */
/* A pointer copied into dst[size], cut with "..." when it does not fit. */
void	 ld_cut(char *dst, size_t size, const char *pointer);
void	 ld_fail(struct ld *, const char *, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
/* A problem after which the reading may go on: noted when ld->many (and
 * the caller goes on), else ld_fail(). */
void	 ld_problem(struct ld *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* fn(ld, arg) under a recovery point of its own when ld->many: false
 * when it failed (its problem noted, the pointer back where it was). */
bool	 ld_try(struct ld *, void (*fn)(struct ld *, void *), void *arg);
/* Fails with "bad WHAT V: expected WANT" (WHAT "value": the key). */
void	 ld_expect(struct ld *, const struct jv *v, const char *what,
	    const char *want) __attribute__((noreturn));
const struct jv	*ld_get(const struct jv *obj, const char *key);
const struct jv	*ld_need(struct ld *, const struct jv *obj, const char *key);
const struct jv	*ld_need_object(struct ld *, const struct jv *v);
void	 ld_keys(struct ld *, const struct jv *obj, const char *const *a,
	    const char *const *b);
bool	 ld_is_object(const struct jv *);
bool	 ld_is_string(const struct jv *);
bool	 ld_is_null(const struct jv *);
bool	 ld_int_is(const struct jv *, long want);
size_t	 ld_len(struct ld *, const struct jv *arr);	/* must be array */
const struct jv	*ld_at(const struct jv *arr, size_t i);
/* Each reads key of obj (pushing it for messages); absent: dflt. */
long	 ld_int(struct ld *, const struct jv *obj, const char *key,
	    long dflt, long min, long max);
long	 ld_intv(struct ld *, const struct jv *v, const char *what,
	    long min, long max);	/* v itself, pushed by the caller */
bool	 ld_bool(struct ld *, const struct jv *obj, const char *key,
	    bool dflt);
const char *ld_str(struct ld *, const struct jv *obj, const char *key,
	    const char *dflt);		/* a copy that lives with the mem */
const char *ld_strv(struct ld *, const struct jv *v);	/* v itself */
const char *ld_namev(struct ld *, const struct jv *v, const char *what,
	    const char *want);		/* v's text, lent; must be a string */
double	 ld_realv(struct ld *, const struct jv *v, const char *what,
	    double min, double max);	/* a number; v pushed by the caller */
double	 ld_real(struct ld *, const struct jv *obj, const char *key,
	    double dflt, double min, double max);
/* Iterate an object: returns false at the end. */
bool	 ld_next(const struct jv *obj, void **iter, const char **key,
	    const struct jv **val);
void	*ld_iter(const struct jv *obj);
int	 locate(const char *text, size_t len, const char *pointer,
	    int *line, int *column);

/* Building a document (the next map's parts the rule systems write).
 * Failures jump to the mem given to jw_begin() by this thread. */
void	 jw_begin(struct mem *);
/* Builds this thread's documents in p (NULL: stops): nothing built can
 * leak, and a document is dropped whole with pool_reset().  False when
 * jansson's allocation functions are not the library's: values are then
 * malloc'ed and freed with json_decref() as usual. */
bool	 jv_pool(struct pool *p);
void	 emit_set_str(struct jv *, const char *, const char *);
void	 emit_set_int(struct jv *, const char *, long);
void	 emit_set_bool(struct jv *, const char *, bool);
void	 emit_set_double(struct jv *, const char *, double);	/* as is */
void	 emit_set_null(struct jv *, const char *);
struct jv *emit_set_array(struct jv *, const char *);
struct jv *emit_set_object(struct jv *, const char *);	/* made if absent */
struct jv *emit_add_object(struct jv *);
struct jv *emit_add_array(struct jv *);
void	 emit_add_str(struct jv *, const char *);
void	 emit_add_int(struct jv *, long);
void	 emit_add_double(struct jv *, double);

#endif /* ARBITER_JSON_H */
