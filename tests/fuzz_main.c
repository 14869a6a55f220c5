/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Replays files through the fuzz target without a fuzzer (after jansson's
 * standalone fuzz driver): every file named on the command line, each once
 * as a map and once as an orders file for each of the fuzz target's maps.  make check runs it over the
 * casebook and tests/crashes/ under the sanitizers, so a crash found once
 * stays fixed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
main(int argc, char **argv)
{
	uint8_t	*buf;
	size_t	 n;
	long	 len;
	FILE	*fp;
	static const uint8_t roles[] = { 0, 1, 3, 5, 9, 13 };	/* see fuzz_load.c */
	int	 i, r, runs = 0;

	for (i = 1; i < argc; i++) {
		if ((fp = fopen(argv[i], "rb")) == NULL ||
		    fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0) {
			perror(argv[i]);
			return 1;
		}
		rewind(fp);
		if ((buf = malloc((size_t)len + 1)) == NULL)
			return 1;
		n = fread(buf + 1, 1, (size_t)len, fp);
		fclose(fp);
		for (r = 0; r < (int)sizeof(roles); r++) {
			buf[0] = roles[r];
			LLVMFuzzerTestOneInput(buf, n + 1);
			runs++;
		}
		free(buf);
	}
	printf("fuzz replay: %d passed, 0 failed\n", runs);
	return 0;
}
