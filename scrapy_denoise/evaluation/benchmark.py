"""The extraction table of BENCHMARKS.md: every method and the peers, one run, held-out pages.

All extractors see the same decoded pages in the same process (see :mod:`.runner`), so the
CPU-time ratios against trafilatura hold on any machine even though absolute speeds don't.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .datasets import DATA_NOT_FOUND, Split, extraction_zips, shared_data_dir
from .peers import TRAFILATURA_ROW, installed_peers
from .runner import Result, evaluate_dataset, format_table

__all__ = ["ALL_METHODS", "extraction_benchmark", "format_summary", "method_extractor"]

#: methods compared in the table; ``default`` is what a crawl runs
ALL_METHODS: tuple[str, ...] = ("default", "block_svm", "cevc", "correlativity", "punctuation")
#: the peer every F1 difference, win and CPU ratio is taken against
_REFERENCE = "trafilatura"


def method_extractor(
    method: str, params: Mapping[str, object] | None = None, *, keep_headline: bool = True
) -> Callable[[str, str | None], str]:
    """Our extractor as the crawl runs it on unrelated single pages (no site store);
    ``params`` overrides the method's parameters (e.g. another model file)."""
    from .. import Denoiser

    method_params = {method: dict(params)} if params else {}
    denoiser = Denoiser(
        method=method, store=False, method_params=method_params, keep_headline=keep_headline
    )

    def extract(html: str, url: str | None = None) -> str:
        return denoiser.extract(html, url or "").text

    return extract


def extraction_benchmark(
    *,
    methods: Sequence[str] = ALL_METHODS,
    datasets: Sequence[str] | None = None,
    split: Split = "holdout",
    limit: int | None = None,
    with_peers: bool = True,
    progress: Callable[[str], Callable[[int, int | None], None]] | None = None,
) -> tuple[str, dict[str, dict[str, Result]]]:
    """Run the table; returns (Markdown, results by dataset)."""
    from ..methods import METHODS

    extractors: dict[str, Any] = {}
    for method in methods:
        if method != "default" and method not in METHODS:
            continue
        extractors["scrapy-denoise" if method == "default" else method] = method_extractor(method)
    if with_peers:
        extractors.update(installed_peers(metadata=True))
    zips = extraction_zips(datasets)
    if not zips:
        root = shared_data_dir()
        why = DATA_NOT_FOUND if root is None else f"no extraction/*.zip under {root}"
        raise FileNotFoundError(f"no extraction datasets: {why}")
    results: dict[str, dict[str, Result]] = {}
    for name, path in zips.items():
        results[name] = evaluate_dataset(
            path,
            extractors,
            split=split,
            limit=limit,
            progress=progress(name) if progress else None,
            keep_pages=True,  # for the bootstrap interval of the F1 differences
        )
    table = format_table(results, reference=_REFERENCE if with_peers else "")
    summary = format_summary(results)
    return table + "\n" + summary, results


def _ratio(result: Result | None, ref: Result | None) -> float | None:
    if result is None or ref is None or ref.cpu_seconds <= 0:
        return None
    return result.cpu_seconds / ref.cpu_seconds


def _fmt_ratio(ratios: Sequence[float]) -> str:
    return f"{sum(ratios) / len(ratios):.2f}x" if ratios else "—"


def format_summary(results: dict[str, dict[str, Result]]) -> str:
    """Mean F1 over the datasets with ground truth and mean CPU ratios, then the default's
    CPU ratio per dataset.

    CPU is compared twice. Against trafilatura's text-only call, which is how its users
    call it for text. And against :data:`~.peers.TRAFILATURA_ROW`, trafilatura reading the
    title, date and author too: our chain always does that (and judges the page and its
    language), so that is the price of the same stored row from each library.
    """
    names: list[str] = []
    for by_name in results.values():
        for name in by_name:
            if name not in names:
                names.append(name)
    with_row_peer = any(TRAFILATURA_ROW in by_name for by_name in results.values())
    row_header = f" mean CPU time vs {TRAFILATURA_ROW} |" if with_row_peer else ""
    lines = [
        "| extractor | mean F1 (datasets with truth) | datasets with F1 above trafilatura's | "
        "mean CPU time vs trafilatura |" + row_header,
        "|---|---:|---:|---:|" + ("---:|" if with_row_peer else ""),
    ]
    for name in names:
        f1s, wins, ratios, row_ratios = [], 0, [], []
        for by_name in results.values():
            res, ref = by_name.get(name), by_name.get(_REFERENCE)
            if res is None:
                continue
            if res.f1 is not None:
                f1s.append(res.f1)
                # strictly above: a tie is no win, and trafilatura does not beat itself
                if ref is not None and ref.f1 is not None and res.f1 > ref.f1:
                    wins += 1
            if (ratio := _ratio(res, ref)) is not None:
                ratios.append(ratio)
            if (ratio := _ratio(res, by_name.get(TRAFILATURA_ROW))) is not None:
                row_ratios.append(ratio)
        mean_f1 = f"{sum(f1s) / len(f1s):.3f}" if f1s else "—"
        row = f" {_fmt_ratio(row_ratios)} |" if with_row_peer else ""
        won = "—" if name == _REFERENCE else f"{wins}/{len(f1s)}"
        lines.append(f"| {name} | {mean_f1} | {won} | {_fmt_ratio(ratios)} |{row}")
    if with_row_peer:
        lines += [
            "",
            f"CPU time of the default chain (a stored row: text, title, date, author, language, "
            f"page verdict) per dataset, against trafilatura's text alone and against "
            f"`{TRAFILATURA_ROW}` (`bare_extraction(..., with_metadata=True)`: text, title, "
            "date, author):",
            "",
            f"| dataset | vs trafilatura | vs {TRAFILATURA_ROW} |",
            "|---|---:|---:|",
        ]
        for dataset, by_name in results.items():
            ours = by_name.get("scrapy-denoise")
            text_only = _ratio(ours, by_name.get(_REFERENCE))
            row_ratio = _ratio(ours, by_name.get(TRAFILATURA_ROW))
            if text_only is None or row_ratio is None:
                continue
            lines.append(f"| {dataset} | {text_only:.2f}x | {row_ratio:.2f}x |")
    return "\n".join(lines) + "\n"
