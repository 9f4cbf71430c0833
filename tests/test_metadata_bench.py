"""Scoring of ``scrapy-denoise bench metadata`` (title, date, author against a site's truth)."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from scrapy_denoise.evaluation import metadata_bench
from scrapy_denoise.evaluation.datasets import SitePage
from scrapy_denoise.evaluation.metadata_bench import (
    FieldScore,
    MetadataGuess,
    UrlDateScore,
    format_metadata,
    format_titles,
    format_url_dates,
    score_page,
    title_benchmark,
    url_date_benchmark,
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


def _news_zip(
    path: Path, pages: list[tuple[str, str, str]], titles: dict[str, str] | None = None
) -> Path:
    """An extraction dataset in the shared format: (id, url, html) per page."""
    with zipfile.ZipFile(path, "w") as archive:
        rows = []
        for page_id, url, html in pages:
            member = f"html/{page_id}.html"
            archive.writestr(member, html)
            row = {"id": page_id, "dataset": "news", "url": url, "html": member}
            if titles and page_id in titles:
                row["title"] = titles[page_id]
            rows.append(row)
        archive.writestr("index.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_url_date_benchmark_dates_pages_from_their_html_against_the_urls_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    story = "<p>" + "The suit was settled out of court on Wednesday. " * 4 + "</p>"
    zip_path = _news_zip(
        tmp_path / "news.zip",
        [
            # the page prints the URL's day
            ("a", "https://sun.example/2008/01/10/story", f"<h1>A</h1><b>Jan 10, 2008</b>{story}"),
            # the page prints the next day (a paper east of the URL's time zone)
            ("b", "https://sun.example/2008/01/10/other", f"<h1>B</h1><b>Jan 11, 2008</b>{story}"),
            # no date printed at all
            ("c", "https://sun.example/2008/01/10/third", f"<h1>C</h1>{story}"),
            # no date in the URL: not scored
            ("d", "https://sun.example/story", f"<h1>D</h1><b>Jan 9, 2008</b>{story}"),
        ],
    )
    monkeypatch.setattr(metadata_bench, "extraction_zips", lambda: {"news": zip_path})
    monkeypatch.setattr(metadata_bench, "_trafilatura", lambda: None)
    results = url_date_benchmark(("all",))
    assert results["all"]["scrapy-denoise"] == UrlDateScore(
        pages=3, dated=2, same_day=1, within_a_day=2
    )


def test_url_date_table_gives_shares_with_counts() -> None:
    table = format_url_dates({"holdout": {"ours": UrlDateScore(4, 3, 2, 3)}})
    assert "| holdout | ours | 4 | 3 | 0.500 (2) | 0.750 (3) |" in table


def test_title_benchmark_scores_pages_with_a_title_after_folding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    zip_path = _news_zip(
        tmp_path / "news.zip",
        [
            ("a", "https://a.example/x", "<title>Storm Hits | Daily</title><h1>Storm Hits</h1>"),
            ("b", "https://b.example/y", "<title>Shop</title><h1>Shop</h1>"),
            ("c", "https://c.example/z", "<title>No truth</title>"),
        ],
        titles={"a": "storm  hits", "b": "T-Shirts & Tops"},
    )
    monkeypatch.setattr(metadata_bench, "extraction_zips", lambda: {"news": zip_path})
    monkeypatch.setattr(metadata_bench, "_trafilatura", lambda: None)
    results = title_benchmark(("all",), dataset="news")
    assert results["all"]["scrapy-denoise"] == FieldScore(correct=1, scored=2)
    table = format_titles(results, "news")
    assert "| all | scrapy-denoise | 2 | 0.500 (1) |" in table
