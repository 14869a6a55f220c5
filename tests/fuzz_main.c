/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Replays files through a fuzz target without a fuzzer (after jansson's
 * standalone fuzz driver), linked with tests/fuzz_load.c or
 * tests/fuzz_turn.c:
 *
 *	fuzz_main [-n name] [-t] file|directory ...
 *
 * With -t each input runs beside a second thread, idle, as under
 * libFuzzer (whose watcher of memory is one): a process of several
 * threads lays its graphs out in itself rather than in a child (svg.c),
 * and LeakSanitizer sees what that leaves (Graphviz's context, once).
 *
 * Every file, and every regular file of every directory (in name order),
 * is given to LLVMFuzzerTestOneInput() byte for byte, as libFuzzer gave
 * it, in a child process of its own, so that an abort() or a sanitizer
 * report fails that file and the others still run.  Ends with the line
 * "NAME: N passed, N failed" that tests/check.sh adds up.  make check
 * runs it under the sanitizers over the corpora, the casebook seeds and
 * tests/crashes/, so a crash found once stays fixed.
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int	 passed, failed;
static bool	 threaded;

static void *
idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Reads path whole; NULL after a message. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	uint8_t	*buf;
	long	 n;
	FILE	*fp;

	if ((fp = fopen(path, "rb")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		perror(path);
		if (fp != NULL)
			fclose(fp);
		return NULL;
	}
	/* One byte more, so that an empty file is not malloc(0). */
	if ((buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		perror(path);
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Runs the target on one file in a child; counts the outcome. */
static void
replay(const char *path)
{
	uint8_t	*buf;
	size_t	 len;
	pid_t	 pid;
	int	 status;

	if ((buf = slurp(path, &len)) == NULL) {
		failed++;
		return;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		perror("fork");
		exit(70);
	}
	if (pid == 0) {
		pthread_t	 th;

		if (threaded && pthread_create(&th, NULL, idle, NULL) != 0)
			exit(70);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		exit(0);
	}
	free(buf);
	if (waitpid(pid, &status, 0) == -1) {
		perror("waitpid");
		exit(70);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		passed++;
		return;
	}
	failed++;
	if (WIFEXITED(status))
		printf("not ok - %s (exit status %d)\n", path,
		    WEXITSTATUS(status));
	else
		printf("not ok - %s (signal %d)\n", path,
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int
byname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays path, or each regular file in it when it is a directory. */
static void
walk(const char *path)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*d;
	char		**names = NULL, **p, *s;
	size_t		 n = 0, cap = 0, i;

	if (stat(path, &st) != 0) {
		perror(path);
		failed++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay(path);
		return;
	}
	if ((d = opendir(path)) == NULL) {
		perror(path);
		failed++;
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')	/* ., .., .keep */
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if ((p = realloc(names, cap * sizeof(*p))) == NULL)
				exit(70);
			names = p;
		}
		if ((s = malloc(strlen(path) + strlen(de->d_name) + 2)) ==
		    NULL)
			exit(70);
		sprintf(s, "%s/%s", path, de->d_name);
		names[n++] = s;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), byname);
	for (i = 0; i < n; i++) {
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			replay(names[i]);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	const char	*name = "fuzz replay";
	int		 i = 1;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		name = argv[2];
		i = 3;
	}
	if (i < argc && strcmp(argv[i], "-t") == 0) {
		threaded = true;
		i++;
	}
	for (; i < argc; i++)
		walk(argv[i]);
	printf("%s: %d passed, %d failed\n", name, passed, failed);
	return failed > 0;
}
