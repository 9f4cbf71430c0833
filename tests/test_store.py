"""The store: schema via Alembic, exact additive counts, batches, articles, errors."""

from __future__ import annotations

import logging
import multiprocessing
import secrets
import shutil
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta, timezone
from multiprocessing.pool import Pool
from pathlib import Path

import pytest
from _store_helpers import apply_worker, init_worker
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from scrapy_denoise.extras import install_hint
from scrapy_denoise.store import (
    SCORE_BUCKETS,
    ArticleRecord,
    BatchState,
    PageState,
    PageVisit,
    SchemaVersionError,
    SiteDelta,
    Store,
    StoreDataError,
    StoreError,
    TemplateText,
    UpsertCounts,
    VerdictCount,
    migrate,
    redact_url,
    score_bucket,
    text_hash,
)
from scrapy_denoise.store import store as store_module
from scrapy_denoise.store.schema import VERSION_TABLE, Base
from scrapy_denoise.store.scratch import scratch_database
from scrapy_denoise.store.store import stored_url

SITE = "https://news.example"
PASSWORD = "hunter2-Secret"


@pytest.fixture(scope="module")
def postgres_database(postgres_url: str) -> Iterator[str]:
    """One throwaway database for the module; tests empty its tables first."""
    with scratch_database(postgres_url) as url:
        Store.open(url).close()
        yield url


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    if request.param == "memory":
        return None
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("postgres_database")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
            conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()
    return url


@pytest.fixture
def store(store_url: str | None) -> Iterator[Store]:
    with Store.open(store_url) as opened:
        yield opened


def h(line: str) -> bytes:
    return text_hash(line)


# -- opening and schema -----------------------------------------------------------------


def test_new_database_gets_the_schema_the_models_describe(store: Store) -> None:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
        assert context.get_current_revision() == migrate.head_revision()
        assert compare_metadata(context, Base.metadata) == []


def test_schema_revision_constant_is_the_newest_script() -> None:
    assert migrate.head_revision() == migrate.SCHEMA_REVISION


def test_sqlite_file_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 's.db'}") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert (conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0) >= 1000


def test_reopening_a_file_keeps_what_was_written(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    with Store.open(url) as store:
        store.apply(SiteDelta(SITE, pages=3, line_counts={h("x"): 2}))
    with Store.open(url, create=False) as store:
        snap = store.load_site(SITE)
    assert snap.pages_processed == 3
    assert snap.line_counts == {h("x"): 2}


def test_in_memory_store_is_one_database_across_threads() -> None:
    import threading

    with Store.open() as store:
        threads = [
            threading.Thread(
                target=lambda: [
                    store.apply(SiteDelta(SITE, pages=1, line_counts={h("x"): 1}))
                    for _ in range(20)
                ]
            )
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        snap = store.load_site(SITE)
    assert snap.pages_processed == 80
    assert snap.line_counts == {h("x"): 80}


def test_unknown_revision_is_refused_with_both_revisions_named(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    Store.open(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE {VERSION_TABLE} SET version_num = '0099_from_the_future'")
    with pytest.raises(SchemaVersionError) as info:
        Store.open(f"sqlite:///{path}")
    message = str(info.value)
    assert "0099_from_the_future" in message
    assert migrate.head_revision() in message
    assert "Upgrade scrapy-denoise" in message


def test_store_tables_without_a_version_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    Store.open(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"DROP TABLE {VERSION_TABLE}")
    with pytest.raises(SchemaVersionError, match="revision is unknown"):
        Store.open(f"sqlite:///{path}")


def test_create_false_does_not_create_a_schema(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="create=True"):
        Store.open(f"sqlite:///{tmp_path / 'empty.db'}", create=False)


_NEXT_REVISION = f'''"""Add an index.

Revision ID: 0099_test
Revises: {migrate.SCHEMA_REVISION}
"""
from alembic import op

revision = "0099_test"
down_revision = "{migrate.SCHEMA_REVISION}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_test_articles_lang", "articles", ["lang"])


def downgrade() -> None:
    op.drop_index("ix_test_articles_lang", table_name="articles")
'''


def test_older_revision_is_upgraded_and_the_log_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "s.db"
    with Store.open(f"sqlite:///{path}") as store:
        store.apply(SiteDelta(SITE, pages=4))
    scripts = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS_DIR, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0099_test.py").write_text(_NEXT_REVISION)
    monkeypatch.setattr(migrate, "MIGRATIONS_DIR", scripts)
    monkeypatch.setattr(migrate, "SCHEMA_REVISION", "0099_test")
    with pytest.raises(SchemaVersionError, match="older than"):
        Store.open(f"sqlite:///{path}", create=False)
    with (
        caplog.at_level(logging.INFO, logger="scrapy_denoise.store"),
        Store.open(f"sqlite:///{path}") as store,
    ):
        assert store.load_site(SITE).pages_processed == 4
    assert any(
        "upgrading store schema" in r.getMessage() and "0099_test" in r.getMessage()
        for r in caplog.records
    )
    with sqlite3.connect(path) as conn:
        assert conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchall() == [
            ("0099_test",)
        ]
        indexes = {r[1] for r in conn.execute("PRAGMA index_list(articles)")}
    assert "ix_test_articles_lang" in indexes


def test_unreachable_database_error_hides_the_password(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = f"postgresql+psycopg://crawler:{PASSWORD}@127.0.0.1:9/news"
    with caplog.at_level(logging.DEBUG), pytest.raises(StoreError) as info:
        Store.open(url)
    message = str(info.value)
    assert "crawler:***@127.0.0.1:9/news" in message
    assert PASSWORD not in message
    assert PASSWORD not in repr(info.value)
    assert all(PASSWORD not in r.getMessage() for r in caplog.records)


def test_rejected_login_error_hides_the_password(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    bad = make_url(postgres_url).set(
        username="no_such_role_denoise", password=PASSWORD, database="no_such_db"
    )
    with pytest.raises(StoreError) as info:
        Store.open(bad.render_as_string(hide_password=False))
    assert PASSWORD not in str(info.value)
    assert "***" in str(info.value)


def test_redact_url() -> None:
    assert redact_url(f"postgresql+psycopg://u:{PASSWORD}@h:5432/db") == (
        "postgresql+psycopg://u:***@h:5432/db"
    )
    assert redact_url("sqlite:///tmp/x.db") == "sqlite:///tmp/x.db"
    assert PASSWORD not in redact_url(f"not a url://u:{PASSWORD}@host/")


def test_a_missing_postgresql_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    with pytest.raises(StoreError, match="psycopg") as info:
        Store.open(f"postgresql+psycopg://u:{PASSWORD}@127.0.0.1:9/db")
    assert f"({install_hint('postgresql')})" in str(info.value)
    assert PASSWORD not in str(info.value)


def test_unsupported_database_is_refused() -> None:
    with pytest.raises(StoreError, match="unsupported") as info:
        Store.open(f"mysql://u:{PASSWORD}@h/db")
    assert PASSWORD not in str(info.value)


# -- learning state ---------------------------------------------------------------------


def test_unknown_site_has_an_empty_snapshot(store: Store) -> None:
    snap = store.load_site("https://nowhere.example")
    assert (snap.pages_processed, dict(snap.line_counts), snap.templates) == (0, {}, ())
    assert snap.batch == BatchState()


def test_apply_adds_counts_and_replaces_the_owners_batch(store: Store) -> None:
    batch_a = BatchState(3, (TemplateText("li", "Home", 3), TemplateText("p", "foo", 1)))
    store.apply(
        SiteDelta(
            SITE,
            owner="a",
            pages=3,
            line_counts={h("x"): 3, h("y"): 1},
            line_texts={h("x"): "x"},
            templates=[TemplateText("li", "Home", 4)],
            batch=batch_a,
        )
    )
    assert (
        store.apply(
            SiteDelta(
                SITE,
                owner="b",
                pages=2,
                line_counts={h("x"): 2, h("z"): 1},
                templates=[TemplateText("li", "Home", 3), TemplateText("p", "About us", 3)],
                batch=BatchState(2, (TemplateText("div", "b's", 2),)),
            )
        )
        == 5
    )
    snap_a = store.load_site(SITE, "a")
    assert snap_a.pages_processed == 5
    assert dict(snap_a.line_counts) == {h("x"): 5, h("y"): 1, h("z"): 1}
    assert snap_a.templates == (TemplateText("li", "Home", 7), TemplateText("p", "About us", 3))
    assert snap_a.batch == batch_a
    assert store.load_site(SITE, "b").batch == BatchState(2, (TemplateText("div", "b's", 2),))
    # A new batch replaces the old one whole; no batch in the delta leaves it alone.
    store.apply(SiteDelta(SITE, owner="a", batch=BatchState(1, (TemplateText("p", "n", 1),))))
    store.apply(SiteDelta(SITE, owner="a", pages=1))
    snap_a = store.load_site(SITE, "a")
    assert snap_a.batch == BatchState(1, (TemplateText("p", "n", 1),))
    assert snap_a.pages_processed == 6


def test_prune_runs_when_rc_crosses_a_multiple(store: Store) -> None:
    common = {h(f"line {i}"): i for i in range(1, 6)}  # LC 1..5
    store.apply(SiteDelta(SITE, pages=150, line_counts=common, prune_every=100))
    # Crossing RC = 100 (now 150): rows with LC * 100 <= 150 go, i.e. LC = 1.
    assert set(store.load_site(SITE).line_counts) == {h(f"line {i}") for i in range(2, 6)}
    store.apply(SiteDelta(SITE, pages=40, prune_every=100))  # 190: no crossing
    assert len(store.load_site(SITE).line_counts) == 4
    store.apply(SiteDelta(SITE, pages=110, prune_every=100))  # 300: LC <= 3 go
    assert dict(store.load_site(SITE).line_counts) == {h("line 4"): 4, h("line 5"): 5}
    assert store.prune_lines(SITE, divisor=70) == 1  # 4 * 70 <= 300 < 5 * 70
    assert store.prune_lines("https://unknown.example") == 0


def test_fingerprints_count_visits_and_changes(store: Store) -> None:
    first = store.record_fingerprints(
        [
            PageVisit("https://n.example/a", SITE, "h1"),
            PageVisit("https://n.example/b", SITE, "h1"),
            PageVisit("https://n.example/a", SITE, "h1"),  # same content: no change
            PageVisit("https://n.example/a", SITE, "h2"),
        ]
    )
    assert {u: (s.visits, s.changes) for u, s in first.items()} == {
        "https://n.example/a": (3, 1),
        "https://n.example/b": (1, 0),
    }
    again = store.record_fingerprints([PageVisit("https://n.example/a", SITE, "h3")])
    assert again["https://n.example/a"].visits == 4
    assert again["https://n.example/a"].changes == 2
    assert again["https://n.example/a"].content_hash == "h3"
    assert store.page_states(["https://n.example/b", "https://n.example/none"]).keys() == {
        "https://n.example/b"
    }


def test_long_urls_are_stored(store: Store) -> None:
    url = "https://n.example/" + "x" * 5000
    assert store.record_fingerprints([PageVisit(url, SITE, "h")])[url].visits == 1
    counts = store.upsert_articles([ArticleRecord(url, SITE, "text")])
    assert counts == UpsertCounts(inserted=1)


def test_articles_are_inserted_updated_only_on_change(store: Store) -> None:
    cet = timezone(timedelta(hours=1))
    published = datetime(2024, 3, 5, 12, 30, tzinfo=cet)
    first = [
        ArticleRecord(f"https://n.example/{i}", SITE, f"text {i}", title="T", published=published)
        for i in range(5)
    ]
    assert store.upsert_articles(first) == UpsertCounts(inserted=5)
    second = [
        ArticleRecord("https://n.example/0", SITE, "text 0", title="T"),  # same content
        ArticleRecord("https://n.example/1", SITE, "text 1, corrected", title="T"),
        ArticleRecord("https://n.example/2", SITE, "text 2", title="New title"),
        ArticleRecord("https://n.example/9", SITE, "text 9"),
        ArticleRecord("https://n.example/9", SITE, "text 9 again"),  # same URL twice
    ]
    assert store.upsert_articles(second) == UpsertCounts(inserted=1, updated=3, unchanged=1)
    with store.engine.connect() as conn:
        rows = dict(
            (u, t) for u, t in conn.execute(text("SELECT url, text FROM articles ORDER BY url"))
        )
        assert rows["https://n.example/1"] == "text 1, corrected"
        assert rows["https://n.example/9"] == "text 9 again"
    summary = store.site_summary(SITE)
    assert summary is not None and summary.articles == 6


def test_a_rewrite_keeps_the_metadata_its_visit_did_not_find(store: Store) -> None:
    """A later visit that reads no author or date (a page served damaged, a changed
    layout) rewrites the text but does not erase what an earlier visit read; what it does
    read replaces the stored value."""
    from sqlalchemy import select

    from scrapy_denoise.store.schema import StoredArticle

    published = datetime(2024, 1, 6, 10, tzinfo=UTC)
    url = "https://n.example/2024/01/05/bridge"
    first = ArticleRecord(
        url, SITE, "text", title="Bridge", published=published, author="Jane Roe", lang="en"
    )
    assert store.upsert_articles([first]) == UpsertCounts(inserted=1)
    bare = ArticleRecord(url, SITE, "text, re-crawled")
    assert store.upsert_articles([bare]) == UpsertCounts(updated=1)
    a = StoredArticle
    query = select(a.text, a.title, a.published, a.author, a.lang)
    with store.engine.connect() as conn:
        row = conn.execute(query).one()
    assert tuple(row) == ("text, re-crawled", "Bridge", published, "Jane Roe", "en")
    found = ArticleRecord(url, SITE, "text, again", title="Bridge (updated)", author="J. Roe")
    assert store.upsert_articles([found]) == UpsertCounts(updated=1)
    with store.engine.connect() as conn:
        row = conn.execute(query).one()
    assert tuple(row) == ("text, again", "Bridge (updated)", published, "J. Roe", "en")


def _stored_urls(store: Store) -> list[str]:
    with store.engine.connect() as conn:
        return sorted(u for (u,) in conn.execute(text("SELECT url FROM articles")))


def test_a_new_url_with_a_stored_identity_is_a_duplicate_not_a_row(store: Store) -> None:
    one = "a1" * 16
    assert store.upsert_articles(
        [ArticleRecord("https://n.example/story", SITE, "text", identity=one)]
    ) == UpsertCounts(inserted=1)
    copies = [
        ArticleRecord("https://n.example/story?replytocom=3", SITE, "text", identity=one),
        # the same URL again is the article itself: rewritten on change, never a copy
        ArticleRecord("https://n.example/story", SITE, "text, corrected", identity=one),
        # another site may publish the same article
        ArticleRecord("https://other.example/story", "https://other.example", "text", identity=one),
        # no identity (too short to tell, or not extracted here): never a copy
        ArticleRecord("https://n.example/short", SITE, "text"),
        ArticleRecord("https://n.example/short?x", SITE, "text"),
    ]
    assert store.upsert_articles(copies) == UpsertCounts(inserted=3, updated=1, duplicates=1)
    assert _stored_urls(store) == [
        "https://n.example/short",
        "https://n.example/short?x",
        "https://n.example/story",
        "https://other.example/story",
    ]


def test_copies_within_one_batch_keep_the_first_url(store: Store) -> None:
    batch = [
        ArticleRecord(f"https://n.example/{name}", SITE, "text", identity=identity)
        for name, identity in [("b", "i1"), ("a", "i1"), ("c", "i2"), ("b?amp", "i1")]
    ]
    assert store.upsert_articles(batch) == UpsertCounts(inserted=2, duplicates=2)
    assert _stored_urls(store) == ["https://n.example/b", "https://n.example/c"]


def test_a_row_moves_to_the_url_that_names_itself_canonical(store: Store) -> None:
    node = ArticleRecord("https://n.example/node/173", SITE, "text", identity="i1")
    assert store.upsert_articles([node]) == UpsertCounts(inserted=1)
    alias = ArticleRecord(
        "https://n.example/news/storm", SITE, "text", identity="i1", replaces=node.url
    )
    assert store.upsert_articles([alias]) == UpsertCounts(unchanged=1)
    assert _stored_urls(store) == ["https://n.example/news/storm"]
    # both in one batch: the old URL's record goes
    other = ArticleRecord("https://n.example/node/174", SITE, "other", identity="i2")
    own = ArticleRecord(
        "https://n.example/news/flood", SITE, "other", identity="i2", replaces=other.url
    )
    assert store.upsert_articles([other, own]) == UpsertCounts(inserted=1)
    assert _stored_urls(store) == ["https://n.example/news/flood", "https://n.example/news/storm"]
    # a row already at the new URL stays where it is, and so does the old one
    third = ArticleRecord("https://n.example/node/175", SITE, "third", identity="i3")
    store.upsert_articles([third])
    taken = ArticleRecord(
        "https://n.example/news/flood", SITE, "third", identity="i3", replaces=third.url
    )
    assert store.upsert_articles([taken]) == UpsertCounts(updated=1)
    assert "https://n.example/node/175" in _stored_urls(store)


def test_a_stored_url_rewritten_into_another_identity_stays(store: Store) -> None:
    store.upsert_articles(
        [
            ArticleRecord("https://n.example/a", SITE, "first", identity="i1"),
            ArticleRecord("https://n.example/b", SITE, "second", identity="i2"),
        ]
    )
    # b now serves a's article (a redirect target, say): the row is rewritten, not lost
    again = [ArticleRecord("https://n.example/b", SITE, "first", identity="i1")]
    assert store.upsert_articles(again) == UpsertCounts(updated=1)
    assert _stored_urls(store) == ["https://n.example/a", "https://n.example/b"]


def test_a_url_rewritten_with_another_article_frees_the_old_identity(store: Store) -> None:
    def record(path: str, text_: str, identity: str) -> ArticleRecord:
        return ArticleRecord(f"https://n.example/{path}", SITE, text_, identity=identity)

    store.upsert_articles([record("live", "first story", "i1")])
    # /live now carries the second story; the first is met again under its archive URL
    # in the same batch, and stored there
    batch = [record("live", "second story", "i2"), record("archive/1", "first story", "i1")]
    assert store.upsert_articles(batch) == UpsertCounts(inserted=1, updated=1)
    # the next batch knows /live by its new identity, /archive/1 by the old one
    again = [record("live?amp", "second story", "i2"), record("archive/1?p", "first story", "i1")]
    assert store.upsert_articles(again) == UpsertCounts(duplicates=2)
    assert _stored_urls(store) == ["https://n.example/archive/1", "https://n.example/live"]


def test_an_unchanged_article_stored_without_identity_gets_it(store: Store) -> None:
    # stored before identities (or by a caller that had none): not a copy's original yet
    store.upsert_articles([ArticleRecord("https://n.example/a", SITE, "story")])
    seen_again = ArticleRecord("https://n.example/a", SITE, "story", identity="i1")
    assert store.upsert_articles([seen_again]) == UpsertCounts(unchanged=1)
    copy = ArticleRecord("https://n.example/a?utm=x", SITE, "story", identity="i1")
    assert store.upsert_articles([copy]) == UpsertCounts(duplicates=1)


def test_text_postgresql_would_refuse_is_cleaned_not_fatal(store: Store) -> None:
    bad = "nul \x00 and a lone \ud800 surrogate"
    store.apply(
        SiteDelta(
            SITE,
            pages=1,
            line_counts={h(bad): 1},
            line_texts={h(bad): bad},
            templates=[TemplateText("p", bad, 3), TemplateText("x" * 100, "long tag", 3)],
            batch=BatchState(1, (TemplateText("p", bad, 1),)),
        )
    )
    url = "https://n.example/\x00"
    counts = store.upsert_articles(
        [ArticleRecord(url, SITE, bad, title=bad, lang="x" * 40, content_hash="h" * 100)]
    )
    assert counts == UpsertCounts(inserted=1)
    snap = store.load_site(SITE)
    assert {(t.tag, t.text) for t in snap.templates} == {
        ("p", "nul  and a lone ? surrogate"),
        ("x" * 64, "long tag"),
    }
    assert snap.batch.entries[0].text == "nul  and a lone ? surrogate"
    assert len(store.record_fingerprints([PageVisit(url, SITE, "c" * 100)])) == 1


def test_published_dates_keep_the_instant_and_must_be_aware(store: Store) -> None:
    from sqlalchemy import select

    from scrapy_denoise.store.schema import StoredArticle

    cet = timezone(timedelta(hours=1))
    store.upsert_articles(
        [
            ArticleRecord(
                "https://n.example/t", SITE, "t", published=datetime(2024, 3, 5, 12, tzinfo=cet)
            )
        ]
    )
    with store.engine.connect() as conn:
        published = conn.execute(select(StoredArticle.published)).scalar_one()
    assert published == datetime(2024, 3, 5, 11, tzinfo=UTC)
    assert published.tzinfo is not None
    with pytest.raises(ValueError, match="timezone-aware"):
        store.upsert_articles(
            [ArticleRecord("https://n.example/n", SITE, "t", published=datetime(2024, 3, 5))]
        )


def test_a_date_with_no_utc_equivalent_fails_the_call_as_refused_data(store: Store) -> None:
    """.NET's minimum date 0001-01-01T00:00:00+01:00 is in year 0 in UTC: SQLAlchemy's
    StatementError around an OverflowError escaped the store, neither a StoreError nor
    telling its caller that retrying could not help."""
    dotnet_minimum = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1)))
    batch = [
        ArticleRecord("https://n.example/good", SITE, "t"),
        ArticleRecord("https://n.example/bad", SITE, "t", published=dotnet_minimum),
    ]
    with pytest.raises(StoreDataError, match=r"0001-01-01T00:00:00\+01:00 has no UTC") as info:
        store.upsert_articles(batch)
    assert "[SQL" not in str(info.value)  # not the statement, with every text it binds
    assert _stored_urls(store) == []  # one transaction: all or nothing
    assert store.upsert_articles(batch[:1]) == UpsertCounts(inserted=1)


def test_refused_data_and_a_failing_database_are_told_apart(store: Store) -> None:
    def run(sql: str) -> None:
        store._run(lambda conn: conn.execute(text(sql)), write=True, what="save")

    with pytest.raises(StoreDataError, match="store save failed"):
        run("INSERT INTO sites (key) VALUES (NULL)")  # IntegrityError: a NOT NULL column
    with pytest.raises(StoreError) as info:
        run("SELECT * FROM no_such_table")  # the database, not the data
    assert not isinstance(info.value, StoreDataError)


def test_summaries_show_counts_and_the_most_frequent_lines(store: Store) -> None:
    long_line = "Subscribe " * 100
    store.apply(
        SiteDelta(
            SITE,
            pages=10,
            line_counts={h("a"): 2, h("footer"): 9, h(long_line): 5},
            line_texts={h("footer"): "footer", h(long_line): long_line},
            templates=[TemplateText("li", "Home", 3)],
        )
    )
    store.apply(SiteDelta("https://other.example", pages=1))
    store.record_fingerprints([PageVisit("https://news.example/1", SITE, "h")])
    summaries = store.site_summaries(top_lines=2)
    assert [s.site for s in summaries] == [SITE, "https://other.example"]
    top = summaries[0]
    assert (top.pages_processed, top.templates, top.fingerprints, top.articles) == (10, 1, 1, 0)
    assert [(line.count, line.text) for line in top.top_lines] == [
        (9, "footer"),
        (5, long_line[:500]),
    ]
    assert store.site_summary("https://nowhere.example") is None


# -- page filter verdicts -----------------------------------------------------------------


def test_verdicts_add_up_per_site_reason_and_bucket(store: Store) -> None:
    other = "https://other.example"
    store.record_fingerprints(
        [],
        [
            VerdictCount(SITE, True, "url_pattern", 19, 3),
            VerdictCount(SITE, False, "model", 2, 5),
            VerdictCount(SITE, True, "url_pattern", 19, 4),  # same key in one batch
            VerdictCount(other, True, "model", 12, 1),
            VerdictCount(SITE, False, "model", 3, 0),  # nothing to add
        ],
    )
    store.record_fingerprints(
        [PageVisit(f"{SITE}/tag/x", SITE, "h")], [VerdictCount(SITE, True, "url_pattern", 19, 2)]
    )
    assert store.verdict_counts(SITE) == [
        VerdictCount(SITE, False, "model", 2, 5),
        VerdictCount(SITE, True, "url_pattern", 19, 9),
    ]
    assert store.verdict_counts() == [
        VerdictCount(SITE, False, "model", 2, 5),
        VerdictCount(SITE, True, "url_pattern", 19, 9),
        VerdictCount(other, True, "model", 12, 1),
    ]
    assert store.page_states([f"{SITE}/tag/x"])[f"{SITE}/tag/x"].visits == 1


def test_verdict_reasons_and_buckets_out_of_range_are_not_fatal(store: Store) -> None:
    store.record_fingerprints(
        [],
        [
            VerdictCount(SITE, True, "r\x00" + "x" * 100, 0, 1),
            VerdictCount(SITE, False, "model", 70_000, 2),
            VerdictCount(SITE, False, "model", -3, 4),
        ],
    )
    rows = {(v.is_noise, v.score_bucket): v for v in store.verdict_counts(SITE)}
    assert set(rows) == {(True, 0), (False, SCORE_BUCKETS - 1), (False, 0)}
    assert rows[(True, 0)].reason == "r" + "x" * 62  # cut to 64, then NUL dropped
    assert rows[(False, SCORE_BUCKETS - 1)].count == 2
    assert rows[(False, 0)].count == 4


def test_score_buckets_cover_zero_to_one_and_clamp_the_rest() -> None:
    assert [score_bucket(s) for s in (0.0, 0.049, 0.05, 0.5, 0.999, 1.0)] == [0, 0, 1, 10, 19, 19]
    assert [score_bucket(s) for s in (-0.5, 7.0, float("nan"))] == [0, SCORE_BUCKETS - 1, 0]


def _database_at(url: str, revision: str) -> None:
    from alembic import command

    command.upgrade(migrate.alembic_config(url), revision)


@pytest.mark.parametrize(
    "revision", ["0001_initial", "0002_page_verdicts", "0003_article_identity"]
)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_older_database_upgrades_to_the_newest_revision_keeping_its_data(
    backend: str, revision: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with ExitStack() as stack:
        if backend == "sqlite":
            url = f"sqlite:///{tmp_path / 'old.db'}"
        else:
            admin: str = request.getfixturevalue("postgres_url")
            url = stack.enter_context(scratch_database(admin))
        _database_at(url, revision)
        engine = create_engine(url)
        stack.callback(engine.dispose)
        with engine.begin() as conn:
            assert conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar() == (
                revision
            )
            site_id = conn.execute(
                text(
                    "INSERT INTO sites (key, pages_processed, created_at) VALUES "
                    "(:k, 7, CURRENT_TIMESTAMP) RETURNING id"
                ),
                {"k": SITE},
            ).scalar_one()
            conn.execute(
                text(
                    "INSERT INTO articles (url, url_hash, site_id, text, fetched_at, "
                    "updated_at, content_hash) VALUES (:u, :h, :s, 'old text', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'c')"
                ),
                {
                    "u": "https://news.example/old",
                    "h": text_hash("https://news.example/old"),
                    "s": site_id,
                },
            )
            conn.execute(
                text(
                    "INSERT INTO page_fingerprints (url, url_hash, site_id, content_hash, "
                    "visits, changes, first_seen, last_seen) VALUES (:u, :h, :s, 'main:1', "
                    "2, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {
                    "u": "https://news.example/old",
                    "h": text_hash("https://news.example/old"),
                    "s": site_id,
                },
            )
        with pytest.raises(SchemaVersionError, match="older than"):
            Store.open(url, create=False)
        with Store.open(url) as store:
            assert store.load_site(SITE).pages_processed == 7
            # a page counted before the counted lines were kept: its next visit records them
            old_page = store.page_states(["https://news.example/old"])
            assert old_page == {"https://news.example/old": PageState("main:1", 2, 0, None)}
            store.record_fingerprints([], [VerdictCount(SITE, True, "little_text", 19, 2)])
            assert store.verdict_counts() == [VerdictCount(SITE, True, "little_text", 19, 2)]
            # A row stored before identities has none, so nothing is taken for its copy.
            copy = ArticleRecord("https://news.example/old?p=1", SITE, "old text", identity="x")
            assert store.upsert_articles([copy]) == UpsertCounts(inserted=1)
            summary = store.site_summary(SITE)
            assert summary is not None and summary.articles == 2
            with store.engine.connect() as conn:
                context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
                assert context.get_current_revision() == migrate.SCHEMA_REVISION
                assert compare_metadata(context, Base.metadata) == []


# -- concurrency --------------------------------------------------------------------------

WORKERS = 4


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    """Four spawned worker processes, started once for the module's concurrency tests."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(WORKERS, initializer=init_worker, initargs=(ctx.Barrier(WORKERS),)) as p:
        yield p


def _workload(
    workers: int,
) -> tuple[
    list[list[SiteDelta]],
    list[list[list[PageVisit]]],
    list[list[list[ArticleRecord]]],
    list[list[list[VerdictCount]]],
    dict[str, object],
]:
    """Deltas, visits with verdicts, and articles dealt round-robin to ``workers``
    processes, with heavy key overlap, and the totals one process applying all of it must
    end with."""
    sites = [SITE, "https://other.example"]
    deltas = [
        SiteDelta(
            sites[i % 2],
            owner=f"w{i % workers}",
            pages=1 + i % 3,
            line_counts={h(f"line {(i + k) % 40}"): 1 + k % 2 for k in range(25)},
            templates=[TemplateText("li", f"Menu {(i + k) % 7}", 1) for k in range(3)],
            batch=BatchState(i, (TemplateText("p", f"entry {i}", 1),)),
        )
        for i in range(40)
    ]
    # Each URL is visited with a new hash each time, so `changes` = visits - 1 whatever
    # order the processes interleave in.
    visits = [
        [PageVisit(f"https://n.example/p{(i * 5 + k) % 60}", SITE, f"h{i}-{k}") for k in range(5)]
        for i in range(20)
    ]
    # Verdict counters of two sites hit the same few keys from every batch.
    verdicts = [
        [
            VerdictCount(sites[(i + k) % 2], k % 3 == 0, ("model", "url_pattern")[k % 2], k % 4, k)
            for k in range(1, 7)
        ]
        for i in range(20)
    ]
    # Each URL appears twice: once with a different hash (1 insert + 1 update whichever
    # comes first) or the same hash (1 insert + 1 unchanged). Each batch also holds three
    # copies of six stories, each under a URL of its own: one row per story, whichever
    # process stores it first, and the other 42 are duplicates.
    articles = [
        [
            ArticleRecord(
                f"https://n.example/a{j}",
                SITE,
                f"body {j} " + ("v2" if (i >= 8 and j % 2) else "v1"),
            )
            for j in range((i % 8) * 5, (i % 8) * 5 + 5)
        ]
        + [
            ArticleRecord(
                f"https://n.example/story{(i + k) % 6}?copy={i}",
                SITE,
                f"story {(i + k) % 6}",
                identity=f"story {(i + k) % 6}",
            )
            for k in range(3)
        ]
        for i in range(16)
    ]
    lines: Counter[tuple[str, bytes]] = Counter()
    rc: Counter[str] = Counter()
    templates: Counter[tuple[str, str]] = Counter()
    for d in deltas:
        rc[d.site] += d.pages
        for key, n in d.line_counts.items():
            lines[(d.site, key)] += n
        for t in d.templates:
            templates[(d.site, t.text)] += t.frequency
    batches = {(d.site, d.owner): d.batch.pages for d in deltas if d.batch is not None}
    visit_counts = Counter(v.url for batch in visits for v in batch)
    verdict_counts: Counter[tuple[str, bool, str, int]] = Counter()
    for batch in verdicts:
        for v in batch:
            verdict_counts[(v.site, v.is_noise, v.reason, v.score_bucket)] += v.count
    expected: dict[str, object] = {
        "rc": dict(rc),
        "lines": dict(lines),
        "templates": dict(templates),
        "batches": batches,
        "pages": {u: (n, n - 1) for u, n in visit_counts.items()},
        "verdicts": dict(verdict_counts),
        "articles": (46, 20, 20, 42),
    }
    deal = lambda items: [items[w::workers] for w in range(workers)]  # noqa: E731
    return deal(deltas), deal(visits), deal(articles), deal(verdicts), expected


def _observed(url: str) -> dict[str, object]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rc = {k: n for k, n in conn.execute(text("SELECT key, pages_processed FROM sites"))}
            lines = {
                (site, bytes(line_hash)): count
                for site, line_hash, count in conn.execute(
                    text(
                        "SELECT s.key, l.line_hash, l.count FROM line_stats l "
                        "JOIN sites s ON s.id = l.site_id"
                    )
                )
            }
            templates = {
                (site, t): f
                for site, t, f in conn.execute(
                    text(
                        "SELECT s.key, t.text, t.frequency FROM templates t "
                        "JOIN sites s ON s.id = t.site_id"
                    )
                )
            }
            pages = {
                u: (v, c)
                for u, v, c in conn.execute(
                    text("SELECT url, visits, changes FROM page_fingerprints")
                )
            }
            batches = {
                (site, owner): pages
                for site, owner, pages in conn.execute(
                    text(
                        "SELECT s.key, b.owner, b.pages FROM template_batches b "
                        "JOIN sites s ON s.id = b.site_id"
                    )
                )
            }
            verdicts = {
                (site, bool(noise), reason, bucket): n
                for site, noise, reason, bucket, n in conn.execute(
                    text(
                        "SELECT s.key, v.is_noise, v.reason, v.score_bucket, v.count "
                        "FROM page_verdicts v JOIN sites s ON s.id = v.site_id"
                    )
                )
            }
            entries = conn.execute(text("SELECT count(*) FROM template_batch_entries")).scalar_one()
            n_articles = conn.execute(text("SELECT count(*) FROM articles")).scalar_one()
    finally:
        engine.dispose()
    return {
        "rc": rc,
        "lines": lines,
        "templates": templates,
        "batches": batches,
        "entries": entries,
        "pages": pages,
        "verdicts": verdicts,
        "n": n_articles,
    }


def _run_concurrently(pool: Pool, url: str) -> None:
    deltas, visits, articles, verdicts, expected = _workload(WORKERS)
    results = pool.starmap(
        apply_worker,
        [(url, deltas[w], visits[w], articles[w], verdicts[w]) for w in range(WORKERS)],
        chunksize=1,
    )
    observed = _observed(url)
    assert observed["rc"] == expected["rc"]
    assert observed["lines"] == expected["lines"]
    assert observed["templates"] == expected["templates"]
    assert observed["batches"] == expected["batches"]
    assert observed["entries"] == len(expected["batches"])  # type: ignore[arg-type]
    assert observed["pages"] == expected["pages"]
    assert observed["verdicts"] == expected["verdicts"]
    assert observed["n"] == 46
    totals = tuple(sum(r[i] for r in results) for i in range(4))
    assert totals == expected["articles"]


def test_four_processes_on_one_postgresql_database_count_exactly(
    postgres_url: str, pool: Pool
) -> None:
    with scratch_database(postgres_url) as url:
        _run_concurrently(pool, url)


def test_four_processes_on_one_sqlite_file_count_exactly(tmp_path: Path, pool: Pool) -> None:
    _run_concurrently(pool, f"sqlite:///{tmp_path / 'shared.sqlite3'}")


def test_one_process_gives_the_same_totals(tmp_path: Path) -> None:
    # The reference the concurrent runs are compared with is computed in Python; check it
    # against a single process applying everything.
    url = f"sqlite:///{tmp_path / 'single.sqlite3'}"
    deltas, visits, articles, verdicts, expected = _workload(1)
    assert apply_worker(url, deltas[0], visits[0], articles[0], verdicts[0]) == expected["articles"]
    observed = _observed(url)
    for key in ("rc", "lines", "templates", "batches", "pages", "verdicts"):
        assert observed[key] == expected[key], key


def test_creating_a_schema_logs_one_line_of_ours_not_alembics_steps(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        Store.open(f"sqlite:///{tmp_path / 'quiet.db'}").close()
    names = [r.name for r in caplog.records]
    assert "scrapy_denoise.store.migrate" in names
    assert not [n for n in names if n.startswith("alembic")]
    # a level the user gave alembic's logger is theirs
    alembic_log = logging.getLogger("alembic")
    alembic_log.setLevel(logging.INFO)
    try:
        with caplog.at_level(logging.INFO):
            Store.open(f"sqlite:///{tmp_path / 'loud.db'}").close()
        assert any(r.name.startswith("alembic") for r in caplog.records)
    finally:
        alembic_log.setLevel(logging.NOTSET)
    assert alembic_log.level == logging.NOTSET


def test_a_damaged_text_is_stored_for_a_new_url_but_never_rewrites_a_stored_one(
    store: Store,
) -> None:
    """A page served broken on a re-crawl (bytes no encoding reads) must not destroy the
    text an earlier crawl read whole; as a new URL it is still better than nothing."""
    good = "The council approved the plan on Tuesday after a long debate. " * 5
    damaged = good[:200] + "\ufffd" * 20  # 20 of 220 characters: 9 %
    url = "https://n.example/story"
    assert store.upsert_articles([ArticleRecord(url, SITE, good)]) == UpsertCounts(inserted=1)
    again = [ArticleRecord(url, SITE, damaged), ArticleRecord(url + "2", SITE, damaged)]
    assert store.upsert_articles(again) == UpsertCounts(inserted=1, kept_damaged=1)
    with store.engine.connect() as conn:
        stored = {u: t for u, t in conn.execute(text("SELECT url, text FROM articles"))}
    assert stored == {url: good, url + "2": damaged}
    # a few replacement characters in a real text are no damage: the row is rewritten
    edited = good + " A correction: the vote was seven to two \ufffd."
    assert store.upsert_articles([ArticleRecord(url, SITE, edited)]) == UpsertCounts(updated=1)


def test_an_article_under_its_directory_index_file_is_the_same_row(store: Store) -> None:
    """Met first under ``/post/index.html``, an article edited later was a second row and
    the ``/post/`` row kept the old text (a re-crawling user's daily crawls)."""
    alias, real = "https://n.example/post/index.html", "https://n.example/post/"
    assert store.upsert_articles([ArticleRecord(alias, SITE, "first text", identity="i1")]) == (
        UpsertCounts(inserted=1)
    )
    edited = [ArticleRecord(alias, SITE, "edited text", identity="i2")]
    assert store.upsert_articles(edited) == UpsertCounts(updated=1)
    again = [ArticleRecord(real, SITE, "edited text", identity="i2")]
    assert store.upsert_articles(again) == UpsertCounts(unchanged=1)
    assert _stored_urls(store) == [real]
    # another index file is another page only in its directory
    other = [ArticleRecord("https://n.example/post/index.php?id=2", SITE, "x", identity="i3")]
    assert store.upsert_articles(other) == UpsertCounts(inserted=1)
    assert _stored_urls(store) == [real, "https://n.example/post/?id=2"]


@pytest.mark.parametrize(
    ("url", "stored"),
    [
        ("https://n.example/story?utm_source=mail", "https://n.example/story"),
        ("https://n.example/s?id=3&UTM_Medium=x&a=1&a=2#c", "https://n.example/s?id=3&a=1&a=2#c"),
        ("https://n.example/s?fbclid=Iw&q=caf%C3%A9&gclid", "https://n.example/s?q=caf%C3%A9"),
        ("https://n.example/index.html?utm_campaign=z", "https://n.example/"),
        ("https://n.example/s?notutm_source=1&x_fbclid=2", None),  # not tracking parameters
        ("https://n.example/s?ref=home", None),  # may select content: kept
    ],
)
def test_tracking_parameters_are_not_part_of_the_stored_url(url: str, stored: str | None) -> None:
    assert stored_url(url) == (stored or url)


def test_a_story_met_first_through_a_tracking_link_is_stored_under_its_own_url(
    store: Store,
) -> None:
    """A newsletter's redirect reached ``story?utm_source=x`` first: that URL was stored and
    the clean one dropped as its copy."""
    tracked = [ArticleRecord("https://n.example/story?utm_source=x", SITE, "t", identity="i")]
    assert store.upsert_articles(tracked) == UpsertCounts(inserted=1)
    clean = [ArticleRecord("https://n.example/story", SITE, "t", identity="i")]
    assert store.upsert_articles(clean) == UpsertCounts(unchanged=1)
    assert _stored_urls(store) == ["https://n.example/story"]


def test_withdrawing_an_article_deletes_its_row_under_the_stored_url(store: Store) -> None:
    url = "https://n.example/about/index.html"
    store.upsert_articles([ArticleRecord(url, SITE, "t"), ArticleRecord(url + "x", SITE, "t")])
    assert store.withdraw_article("https://n.example/about/?utm_medium=footer")
    assert not store.withdraw_article(url)  # gone already
    assert _stored_urls(store) == [url + "x"]


def test_articles_given_as_a_generator_are_all_stored(store: Store) -> None:
    """The timezone checks spent a generator, and nothing was stored, without an error."""
    records = (ArticleRecord(f"https://n.example/{i}", SITE, f"text {i}") for i in range(3))
    assert store.upsert_articles(records) == UpsertCounts(inserted=3)  # type: ignore[arg-type]


def test_a_closed_store_refuses_work() -> None:
    """A disposed engine reconnects quietly: writes after close() went on."""
    store = Store.open()
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.upsert_articles([ArticleRecord("https://n.example/a", SITE, "text")])
    with pytest.raises(StoreError, match="is closed"):
        store.site_summaries()


def test_opening_says_how_to_name_a_sqlite_file_and_refuses_other_types(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.sqlite3"
    with pytest.raises(StoreError, match=rf"a SQLite file is sqlite:///{path}"):
        Store.open(str(path))
    with pytest.raises(TypeError, match=r"a database URL is a str \(or a path .*\), not int"):
        Store.open(3)  # type: ignore[arg-type]


def test_a_path_opens_that_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    with Store.open(path) as store:
        store.upsert_articles([ArticleRecord("https://n.example/a", SITE, "text")])
    with Store.open(f"sqlite:///{path}") as store:
        summary = store.site_summary(SITE)
    assert summary is not None and summary.articles == 1


def test_a_read_only_sqlite_file_fails_at_open_not_at_the_first_flush(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Denoiser ran every page of a crawl on a file it could not write, and lost what it
    learned at close. (Tests run as root, for whom every file is writable: os.access is
    made to answer as for another user.)"""
    path = tmp_path / "state.sqlite3"
    Store.open(f"sqlite:///{path}").close()
    monkeypatch.setattr(store_module.os, "access", lambda p, mode: str(p) != str(path))
    with pytest.raises(StoreError, match="the file is read-only"):
        Store.open(f"sqlite:///{path}")
    monkeypatch.setattr(store_module.os, "access", lambda p, mode: str(p) != str(tmp_path))
    with pytest.raises(StoreError, match=r"folder .* is read-only"):
        Store.open(f"sqlite:///{path}")


@pytest.mark.parametrize(
    ("stored", "cut"),
    [
        ("https://n.example/post/index.html", "https://n.example/post/"),
        ("https://n.example/story?utm_source=mail&id=3", "https://n.example/story?id=3"),
    ],
    ids=["index-file", "tracking"],
)
def test_a_row_stored_under_a_long_url_before_is_moved_not_duplicated(
    stored: str, cut: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows written before URLs were cut at their index file, or had their tracking
    parameters cut, keep the long URL: re-crawled edited, the page became a second row
    beside its stale first."""
    with monkeypatch.context() as before:
        before.setattr(store_module, "stored_url", lambda url: url)
        store.upsert_articles([ArticleRecord(stored, SITE, "first text", identity="i1")])
    assert _stored_urls(store) == [stored]
    edited = [ArticleRecord(stored, SITE, "edited text", identity="i2")]
    assert store.upsert_articles(edited) == UpsertCounts(updated=1)
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT url, text FROM articles")).all()
    assert [tuple(r) for r in rows] == [(cut, "edited text")]


def test_a_damaged_text_never_rewrites_a_url_stored_after_the_first_look(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process may store the URL between the look for stored URLs and the insert:
    the rewrite, made under the row's lock, refuses the damaged text too."""
    good = "The council approved the plan on Tuesday after a long debate. " * 5
    damaged = good[:200] + "\ufffd" * 20
    url = "https://n.example/story"
    assert store.upsert_articles([ArticleRecord(url, SITE, good)]) == UpsertCounts(inserted=1)
    # as if the URL had not been stored yet when the batch was first looked at
    monkeypatch.setattr(store_module, "_without_damaged_rewrites", lambda conn, a: (list(a), 0))
    assert store.upsert_articles([ArticleRecord(url, SITE, damaged)]) == UpsertCounts(
        kept_damaged=1
    )
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT text FROM articles")).scalar_one() == good


def test_a_damaged_rewrite_set_aside_keeps_its_identity_from_a_copy(store: Store) -> None:
    """The copy check took the stored URL to be rewritten and let its identity go: a copy
    of the good text under another URL in the same batch became a second row."""
    good = "The council approved the plan on Tuesday after a long debate. " * 5
    url = "https://n.example/story"
    store.upsert_articles([ArticleRecord(url, SITE, good, identity="i1")])
    batch = [
        ArticleRecord(url, SITE, good[:200] + "\ufffd" * 20, identity="i2"),
        ArticleRecord(url + "?replytocom=3", SITE, good, identity="i1"),
    ]
    assert store.upsert_articles(batch) == UpsertCounts(duplicates=1, kept_damaged=1)
    assert _stored_urls(store) == [url]


def test_a_sqlite_path_in_a_missing_folder_or_on_a_folder_says_so(tmp_path: Path) -> None:
    """SQLite answers both with "unable to open database file", which names neither."""
    missing = tmp_path / "no" / "such" / "dir" / "x.db"
    with pytest.raises(StoreError, match=r"its folder .*/no/such/dir does not exist"):
        Store.open(f"sqlite:///{missing}")
    assert not missing.parent.exists()
    with pytest.raises(StoreError, match=r"is a folder, not a file"):
        Store.open(f"sqlite:///{tmp_path}")


def test_an_upgrade_the_database_user_may_not_make_names_the_command_and_who(
    postgres_url: str,
) -> None:
    """A crawl running as a user who may write rows but not change tables met an older
    schema and said only "permission denied for schema public"."""
    from alembic import command
    from sqlalchemy.engine import make_url

    from scrapy_denoise.store.migrate import alembic_config

    role = f"denoise_writer_{secrets.token_hex(4)}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f"CREATE ROLE {role} LOGIN"))
        with scratch_database(postgres_url) as url:
            command.upgrade(alembic_config(url), "0001_initial")  # the first release's
            owner = create_engine(url, isolation_level="AUTOCOMMIT")
            with owner.connect() as conn:
                conn.execute(text(f"GRANT USAGE ON SCHEMA public TO {role}"))
                conn.execute(text("REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
                conn.execute(
                    text(
                        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "
                        f"public TO {role}"
                    )
                )
            owner.dispose()
            as_writer = make_url(url).set(username=role, password=None)
            with pytest.raises(StoreError) as refused:
                Store.open(as_writer.render_as_string(hide_password=False))
            message = str(refused.value)
            assert "upgrading it from revision '0001_initial'" in message
            assert "permission denied" in message and "scrapy-denoise db upgrade" in message
            Store.open(url).close()  # the owner can, as the message says
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP ROLE IF EXISTS {role}"))
        admin.dispose()


def test_creating_the_schema_names_the_sqlite_file_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``scrapy crawl`` run from another folder writes a new database there: the log line
    must say where."""
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.INFO, logger="scrapy_denoise.store.migrate"):
        Store.open("sqlite:///relative.sqlite3").close()
        Store.open(None).close()
    messages = [r.getMessage() for r in caplog.records]
    assert any(f"at sqlite:///{tmp_path / 'relative.sqlite3'} " in m for m in messages)
    assert any("at an in-memory SQLite database " in m for m in messages)
