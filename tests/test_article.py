"""``Article``: its JSON layout and what its documentation promises."""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import fields
from datetime import UTC, datetime

import scrapy_denoise.document
from scrapy_denoise import Article, Denoiser, PageVerdict

STORY = (
    "The harbour council met on Monday evening to agree the budget for the coming year. "
    "Members argued for two hours about the cost of dredging the northern channel, which "
    "silted up again after the winter storms. The mayor said the work could not wait."
)


def test_as_dict_has_every_field_ready_for_json() -> None:
    article = Article(
        url="https://news.example/a",
        text="one\ntwo",
        published=datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
        verdict=PageVerdict(is_noise=False, score=0.25, reason="model"),
        warnings=("truncated", "empty"),
        extra={"source": "feed"},
    )
    values = article.as_dict()
    assert list(values) == [f.name for f in fields(Article)]
    assert values["published"] == "2024-05-01T10:00:00+00:00"
    assert values["verdict"] == {"is_noise": False, "score": 0.25, "reason": "model"}
    assert values["warnings"] == ["truncated", "empty"]
    assert json.loads(json.dumps(values)) == values


def test_an_extracted_article_dumps_to_json() -> None:
    page = (
        "<html lang='en'><head><title>Budget</title>"
        "<meta property='article:published_time' content='2024-05-01T10:00:00Z'></head>"
        f"<body><article><p>{STORY}</p></article></body></html>"
    )
    article = Denoiser(store=False).extract(page, "https://news.example/2024/budget")
    values = json.loads(json.dumps(article.as_dict()))
    assert values["published"] == "2024-05-01T10:00:00+00:00"
    assert STORY in values["text"] and values["verdict"]["is_noise"] is False


def test_warnings_documents_every_warning_loading_gives() -> None:
    given = set(
        re.findall(r'warnings\.append\("(\w+)"\)', inspect.getsource(scrapy_denoise.document))
    )
    assert {"binary", "invalid_url", "repeated_copy"} <= given
    source = inspect.getsource(Article)
    documented = source[: source.index("warnings: tuple")].rsplit("\n\n", 1)[-1]
    missing = sorted(w for w in given if f"``{w}``" not in documented)
    assert not missing, f"Article.warnings does not document {missing}"


def test_lang_is_iso_639_1_where_the_language_has_a_two_letter_code() -> None:
    page = "<html lang='{}'><body><p>" + STORY + "</p></body></html>"
    denoiser = Denoiser(store=False)
    assert denoiser.extract(page.format("eng"), "https://a.example/x/y").lang == "en"
    assert denoiser.extract(page.format("fil"), "https://a.example/x/y").lang == "fil"
    assert denoiser.extract(page.format("en-GB"), "https://a.example/x/y").lang == "en"
