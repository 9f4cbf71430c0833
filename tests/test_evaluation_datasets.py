"""Dataset readers, the stable held-out split and the site helpers, on small synthetic zips
built here plus a read-only look at the real shared data when it is present."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from scrapy_denoise.evaluation import datasets
from scrapy_denoise.evaluation.datasets import (
    HOLDOUT_SHARE,
    count_pages,
    dev_half,
    extract_www,
    holdout,
    in_split,
    iter_pages,
    iter_site_pages,
    shared_data_dir,
    www_tempdir,
)


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def _extraction_zip(path: Path, n: int, dataset: str = "toy") -> Path:
    rows = []
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(n):
            member = f"html/{i:04x}.html"
            archive.writestr(member, f"<html><p>page {i} caf\xe9</p></html>".encode("cp1252"))
            rows.append(
                {
                    "id": str(i),
                    "dataset": dataset,
                    "url": f"http://example.com/{i}" if i % 2 else None,
                    "lang": "en",
                    "encoding": "cp1252",
                    "charset_declared": None,
                    "text": None if i == 3 else f"page {i}",
                    "split": "train",
                    "page_type": "article",
                    "html": member,
                }
            )
        archive.writestr("index.jsonl", _jsonl(rows))
    return path


def _site_zip(path: Path) -> Path:
    pages: list[dict[str, Any]] = [
        {
            "path": "/a/",
            "file": "a/index.html",
            "kind": "article",
            "noise_type": None,
            "truth_path": "truth/a.txt",
        },
        {
            "path": "/b/",
            "file": "b/index.html",
            "kind": "article",
            "noise_type": None,
            "truth_path": "truth/b.txt",
        },
        {
            "path": "/tag/x/",
            "file": "tag/x/index.html",
            "kind": "noise",
            "noise_type": "tag",
            "truth_path": None,
            "note": "empty file (0 bytes)",
        },
    ]
    truth: list[dict[str, Any]] = [
        {"path": "/a/", "truth_path": "truth/a.txt", "title": "A", "date": "2012-02-14",
         "author": "admin", "tags": ["t"]},
        {"path": "/b/", "truth_path": "truth/b.txt", "title": "B", "date": "2014-08-26T10:00:00Z",
         "authors": ["X Y", "Z W"], "subtitle": None},
    ]  # fmt: skip
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pages.jsonl", _jsonl(pages))
        archive.writestr("truth/index.jsonl", _jsonl(truth))
        archive.writestr("truth/a.txt", "正文 A".encode())
        archive.writestr("truth/b.txt", b"")
        archive.writestr("www/a/index.html", "<p>正文 A</p>".encode())
        archive.writestr("www/b/index.html", b"<p>B</p>")
        archive.writestr("www/tag/x/index.html", b"")
    return path


def test_holdout_is_pinned_to_md5_of_dataset_and_id() -> None:
    # Pinned: changing the hash recipe would silently reshuffle dev and held-out pages.
    held = [i for i in range(40) if holdout(str(i), "dragnet")]
    assert held == [6, 8, 9, 10, 11, 12, 13, 21, 26, 28, 31, 36, 39]
    digest = hashlib.md5(b"dragnet/100").digest()
    assert holdout("100", "dragnet") == (int.from_bytes(digest[:8], "big") < 0.3 * 2**64)


def test_holdout_share_is_about_thirty_percent() -> None:
    ids = [f"page-{i}" for i in range(20000)]
    share = sum(holdout(i, "any") for i in ids) / len(ids)
    assert abs(share - HOLDOUT_SHARE) < 0.015


def test_holdout_depends_on_dataset_name() -> None:
    ids = [str(i) for i in range(500)]
    assert [holdout(i, "a") for i in ids] != [holdout(i, "b") for i in ids]


def test_in_split_partitions_pages() -> None:
    for i in range(200):
        dev = in_split(str(i), "d", "dev")
        held = in_split(str(i), "d", "holdout")
        assert dev != held
        assert in_split(str(i), "d", "all")
    with pytest.raises(ValueError):
        in_split("1", "d", "test")  # type: ignore[arg-type]


def test_dev_halves_split_the_dev_pages_in_two_by_their_own_hash() -> None:
    ids = [str(i) for i in range(2000)]
    a = {i for i in ids if in_split(i, "d", "dev-a")}
    b = {i for i in ids if in_split(i, "d", "dev-b")}
    dev = {i for i in ids if in_split(i, "d", "dev")}
    assert a | b == dev and not a & b
    assert 0.45 < len(a) / len(dev) < 0.55
    # a hash of its own: the halves do not follow the held-out split's hash ranges
    digest = hashlib.md5(b"half:d:7").digest()
    assert dev_half("7", "d") == ("b" if digest[0] & 1 else "a")
    assert [dev_half(i, "d") for i in ids[:50]] != [dev_half(i, "e") for i in ids[:50]]


def test_shared_data_dir_honours_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DENOISE_SHARED_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path
    monkeypatch.setenv("DENOISE_SHARED_DATA", str(tmp_path / "missing"))
    assert shared_data_dir() is None
    with pytest.raises(FileNotFoundError, match="DENOISE_SHARED_DATA"):
        datasets.extraction_zip("dragnet")


def test_iter_pages_yields_raw_bytes_truth_and_extra(tmp_path: Path) -> None:
    pages = list(iter_pages(_extraction_zip(tmp_path / "toy.zip", 5)))
    assert [p.id for p in pages] == ["0", "1", "2", "3", "4"]
    first = pages[0]
    assert first.html == "<html><p>page 0 caf\xe9</p></html>".encode("cp1252")
    assert first.text == "page 0"
    assert first.url is None and pages[1].url == "http://example.com/1"
    assert first.encoding == "cp1252" and first.lang == "en" and first.dataset == "toy"
    assert first.extra == {"split": "train", "page_type": "article"}
    assert pages[3].text is None


def test_limit_applies_after_split_filter(tmp_path: Path) -> None:
    path = _extraction_zip(tmp_path / "toy.zip", 60)
    held = [p.id for p in iter_pages(path, split="holdout")]
    dev = [p.id for p in iter_pages(path, split="dev")]
    assert held and dev and not set(held) & set(dev)
    assert len(held) + len(dev) == 60
    assert [p.id for p in iter_pages(path, split="holdout", limit=3)] == held[:3]
    assert count_pages(path, split="holdout") == len(held)
    assert count_pages(path, limit=7) == 7
    assert list(iter_pages(path, limit=0)) == []


def test_iter_site_pages_attaches_truth_and_normalises_authors(tmp_path: Path) -> None:
    pages = {p.path: p for p in iter_site_pages(_site_zip(tmp_path / "site.zip"))}
    a, b, tag = pages["/a/"], pages["/b/"], pages["/tag/x/"]
    assert a.kind == "article" and a.truth == "正文 A" and a.title == "A"
    assert a.authors == ("admin",) and a.extra == {"tags": ["t"]}
    assert a.html == "<p>正文 A</p>".encode()
    assert b.authors == ("X Y", "Z W") and b.truth == "" and b.date == "2014-08-26T10:00:00Z"
    assert tag.kind == "noise" and tag.noise_type == "tag" and tag.truth is None
    assert tag.html == b"" and tag.note == "empty file (0 bytes)" and tag.authors == ()


def test_iter_site_pages_can_skip_html(tmp_path: Path) -> None:
    pages = list(iter_site_pages(_site_zip(tmp_path / "site.zip"), with_html=False))
    assert len(pages) == 3 and all(p.html == b"" for p in pages)


def test_extract_www_writes_document_root(tmp_path: Path) -> None:
    root = extract_www(_site_zip(tmp_path / "site.zip"), tmp_path / "out")
    assert (root / "a" / "index.html").read_bytes() == "<p>正文 A</p>".encode()
    assert (root / "tag" / "x" / "index.html").read_bytes() == b""
    assert not (root / "truth").exists()


def test_extract_www_refuses_members_escaping_the_root(tmp_path: Path) -> None:
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("www/../../escape.html", b"x")
    with pytest.raises(ValueError, match="unsafe"):
        extract_www(path, tmp_path / "out")
    assert not (tmp_path / "escape.html").exists()


def test_www_tempdir_is_removed_afterwards(tmp_path: Path) -> None:
    with www_tempdir(_site_zip(tmp_path / "site.zip")) as root:
        assert (root / "b" / "index.html").is_file()
    assert not root.exists()


def test_real_dragnet_index_is_readable(shared_data: Path) -> None:
    path = shared_data / "extraction" / "dragnet.zip"
    assert count_pages(path) == 1381
    page = next(iter_pages(path))
    assert page.dataset == "dragnet" and page.html and page.text
    assert page.extra["split"] in {"train", "test"}
    held = count_pages(path, split="holdout")
    assert 0.25 < held / 1381 < 0.35


def test_real_site_pages_match_readme_counts(shared_data: Path) -> None:
    pages = list(iter_site_pages(shared_data / "sites" / "zjuvai-blog.zip", with_html=False))
    articles = [p for p in pages if p.kind == "article"]
    assert len(articles) == 458 and len(pages) - len(articles) == 452
    assert all(p.truth is not None for p in articles)
    assert sum(bool(p.title) for p in articles) >= 450  # one real post has no title
