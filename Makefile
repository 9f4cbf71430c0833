# The two quickstart commands: `make demo` (end-to-end crawl of a generated site into SQLite)
# and `make test` (the test suite). Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench models clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	cd example_project && ../$(BIN)/python -m demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check scrapy_denoise tests example_project
	$(BIN)/ruff format --check scrapy_denoise tests example_project
	$(BIN)/mypy

# Every table of BENCHMARKS.md, each by the command written above it (about an hour on two
# cores; the perf table's store throughput needs DENOISE_TEST_POSTGRES_URL, and is skipped
# without it).
DEMO_ZIP := /tmp/demo-daily.zip
bench: $(STAMP)
	cd example_project && ../$(BIN)/python -m demosite.generate /tmp/demo-site --zip $(DEMO_ZIP)
	$(BIN)/scrapy-denoise bench extraction --split holdout --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench pages --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench metadata --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench sites --site zjuvai-blog --site flink-blog \
		--zip demo-daily=$(DEMO_ZIP) --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench sites --site zjuvai-blog --site flink-blog \
		--zip demo-daily=$(DEMO_ZIP) --method correlativity --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench blocks --seeds 0,1,2 --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench perf --split holdout --limit 100 --site flink-blog \
		--replay-pages 100000 --out BENCHMARKS.md
	$(BIN)/scrapy-denoise bench crawl --site flink-blog --runs 3 --latency-ms 0,250 \
		--out BENCHMARKS.md

# The shipped models, rebuilt from the shared data (README, "Training on your own pages").
models: $(STAMP)
	$(BIN)/scrapy-denoise train blocks --data ../shared/data --dataset cleaneval \
		--dataset dragnet --dataset l3s-gn1 --dataset wcxb --out scrapy_denoise/models/blocks.json
	$(BIN)/scrapy-denoise train pages --data ../shared/data --out scrapy_denoise/models/pages.json

clean:
	rm -rf $(VENV) example_project/demo_site example_project/*.sqlite3*
