/*
 * gen: writes a large turn for the benchmark.
 *
 *	gen DIR [COLS ROWS UNITS]
 *	gen -t DIR [TERRITORIES ARMIES]
 *
 * DIR/map.json is a COLS x ROWS hex map (default 1000 x 1000) in the
 * compact row form with UNITS units (default 100000) of ten players, and
 * DIR/orders/pN.json gives every unit one move order of one hex
 * (infantry) or two (cavalry).  The terrain, the units' places and the
 * directions come from a fixed xorshift generator, so the same arguments
 * always give the same files.  Some moves are refused (lakes, occupied
 * hexes, ZOC costs) as in a real turn.
 *
 * With -t, DIR/map.json is a territory map of TERRITORIES territories
 * (default 10000) on a square grid with a diagonal in every other square,
 * owned by ten players (one in ten neutral), and the orders move about
 * ARMIES armies (default 100000) in groups of 1 to 9 along paths of one or
 * two steps, many of them into the same territories, so that skirmishes,
 * loops and invasions abound.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PLAYERS	10

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static unsigned
next(unsigned n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state % n);
}

static int	 cols, rows, width;

static void
label(char *buf, int cell)
{
	snprintf(buf, 16, "%0*d%0*d", width, cell % cols + 1, width,
	    cell / cols + 1);
}

/* Neighbour of cell in direction d (0 N .. 5 NW), even columns low; -1
 * off the map. */
static int
neighbor(int cell, int d)
{
	static const int dc[6] = { 0, 1, 1, 0, -1, -1 };
	int	 c = cell % cols + 1, r = cell / cols + 1;
	int	 up = c % 2 == 0 ? r : r - 1;
	int	 dr[6] = { r - 1, up, up + 1, r + 1, up + 1, up };
	int	 nc = c + dc[d], nr = dr[d];

	if (nc < 1 || nc > cols || nr < 1 || nr > rows)
		return -1;
	return (nr - 1) * cols + (nc - 1);
}

static FILE *
create(const char *dir, const char *name)
{
	char	 path[4096];
	FILE	*fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	return fp;
}

static void
finish(FILE *fp)
{
	if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0) {
		perror("gen: write");
		exit(1);
	}
}

static uint32_t
rnd(void)
{
	return (uint32_t)next(1u << 31);
}

/* The territory turn. */
static int
territory(const char *dir, int n, long total)
{
	int	 side = 1, i, p, *owner, *avail, *deg, (*nb)[8];
	long	 moved = 0;
	char	 name[64];
	FILE	*fp, *of[PLAYERS];
	bool	 first[PLAYERS];

	while (side * side < n)
		side++;
	owner = calloc((size_t)n, sizeof(int));
	avail = calloc((size_t)n, sizeof(int));
	deg = calloc((size_t)n, sizeof(int));
	nb = calloc((size_t)n, sizeof(*nb));
	if (owner == NULL || avail == NULL || deg == NULL || nb == NULL) {
		perror("gen");
		return 1;
	}
	fp = create(dir, "map.json");
	fprintf(fp, "{\n  \"arbiter\": 1, \"ruleset\": \"territory\", "
	    "\"turn\": 1, \"seed\": 1,\n  \"board\": {\n"
	    "    \"grid\": \"graph\",\n    \"territories\": [");
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\"t%d\"", i ? ", " : "", i);
	fputs("],\n    \"edges\": [", fp);
	for (i = 0; i < n; i++) {
		int	 x = i % side, y = i / side, k, e[3], ne = 0;

		if (x + 1 < side && i + 1 < n)
			e[ne++] = i + 1;
		if (i + side < n)
			e[ne++] = i + side;
		if ((x + y) % 2 == 0 && x + 1 < side && i + side + 1 < n)
			e[ne++] = i + side + 1;
		for (k = 0; k < ne; k++) {
			fprintf(fp, "%s[\"t%d\", \"t%d\"]", i || k ? ", " :
			    "", i, e[k]);
			nb[i][deg[i]++] = e[k];
			nb[e[k]][deg[e[k]]++] = i;
		}
	}
	fputs("]\n  },\n  \"players\": {\n", fp);
	for (p = 0; p < PLAYERS; p++)
		fprintf(fp, "    \"p%d\": {}%s\n", p, p + 1 < PLAYERS ? "," :
		    "");
	fputs("  },\n  \"cells\": {\n", fp);
	for (i = 0; i < n; i++) {
		owner[i] = rnd() % 10 == 0 ? -1 : (int)(rnd() % PLAYERS);
		if (owner[i] < 0) {
			fprintf(fp, "    \"t%d\": {}", i);
		} else {
			avail[i] = (int)(3 * total / n) + 1 +
			    (int)(rnd() % 8);
			fprintf(fp, "    \"t%d\": { \"owner\": \"p%d\", "
			    "\"armies\": %d, \"loyalty\": %u%s }", i,
			    owner[i], avail[i], rnd() % 5, rnd() % 7 == 0 ?
			    ", \"features\": [\"watchtower\"]" : rnd() % 7 == 0 ?
			    ", \"features\": [\"bivouac\"]" : "");
		}
		fputs(i + 1 < n ? ",\n" : "\n", fp);
	}
	fputs("  }\n}\n", fp);
	finish(fp);

	for (p = 0; p < PLAYERS; p++) {
		snprintf(name, sizeof(name), "orders/p%d.json", p);
		of[p] = create(dir, name);
		fprintf(of[p], "{ \"arbiter\": 1, \"player\": \"p%d\", "
		    "\"turn\": 1, \"orders\": [\n", p);
		first[p] = true;
	}
	for (i = 0; moved < total && i < 100 * total; i++) {
		int	 from = (int)(rnd() % (unsigned)n), a, b, k;

		if (owner[from] < 0 || avail[from] == 0)
			continue;
		k = 1 + (int)(rnd() % 9);
		if (k > avail[from])
			k = avail[from];
		avail[from] -= k;
		moved += k;
		a = nb[from][rnd() % (unsigned)deg[from]];
		b = nb[a][rnd() % (unsigned)deg[a]];
		fp = of[owner[from]];
		fprintf(fp, "%s  { \"id\": \"o%d\", \"armies\": %d, "
		    "\"move\": [\"t%d\", \"t%d\"", first[owner[from]] ? "" :
		    ",\n", i, k, from, a);
		if (rnd() % 2 == 0)
			fprintf(fp, ", \"t%d\"", b);
		fputs("] }", fp);
		first[owner[from]] = false;
	}
	for (p = 0; p < PLAYERS; p++) {
		fputs("\n] }\n", of[p]);
		finish(of[p]);
	}
	free(owner);
	free(avail);
	free(deg);
	free(nb);
	return 0;
}

int
main(int argc, char *argv[])
{
	static const char terrain[] = "..........ffffmmdd~C";
	char		 a[16], b[16], c[16], name[64];
	int		 units, i, p, *at;
	FILE		*fp, *of[PLAYERS];

	if (argc >= 3 && strcmp(argv[1], "-t") == 0) {
		int n = argc == 5 ? atoi(argv[3]) : 10000;
		long total = argc == 5 ? atol(argv[4]) : 100000;

		if ((argc != 3 && argc != 5) || n < 4 || total < 1 ||
		    total > (long)n * 50) {
			fprintf(stderr, "usage: gen -t DIR [TERRITORIES "
			    "ARMIES], ARMIES at most 50 a territory\n");
			return 64;
		}
		if (mkdir(argv[2], 0777) == -1 && errno != EEXIST) {
			perror(argv[2]);
			return 1;
		}
		snprintf(name, sizeof(name), "%s/orders", argv[2]);
		if (mkdir(name, 0777) == -1 && errno != EEXIST) {
			perror(name);
			return 1;
		}
		return territory(argv[2], n, total);
	}
	if (argc != 2 && argc != 5) {
		fprintf(stderr, "usage: gen DIR [COLS ROWS UNITS]\n");
		return 64;
	}
	cols = argc == 5 ? atoi(argv[2]) : 1000;
	rows = argc == 5 ? atoi(argv[3]) : 1000;
	units = argc == 5 ? atoi(argv[4]) : 100000;
	if (cols < 2 || rows < 2 || units < 1 || units > cols * rows / 4) {
		fprintf(stderr, "gen: need COLS, ROWS >= 2 and UNITS <= "
		    "COLS*ROWS/4\n");
		return 64;
	}
	width = snprintf(NULL, 0, "%d", cols > rows ? cols : rows);
	if (width < 2)
		width = 2;
	if (mkdir(argv[1], 0777) == -1 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	snprintf(name, sizeof(name), "%s/orders", argv[1]);
	if (mkdir(name, 0777) == -1 && errno != EEXIST) {
		perror(name);
		return 1;
	}

	fp = create(argv[1], "map.json");
	fprintf(fp, "{\n  \"arbiter\": 1, \"ruleset\": \"aeonis\", "
	    "\"turn\": 1, \"seed\": 1,\n  \"board\": {\n"
	    "    \"grid\": \"hex\", \"cols\": %d, \"rows\": %d,\n"
	    "    \"legend\": { \".\": \"plains\", \"f\": \"forest\", "
	    "\"m\": \"mountain\", \"d\": \"desert\", \"~\": \"lake\", "
	    "\"C\": \"city\" },\n    \"terrain\": [\n", cols, rows);
	for (i = 0; i < rows; i++) {
		int j;

		fputs("      \"", fp);
		for (j = 0; j < cols; j++)
			fputc(terrain[next(sizeof(terrain) - 1)], fp);
		fprintf(fp, "\"%s\n", i + 1 < rows ? "," : "");
	}
	fputs("    ]\n  },\n  \"players\": {\n", fp);
	for (p = 0; p < PLAYERS; p++)
		fprintf(fp, "    \"p%d\": { \"ap\": 1000000 }%s\n", p,
		    p + 1 < PLAYERS ? "," : "");
	fputs("  },\n  \"units\": [\n", fp);

	/* One unit in every stretch of cols*rows/units cells. */
	if ((at = malloc(sizeof(*at) * (size_t)units)) == NULL) {
		perror("gen");
		return 1;
	}
	for (i = 0; i < units; i++) {
		long	 span = (long)cols * rows / units;

		at[i] = (int)(i * span + next((unsigned)span));
		label(a, at[i]);
		fprintf(fp, "    { \"id\": \"u%d\", \"player\": \"p%d\", "
		    "\"type\": \"%s\", \"at\": \"%s\", \"strength\": %d }%s\n",
		    i, i % PLAYERS, i % 10 < 3 ? "cavalry" : "infantry", a,
		    1 + (int)next(5), i + 1 < units ? "," : "");
	}
	fputs("  ]\n}\n", fp);
	finish(fp);

	for (p = 0; p < PLAYERS; p++) {
		snprintf(name, sizeof(name), "orders/p%d.json", p);
		of[p] = create(argv[1], name);
		fprintf(of[p], "{ \"arbiter\": 1, \"player\": \"p%d\", "
		    "\"turn\": 1, \"orders\": [\n", p);
	}
	for (i = 0; i < units; i++) {
		int	 s1, s2 = -1;

		do
			s1 = neighbor(at[i], (int)next(6));
		while (s1 < 0);
		if (i % 10 < 3)
			while (s2 < 0 || s2 == at[i])
				s2 = neighbor(s1, (int)next(6));
		fp = of[i % PLAYERS];
		label(a, at[i]);
		label(b, s1);
		fprintf(fp, "%s  { \"id\": \"o%d\", \"units\": [\"u%d\"], "
		    "\"move\": [\"%s\", \"%s\"", i < PLAYERS ? "" : ",\n",
		    i, i, a, b);
		if (s2 >= 0) {
			label(c, s2);
			fprintf(fp, ", \"%s\"", c);
		}
		fputs("] }", fp);
	}
	for (p = 0; p < PLAYERS; p++) {
		fputs("\n] }\n", of[p]);
		finish(of[p]);
	}
	free(at);
	return 0;
}
