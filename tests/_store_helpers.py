"""Helpers for the store and learning tests: worker functions that ``multiprocessing``
(spawn) children import by module name (throwaway PostgreSQL databases are
:func:`scrapy_denoise.store.scratch.scratch_database`'s)."""

from __future__ import annotations

from multiprocessing.connection import Connection as Pipe
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, text

from scrapy_denoise.store import ArticleRecord, PageVisit, SiteDelta, Store, VerdictCount

if TYPE_CHECKING:
    from scrapy_denoise.learning import SiteLearner


# -- concurrency ----------------------------------------------------------------------


_start_barrier: Barrier | None = None


def init_worker(start: Barrier) -> None:
    """Pool initializer: the barrier has to reach the workers when they are created."""
    global _start_barrier
    _start_barrier = start


def apply_worker(
    url: str,
    deltas: list[SiteDelta],
    visits: list[list[PageVisit]],
    articles: list[list[ArticleRecord]],
    verdicts: list[list[VerdictCount]] | None = None,
) -> tuple[int, int, int, int]:
    """Open the store (racing the others to create the schema) and apply a share of the
    work one small transaction at a time; returns the article counts it saw.

    In a pool made with :func:`init_worker`, every worker first waits for all the others,
    so their transactions really overlap.
    """
    if _start_barrier is not None:
        _start_barrier.wait(timeout=120)
    store = Store.open(url)
    inserted = updated = unchanged = duplicates = 0
    try:
        for i in range(max(len(deltas), len(visits), len(articles))):
            if i < len(deltas):
                store.apply(deltas[i])
            if i < len(visits):
                store.record_fingerprints(visits[i], verdicts[i] if verdicts else ())
            if i < len(articles):
                counts = store.upsert_articles(articles[i])
                inserted += counts.inserted
                updated += counts.updated
                unchanged += counts.unchanged
                duplicates += counts.duplicates
    finally:
        store.close()
    return inserted, updated, unchanged, duplicates


# -- restart --------------------------------------------------------------------------

#: The restart test's children flush often so a kill lands between flushes and mid-batch.
RESTART_FLUSH = 7


def restart_page(i: int) -> tuple[str, bytes]:
    """Page ``i`` of a deterministic synthetic site: fixed chrome, some rotating side
    items, and unique article text."""
    side = "".join(f"<li><a>Trending story {(i + k) % 6}</a></li>" for k in range(3))
    body = f"""<html><body>
<ul class="nav"><li><a>Home</a></li><li><a>World</a></li><li><a>Sport</a></li></ul>
<ul class="side">{side}</ul>
<div class="article"><h1>Headline number {i}</h1>
<p>Paragraph one of article {i} says something specific about {i * 7}.</p>
<p>Paragraph two of article {i} continues with {i * 13} details.</p>
<p>Related: story {i % 4}</p></div>
<footer><p>Copyright 2024 Example News. All rights reserved.</p></footer>
</body></html>"""
    return f"https://news.example/{i}.html", body.encode()


def learn_page(learner: SiteLearner, i: int) -> None:
    from scrapy_denoise.document import load_document
    from scrapy_denoise.methods.template import page_units, template_lines

    url, body = restart_page(i)
    doc = load_document(body, url)
    site = learner.site_key(url)
    units = page_units(doc, learner.template_params)
    learner.learn_templates(site, units)
    lines = [t.strip() for t in doc.text().splitlines() if t.strip()]
    noise = template_lines(lines, learner.match_templates(site, units))
    lines = [line for line, dropped in zip(lines, noise, strict=True) if not dropped]
    kept = learner.filter_lines(site, lines, learn=True)
    learner.record_fingerprint(url, site, "\n".join(kept))


def restart_worker(url: str, start: int, stop: int, progress: Pipe | None) -> None:
    """Learn pages ``start..stop-1``, reporting each finished page (the test kills this
    process at some point)."""
    learner = restart_learner(Store.open(url))
    store = learner.store
    for i in range(start, stop):
        learn_page(learner, i)
        if progress is not None:
            progress.send(i)
    learner.close()
    store.close()
    if progress is not None:
        progress.send(-1)


def restart_learner(store: Store) -> SiteLearner:
    """The learner of the restart test: small batches, pruning on, frequent flushes."""
    from scrapy_denoise.learning import SiteLearner
    from scrapy_denoise.methods.linestats import LineParams
    from scrapy_denoise.methods.template import TemplateParams

    return SiteLearner(
        store,
        owner="crawler-1",
        templates=TemplateParams(batch_pages=10, min_frequency=3),
        lines=LineParams(per_pages=5, prune_divisor=10, prune_every=20),
        flush_every=RESTART_FLUSH,
    )


def dump_learning_state(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Everything learning wrote, read straight from the tables, in a comparable form."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:

            def rows(sql: str) -> list[tuple[Any, ...]]:
                return [tuple(r) for r in conn.execute(text(sql))]

            return {
                "sites": rows("SELECT key, pages_processed FROM sites ORDER BY key"),
                "lines": rows(
                    "SELECT s.key, l.line_hash, l.count, l.text FROM line_stats l "
                    "JOIN sites s ON s.id = l.site_id ORDER BY s.key, l.line_hash"
                ),
                "templates": rows(
                    "SELECT s.key, t.tag, t.text, t.frequency FROM templates t "
                    "JOIN sites s ON s.id = t.site_id ORDER BY s.key, t.tag, t.text"
                ),
                "batches": rows(
                    "SELECT s.key, b.owner, b.pages FROM template_batches b "
                    "JOIN sites s ON s.id = b.site_id ORDER BY s.key, b.owner"
                ),
                "entries": rows(
                    "SELECT s.key, e.owner, e.position, e.tag, e.text, e.frequency "
                    "FROM template_batch_entries e JOIN sites s ON s.id = e.site_id "
                    "ORDER BY s.key, e.owner, e.position"
                ),
                "pages": rows(
                    "SELECT url, content_hash, visits, changes FROM page_fingerprints ORDER BY url"
                ),
            }
    finally:
        engine.dispose()


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"
