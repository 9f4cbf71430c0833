"""Malformed data zips (a user's own training data, docs/training.md): every reader raises
one DatasetFormatError naming the zip, the member, the line and what is wrong, and the
command line prints it as one line."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scrapy_denoise.cli import main
from scrapy_denoise.evaluation.datasets import (
    DatasetFormatError,
    count_pages,
    extract_www,
    has_page_types,
    has_truth,
    iter_pages,
    iter_site_pages,
)

_ROW: dict[str, Any] = {"id": "1", "dataset": "news", "html": "html/1.html", "text": "A story."}


def _zip(path: Path, members: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _news(tmp_path: Path, second: str, *, html: bool = True) -> Path:
    """``news.zip``: one good index line, then ``second`` (line 2)."""
    members: dict[str, str | bytes] = {"index.jsonl": json.dumps(_ROW) + "\n" + second + "\n"}
    if html:
        members |= {"html/1.html": b"<p>A story.</p>", "html/2.html": b"<p>Another.</p>"}
    return _zip(tmp_path / "news.zip", members)


def _line(**changes: Any) -> str:
    row = {**_ROW, "id": "2", "html": "html/2.html", **changes}
    return json.dumps({k: v for k, v in row.items() if v is not _DROP})


_DROP = object()

_READERS: dict[str, Callable[[Path], Any]] = {
    "iter_pages": lambda path: list(iter_pages(path)),
    "count_pages": count_pages,
    "has_truth": lambda path: has_truth(path) and list(iter_pages(path)),
    "has_page_types": has_page_types,
}


@pytest.mark.parametrize(
    ("second", "problem"),
    [
        (_line(id=_DROP), 'missing key "id"'),
        (_line(dataset=_DROP), 'missing key "dataset"'),
        (_line(html=_DROP), 'missing key "html"'),
        ('{"id": "2", "dataset": "news",', "not JSON (Expecting property name"),
        ('["2", "news", "html/2.html"]', "the line is an array, not a JSON object"),
        ("7", "the line is an integer, not a JSON object"),
        (_line(text=["A", "story"]), '"text" must be a string or null, not an array'),
        (_line(text=3), '"text" must be a string or null, not an integer'),
        (_line(url=17), '"url" must be a string or null, not an integer'),
        (_line(html=7), '"html" must be a string, not an integer'),
        (_line(id=True), '"id" must be a string or an integer, not a boolean'),
        (_line(dataset=None), '"dataset" must be a string, not null'),
        (_line(id="1"), 'id "1" is also on line 1 (ids must be unique within the zip)'),
    ],
)
@pytest.mark.parametrize("reader", list(_READERS))
def test_a_bad_index_line_is_named_with_its_zip_and_number(
    tmp_path: Path, second: str, problem: str, reader: str
) -> None:
    path = _news(tmp_path, second)
    with pytest.raises(DatasetFormatError) as raised:
        _READERS[reader](path)
    assert str(raised.value).startswith(f"{path}: index.jsonl line 2: {problem}")


def test_a_page_whose_html_member_is_missing_is_named(tmp_path: Path) -> None:
    path = _news(tmp_path, _line(html="html/9.html"))
    with pytest.raises(DatasetFormatError) as raised:
        list(iter_pages(path))
    assert str(raised.value) == (
        f'{path}: index.jsonl line 2: member "html/9.html" is not in the zip'
    )
    assert count_pages(path) == 2  # the index alone is fine


def test_a_line_number_counts_blank_lines(tmp_path: Path) -> None:
    path = _news(tmp_path, "\n\n" + _line(html=_DROP))
    with pytest.raises(DatasetFormatError, match='line 4: missing key "html"'):
        count_pages(path)


def test_an_empty_zip_a_site_zip_a_nested_folder_and_a_non_zip_are_told_apart(
    tmp_path: Path,
) -> None:
    empty = _zip(tmp_path / "empty.zip", {})
    site = _zip(tmp_path / "site.zip", {"pages.jsonl": "", "www/a.html": b""})
    nested = _zip(tmp_path / "nested.zip", {"news/index.jsonl": json.dumps(_ROW) + "\n"})
    other = _zip(tmp_path / "other.zip", {"readme.txt": "hello"})
    text = tmp_path / "notes.zip"
    text.write_text("not a zip")
    cases = {
        empty: "no index.jsonl: the zip is empty",
        site: "no index.jsonl: it has pages.jsonl, so it is a site zip",
        nested: "no index.jsonl: found news/index.jsonl: zip the folder's contents",
        other: "no index.jsonl: see docs/training.md",
        text: "not a readable zip file",
    }
    for path, problem in cases.items():
        for reader in _READERS.values():
            with pytest.raises(DatasetFormatError, match=re.escape(problem)):
                reader(path)
    with pytest.raises(DatasetFormatError, match=re.escape("no pages.jsonl: it has index.jsonl")):
        list(iter_site_pages(_news(tmp_path, _line())))
    with pytest.raises(DatasetFormatError, match="not a readable zip file"):
        extract_www(text, tmp_path / "www")
    with pytest.raises(FileNotFoundError):  # a missing file stays an OSError
        count_pages(tmp_path / "missing.zip")


def test_the_dataset_key_must_be_the_zips_name_only_when_asked(tmp_path: Path) -> None:
    path = _news(tmp_path, _line(dataset="web"))
    assert [p.dataset for p in iter_pages(path)] == ["news", "web"]  # eval: a renamed copy
    with pytest.raises(DatasetFormatError) as raised:
        list(iter_pages(path, name="news"))
    assert str(raised.value).startswith(
        f'{path}: index.jsonl line 2: "dataset" is "web", not the zip\'s name "news"'
    )
    # checked before the split filter: a held-out line cannot hide a mismatch
    with pytest.raises(DatasetFormatError, match='"dataset" is "web"'):
        list(iter_pages(path, name="news", split="holdout"))


def test_integer_ids_are_read_as_strings_and_checked_for_repeats(tmp_path: Path) -> None:
    path = _news(tmp_path, _line(id=2))
    assert [p.id for p in iter_pages(path)] == ["1", "2"]
    with pytest.raises(DatasetFormatError, match="id 1 is also on line 1"):
        count_pages(_news(tmp_path, _line(id=1)))


def _site(tmp_path: Path, rows: list[dict[str, Any]], **members: str | bytes) -> Path:
    return _zip(
        tmp_path / "site.zip",
        {
            "pages.jsonl": "".join(json.dumps(row) + "\n" for row in rows),
            "www/a.html": b"<p>A</p>",
            **members,
        },
    )


_PAGE = {"path": "/a", "file": "a.html", "kind": "article"}


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ({"path": "/b", "file": "a.html"}, 'missing key "kind"'),
        ({"file": "a.html", "kind": "noise"}, 'missing key "path"'),
        ({"path": "/b", "kind": "noise"}, 'missing key "file"'),
        ({**_PAGE, "path": "/b", "noise_type": 3}, '"noise_type" must be a string or null'),
        ({**_PAGE, "path": "/b", "kind": ["article"]}, '"kind" must be a string, not an array'),
        ({**_PAGE}, 'path "/a" is also on line 1 (paths must be unique within the zip)'),
        ({**_PAGE, "path": "/b", "file": "b.html"}, 'member "www/b.html" is not in the zip'),
        ({**_PAGE, "path": "/b", "truth_path": "truth/b.txt"}, 'member "truth/b.txt" is not'),
    ],
)
def test_a_bad_site_page_line_is_named(tmp_path: Path, row: dict[str, Any], problem: str) -> None:
    path = _site(tmp_path, [_PAGE, row])
    with pytest.raises(DatasetFormatError) as raised:
        list(iter_site_pages(path))
    assert str(raised.value).startswith(f"{path}: pages.jsonl line 2: {problem}")


def test_a_site_truth_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    row = {**_PAGE, "truth_path": "truth/a.txt"}
    path = _site(tmp_path, [row], **{"truth/a.txt": b"\xff\xfe caf\xe9"})
    with pytest.raises(DatasetFormatError, match=re.escape("truth/a.txt: not UTF-8 text")):
        list(iter_site_pages(path))


@pytest.mark.parametrize(
    ("members", "problem"),
    [
        ({"pages.jsonl": "", "www/a.html": b""}, "no index.jsonl: it has pages.jsonl"),
        ({"index.jsonl": json.dumps(_ROW) + "\n[1]\n"}, "index.jsonl line 2: the line is an"),
        ({"index.jsonl": _line(text=[1, 2]) + "\n", "html/2.html": b""}, '"text" must be'),
    ],
)
def test_eval_of_a_malformed_zip_prints_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], members: dict[str, Any], problem: str
) -> None:
    path = _zip(tmp_path / "news.zip", members)
    assert main(["eval", str(path), "--quiet"]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"scrapy-denoise eval: {path}: ")
    assert problem in lines[0]
    assert captured.out == ""
