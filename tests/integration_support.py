"""Helpers of the end-to-end crawl tests: run a crawl, read the database, score the result.

Scores are the ones the README reports for crawls: the share of stored rows that are true
articles (precision), the share of reachable articles that were stored (recall), and the
shingle-metric text F1 of the stored articles against their ground truth.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_project"
RUNNER = Path(__file__).resolve().parent / "crawl_runner.py"

if str(EXAMPLE) not in sys.path:
    sys.path.insert(0, str(EXAMPLE))

from demo import StoredArticle, read_articles  # noqa: E402
from demosite.serve import serve  # noqa: E402

from scrapy_denoise.document import text_chars  # noqa: E402
from scrapy_denoise.evaluation.metrics import (  # noqa: E402
    Aggregate,
    LcsAggregate,
    lcs_prf,
    page_counts,
)

__all__ = [
    "CrawlRun",
    "Scores",
    "StoredArticle",
    "TruthPage",
    "read_articles",
    "run_crawl",
    "score",
    "serve",
    "url_path",
]

#: Settings of every test crawl: a loopback server needs no politeness.
FAST = {
    "ROBOTSTXT_OBEY": False,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
    "LOGSTATS_INTERVAL": 15.0,
}


def url_path(url: str) -> str:
    """How the ground truth keys pages: the percent-decoded URL path."""
    return unquote(urlsplit(url).path)


@dataclass
class CrawlRun:
    stats: dict[str, Any]
    responses: list[tuple[str, int]]
    seconds: float
    log: str

    def check_finished(self) -> None:
        """The crawl ran to its end without a plugin error; else fail with the log's errors."""
        errors = {k: v for k, v in self.stats.items() if k.startswith("denoise/errors/")}
        if self.stats.get("finish_reason") != "finished" or errors:
            problems = [line for line in self.log.splitlines() if "ERROR" in line]
            raise AssertionError(
                f"crawl finished with {self.stats.get('finish_reason')!r}, errors {errors}:\n"
                + "\n".join(problems[:20])
            )

    def html_paths(self) -> set[str]:
        """Paths of the pages the crawl received with status 200."""
        return {url_path(url) for url, status in self.responses if status == 200}


def run_crawl(
    start_url: str,
    out_dir: Path,
    settings: Mapping[str, Any],
    *,
    timeout: float = 600,
) -> CrawlRun:
    """One real crawl with the news spider, in a subprocess; fails with its log on error."""
    out = out_dir / f"crawl-{uuid.uuid4().hex[:8]}.json"
    cmd = [sys.executable, str(RUNNER), start_url, str(out)]
    for name, value in {**FAST, **settings}.items():
        cmd += ["--set", f"{name}={json.dumps(value)}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(EXAMPLE)])}
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, env=env, check=False
    )
    if proc.returncode != 0 or not out.exists():
        raise AssertionError(f"crawl failed ({proc.returncode}):\n{proc.stderr[-6000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    return CrawlRun(
        stats=data["stats"],
        responses=[(u, int(s)) for u, s in data["responses"]],
        seconds=float(data["seconds"]),
        log=proc.stderr,
    )


@dataclass(frozen=True, slots=True)
class TruthPage:
    kind: str
    text: str | None = None
    lang: str | None = None


@dataclass
class Scores:
    stored: int = 0
    stored_articles: int = 0
    reachable_articles: int = 0
    reachable_stored: int = 0
    #: reachable articles whose truth is long enough to pass ``DENOISE_MIN_TEXT_CHARS``
    storable_articles: int = 0
    storable_stored: int = 0
    all_articles: int = 0
    text: Aggregate = field(default_factory=Aggregate)
    lcs: LcsAggregate = field(default_factory=LcsAggregate)
    false_positives: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.stored_articles / self.stored if self.stored else 0.0

    @property
    def recall(self) -> float:
        return self.reachable_stored / self.reachable_articles if self.reachable_articles else 0.0

    @property
    def recall_storable(self) -> float:
        return self.storable_stored / self.storable_articles if self.storable_articles else 0.0

    def summary(self, name: str) -> str:
        f1 = self.text.f1
        lcs = self.lcs.f1
        return (
            f"{name}: stored {self.stored} rows, {self.stored_articles} true articles "
            f"(precision {self.precision:.3f}); reachable articles {self.reachable_articles} "
            f"of {self.all_articles}, stored {self.reachable_stored} "
            f"(recall {self.recall:.3f}; {self.storable_stored}/{self.storable_articles} = "
            f"{self.recall_storable:.3f} of those with >= min-text truth); text F1 "
            f"{'n/a' if f1 is None else f'{f1:.3f}'} (P {self.text.precision or 0:.3f} "
            f"R {self.text.recall or 0:.3f}), LCS F1 {'n/a' if lcs is None else f'{lcs:.3f}'}"
        )


def score(
    articles: list[StoredArticle],
    truth: Mapping[str, TruthPage],
    reached: set[str],
    *,
    min_text_chars: int = 100,
) -> Scores:
    """Compare stored rows with the ground truth, keyed by URL path."""
    scores = Scores(stored=len(articles))
    stored_paths = set()
    for article in articles:
        path = url_path(article.url)
        stored_paths.add(path)
        page = truth.get(path)
        if page is None or page.kind != "article":
            scores.false_positives.append(path)
            continue
        scores.stored_articles += 1
        scores.text.add(page_counts(page.text, article.text))
        scores.lcs.add(lcs_prf(page.text, article.text))
    for path, page in truth.items():
        if page.kind != "article":
            continue
        scores.all_articles += 1
        if path not in reached:
            continue
        scores.reachable_articles += 1
        stored = path in stored_paths
        scores.reachable_stored += stored
        if text_chars(page.text) >= min_text_chars:
            scores.storable_articles += 1
            scores.storable_stored += stored
    return scores
