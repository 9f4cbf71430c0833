"""Line statistics: LC against int(1 + RC / L), counting before the test, pruning."""

from __future__ import annotations

from scrapy_denoise.methods.linestats import (
    SHORT_KEY_BYTES,
    LineParams,
    SiteLines,
    dated_frame,
    keep_limit,
    line_hash,
    line_key,
    normalise_line,
    pack_keys,
    prunable,
    short_key,
    unpack_keys,
)

#: the paper's L = 50, which the boundary tests below are written for (the default is 3)
#: the paper's arithmetic: L = 50, RC as counted
PARAMS = LineParams(per_pages=50, min_pages=0)


def key(line: str) -> bytes:
    return line_hash(normalise_line(line))


def test_keep_limit_is_int_of_one_plus_rc_over_l() -> None:
    assert [keep_limit(rc, PARAMS) for rc in (0, 1, 49, 50, 51, 99, 100, 149, 150)] == [
        1,
        1,
        1,
        2,
        2,
        2,
        3,
        3,
        4,
    ]


def test_rc_counts_as_at_least_min_pages_so_a_sites_first_pages_cut_nothing_early() -> None:
    """A series of posts met first (their shared heading on 5 of the first 10 pages) keeps
    its heading; the paper's bound would cut it from the fifth page on."""
    params = LineParams(per_pages=3, min_pages=60)
    assert [keep_limit(rc, params) for rc in (0, 10, 59, 60, 63, 90)] == [21, 21, 21, 21, 22, 31]
    lines = SiteLines(params)
    for i in range(10):
        page = ["Summary", f"body {i}"] if i % 2 else [f"body {i}"]
        assert lines.filter(page) == page
    paper = SiteLines(LineParams(per_pages=3, min_pages=0))
    kept = [paper.filter(["Summary", f"body {i}"] if i % 2 else [f"body {i}"]) for i in range(10)]
    assert kept[9] == ["body 9"]


def test_first_page_keeps_everything() -> None:
    lines = SiteLines(PARAMS)
    page = ["Breaking: a headline", "Body text.", "Share this"]
    assert lines.filter(page) == page
    assert lines.pages_processed == 1
    assert all(lines.counts[key(x)] == 1 for x in page)


def test_a_line_on_a_second_page_is_removed_while_rc_is_below_l() -> None:
    lines = SiteLines(PARAMS)
    lines.filter(["Share this", "Story one."])
    # LC becomes 2 before the test; int(1 + 1 / 50) = 1.
    assert lines.filter(["Story two.", "Share this"]) == ["Story two."]


def test_threshold_boundary_at_rc_equal_l() -> None:
    line = "Follow us"
    # RC = 49 pages before this one: limit 1; LC becomes 2 -> removed.
    before = SiteLines(PARAMS, pages_processed=49, counts={key(line): 1})
    assert before.filter([line]) == []
    # RC = 50: limit 2; LC becomes 2 -> kept, and LC 3 on the next page -> removed.
    at = SiteLines(PARAMS, pages_processed=50, counts={key(line): 1})
    assert at.filter([line]) == [line]
    assert at.filter([line]) == []
    # RC = 100: limit 3; LC becomes 3 -> kept, 4 -> removed.
    later = SiteLines(PARAMS, pages_processed=100, counts={key(line): 2})
    assert later.filter([line]) == [line]
    assert later.filter([line]) == []


def test_l_is_configurable() -> None:
    lines = SiteLines(LineParams(per_pages=1, min_pages=0))
    assert lines.filter(["x"]) == ["x"]  # LC 1 <= 1 + 0
    assert lines.filter(["x"]) == ["x"]  # LC 2 <= 1 + 1
    assert lines.filter(["x", "x"]) == ["x", "x"]  # LC 3 <= 1 + 2, counted once
    assert lines.counts[key("x")] == 3


def test_a_line_repeated_within_a_page_counts_once_and_goes_everywhere() -> None:
    lines = SiteLines(PARAMS)
    assert lines.filter(["Share", "Body one.", "Share"]) == ["Share", "Body one.", "Share"]
    assert lines.counts[key("Share")] == 1
    assert lines.filter(["Share", "Body two.", "Share"]) == ["Body two."]


def test_whitespace_is_collapsed_before_hashing() -> None:
    lines = SiteLines(PARAMS)
    lines.filter(["  Read   more\t"])
    assert lines.filter(["Read more"]) == []


def test_blank_and_short_lines_pass_through_uncounted() -> None:
    lines = SiteLines(LineParams(min_chars=3, min_pages=0))
    page = ["", "   ", "ok", "Real line"]
    assert lines.filter(page) == page
    assert lines.filter(page) == ["", "   ", "ok"]
    assert set(lines.counts) == {key("Real line")}


def test_not_learning_tests_stored_counts_without_counting() -> None:
    lines = SiteLines(PARAMS, pages_processed=10, counts={key("seen once"): 1, key("twice"): 2})
    assert lines.filter(["seen once", "twice", "new"], learn=False) == ["seen once", "new"]
    assert lines.pages_processed == 10
    assert lines.pending_pages == 0 and not lines.pending_counts


def test_pending_deltas_hold_what_to_save() -> None:
    lines = SiteLines(PARAMS, pages_processed=5, counts={key("a"): 4})
    lines.filter(["a", "b"])
    lines.filter(["b", "c", "c"])
    assert lines.pending_pages == 2
    assert lines.pending_counts == {key("a"): 1, key("b"): 2, key("c"): 1}
    assert lines.pending_texts[key("c")] == "c"
    assert lines.counts[key("a")] == 5


def test_a_revisit_counts_only_the_lines_it_gained_and_not_as_a_page() -> None:
    lines = SiteLines(PARAMS, pages_processed=10, counts={key("story"): 1, key("menu"): 9})
    taught = unpack_keys(pack_keys([key("story"), key("menu")]))
    lines.filter(["story", "menu", "banner", "banner"], taught=taught)
    assert lines.counts == {key("story"): 1, key("menu"): 9, key("banner"): 1}
    assert lines.pending_counts == {key("banner"): 1}
    assert lines.pages_processed == 10 and lines.pending_pages == 0


def test_packed_keys_are_short_sorted_and_read_back() -> None:
    keys = [key("b"), key("a"), key("b")]
    packed = pack_keys(keys)
    assert len(packed) == 2 * SHORT_KEY_BYTES
    assert packed == short_key(min(keys)) + short_key(max(keys))
    assert unpack_keys(packed) == {short_key(k) for k in keys}
    assert unpack_keys(b"") == frozenset()


def test_prune_removes_lines_with_lc_at_most_one_percent_of_rc() -> None:
    assert prunable(2, 200, 100) and not prunable(3, 200, 100) and not prunable(1, 99, 100)
    lines = SiteLines(PARAMS, pages_processed=300, counts={b"a" * 16: 3, b"b" * 16: 4})
    assert lines.prune() == 1
    assert lines.counts == {b"b" * 16: 4}


def test_a_long_run_removes_boilerplate_and_keeps_rare_lines() -> None:
    lines = SiteLines(PARAMS)
    kept: dict[str, int] = {"Copyright Example": 0, "Weekly column": 0, "Rare column": 0}
    for page in range(300):
        text = [f"Unique body {page}", "Copyright Example"]
        if page % 7 == 0:
            text.append("Weekly column")
        if page % 60 == 0:
            text.append("Rare column")
        out = lines.filter(text)
        assert f"Unique body {page}" in out
        for line in kept:
            kept[line] += line in out
    # The n-th page with a line keeps it while n <= 1 + RC // 50 (RC = pages before).
    # A footer on every page is kept on the first page only; a line every 7 pages grows
    # faster than the bound too; a line every 60 pages never outgrows it.
    assert kept == {"Copyright Example": 1, "Weekly column": 1, "Rare column": 5}


def test_a_dated_lines_frame_is_what_comes_before_its_date_digits_masked() -> None:
    assert dated_frame("July 28, 2024 · 1 min · 24 words · Maya Lindqvist") == ""
    assert dated_frame("Created in August 04, 2024 by Elena Marsh") == "created in"
    assert dated_frame("Posted on 2019-06-27 in 3 parts") == "posted on"
    assert dated_frame("Issue 12 of 2019-06-27") == "issue # of"
    # no date, or too much besides it: a line of its own
    assert dated_frame("Maya Lindqvist · 1 min · 24 words") is None
    assert (
        dated_frame("On July 28, 2024 the council met, " + "and it talked at length " * 3) is None
    )
    # a CJK character counts three: a dated Chinese sentence is prose
    assert (
        dated_frame(
            "2014年12月21日晚，VAG小组成员集聚一堂，欢送成果斐然的2014以及即将赴美国交流的朱标博士。"
        )
        is None
    )
    assert dated_frame("发布时间：2019-05-18") == "发布时间："
    # a byline's frame is the same whoever signs it
    assert dated_frame("By City Clerk, 28 October, 2024") == "by n,"
    assert dated_frame("By Communications Office, 18 November, 2022") == "by n,"
    assert dated_frame("Posted by Jane Roe on May 5, 2024") == "posted by n on"
    assert dated_frame("By JANE ROE | May 5, 2024") == "by n |"


def test_dated_meta_lines_count_by_their_frame_and_go_once_frequent() -> None:
    """Each post writes its own date, so the meta line under its headline never recurs;
    its frame does, and goes as a recurring line would."""
    assert line_key("July 28, 2024 · 1 min · Maya") == line_key("March 9, 2019 · 12 min · Maya")
    assert line_key("Story one.") == line_hash("Story one.")
    lines = SiteLines(LineParams(per_pages=3, min_pages=0))
    kept = [
        lines.filter([f"May {day}, 2024 · {day} min · Maya Lindqvist", f"Story {day}."])
        for day in range(1, 6)
    ]
    assert kept[0] == ["May 1, 2024 · 1 min · Maya Lindqvist", "Story 1."]
    assert kept[4] == ["Story 5."]
