"""The runner's fairness rules: one decode per page, per-call CPU time, errors counted."""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

import pytest

from scrapy_denoise.evaluation import runner
from scrapy_denoise.evaluation.benchmark import format_summary
from scrapy_denoise.evaluation.datasets import Page
from scrapy_denoise.evaluation.peers import TRAFILATURA_ROW
from scrapy_denoise.evaluation.runner import Result, evaluate, evaluate_dataset, format_table

TRUTH = {
    "1": "The council met on Monday to discuss the harbour budget for next year.",
    "2": "Heavy rain closed the northern road for three days last week in the valley.",
    "3": "浙江大学可视化小组今天发布了新的研究报告和开源软件工具",
}


def _page(pid: str, *, lang: str = "en", text: str | None = "use truth") -> Page:
    body = f"<html><body><nav>Home News</nav><p>{TRUTH[pid]}</p></body></html>"
    return Page(
        id=pid,
        dataset="toy",
        url=None,
        lang=lang,
        encoding="utf-8",
        charset_declared=None,
        html=body.encode("utf-8"),
        text=TRUTH[pid] if text == "use truth" else text,
    )


def _oracle(html: str, url: str | None) -> str:
    return next(t for t in TRUTH.values() if t in html)


def _empty(html: str, url: str | None) -> str:
    return ""


def _broken(html: str, url: str | None) -> str:
    raise RuntimeError("boom")


def test_perfect_extractor_scores_one_and_empty_scores_zero_recall() -> None:
    results = evaluate([_page("1"), _page("2")], {"oracle": _oracle, "empty": _empty})
    oracle, empty = results["oracle"], results["empty"]
    assert (oracle.precision, oracle.recall, oracle.f1) == (1.0, 1.0, 1.0)
    assert oracle.pages == 2 and oracle.scored_pages == 2 and oracle.errors == 0
    assert empty.precision is None and empty.recall == 0.0 and empty.f1 == 0.0


def test_errors_are_counted_and_scored_as_empty_output() -> None:
    def returns_none(html: str, url: str | None) -> str:
        return None  # type: ignore[return-value]

    results = evaluate([_page("1"), _page("2")], {"broken": _broken, "none": returns_none})
    broken = results["broken"]
    assert broken.errors == 2 and broken.recall == 0.0
    assert broken.error_examples[0] == "1: RuntimeError: boom"
    assert results["none"].errors == 2


def test_each_page_is_decoded_once_and_extractors_share_the_same_string(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[bytes] = []
    real_decode = runner.decode

    def counting_decode(body: bytes, headers: dict[str, str] | None = None) -> object:
        calls.append(body)
        return real_decode(body, headers)

    monkeypatch.setattr(runner, "decode", counting_decode)
    seen: dict[str, list[int]] = {"a": [], "b": []}

    def spy(name: str) -> runner.Extractor:
        def extract(html: str, url: str | None) -> str:
            seen[name].append(id(html))
            return ""

        return extract

    evaluate([_page("1"), _page("2")], {"a": spy("a"), "b": spy("b")}, warmup=False)
    assert len(calls) == 2
    assert seen["a"] == seen["b"]


def test_cpu_time_is_measured_around_the_call_only() -> None:
    def busy(html: str, url: str | None) -> str:
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass
        return ""

    results = evaluate([_page("1"), _page("2")], {"busy": busy, "empty": _empty}, warmup=False)
    assert results["busy"].cpu_seconds >= 0.1
    assert results["empty"].cpu_seconds < 0.05
    rate = results["busy"].pages_per_cpu_second
    assert rate is not None and rate < 25


def test_warmup_calls_each_extractor_once_untimed() -> None:
    calls: list[str] = []

    def counting(html: str, url: str | None) -> str:
        calls.append(html)
        return ""

    evaluate([_page("1"), _page("2")], {"c": counting})
    assert len(calls) == 3
    calls.clear()
    evaluate([_page("1"), _page("2")], {"c": counting}, warmup=False)
    assert len(calls) == 2


def test_pages_without_truth_get_speed_only_and_chinese_pages_get_lcs() -> None:
    pages = [_page("1", text=None), _page("3", lang="zh")]
    result = evaluate(pages, {"oracle": _oracle})["oracle"]
    assert result.pages == 2 and result.scored_pages == 1
    assert result.lcs_pages == 1 and result.lcs_f1 == 1.0
    only_untruthed = evaluate([_page("1", text=None)], {"oracle": _oracle})["oracle"]
    assert only_untruthed.f1 is None and only_untruthed.lcs_f1 is None


def test_progress_reports_done_and_total() -> None:
    seen: list[tuple[int, int | None]] = []
    evaluate([_page("1"), _page("2")], {"e": _empty}, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 2), (2, 2)]
    seen.clear()
    evaluate(iter([_page("1")]), {"e": _empty}, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, None)]


def test_keep_pages_records_per_page_outcomes() -> None:
    result = evaluate([_page("1"), _page("2")], {"broken": _broken}, keep_pages=True)["broken"]
    assert [r.page_id for r in result.page_records] == ["1", "2"]
    assert all(r.error and r.counts is not None for r in result.page_records)
    assert evaluate([_page("1")], {"e": _empty})["e"].page_records == ()


def _result(name: str, cpu: float, f1: float | None = 0.5, lcs: int = 0) -> Result:
    return Result(
        extractor=name, dataset="d", pages=10, scored_pages=10 if f1 is not None else 0,
        precision=f1, recall=f1, f1=f1, lcs_pages=lcs, lcs_precision=0.9 if lcs else None,
        lcs_recall=0.8 if lcs else None, lcs_f1=0.85 if lcs else None, cpu_seconds=cpu,
        errors=0,
    )  # fmt: skip


def test_format_table_has_ratio_to_reference_and_notes() -> None:
    table = format_table(
        {
            "dragnet": {"trafilatura": _result("trafilatura", 2.0), "ours": _result("ours", 1.0)},
            "gne-tests": {
                "trafilatura": _result("trafilatura", 4.0, None, 0),
                "ours": _result("ours", 1.0, None, 0),
            },
            "zh-site": {"ours": _result("ours", 1.0, 0.7, lcs=3)},
        }
    )
    lines = table.splitlines()
    assert lines[0] == (
        "| dataset | extractor | pages | P | R | F1 | F1 - trafilatura (95 % interval) | "
        "pages/CPU-s | CPU time vs trafilatura |"
    )
    # no page records kept: no interval
    assert "| dragnet | ours | 10 | 0.500 | 0.500 | 0.500 | — | 10.0 | 0.50x |" in lines
    assert "| gne-tests | ours | 10 | — | — | — | — | 10.0 | 0.25x |" in lines
    assert "| zh-site | ours | 10 | 0.700 | 0.700 | 0.700 | — | 10.0 | — |" in lines
    assert "- gne-tests: no ground truth, pages and speed only" in lines
    assert any("zh-site / ours: character LCS P 0.900, R 0.800, F1 0.850" in x for x in lines)


def test_summary_compares_cpu_with_trafilatura_alone_and_with_its_metadata() -> None:
    results = {
        "dragnet": {
            "scrapy-denoise": _result("scrapy-denoise", 1.0, 0.9),
            "trafilatura": _result("trafilatura", 2.0, 0.8),
            TRAFILATURA_ROW: _result(TRAFILATURA_ROW, 5.0, 0.8),
        },
        "wcxb": {
            "scrapy-denoise": _result("scrapy-denoise", 3.0, 0.7),
            "trafilatura": _result("trafilatura", 4.0, 0.8),
            TRAFILATURA_ROW: _result(TRAFILATURA_ROW, 6.0, 0.8),
        },
    }
    lines = format_summary(results).splitlines()
    assert lines[0].endswith(f"| mean CPU time vs {TRAFILATURA_ROW} |")
    # means of the per-dataset ratios: (0.5 + 0.75) / 2 and (0.2 + 0.5) / 2
    assert "| scrapy-denoise | 0.800 | 1/2 | 0.62x | 0.35x |" in lines
    assert "| dragnet | 0.50x | 0.20x |" in lines
    assert "| wcxb | 0.75x | 0.50x |" in lines


def test_summary_without_the_metadata_peer_has_no_column_for_it() -> None:
    results = {"d": {"ours": _result("ours", 1.0), "trafilatura": _result("trafilatura", 2.0)}}
    lines = format_summary(results).splitlines()
    assert lines[0].count("|") == 5
    assert lines[-1] == "| trafilatura | 0.500 | — | 1.00x |"


def test_a_tie_with_trafilatura_is_no_win() -> None:
    results = {
        "tie": {"ours": _result("ours", 1.0, 0.8), "trafilatura": _result("trafilatura", 2.0, 0.8)},
        "won": {"ours": _result("ours", 1.0, 0.9), "trafilatura": _result("trafilatura", 2.0, 0.8)},
    }
    lines = format_summary(results).splitlines()
    assert "datasets with F1 above trafilatura's" in lines[0]
    assert "| ours | 0.850 | 1/2 | 0.50x |" in lines
    assert "| trafilatura | 0.800 | — | 1.00x |" in lines


def test_format_table_without_the_reference_leaves_out_the_columns_comparing_with_it() -> None:
    lines = format_table({"dragnet": {"ours": _result("ours", 1.0)}}, reference="").splitlines()
    assert lines[0] == "| dataset | extractor | pages | P | R | F1 | pages/CPU-s |"
    assert lines[1].count("|") == lines[2].count("|") == 8
    assert lines[2] == "| dragnet | ours | 10 | 0.500 | 0.500 | 0.500 | 10.0 |"


def test_format_table_gives_the_f1_difference_with_its_interval_from_page_records() -> None:
    pages = [_page("1" if k % 2 else "2") for k in range(30)]
    results = evaluate(pages, {"trafilatura": _empty, "ours": _oracle}, keep_pages=True)
    row = next(line for line in format_table({"toy": results}).splitlines() if "| ours |" in line)
    # every page: the oracle's F1 1 against 0 for the empty output, on every resample
    assert "| +1.000 (+1.000 to +1.000) |" in row


def test_to_json_round_trips_the_numbers() -> None:
    data = json.loads(runner.to_json({"d": {"x": _result("x", 2.0)}}))
    assert data["d"]["x"]["f1"] == 0.5 and data["d"]["x"]["pages_per_cpu_second"] == 5.0


def test_evaluate_dataset_honours_split_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "toy.zip"
    rows = []
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(40):
            archive.writestr(f"html/{i}.html", f"<p>word{i} a b c d</p>".encode())
            rows.append({"id": str(i), "dataset": "toy", "url": None, "lang": "en",
                         "encoding": "utf-8", "charset_declared": None,
                         "text": f"word{i} a b c d", "html": f"html/{i}.html"})  # fmt: skip
        archive.writestr("index.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    seen: list[tuple[int, int | None]] = []
    results = evaluate_dataset(
        path, {"e": _empty}, split="holdout", limit=4, progress=lambda d, t: seen.append((d, t))
    )
    assert results["e"].pages == 4 and results["e"].dataset == "toy"
    assert seen[-1] == (4, 4)
    dev = evaluate_dataset(path, {"e": _empty}, split="dev")["e"].pages
    held = evaluate_dataset(path, {"e": _empty}, split="holdout")["e"].pages
    assert dev + held == 40 and 0 < held < 40
