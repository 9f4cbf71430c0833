"""SiteLearner: site keys, local view vs. store, flushing, resuming, surviving SIGKILL."""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _store_helpers import (
    RESTART_FLUSH,
    dump_learning_state,
    learn_page,
    restart_learner,
    restart_worker,
)
from lxml import html
from report_pages import TOPICS

from scrapy_denoise import learning
from scrapy_denoise.document import load_document
from scrapy_denoise.learning import SiteLearner
from scrapy_denoise.methods.linestats import LineParams
from scrapy_denoise.methods.template import TemplateParams, Unit, page_units, template_lines
from scrapy_denoise.store import Store, StoreError
from scrapy_denoise.store.scratch import scratch_database

SITE = "https://daily.example"
NAV = "<ul><li><a>Home</a></li><li><a>Politics</a></li><li><a>Weather</a></li></ul>"
FOOTER = "<footer><p>© Daily Example Ltd. All rights reserved.</p></footer>"


def article(i: int) -> str:
    topic = TOPICS[i % len(TOPICS)]
    return f"""<html><body>{NAV}
<div><h1>All about the {topic}</h1><p>Reporters looked into the {topic} this week.</p>
<p>Readers wrote {i} letters on the {topic}.</p></div>
{FOOTER}</body></html>"""


def without_templates(lines: list[str], units: list[Unit]) -> list[str]:
    return [line for line, t in zip(lines, template_lines(lines, units), strict=True) if not t]


def templates_on(learner: SiteLearner, site: str, markup: str) -> set[str]:
    """Texts of the page's units that match the site's templates."""
    return {u.text for u in learner.match_templates(site, page_units(load_document(markup)))}


def learn(learner: SiteLearner, i: int, site: str = SITE) -> list[str]:
    doc = load_document(article(i))
    units = page_units(doc)
    learner.learn_templates(site, units)
    lines = [t.strip() for t in doc.text().splitlines() if t.strip()]
    lines = without_templates(lines, learner.match_templates(site, units))
    kept = learner.filter_lines(site, lines, learn=True)
    learner.record_fingerprint(f"{site}/{i}", site, "\n".join(kept))
    return kept


@pytest.fixture
def store() -> Iterator[Store]:
    with Store.open() as opened:
        yield opened


# -- site keys ------------------------------------------------------------------------


def test_site_key_is_scheme_and_host_lower_cased_without_default_port(store: Store) -> None:
    learner = SiteLearner(store)
    assert learner.site_key("HTTPS://News.Example.COM:443/a/b?x=1#f") == "https://news.example.com"
    assert learner.site_key("http://news.example.com:80/") == "http://news.example.com"
    assert learner.site_key("http://news.example.com:8080/x") == "http://news.example.com:8080"
    assert learner.site_key("https://user:pw@news.example.com/") == "https://news.example.com"
    assert learner.site_key("http://[::1]:8000/x") == "http://[::1]:8000"


def test_configured_prefixes_are_sites_of_their_own(store: Store) -> None:
    learner = SiteLearner(
        store,
        site_prefixes=["https://Portal.example/news/", "https://portal.example/news/sport/"],
    )
    assert learner.site_key("https://portal.example/news/a.html") == (
        "https://portal.example/news/"
    )
    assert learner.site_key("https://portal.example:443/news/sport/b") == (
        "https://portal.example/news/sport/"
    )
    assert learner.site_key("https://portal.example/blog/c") == "https://portal.example"
    assert learner.site_key("http://portal.example/news/a") == "http://portal.example"


# -- learning and the local view ------------------------------------------------------


def test_ten_pages_teach_the_templates_and_the_eleventh_loses_them(store: Store) -> None:
    learner = SiteLearner(store, flush_every=1000)
    for i in range(10):
        learn(learner, i)
    # 3 nav items + footer; the article's own units are not templates
    assert templates_on(learner, SITE, article(10)) == {
        "Home",
        "Politics",
        "Weather",
        "© Daily Example Ltd. All rights reserved.",
    }
    assert store.load_site(SITE).templates == ()  # nothing flushed yet
    learner.close()
    assert {t.text for t in store.load_site(SITE).templates} == {
        "Home",
        "Politics",
        "Weather",
        "© Daily Example Ltd. All rights reserved.",
    }


def test_counts_are_right_within_the_process_before_any_flush(store: Store) -> None:
    learner = SiteLearner(
        store,
        templates=TemplateParams(batch_pages=1000),
        lines=LineParams(min_pages=0),
        flush_every=1000,
    )
    first = learn(learner, 0)
    assert "Politics" in " ".join(first)
    second = learn(learner, 1)
    # Every line of page 0 that recurs on page 1 now has LC = 2 > int(1 + 1 / 3).
    assert not any("Politics" in line or "Daily Example" in line for line in second)
    assert "Readers wrote 1 letters on the harbour festival." in second
    assert store.load_site(SITE).pages_processed == 0
    learner.flush()
    snap = store.load_site(SITE)
    assert snap.pages_processed == 2
    assert max(snap.line_counts.values()) == 2


def test_flush_happens_every_flush_every_pages(store: Store) -> None:
    learner = SiteLearner(store, flush_every=5)
    for i in range(5):
        learn(learner, i)
    assert store.load_site(SITE).pages_processed == 0
    learn(learner, 5)  # its first call writes the five pages before it
    snap = store.load_site(SITE)
    assert snap.pages_processed == 5
    assert snap.batch.pages == 5
    assert len(store.page_states(f"{SITE}/{i}" for i in range(6))) == 5


def test_not_learning_changes_nothing(store: Store) -> None:
    # the paper's bound, so that a page counted by mistake would cut its shared lines
    learner = SiteLearner(store, lines=LineParams(min_pages=0))
    learn(learner, 0)
    root = html.fromstring(article(1))
    lines = [t.strip() for t in root.text_content().splitlines() if t.strip()]
    kept = learner.filter_lines(SITE, lines, learn=False)
    assert kept == lines  # LC = 1 everywhere: within the bound int(1 + 1 / 3)
    learner.close()
    assert store.load_site(SITE).pages_processed == 1


def test_pruning_reaches_the_store_and_the_local_view(store: Store) -> None:
    params = LineParams(per_pages=50, prune_divisor=10, prune_every=20)
    learner = SiteLearner(store, lines=params, flush_every=10)
    for page in range(40):
        learner.filter_lines(SITE, [f"unique {page}", "footer"], learn=True)
    learner.close()
    snap = store.load_site(SITE)
    # At RC = 40 every line with LC * 10 <= 40 is gone: all the unique lines.
    assert snap.pages_processed == 40
    assert list(snap.line_counts.values()) == [40]


def test_fingerprints_count_visits_and_changes_across_flushes(store: Store) -> None:
    learner = SiteLearner(store, flush_every=2)
    url = f"{SITE}/live"
    assert learner.page_history(url) is None

    def record(who: SiteLearner, content: str) -> tuple[int, int]:
        history = who.record_fingerprint(url, SITE, content)
        return history.visits, history.changes

    assert record(learner, "a") == (1, 0)
    assert record(learner, "a") == (2, 0)
    assert record(learner, "b") == (3, 1)  # after a flush
    assert record(learner, "c" * 500) == (4, 2)
    learner.close()
    other = SiteLearner(store)
    history = other.page_history(url)
    assert history is not None and (history.visits, history.changes) == (4, 2)
    assert record(other, "c" * 500) == (5, 2)


def test_a_fresh_learner_continues_from_the_file_including_a_half_batch(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'learned.sqlite3'}"
    with Store.open(url) as store:
        first = SiteLearner(store, owner="crawler")
        for i in range(6):
            learn(first, i)
        first.close()
    with Store.open(url) as store:
        snap = store.load_site(SITE, "crawler")
        assert (snap.pages_processed, snap.batch.pages, snap.templates) == (6, 6, ())
        assert len(snap.batch.entries) > 0
        # Another owner starts a batch of its own.
        assert store.load_site(SITE, "someone-else").batch.pages == 0
        second = SiteLearner(store, owner="crawler")
        made = [
            second.learn_templates(SITE, page_units(load_document(article(i))))
            for i in range(6, 10)
        ]
        assert made == [0, 0, 0, 4]  # the batch closes at its 10th page overall
        second.filter_lines(SITE, ["x"], learn=True)
        assert len(templates_on(second, SITE, article(6))) == 4
        second.close()
        assert store.load_site(SITE, "crawler").pages_processed == 7


def test_templates_learned_by_another_learner_arrive_after_a_flush(store: Store) -> None:
    a = SiteLearner(store, owner="a", flush_every=1000)
    b = SiteLearner(store, owner="b", flush_every=1)
    b.learn_templates("https://other.example", page_units(load_document(article(0))))
    assert templates_on(b, SITE, article(0)) == set()  # b caches SITE-less state
    for i in range(10):
        learn(a, i)
    a.flush()
    units = page_units(load_document(article(1)))
    b.learn_templates("https://other.example", units)  # flushes b
    assert len(templates_on(b, SITE, article(12))) == 4


def test_a_failed_flush_keeps_the_deltas_for_the_next(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    learner = SiteLearner(store)
    for i in range(3):
        learn(learner, i)
    real_commit = store.commit_learning

    def broken(*args: Any) -> None:
        raise StoreError("database went away")

    monkeypatch.setattr(store, "commit_learning", broken)
    with pytest.raises(StoreError):
        learner.flush()
    monkeypatch.setattr(store, "commit_learning", real_commit)
    learner.flush()
    assert store.load_site(SITE).pages_processed == 3


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest) -> Iterator[Store]:
    if request.param == "sqlite":
        with Store.open() as opened:
            yield opened
        return
    with (
        scratch_database(request.getfixturevalue("postgres_url")) as url,
        Store.open(url) as opened,
    ):
        yield opened


@pytest.mark.parametrize("flush_every", [1, 100])  # the store's SQL, the learner's Python
def test_a_visit_of_another_fingerprint_basis_is_not_counted(
    any_store: Store, flush_every: int
) -> None:
    """A page hashed whole as a noise page on one visit and on its extracted text as an
    article on the next changed verdict, not content: that visit is counted neither as a
    change nor as a visit. Counted as a visit, it would leave the page one change short of
    ``changes >= visits - 1`` for good: a page fingerprinted before the bases (a bare md5)
    could never be judged changing again."""
    learner = SiteLearner(any_store, flush_every=flush_every)
    url = f"{SITE}/flip"

    def record(content: str) -> tuple[int, int]:
        history = learner.record_fingerprint(url, SITE, content)
        return history.visits, history.changes

    # an index page of an older version's store: three visits, each one changed
    assert record("0cc175b9c0f1b6a831c399e269772661") == (1, 0)
    assert record("92eb5ffee6ae2fec3ad71c777531578f") == (2, 1)
    assert record("4a8a08f09d37b73795649038408b5f33") == (3, 2)
    assert record("main:aaaa") == (3, 2)  # the first visit with a basis: not comparable
    assert record("main:bbbb") == (4, 3)  # changing on every comparable visit still
    assert record("page:cccc") == (4, 3)  # a verdict flip
    assert record("main:bbbb") == (4, 3)
    assert record("main:bbbb") == (5, 3)
    learner.close()
    history = SiteLearner(any_store).page_history(url)
    assert history is not None and (history.visits, history.changes) == (5, 3)


def test_a_flush_commits_counts_and_fingerprints_together_or_not_at_all(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fail inside the transaction, after the site's counts were written: the fingerprints
    # (how a redelivered page is known to be counted) must not be missing while the
    # counts are in, nor the other way round.
    import scrapy_denoise.store.store as store_module

    learner = SiteLearner(store)
    for i in range(3):
        learn(learner, i)

    def broken(*args: Any) -> None:
        raise StoreError("connection lost mid-transaction")

    monkeypatch.setattr(store_module, "_record_visits", broken)
    with pytest.raises(StoreError):
        learner.flush()
    assert store.load_site(SITE).pages_processed == 0
    assert store.page_states([f"{SITE}/{i}" for i in range(3)]) == {}
    monkeypatch.undo()
    learner.flush()
    assert store.load_site(SITE).pages_processed == 3
    assert set(store.page_states([f"{SITE}/{i}" for i in range(3)])) == {
        f"{SITE}/{i}" for i in range(3)
    }


def test_an_automatic_flush_that_fails_does_not_stop_learning(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    learner = SiteLearner(store, flush_every=2)
    real_commit = store.commit_learning
    calls = 0

    def flaky(*args: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise StoreError("database went away")
        real_commit(*args)

    monkeypatch.setattr(store, "commit_learning", flaky)
    for i in range(5):  # flush points before pages 2 (fails) and 4 (succeeds)
        learn(learner, i)
    assert "could not write learned state" in caplog.text
    assert store.load_site(SITE).pages_processed == 4
    learner.close()
    assert store.load_site(SITE).pages_processed == 5


# -- restart after SIGKILL ---------------------------------------------------------------

PAGES = 60


@pytest.fixture(params=["sqlite", "postgresql"])
def restart_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'run.sqlite3'}", f"sqlite:///{tmp_path / 'ref.sqlite3'}"
        return
    admin = request.getfixturevalue("postgres_url")
    with scratch_database(admin) as run, scratch_database(admin) as ref:
        yield run, ref


def test_a_killed_learner_loses_nothing_committed_and_a_new_one_continues(
    restart_urls: tuple[str, str],
) -> None:
    url, reference_url = restart_urls
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=restart_worker, args=(url, 0, PAGES, send))
    child.start()
    send.close()
    try:
        # Kill once page 33 is done: 4 flushes (RC = 28) are committed and the next
        # template batch is 8 pages in, with more unflushed work in memory.
        while True:
            assert receive.poll(120), "learner child made no progress"
            done = receive.recv()
            assert done != -1, "child finished before it could be killed"
            if done >= 33:
                break
        child.kill()
        child.join(30)
        assert child.exitcode is not None and child.exitcode < 0  # died by signal
    finally:
        if child.is_alive():
            child.kill()
            child.join(30)

    state = dump_learning_state(url)
    ((site, committed),) = state["sites"]
    assert site == "https://news.example"
    assert committed >= 28 and committed % RESTART_FLUSH == 0
    # RC, batch and fingerprints were written by the same flushes: they agree.
    assert state["batches"] == [(site, "crawler-1", committed % 10)]
    assert bool(state["entries"]) == bool(committed % 10)
    assert len(state["pages"]) == committed
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    # A new process continues where the committed state ends ...
    restart_worker(url, committed, PAGES, None)
    # ... and ends exactly where one uninterrupted run ends.
    restart_worker(reference_url, 0, PAGES, None)
    assert dump_learning_state(url) == dump_learning_state(reference_url)


def test_restart_learner_reads_committed_state(tmp_path: Path) -> None:
    # The restart test's resumption rule (continue at page RC) depends on RC and the
    # batch moving in step; check it without a kill.
    url = f"sqlite:///{tmp_path / 'steps.sqlite3'}"
    with Store.open(url) as store:
        learner = restart_learner(store)
        for i in range(RESTART_FLUSH * 2 + 3):
            learn_page(learner, i)
        snap = store.load_site("https://news.example", "crawler-1")
        assert snap.pages_processed == RESTART_FLUSH * 2
        assert snap.batch.pages == (RESTART_FLUSH * 2) % 10


def test_prefetched_histories_are_read_in_one_query_and_equal_single_reads(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SiteLearner(store)
    for i in range(5):
        writer.record_fingerprint(f"{SITE}/{i}", SITE, "a")
    writer.record_fingerprint(f"{SITE}/0", SITE, "b")
    writer.close()
    urls = [f"{SITE}/{i}" for i in range(10)]
    expected = {url: SiteLearner(store).page_history(url) for url in urls}
    reads: list[list[str]] = []
    original = store.page_states

    def counting(wanted: Any) -> Any:
        wanted = list(wanted)
        reads.append(wanted)
        return original(wanted)

    monkeypatch.setattr(store, "page_states", counting)
    learner = SiteLearner(store)
    learner.prefetch_page_histories([*urls, urls[0]])
    learner.prefetch_page_histories(urls[:3])  # cached: no second query
    assert {url: learner.page_history(url) for url in urls} == expected
    assert reads == [urls]
    first = expected[f"{SITE}/0"]
    assert first is not None and first.changes == 1
    assert expected[f"{SITE}/9"] is None


def _visit(learner: SiteLearner, url: str, lines: list[str]) -> list[str]:
    kept = learner.filter_lines(SITE, lines, url=url)
    learner.record_fingerprint(url, SITE, "main:" + "|".join(lines), lines)
    return kept


@pytest.mark.parametrize("flush_every", [1, 100])  # the store's SQL, the learner's Python
def test_a_revisit_counts_the_lines_its_page_gained_once(
    any_store: Store, flush_every: int
) -> None:
    params = LineParams(min_pages=0)
    learner = SiteLearner(any_store, lines=params, flush_every=flush_every)
    pages = {f"{SITE}/{i}": [f"story {i} opens", f"story {i} closes"] for i in range(9)}
    for url, lines in pages.items():
        _visit(learner, url, lines)
    learner.flush()
    # A re-crawl: every story has gained the same appeal, which goes once on more than a
    # third of the site's pages; RC stays 9 (no page is new).
    appeal = "Become a member today."
    kept = [_visit(learner, url, [*lines, appeal]) for url, lines in pages.items()]
    assert [appeal in k for k in kept] == [True] * 4 + [False] * 5
    assert all(f"story {i} opens" in k for i, k in enumerate(kept))
    learner.flush()
    state = any_store.load_site(SITE)
    assert state.pages_processed == 9
    counts = {c for c in state.line_counts.values()}
    assert counts == {1, 9}
    # Visited again, nothing is counted twice, and the appeal is gone from every story.
    again = [_visit(learner, url, [*lines, appeal]) for url, lines in pages.items()]
    learner.flush()
    assert all(appeal not in k for k in again)
    assert dict(any_store.load_site(SITE).line_counts) == dict(state.line_counts)


def test_a_page_fingerprinted_without_lines_counts_none_on_its_next_visit(store: Store) -> None:
    learner = SiteLearner(store, flush_every=1)
    url = f"{SITE}/old"
    learner.record_fingerprint(url, SITE, "main:1")  # a noise page, or before schema 0004
    _visit(learner, url, ["a line", "another"])
    assert store.load_site(SITE).pages_processed == 0 and not store.load_site(SITE).line_counts
    # ... and the lines it has now are what its next visit gained from
    _visit(learner, url, ["a line", "another", "new"])
    assert sorted(store.load_site(SITE).line_counts.values()) == [1]
    assert store.page_states([url])[url].lines is not None


def test_a_url_that_has_counted_max_taught_lines_counts_no_more(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forgetting some of its keys instead let a page count a line that comes and goes on
    every return, until the line was noise on its own page."""
    monkeypatch.setattr(learning, "MAX_TAUGHT", 5)
    learner = SiteLearner(store, lines=LineParams(min_pages=0), flush_every=1)
    url = f"{SITE}/live"
    stable = [f"update {i}" for i in range(3)]
    for visit in range(6):  # the second visit's new comment fills the five keys
        _visit(learner, url, [*stable, f"comment {visit % 3}"])
    counts = store.load_site(SITE).line_counts
    assert store.load_site(SITE).pages_processed == 1
    assert sorted(counts.values()) == [1, 1, 1, 1, 1]  # stable, comments 0 and 1, not 2


def test_revisits_do_not_make_a_flush_split_a_new_page(store: Store) -> None:
    # Revisits count lines but not templates, so the line counter runs ahead of the
    # template counter; the flush it triggered at the start of filter_lines wrote a new
    # page's template batch without its fingerprint.
    learner = SiteLearner(store, flush_every=2)
    for i in range(2):
        learner.learn_templates(SITE, page_units(load_document(article(i))))
        _visit(learner, f"{SITE}/{i}", [f"story {i}"])
    learner.flush()
    for i in range(2):  # a re-crawl: the pages have gained a line
        _visit(learner, f"{SITE}/{i}", [f"story {i}", "a line the site added"])
    learner.learn_templates(SITE, page_units(load_document(article(2))))
    learner.filter_lines(SITE, ["story 2"], url=f"{SITE}/2")
    # the process dies here, before page 2's fingerprint: nothing of it may be committed
    assert store.load_site(SITE).batch.pages == 2
    assert f"{SITE}/2" not in store.page_states([f"{SITE}/2"])


def test_noise_page_fingerprints_do_not_make_a_flush_split_an_article(store: Store) -> None:
    # In a crawl noise pages are fingerprinted too (the page filter's record=True), so the
    # fingerprint counter runs ahead of the template and line counters. The flush it
    # triggered at the start of record_fingerprint then wrote an article's templates,
    # lines and RC without its fingerprint: killed before the next flush, the page was
    # counted again on the next crawl (RC and its lines twice).
    learner = SiteLearner(store, flush_every=2)
    learner.record_fingerprint(f"{SITE}/", SITE, "page:home")
    learner.record_fingerprint(f"{SITE}/tag/x/", SITE, "page:tag")
    learn(learner, 0)
    # the process dies here, without close(): what is committed must agree
    committed = store.load_site(SITE).pages_processed
    fingerprinted = store.page_states([f"{SITE}/0"])
    assert (committed == 1) == (f"{SITE}/0" in fingerprinted), (committed, fingerprinted)
