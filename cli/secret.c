/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The umpire's secret: --new-secret, reading --secret, and keeping the
 * key out of core dumps and other processes' reach.
 */
#define _POSIX_C_SOURCE 200809L

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arbiter.h"
#include "cli.h"

/*
 * While a key is in memory the process dumps no core and, on Linux, is
 * not dumpable: no core file, and no other process of the user may read
 * its memory through ptrace or /proc (arbiter(1), SECURITY).
 */
void
no_dumps(void)
{
	struct rlimit	 rl;

	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
#ifdef __linux__
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/*
 * The umpire's secret (arbiter(1), --new-secret and --secret): 32 bytes
 * from the system's random source, kept as 64 lowercase hexadecimal
 * digits and a newline in a file only its owner may read.
 */
#define SECRET_HINT	"a secret is 64 hexadecimal digits and a newline " \
			"(arbiter --new-secret makes one)"

/* Wipes a key and its text so that they do not linger in memory. */
void
wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n-- > 0)
		*v++ = 0;
}

int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* --new-secret: never over an existing file (O_EXCL), mode 0600. */
int
new_secret(const char *path)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char	 key[ARB_SECRET_LEN];
	char		 text[2 * ARB_SECRET_LEN + 1];
	size_t		 i, off = 0;
	ssize_t		 w;
	int		 fd, rc = EXIT_OK;

	if (!name_is_utf8(path, "file name"))
		return EXIT_USAGE;
	no_dumps();
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY,
	    0600)) == -1) {
		fprintf(stderr, "%s: cannot create %s: %s\n", progname, path,
		    strerror(errno));
		return EXIT_CANTCREAT;
	}
	if (arb_secret_new(key) != 0) {
		fprintf(stderr, "%s: cannot draw a secret from the system's "
		    "random source\n", progname);
		close(fd);
		unlink(path);
		return EXIT_INTERNAL;
	}
	for (i = 0; i < ARB_SECRET_LEN; i++) {
		text[2 * i] = digits[key[i] >> 4];
		text[2 * i + 1] = digits[key[i] & 15];
	}
	text[2 * ARB_SECRET_LEN] = '\n';
	/* The umask may only have taken bits away: 0600 whatever it is. */
	if (fchmod(fd, 0600) != 0)
		rc = EXIT_CANTCREAT;
	while (rc == EXIT_OK && off < sizeof(text)) {
		if ((w = write(fd, text + off, sizeof(text) - off)) == -1) {
			if (errno == EINTR)
				continue;
			rc = EXIT_CANTCREAT;
		} else
			off += (size_t)w;
	}
	if (rc == EXIT_OK && fsync(fd) != 0 && errno != EINVAL)
		rc = EXIT_CANTCREAT;
	if (close(fd) != 0 && rc == EXIT_OK)
		rc = EXIT_CANTCREAT;
	if (rc != EXIT_OK) {
		fprintf(stderr, "%s: cannot write %s: %s\n", progname, path,
		    strerror(errno));
		unlink(path);
	}
	wipe(key, sizeof(key));
	wipe(text, sizeof(text));
	return rc;
}

/* --secret: reads the key; 66 when it cannot be read, 65 when it is not
 * 64 hexadecimal digits and a newline (at the place that is wrong). */
int
read_secret(const char *path, unsigned char *key)
{
	char	 buf[2 * ARB_SECRET_LEN + 8];
	size_t	 n = 0, i;
	ssize_t	 r;
	int	 fd, hi, lo, line = 1, col, rc;

	if ((fd = open_input(path, false, &rc)) == -1)
		return rc;
	while (n < sizeof(buf)) {
		if ((r = read(fd, buf + n, sizeof(buf) - n)) == -1) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: cannot read %s: %s\n", progname,
			    path, strerror(errno));
			close(fd);
			wipe(buf, sizeof(buf));
			return EXIT_NOINPUT;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	for (i = 0; i < n && i < 2 * ARB_SECRET_LEN && hexval(buf[i]) >= 0;)
		i++;
	col = (int)i + 1;
	if (i < 2 * ARB_SECRET_LEN && i < n && buf[i] != '\n')
		fprintf(stderr, "%s: %s:1:%d: not a hexadecimal digit: %s\n",
		    progname, path, col, SECRET_HINT);
	else if (i < 2 * ARB_SECRET_LEN)
		fprintf(stderr, "%s: %s:1:%d: %zu digits where a secret has "
		    "%d: %s\n", progname, path, col, i, 2 * ARB_SECRET_LEN,
		    SECRET_HINT);
	else if (i < n && hexval(buf[i]) >= 0)
		fprintf(stderr, "%s: %s:1:%d: more than %d digits: %s\n",
		    progname, path, col, 2 * ARB_SECRET_LEN, SECRET_HINT);
	else if (i < n && (buf[i] != '\n' || i + 1 < n)) {
		if (buf[i] == '\n') {
			line = 2;
			col = 1;
		}
		fprintf(stderr, "%s: %s:%d:%d: text after the secret: %s\n",
		    progname, path, line, col, SECRET_HINT);
	} else {
		for (i = 0; i < ARB_SECRET_LEN; i++) {
			hi = hexval(buf[2 * i]);
			lo = hexval(buf[2 * i + 1]);
			key[i] = (unsigned char)(hi << 4 | lo);
		}
		wipe(buf, sizeof(buf));
		return EXIT_OK;
	}
	wipe(buf, sizeof(buf));
	return EXIT_DATA;
}
