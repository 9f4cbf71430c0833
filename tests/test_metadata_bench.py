"""Scoring of ``scrapy-denoise bench metadata`` (title, date, author against a site's truth)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from scrapy_denoise.evaluation.datasets import SitePage
from scrapy_denoise.evaluation.metadata_bench import (
    FieldScore,
    MetadataGuess,
    format_metadata,
    score_page,
)


def _page(**kwargs: object) -> SitePage:
    defaults: dict[str, object] = {
        "path": "/p/", "file": "p/index.html", "html": b"", "kind": "article",
        "noise_type": None, "truth": "text",
    }  # fmt: skip
    return SitePage(**{**defaults, **kwargs})  # type: ignore[arg-type]


def test_title_is_compared_after_whitespace_and_case_folding() -> None:
    page = _page(title="Flink  Community Update - May'20")
    assert score_page(page, MetadataGuess("flink community update - May'20", None, None))["title"]
    assert not score_page(page, MetadataGuess("Flink Community Update", None, None))["title"]


def test_date_is_the_calendar_day_in_the_offset_the_page_gave() -> None:
    page = _page(date="2020-05-06T23:30:00+08:00")
    late = datetime(2020, 5, 6, 23, 30, tzinfo=timezone(timedelta(hours=8)))
    assert score_page(page, MetadataGuess(None, late, None))["date"]
    assert score_page(page, MetadataGuess(None, "2020-05-06", None))["date"]
    assert score_page(page, MetadataGuess(None, date(2020, 5, 6), None))["date"]
    assert not score_page(page, MetadataGuess(None, late.astimezone(UTC) + timedelta(1), None))[
        "date"
    ]
    assert not score_page(page, MetadataGuess(None, None, None))["date"]


def test_author_needs_every_true_name_and_pages_without_authors_are_not_scored() -> None:
    two = _page(authors=("Arvid Heise", "Stephan Ewen"))
    assert score_page(two, MetadataGuess(None, None, "Arvid Heise, Stephan Ewen"))["author"]
    assert not score_page(two, MetadataGuess(None, None, "Arvid Heise"))["author"]
    assert score_page(_page(), MetadataGuess(None, None, "Someone"))["author"] is None


def test_table_gives_accuracy_with_counts() -> None:
    scores = {"title": FieldScore(3, 4), "date": FieldScore(0, 0), "author": FieldScore(0, 2)}
    table = format_metadata({"site": {"ours": scores}})
    assert "| site | ours | 0.750 (3/4) | — | — | 0.000 (0/2) |" in table
