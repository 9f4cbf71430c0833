"""Run one real crawl of the example project's ``news`` spider and write what happened.

The end-to-end tests start this script in a subprocess (Twisted's reactor cannot be
restarted inside the pytest process): ``python tests/crawl_runner.py START_URL OUT.json
[--set NAME=JSON ...]``. The output holds the crawl's stats and every response the engine
received (final URL after redirects, status), which the tests need to know which pages the
crawl reached, with or without the plugin.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"


class _Responses:
    """Collects ``response_received``; a bound method of a live object, since signal
    receivers are held by weak reference."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []

    def received(self, response: Any, request: Any, spider: Any) -> None:
        self.seen.append((response.url, response.status))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("start_url")
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=JSON")
    args = parser.parse_args(argv)

    os.chdir(EXAMPLE)
    sys.path.insert(0, str(EXAMPLE))
    os.environ["SCRAPY_SETTINGS_MODULE"] = "news.settings"
    from news.spiders.news import NewsSpider
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    for item in args.set:
        name, _, raw = item.partition("=")
        settings.set(name, json.loads(raw), priority="cmdline")
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    responses = _Responses()
    crawler.signals.connect(responses.received, signal=signals.response_received)
    started = time.monotonic()
    process.crawl(crawler, start_url=args.start_url)
    process.start()
    assert crawler.stats is not None
    result = {
        "seconds": time.monotonic() - started,
        "stats": crawler.stats.get_stats(),
        "responses": responses.seen,
    }
    args.out.write_text(json.dumps(result, default=str, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
