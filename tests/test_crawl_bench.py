"""The crawl benchmark's table arithmetic (the crawls themselves run in ``bench crawl``)."""

from __future__ import annotations

from scrapy_denoise.evaluation.crawl_bench import CrawlRun, format_tables, scenario


def _run(
    mode: str, pages: int, seconds: float, cpu: float, server: float, kind: str = ""
) -> CrawlRun:
    return CrawlRun(
        mode=mode,
        worker_kind=kind,
        scenario=scenario(0).name,
        pages=pages,
        seconds=seconds,
        cpu_seconds=cpu,
        reactor_cpu=cpu,
        server_cpu=server,
        # the core's CPU per operation, as the crawl's stats give it
        worker={"classify": [0.2, 100], "extract": [0.3, 90]} if mode == "plugin" else {},
    )


def _cells(table: str, kind: str) -> list[str]:
    row = next(
        line
        for line in table.splitlines()
        if line.startswith(f"| loopback, 16 in flight | {kind} |")
    )
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_format_tables_gives_median_rates_ratio_and_cpu_per_page() -> None:
    runs = [
        _run("plain", 100, 1.0, 1.0, 0.2),  # 100 pages/s
        _run("plain", 100, 2.0, 1.2, 0.2),  # 50 pages/s
        _run("plain", 100, 1.25, 1.1, 0.2),  # 80 pages/s: the median
        _run("plugin", 100, 2.5, 2.0, 0.3, "thread"),  # 40 pages/s
        _run("plugin", 100, 1.6, 1.5, 0.2, "process"),  # 62.5 pages/s
    ]
    table = format_tables("flink-blog", runs)
    thread = _cells(table, "thread")
    assert thread[2] == "80.0 (100.0, 50.0, 80.0)"
    assert thread[3] == "40.0 (40.0)"
    assert thread[4:6] == ["0.50", "50%"]
    # CPU per page: median of the plain runs' 10, 12, 11 ms; the thread's core is inside
    # the crawl's 20 ms already
    assert thread[6:8] == ["11.0", "20.0"]
    # server CPU per page over the plain runs and this one: 2, 2, 2, 3 ms -> median 2
    assert thread[8] == "2.0"
    process = _cells(table, "process")
    assert process[3:6] == ["62.5 (62.5)", "0.78", "22%"]
    # the core's own process adds its 0.5 s to the crawl's 1.5 s: 20 ms per page
    assert process[7] == "20.0"
    assert "| core: page filter | 2.0 | 100 |" in table
    assert "| core, all | 5.0 | |" in table
