"""Page report and store summary: hostile pages stay inert, fates are right, counts add up."""

from __future__ import annotations

import html as htmllib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html
from report_pages import (
    EVIL,
    FOLLOW,
    HOSTILE,
    SITE,
    VERDICTS_A,
    fill_store,
    quake_report,
    site_page,
)

from scrapy_denoise import Denoiser
from scrapy_denoise.cli import main
from scrapy_denoise.report.page_report import (
    FATES,
    PageReport,
    build_page_report,
    render_page_report,
)
from scrapy_denoise.report.sanitize import sanitize_css
from scrapy_denoise.report.summary import collect_summary, format_summary, render_summary_html
from scrapy_denoise.store import SCORE_BUCKETS, Store

# -- hostile content ----------------------------------------------------------------------


class _Tokens(HTMLParser):
    """What a browser's tokenizer sees: start tags with attributes, and script contents."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def _tokens(markup: str) -> _Tokens:
    parser = _Tokens()
    parser.feed(markup)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def hostile() -> tuple[PageReport, str]:
    with Denoiser(store=False) as denoiser:
        report = build_page_report(
            HOSTILE.encode(), f"{SITE}/2024/05/hostile.html", denoiser=denoiser
        )
    return report, render_page_report(report)


def _assert_inert(markup: str) -> None:
    """No way to run script or load anything in ``markup`` (a framed page document)."""
    tokens = _tokens(markup)
    banned = {"script", "iframe", "frame", "object", "embed", "applet", "link", "base", "svg"}
    banned |= {"math", "noframes", "noembed", "template", "portal"}
    for tag, attrs in tokens.tags:
        assert tag not in banned, tag
        if tag == "meta":
            assert (attrs.get("http-equiv") or "").lower() != "refresh"
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert name not in ("srcdoc", "formaction", "action", "xlink:href", "src")
            compact = re.sub(r"\s", "", value or "").lower()
            assert "javascript:" not in compact, (tag, name, value)
            if name not in ("data-denoise-href",):
                assert EVIL not in (value or ""), (tag, name, value)
    lowered = markup.lower()
    assert "url(" not in lowered
    assert "@import" not in lowered
    assert "<script" not in lowered


def test_framed_page_is_inert(hostile: tuple[PageReport, str]) -> None:
    report, _ = hostile
    _assert_inert(report.framed_html)
    # The policy comes first in <head>, before anything it governs.
    head = report.framed_html.split("<head>", 1)[1]
    first_two = re.findall(r"<meta[^>]*>", head)[:2]
    assert any("Content-Security-Policy" in m for m in first_two)
    assert "default-src 'none'; style-src 'unsafe-inline'; img-src data:" in report.framed_html
    # Text from the page is still there, as text.
    tree = lxml_html.fromstring(report.framed_html)
    text = " ".join(tree.itertext())
    assert '</iframe><script>alert(1)</script> plan was "too expensive"' in " ".join(text.split())
    assert 'A "quoted" headline </iframe> with tags' in " ".join(text.split())


def test_page_cannot_fake_annotations(hostile: tuple[PageReport, str]) -> None:
    report, _ = hostile
    tree = lxml_html.fromstring(report.framed_html)
    annotated = tree.xpath("//*[@data-denoise-id]")
    # Exactly our blocks, numbered 0..n-1 once each, fates from the legend.
    ids = {int(el.get("data-denoise-id")) for el in annotated}
    assert ids == set(range(len(report.blocks)))
    # The page's own data-denoise-* on its div were replaced by the report's annotation.
    (fake,) = [el for el in tree.iter("div") if "fake annotation" in (el.text or "")]
    block = report.blocks[int(fake.get("data-denoise-id"))]
    assert "fake annotation" in block.text and fake.get("data-denoise-fate") == block.fate
    for el in tree.xpath("//*[@data-denoise-fate]"):
        assert el.get("data-denoise-fate") in FATES


def test_page_css_cannot_recolour_the_fates() -> None:
    """A page's ``html body [data-denoise-fate]{... !important}`` out-specified the report's
    fate colours, so a removed block could be drawn in the colour of kept text."""
    spoof = "outline:2px solid #1b9e77 !important"
    page = (
        f"<html><head><style>html body [data-denoise-fate]{{{spoof}}}</style></head><body>"
        f'<nav style="{spoof};color:red"><a href="/">Home</a> <a href="/a">A</a></nav>'
        "<article><h1>Council vote</h1><p>"
        + "The council approved the plan on Tuesday after a long debate. " * 6
        + "</p></article></body></html>"
    )
    with Denoiser(store=False) as denoiser:
        framed = build_page_report(page.encode(), f"{SITE}/a.html", denoiser=denoiser)
    head = lxml_html.fromstring(framed.framed_html).find("head")
    assert head is not None
    styles = [el.text or "" for el in head.iter("style")]
    # the report's layer is declared before the page's sheet, and its rules are in it
    assert styles[0] == "@layer denoise;" and "html body [data-denoise-fate]" in styles[1]
    assert styles[-1].startswith("@layer denoise{") and "!important" in styles[-1]
    tree = lxml_html.fromstring(framed.framed_html)
    (nav,) = tree.iter("nav")
    assert "important" not in nav.get("style", "") and "color:red" in nav.get("style", "")


def test_outer_report_runs_only_its_own_script(hostile: tuple[PageReport, str]) -> None:
    report, page = hostile
    tokens = _tokens(page)
    tags = [t for t, _ in tokens.tags]
    assert tags.count("iframe") == 1
    assert tags.count("script") == 2
    frame = next(a for t, a in tokens.tags if t == "iframe")
    assert frame.get("sandbox") is not None and "allow-scripts" not in (frame["sandbox"] or "")
    # srcdoc survives the attribute round trip exactly: the escaping is complete.
    assert frame["srcdoc"] == report.framed_html
    data_script, own_script = tokens.scripts
    assert "PWNED" not in own_script and "alert" not in own_script
    data = json.loads(data_script)
    assert len(data["blocks"]) == len(report.blocks)
    texts = " ".join(b["text"] for b in data["blocks"])
    assert "</iframe>" in texts  # the page's text, escaped for the script element
    assert "</" not in data_script
    for tag, attrs in tokens.tags:
        for name in attrs:
            assert not name.startswith("on"), (tag, name)
    # The outer policy only lets the report's own script run (by hash).
    csp = next(a["content"] for t, a in tokens.tags if t == "meta" and a.get("http-equiv"))
    assert "script-src 'sha256-" in (csp or "") and "unsafe-inline'; script" not in (csp or "")
    # The page's own words appear in the outer document only escaped.
    assert "<script>alert(1)" not in page
    assert "&lt;/iframe&gt;&lt;script&gt;alert(1)" in page or "\\u003c/iframe" in page


_STORY = "".join(
    f"<p>Paragraph {n} says the council met on day {n} and voted on the plan.</p>"
    for n in range(10)
)


@pytest.mark.parametrize(
    "body",
    [
        f'<div hidden><p>Sign in to continue reading.</p></div><div class="story">{_STORY}</div>',
        f'<div class="story">{_STORY}</div></body><p>After the body.</p>',
        f'<div class="story">{_STORY}</div></body><div class="story">{_STORY}</div>',
        f'<div style="display:none"><style>.x{{}}</style>x</div><div class="story">{_STORY}</div>',
    ],
    ids=["hidden-element", "text-after-body", "second-copy", "hidden-style-sheet"],
)
def test_page_is_shown_in_its_own_css_where_loading_changes_its_tree(body: str) -> None:
    page = (
        "<html><head><title>Plan</title><style>.story{color:#123456}</style></head>"
        f"<body><style>p{{margin:0 0 1px}}</style>{body}</body></html>"
    )
    with Denoiser(store=False) as denoiser:
        report = build_page_report(page, f"{SITE}/2024/05/plan.html", denoiser=denoiser)
    assert not [note for note in report.notes if "inline CSS" in note]
    rendered = render_page_report(report)
    assert "color:#123456" in rendered and "margin:0 0 1px" in rendered


def test_sanitize_css_drops_loads_and_escaped_tricks() -> None:
    assert "url(" not in sanitize_css("a{background:url(http://x/y.png)}")
    assert sanitize_css("a{background:url(data:image/png;base64,AAAA)}").count("url(") == 1
    assert sanitize_css("@import 'x.css'; p{color:red}").strip() == "p{color:red}"
    assert sanitize_css(r"a{background:\75 rl(http://x/y)}") == ""
    assert "expression" not in sanitize_css("a{width:expression(alert(1))}")
    assert "</style" not in sanitize_css("a{content:'</style><script>'}")


def test_sanitize_css_escapes_are_checked_beside_plain_urls_and_unclosed_urls_go() -> None:
    # a plain data: image (or any plain "url(" / ".expression") must not let an escaped
    # url( or @import through: real style sheets nearly always have a plain url(
    plain = ".a{background:url(data:image/png;base64,AAAA)}"
    assert sanitize_css(plain + r" .b{background:u\72l(http://x/y.png)}") == ""
    assert sanitize_css(r".expression{} @\69mport 'http://x/y.css';") == ""
    assert sanitize_css(r".data-binding{} .b{cursor:u\72l(http://x/c.cur),auto}") == ""
    assert sanitize_css(plain + r" .q{content:'\201C'}").count("url(") == 1
    # CSS closes an open url( at the end of a style sheet or attribute: it still loads
    for css in ("a{background:url(http://x/y.png", "a{background:url('http://x/y.png"):
        assert "http://x" not in sanitize_css(css)
    assert "http://x" not in sanitize_css('background:url("http://x/y.png"')


# -- fates --------------------------------------------------------------------------------


def _fates(report: PageReport) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for block in report.blocks:
        out.setdefault(block.fate, set()).add(block.text)
    return out


def test_fates_without_learning_nav_is_removed_by_the_method() -> None:
    url, page = site_page(0)
    with Denoiser(store=False) as denoiser:
        report = build_page_report(page, url, denoiser=denoiser)
    fates = _fates(report)
    assert not report.verdict.is_noise
    assert "Home" in fates["method"] and "Sport" in fates["method"]
    assert any(text.startswith("Reporters spent the week") for text in fates["kept"])
    assert "template" not in fates
    # Per-block features for the side panel.
    home = next(b for b in report.blocks if b.text == "Home")
    assert home.link_density == 1.0 and home.links == 1 and home.chars == 4
    assert "did not select" in home.decided_by


def test_fates_after_learning_templates_and_line_statistics() -> None:
    with Denoiser() as denoiser:  # in-memory store
        # line statistics cut a line on more than int(1 + max(RC, 60) / 3) = 21 pages
        for i in range(1, 23):
            url, page = site_page(i)
            article = denoiser.extract(page, url)
            assert article.verdict is not None and not article.verdict.is_noise
        url, page = site_page(0)
        report = build_page_report(page, url, denoiser=denoiser)
    fates = _fates(report)
    assert {"Home", "World", "Sport", "Culture"} <= fates["template"]
    assert "Copyright 2024 News Example Ltd. All rights reserved." in fates["template"]
    assert FOLLOW in fates["linestats"]
    assert any(text.startswith("Reporters spent the week") for text in fates["kept"])
    follow = next(b for b in report.blocks if b.text == FOLLOW)
    assert follow.lines[0]["status"] == "linestats" and follow.lines[0]["count"] == 22
    assert "line statistics" in follow.decided_by
    assert FOLLOW not in report.article.text
    assert (FOLLOW, True) in report.method_lines
    home = next(b for b in report.blocks if b.text == "Home")
    assert "template library" in home.decided_by
    # The report did not teach the site anything: 22 pages learned, not 23.
    assert "site https://news.example: line statistics learned from 22 pages" in report.notes


def test_near_copies_a_page_keeps_as_its_text_are_not_shown_as_templates() -> None:
    site = "https://quakes.example"
    with Denoiser() as denoiser:  # in-memory store
        for i in range(40):
            denoiser.extract(quake_report(i), f"{site}/2024/03/q{i}.html")
        report = build_page_report(quake_report(40), f"{site}/2024/03/q40.html", denoiser=denoiser)
    fates = _fates(report)
    assert any(text.startswith("A magnitude") for text in fates["kept"])
    assert not any("earthquake struck" in text for text in fates.get("template", ()))
    # the near copy that is no sentence, and the word-for-word one, are the site's
    assert any(text.startswith("Updated at") for text in fates["template"])
    assert any("generated automatically" in text for text in fates["template"])


def test_a_headline_left_out_is_named_so_not_put_on_line_statistics() -> None:
    with Denoiser(keep_headline=False) as denoiser:  # in-memory store, as a crawl has
        for i in range(1, 23):  # line statistics learn FOLLOW, as above
            learned_url, learned_page = site_page(i)
            denoiser.extract(learned_page, learned_url)
        url, page = site_page(0)
        report = build_page_report(page, url, denoiser=denoiser)
    headline_text = "All about the tram line extension"  # site_page(0)'s <h1>
    assert report.article.title == headline_text
    assert headline_text not in report.article.text.split("\n")
    headline = next(b for b in report.blocks if b.text == headline_text)
    assert headline.fate == "method" and headline.lines[0]["status"] == "headline"
    assert "keep_headline=False" in headline.decided_by
    follow = next(b for b in report.blocks if b.text == FOLLOW)
    assert follow.fate == "linestats"


def test_a_byline_left_out_is_named_the_header() -> None:
    paragraph = "We opened a new region in the east this spring, and customers moved in fast. "
    page = f"""<html><head><title>Announcing our region</title>
    <meta property="article:published_time" content="2024-05-21T15:15:00Z">
    <meta name="author" content="Lucía Ferreira"></head>
    <body><article><h1>Announcing our region</h1><p class="byline">by Lucía Ferreira</p>
    <p>{paragraph * 2}</p></article></body></html>"""
    with Denoiser(store=False, keep_headline=False) as denoiser:
        report = build_page_report(page, "https://blog.example/region.html", denoiser=denoiser)
    assert report.article.text == (paragraph * 2).strip()
    byline = next(b for b in report.blocks if b.text == "by Lucía Ferreira")
    assert byline.fate == "method" and byline.lines[0]["status"] == "header"
    assert "date or author" in byline.decided_by
    headline = next(b for b in report.blocks if b.text == "Announcing our region")
    assert headline.lines[0]["status"] == "headline"


def test_noise_page_gets_a_banner() -> None:
    with Denoiser(store=False) as denoiser:
        _, page = site_page(3)
        report = build_page_report(page, f"{SITE}/tags/city/", denoiser=denoiser)
    assert report.verdict.is_noise and report.verdict.reason == "url_pattern"
    assert 'class="banner"' in render_page_report(report)


def test_report_cli_writes_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "page.html"
    source.write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["report", str(source), "--url", f"{SITE}/a.html", "-o", str(out)]) == 0
    assert "blocks" in capsys.readouterr().out
    written = out.read_text(encoding="utf-8")
    assert written.startswith("<!DOCTYPE html>")
    frame = next(a for t, a in _tokens(written).tags if t == "iframe")
    _assert_inert(frame["srcdoc"] or "")


# -- summary ------------------------------------------------------------------------------


def test_summary_text_lists_sites_and_counts(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'store.db'}") as store:
        fill_store(store)
        sites = collect_summary(store, top_lines=5)
        text = format_summary(sites, store_url=store.url)
    assert [s.site for s in sites] == ["https://a.example", "https://b.example"]
    a, _ = sites
    assert (a.summary.pages_processed, a.summary.articles, a.summary.templates) == (120, 31, 2)
    assert a.summary.fingerprints == 13 and a.visits == 13
    assert a.undated == 1 and sum(a.published_days.values()) == 30
    assert a.articles_over_time()[0] == "published"
    assert len(a.articles_over_time()[1]) == 12  # one bin per month of 2023
    assert "2 sites" in text and "https://a.example" in text and "https://b.example" in text
    assert "pages learned from (RC)  120" in text
    assert "articles stored          31" in text
    assert "templates learned        2" in text
    assert re.search(r"\*\s+118\s+Home", text)  # above the keep limit: marked as noise
    noise = {reason: 0 for noise, reason, _, _ in VERDICTS_A if noise}
    for is_noise, reason, _, n in VERDICTS_A:
        if is_noise:
            noise[reason] += n
    articles = sum(n for is_noise, _, _, n in VERDICTS_A if not is_noise)
    seen = articles + sum(noise.values())
    assert (a.pages_seen, a.article_pages, a.noise_pages) == (seen, articles, seen - articles)
    assert a.noise_by_reason() == sorted(noise.items(), key=lambda kv: -kv[1])
    assert f"pages judged             {seen} ({articles} article pages" in text
    by_reason = ", ".join(f"{r} {n}" for r, n in sorted(noise.items(), key=lambda kv: -kv[1]))
    assert f"noise pages by reason    {by_reason}" in text
    per_bucket: dict[int, list[int]] = {}
    for is_noise, _, bucket, n in VERDICTS_A:
        per_bucket.setdefault(bucket, [0, 0])[is_noise] += n
    for bucket, (n_article, n_noise) in per_bucket.items():
        low = bucket / SCORE_BUCKETS
        row = re.search(
            rf"^    {low:.2f}-{low + 1 / SCORE_BUCKETS:.2f}\s+(\d+)\s+(\d+)$", text, re.M
        )
        assert row is not None and (int(row.group(1)), int(row.group(2))) == (n_article, n_noise)
    b_block = text[text.index("https://b.example") :]
    assert "no page filter verdicts" in b_block and "not recorded" not in text


def test_summary_html_escapes_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with Store.open(url) as store:
        fill_store(store)
        page = render_summary_html(collect_summary(store), store_url=store.url)
    tokens = _tokens(page)
    assert not tokens.scripts
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert page.count("<svg") == 7  # four charts, three for the site without verdicts
    tree = lxml_html.fromstring(page)
    reasons = tree.xpath("//section[1]//div[@class='reasons']//tbody/tr/td[1]/text()")
    assert sorted(reasons) == sorted({r for noise, r, _, _ in VERDICTS_A if noise})
    assert "no page filter verdicts" in "".join(
        tree.xpath("//section[2]//p[@class='note']//text()")
    )
    out = tmp_path / "summary.html"
    assert main(["summary", "--store", url, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "https://a.example" in printed and str(out) in printed
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_summary_prints_control_characters_as_escapes(tmp_path: Path) -> None:
    """A host name with ESC in it became a site key, and printing it raw reset the
    reader's terminal; so could a learned line."""
    from scrapy_denoise.methods.linestats import line_hash
    from scrapy_denoise.store import SiteDelta

    url = f"sqlite:///{tmp_path / 'store.db'}"
    site, line = "http://esc\x1bc.example", "\x1b[2J\x1b[31mRED\x1b[0m from the menu"
    with Store.open(url) as store:
        store.apply(
            SiteDelta(
                site=site,
                pages=3,
                line_counts={line_hash(line): 3},
                line_texts={line_hash(line): line},
            )
        )
        printed = format_summary(collect_summary(store), store_url=store.url)
    assert "\x1b" not in printed
    assert "http://esc\\x1bc.example" in printed and "\\x1b[31mRED" in printed


def test_summary_top_lines_must_not_be_negative(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # LIMIT -1 printed every counted line on SQLite and failed on PostgreSQL
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with Store.open(url) as store:
        fill_store(store)
    with pytest.raises(SystemExit) as exc:
        main(["summary", "--store", url, "--top-lines", "-1"])
    assert exc.value.code == 2
    assert "--top-lines: must be 0 or more" in capsys.readouterr().err
    assert main(["summary", "--store", url, "--top-lines", "1"]) == 0


def test_summary_of_missing_store_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summary", "--store", f"sqlite:///{tmp_path / 'none.db'}"]) == 2
    assert "no database file" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # no empty database left behind
    with Store.open(f"sqlite:///{tmp_path / 'empty.db'}"):
        pass
    assert main(["summary", "--store", f"sqlite:///{tmp_path / 'empty.db'}"]) == 0
    assert "0 sites" in capsys.readouterr().out


@pytest.mark.data
def test_summary_shows_the_verdicts_the_core_made_on_real_pages(
    shared_data: Path, tmp_path: Path
) -> None:
    from collections import Counter

    from scrapy_denoise.evaluation.datasets import iter_site_pages

    url = f"sqlite:///{tmp_path / 'store.db'}"
    made: Counter[tuple[bool, str]] = Counter()
    with Denoiser(store=url) as d:
        for page in iter_site_pages(shared_data / "sites" / "flink-blog.zip"):
            verdict = d.classify(page.html, "https://flink.example" + page.path)
            made[(verdict.is_noise, verdict.reason)] += 1
    with Store.open(url) as store:
        (site,) = collect_summary(store)
        text = format_summary([site])
        page_html = render_summary_html([site])
    noise = {reason: n for (is_noise, reason), n in made.items() if is_noise}
    assert len(noise) >= 2  # the real pages exercise several rules
    assert site.pages_seen == sum(made.values())
    assert dict(site.noise_by_reason()) == noise
    assert site.article_pages == sum(n for (is_noise, _), n in made.items() if not is_noise)
    assert sum(a + n for _, a, n in site.score_bins()) == site.pages_seen
    for reason, n in noise.items():
        assert f"{reason} {n}" in text
        assert f'<td>{reason}</td><td class="n">{n}</td>' in page_html


def test_outer_report_parses_as_html(hostile: tuple[PageReport, str]) -> None:
    _, page = hostile
    tree = lxml_html.fromstring(page)
    assert tree.find(".//iframe") is not None
    assert len(tree.xpath("//ul[@id='legend']/li")) == len(FATES)
    assert htmllib.unescape(tree.find(".//iframe").get("srcdoc"))  # non-empty
    assert isinstance(etree.tostring(tree), bytes)


@pytest.mark.postgres
def test_summary_on_postgresql(postgres_url: str) -> None:
    from scrapy_denoise.store.scratch import scratch_database

    with scratch_database(postgres_url) as url, Store.open(url) as store:
        fill_store(store)
        sites = collect_summary(store, top_lines=5)
    a = sites[0]
    assert a.site == "https://a.example" and a.summary.articles == 31
    assert a.articles_over_time() == (
        "published",
        [(f"2023-{m:02d}", 3 if m <= 6 else 2) for m in range(1, 13)],
    )
    assert sum(a.template_days.values()) == 2 and a.visits == 13


def test_line_bars_are_pink_only_past_the_removal_limit() -> None:
    from scrapy_denoise.report.charts import hbar_chart

    svg = hbar_chart([("kept line", 3), ("noise line", 9)], "lines", total=10, marker=5)
    kept, noise = svg.split("<rect")[1:3]
    assert 'fill="#9e9e9e"' in kept and "kept line: 3 of 10" in kept
    assert 'fill="#e7298a"' in noise and "noise line: 9 of 10" in noise


def test_dangling_label_at_the_end_is_attributed_to_its_rule() -> None:
    url, page = site_page(0)
    page = page.replace("</p>\n</div>", "</p>\n<p>More on this story:</p>\n</div>", 1)
    with Denoiser(store=False) as denoiser:
        report = build_page_report(page, url, denoiser=denoiser)
    label = next(b for b in report.blocks if b.text == "More on this story:")
    assert label.fate == "method"
    assert label.lines[0]["status"] == "label"
    assert "label ending in a colon" in label.decided_by
    assert "More on this story:" not in report.article.text
