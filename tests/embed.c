/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * A small program that embeds the installed library, as a play-by-mail
 * server would: tests/install.sh builds it against the installed
 * arbiter.h and libarbiter.a, found with pkg-config, and checks that it
 * writes the result the program writes.
 *
 *	embed MAP ORDERS...
 */
#include <stdio.h>
#include <stdlib.h>

#include <arbiter.h>

static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf = NULL;
	long	 n;

	if (fp == NULL)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL &&
	    fread(buf, 1, (size_t)n, fp) == (size_t)n)
		*len = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

int
main(int argc, char **argv)
{
	struct arb_turn	*t;
	struct arb_error e;
	char		*text;
	size_t		 len;
	int		 i, rc = 1;

	if (argc < 2 || (t = arb_turn_new()) == NULL)
		return 64;
	for (i = 1; i < argc; i++) {
		if ((text = slurp(argv[i], &len)) == NULL) {
			fprintf(stderr, "embed: cannot read %s\n", argv[i]);
			goto out;
		}
		rc = i == 1 ? arb_turn_load_map(t, argv[i], text, len, &e) :
		    arb_turn_load_orders(t, argv[i], NULL, text, len, &e);
		free(text);
		if (rc != 0)
			goto fail;
	}
	if (arb_turn_run(t, 0, &e) != 0 ||
	    arb_turn_write_result(t, 0, stdout, &e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "embed: %s:%d:%d: %s\n", e.file, e.line, e.column,
	    e.text);
	rc = 1;
out:
	arb_turn_free(t);
	return rc;
}
