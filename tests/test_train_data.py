"""``scrapy-denoise train blocks|pages`` on a user's own data: malformed zips, too few
pages, untyped or unknown page types, a bad ``--out`` and repeated ``--dataset`` each give
one clear line (or a counted skip) instead of a traceback or a silent guess."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scrapy_denoise.cli import main
from scrapy_denoise.evaluation.datasets import in_split
from scrapy_denoise.models import train_blocks as blocks_module
from scrapy_denoise.models import train_pages as pages_module
from scrapy_denoise.models.svm import SvmModel
from scrapy_denoise.models.train_blocks import SHIPPED_DATASETS, TrainingDataError

REPO = Path(__file__).resolve().parent.parent

_WORDS = [
    "harbour", "council", "budget", "dredging", "channel", "storm", "winter", "fishing",
    "crews", "decision", "money", "season", "april", "weeks", "boats", "tide", "mayor",
    "members", "evening", "cost", "northern", "road", "wall", "engineers",
]  # fmt: skip


def _story(k: int) -> list[str]:
    """Three to five paragraphs of words of their own per page (4-word shingles differ)."""
    return [
        f"Story {k} paragraph {j}: "
        + " ".join(_WORDS[(k * 7 + j * 3 + i * 5) % len(_WORDS)] for i in range(40))
        + "."
        for j in range(3 + k % 3)
    ]


def _article_html(k: int) -> str:
    nav = "".join(f"<li><a href='/s{i}'>Section {i} {_WORDS[i]}</a></li>" for i in range(6))
    body = "".join(f"<p>{p}</p>" for p in _story(k))
    return (
        f"<html><body><nav><ul>{nav}</ul></nav><article><h1>Headline {k}</h1>{body}</article>"
        "<footer><p>Copyright 2024 Example News, all rights reserved. Contact us.</p><ul>"
        "<li><a href='/privacy'>Privacy policy</a></li><li><a href='/terms'>Terms</a></li>"
        "</ul></footer></body></html>"
    )


def _listing_html(k: int) -> str:
    items = "".join(
        f"<li><a href='/news/{j}.html'>A headline about the {_WORDS[j % 20]} {j}</a></li>"
        for j in range(12 + k)
    )
    return f"<html><body><h1>Latest {k}</h1><ul>{items}</ul></body></html>"


def _extraction(path: Path, ids: Iterable[int], **changes: Any) -> Path:
    """``extraction/NAME.zip`` of article pages ``ids`` with their true text; ``changes``
    overrides keys of every index line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        rows = []
        for k in ids:
            archive.writestr(f"html/{k}.html", _article_html(k))
            rows.append(
                {"id": f"p{k}", "dataset": path.stem, "html": f"html/{k}.html",
                 "text": "\n".join(_story(k)), "url": f"https://news.example/{k}", **changes}
            )  # fmt: skip
        archive.writestr("index.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    return path


def _dev(ids: Iterable[int], dataset: str) -> list[int]:
    return [k for k in ids if in_split(f"p{k}", dataset, "dev")]


def _train(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["train", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("scrapy-denoise train: "), err
    return lines[0]


# -- train blocks -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"html": None}, r'index\.jsonl line 1: "html" must be a string, not null'),
        ({"text": ["a", "b"]}, r'line 1: "text" must be a string or null, not an array'),
        ({"dataset": "web"}, r'line 1: "dataset" is "web", not the zip\'s name "news"'),
        ({"id": "same"}, r'line 2: id "same" is also on line 1'),
    ],
)
def test_train_blocks_on_a_malformed_zip_prints_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], problem: str
) -> None:
    _extraction(tmp_path / "extraction" / "news.zip", range(3), **change)
    code, out, err = _train(
        ["blocks", "--data", str(tmp_path), "--out", str(tmp_path / "m.json")], capsys
    )
    assert code == 1 and out == ""
    assert re.search(problem, _one_line(err)), err
    assert "news.zip: " in err


def test_train_blocks_of_a_file_that_is_not_a_zip_prints_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "extraction").mkdir()
    (tmp_path / "extraction" / "news.zip").write_text("id,html\n1,a.html\n")
    code, _, err = _train(
        ["blocks", "--data", str(tmp_path), "--out", str(tmp_path / "m.json")], capsys
    )
    assert code == 1
    assert _one_line(err).endswith("extraction/news.zip: not a readable zip file")


def test_no_page_with_a_true_text_says_what_was_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = range(20)
    _extraction(tmp_path / "extraction" / "news.zip", ids, text=None)
    args = ["blocks", "--data", str(tmp_path), "--out", str(tmp_path / "m.json")]
    code, _, err = _train(args, capsys)
    assert code == 1
    assert _one_line(err).endswith(
        f"no extraction/NAME.zip under {tmp_path} has a page with a true text (docs/training.md)"
    )
    dev = len(_dev(ids, "news"))
    code, _, err = _train([*args, "--dataset", "news", "--quiet"], capsys)
    assert code == 1
    assert _one_line(err) == (
        f"scrapy-denoise train: no page to train on: news: 0 of {dev} dev pages with a true "
        f"text, {20 - dev} held out"
    )


def _crossfit_group(k: int, dataset: str) -> int:
    return int(blocks_module._stable_unit(f"crossfit/{dataset}/p{k}") * 3)


def test_too_few_pages_for_cross_fitting_say_so(tmp_path: Path) -> None:
    # two dev pages in one cross-fitting group: the model fitted without it has no page
    first = _dev(range(100), "news")
    same = [k for k in first if _crossfit_group(k, "news") == _crossfit_group(first[0], "news")]
    _extraction(tmp_path / "extraction" / "news.zip", same[:2])
    with pytest.raises(TrainingDataError) as raised:
        blocks_module.train_blocks(tmp_path, tmp_path / "m.json", progress=lambda _: None)
    assert str(raised.value).startswith(
        "too few pages to train on: 2 pages with a true text, 2 with main-text blocks and 2 "
        "with noise blocks"
    )
    assert not (tmp_path / "m.json").exists()


def test_fewer_pages_than_folds_cross_validate_with_fewer_folds(tmp_path: Path) -> None:
    # two dev pages in each cross-fitting group: 6 pages, so 6-fold grid searches
    dev = _dev(range(200), "news")
    ids = [k for g in range(3) for k in [k for k in dev if _crossfit_group(k, "news") == g][:2]]
    _extraction(tmp_path / "extraction" / "news.zip", ids)
    said: list[str] = []
    report = blocks_module.train_blocks(tmp_path, tmp_path / "m.json", progress=said.append)
    notes = [line for line in said if "-fold CV instead of 10-fold" in line]
    assert [note.split(":")[0] for note in notes] == ["block SVM", "context SVM"]
    assert "6 pages give main-text blocks, 6 noise blocks: 6-fold CV" in notes[0]
    assert report["block_svm"]["folds"] == report["context_svm"]["folds"] == 6
    assert SvmModel.load(tmp_path / "m.json").metadata["block_svm"]["folds"] == 6


def test_train_blocks_reports_the_held_out_pages_and_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = range(20)
    _extraction(tmp_path / "extraction" / "news.zip", ids)
    out = tmp_path / "m.json"
    code, stdout, err = _train(["blocks", "--data", str(tmp_path), "--out", str(out)], capsys)
    assert code == 0
    summary = json.loads(stdout)
    data = SvmModel.load(out).metadata["training_data"]
    dev = len(_dev(ids, "news"))
    assert summary["held_out"] == 20 - dev
    counts = summary["training_data"]
    assert counts == {
        "pages": dev,
        "blocks": data["blocks"],
        "main": data["main"],
        "noise": data["noise"],
        "left_out": data["blocks"] - data["main"] - data["noise"],
    }
    assert counts["main"] > 0 and counts["noise"] > 0
    assert f"news: {dev} of {dev} dev pages with a true text, {20 - dev} held out" in err
    assert (
        f"training data: {dev} pages ({20 - dev} held out), {data['blocks']} blocks: "
        f"{data['main']} main text, {data['noise']} noise, {counts['left_out']} left out"
    ) in err


def test_datasets_are_read_once_each_and_in_one_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _extraction(tmp_path / "extraction" / "news.zip", range(12))
    _extraction(tmp_path / "extraction" / "web.zip", range(100, 112))
    written = []
    for k, datasets in enumerate(
        (["web", "news", "news"], ["news", "web"], [])  # [] = every dataset with truth
    ):
        out = tmp_path / f"m{k}.json"
        extra = [arg for name in datasets for arg in ("--dataset", name)]
        code, stdout, err = _train(
            ["blocks", "--data", str(tmp_path), "--out", str(out), *extra], capsys
        )
        assert code == 0
        assert [line.split(":")[0] for line in err.splitlines()[:2]] == ["news", "web"]
        assert json.loads(stdout)["pages"] == len(_dev(range(12), "news")) + len(
            _dev(range(100, 112), "web")
        )
        written.append(out.read_bytes())
    assert written[0] == written[1] == written[2]


def test_the_shipped_recipe_names_its_datasets_in_the_canonical_order() -> None:
    """``train blocks`` reads its datasets by name, so ``make models`` rebuilds the
    shipped file only if its recipe's order is that one (the pages' order is the
    sample's)."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("train blocks") : makefile.index("blocks.json")]
    named = re.findall(r"--dataset (\S+)", recipe)
    assert named == sorted(set(named)) == list(SHIPPED_DATASETS)


@pytest.mark.parametrize("what", ["blocks", "pages"])
def test_a_bad_out_path_is_refused_before_training(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    what: str,
) -> None:
    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("training started")

    monkeypatch.setattr(blocks_module, "train_blocks", never)
    monkeypatch.setattr(pages_module, "train_pages", never)
    missing = tmp_path / "no-such-folder" / "m.json"
    for out, problem in (
        (missing, f"--out {missing}: no directory {missing.parent}"),
        (tmp_path, f"--out {tmp_path} is a directory; give the model file's path"),
    ):
        code, stdout, err = _train([what, "--data", str(tmp_path), "--out", str(out)], capsys)
        assert code == 1 and stdout == ""
        assert _one_line(err) == f"scrapy-denoise train: {problem}"


def test_only_the_datas_value_errors_become_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a bug, not the data")

    monkeypatch.setattr(blocks_module, "train_blocks", broken)
    with pytest.raises(ValueError, match="a bug, not the data"):
        main(["train", "blocks", "--data", str(tmp_path), "--out", str(tmp_path / "m.json")])


def test_train_pages_refuses_the_block_options_in_one_prefixed_line(tmp_path: Path) -> None:
    for extra in (["--split", "dev-a"], ["--dataset", "wcxb"]):
        with pytest.raises(SystemExit) as raised:
            main(["train", "pages", "--data", str(tmp_path), "--out", "m.json", *extra])
        assert str(raised.value).startswith("scrapy-denoise train: --dataset and --split ")


def test_train_blocks_refuses_the_page_option_in_one_prefixed_line(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["train", "blocks", "--data", str(tmp_path), "--out", "m.json", "--without", "x"])
    assert str(raised.value).startswith("scrapy-denoise train: --without is for train pages")


# -- train pages --------------------------------------------------------------------------


def _site(path: Path, rows: list[tuple[str, str | None]]) -> Path:
    """``sites/NAME.zip``: one page per (kind, noise_type); articles and listings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    with zipfile.ZipFile(path, "w") as archive:
        for k, (kind, noise_type) in enumerate(rows):
            html = _article_html(k) if kind.lower() == "article" else _listing_html(k)
            archive.writestr(f"www/{k}.html", html)
            row = {"path": f"/{k}.html", "file": f"{k}.html", "kind": kind}
            lines.append(json.dumps({**row, "noise_type": noise_type}))
        archive.writestr("pages.jsonl", "\n".join(lines) + "\n")
    return path


def _typed(path: Path, types: list[Any]) -> Path:
    """``extraction/NAME.zip``: one page per entry of ``types`` (a ``page_type`` value, or
    ``...`` for no key), each on a domain of its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    with zipfile.ZipFile(path, "w") as archive:
        for k, page_type in enumerate(types):
            html = _listing_html(k) if page_type == "listing" else _article_html(k)
            archive.writestr(f"html/{k}.html", html)
            url = f"https://site{k}.example/{'latest' if k % 2 else 'story'}/{k}"
            row = {"id": str(k), "dataset": path.stem, "html": f"html/{k}.html", "url": url}
            if page_type is not ...:
                row["page_type"] = page_type
            lines.append(json.dumps(row))
        archive.writestr("index.jsonl", "\n".join(lines) + "\n")
    return path


@pytest.fixture
def no_feature_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.mark.usefixtures("no_feature_cache")
def test_untyped_and_unknown_pages_are_skipped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = ["article", "listing"] * 12
    odd = [..., None, "blogpost", "blogpost", "Article", 3, "documentation"]
    _typed(tmp_path / "extraction" / "mixed.zip", good + odd)
    site_rows: list[tuple[str, str | None]] = [("article", None)] * 8 + [("noise", "list")] * 8
    site_rows += [("Article", None), ("noise", None), ("noise", "article"), ("noise", "foo")]
    site_rows += [("article", "list")]
    _site(tmp_path / "sites" / "blog.zip", site_rows)
    out = tmp_path / "pages.json"
    code, stdout, err = _train(["pages", "--data", str(tmp_path), "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["skipped"] == {
        "sites/blog.zip": {
            'kind "Article"': 1,
            "noise page without noise_type": 1,
            'noise_type "article"': 1,
            'noise_type "foo"': 1,
            'article with noise_type "list"': 1,
        },
        "extraction/mixed.zip": {
            'page_type "blogpost"': 2,
            "no page_type": 2,
            'page_type "Article"': 1,
            "page_type 3": 1,
        },
    }
    assert (
        'extraction/mixed.zip: 6 pages skipped: no page_type (2), page_type "blogpost" (2), '
        'page_type "Article" (1), page_type 3 (1); known page types: article, index, list,'
    ) in err
    # the untyped pages were not trained as articles: only the typed ones were
    held = [k for k, t in enumerate(good) if not in_split(str(k), "mixed", "dev")]
    trained = SvmModel.load(out).metadata["trained_on"]
    assert trained == {
        "blog:article": 8,
        "blog:list": 8,
        "mixed:article": 12 - sum(good[k] == "article" for k in held),
        "mixed:listing": 12 - sum(good[k] == "listing" for k in held),
    }
    assert summary["held_out"] == len(held)
    assert summary["types_not_used"] == {"documentation": 1}
    assert summary["article_pages"] + summary["noise_pages"] == summary["pages"]
    assert (
        f"training on {summary['article_pages']} article and {summary['noise_pages']} noise "
        f"pages (of {len(good) + len(odd) + len(site_rows)} pages read: {len(held)} held out, "
        "1 of types not used, 11 skipped)"
    ) in err
    # said again when the features come from the cache
    code, _, again = _train(["pages", "--data", str(tmp_path), "--out", str(out)], capsys)
    assert code == 0 and "extraction/mixed.zip: 6 pages skipped" in again


@pytest.mark.usefixtures("no_feature_cache")
def test_a_dataset_left_out_is_neither_trained_on_nor_counted_as_held_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = ["article", "listing"] * 12
    _typed(tmp_path / "extraction" / "mixed.zip", good)
    _site(tmp_path / "sites" / "blog.zip", [("article", None)] * 8 + [("noise", "list")] * 8)
    out = tmp_path / "pages.json"
    args = ["pages", "--data", str(tmp_path), "--out", str(out), "--without", "mixed"]
    code, stdout, err = _train(args, capsys)
    assert code == 0, err
    summary = json.loads(stdout)
    assert (summary["held_out"], summary["left_out"]) == (0, {"mixed": len(good)})
    assert "(of 40 pages read: 0 held out, 24 of mixed left out, 0 of types not used" in err
    model = SvmModel.load(out)
    assert model.metadata["trained_on"] == {"blog:article": 8, "blog:list": 8}
    assert model.metadata["held_out"] == "every page of mixed"


@pytest.mark.usefixtures("no_feature_cache")
def test_too_few_pages_of_a_class_say_what_was_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _site(tmp_path / "sites" / "blog.zip", [("article", None)] * 3 + [("noise", "tag")] * 9)
    args = ["pages", "--data", str(tmp_path), "--out", str(tmp_path / "m.json"), "--quiet"]
    code, _, err = _train(args, capsys)
    assert code == 1
    assert _one_line(err) == (
        "scrapy-denoise train: the page model needs at least 5 article and 5 noise pages to "
        "cross-validate; found 3 article and 9 noise pages (of 12 pages read: 0 held out, "
        "0 of types not used, 0 skipped)"
    )


@pytest.mark.usefixtures("no_feature_cache")
def test_train_pages_on_a_malformed_zip_prints_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sites").mkdir()
    with zipfile.ZipFile(tmp_path / "sites" / "blog.zip", "w") as archive:
        archive.writestr("www/x.html", _article_html(0))
        archive.writestr("pages.jsonl", '{"path": "/x", "file": "x.html"}\n')
    args = ["pages", "--data", str(tmp_path), "--out", str(tmp_path / "m.json"), "--quiet"]
    code, _, err = _train(args, capsys)
    assert code == 1
    assert _one_line(err).endswith('sites/blog.zip: pages.jsonl line 1: missing key "kind"')
    # an extraction zip that is not a zip is named too, when deciding whether it is typed
    (tmp_path / "extraction").mkdir()
    (tmp_path / "extraction" / "mine.zip").write_bytes(b"PK not really")
    code, _, err = _train(args, capsys)
    assert code == 1
    assert _one_line(err).endswith("extraction/mine.zip: not a readable zip file")


def test_grouped_folds_that_would_train_without_a_class_fold_pages_instead() -> None:
    # 6 sites, but every article on one: a fold by site would hold all articles out
    y = np.asarray([0] * 10 + [1] * 10, dtype=np.int64)
    groups = ["a"] * 10 + [f"s{k % 5}" for k in range(10)]
    said: list[str] = []
    folds = pages_module._folds(y, groups, 0, said.append)
    assert said == [
        "cv: the article pages come from too few sites for 5 folds by site: pages are folded "
        "one by one"
    ]
    assert len(folds) == 5 and all(set(y[train].tolist()) == {0, 1} for train, _ in folds)
    said.clear()
    pages_module._folds(y, ["one site"] * 20, 0, said.append)
    assert said == ["cv: 1 site (groups) for 5 folds by site: pages are folded one by one"]
    said.clear()
    pages_module._folds(y, [f"s{k % 5}" for k in range(20)], 0, said.append)
    assert said == []  # folds by site when they can be made
