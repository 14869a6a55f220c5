/*
 * measure: runs a command and reports its wall time and peak memory.
 *
 *	measure COMMAND [ARG...]
 *
 * Prints "WALL_MS MAXRSS_KB" on standard error once the command ends;
 * exits with the command's status.  The peak is the child's own resident
 * set high-water mark from wait4(2).
 */
#define _DEFAULT_SOURCE
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <stdio.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct timespec	 t0, t1;
	struct rusage	 ru;
	pid_t		 pid;
	int		 status;

	if (argc < 2) {
		fprintf(stderr, "usage: measure COMMAND [ARG...]\n");
		return 64;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) == -1) {
		perror("measure: fork");
		return 71;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) == -1) {
		perror("measure: wait4");
		return 71;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "%ld %ld\n", (long)((t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000), ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
	    WTERMSIG(status);
}
