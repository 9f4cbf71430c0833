"""The core's workers (``scrapy_denoise.worker``): a child process or a thread running
:class:`CoreHost` operations in order, without Scrapy."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import types
from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from scrapy_denoise import worker as worker_module
from scrapy_denoise.options import DenoiseOptions
from scrapy_denoise.page.rules import PageHistory
from scrapy_denoise.store import ArticleRecord
from scrapy_denoise.worker import (
    CoreProcessDied,
    DenoiseUnavailable,
    ProcessWorker,
    ThreadWorker,
    Worker,
    make_worker,
)

PAGE = (
    b"<html><head><title>Storm closes the harbour</title></head><body>"
    b"<nav><a href='/'>Home</a> <a href='/world/'>World</a></nav><article>"
    b"<h1>Storm closes the harbour</h1>"
    + b"".join(
        b"<p>The storm closed the harbour for a third day, and ferries stayed in port while "
        b"crews inspected the sea wall that the waves had damaged on Tuesday night.</p>"
        for _ in range(4)
    )
    + b"</article><footer>Copyright 2024 Daily</footer></body></html>"
)
URL = "https://news.example/2024/05/06/storm.html"


@pytest.fixture(params=["process", "thread"])
def worker(request: pytest.FixtureRequest) -> Iterator[Worker]:
    made = make_worker(request.param)
    yield made
    made.shutdown()


def test_worker_classifies_extracts_and_writes_in_order(worker: Worker, tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'core.sqlite3'}"
    worker.submit("open", db_url, DenoiseOptions())
    classified = worker.submit("classify", PAGE, URL, None, True, url=URL).result(60)
    verdict, warnings, withdrawn = classified.value
    assert not verdict.is_noise and warnings == () and not withdrawn
    outcome = worker.submit("extract", PAGE, URL, None, verdict).result(60)
    article, relearn_skipped = outcome.value
    assert "inspected the sea wall" in article.text and not relearn_skipped
    assert outcome.cpu_seconds > 0
    record = ArticleRecord(url=URL, site="", text=article.text, title=article.title)
    counts = worker.submit("write_articles", [record]).result(60).value
    assert counts.inserted == 1
    worker.submit("close").result(60)


def test_a_redelivered_link_with_a_fragment_is_known_learned(
    worker: Worker, tmp_path: Path
) -> None:
    """A crawler died holding ``storm.html#comments``; Scrapy fetches it without the
    fragment, and the core looked up ``storm.html`` among URLs noted with one: the page its
    learning had already committed was learned again (visits 2 in page_fingerprints)."""
    db_url = f"sqlite:///{tmp_path / 'core.sqlite3'}"
    worker.submit("open", db_url, DenoiseOptions())
    verdict, *_ = worker.submit("classify", PAGE, URL, None, True, url=URL).result(60).value
    worker.submit("extract", PAGE, URL, None, verdict).result(60)
    worker.submit("flush").result(60)  # the dead crawler's learning reached the database
    worker.submit("note_redelivered", URL + "#comments").result(60)
    verdict, *_ = worker.submit("classify", PAGE, URL, None, True, url=URL).result(60).value
    _, relearn_skipped = worker.submit("extract", PAGE, URL, None, verdict).result(60).value
    assert relearn_skipped
    worker.submit("close").result(60)


def test_open_failure_crosses_with_its_reason(worker: Worker) -> None:
    future = worker.submit("open", "postgresql+psycopg://u:pw@127.0.0.1:1/none", DenoiseOptions())
    with pytest.raises(DenoiseUnavailable) as info:
        future.result(60)
    assert info.value.reason == "denoise_database_unavailable"
    assert "pw" not in str(info.value)


@pytest.mark.parametrize(
    "options",
    [
        DenoiseOptions(page_model="/nowhere/pages.json"),
        DenoiseOptions(method_params={"block_ensemble": {"model_path": "/nowhere/blocks.json"}}),
    ],
)
def test_a_missing_model_file_fails_the_open_not_every_page(
    worker: Worker, options: DenoiseOptions
) -> None:
    with pytest.raises(DenoiseUnavailable) as info:
        worker.submit("open", None, options).result(60)
    assert info.value.reason == "denoise_setup_failed"
    assert "/nowhere/" in str(info.value)


def test_a_failing_call_leaves_the_worker_usable(worker: Worker) -> None:
    with pytest.raises(RuntimeError, match="not open"):
        worker.submit("classify", PAGE, URL, None, True).result(60)
    pid, _ = worker.submit("identity").result(60).value
    assert (pid == os.getpid()) == isinstance(worker, ThreadWorker)


def test_dead_process_fails_pending_calls_and_says_so() -> None:
    worker = ProcessWorker()
    try:
        worker.submit("identity").result(60)
        os.kill(worker.pid, 9)
        with pytest.raises(CoreProcessDied, match="exited with code -9"):
            worker.submit("identity").result(60)
        assert not worker.alive
    finally:
        worker.shutdown()


class _Zone(tzinfo):
    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(hours=2)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)


def test_arguments_the_core_process_cannot_read_fail_their_own_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unpickled with its call's envelope, a value the child cannot import killed the
    child's reader thread: that call, every later one and the crawl's close waited for
    ever, the child still alive."""
    # a time zone of a module only this process has, as a crawl script's own class in its
    # __main__ is
    module = types.ModuleType("denoise_parent_only")
    zone = type("Zone", (_Zone,), {"__module__": module.__name__})
    module.Zone = zone  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    worker = ProcessWorker()
    try:
        published = datetime(2024, 1, 2, tzinfo=zone())
        with pytest.raises(RuntimeError, match="cannot read the arguments of 'note_redelivered'"):
            worker.submit("note_redelivered", published).result(20)
        pid, _ = worker.submit("identity").result(20).value
        assert worker.alive and pid == worker.pid
    finally:
        worker.shutdown()


def _visits(history: PageHistory | None) -> int:
    return 0 if history is None else history.visits


def test_a_redelivered_noise_page_is_forgotten_once_classified(tmp_path: Path) -> None:
    """A noise page is never extracted, so its classification is the redelivered URL's last
    use: kept, it made a later ordinary fetch of the page skip its counting too."""
    worker = ThreadWorker()
    tag = "https://news.example/tag/storm/"
    worker.submit("open", f"sqlite:///{tmp_path / 'core.sqlite3'}", DenoiseOptions()).result(60)
    try:
        verdict, *_ = worker.submit("classify", PAGE, tag, None, True, url=tag).result(60).value
        assert verdict.is_noise
        worker.submit("flush").result(60)  # the dead crawler's learning reached the database
        worker.submit("note_redelivered", tag).result(60)
        worker.submit("classify", PAGE, tag, None, True, url=tag).result(60)  # not counted
        learner = worker.host.denoiser.learner if worker.host.denoiser else None
        assert learner is not None
        assert _visits(learner.page_history(tag)) == 1
        worker.submit("classify", PAGE, tag, None, True, url=tag).result(60)  # a later fetch
        assert _visits(learner.page_history(tag)) == 2
    finally:
        worker.submit("close").result(60)
        worker.shutdown()


def test_withdraw_noise_pages_deletes_the_rows_of_the_site_pages_let_through(
    worker: Worker, tmp_path: Path
) -> None:
    """The crawl's last look (``Denoiser.noise_pages_passed``) through either worker: an about
    page classified before the site's dated stories passed and was stored; its row goes."""
    site = "https://town.example"
    prose = "<p>The council met on Tuesday to discuss the budget for the coming year.</p>" * 6
    about = f"<html><body><nav><a href='/'>Home</a></nav><h1>History</h1>{prose}</body></html>"

    def story(n: int) -> str:
        return (
            f"<html><body><nav><a href='/history'>History</a></nav><article><h1>Story {n}</h1>"
            f"<time datetime='2024-05-0{n}T10:00:00Z'>May {n}</time>{prose}</article></body></html>"
        )

    options = DenoiseOptions(page_model=None)  # the rules alone judge these small pages
    worker.submit("open", f"sqlite:///{tmp_path / 'core.sqlite3'}", options).result(60)
    try:
        pages = [(f"{site}/stories/1", story(1)), (f"{site}/history", about)]
        pages += [(f"{site}/stories/{n}", story(n)) for n in range(2, 5)]
        records = []
        for url, html in pages:
            verdict, *_ = worker.submit("classify", html.encode(), url, None, True).result(60).value
            assert not verdict.is_noise, url
            article, _ = (
                worker.submit("extract", html.encode(), url, None, verdict).result(60).value
            )
            records.append(ArticleRecord(url=url, site="", text=article.text, title=article.title))
        assert worker.submit("write_articles", records).result(60).value.inserted == 5
        assert worker.submit("withdraw_noise_pages").result(60).value == [
            (f"{site}/history", "navigation_page")
        ]
        assert worker.submit("withdraw_noise_pages").result(60).value == []  # gone already
    finally:
        worker.submit("close").result(60)


def test_withdraw_noise_pages_without_a_database_deletes_nothing() -> None:
    worker = ThreadWorker()
    try:
        worker.submit("open", None, DenoiseOptions()).result(60)
        assert worker.submit("withdraw_noise_pages").result(60).value == []
    finally:
        worker.submit("close").result(60)
        worker.shutdown()


def test_process_worker_starts_from_a_script_without_a_main_guard(tmp_path: Path) -> None:
    # multiprocessing's spawn re-imports the parent's __main__: a crawl run from a plain
    # script (Scrapy's "run from a script" recipe) would start over in the child
    runs = tmp_path / "runs.txt"
    script = tmp_path / "crawl_script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from pathlib import Path
            from scrapy_denoise.worker import ProcessWorker

            runs = Path({str(runs)!r})
            runs.write_text(runs.read_text() + "x" if runs.exists() else "x")
            worker = ProcessWorker()
            print(worker.submit("identity").result(60).value[0])
            worker.shutdown()
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert runs.read_text() == "x"  # the script ran once
    assert int(done.stdout.strip()) > 0


def test_unknown_worker_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="'process' or 'thread'"):
        make_worker("fiber")


def test_core_process_exits_when_its_parent_is_killed(tmp_path: Path) -> None:
    # a crawler killed with SIGKILL cannot stop its core: the core must notice and go,
    # rather than live on holding a database connection
    script = tmp_path / "parent.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, sys
            from scrapy_denoise.worker import ProcessWorker

            worker = ProcessWorker()
            worker.submit("identity").result(60)
            print(worker.pid, flush=True)
            os.kill(os.getpid(), 9)
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == -9, done.stderr
    child = int(done.stdout.strip())
    deadline = time.monotonic() + 30
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(child)


def test_core_process_killed_with_its_parent_does_not_finish_the_running_call(
    tmp_path: Path,
) -> None:
    # A crawler killed during its core's flush: had the flush gone on to commit, it could
    # land after the crawler's unfinished requests were redelivered to another crawler,
    # whose "already learned?" check would miss it and count the page twice (a distributed
    # fault test once saw a page fingerprinted twice). The core must die with the call.
    started, finished = tmp_path / "started", tmp_path / "finished"
    child_code = textwrap.dedent(
        f"""
        import pathlib, sys, time
        from scrapy_denoise import worker

        def slow_flush(self):
            pathlib.Path({str(started)!r}).touch()
            time.sleep(5)
            pathlib.Path({str(finished)!r}).touch()

        worker.CoreHost.flush = slow_flush
        sys.exit(worker.main(sys.argv[1:]))
        """
    )
    parent, child = socket.socketpair()
    proc = subprocess.Popen(
        [sys.executable, "-c", child_code, str(child.fileno()), "30"], pass_fds=(child.fileno(),)
    )
    child.close()
    conn = Connection(parent.detach())
    try:
        conn.send_bytes(worker_module._pack(0, "flush", (), None))
        deadline = time.monotonic() + 60
        while not started.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the flush never started"
            time.sleep(0.02)
        conn.close()  # what the kernel does to a SIGKILLed crawler's end
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 3
    time.sleep(0.5)  # nothing of the call runs on (a thread of it would finish by now)
    assert not finished.exists()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not reaped by its dead parent's init yet) counts as gone
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_core_process_leaves_ctrl_c_and_sigterm_to_its_crawler() -> None:
    # Ctrl-C reaches the whole process group; the crawler's graceful shutdown that follows
    # still needs the core to write its last batch
    worker = ProcessWorker()
    try:
        worker.submit("identity").result(60)
        os.kill(worker.pid, signal.SIGINT)
        os.kill(worker.pid, signal.SIGTERM)
        pid, _ = worker.submit("identity").result(60).value
        assert pid == worker.pid and worker.alive
    finally:
        worker.shutdown()


def test_process_worker_reads_its_answers_on_the_event_loop() -> None:
    # the crawl's asyncio reactor reads the answers itself: no receiver thread
    async def main() -> None:
        worker = ProcessWorker(asyncio.get_running_loop())
        try:
            assert worker._receiver is None
            outcome = await asyncio.wrap_future(worker.submit("identity"))
            assert outcome.value[0] == worker.pid
            os.kill(worker.pid, 9)
            with pytest.raises(CoreProcessDied):
                await asyncio.wait_for(asyncio.wrap_future(worker.submit("identity")), 60)
            assert not worker.alive
        finally:
            worker.shutdown()

    asyncio.run(main())


def test_process_worker_outlives_the_event_loop_that_read_its_answers() -> None:
    async def first(worker_box: list[ProcessWorker]) -> None:
        worker_box.append(ProcessWorker(asyncio.get_running_loop()))
        await asyncio.wrap_future(worker_box[0].submit("identity"))

    box: list[ProcessWorker] = []
    asyncio.run(first(box))  # that loop is closed now
    worker = box[0]
    try:
        pid, _ = worker.submit("identity").result(60).value  # read on a thread instead
        assert pid == worker.pid
    finally:
        worker.shutdown()


@pytest.mark.parametrize(
    ("reason", "withdraw", "gone"),
    [
        ("navigation_page", True, True),
        ("navigation_page", False, False),  # DENOISE_STORE_WITHDRAW = False
        ("site_page", True, True),  # stored before the URL rule named such pages
        ("url_pattern", True, False),  # the user's patterns: another spider's may differ
        ("changing_content", True, False),  # an edited article is held back, not deleted
        ("little_text", True, False),  # a story unpublished into "not found" keeps its row
    ],
)
def test_a_stored_article_now_judged_a_site_page_is_deleted(
    reason: str, withdraw: bool, gone: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A site's first crawl stores the site pages it meets before the ``navigation_page``
    rule can judge them, and earlier versions stored pages the ``site_page`` rule now
    names; a later visit that judges one so deletes its row."""
    from scrapy_denoise.page.verdict import PageVerdict
    from scrapy_denoise.worker import CoreHost

    host = CoreHost()
    host.open(f"sqlite:///{tmp_path / 'core.sqlite3'}", DenoiseOptions())
    assert host.store is not None and host.denoiser is not None
    about = "https://news.example/about/index.html?utm_source=footer"
    other = "https://news.example/2024/05/06/storm.html"
    stored = [ArticleRecord(u, "https://news.example", "text") for u in (about, other)]
    assert host.store.upsert_articles(stored).inserted == 2
    verdict = PageVerdict(True, 1.0, reason)
    monkeypatch.setattr(host.denoiser, "classify_document", lambda doc, **_: verdict)
    # the page is fetched under another form of its URL: the stored row's key is found
    page = "https://news.example/about/"
    judged, _, withdrawn = host.classify(PAGE, page, None, True, withdraw)
    assert judged == verdict and withdrawn is gone
    summary = host.store.site_summary("https://news.example")
    assert summary is not None and summary.articles == (1 if gone else 2)
    # nothing stored under the URL: nothing deleted, nothing said
    assert host.classify(PAGE, "https://news.example/contact/", None, True, withdraw)[2] is False
    host.close()


def test_a_database_failing_to_delete_a_row_keeps_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Raised, the error would make the page pass the filter unclassified: a site page would
    become an article item because of a database blip."""
    from scrapy_denoise.page.verdict import PageVerdict
    from scrapy_denoise.store import StoreError
    from scrapy_denoise.worker import CoreHost

    host = CoreHost()
    host.open(f"sqlite:///{tmp_path / 'core.sqlite3'}", DenoiseOptions())
    assert host.store is not None and host.denoiser is not None
    verdict = PageVerdict(True, 1.0, "navigation_page")
    monkeypatch.setattr(host.denoiser, "classify_document", lambda doc, **_: verdict)

    def locked(url: str) -> bool:
        raise StoreError("store withdraw failed: database is locked")

    monkeypatch.setattr(host.store, "withdraw_article", locked)
    url = "https://news.example/about/"
    assert host.classify(PAGE, url, None, True, True) == (verdict, (), False)
    assert f"could not delete the stored article {url}: store withdraw failed" in caplog.text
    host.close()


def test_the_crawls_end_filters_stored_rows_again_by_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``revise_stored_texts`` reads the rows holding lines learned as noise after them back
    in batches, takes those lines out and writes them; a row never stored stays unwritten."""
    from test_article_lines import APPEAL, SITE, _post

    from scrapy_denoise.worker import CoreHost

    monkeypatch.setattr(worker_module, "_REVISE_BATCH", 4)
    host = CoreHost()
    options = DenoiseOptions(templates=False, refilter_lines=True, page_model=None)
    host.open(f"sqlite:///{tmp_path / 'core.sqlite3'}", options)
    assert host.store is not None and host.denoiser is not None
    rows = []
    for n in range(100):
        article = host.denoiser.extract(_post(n), f"{SITE}/2024/{n}.html")
        if n != 0:  # the first is never stored (a pipeline dropped it)
            rows.append(ArticleRecord(article.url, SITE, article.text, title=article.title))
    host.store.upsert_articles(rows)
    holding = [r.url for r in rows if APPEAL in r.text]
    assert len(holding) > 8  # more than two batches
    revised = host.revise_stored_texts(min_text_chars=100)
    assert sorted(revised) == sorted(holding)
    with host.store.engine.connect() as conn:
        texts = [row[0] for row in conn.exec_driver_sql("SELECT text FROM articles")]
    assert len(texts) == 99 and not any(APPEAL in t for t in texts)
    host.close()
