"""Crawl throughput: what the plugin costs a real Scrapy crawl, in pages per second.

``scrapy-denoise bench crawl`` serves a site of the shared data on 127.0.0.1 and crawls it
with the same generic spider twice per round: plain Scrapy (no add-on) and with the add-on
(page filter, extraction, SQLite store, a fresh database per run), alternating which goes
first, for several rounds. Each crawl runs in a child process of its own (Twisted's reactor
cannot be restarted) and reports its responses, its crawl time (Scrapy's
``elapsed_time_seconds``) and its CPU time. The table gives the median pages per second of
each mode, the ratio plugin / plain and the plugin's cost (1 - ratio).

Two network conditions, because the answer depends on them:

* ``loopback``: the server answers at once and the spider may keep 16 requests in flight,
  so the crawl is CPU-bound and the plugin's CPU per page shows in full (the worst case);
* ``latency N ms``: the server waits N ms before each response and the spider keeps at most
  8 requests in flight (the example project's setting for real sites), the condition of a
  polite crawl of a remote site, where Scrapy waits on the network most of the time.

With ``--profile`` (the default of the CLI) the plugin runs also report where the time went,
measured in the child: CPU seconds of the denoise worker thread per call kind (page filter,
extraction with its site learning, article writes, the final flush of learned state) and
wall seconds spent in database transactions by kind; and the reactor thread's CPU, which is
Scrapy itself (download handling, link extraction, scheduling).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["SITE_START_PATHS", "CrawlRun", "crawl_benchmark", "format_tables", "serve_site"]

#: start path of each shared site (shared/data/README.md)
SITE_START_PATHS: dict[str, str] = {"flink-blog": "/", "zjuvai-blog": "/blog/"}

#: settings of every benchmark crawl: loopback needs no politeness, and logging per page
#: would measure the terminal
_BASE_SETTINGS: dict[str, Any] = {
    "ROBOTSTXT_OBEY": False,
    "AUTOTHROTTLE_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "WARNING",
    "COOKIES_ENABLED": False,
    "CONCURRENT_REQUESTS": 16,
}
_PLUGIN_ADDONS = {"scrapy_denoise.integration.Addon": 0}


@dataclass(frozen=True, slots=True)
class Scenario:
    latency_ms: int
    concurrency: int

    @property
    def name(self) -> str:
        if not self.latency_ms:
            return f"loopback, {self.concurrency} in flight"
        return f"latency {self.latency_ms} ms, {self.concurrency} in flight"


def scenario(latency_ms: int) -> Scenario:
    """Loopback gets 16 requests in flight; a simulated remote site the example project's 8."""
    return Scenario(latency_ms, 16 if latency_ms == 0 else 8)


@dataclass
class CrawlRun:
    mode: str  # "plain" or "plugin"
    scenario: str
    pages: int
    seconds: float
    cpu_seconds: float
    reactor_cpu: float
    worker: dict[str, list[float]] = field(default_factory=dict)  # kind -> [cpu, wall, calls]
    database: dict[str, list[float]] = field(default_factory=dict)  # kind -> [wall, calls]
    stored: int = 0

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0


# -- the site server ----------------------------------------------------------------------


class _Handler(SimpleHTTPRequestHandler):
    delay = 0.0

    def do_GET(self) -> None:
        if self.delay:
            time.sleep(self.delay)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # crawlers drop connections at the end of a crawl


@contextlib.contextmanager
def serve_site(root: Path, latency_ms: int = 0) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (any free port), each response ``latency_ms`` late;
    yields the base URL."""
    handler = type("Handler", (_Handler,), {"delay": latency_ms / 1000})
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# -- one crawl, in a child process ---------------------------------------------------------


def _run_child(
    start_url: str, mode: str, scn: Scenario, workdir: Path, *, profile: bool
) -> CrawlRun:
    out = workdir / f"{mode}-{time.monotonic_ns()}.json"
    settings = {
        **_BASE_SETTINGS,
        "CONCURRENT_REQUESTS_PER_DOMAIN": scn.concurrency,
        "ADDONS": _PLUGIN_ADDONS if mode == "plugin" else {},
    }
    if mode == "plugin":
        settings["DENOISE_DATABASE_URL"] = f"sqlite:///{workdir / (out.stem + '.sqlite3')}"
    cmd = [
        sys.executable,
        "-m",
        "scrapy_denoise.evaluation.crawl_bench",
        "--child",
        start_url,
        str(out),
        json.dumps(settings),
    ]
    if profile and mode == "plugin":
        cmd.append("--profile")
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=workdir)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"benchmark crawl failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    return CrawlRun(mode=mode, scenario=scn.name, **data)


def _child(start_url: str, out: Path, settings: dict[str, Any], profile: bool) -> None:
    """Run one crawl and write its numbers to ``out`` (JSON)."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    worker: dict[str, list[float]] = {}
    database: dict[str, list[float]] = {}
    if profile:
        _instrument(worker, database)
    process = CrawlerProcess(Settings(settings))
    crawler = process.create_crawler(_bench_spider())
    cpu0, reactor0 = time.process_time(), time.thread_time()
    process.crawl(crawler, start_url=start_url)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    if stats.get("finish_reason") != "finished":
        raise RuntimeError(f"crawl ended with {stats.get('finish_reason')!r}")
    result = {
        "pages": int(stats.get("response_received_count", 0)),
        "seconds": float(stats.get("elapsed_time_seconds", 0.0)),
        "cpu_seconds": time.process_time() - cpu0,
        "reactor_cpu": time.thread_time() - reactor0,
        "worker": worker,
        "database": database,
        "stored": int(stats.get("denoise/store/inserted", 0)),
    }
    out.write_text(json.dumps(result), encoding="utf-8")


def _instrument(worker: dict[str, list[float]], database: dict[str, list[float]]) -> None:
    """Time the plugin's worker-thread calls and database transactions (child only)."""
    from ..integration.pipelines import StorePipeline
    from ..integration.runtime import DenoiseRuntime
    from ..store import Store

    def timed(kind: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.thread_time(), time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                entry = worker.setdefault(kind, [0.0, 0.0, 0])
                entry[0] += time.thread_time() - cpu
                entry[1] += time.perf_counter() - wall
                entry[2] += 1

        return wrapper

    setattr(DenoiseRuntime, "_classify_sync", timed("page filter", DenoiseRuntime._classify_sync))  # noqa: B010
    setattr(DenoiseRuntime, "_extract_sync", timed("extraction", DenoiseRuntime._extract_sync))  # noqa: B010
    setattr(DenoiseRuntime, "_close_sync", timed("final flush", DenoiseRuntime._close_sync))  # noqa: B010
    setattr(StorePipeline, "_write_sync", timed("article writes", StorePipeline._write_sync))  # noqa: B010
    run = Store._run

    @functools.wraps(run)
    def db_run(self: Store, work: Any, *, write: bool, what: str) -> Any:
        start = time.perf_counter()
        try:
            return run(self, work, write=write, what=what)
        finally:
            entry = database.setdefault(what, [0.0, 0])
            entry[0] += time.perf_counter() - start
            entry[1] += 1

    setattr(Store, "_run", db_run)  # noqa: B010


def _bench_spider() -> type:
    """The generic site spider of the example project (``news``): every in-scope link is
    followed and every HTML page yielded as a page item, in both modes."""
    from scrapy import Request, Spider
    from scrapy.http import HtmlResponse
    from scrapy.linkextractors import LinkExtractor

    from ..integration import page_item

    class BenchSpider(Spider):
        name = "bench"

        def __init__(self, start_url: str, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            parts = urlsplit(start_url)
            self.start_url = start_url
            self.allowed_domains = [parts.hostname or ""]
            self._netloc = parts.netloc
            path = parts.path or "/"
            self._prefix = path[: path.rfind("/") + 1] or "/"
            self._links = LinkExtractor(unique=True)

        async def start(self) -> Any:
            yield Request(self.start_url, callback=self.parse)

        def parse(self, response: Any, **kwargs: Any) -> Any:
            if not isinstance(response, HtmlResponse):
                return
            yield page_item(response)
            for link in self._links.extract_links(response):
                parts = urlsplit(link.url)
                if parts.netloc == self._netloc and (parts.path or "/").startswith(self._prefix):
                    yield response.follow(link.url, callback=self.parse)

    return BenchSpider


# -- the benchmark -------------------------------------------------------------------------


def crawl_benchmark(
    *,
    site: str = "flink-blog",
    runs: int = 3,
    latencies_ms: Sequence[int] = (0, 250),
    profile: bool = True,
    progress: Callable[[str], None] | None = None,
) -> tuple[str, list[CrawlRun]]:
    """Run every scenario ``runs`` rounds of (plain, plugin); returns (Markdown, runs)."""
    from .datasets import site_zip, www_tempdir

    archive = site_zip(site)
    start_path = SITE_START_PATHS.get(site, "/")
    results: list[CrawlRun] = []
    load_before = os.getloadavg()[0]
    with www_tempdir(archive) as root, tempfile.TemporaryDirectory(prefix="denoise-bench-") as tmp:
        for latency in latencies_ms:
            scn = scenario(latency)
            with serve_site(root, latency) as base_url:
                for round_ in range(runs):
                    order = ("plain", "plugin") if round_ % 2 == 0 else ("plugin", "plain")
                    for mode in order:
                        run = _run_child(
                            base_url + start_path, mode, scn, Path(tmp), profile=profile
                        )
                        results.append(run)
                        if progress is not None:
                            progress(
                                f"{scn.name}: {mode} run {round_ + 1}/{runs}: {run.pages} pages "
                                f"in {run.seconds:.1f} s = {run.pages_per_second:.1f} pages/s"
                            )
    load = (load_before, os.getloadavg()[0])
    return format_tables(site, results, load=load), results


def format_tables(
    site: str, results: Sequence[CrawlRun], *, load: tuple[float, float] | None = None
) -> str:
    """The throughput table, and the plugin's time breakdown when it was measured."""
    machine = f"{os.cpu_count()} CPUs"
    if load is not None:
        # the numbers move with whatever else the machine runs: say how busy it was
        machine += f", 1-minute load average {load[0]:.1f} at the start, {load[1]:.1f} at the end"
    lines = [
        f"Site `{site}` served on 127.0.0.1 ({machine}); pages/s = responses / Scrapy's "
        "`elapsed_time_seconds`, median of the runs (each run in brackets); CPU is the crawl "
        "process's, per response.",
        "",
        "| network | plain Scrapy pages/s | with scrapy-denoise pages/s | ratio | plugin cost "
        "| CPU ms/page plain | CPU ms/page plugin |",
        "|---|---|---|---|---|---|---|",
    ]
    scenarios = list(dict.fromkeys(r.scenario for r in results))
    for name in scenarios:
        plain = [r for r in results if r.scenario == name and r.mode == "plain"]
        plugin = [r for r in results if r.scenario == name and r.mode == "plugin"]
        p, q = _median_rate(plain), _median_rate(plugin)
        ratio = q / p if p else 0.0
        lines.append(
            f"| {name} | {_rates(plain)} | {_rates(plugin)} | {ratio:.2f} | {1 - ratio:.0%} "
            f"| {_cpu_per_page(plain):.1f} | {_cpu_per_page(plugin):.1f} |"
        )
    profiled = [r for r in results if r.mode == "plugin" and r.worker]
    if profiled:
        lines += ["", *_breakdown(profiled)]
    return "\n".join(lines)


def _median_rate(runs: Sequence[CrawlRun]) -> float:
    return statistics.median(r.pages_per_second for r in runs) if runs else 0.0


def _rates(runs: Sequence[CrawlRun]) -> str:
    each = ", ".join(f"{r.pages_per_second:.1f}" for r in runs)
    return f"{_median_rate(runs):.1f} ({each})"


def _cpu_per_page(runs: Sequence[CrawlRun]) -> float:
    return statistics.median(1000 * r.cpu_seconds / max(r.pages, 1) for r in runs) if runs else 0.0


def _breakdown(runs: Sequence[CrawlRun]) -> list[str]:
    """Where a plugin run's time goes, per response, summed over the profiled runs."""
    pages = sum(r.pages for r in runs)
    rows = [
        f"Where the plugin's time goes (all {len(runs)} plugin runs, {pages} responses; "
        "ms per response):",
        "",
        "| part | CPU ms/page | wall ms/page | calls |",
        "|---|---|---|---|",
    ]
    reactor = sum(r.reactor_cpu for r in runs)
    rows.append(f"| Scrapy (reactor thread CPU) | {1000 * reactor / pages:.1f} | | |")
    kinds = list(dict.fromkeys(k for r in runs for k in r.worker))
    total_cpu = 0.0
    for kind in kinds:
        cpu = sum(r.worker.get(kind, [0, 0, 0])[0] for r in runs)
        wall = sum(r.worker.get(kind, [0, 0, 0])[1] for r in runs)
        calls = int(sum(r.worker.get(kind, [0, 0, 0])[2] for r in runs))
        total_cpu += cpu
        rows.append(
            f"| worker thread: {kind} | {1000 * cpu / pages:.1f} | {1000 * wall / pages:.1f} "
            f"| {calls} |"
        )
    rows.append(f"| worker thread, all | {1000 * total_cpu / pages:.1f} | | |")
    for what in sorted({k for r in runs for k in r.database}):
        wall = sum(r.database.get(what, [0, 0])[0] for r in runs)
        calls = int(sum(r.database.get(what, [0, 0])[1] for r in runs))
        rows.append(f"| database `{what}` transactions | | {1000 * wall / pages:.2f} | {calls} |")
    return rows


# -- command line --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``--child START_URL OUT SETTINGS_JSON [--profile]``: one crawl (used by the benchmark)."""
    parser = argparse.ArgumentParser(prog="python -m scrapy_denoise.evaluation.crawl_bench")
    parser.add_argument("--child", nargs=3, metavar=("START_URL", "OUT", "SETTINGS_JSON"))
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--site", default="flink-blog")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    if args.child:
        start_url, out, settings = args.child
        _child(start_url, Path(out), json.loads(settings), args.profile)
        return 0
    table, _ = crawl_benchmark(site=args.site, runs=args.runs, progress=print)
    print(table)
    return 0


if __name__ == "__main__":
    os.environ.pop("SCRAPY_SETTINGS_MODULE", None)  # the child's settings are all explicit
    sys.exit(main())
