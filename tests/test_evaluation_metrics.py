"""The metric must reproduce shared/data/metric-vectors.json, or our numbers mean nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_denoise.evaluation.metrics import (
    Aggregate,
    LcsAggregate,
    LcsScore,
    PageCounts,
    lcs_length,
    lcs_prf,
    page_counts,
    paired_f1_difference,
    shingles,
    tokenize,
)

TOL = 1e-6


@pytest.fixture(scope="module")
def vectors(shared_data: Path) -> dict[str, Any]:
    path = shared_data / "metric-vectors.json"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_vector_pair_reproduces_expected_tp_fp_fn(vectors: dict[str, Any]) -> None:
    assert len(vectors["pairs"]) == vectors["aggregate"]["n"]
    for i, pair in enumerate(vectors["pairs"]):
        got = page_counts(pair["true"], pair["pred"])
        expected = pair["expected_tp_fp_fn"]
        for name, g, e in zip(("tp", "fp", "fn"), got, expected, strict=True):
            assert g == pytest.approx(e, abs=TOL), f"pair {i} ({pair['lang']}) {name}"


def test_vector_aggregate_precision_recall_f1(vectors: dict[str, Any]) -> None:
    agg = Aggregate()
    agg.extend(page_counts(p["true"], p["pred"]) for p in vectors["pairs"])
    expected = vectors["aggregate"]
    assert agg.pages == expected["n"]
    assert agg.precision == pytest.approx(expected["precision"], abs=TOL)
    assert agg.recall == pytest.approx(expected["recall"], abs=TOL)
    assert agg.f1 == pytest.approx(expected["f1"], abs=TOL)


def test_vector_chinese_lcs_aggregate(vectors: dict[str, Any]) -> None:
    agg = LcsAggregate()
    for pair in vectors["pairs"]:
        if pair["lang"] == "zh":
            agg.add(lcs_prf(pair["true"], pair["pred"]))
    expected = vectors["aggregate_lcs_zh"]
    assert agg.pages == expected["n"]
    assert agg.precision == pytest.approx(expected["precision"], abs=TOL)
    assert agg.recall == pytest.approx(expected["recall"], abs=TOL)
    assert agg.f1 == pytest.approx(expected["f1"], abs=TOL)


def test_tokenize_splits_each_cjk_character_but_keeps_latin_runs() -> None:
    assert tokenize("Dr.Qu于2012年访问") == ["Dr", "Qu", "于", "2012", "年", "访", "问"]
    assert tokenize("ひらがなと한국") == ["ひ", "ら", "が", "な", "と", "한", "국"]
    assert tokenize("it's 3.5 x_y") == ["it", "s", "3", "5", "x_y"]
    assert tokenize(None) == []


def test_short_text_is_a_single_shingle_and_empty_text_has_none() -> None:
    assert shingles("a b c") == {("a", "b", "c"): 1}
    assert shingles("... !!") == {}
    assert sum(shingles("one two three four five").values()) == 2


def test_identical_texts_score_all_true_positive() -> None:
    assert page_counts("a b c d e f", "a b c d e f") == PageCounts(1.0, 0.0, 0.0)
    assert page_counts("a b c", "a b c") == PageCounts(1.0, 0.0, 0.0)


def test_empty_sides_follow_the_vectors() -> None:
    assert page_counts("", "") == PageCounts(0.0, 0.0, 0.0)
    assert page_counts("One two three four five.", "") == PageCounts(0.0, 0.0, 1.0)
    assert page_counts(None, "Menu home about contact us") == PageCounts(0.0, 1.0, 0.0)


def test_repeated_prediction_is_charged_as_false_positives() -> None:
    # A duplicated paragraph must not be free: shingles are a multiset.
    truth = "a b c d e"  # shingles abcd, bcde
    counts = page_counts(truth, f"{truth}\n{truth}")  # 7 shingles, abcd and bcde twice
    assert counts == pytest.approx(PageCounts(2 / 7, 5 / 7, 0.0))


def test_case_matters_like_the_reference_benchmark() -> None:
    assert page_counts("Alpha beta gamma delta", "alpha beta gamma delta").tp == 0.0


def test_aggregate_averages_precision_and_recall_over_different_pages() -> None:
    agg = Aggregate()
    agg.add(PageCounts(0.5, 0.5, 0.0))  # P 0.5, R 1.0
    agg.add(PageCounts(0.0, 0.0, 1.0))  # empty prediction: recall only
    agg.add(PageCounts(0.0, 0.0, 0.0))  # both empty: neither
    assert agg.pages == 3
    assert agg.precision == pytest.approx(0.5)
    assert agg.recall == pytest.approx(0.5)
    # F1 of the means, not the mean of per-page F1s (which would be 1/3 here).
    assert agg.f1 == pytest.approx(0.5)


def test_aggregate_with_no_shingles_anywhere_has_no_score() -> None:
    agg = Aggregate()
    agg.add(PageCounts(0.0, 0.0, 0.0))
    assert agg.precision is None and agg.recall is None and agg.f1 is None


def test_aggregate_with_only_empty_predictions_has_zero_f1() -> None:
    agg = Aggregate()
    agg.add(PageCounts(0.0, 0.0, 1.0))
    assert agg.precision is None
    assert agg.recall == 0.0
    assert agg.f1 == 0.0


def test_lcs_ignores_whitespace() -> None:
    score = lcs_prf("浙江 大学\n可视化", "浙江大学 可视化")
    assert score == LcsScore(1.0, 1.0, 1.0)


def test_lcs_partial_overlap() -> None:
    score = lcs_prf("abcd", "xxabyy")  # LCS "ab"
    assert score.precision == pytest.approx(2 / 6)
    assert score.recall == pytest.approx(2 / 4)
    assert score.f1 == pytest.approx(2 * (1 / 3) * 0.5 / (1 / 3 + 0.5))


def test_lcs_empty_sides() -> None:
    assert lcs_prf("", " \n") == LcsScore(None, None, None)
    assert lcs_prf("正文", "") == LcsScore(None, 0.0, 0.0)
    assert lcs_prf("", "菜单") == LcsScore(0.0, None, 0.0)


def _lcs_dp(a: str, b: str) -> int:
    row = [0] * (len(b) + 1)
    for ca in a:
        prev_diag = 0
        for j, cb in enumerate(b, start=1):
            keep = row[j]
            row[j] = prev_diag + 1 if ca == cb else max(row[j], row[j - 1])
            prev_diag = keep
    return row[-1]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc浙江大", max_size=30), st.text(alphabet="abc浙江大", max_size=30))
def test_lcs_length_matches_textbook_dynamic_programming(a: str, b: str) -> None:
    assert lcs_length(a, b) == _lcs_dp(a, b)


def test_lcs_is_fast_on_long_chinese_pages() -> None:
    base = "浙江大学计算机学院可视化小组新闻发布会议报告" * 1000  # 22k characters
    noisy = ("首页新闻关于我们" * 200) + base[::2] + ("版权所有" * 300)
    start = time.process_time()
    score = lcs_prf(base, noisy)
    assert time.process_time() - start < 2.0
    assert score.recall is not None and 0.4 < score.recall < 0.6


def test_paired_f1_difference_is_the_aggregate_difference_with_an_interval_around_it() -> None:
    truths = [f"story {k} about the harbour budget and the rain" for k in range(40)]
    good = [page_counts(t, t if k % 4 else t + " read more") for k, t in enumerate(truths)]
    bad = [page_counts(t, t if k % 2 else "menu home news sport") for k, t in enumerate(truths)]
    found = paired_f1_difference(good, bad)
    assert found is not None
    a, b = Aggregate(), Aggregate()
    a.extend(good)
    b.extend(bad)
    assert a.f1 is not None and b.f1 is not None
    assert found.diff == pytest.approx(a.f1 - b.f1)
    assert found.low < found.diff < found.high
    assert found.low > 0  # 20 of 40 pages wrong: no resample makes them equal
    assert paired_f1_difference(good, good) == (0.0, 0.0, 0.0)
    assert paired_f1_difference([None], [None]) is None
    with pytest.raises(ValueError):
        paired_f1_difference(good, good[:-1])
