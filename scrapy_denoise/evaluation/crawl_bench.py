"""Crawl throughput: what the plugin costs a real Scrapy crawl, in pages per second.

``scrapy-denoise bench crawl`` serves a site of the shared data on 127.0.0.1 and crawls it
with the same generic spider once per mode and round: plain Scrapy (no add-on), and with
the add-on (page filter, extraction, SQLite store, a fresh database per run) for each core
worker asked for (``DENOISE_CORE_WORKER``: ``process``, the default, and ``thread``), rotating
which goes first, for several rounds. Each crawl runs in a child process of its own
(Twisted's reactor cannot be restarted) and reports its responses, its crawl time (Scrapy's
``elapsed_time_seconds``) and its CPU time (with the process worker, the core's own process
is counted too, from the crawl's ``denoise/core/cpu_us/*`` stats). The table gives the
median pages per second of each mode, the ratio plugin / plain and the plugin's cost
(1 - ratio).

Network conditions, because the answer depends on them:

* ``loopback``: the server answers at once and the spider may keep 16 requests in flight,
  so the crawl is CPU-bound and the plugin's CPU per page shows in full (the worst case);
* ``latency N ms``: the server waits N ms before each response and the spider keeps at most
  8 requests in flight (the example project's setting for real sites), the condition of a
  polite crawl of a remote site, where Scrapy waits on the network most of the time.

The plugin runs also report where the time went: the reactor thread's CPU (Scrapy itself:
download handling, link extraction, scheduling, and the plugin's components) and the core
worker's CPU per operation (page filter, extraction with its site learning, article
writes, the final flush), read from the crawl's stats.
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


#: core workers of the plugin runs, by default both
WORKERS: tuple[str, ...] = ("process", "thread")
#: what each core operation is called in the breakdown
_OPERATIONS = {
    "classify": "page filter",
    "extract": "extraction",
    "write_articles": "article writes",
    "close": "final flush",
}


@dataclass
class CrawlRun:
    mode: str  # "plain", or "plugin" with the core worker in ``worker_kind``
    scenario: str
    pages: int
    seconds: float
    cpu_seconds: float
    reactor_cpu: float
    #: core operation -> [CPU seconds, calls], from the crawl's stats
    worker: dict[str, list[float]] = field(default_factory=dict)
    stored: int = 0
    worker_kind: str = ""
    #: CPU seconds of the site server (this benchmark's own process) during the crawl
    server_cpu: float = 0.0

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def label(self) -> str:
        return f"{self.mode} ({self.worker_kind})" if self.worker_kind else self.mode

    @property
    def core_cpu(self) -> float:
        """CPU seconds of the core's worker (in the crawl's process or its own)."""
        return sum(cpu for cpu, _ in self.worker.values())

    @property
    def total_cpu(self) -> float:
        """CPU seconds of the crawl: its process, plus the core's process if it had one."""
        return self.cpu_seconds + (self.core_cpu if self.worker_kind == "process" else 0.0)


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


def _run_child(start_url: str, mode: str, scn: Scenario, workdir: Path) -> CrawlRun:
    """One crawl; ``mode`` is ``plain`` or ``plugin:<worker>``."""
    out = workdir / f"{mode.replace(':', '-')}-{time.monotonic_ns()}.json"
    plugin, _, worker_kind = mode.partition(":")
    settings = {
        **_BASE_SETTINGS,
        "CONCURRENT_REQUESTS_PER_DOMAIN": scn.concurrency,
        "ADDONS": _PLUGIN_ADDONS if plugin == "plugin" else {},
    }
    if plugin == "plugin":
        settings["DENOISE_DATABASE_URL"] = f"sqlite:///{workdir / (out.stem + '.sqlite3')}"
        settings["DENOISE_CORE_WORKER"] = worker_kind
    cmd = [
        sys.executable,
        "-m",
        "scrapy_denoise.evaluation.crawl_bench",
        "--child",
        start_url,
        str(out),
        json.dumps(settings),
    ]
    # The server runs in this process, which does nothing else while the child crawls:
    # its CPU over the run is the server's, which shares the machine with the crawl.
    server0 = time.process_time()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=workdir)
    server_cpu = time.process_time() - server0
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"benchmark crawl failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    return CrawlRun(
        mode=plugin, worker_kind=worker_kind, scenario=scn.name, server_cpu=server_cpu, **data
    )


def _child(start_url: str, out: Path, settings: dict[str, Any]) -> None:
    """Run one crawl and write its numbers to ``out`` (JSON)."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    process = CrawlerProcess(Settings(settings))
    crawler = process.create_crawler(_bench_spider())
    cpu0, reactor0 = time.process_time(), time.thread_time()
    process.crawl(crawler, start_url=start_url)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    if stats.get("finish_reason") != "finished":
        raise RuntimeError(f"crawl ended with {stats.get('finish_reason')!r}")
    worker: dict[str, list[float]] = {}
    for key, value in stats.items():
        if key.startswith("denoise/core/cpu_us/"):
            op = key.removeprefix("denoise/core/cpu_us/")
            calls = stats.get(f"denoise/core/calls/{op}", 0)
            worker[op] = [value / 1e6, calls]
    result = {
        "pages": int(stats.get("response_received_count", 0)),
        "seconds": float(stats.get("elapsed_time_seconds", 0.0)),
        "cpu_seconds": time.process_time() - cpu0,
        "reactor_cpu": time.thread_time() - reactor0,
        "worker": worker,
        "stored": int(stats.get("denoise/store/inserted", 0)),
    }
    out.write_text(json.dumps(result), encoding="utf-8")


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
    workers: Sequence[str] = WORKERS,
    progress: Callable[[str], None] | None = None,
) -> tuple[str, list[CrawlRun]]:
    """Run every scenario ``runs`` rounds of (plain, plugin per worker); returns
    (Markdown, runs)."""
    from .datasets import site_zip, www_tempdir

    archive = site_zip(site)
    start_path = SITE_START_PATHS.get(site, "/")
    modes = ["plain", *(f"plugin:{kind}" for kind in workers)]
    results: list[CrawlRun] = []
    load_before = os.getloadavg()[0]
    with www_tempdir(archive) as root, tempfile.TemporaryDirectory(prefix="denoise-bench-") as tmp:
        for latency in latencies_ms:
            scn = scenario(latency)
            with serve_site(root, latency) as base_url:
                for round_ in range(runs):
                    shift = round_ % len(modes)  # each mode goes first in turn
                    for mode in modes[shift:] + modes[:shift]:
                        run = _run_child(base_url + start_path, mode, scn, Path(tmp))
                        results.append(run)
                        if progress is not None:
                            progress(
                                f"{scn.name}: {run.label} run {round_ + 1}/{runs}: {run.pages} "
                                f"pages in {run.seconds:.1f} s = {run.pages_per_second:.1f} "
                                "pages/s"
                            )
    load = (load_before, os.getloadavg()[0])
    return format_tables(site, results, load=load), results


def format_tables(
    site: str, results: Sequence[CrawlRun], *, load: tuple[float, float] | None = None
) -> str:
    """The throughput table (one row per network condition and core worker), and where the
    plugin's time went."""
    machine = f"{os.cpu_count()} CPUs"
    if load is not None:
        # the numbers move with whatever else the machine runs: say how busy it was
        machine += f", 1-minute load average {load[0]:.1f} at the start, {load[1]:.1f} at the end"
    lines = [
        f"Site `{site}` served on 127.0.0.1 ({machine}); pages/s = responses / Scrapy's "
        "`elapsed_time_seconds`, median of the runs (each run in brackets); CPU is the "
        "crawl's per response (its process, and the core's process with `DENOISE_CORE_WORKER = "
        '"process"`); the server (a Python HTTP server in the benchmark\'s own process) '
        "shares the same CPUs.",
        "",
        "| network | core worker | plain Scrapy pages/s | with scrapy-denoise pages/s | ratio "
        "| plugin cost | CPU ms/page plain | CPU ms/page plugin | server CPU ms/page |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    scenarios = list(dict.fromkeys(r.scenario for r in results))
    kinds = list(dict.fromkeys(r.worker_kind for r in results if r.mode == "plugin"))
    for name in scenarios:
        plain = [r for r in results if r.scenario == name and r.mode == "plain"]
        for kind in kinds:
            plugin = [
                r
                for r in results
                if r.scenario == name and r.mode == "plugin" and r.worker_kind == kind
            ]
            p, q = _median_rate(plain), _median_rate(plugin)
            ratio = q / p if p else 0.0
            lines.append(
                f"| {name} | {kind} | {_rates(plain)} | {_rates(plugin)} | {ratio:.2f} "
                f"| {1 - ratio:.0%} | {_cpu_per_page(plain):.1f} | {_cpu_per_page(plugin):.1f} "
                f"| {_server_cpu_per_page([*plain, *plugin]):.1f} |"
            )
    for kind in kinds:
        profiled = [r for r in results if r.mode == "plugin" and r.worker_kind == kind]
        if any(r.worker for r in profiled):
            lines += ["", *_breakdown(kind, profiled)]
    return "\n".join(lines)


def _median_rate(runs: Sequence[CrawlRun]) -> float:
    return statistics.median(r.pages_per_second for r in runs) if runs else 0.0


def _rates(runs: Sequence[CrawlRun]) -> str:
    each = ", ".join(f"{r.pages_per_second:.1f}" for r in runs)
    return f"{_median_rate(runs):.1f} ({each})"


def _cpu_per_page(runs: Sequence[CrawlRun]) -> float:
    return statistics.median(1000 * r.total_cpu / max(r.pages, 1) for r in runs) if runs else 0.0


def _server_cpu_per_page(runs: Sequence[CrawlRun]) -> float:
    return statistics.median(1000 * r.server_cpu / max(r.pages, 1) for r in runs) if runs else 0.0


def _breakdown(kind: str, runs: Sequence[CrawlRun]) -> list[str]:
    """Where the plugin's CPU goes, per response, summed over the runs of one worker."""
    pages = sum(r.pages for r in runs)
    where = "its own process" if kind == "process" else "a thread of the crawl's process"
    rows = [
        f"Where the plugin's CPU goes with the core in {where} (all {len(runs)} runs, "
        f"{pages} responses; ms per response):",
        "",
        "| part | CPU ms/page | calls |",
        "|---|---|---|",
    ]
    reactor = sum(r.reactor_cpu for r in runs)
    rows.append(
        f"| Scrapy and the plugin's components (reactor thread) | {1000 * reactor / pages:.1f} | |"
    )
    ops = list(dict.fromkeys(op for r in runs for op in r.worker))
    ops.sort(key=lambda op: list(_OPERATIONS).index(op) if op in _OPERATIONS else len(_OPERATIONS))
    total = 0.0
    for op in ops:
        cpu = sum(r.worker.get(op, [0.0, 0])[0] for r in runs)
        calls = int(sum(r.worker.get(op, [0.0, 0])[1] for r in runs))
        total += cpu
        rows.append(f"| core: {_OPERATIONS.get(op, op)} | {1000 * cpu / pages:.1f} | {calls} |")
    rows.append(f"| core, all | {1000 * total / pages:.1f} | |")
    return rows


# -- command line --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``--child START_URL OUT SETTINGS_JSON``: one crawl (used by the benchmark)."""
    parser = argparse.ArgumentParser(prog="python -m scrapy_denoise.evaluation.crawl_bench")
    parser.add_argument("--child", nargs=3, metavar=("START_URL", "OUT", "SETTINGS_JSON"))
    parser.add_argument("--site", default="flink-blog")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    if args.child:
        start_url, out, settings = args.child
        _child(start_url, Path(out), json.loads(settings))
        return 0
    table, _ = crawl_benchmark(site=args.site, runs=args.runs, progress=print)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
