"""Run extractors over dataset pages and score them on equal terms.

Fairness rules, because the comparison is only worth what its setup is:

* each page is decoded once (``scrapy_denoise.encoding.decode``) and every extractor gets the
  same ``str``, so nobody wins or loses on charset handling;
* CPU time is ``time.process_time()`` around the extractor call only (not decoding, not
  scoring), so a busy shared machine does not distort it the way wall time would;
* before timing starts every extractor is called once, untimed, on the first page, so
  one-off costs (lazy imports, model loading) are not charged to whoever runs first;
* an extractor that raises is counted as an error and scored as if it returned nothing, so
  one bad page neither aborts the run nor silently disappears from the denominator.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sized
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scrapy_denoise.encoding import decode
from scrapy_denoise.evaluation.datasets import Page, Split, count_pages, iter_pages
from scrapy_denoise.evaluation.metrics import (
    Aggregate,
    LcsAggregate,
    LcsScore,
    PageCounts,
    lcs_prf,
    page_counts,
    paired_f1_difference,
)

__all__ = [
    "Extractor",
    "PageRecord",
    "ProgressCallback",
    "Result",
    "evaluate",
    "evaluate_dataset",
    "format_table",
    "to_json",
]

#: ``(html, url) -> plain text``, one paragraph per line
Extractor = Callable[[str, str | None], str]
#: called after each page with (pages done, total pages or None when unknown)
ProgressCallback = Callable[[int, int | None], None]

_MAX_ERROR_EXAMPLES = 5
_CHINESE = "zh"


@dataclass(frozen=True, slots=True)
class PageRecord:
    """One extractor's outcome on one page, kept when asked for error analysis."""

    page_id: str
    cpu_seconds: float
    #: None when the page has no ground truth
    counts: PageCounts | None
    #: only for Chinese pages with ground truth
    lcs: LcsScore | None
    error: str | None = None


@dataclass(frozen=True)
class Result:
    """One extractor's scores on one dataset (or any set of pages).

    Score fields are None when undefined: no page had ground truth (gne-tests), or, for the
    LCS fields, no Chinese page had.
    """

    extractor: str
    dataset: str
    pages: int
    #: pages that had ground truth and therefore a shingle score
    scored_pages: int
    precision: float | None
    recall: float | None
    f1: float | None
    #: Chinese pages with ground truth, scored by character LCS
    lcs_pages: int
    lcs_precision: float | None
    lcs_recall: float | None
    lcs_f1: float | None
    cpu_seconds: float
    errors: int
    error_examples: tuple[str, ...] = ()
    page_records: tuple[PageRecord, ...] = field(default=(), repr=False)

    @property
    def pages_per_cpu_second(self) -> float | None:
        return self.pages / self.cpu_seconds if self.cpu_seconds > 0 else None

    def to_dict(self, *, per_page: bool = False) -> dict[str, Any]:
        """JSON-ready fields; per-page records only on request, they dwarf the rest."""
        data = {
            "extractor": self.extractor,
            "dataset": self.dataset,
            "pages": self.pages,
            "scored_pages": self.scored_pages,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "lcs_pages": self.lcs_pages,
            "lcs_precision": self.lcs_precision,
            "lcs_recall": self.lcs_recall,
            "lcs_f1": self.lcs_f1,
            "cpu_seconds": self.cpu_seconds,
            "pages_per_cpu_second": self.pages_per_cpu_second,
            "errors": self.errors,
            "error_examples": list(self.error_examples),
        }
        if per_page:
            data["page_records"] = [asdict(record) for record in self.page_records]
        return data


@dataclass
class _Tally:
    shingle: Aggregate = field(default_factory=Aggregate)
    lcs: LcsAggregate = field(default_factory=LcsAggregate)
    pages: int = 0
    cpu_seconds: float = 0.0
    errors: int = 0
    error_examples: list[str] = field(default_factory=list)
    records: list[PageRecord] = field(default_factory=list)

    def result(self, name: str, dataset: str) -> Result:
        return Result(
            extractor=name,
            dataset=dataset,
            pages=self.pages,
            scored_pages=self.shingle.pages,
            precision=self.shingle.precision,
            recall=self.shingle.recall,
            f1=self.shingle.f1,
            lcs_pages=self.lcs.pages,
            lcs_precision=self.lcs.precision,
            lcs_recall=self.lcs.recall,
            lcs_f1=self.lcs.f1,
            cpu_seconds=self.cpu_seconds,
            errors=self.errors,
            error_examples=tuple(self.error_examples),
            page_records=tuple(self.records),
        )


def _run_timed(extractor: Extractor, html: str, url: str | None) -> tuple[str, float, str | None]:
    start = time.process_time()
    try:
        output = extractor(html, url)
    except Exception as error:  # an extractor's failure is data, not a crash
        return "", time.process_time() - start, f"{type(error).__name__}: {error}"
    elapsed = time.process_time() - start
    if not isinstance(output, str):
        return "", elapsed, f"returned {type(output).__name__}, not str"
    return output, elapsed, None


def _warm_up(extractors: Mapping[str, Extractor], html: str, url: str | None) -> None:
    for extractor in extractors.values():
        # A failure here is not counted: the timed call on the same page will count it.
        with contextlib.suppress(Exception):
            extractor(html, url)


def evaluate(
    pages: Iterable[Page],
    extractors: Mapping[str, Extractor],
    *,
    progress: ProgressCallback | None = None,
    total: int | None = None,
    warmup: bool = True,
    keep_pages: bool = False,
) -> dict[str, Result]:
    """Score every extractor on every page; see the module docstring for the rules.

    ``total`` is only passed through to ``progress`` (taken from ``len(pages)`` when
    omitted and ``pages`` has a length). ``keep_pages`` stores a :class:`PageRecord` per
    page and extractor in ``Result.page_records``.
    """
    if total is None and isinstance(pages, Sized):
        total = len(pages)
    tallies = {name: _Tally() for name in extractors}
    datasets: dict[str, None] = {}
    for done, page in enumerate(pages, start=1):
        datasets.setdefault(page.dataset, None)
        html = decode(page.html).text
        if warmup and done == 1:
            _warm_up(extractors, html, page.url)
        has_truth = page.text is not None
        chinese = has_truth and page.lang == _CHINESE
        for name, extractor in extractors.items():
            output, cpu, error = _run_timed(extractor, html, page.url)
            tally = tallies[name]
            tally.pages += 1
            tally.cpu_seconds += cpu
            if error is not None:
                tally.errors += 1
                if len(tally.error_examples) < _MAX_ERROR_EXAMPLES:
                    tally.error_examples.append(f"{page.id}: {error}")
            counts = page_counts(page.text, output) if has_truth else None
            if counts is not None:
                tally.shingle.add(counts)
            lcs = lcs_prf(page.text, output) if chinese else None
            if lcs is not None:
                tally.lcs.add(lcs)
            if keep_pages:
                tally.records.append(PageRecord(page.id, cpu, counts, lcs, error))
        if progress is not None:
            progress(done, total)
    dataset = "+".join(datasets) or "-"
    return {name: tally.result(name, dataset) for name, tally in tallies.items()}


def evaluate_dataset(
    zip_path: str | Path,
    extractors: Mapping[str, Extractor],
    *,
    limit: int | None = None,
    split: Split = "all",
    progress: ProgressCallback | None = None,
    warmup: bool = True,
    keep_pages: bool = False,
) -> dict[str, Result]:
    """Evaluate on ``extraction/NAME.zip``: the first ``limit`` pages of ``split``.

    ``split`` is the project's own stable hash split (``datasets.holdout``), not the
    datasets' ``split`` field: tune on ``dev``, report ``holdout``.
    """
    total = count_pages(zip_path, split=split, limit=limit)
    return evaluate(
        iter_pages(zip_path, split=split, limit=limit),
        extractors,
        progress=progress,
        total=total,
        warmup=warmup,
        keep_pages=keep_pages,
    )


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _difference(result: Result, ref: Result | None) -> str:
    """F1 minus the reference's with its paired bootstrap interval, from the page records
    (:func:`evaluate` with ``keep_pages``); a dash without them or for the reference."""
    if ref is None or ref is result or not result.page_records:
        return "—"
    if len(ref.page_records) != len(result.page_records):
        return "—"
    found = paired_f1_difference(
        [r.counts for r in result.page_records], [r.counts for r in ref.page_records]
    )
    if found is None:
        return "—"
    return f"{found.diff:+.3f} ({found.low:+.3f} to {found.high:+.3f})"


def format_table(
    results_by_dataset: Mapping[str, Mapping[str, Result]], reference: str = "trafilatura"
) -> str:
    """Markdown table, one row per (dataset, extractor), plus footnotes.

    The CPU ratio compares with ``reference`` on the same dataset in the same run, the only
    speed comparison that survives a change of machine. The F1 difference with the
    reference comes with a paired bootstrap interval when the results kept their page
    records: on a few hundred pages a difference of a point or two can be chance.
    Footnotes carry what the columns cannot: datasets without ground truth (speed only),
    Chinese LCS scores and errors. Without the reference in the results (``eval`` without
    ``--compare``), the two columns comparing with it are left out.
    """
    compared = any(reference in results for results in results_by_dataset.values())
    if compared:
        lines = [
            f"| dataset | extractor | pages | P | R | F1 | F1 - {reference} (95 % interval) | "
            f"pages/CPU-s | CPU time vs {reference} |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
    else:
        lines = [
            "| dataset | extractor | pages | P | R | F1 | pages/CPU-s |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
    notes: list[str] = []
    for dataset, results in results_by_dataset.items():
        ref = results.get(reference)
        for name, result in results.items():
            row = (
                f"| {dataset} | {name} | {result.pages} | {_fmt(result.precision)} | "
                f"{_fmt(result.recall)} | {_fmt(result.f1)} | "
            )
            speed = _fmt(result.pages_per_cpu_second, 1)
            if not compared:
                lines.append(f"{row}{speed} |")
                continue
            ratio: str = "—"
            if ref is not None and ref.cpu_seconds > 0:
                ratio = f"{result.cpu_seconds / ref.cpu_seconds:.2f}x"
            lines.append(f"{row}{_difference(result, ref)} | {speed} | {ratio} |")
            if result.lcs_pages:
                notes.append(
                    f"{dataset} / {name}: character LCS P {_fmt(result.lcs_precision)}, "
                    f"R {_fmt(result.lcs_recall)}, F1 {_fmt(result.lcs_f1)} "
                    f"({result.lcs_pages} Chinese pages)"
                )
            if result.errors:
                notes.append(
                    f"{dataset} / {name}: {result.errors} pages raised an error "
                    "(scored as empty output)"
                )
        if results and all(r.scored_pages == 0 for r in results.values()):
            notes.append(f"{dataset}: no ground truth, pages and speed only")
    if notes:
        lines.append("")
        lines.extend(f"- {note}" for note in notes)
    return "\n".join(lines) + "\n"


def to_json(
    results_by_dataset: Mapping[str, Mapping[str, Result]], *, per_page: bool = False
) -> str:
    """``{dataset: {extractor: fields}}`` as indented JSON, for diffing runs."""
    payload = {
        dataset: {name: result.to_dict(per_page=per_page) for name, result in results.items()}
        for dataset, results in results_by_dataset.items()
    }
    return json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False)
