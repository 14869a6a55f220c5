# arbiter: a turn adjudicator for hex and territory wargames.
# One hand-written Makefile for GNU make and BSD make.  `make demo` and
# `make check` install what is missing first (see tests/deps.sh).

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBDIR	?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR	?= $(PREFIX)/share/man
DATADIR	?= $(PREFIX)/share/arbiter
SCHEMADIR ?= $(DATADIR)/schema
DOCDIR	?= $(PREFIX)/share/doc/arbiter
EXAMPLES = aeonis territory morne-plaine xconq arcane-legions
SCHEMAS	= schema/map.schema.json schema/orders.schema.json \
	  schema/result.schema.json schema/reach.schema.json
CC	?= cc
CFLAGS	?= -O2 -g
PKG_CONFIG ?= pkg-config
SHARED	?= ../shared

WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -Wpointer-arith -Wformat=2
# jansson's and libsodium's flags are asked for in each recipe, so that
# `make check` can install them first and still build in the same run.
# libgvc: Graphviz, which lays out a graph board's picture (format/svg.c);
# librsvg-2.0 and cairo: the picture as PNG (format/png.c), which
# libpng writes it; gmime-3.0:
# GMime, which finds the orders in a mail (format/mail.c).
JANSSON_CFLAGS = `$(PKG_CONFIG) --cflags jansson libsodium libgvc librsvg-2.0 cairo libpng zlib gmime-3.0`
JANSSON_LIBS = `$(PKG_CONFIG) --libs jansson libsodium libgvc librsvg-2.0 cairo libpng zlib gmime-3.0` \
	       -lm -pthread # -lm: geom.c; -pthread: turn.c
# Warnings are errors in make check and CI (WERROR=-Werror), not in a
# user's plain build, where a newer compiler's new warning must not stop it.
WERROR	?=
ARB_CFLAGS = -std=c11 -pedantic $(WARNINGS) $(WERROR) -Ilib $(CFLAGS)
SAN_CFLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer

# The library in its layers, lowest first, and within a layer its files
# lowest first (README's Layout; make check's tests/layers.sh holds them
# to it); then the command line, which uses the library's arbiter.h only.
HDRS	= lib/arbiter.h lib/base/base.h lib/base/fair.h lib/json/json.h \
	  lib/json/doc.h lib/model/model.h lib/rules/rules.h \
	  lib/format/format.h lib/format/sheet-page.h
LIBSRC	= lib/base/mem.c lib/base/maps.c lib/base/fair.c lib/base/suggest.c \
	  lib/json/read.c lib/json/write.c \
	  lib/model/board.c lib/model/geom.c lib/model/model.c \
	  lib/model/trace.c lib/model/dice.c lib/model/io.c \
	  lib/model/fairdice.c \
	  lib/rules/registry.c lib/rules/aeonis.c lib/rules/territory.c \
	  lib/rules/morne.c lib/rules/xconq.c lib/rules/arcane.c \
	  lib/rules/reach.c \
	  lib/format/load.c lib/format/emit.c lib/format/display.c \
	  lib/format/svg.c lib/format/png.c lib/format/view.c \
	  lib/format/replay.c \
	  lib/format/letter.c lib/format/mail.c lib/format/text.c \
	  lib/format/sheet.c lib/turn.c
CLISRC	= cli/files.c cli/secret.c cli/report.c cli/verify.c cli/fair.c \
	  cli/arbiter.c cli/gamepage.c cli/gamefs.c cli/gamecheck.c \
	  cli/gamepost.c cli/gamerun.c cli/game.c
MANS	= man/arbiter.1 man/arbiter-game.1 man/arbiter-map.5 \
	  man/arbiter-orders.5 \
	  man/arbiter-result.5 man/arbiter-rules.7

all: arbiter

# The order sheet's page, as C strings (lib/format/sheet.c); kept in git,
# so that a build needs no awk but where the page changed.
lib/format/sheet-page.h: lib/format/sheet.html lib/format/sheet-page.awk
	awk -f lib/format/sheet-page.awk lib/format/sheet.html >$@.tmp
	mv $@.tmp $@

# The library, for a server that embeds arbiter (arbiter.h, arbiter.pc);
# the program is linked against it.
libarbiter.a: $(LIBSRC) $(HDRS)
	@sh tests/deps.sh --check
	@sh tests/objs.sh build-lib '$(CC) $(ARB_CFLAGS) $(JANSSON_CFLAGS)' \
	    $(LIBSRC)
	rm -f $@
	ar rcs $@ `find build-lib -name '*.o' | sort`

# The library once more under AddressSanitizer and UndefinedBehaviorSanitizer,
# for the programs make check runs.
build-san/libarbiter.a: $(LIBSRC) $(HDRS)
	@sh tests/deps.sh --check
	@sh tests/objs.sh build-san/lib \
	    '$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS)' $(LIBSRC)
	rm -f $@
	ar rcs $@ `find build-san/lib -name '*.o' | sort`

# The program: the command line's objects in build-cli/ (tests/layers.sh
# reads their calls) linked against the library.
arbiter: $(CLISRC) cli/cli.h cli/game.h cli/gameint.h libarbiter.a
	@sh tests/objs.sh build-cli '$(CC) $(ARB_CFLAGS) $(JANSSON_CFLAGS)' \
	    $(CLISRC)
	$(CC) $(ARB_CFLAGS) -o $@ `find build-cli -name '*.o' | sort` \
	    libarbiter.a $(JANSSON_LIBS)

# The library under ThreadSanitizer, for the two programs that run turns
# and searches in threads (tests/threads, tests/reach-tsan).
TSAN_CFLAGS = -O1 -g -fsanitize=thread -pthread
build-tsan/libarbiter.a: $(LIBSRC) $(HDRS)
	@sh tests/deps.sh --check
	@sh tests/objs.sh build-tsan/lib \
	    '$(CC) $(ARB_CFLAGS) $(TSAN_CFLAGS) $(JANSSON_CFLAGS)' $(LIBSRC)
	rm -f $@
	ar rcs $@ `find build-tsan/lib -name '*.o' | sort`

# Two turns at once in two threads, under ThreadSanitizer.
tests/threads: tests/threads.c build-tsan/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(TSAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/threads.c build-tsan/libarbiter.a $(JANSSON_LIBS)

# The same program under AddressSanitizer and UndefinedBehaviorSanitizer.
build-san/arbiter: $(CLISRC) cli/cli.h cli/game.h cli/gameint.h \
    build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ $(CLISRC) \
	    build-san/libarbiter.a $(JANSSON_LIBS)

# Every source compiled with -Werror, whatever flags built ./arbiter
# (make check runs it with gcc, and arbiter-clang with clang).  Where
# ./arbiter is up to date and its objects were compiled with $(CC) and
# -Werror (tests/objs.sh keeps each folder's command in DIR/.cc), as make
# check builds them, they are the proof, and nothing is compiled again.
werror-build:
	@w='$(CC) $(ARB_CFLAGS) -Werror $(JANSSON_CFLAGS)'; \
	$(MAKE) -q arbiter || \
	    exec sh tests/objs.sh build-werror "$$w" $(LIBSRC) $(CLISRC); \
	for d in build-lib build-cli; do \
	    case `cat $$d/.cc 2>/dev/null` in \
	    '$(CC) '*' -Werror '*) ;; \
	    *) exec sh tests/objs.sh build-werror "$$w" $(LIBSRC) $(CLISRC) ;; \
	    esac; \
	done

# A warning check with another compiler (make check runs it with clang):
# clang's warnings come from its front end, so its syntax check is the
# whole check.
arbiter-clang: $(CLISRC) cli/cli.h cli/game.h cli/gameint.h $(LIBSRC) $(HDRS)
	$(CC) $(ARB_CFLAGS) $(JANSSON_CFLAGS) -fsyntax-only $(CLISRC) $(LIBSRC)

# Out of memory at every allocation of a turn, and a full disk (glibc:
# the test replaces malloc, so no sanitizer).
tests/oom: tests/oom.c libarbiter.a
	$(CC) $(ARB_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/oom.c libarbiter.a \
	    $(JANSSON_LIBS)

tests/expect: tests/expect.c
	$(CC) $(ARB_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/expect.c \
	    $(JANSSON_LIBS)

# The property test of reach (issue 15), in process; and again under
# ThreadSanitizer, for the search's second thread (rules.h, walk_look).
tests/reach: tests/reach.c libarbiter.a
	$(CC) $(ARB_CFLAGS) -O2 $(JANSSON_CFLAGS) -o $@ tests/reach.c \
	    libarbiter.a $(JANSSON_LIBS)
tests/reach-tsan: tests/reach.c build-tsan/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(TSAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/reach.c build-tsan/libarbiter.a $(JANSSON_LIBS)

# The mail reader at the unit level (tests/mail.c, fixtures/mail/).
tests/mail: tests/mail.c build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/mail.c build-san/libarbiter.a $(JANSSON_LIBS)

tests/unit: tests/unit.c build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/unit.c build-san/libarbiter.a $(JANSSON_LIBS)

# Fuzzing (see tests/fuzz/README).  Three libFuzzer targets, built with
# clang: tests/fuzz_load (the loaders; the first byte picks the role),
# tests/fuzz_turn (a whole turn: a map and orders files cut at "%%"
# lines, with the checks listed in tests/fuzz_turn.c), tests/fuzz_mail
# (the mail reader, alone and as an orders file: make fuzz-mail) and
# tests/fuzz_text (orders as text, read and written back: make fuzz-text).
# Each fuzzes from
# its committed corpus, tests/corpus/TARGET, and seeds made from the
# casebook; new inputs go to build-fuzz/TARGET, findings to
# build-fuzz/TARGET-crash-*.  A sanitizer report stops the run.  One job
# and one worker: the machine is shared.  FUZZ_TIME is in seconds;
# FUZZ_RUNS=10000000 stops after that many executions instead.  The long
# run before the issue is closed (tests/fuzz/README):
#	make fuzz-turn FUZZ_TIME=0 FUZZ_RUNS=10000000
# tests/fuzz_main.c replays the corpora and tests/crashes/TARGET byte for
# byte through the same targets under the sanitizers in make check.
FUZZ_TIME ?= 600
FUZZ_RUNS ?= -1
FUZZ_CFLAGS = -std=c11 -Ilib -g -O1 -fno-omit-frame-pointer \
	      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_ENV = ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	   LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	   UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
FUZZ_FLAGS = -jobs=1 -workers=1 -max_total_time=$(FUZZ_TIME) \
	     -runs=$(FUZZ_RUNS) -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	     -print_final_stats=1

tests/fuzz_main: tests/fuzz_main.c tests/fuzz_load.c build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_load.c build-san/libarbiter.a \
	    $(JANSSON_LIBS)

tests/fuzz_turn_main: tests/fuzz_main.c tests/fuzz_turn.c \
    build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_turn.c build-san/libarbiter.a \
	    $(JANSSON_LIBS)

# The library and the two replays once more with clang's sanitizers, which
# see what gcc's do not (a zero offset added to a null pointer, issue 26);
# make check replays the corpora and seeds through them as well.
CLANG_SAN_CFLAGS = $(SAN_CFLAGS) -fsanitize=nullability,float-divide-by-zero
build-san-clang/libarbiter.a: $(LIBSRC) $(HDRS)
	@sh tests/deps.sh --check
	@sh tests/objs.sh build-san-clang/lib \
	    'clang $(ARB_CFLAGS) $(CLANG_SAN_CFLAGS) $(JANSSON_CFLAGS)' $(LIBSRC)
	rm -f $@
	ar rcs $@ `find build-san-clang/lib -name '*.o' | sort`

build-san-clang/fuzz_main: tests/fuzz_main.c tests/fuzz_load.c \
    build-san-clang/libarbiter.a
	clang $(ARB_CFLAGS) $(CLANG_SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_load.c build-san-clang/libarbiter.a \
	    $(JANSSON_LIBS)

build-san-clang/fuzz_turn_main: tests/fuzz_main.c tests/fuzz_turn.c \
    build-san-clang/libarbiter.a
	clang $(ARB_CFLAGS) $(CLANG_SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_turn.c build-san-clang/libarbiter.a \
	    $(JANSSON_LIBS)

tests/fuzz_mail_main: tests/fuzz_main.c tests/fuzz_mail.c \
    build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_mail.c build-san/libarbiter.a \
	    $(JANSSON_LIBS)

# The property test's generator of random valid turns (tests/prop.sh).
tests/prop: tests/prop.c
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/prop.c \
	    $(JANSSON_LIBS)

tests/fuzz_load: tests/fuzz_load.c $(LIBSRC) $(HDRS)
	clang $(FUZZ_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/fuzz_load.c \
	    $(LIBSRC) $(JANSSON_LIBS)

tests/fuzz_text_main: tests/fuzz_main.c tests/fuzz_text.c \
    build-san/libarbiter.a
	$(CC) $(ARB_CFLAGS) $(SAN_CFLAGS) $(JANSSON_CFLAGS) -o $@ \
	    tests/fuzz_main.c tests/fuzz_text.c build-san/libarbiter.a \
	    $(JANSSON_LIBS)

tests/fuzz_text: tests/fuzz_text.c $(LIBSRC) $(HDRS)
	clang $(FUZZ_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/fuzz_text.c \
	    $(LIBSRC) $(JANSSON_LIBS)

tests/fuzz_turn: tests/fuzz_turn.c $(LIBSRC) $(HDRS)
	clang $(FUZZ_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/fuzz_turn.c \
	    $(LIBSRC) $(JANSSON_LIBS)

# The mail reader's target (tests/fuzz_mail.c; issue 27).
tests/fuzz_mail: tests/fuzz_mail.c $(LIBSRC) $(HDRS)
	clang $(FUZZ_CFLAGS) $(JANSSON_CFLAGS) -o $@ tests/fuzz_mail.c \
	    $(LIBSRC) $(JANSSON_LIBS)

fuzz-mail: deps
	@$(MAKE) tests/fuzz_mail
	@$(MAKE) TARGET=mail fuzz-run

fuzz: deps
	@$(MAKE) tests/fuzz_load
	@$(MAKE) TARGET=load fuzz-run

fuzz-turn: deps
	@$(MAKE) tests/fuzz_turn
	@$(MAKE) TARGET=turn fuzz-run

fuzz-text: deps
	@$(MAKE) tests/fuzz_text
	@$(MAKE) TARGET=text fuzz-run

fuzz-run:
	mkdir -p build-fuzz/$(TARGET)
	sh tests/fuzz/seeds.sh $(TARGET) build-fuzz/seeds-$(TARGET)
	cd build-fuzz && $(FUZZ_ENV) ../tests/fuzz_$(TARGET) $(FUZZ_FLAGS) \
	    -dict=../tests/fuzz/$(TARGET).dict -artifact_prefix=$(TARGET)- \
	    $(TARGET) ../tests/corpus/$(TARGET) seeds-$(TARGET)
	@ls build-fuzz/$(TARGET)-crash-* build-fuzz/$(TARGET)-leak-* \
	    build-fuzz/$(TARGET)-timeout-* build-fuzz/$(TARGET)-oom-* \
	    2>/dev/null || echo 'no finding'

# Minimises the corpus into tests/corpus/TARGET (make fuzz-merge TARGET=turn):
# what the casebook seeds, which make check replays anyway, do not already
# cover, by edges only (-use_counters=0), so that it stays small.
fuzz-merge:
	rm -rf build-fuzz/merged-$(TARGET)
	sh tests/fuzz/seeds.sh $(TARGET) build-fuzz/seeds-$(TARGET)
	cp -R build-fuzz/seeds-$(TARGET) build-fuzz/merged-$(TARGET)
	mkdir -p build-fuzz/$(TARGET)
	cd build-fuzz && $(FUZZ_ENV) ../tests/fuzz_$(TARGET) -merge=1 \
	    -use_counters=0 -timeout=10 -rss_limit_mb=2048 \
	    merged-$(TARGET) ../tests/corpus/$(TARGET) $(TARGET)
	for f in build-fuzz/seeds-$(TARGET)/*; do \
	    rm -f "build-fuzz/merged-$(TARGET)/$${f##*/}"; done
	rm -f tests/corpus/$(TARGET)/*
	cp build-fuzz/merged-$(TARGET)/* tests/corpus/$(TARGET)/
	rm -rf build-fuzz/merged-$(TARGET)


# Line coverage of lib/ by replays of the given inputs (clang's source-based
# coverage; llvm-cov and llvm-profdata of the same version):
#	make fuzz-cov COV_LOAD='tests/corpus/load' COV_TURN='tests/corpus/turn'
COV_LOAD ?= tests/corpus/load
COV_TURN ?= tests/corpus/turn
LLVM_PROFDATA ?= llvm-profdata-14
LLVM_COV ?= llvm-cov-14
fuzz-cov:
	mkdir -p build-fuzz/cov
	rm -f build-fuzz/cov/*.profraw
	for t in load turn; do \
	    clang -std=c11 -Ilib -g -O0 -fprofile-instr-generate \
	    -fcoverage-mapping $(JANSSON_CFLAGS) -o build-fuzz/cov-$$t \
	    tests/fuzz_main.c tests/fuzz_$$t.c $(LIBSRC) $(JANSSON_LIBS) \
	    || exit 1; done
	LLVM_PROFILE_FILE=build-fuzz/cov/%p.profraw build-fuzz/cov-load \
	    -n load $(COV_LOAD) || true
	LLVM_PROFILE_FILE=build-fuzz/cov/%p.profraw build-fuzz/cov-turn \
	    -n turn $(COV_TURN) || true
	$(LLVM_PROFDATA) merge -o build-fuzz/cov.profdata \
	    build-fuzz/cov/*.profraw
	$(LLVM_COV) report build-fuzz/cov-load -object build-fuzz/cov-turn \
	    -instr-profile=build-fuzz/cov.profdata $(LIBSRC)
deps:
	@sh tests/deps.sh

demo: deps
	@$(MAKE) arbiter
	@echo '$$ ./arbiter --trace-file - --text -o /dev/null fixtures/aeonis/demo-turn/map.json fixtures/aeonis/demo-turn/orders/*.json'
	@./arbiter --trace-file - --text -o /dev/null \
	    fixtures/aeonis/demo-turn/map.json \
	    fixtures/aeonis/demo-turn/orders/*.json
	@echo
	@echo '$$ ./arbiter fixtures/aeonis/demo-turn/map.json red=fixtures/aeonis/demo-turn/orders/red.json blue=fixtures/aeonis/demo-turn/orders/blue.json'
	@./arbiter fixtures/aeonis/demo-turn/map.json \
	    red=fixtures/aeonis/demo-turn/orders/red.json \
	    blue=fixtures/aeonis/demo-turn/orders/blue.json

# make check also installs Chromium, which tests/svg.sh renders with.
check:
	@sh tests/deps.sh --test
	@$(MAKE) -j2 WERROR=-Werror arbiter build-san/arbiter tests/unit tests/mail tests/fuzz_main \
	    tests/fuzz_turn_main tests/fuzz_mail_main tests/fuzz_text_main \
	    tests/prop tests/expect tests/threads tests/oom \
	    tests/reach tests/reach-tsan build-san-clang/fuzz_main \
	    build-san-clang/fuzz_turn_main
	@SHARED="$(SHARED)" bash tests/check.sh

bench: deps
	@$(MAKE) arbiter tests/bench/gen tests/bench/floor tests/bench/measure \
	    tests/bench/reach
	@sh tests/bench/run.sh

tests/bench/gen: tests/bench/gen.c
	$(CC) $(ARB_CFLAGS) -O2 -o $@ tests/bench/gen.c

tests/bench/floor: tests/bench/floor.c
	$(CC) $(ARB_CFLAGS) -O2 $(JANSSON_CFLAGS) -o $@ tests/bench/floor.c \
	    $(JANSSON_LIBS)

tests/bench/reach: tests/bench/reach.c $(LIBSRC) $(HDRS)
	$(CC) $(ARB_CFLAGS) -O2 $(JANSSON_CFLAGS) -o $@ tests/bench/reach.c \
	    $(LIBSRC) $(JANSSON_LIBS)

tests/bench/measure: tests/bench/measure.c
	$(CC) $(ARB_CFLAGS) -O2 -o $@ tests/bench/measure.c

# The code follows style(9) by hand: clang-format cannot align declarations
# the KNF way (a tab, then a space before the name), so there is no
# .clang-format and the format is checked only where one is added.
lint:
	@if [ -f .clang-format ] && command -v clang-format >/dev/null 2>&1; \
	then clang-format --dry-run -Werror $(CLISRC) $(LIBSRC) $(HDRS); \
	else echo "no .clang-format or no clang-format: format not checked"; fi
	sh tests/manlint.sh

# arbiter.pc names GMime's, librsvg's, cairo's and libpng's libraries (format/mail.c,
# format/png.c) in Libs.private rather than their packages in
# Requires.private: --static would add their own private libraries
# (GPGME, ...), which the library does not use and a machine need not
# have.
install: arbiter libarbiter.a
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" \
	    "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(MANDIR)/man7" \
	    "$(DESTDIR)$(LIBDIR)/pkgconfig" "$(DESTDIR)$(INCLUDEDIR)" \
	    "$(DESTDIR)$(SCHEMADIR)"
	install -m 0755 arbiter "$(DESTDIR)$(BINDIR)/arbiter"
	install -m 0644 libarbiter.a "$(DESTDIR)$(LIBDIR)/libarbiter.a"
	v=`sed -n 's/^#define ARB_VERSION "\(.*\)"/\1/p' lib/arbiter.h`; \
	g=`$(PKG_CONFIG) --libs gmime-3.0 librsvg-2.0 cairo libpng zlib`; \
	l="$(LIBDIR)"; i="$(INCLUDEDIR)"; p="$(PREFIX)"; \
	case $$l in "$$p"/*) l="\$${prefix}$${l#"$$p"}";; esac; \
	case $$i in "$$p"/*) i="\$${prefix}$${i#"$$p"}";; esac; \
	printf '%s\n' "prefix=$(PREFIX)" "libdir=$$l" \
	    "includedir=$$i" "" "Name: arbiter" \
	    "Description: turn adjudicator for hex and territory wargames" \
	    "Version: $$v" "Requires.private: jansson libsodium libgvc" \
	    'Libs: -L$${libdir} -larbiter' "Libs.private: $$g -lm -pthread" \
	    'Cflags: -I$${includedir}' \
	    >"$(DESTDIR)$(LIBDIR)/pkgconfig/arbiter.pc"
	chmod 0644 "$(DESTDIR)$(LIBDIR)/pkgconfig/arbiter.pc"
	install -m 0644 lib/arbiter.h "$(DESTDIR)$(INCLUDEDIR)/arbiter.h"
	install -m 0644 man/arbiter.1 man/arbiter-game.1 \
	    "$(DESTDIR)$(MANDIR)/man1/"
	install -m 0644 man/arbiter-map.5 man/arbiter-orders.5 \
	    man/arbiter-result.5 "$(DESTDIR)$(MANDIR)/man5/"
	install -m 0644 man/arbiter-rules.7 "$(DESTDIR)$(MANDIR)/man7/"
	install -m 0644 $(SCHEMAS) "$(DESTDIR)$(SCHEMADIR)/"
	for e in $(EXAMPLES); do \
	    d="$(DESTDIR)$(DOCDIR)/examples/$$e"; \
	    install -d "$$d/orders" || exit 1; \
	    install -m 0644 examples/$$e/README examples/$$e/map.json \
	        examples/$$e/expected.json "$$d/" || exit 1; \
	    if [ -f examples/$$e/args ]; then \
	        install -m 0644 examples/$$e/args "$$d/" || exit 1; fi; \
	    install -m 0644 examples/$$e/orders/*.json "$$d/orders/" || exit 1; \
	done

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/arbiter" \
	    "$(DESTDIR)$(LIBDIR)/libarbiter.a" \
	    "$(DESTDIR)$(LIBDIR)/pkgconfig/arbiter.pc" \
	    "$(DESTDIR)$(INCLUDEDIR)/arbiter.h" \
	    "$(DESTDIR)$(MANDIR)/man1/arbiter.1" \
	    "$(DESTDIR)$(MANDIR)/man1/arbiter-game.1" \
	    "$(DESTDIR)$(MANDIR)/man5/arbiter-map.5" \
	    "$(DESTDIR)$(MANDIR)/man5/arbiter-orders.5" \
	    "$(DESTDIR)$(MANDIR)/man5/arbiter-result.5" \
	    "$(DESTDIR)$(MANDIR)/man7/arbiter-rules.7" \
	    "$(DESTDIR)$(SCHEMADIR)/map.schema.json" \
	    "$(DESTDIR)$(SCHEMADIR)/orders.schema.json" \
	    "$(DESTDIR)$(SCHEMADIR)/result.schema.json" \
	    "$(DESTDIR)$(SCHEMADIR)/reach.schema.json"
	rmdir "$(DESTDIR)$(SCHEMADIR)" "$(DESTDIR)$(DATADIR)" 2>/dev/null || :
	for e in $(EXAMPLES); do \
	    for f in examples/$$e/README examples/$$e/map.json \
	        examples/$$e/expected.json examples/$$e/args \
	        examples/$$e/orders/*.json; do \
	        rm -f "$(DESTDIR)$(DOCDIR)/$$f"; \
	    done; \
	    rmdir "$(DESTDIR)$(DOCDIR)/examples/$$e/orders" \
	        "$(DESTDIR)$(DOCDIR)/examples/$$e" 2>/dev/null || :; \
	done
	rmdir "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)" 2>/dev/null || :

clean:
	rm -rf arbiter libarbiter.a build-lib build-cli tests/threads tests/reach-tsan build-san build-tsan build-werror \
	    build-san-clang build-fuzz tests/unit tests/mail \
	    tests/expect tests/fuzz_main tests/fuzz_load tests/fuzz_turn \
	    tests/fuzz_turn_main tests/fuzz_mail tests/fuzz_mail_main \
	    tests/fuzz_text tests/fuzz_text_main tests/oom \
	    tests/prop tests/bench/gen tests/bench/floor \
	    tests/bench/measure

.PHONY: all arbiter-clang werror-build check clean demo deps bench fuzz fuzz-merge \
	fuzz-cov fuzz-mail fuzz-run fuzz-text fuzz-turn install lint uninstall
