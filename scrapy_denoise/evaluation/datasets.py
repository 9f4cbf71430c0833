"""Readers for the shared evaluation data (``shared/data``), which never lives in the repo.

The zips are read in place and streamed page by page: the largest are hundreds of MB, and
evaluation only ever needs one page at a time. The layout is documented in
``shared/data/README.md``; only that layout is assumed here.

Held-out split
--------------
The data's own ``split`` fields are not usable for tuning (wcxb is all ``dev``, several sets
have none), so :func:`holdout` assigns every page to *dev* or *held-out* by a stable hash:
``md5("<dataset>/<page id>")``, first 8 bytes as an unsigned integer, held out when it falls
in the lowest :data:`HOLDOUT_SHARE` (30 %) of the range. The assignment never changes between
runs, machines or Python versions (unlike ``hash()``), and does not depend on the order or
number of pages, so adding pages never moves existing ones. Tune on ``split="dev"``; report
``split="holdout"`` untouched.

Development halves
------------------
The shipped block model is fitted on the development pages of four datasets, so scoring a
change on those pages scores the trees on pages they have seen, which flatters whatever
leans on them. ``dev-a`` and ``dev-b`` split every dataset's development pages in two by
another stable hash (:func:`dev_half`): train on one (``train blocks --split dev-a``),
score on the other (``eval --split dev-b``), and on the development pages of the datasets
never trained on, and nothing held out is read while choosing.

Malformed zips
--------------
The readers also read users' own training data (docs/training.md), so every index line is
checked as it streams past: a missing key, a value of the wrong JSON type, a line that is
not a JSON object, a member the line names but the zip lacks, or a repeated id raises
:class:`DatasetFormatError` naming the zip, the member and the line. The checks are a few
type comparisons per line, next to the JSON parse that reads it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal, get_args

__all__ = [
    "HOLDOUT_SHARE",
    "SPLITS",
    "TRAIN_SPLITS",
    "DatasetFormatError",
    "Page",
    "SitePage",
    "Split",
    "TrainSplit",
    "count_pages",
    "dev_half",
    "extract_www",
    "extraction_zip",
    "extraction_zips",
    "has_page_types",
    "has_truth",
    "holdout",
    "in_split",
    "iter_pages",
    "iter_site_pages",
    "shared_data_dir",
    "site_zip",
    "www_tempdir",
]

HOLDOUT_SHARE = 0.30
Split = Literal["all", "dev", "holdout", "dev-a", "dev-b"]
#: the splits a model may be trained on: the development pages, or one half of them
TrainSplit = Literal["dev", "dev-a", "dev-b"]
#: their values, for command-line choices and checks
SPLITS: tuple[str, ...] = get_args(Split)
TRAIN_SPLITS: tuple[str, ...] = get_args(TrainSplit)

_ENV_VAR = "DENOISE_SHARED_DATA"
#: what every command that needs the shared data says when it is missing: an installed
#: package has no ``../shared/data`` beside it, so the variable is the way to give it
DATA_NOT_FOUND = (
    f"shared evaluation data not found: set {_ENV_VAR} to the folder holding extraction/ "
    "and sites/ (a checkout of the repository also looks at ../shared/data beside it)"
)
_INDEX = "index.jsonl"
_SITE_INDEX = "pages.jsonl"
_TRUTH_INDEX = "truth/index.jsonl"
_WWW = "www/"
# Keys of an index line that become Page attributes; everything else goes to Page.extra.
_PAGE_KEYS = frozenset(
    {"id", "dataset", "url", "lang", "encoding", "charset_declared", "html", "text"}
)

_NULL = type(None)
_Keys = dict[str, tuple[bool, tuple[type, ...]]]
# What each index line must give (key: required, the JSON types allowed): the keys the
# readers use, so that a wrong one fails here with its line and not deep in a caller.
# Types are compared exactly (``type(v) in allowed``): a JSON ``true`` is no id.
_INDEX_TYPES: _Keys = {
    "id": (True, (str, int)),
    "dataset": (True, (str,)),
    "html": (True, (str,)),
    "text": (False, (str, _NULL)),
    "url": (False, (str, _NULL)),
    "lang": (False, (str, _NULL)),
    "encoding": (False, (str, _NULL)),
    "charset_declared": (False, (str, _NULL)),
}
_SITE_TYPES: _Keys = {
    "path": (True, (str,)),
    "file": (True, (str,)),
    "kind": (True, (str,)),
    "noise_type": (False, (str, _NULL)),
    "truth_path": (False, (str, _NULL)),
    "note": (False, (str, _NULL)),
}
_TRUTH_TYPES: _Keys = {
    "truth_path": (False, (str, _NULL)),
    "title": (False, (str, _NULL)),
    "date": (False, (str, _NULL)),
    "author": (False, (str, list, _NULL)),
    "authors": (False, (str, list, _NULL)),
}
_JSON_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    _NULL: "null",
}


class DatasetFormatError(ValueError):
    """A data zip that does not follow the documented layout (docs/training.md).

    The message names the zip, the member and the line, and says what is wrong, e.g.
    ``my-data/extraction/news.zip: index.jsonl line 7: missing key "html"``: users train
    on zips of their own, and a ``KeyError: 'html'`` from deep inside training names
    neither the file nor the line to fix. The command line prints it as one line.
    """


def shared_data_dir() -> Path | None:
    """The shared data folder, or None when absent (tests then skip).

    ``DENOISE_SHARED_DATA`` wins; otherwise ``<repo>/../shared/data``, the layout every
    checkout on the team and in CI has.
    """
    configured = os.environ.get(_ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
    else:
        path = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    return path if path.is_dir() else None


def _require_data_dir() -> Path:
    found = shared_data_dir()
    if found is None:
        raise FileNotFoundError(DATA_NOT_FOUND)
    return found


def extraction_zip(name: str) -> Path:
    """Path of ``extraction/<name>.zip``; raises FileNotFoundError naming what is missing."""
    path = _require_data_dir() / "extraction" / f"{name}.zip"
    if not path.is_file():
        raise FileNotFoundError(f"no extraction dataset {name!r} at {path}")
    return path


def extraction_zips(names: Iterable[str] | None = None) -> dict[str, Path]:
    """All extraction datasets by name, sorted, or empty when the data is absent; with
    ``names``, just those, each required (a misspelt ``--dataset`` is an error, not an
    empty table)."""
    if names:
        return {name: extraction_zip(name) for name in sorted(set(names))}
    root = shared_data_dir()
    if root is None:
        return {}
    return {p.stem: p for p in sorted((root / "extraction").glob("*.zip"))}


def site_zip(name: str) -> Path:
    """Path of ``sites/<name>.zip``; raises FileNotFoundError naming what is missing."""
    path = _require_data_dir() / "sites" / f"{name}.zip"
    if not path.is_file():
        raise FileNotFoundError(f"no site {name!r} at {path}")
    return path


def holdout(page_id: str, dataset: str) -> bool:
    """True for the ~30 % of pages reserved for measuring, never for tuning (see module doc)."""
    digest = hashlib.md5(f"{dataset}/{page_id}".encode(), usedforsecurity=False).digest()
    return int.from_bytes(digest[:8], "big") < HOLDOUT_SHARE * 2**64


def dev_half(page_id: str, dataset: str) -> str:
    """``"a"`` or ``"b"``: which half of the development pages a page is in (module doc);
    a hash of its own, so the halves cut across the held-out split's ranges."""
    digest = hashlib.md5(f"half:{dataset}:{page_id}".encode(), usedforsecurity=False).digest()
    return "b" if digest[0] & 1 else "a"


def in_split(page_id: str, dataset: str, split: Split) -> bool:
    """Whether a page belongs to ``split`` (``all``, ``dev`` = not held out, ``holdout``,
    ``dev-a`` and ``dev-b`` = the halves of ``dev``)."""
    if split == "all":
        return True
    if split == "holdout":
        return holdout(page_id, dataset)
    if split == "dev":
        return not holdout(page_id, dataset)
    if split in ("dev-a", "dev-b"):
        return not holdout(page_id, dataset) and dev_half(page_id, dataset) == split[-1]
    raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")


@dataclass(frozen=True, slots=True)
class Page:
    """One page of an extraction dataset: raw bytes as served, plus its ground truth.

    ``html`` stays undecoded so that decoding is part of what is measured, as in a crawl.
    """

    id: str
    dataset: str
    url: str | None
    lang: str | None
    encoding: str | None
    charset_declared: str | None
    html: bytes
    #: ground-truth main text, paragraphs separated by newlines; None where there is none
    text: str | None
    #: the index's other keys (split, page_type, title, domain, snippets, ...)
    extra: dict[str, Any] = field(default_factory=dict)


@contextmanager
def _open(zip_path: str | Path) -> Iterator[zipfile.ZipFile]:
    """The zip, or a DatasetFormatError when the file is not one (a missing file stays an
    OSError, which says so itself)."""
    try:
        archive = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as error:
        raise DatasetFormatError(f"{zip_path}: not a readable zip file") from error
    with archive:
        yield archive


def _no_index(archive: zipfile.ZipFile, zip_path: str | Path, member: str) -> DatasetFormatError:
    """Why ``member`` is missing, in the terms of the likely mistake: the other kind of
    zip, or a folder zipped with its name around the files."""
    names = archive.namelist()
    other, kind = (_SITE_INDEX, "a site") if member == _INDEX else (_INDEX, "an extraction")
    nested = next((n for n in names if n.endswith("/" + member)), None)
    if not names:
        why = "the zip is empty"
    elif other in names:
        why = f"it has {other}, so it is {kind} zip (docs/training.md)"
    elif nested is not None:
        why = f"found {nested}: zip the folder's contents, not the folder"
    else:
        why = "see docs/training.md for the layout"
    return DatasetFormatError(f"{zip_path}: no {member}: {why}")


def _rows(
    archive: zipfile.ZipFile,
    zip_path: str | Path,
    member: str,
    keys: _Keys,
    unique: str | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line of ``member`` with its number (from 1), checked against
    ``keys``; ``unique`` names a key no two lines may share (a page's id or path)."""
    try:
        handle = archive.open(member)
    except KeyError:
        raise _no_index(archive, zip_path, member) from None
    seen: dict[str, int] = {}
    number = 0

    def fail(problem: str) -> DatasetFormatError:
        # formatted only on failure: the lines that pass cost a few type checks each
        return DatasetFormatError(f"{zip_path}: {member} line {number}: {problem}")

    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except json.JSONDecodeError as error:
                raise fail(f"not JSON ({error.msg} at column {error.colno})") from error
            except UnicodeDecodeError as error:
                raise fail("not UTF-8 text") from error
            if type(row) is not dict:
                raise fail(f"the line is {_JSON_NAMES[type(row)]}, not a JSON object")
            for key, (required, allowed) in keys.items():
                if key not in row:
                    if required:
                        raise fail(f'missing key "{key}"')
                elif type(row[key]) not in allowed:
                    wanted = " or ".join(_JSON_NAMES[t] for t in allowed)
                    raise fail(f'"{key}" must be {wanted}, not {_JSON_NAMES[type(row[key])]}')
            if unique is not None:
                first = seen.setdefault(str(row[unique]), number)
                if first != number:
                    raise fail(
                        f"{unique} {json.dumps(row[unique])} is also on line {first} "
                        f"({unique}s must be unique within the zip)"
                    )
            yield number, row


def _member(archive: zipfile.ZipFile, zip_path: str | Path, name: str, where: str) -> bytes:
    """The bytes of member ``name``, which line ``where`` of an index named."""
    try:
        return archive.read(name)
    except KeyError:
        problem = f'member "{name}" is not in the zip'
        raise DatasetFormatError(f"{zip_path}: {where}: {problem}") from None
    except zipfile.BadZipFile as error:
        raise DatasetFormatError(f"{zip_path}: {name}: {error}") from error


def _selected(
    archive: zipfile.ZipFile,
    zip_path: str | Path,
    split: Split,
    limit: int | None,
    name: str | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    taken = 0
    for number, row in _rows(archive, zip_path, _INDEX, _INDEX_TYPES, unique="id"):
        if limit is not None and taken >= limit:
            return
        if name is not None and row["dataset"] != name:
            raise DatasetFormatError(
                f'{zip_path}: {_INDEX} line {number}: "dataset" is '
                f'{json.dumps(row["dataset"])}, not the zip\'s name "{name}" (with the id, '
                "it decides which pages are held out)"
            )
        if in_split(str(row["id"]), row["dataset"], split):
            taken += 1
            yield number, row


def iter_pages(
    zip_path: str | Path,
    *,
    split: Split = "all",
    limit: int | None = None,
    name: str | None = None,
) -> Iterator[Page]:
    """Stream the pages of ``extraction/NAME.zip`` in index order.

    ``limit`` counts pages *after* the split filter, so ``limit=100, split="dev"`` gives 100
    dev pages. Only one page's HTML is in memory at a time. With ``name`` (training does
    it), every line's ``dataset`` must be that name: the hold-out hashes ``dataset/id``, so
    a stray value would move pages across it in silence. Evaluation leaves it out, so a
    renamed copy of a zip still scores. Raises :class:`DatasetFormatError` (module doc).
    """
    with _open(zip_path) as archive:
        for number, row in _selected(archive, zip_path, split, limit, name):
            html = _member(archive, zip_path, row["html"], f"{_INDEX} line {number}")
            extra = {k: v for k, v in row.items() if k not in _PAGE_KEYS}
            yield Page(
                id=str(row["id"]),
                dataset=row["dataset"],
                url=row.get("url"),
                lang=row.get("lang"),
                encoding=row.get("encoding"),
                charset_declared=row.get("charset_declared"),
                html=html,
                text=row.get("text"),
                extra=extra,
            )


def count_pages(zip_path: str | Path, *, split: Split = "all", limit: int | None = None) -> int:
    """How many pages :func:`iter_pages` will yield, reading only the index (for progress)."""
    with _open(zip_path) as archive:
        return sum(1 for _ in _selected(archive, zip_path, split, limit))


def has_truth(zip_path: str | Path) -> bool:
    """Whether any page of the dataset has a non-empty true text (reads only the index)."""
    with _open(zip_path) as archive:
        rows = _rows(archive, zip_path, _INDEX, _INDEX_TYPES, unique="id")
        return any((row.get("text") or "").strip() for _, row in rows)


def has_page_types(zip_path: str | Path) -> bool:
    """Whether any page of the dataset has a ``page_type`` key (reads only the index): the
    page model trains on such zips (docs/training.md)."""
    with _open(zip_path) as archive:
        rows = _rows(archive, zip_path, _INDEX, _INDEX_TYPES, unique="id")
        return any("page_type" in row for _, row in rows)


@dataclass(frozen=True, slots=True)
class SitePage:
    """One HTML page of a site snapshot, with its label and, for articles, the truth."""

    #: URL path, percent-decoded; compare with ``unquote(urlsplit(url).path)``
    path: str
    #: file under ``www/``
    file: str
    #: the file's bytes (may be empty: the snapshots keep real 0-byte pages)
    html: bytes
    #: ``article`` or ``noise``
    kind: str
    #: ``index|list|tag|archive|other`` for noise pages, None for articles
    noise_type: str | None
    #: ground-truth article text (may be empty for image-only posts); None for noise pages
    truth: str | None
    title: str | None = None
    #: as given by the site (``YYYY-MM-DD`` or ISO 8601 with time)
    date: str | None = None
    authors: tuple[str, ...] = ()
    #: anomaly note from ``pages.jsonl`` (redirect stub, empty file, ...)
    note: str | None = None
    #: remaining truth-index keys (tags, subtitle, source, ...)
    extra: dict[str, Any] = field(default_factory=dict)


_TRUTH_KEYS = frozenset({"path", "truth_path", "title", "date", "author", "authors"})


def _authors(meta: dict[str, Any]) -> tuple[str, ...]:
    """Sites differ: one gives ``author`` (a string or null), another ``authors`` (a list)."""
    value = meta.get("authors", meta.get("author"))
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,) if value.strip() else ()
    return tuple(str(v) for v in value)


def _truth(archive: zipfile.ZipFile, zip_path: str | Path, name: str, where: str) -> str:
    try:
        return _member(archive, zip_path, name, where).decode("utf-8")
    except UnicodeDecodeError as error:
        raise DatasetFormatError(f"{zip_path}: {name}: not UTF-8 text") from error


def iter_site_pages(zip_path: str | Path, *, with_html: bool = True) -> Iterator[SitePage]:
    """Stream every page listed in a site zip's ``pages.jsonl``, truth attached.

    ``with_html=False`` skips reading page bytes (``html`` is then ``b""``) for callers that
    only need the labels, e.g. to score a crawl whose output is already in a database.
    """
    with _open(zip_path) as archive:
        # a site labelled for the page filter alone needs no truth (docs/training.md)
        has_truth = _TRUTH_INDEX in archive.namelist()
        truth_rows = _rows(archive, zip_path, _TRUTH_INDEX, _TRUTH_TYPES) if has_truth else ()
        meta_by_truth = {row["truth_path"]: row for _, row in truth_rows if row.get("truth_path")}
        for number, row in _rows(archive, zip_path, _SITE_INDEX, _SITE_TYPES, unique="path"):
            where = f"{_SITE_INDEX} line {number}"
            truth_path = row.get("truth_path")
            meta = meta_by_truth.get(truth_path, {}) if truth_path else {}
            truth = _truth(archive, zip_path, truth_path, where) if truth_path else None
            yield SitePage(
                path=row["path"],
                file=row["file"],
                html=_member(archive, zip_path, _WWW + row["file"], where) if with_html else b"",
                kind=row["kind"],
                noise_type=row.get("noise_type"),
                truth=truth,
                title=meta.get("title"),
                date=meta.get("date"),
                authors=_authors(meta),
                note=row.get("note"),
                extra={k: v for k, v in meta.items() if k not in _TRUTH_KEYS},
            )


def extract_www(zip_path: str | Path, dest: str | Path) -> Path:
    """Unpack a site zip's ``www/`` tree into ``dest`` and return the document root.

    Members whose path would escape ``dest`` (absolute, ``..``) are refused rather than
    trusted: the snapshots are third-party content.
    """
    dest = Path(dest)
    root = dest.resolve()
    root.mkdir(parents=True, exist_ok=True)
    with _open(zip_path) as archive:
        for info in archive.infolist():
            if not info.filename.startswith(_WWW) or info.is_dir():
                continue
            relative = PurePosixPath(info.filename[len(_WWW) :])
            if relative.is_absolute() or ".." in relative.parts:
                raise ValueError(f"unsafe member name in {zip_path}: {info.filename!r}")
            target = root.joinpath(*relative.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink)
    return root


@contextmanager
def www_tempdir(zip_path: str | Path) -> Iterator[Path]:
    """The ``www/`` tree of a site zip in a temporary directory, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="denoise-www-") as tmp:
        yield extract_www(zip_path, tmp)
