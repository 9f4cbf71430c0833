"""The "metadata" section of BENCHMARKS.md: title, date and author against the sites' truth.

A stored article is a row with a title, a publication date and an author as well as the
text, so those are measured too, on the article pages of the shared sites, whose truth
index gives each post's title, date and authors as the site's own source declares them.
trafilatura's metadata (``bare_extraction(..., with_metadata=True)``) is scored on the same
pages in the same run.

Scoring, per article page with the field in its truth:

* **title**: equal after collapsing whitespace and case folding;
* **date**: the same calendar day (the truth's own date; our datetime in the offset the
  page gave it);
* **author**: every true author's name occurs in the extracted author string (case folded);
  pages whose truth names nobody are not scored for author.

Both sites put the post's date in its URL (``/2014/08/26/...``, ``/blog/2012/03/12/...``),
which many sites do not, so the date is scored a second time with the page served under
a URL without one (``/post/<hash of the path>/``): the date as the page itself gives it.

Two sites are two templates, so dates are also scored on the extraction datasets' pages
whose URL carries a date (``/2008/01/10/``): 191 pages of 127 sites, 1997 to 2026, from
l3s-gn1 (121), cleaneval (35) and wcxb (35), dated with no URL at all
(:func:`url_date_benchmark`). The URL's date is the
truth; "within a day" is also counted, because papers east of the URL's time zone print
the next day. Split like the extraction benchmark, so the held-out rows are pages no date
rule was tuned on.

Titles are scored the same way on ``wcxb``, whose index gives each page's title as a
reader sees it (:func:`title_benchmark`): 1,358 pages of about 1,200 sites and seven page
types, each with its real URL.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from ..dates import url_date
from ..encoding import decode
from .datasets import SitePage, Split, extraction_zips, iter_pages, iter_site_pages, site_zip

__all__ = [
    "FIELDS",
    "FieldScore",
    "MetadataGuess",
    "UrlDateScore",
    "format_metadata",
    "format_titles",
    "format_url_dates",
    "metadata_benchmark",
    "score_page",
    "title_benchmark",
    "url_date_benchmark",
]

_WS = re.compile(r"\s+")
#: the scored fields, in table order; "date_in_page" is the date with no date in the URL
FIELDS = ("title", "date", "date_in_page", "author")
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True, slots=True)
class MetadataGuess:
    title: str | None
    #: a datetime, a date, or an ISO 8601 string (trafilatura gives ``YYYY-MM-DD``)
    published: datetime | date | str | None
    author: str | None


@dataclass(slots=True)
class FieldScore:
    correct: int = 0
    scored: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.scored if self.scored else None


def _norm(text: str | None) -> str:
    return _WS.sub(" ", text or "").strip().casefold()


def _day(value: datetime | date | str | None) -> date | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    match = _DAY.search(value)
    if not match:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def score_page(page: SitePage, guess: MetadataGuess) -> dict[str, bool | None]:
    """Per field: right, wrong, or None when the truth has nothing to compare with."""
    out: dict[str, bool | None] = {"title": None, "date": None, "author": None}
    if page.title:
        out["title"] = _norm(guess.title) == _norm(page.title)
    true_day = _day(page.date)
    if true_day is not None:
        out["date"] = _day(guess.published) == true_day
    names = [_norm(name) for name in page.authors if _norm(name)]
    if names:
        found = _norm(guess.author)
        out["author"] = bool(found) and all(name in found for name in names)
    return out


Guesser = Callable[[bytes, str], MetadataGuess]


def _ours() -> Guesser:
    from .. import Denoiser

    denoiser = Denoiser(store=False)

    def guess(body: bytes, url: str) -> MetadataGuess:
        article = denoiser.extract(body, url)
        return MetadataGuess(article.title, article.published, article.author)

    return guess


def _trafilatura() -> Guesser | None:
    try:
        import trafilatura
    except ImportError:
        return None

    def guess(body: bytes, url: str) -> MetadataGuess:
        try:
            found = trafilatura.bare_extraction(
                decode(body).text, url=url, with_metadata=True, as_dict=True
            )
        except Exception:  # the peer's crash on a page counts as a miss; ours must not crash
            found = None
        if not isinstance(found, dict):
            return MetadataGuess(None, None, None)
        return MetadataGuess(found.get("title"), found.get("date"), found.get("author"))

    return guess


def _guessers() -> dict[str, Guesser]:
    guessers: dict[str, Guesser] = {"scrapy-denoise": _ours()}
    peer = _trafilatura()
    if peer is not None:
        guessers["trafilatura"] = peer
    return guessers


def metadata_benchmark(
    sites: Sequence[str],
    *,
    progress: Callable[[str], object] | None = None,
) -> dict[str, dict[str, dict[str, FieldScore]]]:
    """site -> extractor -> field -> score, over the sites' article pages in path order."""
    guessers = _guessers()
    results: dict[str, dict[str, dict[str, FieldScore]]] = {}
    for site in sites:
        table = {name: {f: FieldScore() for f in FIELDS} for name in guessers}
        pages = [p for p in iter_site_pages(site_zip(site)) if p.kind == "article" and p.html]
        for page in sorted(pages, key=lambda p: p.path):
            url = f"https://{site}.example{page.path}"
            undated = (
                f"https://{site}.example/post/{hashlib.md5(page.path.encode()).hexdigest()[:12]}/"
            )
            for name, guess in guessers.items():
                verdicts = score_page(page, guess(page.html, url))
                verdicts["date_in_page"] = score_page(page, guess(page.html, undated))["date"]
                for field_name, right in verdicts.items():
                    if right is None:
                        continue
                    score = table[name][field_name]
                    score.scored += 1
                    score.correct += int(right)
        results[site] = table
        if progress is not None:
            progress(f"{site}: {len(pages)} article pages")
    return results


def format_metadata(results: dict[str, dict[str, dict[str, FieldScore]]]) -> str:
    lines = [
        "| site | extractor | title | date (day) | date, none in the URL | author |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for site, table in results.items():
        for name, fields in table.items():
            cells = []
            for field_name in FIELDS:
                score = fields.get(field_name, FieldScore())
                accuracy = score.accuracy
                cells.append(
                    "—" if accuracy is None else f"{accuracy:.3f} ({score.correct}/{score.scored})"
                )
            lines.append(f"| {site} | {name} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "Accuracy over the article pages whose truth has the field: title equal after "
        "whitespace and case folding; date on the same calendar day; author when every true "
        "author's name occurs in the extracted author. URLs are "
        "`https://SITE.example/PATH`, so no date comes from a real URL; the second date "
        "column serves each page as `https://SITE.example/post/HASH/`, so the date must "
        "come from the page."
    )
    return "\n".join(lines) + "\n"


@dataclass(slots=True)
class UrlDateScore:
    pages: int = 0
    dated: int = 0
    same_day: int = 0
    within_a_day: int = 0


def url_date_benchmark(
    splits: Sequence[Split] = ("dev", "holdout"),
    *,
    progress: Callable[[str], object] | None = None,
) -> dict[str, dict[str, UrlDateScore]]:
    """split -> extractor -> score over the extraction pages whose URL carries a date,
    each dated from its HTML alone (no URL given)."""
    guessers = _guessers()
    results: dict[str, dict[str, UrlDateScore]] = {}
    for split in splits:
        table = {name: UrlDateScore() for name in guessers}
        for path in extraction_zips().values():
            for page in iter_pages(path, split=split):
                truth = url_date(page.url or "")
                if truth is None:
                    continue
                for name, guess in guessers.items():
                    score = table[name]
                    score.pages += 1
                    found = _day(guess(page.html, "").published)
                    if found is None:
                        continue
                    gap = abs((found - truth.date()).days)
                    score.dated += 1
                    score.same_day += gap == 0
                    score.within_a_day += gap <= 1
        results[split] = table
        if progress is not None:
            progress(f"url dates, {split}: {table['scrapy-denoise'].pages} pages")
    return results


def format_url_dates(results: dict[str, dict[str, UrlDateScore]]) -> str:
    lines = [
        "| split | extractor | pages | dated | the URL's day | within a day |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for split, table in results.items():
        for name, score in table.items():
            n = score.pages or 1
            lines.append(
                f"| {split} | {name} | {score.pages} | {score.dated} | "
                f"{score.same_day / n:.3f} ({score.same_day}) | "
                f"{score.within_a_day / n:.3f} ({score.within_a_day}) |"
            )
    lines.append("")
    lines.append(
        "Pages of the extraction datasets whose URL carries a full date, dated from the HTML "
        "with no URL; the URL's date is the truth. `dev` is where the date rules were "
        "tuned, `holdout` the project's md5 hold-out."
    )
    return "\n".join(lines) + "\n"


def title_benchmark(
    splits: Sequence[Split] = ("dev", "holdout"),
    *,
    dataset: str = "wcxb",
    progress: Callable[[str], object] | None = None,
) -> dict[str, dict[str, FieldScore]]:
    """split -> extractor -> title accuracy over ``dataset``'s pages that have a title."""
    guessers = _guessers()
    path = extraction_zips()[dataset]
    results: dict[str, dict[str, FieldScore]] = {}
    for split in splits:
        table = {name: FieldScore() for name in guessers}
        for page in iter_pages(path, split=split):
            truth = page.extra.get("title")
            if not isinstance(truth, str) or not _norm(truth):
                continue
            for name, guess in guessers.items():
                score = table[name]
                score.scored += 1
                score.correct += _norm(guess(page.html, page.url or "").title) == _norm(truth)
        results[split] = table
        if progress is not None:
            progress(f"titles, {dataset} {split}: {table['scrapy-denoise'].scored} pages")
    return results


def format_titles(results: dict[str, dict[str, FieldScore]], dataset: str = "wcxb") -> str:
    lines = ["| split | extractor | pages | title right |", "|---|---|---:|---:|"]
    for split, table in results.items():
        for name, score in table.items():
            accuracy = score.accuracy
            cell = "—" if accuracy is None else f"{accuracy:.3f} ({score.correct})"
            lines.append(f"| {split} | {name} | {score.scored} | {cell} |")
    lines.append("")
    lines.append(
        f"Pages of `{dataset}` (all page types) whose index gives a title; right when equal "
        "after whitespace and case folding. `dev` is where the title rules were tuned, "
        "`holdout` the project's md5 hold-out."
    )
    return "\n".join(lines) + "\n"
