"""The distributed scheduler's Redis protocol, without crawling: atomic enqueue and pop,
processing lists, acknowledgement, redelivery after a restart, adoption of a dead worker's
requests, and the "is the whole crawl done?" test. Needs ``DENOISE_TEST_REDIS_URL``; every
test uses key names of its own and deletes them."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.test import get_crawler

redis = pytest.importorskip("redis")
pytest.importorskip("scrapy_redis")

from scrapy_denoise.integration.distributed import (  # noqa: E402
    IDLE_POLL_SECONDS,
    REDELIVERED,
    CrawlKeys,
    RedisScheduler,
    crawl_status,
    reset,
)
from scrapy_denoise.worker import ThreadWorker  # noqa: E402


class _Spider(Spider):
    name = "dist"

    def parse(self, response: Any, **kwargs: Any) -> Any:
        return None


@pytest.fixture()
def redis_url() -> str:
    url = os.environ.get("DENOISE_TEST_REDIS_URL")
    if not url:
        pytest.skip("set DENOISE_TEST_REDIS_URL to run the Redis tests")
    return url


@pytest.fixture()
def make(redis_url: str) -> Iterator[Callable[..., RedisScheduler]]:
    """Open schedulers ("workers") on one crawl's keys; everything is deleted afterwards."""
    prefix = f"denoise-unit-{uuid.uuid4().hex[:10]}"
    opened: list[RedisScheduler] = []

    def make(owner: str, **settings: Any) -> RedisScheduler:
        crawler = get_crawler(
            _Spider,
            {
                "REDIS_URL": redis_url,
                "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
                "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
                "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
                "DENOISE_OWNER": owner,
                **settings,
            },
        )
        spider = _Spider.from_crawler(crawler)
        crawler.spider = spider
        # the engine's in-progress set, empty: every taken request counts as finished
        crawler.engine = SimpleNamespace(_slot=SimpleNamespace(inprogress=set()))  # type: ignore[assignment]
        scheduler = RedisScheduler.from_crawler(crawler)
        scheduler.open(spider)
        opened.append(scheduler)
        return scheduler

    yield make
    if opened:
        first = opened[0]
        assert first.keys is not None
        for scheduler in opened:
            if scheduler._heartbeat is not None and scheduler._heartbeat.running:
                scheduler._heartbeat.stop()
        reset(first.server, first.keys)
        assert not list(first.server.scan_iter(match=f"{prefix}:*"))


def _keys(scheduler: RedisScheduler) -> CrawlKeys:
    assert scheduler.keys is not None
    return scheduler.keys


def test_enqueue_dedupes_and_pop_moves_to_processing(make: Callable[..., RedisScheduler]) -> None:
    a = make("worker-a")
    spider = a.spider
    assert a.enqueue_request(Request("http://x.test/1", callback=spider.parse))
    assert not a.enqueue_request(Request("http://x.test/1", callback=spider.parse))
    assert a.enqueue_request(Request("http://x.test/2", callback=spider.parse, priority=5))
    request = a.next_request()
    assert request is not None and request.url == "http://x.test/2"  # priority first
    status = crawl_status(a.server, _keys(a))
    assert (status.queued, status.enqueued, status.seen) == (1, 2, 2)
    assert status.processing == {"worker-a": 1} and status.popped == {"worker-a": 1}
    assert not status.done


def test_a_link_the_worker_knows_is_refused_without_asking_redis(
    make: Callable[..., RedisScheduler],
) -> None:
    a, b = make("worker-a"), make("worker-b")
    calls: list[str] = []
    for scheduler in (a, b):
        script = scheduler._scripts["enqueue"]

        def counted(_script: Any = script, _name: str = scheduler.owner, **kwargs: Any) -> Any:
            calls.append(_name)
            return _script(**kwargs)

        scheduler._scripts["enqueue"] = counted
    link = "http://x.test/about/"
    assert a.enqueue_request(Request(link, callback=a.spider.parse))
    assert not a.enqueue_request(Request(link, callback=a.spider.parse))  # known here
    assert not b.enqueue_request(Request(link, callback=b.spider.parse))  # Redis says so
    assert not b.enqueue_request(Request(link, callback=b.spider.parse))  # known now
    assert calls == ["worker-a", "worker-b"]
    assert a.enqueue_request(Request(link, callback=a.spider.parse, dont_filter=True))
    assert crawl_status(a.server, _keys(a)).queued == 2


def test_equal_priorities_are_served_newest_first_as_scrapy_does(
    make: Callable[..., RedisScheduler],
) -> None:
    """Not in the byte order of the pickled requests, which ran URLs of one length (a
    series of posts) back to back, and site learning took their shared lines for noise."""
    a = make("worker-a")
    urls = ["http://x.test/a/", "http://x.test/b/", "http://x.test/long-post-name/"]
    for url in urls:
        assert a.enqueue_request(Request(url, callback=a.spider.parse))
    assert a.enqueue_request(Request("http://x.test/top", callback=a.spider.parse, priority=1))
    assert a.enqueue_request(Request("http://x.test/low", callback=a.spider.parse, priority=-1))
    served = []
    while (request := a.next_request()) is not None:
        served.append(request.url)
    assert served == ["http://x.test/top", *reversed(urls), "http://x.test/low"]


def test_checkpoint_acknowledges_finished_requests(make: Callable[..., RedisScheduler]) -> None:
    a = make("worker-a")
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    request = a.next_request()
    assert request is not None
    inprogress = a.crawler.engine._slot.inprogress  # type: ignore[union-attr]
    inprogress.add(request)
    assert asyncio.run(a._checkpoint())
    assert crawl_status(a.server, _keys(a)).processing == {"worker-a": 1}  # still in progress
    inprogress.clear()
    assert asyncio.run(a._checkpoint())
    status = crawl_status(a.server, _keys(a))
    assert status.processing == {"worker-a": 0} and status.done


def test_restart_redelivers_unfinished_requests(make: Callable[..., RedisScheduler]) -> None:
    a = make("worker-a", DENOISE_DATABASE_URL="", DENOISE_CORE_WORKER="thread")
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    assert a.next_request() is not None
    # worker-a dies without acknowledging; its heartbeat claims a process that is gone
    a._heartbeat.stop()  # type: ignore[union-attr]
    a.server.hset(_keys(a).heartbeats, "worker-a", f"{_redis_now(a):.3f}|999999999|{_host()}")
    again = make("worker-a", DENOISE_DATABASE_URL="", DENOISE_CORE_WORKER="thread")
    assert again.stats.get_value("denoise/distributed/requeued_own") == 1
    request = again.next_request()
    assert request is not None and request.meta[REDELIVERED] is True
    assert request.callback == again.spider.parse
    # the core's worker is told, ahead of the page itself
    runtime = again.runtime
    assert runtime is not None and isinstance(runtime.worker, ThreadWorker)
    runtime.worker.submit("identity").result(timeout=30)  # calls run in order
    assert request.url in runtime.worker.host._redelivered
    runtime.worker.shutdown()


def test_owner_in_use_by_a_live_process_is_refused(make: Callable[..., RedisScheduler]) -> None:
    first = make("worker-a")
    second = make("worker-a")  # open() returns: Scrapy 2.19 cannot close from there cleanly
    assert second.next_request() is None and not second.has_pending_requests()
    assert not second.enqueue_request(Request("https://news.example/a.html"))
    with pytest.raises(CloseSpider) as refused:
        second.spider_opened(second.spider)
    assert refused.value.reason == "denoise_owner_in_use"
    first.spider_opened(first.spider)  # the owner's own worker runs on
    assert first.enqueue_request(Request("https://news.example/a.html"))


def test_two_processes_claiming_one_owner_at_one_instant_are_not_both_accepted(
    make: Callable[..., RedisScheduler],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The owner was read, then written: a second process that read before the first wrote
    (replicas started together with one configuration) was accepted too."""
    from redis import Redis

    first = make("worker-a")
    assert first.keys is not None
    heartbeats, real_hget = first.keys.heartbeats, Redis.hget

    def read_before_the_first_wrote(self: Redis, name: str, key: str) -> Any:
        return None if (name, key) == (heartbeats, "worker-a") else real_hget(self, name, key)

    monkeypatch.setattr(Redis, "hget", read_before_the_first_wrote)
    second = make("worker-a")
    with pytest.raises(CloseSpider) as refused:
        second.spider_opened(second.spider)
    assert refused.value.reason == "denoise_owner_in_use"
    assert "was claimed by another crawler as this one started" in caplog.text
    first.spider_opened(first.spider)


def test_unreachable_redis_is_named_in_one_line_before_the_crawl_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = get_crawler(
        _Spider,
        {
            "REDIS_URL": "redis://:secret@127.0.0.1:1/3",
            "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        },
    )
    with caplog.at_level(logging.ERROR), pytest.raises(redis.exceptions.ConnectionError):
        RedisScheduler.from_crawler(crawler)
    assert "cannot reach Redis at redis://127.0.0.1:1/3 (REDIS_URL): " in caplog.text
    assert "secret" not in caplog.text


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        # the docs' recipe without its DUPEFILTER_CLASS line: Scrapy's default dupefilter
        ({"REDIS_URL": "redis://127.0.0.1:1/3"}, "DUPEFILTER_CLASS is 'scrapy.dupefilters"),
        (
            {"REDIS_URL": "redis://127.0.0.1:1/3", "DUPEFILTER_CLASS": "no.such.Filter"},
            "DUPEFILTER_CLASS 'no.such.Filter' cannot be loaded",
        ),
        (
            {
                "REDIS_URL": "127.0.0.1:6379",
                "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
            },
            "REDIS_URL is not a valid Redis URL: ",
        ),
    ],
)
def test_a_wrong_dupefilter_or_redis_url_is_named_in_one_line_before_the_crawl_fails(
    settings: dict[str, Any], says: str, caplog: pytest.LogCaptureFixture
) -> None:
    crawler = get_crawler(_Spider, settings)
    with caplog.at_level(logging.ERROR), pytest.raises(ValueError, match=re.escape(says)):
        RedisScheduler.from_crawler(crawler)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and errors[0].startswith(says)


def test_idle_worker_waits_for_others_then_finishes(
    make: Callable[..., RedisScheduler], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scrapy_denoise.integration.distributed")
    a, b = make("worker-a"), make("worker-b")
    with pytest.raises(DontCloseSpider):  # nothing was ever queued: the crawl has not begun
        a.spider_idle(a.spider)
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    taken = b.next_request()
    assert taken is not None
    with pytest.raises(DontCloseSpider):  # worker-b may still yield links
        a.spider_idle(a.spider)
    assert asyncio.run(b._checkpoint())
    b.spider_idle(b.spider)  # nothing queued, nothing unfinished: done
    assert "nothing to crawl" not in caplog.text and "the crawl is done" not in caplog.text
    a.spider_idle(a.spider)  # done too; it never took a request, and says why
    assert "the crawl is done: the other workers fetched every request" in caplog.text
    assert "nothing to crawl" not in caplog.text  # it was not over when worker-a opened


def test_a_worker_opened_on_a_finished_crawl_says_there_is_nothing_to_crawl(
    make: Callable[..., RedisScheduler], caplog: pytest.LogCaptureFixture
) -> None:
    """Only a worker that finds the crawl over when it opens is told to reset the keys: a
    worker restarted after the others finished its put-back requests once was, wrongly."""
    caplog.set_level(logging.INFO, logger="scrapy_denoise.integration.distributed")
    a = make("worker-a")
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    assert a.next_request() is not None
    assert asyncio.run(a._checkpoint())
    a.spider_idle(a.spider)
    assert "nothing to crawl" not in caplog.text  # it crawled
    late = make("worker-late")
    late.spider_idle(late.spider)
    assert "nothing to crawl: the queue" in caplog.text


def test_idle_worker_polls_the_queue_sooner_than_the_engine_heartbeat(
    make: Callable[..., RedisScheduler],
) -> None:
    """An idle worker kept open asks for the next request in IDLE_POLL_SECONDS, not at the
    engine's 5-second heartbeat (a worker of three once took no request that way); a worker
    whose crawl is done schedules nothing."""
    a, b = make("worker-a"), make("worker-b")
    polls: list[float] = []
    a.crawler.engine._slot.nextcall = SimpleNamespace(schedule=polls.append)  # type: ignore[union-attr]
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    assert b.next_request() is not None
    with pytest.raises(DontCloseSpider):  # worker-b may still yield links
        a.spider_idle(a.spider)
    assert polls == [IDLE_POLL_SECONDS]
    assert asyncio.run(b._checkpoint())
    a.spider_idle(a.spider)  # the crawl is done: no further poll
    assert polls == [IDLE_POLL_SECONDS]


def test_dead_workers_requests_are_adopted(make: Callable[..., RedisScheduler]) -> None:
    a, b = make("worker-a", DENOISE_WORKER_TIMEOUT=5), make("worker-b", DENOISE_WORKER_TIMEOUT=5)
    a.enqueue_request(Request("http://x.test/1", callback=a.spider.parse))
    assert b.next_request() is not None
    b._heartbeat.stop()  # type: ignore[union-attr]
    stale = _redis_now(b) - 60
    b.server.hset(_keys(b).heartbeats, "worker-b", f"{stale:.3f}|1|elsewhere")
    with pytest.raises(DontCloseSpider):
        a.spider_idle(a.spider)  # adopts worker-b's request, which is queued again
    request = a.next_request()
    assert request is not None and request.meta[REDELIVERED] is True
    assert a.stats.get_value("denoise/distributed/adopted") == 1


def _redis_now(scheduler: RedisScheduler) -> float:
    seconds, micros = scheduler.server.time()
    return float(seconds) + micros / 1e6


def _host() -> str:
    import socket

    return socket.gethostname()


def _command(scheduler: RedisScheduler, redis_url: str, *args: str) -> list[str]:
    assert scheduler.crawler is not None
    keys = scheduler.crawler.settings  # the worker's own key templates
    return [
        *args,
        "--spider",
        scheduler.spider.name,
        "--redis-url",
        redis_url,
        "--queue-key",
        keys["SCHEDULER_QUEUE_KEY"],
        "--dupefilter-key",
        keys["SCHEDULER_DUPEFILTER_KEY"],
    ]


def test_reset_refuses_while_a_worker_is_alive(
    make: Callable[..., RedisScheduler], redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_denoise.integration.distributed import main

    worker = make("worker-a")
    assert worker.enqueue_request(Request("https://news.example/a.html"))
    assert main(_command(worker, redis_url, "reset")) == 1
    err = capsys.readouterr().err
    assert "not reset: worker worker-a of " in err and "give --force" in err
    assert crawl_status(worker.server, _keys(worker)).queued == 1  # nothing deleted
    assert main(_command(worker, redis_url, "reset", "--force")) == 0
    assert "deleted " in capsys.readouterr().out
    assert crawl_status(worker.server, _keys(worker)).queued == 0


def test_reset_and_status_take_a_fresh_heartbeat_of_an_exited_local_process_as_gone(
    make: Callable[..., RedisScheduler], redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Right after a worker was killed, its restart is let in at once (its process is gone),
    but `reset` refused for DENOISE_WORKER_TIMEOUT seconds on the same fresh heartbeat."""
    import subprocess
    import sys

    from scrapy_denoise.integration.distributed import main

    worker = make("worker-a")
    assert worker.enqueue_request(Request("https://news.example/a.html"))
    assert worker._heartbeat is not None
    worker._heartbeat.stop()
    exited = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    beat = f"{worker.server.time()[0]}.000|{int(exited.stdout)}|{_host()}"
    worker.server.hset(_keys(worker).heartbeats, "worker-a", beat)
    assert main(_command(worker, redis_url, "status")) == 0
    assert "(gone: its process on this host has exited)" in capsys.readouterr().out
    assert main(_command(worker, redis_url, "reset")) == 0
    assert "deleted " in capsys.readouterr().out


def test_status_names_the_redis_and_marks_a_silent_worker_gone(
    make: Callable[..., RedisScheduler], redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_denoise.integration.distributed import main, redis_address

    worker = make("worker-a")
    assert worker.enqueue_request(Request("https://news.example/a.html"))
    assert worker.next_request() is not None
    argv = _command(worker, redis_url, "status")
    assert main([*argv]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"redis {redis_address(worker.server)}\n")
    assert re.search(r"worker-a: 1 taken, 1 unfinished, heartbeat \d+ s ago\n", out)
    assert "1 enqueued in all, 1 URLs seen; in progress\n" in out
    # the workers' own timeout, given to them with -s, given here too
    assert worker._heartbeat is not None
    worker._heartbeat.stop()
    ten_ago = f"{worker.server.time()[0] - 10}.000|1|elsewhere"
    worker.server.hset(_keys(worker).heartbeats, "worker-a", ten_ago)
    assert main([*argv, "--worker-timeout", "5"]) == 0
    assert "(gone: over DENOISE_WORKER_TIMEOUT" in capsys.readouterr().out
    # a heartbeat older than the worker timeout (120 s by default): the process is gone
    beat = f"{worker.server.time()[0] - 3600}.000|1|elsewhere"
    worker.server.hset(_keys(worker).heartbeats, "worker-a", beat)
    assert main([*argv]) == 0
    gone = r"worker-a: 1 taken, 1 unfinished, heartbeat 360\d s ago \(gone: over DENOISE_WORKER_"
    assert re.search(gone, capsys.readouterr().out)
    assert main(_command(worker, redis_url, "reset")) == 0  # nobody alive: allowed
    capsys.readouterr()
    assert main([*argv]) == 0  # after a reset, nothing is under way
    assert "0 queued, 0 enqueued in all, 0 URLs seen; not started\n" in capsys.readouterr().out


def test_commands_say_in_one_line_when_redis_cannot_be_reached(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from scrapy_denoise.integration.distributed import main

    assert main(["status", "--spider", "news", "--redis-url", "redis://127.0.0.1:1/0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("python -m scrapy_denoise.integration.distributed status: cannot ")
    assert "redis://127.0.0.1:1/0" in err and err.count("\n") == 1


@pytest.mark.parametrize("value", ["0", "-5", "2.5", "soon"])
def test_worker_timeout_option_takes_whole_seconds_from_one(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """DENOISE_WORKER_TIMEOUT is whole seconds, at least 1: with 0 every worker looked
    gone, so reset ran under live workers."""
    from scrapy_denoise.integration.distributed import main

    with pytest.raises(SystemExit) as exit_:
        main(["status", "--spider", "news", "--worker-timeout", value])
    assert exit_.value.code == 2
    assert "--worker-timeout" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "project_settings", "message"),
    [
        (["--redis-url", "nosuch://host"], "", "Redis URL must specify"),
        ([], 'DENOISE_METHOD = "nosuchmethod"\n', "DENOISE_METHOD"),
    ],
)
def test_commands_report_an_invalid_setting_in_one_line(
    argv: list[str],
    project_settings: str,
    message: str,
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A project setting the crawl would refuse, or a REDIS_URL of no Redis scheme, ended
    the command in a traceback."""
    from scrapy_denoise.integration.distributed import main

    module = f"settings_{tmp_path.name}"  # a name of its own: imported modules are cached
    (tmp_path / f"{module}.py").write_text(project_settings, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", module)
    monkeypatch.delenv("REDIS_URL", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["status", "--spider", "news", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err


def test_commands_read_the_projects_settings_under_the_environment_and_options(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from scrapy_denoise.integration.distributed import _command_settings

    (tmp_path / "crawlsettings.py").write_text(
        'REDIS_URL = "redis://project:6379/4"\nSCHEDULER_QUEUE_KEY = "proj:%(spider)s:q"\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "crawlsettings")
    monkeypatch.delenv("REDIS_URL", raising=False)
    none = argparse.Namespace(
        redis_url=None, queue_key=None, dupefilter_key=None, worker_timeout=None
    )
    settings = _command_settings(none)
    assert settings["REDIS_URL"] == "redis://project:6379/4"
    assert settings["SCHEDULER_QUEUE_KEY"] == "proj:%(spider)s:q"
    assert CrawlKeys.for_spider(settings, "news").dupefilter == "news:dupefilter"
    monkeypatch.setenv("REDIS_URL", "redis://env:6379/5")
    assert _command_settings(none)["REDIS_URL"] == "redis://env:6379/5"
    given = argparse.Namespace(
        redis_url="redis://flag:6379/6", queue_key=None, dupefilter_key=None, worker_timeout=9
    )
    assert _command_settings(given)["REDIS_URL"] == "redis://flag:6379/6"
    assert _command_settings(given).getint("DENOISE_WORKER_TIMEOUT") == 9
