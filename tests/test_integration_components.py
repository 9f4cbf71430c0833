"""Unit tests of the Scrapy components, with Scrapy's test crawler and hand-made responses.

No crawl runs here (that is ``test_integration_crawl.py``); each test drives one component's
hook the way Scrapy's managers call it, inside ``asyncio.run`` as under the asyncio reactor.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import fields as dataclass_fields
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy import Request, signals
from scrapy.exceptions import CloseSpider, DropItem, IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from sqlalchemy import create_engine, text

from scrapy_denoise.integration import (
    Addon,
    DenoiseLogStats,
    DenoisePipeline,
    DenoiseRuntime,
    NoiseItemFilterMiddleware,
    PageFilterMiddleware,
    StorePipeline,
    page_item,
)
from scrapy_denoise.integration import runtime as runtime_module
from scrapy_denoise.integration.logstats import summary
from scrapy_denoise.integration.settings import (
    DEFAULT_FIELDS,
    DenoiseConfig,
    setting_name,
    settings_table,
)
from scrapy_denoise.options import DenoiseOptions
from scrapy_denoise.page.model import DEFAULT_MODEL_PATH
from scrapy_denoise.page.rules import PageRules
from scrapy_denoise.page.verdict import PageVerdict
from scrapy_denoise.store.scratch import scratch_database
from scrapy_denoise.worker import CoreHost, CoreProcessDied, DenoiseUnavailable, ThreadWorker

T = TypeVar("T")

ARTICLE_URL = "http://news.example/2024/01/02/council-approves-housing-plan.html"
TAG_URL = "http://news.example/tag/housing/"
_PARA = (
    "The city council approved a plan on Tuesday to build three hundred affordable homes "
    "near the river, officials said after a debate that lasted well into the night. "
)
ARTICLE_HTML = (
    "<html><head><title>Council approves housing plan - Daily</title>"
    '<meta name="author" content="Jane Roe">'
    '<meta property="article:published_time" content="2024-01-02T10:00:00+00:00">'
    '</head><body><nav><a href="/">Home</a> <a href="/world/">World</a></nav>'
    "<article><h1>Council approves housing plan</h1>"
    + "".join(f"<p>{_PARA * 2}Paragraph {i}.</p>" for i in range(5))
    + "</article><footer>Copyright Daily</footer></body></html>"
).encode()
SHORT_HTML = b"<html><head><title>Gallery</title></head><body><p>Photos.</p></body></html>"


def run(coro_fn: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await coro_fn()

    return asyncio.run(main())


def crawler_for(**settings: Any) -> Any:
    """A test crawler; no database unless a test asks for one."""
    settings.setdefault("DENOISE_DATABASE_URL", "")
    return get_crawler(settings_dict=settings)


def html_response(url: str = ARTICLE_URL, body: bytes = ARTICLE_HTML, **meta: Any) -> HtmlResponse:
    request = Request(url, meta=meta)
    return HtmlResponse(
        url,
        body=body,
        headers={"Content-Type": "text/html; charset=utf-8"},
        request=request,
    )


async def classify(mw: PageFilterMiddleware, response: Response) -> Response:
    assert response.request is not None
    return await mw.process_response(response.request, response)


def _host(runtime: DenoiseRuntime) -> CoreHost:
    """The core of a runtime whose worker is a thread (``DENOISE_CORE_WORKER="thread"``)."""
    worker = runtime.worker
    assert isinstance(worker, ThreadWorker)
    return worker.host


async def close(crawler: Any) -> None:
    await DenoiseRuntime.for_crawler(crawler).spider_closed(None)  # type: ignore[arg-type]


# -- settings -----------------------------------------------------------------------------


def test_defaults_follow_core_page_rules() -> None:
    rules = DenoiseConfig().rules()
    assert rules == PageRules()


def test_every_page_rule_has_a_setting() -> None:
    names = {f.name for f in dataclass_fields(DenoiseConfig)}
    missing = [f.name for f in dataclass_fields(PageRules) if f"rule_{f.name}" not in names]
    assert not missing, f"PageRules fields without a DENOISE_RULE_* setting: {missing}"


def test_every_core_option_has_a_setting() -> None:
    """A new DenoiseOptions field needs a DENOISE_* setting (and a line in options())."""
    renamed = {"templates": "templates_enabled", "line_stats": "line_stats_enabled"}
    names = {f.name for f in dataclass_fields(DenoiseConfig)}
    options = [f.name for f in dataclass_fields(DenoiseOptions) if f.name != "rules"]
    missing = [o for o in options if renamed.get(o, o) not in names]
    assert not missing, f"DenoiseOptions fields without a DENOISE_* setting: {missing}"
    config = DenoiseConfig(method_params={"cevc": {"alpha": 0.5}}, owner="p1", flush_every=7)
    built = config.options()
    for option in options:
        assert getattr(built, option) == getattr(config, renamed.get(option, option))


def test_rule_setting_none_switches_rule_off() -> None:
    crawler = crawler_for(DENOISE_RULE_MIN_TEXT_CHARS=None, DENOISE_RULE_MAX_LINKS="250")
    config = DenoiseConfig.from_settings(crawler.settings)
    assert config.rules().min_text_chars is None
    assert config.rules().max_links == 250
    assert config.rules().declared_collection  # on by default
    crawler = crawler_for(DENOISE_RULE_DECLARED_COLLECTION="False")  # as `-s` gives it
    assert not DenoiseConfig.from_settings(crawler.settings).rules().declared_collection


def test_fields_setting_merges_into_defaults_and_none_removes() -> None:
    crawler = crawler_for(DENOISE_FIELDS={"text": "body_text", "author": None, "site": "site"})
    fields = DenoiseConfig.from_settings(crawler.settings).fields
    assert fields["text"] == "body_text"
    assert "author" not in fields
    assert fields["site"] == "site"
    assert fields["title"] == DEFAULT_FIELDS["title"]


def test_fields_setting_rejects_unknown_key_with_setting_name() -> None:
    crawler = crawler_for(DENOISE_FIELDS={"headline": "h"})
    with pytest.raises(ValueError, match="DENOISE_FIELDS"):
        DenoiseConfig.from_settings(crawler.settings)


def test_settings_table_lists_every_setting() -> None:
    table = settings_table()
    for f in dataclass_fields(DenoiseConfig):
        assert f"``{setting_name(f.name)}``" in table
        assert f.metadata["doc"]


# -- add-on and NotConfigured -------------------------------------------------------------


def test_addon_enables_all_components() -> None:
    crawler = crawler_for(ADDONS={Addon: 0})
    settings = crawler.settings
    assert settings["DOWNLOADER_MIDDLEWARES"][PageFilterMiddleware] == 540
    assert settings["SPIDER_MIDDLEWARES"][NoiseItemFilterMiddleware] == 800
    assert settings["ITEM_PIPELINES"][DenoisePipeline] == 300
    assert settings["ITEM_PIPELINES"][StorePipeline] == 800
    assert DenoiseLogStats in settings["EXTENSIONS"]


def test_addon_keeps_priority_a_project_chose() -> None:
    path = "scrapy_denoise.integration.pipelines.StorePipeline"
    crawler = crawler_for(ADDONS={Addon: 0}, ITEM_PIPELINES={path: 950})
    assert crawler.settings["ITEM_PIPELINES"][path] == 950
    assert StorePipeline not in crawler.settings["ITEM_PIPELINES"]


@pytest.mark.parametrize(
    ("component", "setting"),
    [
        (PageFilterMiddleware, "DENOISE_PAGE_FILTER_ENABLED"),
        (NoiseItemFilterMiddleware, "DENOISE_ITEM_FILTER_ENABLED"),
        (DenoisePipeline, "DENOISE_EXTRACT_ENABLED"),
        (StorePipeline, "DENOISE_STORE_ENABLED"),
        (DenoiseLogStats, "DENOISE_LOGSTATS_ENABLED"),
    ],
)
def test_component_disabled_raises_not_configured(component: Any, setting: str) -> None:
    crawler = crawler_for(**{setting: False, "DENOISE_DATABASE_URL": "sqlite://"})
    with pytest.raises(NotConfigured):
        component.from_crawler(crawler)


#: every component the add-on enables
_COMPONENTS = (
    PageFilterMiddleware,
    NoiseItemFilterMiddleware,
    DenoisePipeline,
    StorePipeline,
    DenoiseLogStats,
)


def test_component_enabled_alone_builds() -> None:
    crawler = crawler_for(DENOISE_DATABASE_URL="sqlite://")
    for component in _COMPONENTS:
        assert isinstance(component.from_crawler(crawler), component)


def test_with_every_core_component_disabled_no_core_starts(tmp_path: Path) -> None:
    """Each component asked for the runtime's core before reading its own setting: with
    all of them off the crawl still started the core's process and created the database's
    tables, and a database that was down closed the spider."""
    db = tmp_path / "store.sqlite3"
    crawler = crawler_for(
        DENOISE_DATABASE_URL=f"sqlite:///{db}",
        DENOISE_PAGE_FILTER_ENABLED=False,
        DENOISE_EXTRACT_ENABLED=False,
        DENOISE_STORE_ENABLED=False,
    )
    for component in (PageFilterMiddleware, DenoisePipeline, StorePipeline):
        with pytest.raises(NotConfigured):
            component.from_crawler(crawler)
    runtime = DenoiseRuntime.for_crawler(crawler, use_core=False)

    async def main() -> None:
        await runtime.spider_opened(None)  # type: ignore[arg-type]
        await close(crawler)

    run(main)
    assert runtime.worker is None
    assert not db.exists()


def test_denoise_enabled_false_turns_every_component_off(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite3"
    crawler = crawler_for(
        ADDONS={Addon: 0}, DENOISE_ENABLED="False", DENOISE_DATABASE_URL=f"sqlite:///{db}"
    )
    for component in _COMPONENTS:
        with pytest.raises(NotConfigured):
            component.from_crawler(crawler)
    assert not db.exists()


def test_a_redelivered_page_starts_no_core_once_the_core_is_given_up() -> None:
    runtime = DenoiseRuntime.for_crawler(crawler_for())
    runtime._failed = DenoiseUnavailable("the database is gone", "denoise_database_unavailable")
    runtime.note_redelivered(ARTICLE_URL)
    assert runtime.worker is None


def test_store_pipeline_without_database_is_not_configured() -> None:
    with pytest.raises(NotConfigured, match="DENOISE_DATABASE_URL"):
        StorePipeline.from_crawler(crawler_for(DENOISE_DATABASE_URL=""))


def test_components_of_one_crawler_share_one_runtime() -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)
    pipeline = DenoisePipeline.from_crawler(crawler)
    assert mw.runtime is pipeline.runtime
    assert DenoiseRuntime.for_crawler(crawler_for()) is not mw.runtime


# -- runtime ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["process", "thread"])
def test_runtime_runs_every_call_on_one_worker(kind: str) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER=kind)
    runtime = DenoiseRuntime.for_crawler(crawler)

    async def main() -> set[tuple[int, int]]:
        where = await asyncio.gather(*(runtime._run("identity") for _ in range(20)))
        await close(crawler)
        return set(where)

    where = run(main)
    assert len(where) == 1
    pid, thread = where.pop()
    if kind == "process":
        assert pid != os.getpid()
    else:
        assert pid == os.getpid() and thread != threading.get_ident()
    assert crawler.stats.get_value("denoise/core/calls/identity") == 20


def test_core_process_that_dies_fails_its_calls_and_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="process")
    mw = PageFilterMiddleware.from_crawler(crawler)
    runtime = mw.runtime

    async def main() -> tuple[int, int, Response]:
        first, _ = await runtime._run("identity")
        os.kill(first, signal.SIGKILL)  # a crash in a C library, the OOM killer
        with pytest.raises(CoreProcessDied):
            await runtime._run("identity")
        second, _ = await runtime._run("identity")  # a new process, opened again
        response = await classify(mw, html_response())
        await close(crawler)
        return first, second, response

    with caplog.at_level(logging.ERROR):
        first, second, response = run(main)
    assert first != second
    assert response.meta["denoise"]["is_noise"] is False
    assert crawler.stats.get_value("denoise/errors/core_restarted") == 1
    assert "core process died" in caplog.text


async def _until_dead(runtime: DenoiseRuntime, pid: int) -> None:
    """Kill the core's process and wait until its worker has seen it go."""
    os.kill(pid, signal.SIGKILL)
    worker = runtime.worker
    assert worker is not None
    while worker.alive:
        await asyncio.sleep(0.01)


def test_a_core_that_fails_to_reopen_once_resumes_and_stores_articles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's process died and its new one could not open the database (out of reach
    for a moment): the failed opening was kept and failed every later call, and the crawl
    went on discarding every page and article without closing."""
    monkeypatch.setattr(runtime_module, "_REOPEN_DELAY", 0.3)
    folder, away = tmp_path / "db", tmp_path / "away"
    folder.mkdir()
    db_url = f"sqlite:///{folder / 'store.sqlite3'}"
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url, DENOISE_CORE_WORKER="process")
    mw = PageFilterMiddleware.from_crawler(crawler)
    extract = DenoisePipeline.from_crawler(crawler)
    store = StorePipeline.from_crawler(crawler)
    runtime = mw.runtime
    other_url = ARTICLE_URL.replace("housing-plan", "budget")

    async def main() -> Response:
        await runtime.spider_opened(None)  # type: ignore[arg-type]
        pid, _ = await runtime._run("identity")
        await _until_dead(runtime, pid)
        folder.rename(away)
        # the page filter lets a page through unclassified meanwhile
        response = await classify(mw, html_response())
        assert "denoise" not in response.meta
        # and its item waits for the core instead of being dropped
        extracting = asyncio.ensure_future(extract.process_item(page_item(response)))
        await asyncio.sleep(0.1)
        away.rename(folder)
        await store.process_item(await extracting)
        response = await classify(mw, html_response(other_url))
        await store.close_spider()
        await close(crawler)
        return response

    response = run(main)
    assert response.meta["denoise"]["is_noise"] is False  # classified again
    assert list(_rows(db_url)) == [ARTICLE_URL]
    stats = crawler.stats
    assert stats.get_value("denoise/errors/core_reopen") == 1
    assert stats.get_value("denoise/pages/unclassified") == 1
    assert stats.get_value("denoise/items/extracted") == 1
    assert stats.get_value("denoise/errors/database_unavailable") is None  # not given up


class _Engine:
    """Stands in for Scrapy's engine: records the closes asked for."""

    def __init__(self) -> None:
        self.spider = object()
        self.reasons: list[str] = []

    async def close_spider_async(self, *, reason: str) -> None:
        self.reasons.append(reason)

    def close_spider(self, spider: Any, reason: str) -> None:  # Scrapy < 2.14
        self.reasons.append(reason)


def test_a_core_that_cannot_be_opened_again_closes_the_spider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime_module, "_REOPEN_DELAY", 0.01)
    folder = tmp_path / "db"
    folder.mkdir()
    crawler = crawler_for(
        DENOISE_DATABASE_URL=f"sqlite:///{folder / 'store.sqlite3'}",
        DENOISE_CORE_WORKER="process",
    )
    engine = crawler.engine = _Engine()
    mw = PageFilterMiddleware.from_crawler(crawler)
    runtime = mw.runtime

    async def main() -> None:
        await runtime.spider_opened(None)  # type: ignore[arg-type]
        pid, _ = await runtime._run("identity")
        await _until_dead(runtime, pid)
        folder.rename(tmp_path / "away")  # for good
        with pytest.raises(DenoiseUnavailable, match="cannot open the denoise database"):
            await runtime.open()
        assert runtime.closing
        with pytest.raises(IgnoreRequest):  # the spider is closing now
            await classify(mw, html_response())
        await asyncio.sleep(0)  # the close asked for
        await close(crawler)

    run(main)
    assert engine.reasons == ["denoise_database_unavailable"]
    assert crawler.stats.get_value("denoise/errors/core_reopen") == runtime_module._REOPEN_ATTEMPTS
    assert crawler.stats.get_value("denoise/errors/database_unavailable") == 1


def test_core_process_that_cannot_start_closes_the_spider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import scrapy_denoise.worker

    # an interpreter that exits at once, as a broken installation's child would
    monkeypatch.setattr(scrapy_denoise.worker.sys, "executable", "/bin/false")
    crawler = crawler_for(DENOISE_CORE_WORKER="process")
    mw = PageFilterMiddleware.from_crawler(crawler)
    runtime = mw.runtime

    async def main() -> None:
        with pytest.raises(CloseSpider) as info:
            await runtime.spider_opened(None)  # type: ignore[arg-type]
        assert info.value.reason == "denoise_setup_failed"
        started = runtime.worker
        # pages still in flight while the spider closes are ignored at once, with no new
        # process started for each of them
        with pytest.raises(IgnoreRequest, match="could not be opened"):
            await classify(mw, html_response())
        assert runtime.worker is started
        await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/errors/setup_failed") == 1


def test_core_process_logs_reach_this_process(caplog: pytest.LogCaptureFixture) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="process")
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> None:
        # a body that is not HTML: the core logs why it judged nothing
        await classify(mw, html_response(body=b"\x00\x01\x02" * 2000))
        await close(crawler)

    with caplog.at_level(logging.DEBUG, logger="scrapy_denoise"):
        run(main)
    # the core's records, not the Scrapy components' (which name the binary page too)
    records = [
        r
        for r in caplog.records
        if r.name.startswith("scrapy_denoise.")
        and not r.name.startswith("scrapy_denoise.integration.")
    ]
    assert records and all(r.process != os.getpid() for r in records)


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("DENOISE_CORE_WORKER", "fiber", "use 'process' or 'thread'"),
        ("DENOISE_METHOD", "nosuch", "unknown extraction method 'nosuch'; choose one of default"),
        ("DENOISE_PAGE_MODEL", "/nowhere/pages.json", "no model file at '/nowhere/pages.json'"),
        ("DENOISE_FLUSH_EVERY", "abc", "invalid literal for int()"),
    ],
)
def test_invalid_setting_fails_at_start_naming_the_setting(
    setting: str, value: str, says: str
) -> None:
    # as Scrapy starts the crawl (exit status 1), not when the core is opened later
    with pytest.raises(ValueError, match="invalid " + setting + " setting: ") as caught:
        DenoiseConfig.from_settings(Settings({setting: value}))
    assert says in str(caught.value)


def test_a_page_model_file_or_none_are_valid_settings(tmp_path: Path) -> None:
    model = tmp_path / "pages.json"
    model.write_bytes(DEFAULT_MODEL_PATH.read_bytes())
    for value in (str(model), "default", ""):
        DenoiseConfig.from_settings(Settings({"DENOISE_PAGE_MODEL": value}))


def test_database_down_at_start_closes_spider_with_redacted_url(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = crawler_for(
        DENOISE_DATABASE_URL="postgresql+psycopg://crawler:s3cretpw@127.0.0.1:1/news"
    )
    runtime = DenoiseRuntime.for_crawler(crawler)

    async def main() -> None:
        with pytest.raises(CloseSpider) as info:
            await runtime.spider_opened(None)  # type: ignore[arg-type]
        assert info.value.reason == "denoise_database_unavailable"
        await close(crawler)

    with caplog.at_level(logging.ERROR):
        run(main)
    assert "127.0.0.1:1/news" in caplog.text
    assert "s3cretpw" not in caplog.text
    assert crawler.stats.get_value("denoise/errors/database_unavailable") == 1


def test_database_is_not_opened_without_a_component_that_needs_it() -> None:
    crawler = crawler_for(DENOISE_DATABASE_URL="postgresql+psycopg://crawler@127.0.0.1:1/news")
    NoiseItemFilterMiddleware.from_crawler(crawler)
    DenoiseLogStats.from_crawler(crawler)
    runtime = DenoiseRuntime.for_crawler(crawler, use_core=False)

    async def main() -> None:
        await runtime.spider_opened(None)  # type: ignore[arg-type]
        await close(crawler)

    run(main)  # no CloseSpider: nothing asked for the core or the database
    assert crawler.stats.get_value("denoise/errors/database_unavailable") is None


def test_page_is_parsed_once_between_filter_and_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")  # the core's objects in this process
    mw = PageFilterMiddleware.from_crawler(crawler)
    pipeline = DenoisePipeline.from_crawler(crawler)
    runtime = mw.runtime

    async def main() -> dict[str, Any]:
        await runtime.open()
        denoiser = _host(runtime).denoiser
        assert denoiser is not None
        loads: list[str] = []
        original = denoiser.load

        def counting_load(*args: Any, **kwargs: Any) -> Any:
            loads.append(args[1])
            return original(*args, **kwargs)

        monkeypatch.setattr(denoiser, "load", counting_load)
        response = await classify(mw, html_response())
        item = await pipeline.process_item(page_item(response))
        await close(crawler)
        assert loads == [ARTICLE_URL]
        return dict(item)

    assert "affordable homes" in run(main)["text"]


def test_histories_of_pages_waiting_for_the_worker_are_read_in_one_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")
    mw = PageFilterMiddleware.from_crawler(crawler)
    runtime = mw.runtime
    urls = [f"http://news.example/2024/01/02/story-{i}.html" for i in range(8)]

    async def main() -> list[list[str]]:
        await runtime.open()
        denoiser = _host(runtime).denoiser
        learner = denoiser.learner if denoiser is not None else None
        assert learner is not None
        reads: list[list[str]] = []
        original = learner.store.page_states

        def counting(wanted: Any) -> Any:
            wanted = list(wanted)
            reads.append(wanted)
            return original(wanted)

        monkeypatch.setattr(learner.store, "page_states", counting)
        release = threading.Event()
        worker = runtime.worker
        assert isinstance(worker, ThreadWorker)
        busy = worker._executor.submit(release.wait)  # the worker is busy: the pages queue up
        pages = asyncio.gather(*(classify(mw, html_response(url)) for url in urls))
        await asyncio.sleep(0.05)
        release.set()
        await asyncio.wrap_future(busy)
        responses = await pages
        await close(crawler)
        assert all(r.meta["denoise"]["is_noise"] is False for r in responses)
        return reads

    assert run(main) == [urls]


# -- page filter middleware ---------------------------------------------------------------


def test_page_filter_marks_article_page() -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        response = await classify(mw, html_response())
        await close(crawler)
        return response

    response = run(main)
    verdict = response.meta["denoise"]
    # No rule fires on an article page, so the page SVM behind the rules decides.
    assert verdict["is_noise"] is False
    assert verdict["reason"] == "model"
    assert 0.0 <= verdict["score"] < 0.5
    assert crawler.stats.get_value("denoise/pages/article") == 1


def test_page_filter_marks_noise_page_and_keeps_it(caplog: pytest.LogCaptureFixture) -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        response = await classify(mw, html_response(TAG_URL))
        await close(crawler)
        return response

    with caplog.at_level(logging.DEBUG, logger="scrapy_denoise.integration.middleware"):
        response = run(main)
    assert response.meta["denoise"]["is_noise"] is True
    assert response.meta["denoise"]["reason"] == "url_pattern"
    assert crawler.stats.get_value("denoise/pages/noise/url_pattern") == 1
    # its items are dropped without a word: the log says which page, and why
    assert f"noise page (url_pattern, score 1.00): {TAG_URL}" in caplog.text


@pytest.mark.parametrize(
    "response",
    [
        TextResponse(
            "http://news.example/api/x.json",
            body=b'{"a": 1}',
            headers={"Content-Type": "application/json"},
            request=Request("http://news.example/api/x.json"),
        ),
        Response(
            "http://news.example/logo.png",
            body=b"\x89PNG\r\n",
            request=Request("http://news.example/logo.png"),
        ),
        HtmlResponse(ARTICLE_URL, status=404, body=ARTICLE_HTML, request=Request(ARTICLE_URL)),
    ],
    ids=["json", "binary", "html-404"],
)
def test_page_filter_ignores_non_html_and_error_responses(response: Response) -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        result = await classify(mw, response)
        await close(crawler)
        return result

    assert run(main) is response
    assert "denoise" not in response.meta
    assert not any(k.startswith("denoise/pages") for k in crawler.stats.get_stats())


@pytest.mark.parametrize(
    "response",
    [
        TextResponse(
            "http://news.example/data.json",
            body=b'{"a": 1}',
            request=Request("http://news.example/data.json", meta={"denoise": {"is_noise": True}}),
        ),
        HtmlResponse(
            ARTICLE_URL,
            status=404,
            body=ARTICLE_HTML,
            request=Request(ARTICLE_URL, meta={"denoise": {"is_noise": True}}),
        ),
        html_response(ARTICLE_URL, denoise={"is_noise": True}, denoise_skip=True),
    ],
    ids=["json", "html-404", "skip"],
)
def test_a_verdict_copied_from_the_parent_meta_is_not_kept(response: Response) -> None:
    """``response.follow(url, meta=response.meta)`` from a noise page copied its verdict
    to pages the filter does not judge; the item filter then dropped their items."""
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)
    items = NoiseItemFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        result = await classify(mw, response)
        await close(crawler)
        return result

    result = run(main)
    assert "denoise" not in result.meta
    assert len(list(items.process_spider_output(result, [page_item(result)]))) == 1


def test_page_filter_opt_out_meta_skips_page() -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        response = await classify(mw, html_response(TAG_URL, denoise_skip=True))
        await close(crawler)
        return response

    response = run(main)
    assert "denoise" not in response.meta
    assert crawler.stats.get_value("denoise/pages/skipped") == 1
    assert page_item(response)["denoise"]["reason"] == "skipped"


def test_drop_noise_leaves_ignores_only_marked_requests() -> None:
    crawler = crawler_for(DENOISE_DROP_NOISE_LEAVES=True)
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        try:
            with pytest.raises(IgnoreRequest):
                await classify(mw, html_response(TAG_URL, denoise_leaf=True))
            return await classify(mw, html_response(TAG_URL))
        finally:
            await close(crawler)

    assert run(main).meta["denoise"]["is_noise"] is True
    assert crawler.stats.get_value("denoise/pages/dropped_leaf") == 1


def test_noise_leaves_are_kept_by_default() -> None:
    crawler = crawler_for()
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def main() -> Response:
        response = await classify(mw, html_response(TAG_URL, denoise_leaf=True))
        await close(crawler)
        return response

    assert run(main).meta["denoise"]["is_noise"] is True


def test_page_filter_failure_passes_page_unclassified(monkeypatch: pytest.MonkeyPatch) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")  # the patch must reach the worker
    mw = PageFilterMiddleware.from_crawler(crawler)

    def broken(*args: Any) -> Any:
        raise RuntimeError("core bug")

    monkeypatch.setattr(CoreHost, "classify", broken)

    async def main() -> Response:
        response = await classify(mw, html_response())
        await close(crawler)
        return response

    response = run(main)
    assert "denoise" not in response.meta
    assert crawler.stats.get_value("denoise/errors/classify") == 1


def test_page_filter_lets_pages_through_while_the_core_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A core being opened again is no reason to lose a page (the pipeline judges it):
    each one was ignored, though nothing was closing the spider."""
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")
    mw = PageFilterMiddleware.from_crawler(crawler)

    async def unavailable(*args: Any) -> Any:
        raise DenoiseUnavailable("cannot open the denoise database", "denoise_database_unavailable")

    monkeypatch.setattr(mw.runtime, "classify", unavailable)

    async def main() -> list[Response]:
        responses = [await classify(mw, html_response()) for _ in range(2)]
        await close(crawler)
        return responses

    with caplog.at_level(logging.WARNING):
        responses = run(main)
    assert all("denoise" not in r.meta for r in responses)
    assert crawler.stats.get_value("denoise/pages/unclassified") == 2
    said = [r for r in caplog.records if "pass the page filter unclassified" in r.getMessage()]
    assert len(said) == 1  # once, not once per page


def test_a_deleted_stored_article_is_counted_and_said(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The core deletes the stored article of a page it now judges a site page
    (``DENOISE_STORE_WITHDRAW``); the crawl must say which, and count them."""
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")
    mw = PageFilterMiddleware.from_crawler(crawler)
    asked: list[tuple[Any, ...]] = []

    async def judged(*args: Any) -> Any:
        asked.append(args)
        return PageVerdict(True, 1.0, "navigation_page"), (), True

    monkeypatch.setattr(mw.runtime, "classify", judged)

    async def main() -> Response:
        response = await classify(mw, html_response("https://news.example/about/"))
        await close(crawler)
        return response

    with caplog.at_level(logging.INFO):
        run(main)
    assert asked and crawler.stats.get_value("denoise/store/withdrawn") == 1
    said = [
        r.getMessage() for r in caplog.records if "deleted the stored article" in r.getMessage()
    ]
    assert said == [
        "deleted the stored article https://news.example/about/: a visit now judges it a "
        "noise page (navigation_page)"
    ]
    line = summary(crawler.stats.get_stats())
    assert "1 deleted (now noise pages)" in line


# -- spider middleware --------------------------------------------------------------------


def _spider_output(verdict: dict[str, Any] | None) -> list[Any]:
    crawler = crawler_for()
    mw = NoiseItemFilterMiddleware.from_crawler(crawler)
    response = (
        html_response(TAG_URL) if verdict is None else html_response(TAG_URL, denoise=verdict)
    )
    output = [{"url": TAG_URL}, Request("http://news.example/a.html"), {"url": "x"}]
    kept = list(mw.process_spider_output(response, output))
    dropped = crawler.stats.get_value("denoise/items/dropped_noise_page", 0)
    return [kept, dropped]


def test_item_filter_drops_items_of_noise_pages_keeps_requests() -> None:
    kept, dropped = _spider_output({"is_noise": True, "score": 1.0, "reason": "url_pattern"})
    assert [type(o) for o in kept] == [Request]
    assert dropped == 2


@pytest.mark.parametrize("verdict", [None, {"is_noise": False, "score": 0.0, "reason": "article"}])
def test_item_filter_keeps_items_of_article_and_unclassified_pages(
    verdict: dict[str, Any] | None,
) -> None:
    kept, dropped = _spider_output(verdict)
    assert len(kept) == 3
    assert dropped == 0


# -- page items ---------------------------------------------------------------------------


class PageItem(scrapy.Item):
    url = scrapy.Field()
    body = scrapy.Field()
    headers = scrapy.Field()
    denoise = scrapy.Field()
    title = scrapy.Field()
    text = scrapy.Field()
    published = scrapy.Field()
    author = scrapy.Field()
    lang = scrapy.Field()
    section = scrapy.Field()


@dataclasses.dataclass
class PageRecord:
    url: str
    body: bytes | None
    headers: dict[str, str] | None = None
    denoise: dict[str, Any] | None = None
    title: str | None = None
    text: str | None = None
    published: datetime | None = None
    author: str | None = None
    lang: str | None = None


@dataclasses.dataclass
class BareRecord:
    """Only the inputs: the pipeline cannot keep the article fields."""

    url: str
    body: bytes | None


def test_page_item_carries_page_and_verdict() -> None:
    verdict = {"is_noise": False, "score": 0.0, "reason": "article"}
    item = page_item(html_response(denoise=verdict), section="politics")
    assert item["url"] == ARTICLE_URL
    assert item["body"] == ARTICLE_HTML
    assert item["headers"] == {"Content-Type": "text/html; charset=utf-8"}
    assert item["denoise"] == verdict
    assert item["section"] == "politics"


def test_page_item_builds_declared_item_types() -> None:
    response = html_response()
    assert isinstance(page_item(response, PageItem), PageItem)
    record = page_item(response, PageRecord)
    assert isinstance(record, PageRecord)
    assert record.body == ARTICLE_HTML
    bare = page_item(response, BareRecord)  # leaves out fields the type lacks
    assert bare.url == ARTICLE_URL


def test_page_item_refuses_type_without_body_field() -> None:
    @dataclasses.dataclass
    class NoBody:
        url: str

    with pytest.raises(TypeError, match="body"):
        page_item(html_response(), NoBody)


# -- extraction pipeline ------------------------------------------------------------------


def _extract(item: Any, **settings: Any) -> tuple[Any, Any]:
    crawler = crawler_for(**settings)
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> Any:
        try:
            return await pipeline.process_item(item)
        finally:
            await close(crawler)

    return run(main), crawler.stats


@pytest.mark.parametrize(
    "item_cls", [dict, PageItem, PageRecord], ids=["dict", "Item", "dataclass"]
)
def test_pipeline_turns_page_item_into_article(item_cls: Any) -> None:
    item, stats = _extract(page_item(html_response(), item_cls))
    adapter = ItemAdapter(item)
    assert adapter["title"] == "Council approves housing plan"
    assert "three hundred affordable homes" in adapter["text"]
    assert "Copyright Daily" not in adapter["text"]
    assert adapter["published"] == datetime(2024, 1, 2, 10, 0, tzinfo=UTC)
    assert adapter["author"] == "Jane Roe"
    assert adapter["lang"] == "en"
    assert adapter.get("body") is None
    assert adapter.get("headers") is None
    assert stats.get_value("denoise/items/extracted") == 1


def test_pipeline_judges_a_page_again_whose_item_verdict_is_malformed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A score that is no number raised before the raw page was removed: the item was lost,
    and Scrapy's "Error processing" line printed it with its whole body."""
    item = page_item(html_response())
    item[DEFAULT_FIELDS["verdict"]] = {"is_noise": False, "score": "n/a", "reason": "spider"}
    with caplog.at_level(logging.DEBUG):
        result, stats = _extract(item)
    assert "three hundred affordable homes" in result["text"]
    assert "body" not in result and "headers" not in result
    assert isinstance(result[DEFAULT_FIELDS["verdict"]]["score"], float)  # judged here
    assert stats.get_value("denoise/items/malformed_verdict") == 1
    assert stats.get_value("denoise/pages/article") == 1
    (warning,) = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
    assert ARTICLE_URL in warning and "n/a" in warning
    assert not any("affordable homes" in r.getMessage() for r in caplog.records)


def test_pipeline_removes_the_raw_page_before_reading_the_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(value: Any) -> None:
        raise RuntimeError("a verdict type no one foresaw")

    monkeypatch.setattr("scrapy_denoise.integration.pipelines._verdict", broken)
    item = page_item(html_response())
    item[DEFAULT_FIELDS["verdict"]] = {"is_noise": False}
    with pytest.raises(RuntimeError, match="no one foresaw"):
        _extract(item)
    assert "body" not in item and "headers" not in item  # Scrapy logs the item as it is


def test_pipeline_accepts_hand_made_page_item_with_text_body_and_scrapy_headers() -> None:
    response = html_response()
    item = {"url": response.url, "body": response.text, "headers": response.headers}
    result, stats = _extract(item)
    assert "three hundred affordable homes" in result["text"]
    assert "body" not in result and "headers" not in result
    assert stats.get_value("denoise/items/extracted") == 1


def test_pipeline_field_names_follow_setting() -> None:
    item, _ = _extract(
        page_item(html_response()), DENOISE_FIELDS={"text": "body_text", "site": "site"}
    )
    assert "body_text" in item and "text" not in item
    assert item["site"] == "http://news.example"


def test_pipeline_warns_once_when_item_type_lacks_article_fields(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        item, _ = _extract(page_item(html_response(), BareRecord))
    assert item.body is None
    assert "BareRecord has no field 'text'" in caplog.text
    assert "not kept, on the item nor in the database" in caplog.text


@pytest.mark.parametrize("fields", [None, {"verdict": None}], ids=["no_field", "field_off"])
def test_a_page_the_filter_judged_is_counted_once_when_its_item_cannot_carry_the_verdict(
    fields: dict[str, None] | None,
) -> None:
    """An Item class without the verdict field (or DENOISE_FIELDS switching it off): the
    pipeline used to judge the page again, and every article page counted twice."""
    crawler = crawler_for(**({"DENOISE_FIELDS": fields} if fields else {}))
    mw = PageFilterMiddleware.from_crawler(crawler)
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> Any:
        try:
            response = await classify(mw, html_response())
            return await pipeline.process_item(page_item(response, BareRecord, fields=fields))
        finally:
            await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/pages/article") == 1
    assert crawler.stats.get_value("denoise/items/extracted") == 1


@pytest.mark.parametrize("status", [404, 410, 500, 503])
def test_page_item_of_an_error_response_is_not_stored(status: int, tmp_path: Path) -> None:
    """A spider that handles error statuses itself (HTTPERROR_ALLOW_ALL) yielded their page
    items too: a 503 maintenance page with some text was extracted and rewrote the row the
    same URL's article had from the crawl before."""
    db_url, crawler, extract, store = _both_pipelines(tmp_path)
    maintenance = (
        "<html><head><title>Down for maintenance</title></head><body><h1>Down for "
        "maintenance</h1><p>"
        + "We are upgrading the storage cluster; back within the hour. " * 8
        + "</p></body></html>"
    ).encode()

    async def main() -> None:
        try:
            article = await extract.process_item(page_item(html_response()))
            await store.process_item(article)
            await store.close_spider()
            response = HtmlResponse(
                ARTICLE_URL, status=status, body=maintenance, request=Request(ARTICLE_URL)
            )
            with pytest.raises(DropItem):
                await extract.process_item(page_item(response))
        finally:
            await close(crawler)

    run(main)
    title, text_, _ = _rows(db_url)[ARTICLE_URL]
    assert "maintenance" not in f"{title} {text_}"
    assert title == "Council approves housing plan"  # the row from before, whole
    assert "affordable homes" in text_
    assert crawler.stats.get_value("denoise/items/dropped_noise_page") == 1


def test_pipeline_drops_short_text_with_stat() -> None:
    crawler = crawler_for(DENOISE_RULE_MIN_TEXT_CHARS=None)  # let the page filter pass it
    pipeline = DenoisePipeline.from_crawler(crawler)
    item = page_item(html_response("http://news.example/2024/gallery.html", SHORT_HTML))

    async def main() -> None:
        try:
            with pytest.raises(DropItem, match="DENOISE_MIN_TEXT_CHARS"):
                await pipeline.process_item(item)
        finally:
            await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/items/dropped_short_text") == 1
    assert "body" not in item  # never logged with the raw page


def _chinese_post(text: str) -> bytes:
    return (
        "<html><head><title>戏做七绝 - 实验室博客</title></head><body>"
        "<nav><a href='/'>首页</a> <a href='/blog/'>博客</a></nav>"
        f"<article><h1>戏做七绝</h1><p>{text}</p></article></body></html>"
    ).encode()


def test_pipeline_counts_a_cjk_character_as_three_against_min_text_chars() -> None:
    """A short Chinese post says as much as an English one three times its characters: a
    poem of 47 characters was dropped under the 100 that ten English words pass."""
    crawler = crawler_for(DENOISE_RULE_MIN_TEXT_CHARS=None, DENOISE_DROP_DUPLICATES=False)
    pipeline = DenoisePipeline.from_crawler(crawler)
    poem = "头顶王字威风凛，威持钢鞭霸气横。自古王霸道杂治，鬼魅岂敢化日行。"
    short = "近期照片汇总"

    async def main() -> list[Any]:
        try:
            kept = await pipeline.process_item(
                page_item(
                    html_response("http://lab.example/blog/2012/poem.html", _chinese_post(poem))
                )
            )
            with pytest.raises(DropItem, match="DENOISE_MIN_TEXT_CHARS"):
                await pipeline.process_item(
                    page_item(
                        html_response(
                            "http://lab.example/blog/2016/photos.html", _chinese_post(short)
                        )
                    )
                )
            return [kept]
        finally:
            await close(crawler)

    (kept,) = run(main)
    assert poem in kept["text"]
    assert len("".join(kept["text"].split())) < 100  # dropped when counted plainly
    assert crawler.stats.get_value("denoise/items/dropped_short_text") == 1


def test_pipeline_drops_an_article_met_before_under_another_url() -> None:
    def crawl(**settings: Any) -> tuple[list[str], Any]:
        crawler = crawler_for(**settings)
        pipeline = DenoisePipeline.from_crawler(crawler)
        outcomes: list[str] = []

        async def main() -> None:
            try:
                for url in (ARTICLE_URL, f"{ARTICLE_URL}?replytocom=7", ARTICLE_URL):
                    try:
                        await pipeline.process_item(page_item(html_response(url)))
                        outcomes.append("kept")
                    except DropItem as exc:
                        outcomes.append(str(exc))
            finally:
                await close(crawler)

        run(main)
        return outcomes, crawler.stats

    outcomes, stats = crawl()
    # the same URL again is the same page (the store updates its row), not a duplicate
    assert outcomes == [
        "kept",
        f"same article as {ARTICLE_URL}: {ARTICLE_URL}?replytocom=7",
        "kept",
    ]
    assert stats.get_value("denoise/items/dropped_duplicate") == 1
    outcomes, stats = crawl(DENOISE_DROP_DUPLICATES=False)
    assert outcomes == ["kept"] * 3
    assert stats.get_value("denoise/items/dropped_duplicate") is None


def _crawl_into(db_url: str, pages: list[tuple[str, bytes]], **settings: Any) -> Any:
    """One crawler extracts ``pages`` (URL, body) and stores their articles in ``db_url``."""
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url, **settings)
    extract = DenoisePipeline.from_crawler(crawler)
    store = StorePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            for url, body in pages:
                item = await extract.process_item(page_item(html_response(url, body)))
                await store.process_item(item)
            await store.close_spider()
        finally:
            await close(crawler)

    run(main)
    return crawler.stats


@pytest.mark.parametrize("worker", ["thread", "process"])
def test_a_copy_met_by_another_crawler_is_not_stored_again(tmp_path: Path, worker: str) -> None:
    # The second crawler (another process, or a later crawl) never met the original, so
    # its item passes the pipeline; the database knows the article and keeps one row.
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    others = [
        (
            ARTICLE_URL.replace("housing", f"school-{n}"),
            ARTICLE_HTML.replace(b"Tuesday", b"day %d" % n),
        )
        for n in (1, 2)
    ]
    _crawl_into(db_url, [(ARTICLE_URL, ARTICLE_HTML), *others], DENOISE_CORE_WORKER=worker)
    copy = (f"{ARTICLE_URL}?replytocom=7", ARTICLE_HTML)
    stats = _crawl_into(db_url, [copy], DENOISE_CORE_WORKER=worker)
    assert stats.get_value("denoise/items/extracted") == 1
    assert stats.get_value("denoise/store/inserted") == 0
    assert stats.get_value("denoise/store/duplicates") == 1
    assert sorted(_rows(db_url)) == sorted([ARTICLE_URL, *(url for url, _ in others)])
    stats = _crawl_into(db_url, [copy], DENOISE_DROP_DUPLICATES=False)
    assert stats.get_value("denoise/store/inserted") == 1
    assert copy[0] in _rows(db_url)


@pytest.mark.parametrize("worker", ["thread", "process"])
def test_an_article_is_stored_under_the_copy_that_names_itself_canonical(
    tmp_path: Path, worker: str
) -> None:
    # Drupal's /node/N, met first, names the story's own URL its canonical one
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    node = "http://news.example/node/173"
    own = ARTICLE_URL.replace("http://", "https://www.").encode()
    page = ARTICLE_HTML.replace(b"<head>", b'<head><link rel="canonical" href="%s">' % own, 1)
    stats = _crawl_into(db_url, [(node, page), (ARTICLE_URL, page)], DENOISE_CORE_WORKER=worker)
    assert stats.get_value("denoise/items/canonical_copies") == 1
    assert sorted(_rows(db_url)) == [ARTICLE_URL]
    # a later copy that does not name itself is dropped as before
    stats = _crawl_into(db_url, [(f"{node}?page=0", page)], DENOISE_CORE_WORKER=worker)
    assert stats.get_value("denoise/store/duplicates") == 1
    assert sorted(_rows(db_url)) == [ARTICLE_URL]


def test_pipeline_min_text_chars_setting() -> None:
    with pytest.raises(DropItem, match="DENOISE_MIN_TEXT_CHARS=100000"):
        _extract(page_item(html_response()), DENOISE_MIN_TEXT_CHARS=100_000)


def test_pipeline_drops_noise_page_when_item_filter_is_off() -> None:
    noise = {"is_noise": True, "score": 1.0, "reason": "url_pattern"}
    crawler = crawler_for()
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            with pytest.raises(DropItem, match="noise page"):
                await pipeline.process_item(page_item(html_response(TAG_URL, denoise=noise)))
            # without any verdict the pipeline classifies the page itself
            with pytest.raises(DropItem, match="noise page"):
                await pipeline.process_item(page_item(html_response(TAG_URL)))
        finally:
            await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/items/dropped_noise_page") == 2


def test_pipeline_counts_the_pages_it_judges_itself_like_the_page_filter() -> None:
    # the page filter sees HTML responses only; a spider may still yield an image's page
    image = Response(
        "http://news.example/media/logo.png",
        body=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8,
        request=Request("http://news.example/media/logo.png"),
    )
    crawler = crawler_for()
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            with pytest.raises(DropItem, match="noise page"):
                await pipeline.process_item(page_item(image))
            await pipeline.process_item(page_item(html_response()))
        finally:
            await close(crawler)

    run(main)
    stats = crawler.stats.get_stats()
    noise = {k: v for k, v in stats.items() if k.startswith("denoise/pages/noise/")}
    assert sum(noise.values()) == 1 and stats["denoise/pages/article"] == 1
    assert stats["denoise/warnings/binary"] == 1
    assert stats["denoise/items/dropped_noise_page"] == 1
    assert summary(stats).startswith("Denoise: 1 article page, 1 noise page (")


def test_pipeline_passes_items_that_are_not_pages() -> None:
    item = {"url": ARTICLE_URL, "price": 3}
    result, _ = _extract(item)
    assert result == {"url": ARTICLE_URL, "price": 3}


def test_pipeline_core_failure_drops_item_and_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")  # the patch must reach the worker
    pipeline = DenoisePipeline.from_crawler(crawler)

    def broken(*args: Any) -> Any:
        raise ValueError("bad page")

    monkeypatch.setattr(CoreHost, "extract", broken)

    async def main() -> None:
        try:
            with pytest.raises(DropItem, match="extraction failed"):
                await pipeline.process_item(page_item(html_response()))
            # the next page is not affected
            monkeypatch.undo()
            assert await pipeline.process_item(page_item(html_response()))
        finally:
            await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/errors/extract") == 1
    assert crawler.stats.get_value("denoise/items/extracted") == 1


# -- store pipeline -----------------------------------------------------------------------


def _rows(db_url: str) -> dict[str, tuple[Any, ...]]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT url, title, text, author FROM articles")).all()
    finally:
        engine.dispose()
    return {row[0]: tuple(row[1:]) for row in rows}


def _article(n: int, text_: str = "Body text of the article.") -> dict[str, Any]:
    return {
        "url": f"http://news.example/a{n}.html",
        "title": f"Title {n}",
        "text": text_,
        "published": datetime(2024, 1, n + 1, tzinfo=UTC),
        "author": "Jane Roe",
        "lang": "en",
    }


def test_store_pipeline_upserts_in_batches(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    # the spider extracts itself: the store pipeline takes its article items as they come
    crawler = crawler_for(
        DENOISE_DATABASE_URL=db_url, DENOISE_STORE_BATCH=2, DENOISE_EXTRACT_ENABLED=False
    )
    pipeline = StorePipeline.from_crawler(crawler)
    stats = crawler.stats
    seen: dict[str, int] = {}

    async def main() -> None:
        await pipeline.runtime.open()
        for n in range(3):
            await pipeline.process_item(_article(n))
        seen["after_three"] = len(_rows(db_url))  # one batch of two written, one pending
        await pipeline.process_item(_article(0))  # unchanged
        await pipeline.process_item(_article(1, "Corrected body text."))  # updated
        await pipeline.process_item({"url": "http://news.example/no-text"})  # not an article
        await pipeline.close_spider()
        await close(crawler)

    run(main)
    assert seen["after_three"] == 2
    rows = _rows(db_url)
    assert len(rows) == 3
    assert rows["http://news.example/a1.html"][1] == "Corrected body text."
    assert stats.get_value("denoise/store/inserted") == 3
    assert stats.get_value("denoise/store/updated") == 1
    assert stats.get_value("denoise/store/unchanged") == 1


def test_store_pipeline_writes_its_last_batch_where_scrapy_waits_for_a_deferred(
    tmp_path: Path,
) -> None:
    """Scrapy 2.13 calls ``close_spider`` without awaiting a coroutine: a crawl of 245
    articles stored 200 (the last batch was never written). There the pipeline's
    ``close_spider`` returns a Deferred, and the crawl waits for it."""
    import subprocess
    import sys

    from scrapy_denoise.integration.pipelines import _deferred_close_spider

    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(
        DENOISE_DATABASE_URL=db_url, DENOISE_STORE_BATCH=2, DENOISE_EXTRACT_ENABLED=False
    )
    pipeline = StorePipeline.from_crawler(crawler)

    async def main() -> None:
        await pipeline.runtime.open()
        for n in range(3):
            await pipeline.process_item(_article(n))
        closing = _deferred_close_spider(pipeline)
        await closing.asFuture(asyncio.get_running_loop())
        await close(crawler)

    run(main)
    assert len(_rows(db_url)) == 3
    switch = (
        "import inspect, scrapy\n"
        "scrapy.version_info = {version}\n"
        "from scrapy_denoise.integration import pipelines as p\n"
        "print(p.StorePipeline.close_spider is p._deferred_close_spider,"
        " inspect.iscoroutinefunction(p.StorePipeline.close_spider))\n"
    )
    for version, printed in (((2, 13, 4), "True False"), ((2, 14, 0), "False True")):
        out = subprocess.run(
            [sys.executable, "-c", switch.format(version=version)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert out.strip() == printed


def _store_only(tmp_path: Path, batch: int) -> tuple[str, Any, StorePipeline]:
    """(database URL, crawler, StorePipeline) of a crawler that stores the items it is
    given, the core in a thread, so that a test can make the core's writes fail."""
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(
        DENOISE_DATABASE_URL=db_url,
        DENOISE_STORE_BATCH=batch,
        DENOISE_CORE_WORKER="thread",
        DENOISE_EXTRACT_ENABLED=False,
    )
    return db_url, crawler, StorePipeline.from_crawler(crawler)


def test_store_pipeline_keeps_failed_batch_and_retries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url, crawler, pipeline = _store_only(tmp_path, batch=2)
    original = CoreHost.write_articles
    calls = {"n": 0}

    def flaky(host: CoreHost, batch: Any, *args: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("disk unplugged")
        return original(host, batch, *args)

    monkeypatch.setattr(CoreHost, "write_articles", flaky)

    async def main() -> None:
        for n in range(3):
            await pipeline.process_item(_article(n))
        await pipeline.close_spider()
        await close(crawler)

    run(main)
    assert len(_rows(db_url)) == 3
    assert crawler.stats.get_value("denoise/errors/store") == 1
    assert crawler.stats.get_value("denoise/store/inserted") == 3
    assert crawler.stats.get_value("denoise/store/lost") is None


def _both_pipelines(tmp_path: Path, **settings: Any) -> tuple[str, Any, Any, Any]:
    """(database URL, crawler, DenoisePipeline, StorePipeline) of one crawler."""
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url, **settings)
    return (
        db_url,
        crawler,
        DenoisePipeline.from_crawler(crawler),
        StorePipeline.from_crawler(crawler),
    )


def test_store_pipeline_stores_only_the_articles_denoise_made(tmp_path: Path) -> None:
    """A spider's other items with a url and a text (its list of tags) are not articles:
    once stored, one overwrote or stood beside the article row of its page."""
    db_url, crawler, extract, store = _both_pipelines(tmp_path)
    tags = {"url": "http://news.example/tags/", "kind": "tags", "text": "city, housing"}
    same_page = {"url": ARTICLE_URL, "kind": "tags", "text": "city, housing"}

    async def main() -> None:
        try:
            for item in (tags, same_page):
                assert await store.process_item(item) is item  # passed on, untouched
            article = await extract.process_item(page_item(html_response()))
            await store.process_item(article)
            await store.close_spider()
        finally:
            await close(crawler)

    run(main)
    rows = _rows(db_url)
    assert list(rows) == [ARTICLE_URL]
    assert "three hundred affordable homes" in rows[ARTICLE_URL][1]
    assert crawler.stats.get_value("denoise/store/skipped_other_items") == 2
    assert not DenoiseRuntime.for_crawler(crawler)._extracted  # nothing held on to


def test_store_pipeline_stores_an_article_a_pipeline_between_copied(tmp_path: Path) -> None:
    """Articles were recognised by identity: a pipeline returning ``dict(item)`` made every
    article a foreign item, and nothing was stored."""
    db_url, crawler, extract, store = _both_pipelines(tmp_path)

    async def main() -> None:
        try:
            article = await extract.process_item(page_item(html_response()))
            await store.process_item(dict(article))
            await store.close_spider()
        finally:
            await close(crawler)

    run(main)
    assert list(_rows(db_url)) == [ARTICLE_URL]
    assert crawler.stats.get_value("denoise/store/skipped_other_items") is None


def test_an_article_dropped_after_the_store_does_not_cost_its_twin_its_row(
    tmp_path: Path,
) -> None:
    """Scrapy's item_dropped fires for drops after StorePipeline too: forgetting the dropped
    article there made an identical copy still in flight a foreign item."""
    db_url, crawler, extract, store = _both_pipelines(tmp_path, DENOISE_DROP_DUPLICATES=False)

    async def main() -> None:
        try:
            first = await extract.process_item(page_item(html_response()))
            twin = await extract.process_item(page_item(html_response()))
            await store.process_item(first)
            crawler.signals.send_catch_log(
                signals.item_dropped, item=first, response=None, exception=DropItem("later")
            )
            await store.process_item(twin)
            await store.close_spider()
        finally:
            await close(crawler)

    run(main)
    assert list(_rows(db_url)) == [ARTICLE_URL]
    assert crawler.stats.get_value("denoise/store/skipped_other_items") is None


def test_store_pipeline_before_denoise_pipeline_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url)
    store = StorePipeline.from_crawler(crawler)
    extract = DenoisePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            for _ in range(2):
                item = await store.process_item(page_item(html_response()))
                await extract.process_item(item)
            await store.close_spider()
        finally:
            await close(crawler)

    with caplog.at_level(logging.WARNING):
        run(main)
    assert not _rows(db_url)
    warnings = [r for r in caplog.records if "runs before DenoisePipeline" in r.getMessage()]
    assert len(warnings) == 1  # once per crawl


def test_store_pipeline_without_denoise_pipeline_stores_every_article_item(
    tmp_path: Path,
) -> None:
    """A project that extracts in its spider and enables only StorePipeline (extraction
    left at its default) had every item skipped as not made by DenoisePipeline."""
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url, DENOISE_CORE_WORKER="thread")
    store = StorePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            for n in range(2):
                await store.process_item(_article(n))
            await store.close_spider()
        finally:
            await close(crawler)

    run(main)
    assert len(_rows(db_url)) == 2
    assert crawler.stats.get_value("denoise/store/skipped_other_items") is None


def test_denoise_pipeline_without_store_pipeline_holds_no_articles() -> None:
    # one page under three URLs: kept as copies, so each is an article
    crawler = crawler_for(DENOISE_STORE_ENABLED=False, DENOISE_DROP_DUPLICATES=False)
    extract = DenoisePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            for n in range(3):
                url = f"http://news.example/2024/05/story-{n}.html"
                assert "text" in await extract.process_item(page_item(html_response(url)))
        finally:
            await close(crawler)

    run(main)
    assert crawler.stats.get_value("denoise/items/extracted") == 3
    assert not DenoiseRuntime.for_crawler(crawler)._extracted


def test_store_pipeline_drops_naive_date_not_article(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    crawler = crawler_for(DENOISE_DATABASE_URL=db_url, DENOISE_EXTRACT_ENABLED=False)
    pipeline = StorePipeline.from_crawler(crawler)
    article = {**_article(0), "published": datetime(2024, 1, 1, 12, 0)}

    async def main() -> None:
        await pipeline.process_item(article)
        await pipeline.close_spider()
        await close(crawler)

    run(main)
    assert len(_rows(db_url)) == 1
    assert crawler.stats.get_value("denoise/store/naive_date_dropped") == 1


#: .NET's minimum date as a spider may set it: in year 0 once converted to UTC
DOTNET_MINIMUM = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1)))


@pytest.fixture(params=["sqlite", "postgresql"])
def articles_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database for the store pipeline, on each backend (PostgreSQL's is skipped
    without DENOISE_TEST_POSTGRES_URL)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    with scratch_database(request.getfixturevalue("postgres_url")) as url:
        yield url


def test_store_pipeline_stores_the_good_articles_of_a_batch_and_rejects_the_bad_one(
    articles_db: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One article the database refuses failed its whole batch, which was retried in front
    of the next articles and took them down too: 150 of 400 articles lost. The refused
    batch is written in parts; only the article that fails alone is left out."""
    # an article whose date reaches the database unchecked (what _published let through)
    monkeypatch.setattr(
        StorePipeline, "_published", lambda self, adapter, url: adapter.get("published")
    )
    crawler = crawler_for(
        DENOISE_DATABASE_URL=articles_db, DENOISE_STORE_BATCH=8, DENOISE_EXTRACT_ENABLED=False
    )
    pipeline = StorePipeline.from_crawler(crawler)
    bad = {**_article(5), "published": DOTNET_MINIMUM}

    async def main() -> None:
        try:
            for n in range(20):
                await pipeline.process_item(bad if n == 5 else _article(n))
            await pipeline.close_spider()
        finally:
            await close(crawler)

    with caplog.at_level(logging.ERROR):
        run(main)
    stats = crawler.stats
    assert sorted(_rows(articles_db)) == sorted(
        f"http://news.example/a{n}.html" for n in range(20) if n != 5
    )
    assert stats.get_value("denoise/store/inserted") == 19
    assert stats.get_value("denoise/store/rejected") == 1
    assert stats.get_value("denoise/store/lost") is None
    assert stats.get_value("denoise/errors/store") is None  # the database never failed
    (error,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert bad["url"] in error and "0001-01-01T00:00:00+01:00 has no UTC equivalent" in error
    assert not pipeline._unconfirmed() and not pipeline._attempts  # nothing kept to retry


def test_store_pipeline_closes_the_spider_when_the_same_articles_fail_three_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failures were counted in a row for the pipeline: any batch written between two
    attempts of a failing one reset the count, and the spider never closed."""
    _, crawler, pipeline = _store_only(tmp_path, batch=1)
    closed: list[str] = []
    monkeypatch.setattr(pipeline, "_close_spider", closed.append)
    unlucky = _article(0)["url"]
    original = CoreHost.write_articles

    def fails_on_one(host: CoreHost, batch: Any, *args: Any) -> Any:
        if any(r.url == unlucky for r in batch):
            raise OSError("connection reset")  # not the data: nothing to bisect
        return original(host, batch, *args)

    monkeypatch.setattr(CoreHost, "write_articles", fails_on_one)
    after: list[list[str]] = []

    async def main() -> None:
        try:
            await pipeline.process_item(_article(0))
            for n in range(1, 7, 2):
                # two items at once: the retry of the failed batch and one written meanwhile
                await asyncio.gather(
                    pipeline.process_item(_article(n)), pipeline.process_item(_article(n + 1))
                )
                after.append(list(closed))
            await pipeline.close_spider()
        finally:
            await close(crawler)

    run(main)
    assert after == [[], ["denoise_store_failed"], ["denoise_store_failed"] * 2]
    assert crawler.stats.get_value("denoise/store/inserted") == 3  # written meanwhile
    assert crawler.stats.get_value("denoise/errors/store") == 5
    assert crawler.stats.get_value("denoise/store/lost") == 4
    assert crawler.stats.get_value("denoise/store/rejected") is None


@pytest.mark.parametrize("published", [DOTNET_MINIMUM, "0001-01-01T00:00:00+01:00"])
def test_store_pipeline_stores_an_article_whose_date_has_no_utc_equivalent_without_it(
    articles_db: str, published: Any, caplog: pytest.LogCaptureFixture
) -> None:
    crawler = crawler_for(DENOISE_DATABASE_URL=articles_db, DENOISE_EXTRACT_ENABLED=False)
    pipeline = StorePipeline.from_crawler(crawler)
    cet = timezone(timedelta(hours=1))

    async def main() -> None:
        try:
            await pipeline.process_item({**_article(0), "published": published})
            await pipeline.process_item({**_article(1), "published": published})
            await pipeline.process_item(
                {**_article(2), "published": datetime(2024, 3, 5, tzinfo=cet)}
            )
            await pipeline.close_spider()
        finally:
            await close(crawler)

    with caplog.at_level(logging.DEBUG, logger="scrapy_denoise.integration.pipelines"):
        run(main)
    engine = create_engine(articles_db)
    try:
        with engine.connect() as conn:
            rows: dict[str, datetime | None] = dict(
                conn.execute(text("SELECT url, published FROM articles")).all()
            )
    finally:
        engine.dispose()
    assert len(rows) == 3
    assert rows[_article(0)["url"]] is None and rows[_article(1)["url"]] is None
    assert rows[_article(2)["url"]] is not None  # a date in range is kept
    assert crawler.stats.get_value("denoise/store/out_of_range_date_dropped") == 2
    assert crawler.stats.get_value("denoise/store/rejected") is None
    said = [r for r in caplog.records if "has no UTC equivalent" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.WARNING, logging.DEBUG]  # warned once
    assert _article(0)["url"] in said[0].getMessage()


# -- log line -----------------------------------------------------------------------------


def test_log_summary_names_counters() -> None:
    line = summary(
        {
            "denoise/pages/article": 7,
            "denoise/pages/noise/url_pattern": 3,
            "denoise/pages/noise/little_text": 1,
            "denoise/items/extracted": 6,
            "denoise/items/dropped_short_text": 1,
            "denoise/store/inserted": 6,
            "denoise/errors/extract": 2,
        }
    )
    assert "7 article pages" in line
    assert "4 noise pages (url_pattern 3, little_text 1)" in line
    assert "stored 6 new" in line
    assert "unchanged; 0 page warnings; 2 errors" in line  # no copies, nothing kept


@pytest.mark.parametrize(
    ("stats", "said"),
    [
        # 247 extracted, "5 new, 51 updated, 189 unchanged" did not add up: 2 were copies
        (
            {
                "denoise/items/extracted": 248,
                "denoise/store/inserted": 5,
                "denoise/store/updated": 51,
                "denoise/store/unchanged": 189,
                "denoise/store/duplicates": 2,
                "denoise/store/kept_damaged": 1,
                "denoise/warnings/binary": 3,
                "denoise/warnings/truncated": 1,
            },
            "stored 5 new, 51 updated, 189 unchanged, 2 copies not stored, 1 kept (damaged "
            "page); 4 page warnings;",
        ),
        # articles the database refused, and articles never written
        (
            {
                "denoise/items/extracted": 10,
                "denoise/store/inserted": 7,
                "denoise/store/rejected": 1,
                "denoise/store/lost": 2,
            },
            "stored 7 new, 0 updated, 0 unchanged, 1 rejected by the database, 2 not written;",
        ),
    ],
    ids=["copies-and-damaged", "rejected-and-lost"],
)
def test_log_summary_accounts_for_every_article_given_to_the_store(
    stats: dict[str, int], said: str
) -> None:
    assert said in summary(stats)


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({"DENOISE_DATABASE_URL": ""}, "DENOISE_DATABASE_URL is empty"),
        ({"DENOISE_STORE_ENABLED": False}, "DENOISE_STORE_ENABLED is off"),
        ({"DENOISE_DATABASE_URL": "sqlite://"}, "no StorePipeline in ITEM_PIPELINES"),
    ],
)
def test_log_line_of_a_crawl_that_stores_nothing_says_why(
    settings: dict[str, Any], reason: str
) -> None:
    stats = {"denoise/pages/article": 3, "denoise/items/extracted": 3}
    line = DenoiseLogStats.from_crawler(crawler_for(**settings))
    assert line.not_stored() == reason
    assert f"; not stored ({reason}); " in summary(stats, not_stored=reason)
    assert "stored 0 new" not in summary(stats, not_stored=reason)


def test_log_line_of_a_crawl_with_a_store_pipeline_counts_what_it_stored() -> None:
    crawler = crawler_for(DENOISE_DATABASE_URL="sqlite://")
    line = DenoiseLogStats.from_crawler(crawler)
    StorePipeline.from_crawler(crawler)  # Scrapy builds the pipelines after the extensions
    assert line.not_stored() is None
    assert "; stored 0 new, 0 updated, 0 unchanged; " in summary({}, not_stored=None)


def test_a_page_with_load_warnings_is_named_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """The counters alone never said which page was binary, cut or undecodable."""
    crawler = crawler_for(DENOISE_CORE_WORKER="thread")
    mw = PageFilterMiddleware.from_crawler(crawler)
    url = "http://news.example/2024/01/02/scan.html"

    async def main() -> None:
        try:
            await classify(mw, html_response(url, b"%PDF-1.7\n" + bytes(range(256)) * 40))
        finally:
            await close(crawler)

    with caplog.at_level(logging.INFO, logger="scrapy_denoise"):
        run(main)
    assert crawler.stats.get_value("denoise/warnings/binary") == 1
    assert f"page loaded with warnings (binary): {url}" in caplog.text


def test_the_core_is_sent_no_more_of_a_body_than_loading_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 943 MB decompressed body went whole to the core's process to have its first 5 MB
    read; the one byte over the limit keeps loading's ``truncated`` warning."""
    sent: list[int] = []
    real_run = DenoiseRuntime._run

    async def spy(self: DenoiseRuntime, op: str, *args: Any, **kwargs: Any) -> Any:
        sent.append(len(args[0]))
        return await real_run(self, op, *args, **kwargs)

    monkeypatch.setattr(DenoiseRuntime, "_run", spy)
    limit = len(ARTICLE_HTML) // 2
    crawler = crawler_for(DENOISE_MAX_BYTES=limit, DENOISE_CORE_WORKER="thread")
    mw = PageFilterMiddleware.from_crawler(crawler)
    pipeline = DenoisePipeline.from_crawler(crawler)
    huge = ARTICLE_HTML + b"<p>padding</p>" * 10_000

    async def main() -> None:
        try:
            response = await classify(mw, html_response(body=huge))
            await pipeline.process_item(page_item(response))
        finally:
            await close(crawler)

    run(main)
    assert sent == [limit + 1, limit + 1]
    assert crawler.stats.get_value("denoise/warnings/truncated") == 1


# -- renamed item fields ------------------------------------------------------------------

_RENAMED = {"url": "page_url", "verdict": "page_verdict", "headers": None}


@pytest.mark.parametrize(
    "fields",
    [
        Settings({"DENOISE_FIELDS": _RENAMED}),
        _RENAMED,
        '{"url": "page_url", "verdict": "page_verdict", "headers": null}',
    ],
    ids=["settings", "dict", "json"],
)
def test_page_item_uses_the_field_names_the_setting_gives(fields: Any) -> None:
    verdict = {"is_noise": False, "score": 0.0, "reason": "article"}
    item = page_item(html_response(denoise=verdict), fields=fields)
    assert item == {"page_url": ARTICLE_URL, "body": ARTICLE_HTML, "page_verdict": verdict}


def test_page_item_refuses_two_values_in_one_field() -> None:
    with pytest.raises(ValueError, match="invalid DENOISE_FIELDS setting: 'url' and 'verdict'"):
        page_item(html_response(), fields={"verdict": "url"})


def test_renamed_fields_reach_the_pipeline_through_the_spider_settings() -> None:
    crawler = crawler_for(DENOISE_FIELDS=_RENAMED)
    verdict = {"is_noise": False, "score": 0.0, "reason": "article"}
    item = page_item(html_response(denoise=verdict), fields=crawler.settings)
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> Any:
        try:
            return await pipeline.process_item(item)
        finally:
            await close(crawler)

    article = run(main)
    assert "three hundred affordable homes" in article["text"]
    assert article["page_url"] == ARTICLE_URL
    assert article["page_verdict"] == verdict  # the page filter's, not judged again
    assert crawler.stats.get_value("denoise/items/extracted") == 1


def test_pipeline_warns_once_when_items_ignore_renamed_fields(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """DENOISE_FIELDS renamed the url field, but the spider built its items with the
    default names: before, nothing was stored and nothing said why."""
    crawler = crawler_for(DENOISE_FIELDS={"url": "link"}, DENOISE_CORE_WORKER="thread")
    pipeline = DenoisePipeline.from_crawler(crawler)

    async def main() -> None:
        try:
            for _ in range(2):
                await pipeline.process_item(page_item(html_response()))
        finally:
            await close(crawler)

    with caplog.at_level(logging.WARNING, logger="scrapy_denoise"):
        run(main)
    lines = [r.getMessage() for r in caplog.records if "DENOISE_FIELDS renames" in r.getMessage()]
    assert lines == [
        "page items use the default field names for url, which DENOISE_FIELDS renames: "
        "yield page_item(response, fields=self.settings) so the pipeline finds them"
    ]


def test_a_failing_last_call_is_a_warning_and_a_stat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The store pipeline's last calls on the core (rewriting the first articles, deleting
    the noise pages' rows) cannot fail the spider's close: each failure is said once and
    counted (``denoise/errors/revise``, ``denoise/errors/withdraw``)."""
    _, crawler, pipeline = _store_only(tmp_path, batch=2)

    async def broken() -> Any:
        raise OSError("disk unplugged")

    monkeypatch.setattr(pipeline.runtime, "revise_stored_texts", broken)
    monkeypatch.setattr(pipeline.runtime, "withdraw_noise_pages", broken)

    async def main() -> None:
        await pipeline.close_spider(None)
        await close(crawler)

    with caplog.at_level(logging.WARNING):
        run(main)
    assert crawler.stats.get_value("denoise/errors/revise") == 1
    assert crawler.stats.get_value("denoise/errors/withdraw") == 1
    said = sorted(r.getMessage() for r in caplog.records if "disk unplugged" in r.getMessage())
    assert said == [
        "could not delete the noise pages the crawl stored: OSError: disk unplugged",
        "could not rewrite the stored articles with what the crawl learned: "
        "OSError: disk unplugged",
    ]
