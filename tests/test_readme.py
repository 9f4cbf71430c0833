"""The README promises things the code must keep true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scrapy_denoise.integration.settings import settings_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_settings_table_matches_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- settings-table -->\n(.*?)\n<!-- /settings-table -->", text, re.S)
    assert match, "README has no generated settings table"
    assert match.group(1).strip() == settings_table().strip()


def test_quickstart_commands_exist_in_the_makefile() -> None:
    makefile = (README.parent / "Makefile").read_text(encoding="utf-8")
    text = README.read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert f"make {target}" in text
        assert re.search(rf"^{target}:", makefile, re.M)


def test_model_rebuild_commands_train_on_the_shipped_datasets() -> None:
    from scrapy_denoise.models.train_blocks import SHIPPED_DATASETS

    for path in (README, README.parent / "Makefile"):
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")
        command = next(line for line in text.splitlines() if "train blocks" in line)
        assert re.findall(r"--dataset (\S+)", command) == list(SHIPPED_DATASETS), path.name


def test_training_docs_give_every_page_type_its_label() -> None:
    from scrapy_denoise.models.train_pages import PAGE_TYPE_LABELS

    text = (README.parent / "docs" / "training.md").read_text(encoding="utf-8")
    table = text.split("## Page types and their labels", 1)[1].split("\n\n", 2)[1]
    documented: dict[str, str | None] = {}
    for row in table.splitlines()[2:]:
        types, label = row.split("|")[1:3]
        for name in re.findall(r"`([^`]+)`", types):
            documented[name] = None if label.strip() == "not used" else label.strip()
    assert documented == PAGE_TYPE_LABELS


def _readme_spider() -> type:
    text = README.read_text(encoding="utf-8")
    block = next(
        code
        for code in re.findall(r"```python\n(.*?)```", text, re.S)
        if code.startswith("# your spider")
    )
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    spider = namespace["NewsSpider"]
    assert isinstance(spider, type)
    return spider


def test_readme_spider_follows_only_web_links_and_skips_non_html() -> None:
    from scrapy.http import HtmlResponse, Request, Response

    spider = _readme_spider()()
    body = (
        b'<html><body><p>Story</p><a href="/news/a.html">a</a>'
        b'<a href="mailto:desk@example.com">mail</a><a href="javascript:void(0)">js</a>'
        b'<a href="tel:+123">call</a></body></html>'
    )
    page = HtmlResponse("https://example.com/", body=body, encoding="utf-8")
    out = list(spider.parse(page))
    assert [type(o) for o in out] == [dict, Request]
    assert out[0]["url"] == "https://example.com/"
    assert out[1].url == "https://example.com/news/a.html"
    image = Response("https://example.com/logo.png", body=b"\x89PNG\r\n\x1a\n\x00\x00")
    assert list(spider.parse(image)) == []


def test_readme_core_snippet_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "Use the core without Scrapy" block, run verbatim beside a saved page."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use the core without Scrapy", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S)
    assert snippet
    paragraph = "The harbour council met on Monday evening to agree the budget for the year. " * 4
    (tmp_path / "page.html").write_text(
        "<html><head><title>Council agrees budget</title></head><body><nav><a href='/'>Home"
        f"</a></nav><article><h1>Council agrees budget</h1><p>{paragraph}</p>"
        f"<p>{paragraph}</p></article></body></html>",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(compile(snippet.group(1), "README.md", "exec"), scope)
    assert "harbour council" in scope["art"].text  # type: ignore[attr-defined]
    assert (tmp_path / "denoise.sqlite3").is_file()
