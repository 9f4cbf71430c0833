"""The offline demo site: deterministic, fully crawlable, truthful manifest, and its server."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

import lxml.html
import pytest

EXAMPLE_PROJECT = Path(__file__).resolve().parent.parent / "example_project"
# example_project is not installed by pip; its modules are imported from the folder
if str(EXAMPLE_PROJECT) not in sys.path:
    sys.path.insert(0, str(EXAMPLE_PROJECT))

from demosite.generate import Manifest, PageRecord, generate, main, write_site_zip  # noqa: E402
from demosite.serve import serve  # noqa: E402

_HOST = "http://demo.invalid"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Manifest]:
    root = tmp_path_factory.mktemp("demosite")
    return root, generate(root, seed=7)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _file_for(root: Path, path: str) -> Path:
    return root / (path.lstrip("/") + "index.html" if path.endswith("/") else path.lstrip("/"))


def _links(root: Path, path: str) -> Iterator[str]:
    """Same-site link targets of one page, as decoded URL paths (what a crawler would follow)."""
    doc = lxml.html.fromstring(_file_for(root, path).read_bytes())
    base = _HOST + quote(path)
    for href in doc.xpath("//a/@href"):
        parts = urlsplit(urljoin(base, href))
        if f"{parts.scheme}://{parts.netloc}" == _HOST:
            yield unquote(parts.path)


def _crawl(root: Path, start: str = "/") -> dict[str, set[str]]:
    """BFS over the generated files; returns each reached page with the pages linking to it."""
    referrers: dict[str, set[str]] = {start: set()}
    queue = deque([start])
    while queue:
        page = queue.popleft()
        for target in _links(root, page):
            if not (target.endswith((".html", "/")) and _file_for(root, target).is_file()):
                continue
            if target not in referrers:
                referrers[target] = set()
                queue.append(target)
            referrers[target].add(page)
    return referrers


def test_same_seed_gives_identical_bytes(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate(first, seed=7)
    generate(second, seed=7)
    generate(other, seed=8)
    tree = _tree(first)
    assert tree == _tree(second)
    assert tree["manifest.json"] != _tree(other)["manifest.json"]


def test_manifest_round_trips_and_matches_files(site: tuple[Path, Manifest]) -> None:
    root, manifest = site
    assert Manifest.load(root) == manifest
    html_files = {p.relative_to(root).as_posix() for p in root.rglob("*.html")}
    assert {page.file for page in manifest.pages} == html_files
    for page in manifest.pages:
        assert _file_for(root, page.path) == root / page.file


def test_articles_are_many_bilingual_and_use_three_layouts(site: tuple[Path, Manifest]) -> None:
    _, manifest = site
    articles = manifest.articles
    assert 55 <= len(articles) <= 65
    chinese = [a for a in articles if a.lang == "zh"]
    assert 0.25 <= len(chinese) / len(articles) <= 0.4
    assert {(a.layout, a.lang) for a in articles} == {
        (layout, lang) for layout in ("classic", "magazine", "blog") for lang in ("en", "zh")
    }
    assert len({a.text for a in articles}) == len(articles)
    for article in articles:
        assert article.title and article.author and article.text and article.date
        assert article.path.startswith("/" + article.date.replace("-", "/") + "/")
        assert article.path.endswith(".html")
        # 4-12 paragraphs plus at most two subheadings
        assert 4 <= len(article.text.split("\n")) <= 14


def test_noise_pages_of_each_type_exist(site: tuple[Path, Manifest]) -> None:
    _, manifest = site
    noise = manifest.noise
    assert {p.noise_type for p in noise} == {"index", "list", "tag", "archive", "other"}
    subtypes = {p.subtype for p in noise}
    assert {"home", "section", "author", "tag", "archive", "search", "about", "sitemap"} <= subtypes
    assert any("/section/" in p.path and "/page/2/" in p.path for p in noise)
    assert all(p.text is None and p.title is None for p in noise)


def test_every_article_is_reachable_from_home(site: tuple[Path, Manifest]) -> None:
    root, manifest = site
    reached = _crawl(root)
    missing = [a.path for a in manifest.articles if a.path not in reached]
    assert not missing
    # noise pages are crawlable too, so a crawl sees them and must keep them out
    assert {p.path for p in manifest.noise} <= set(reached)


def test_some_articles_are_only_behind_pagination_or_tags(site: tuple[Path, Manifest]) -> None:
    root, manifest = site
    on_home = set(_links(root, "/")) | set(_links(root, "/zh/"))
    deep = [a for a in manifest.articles if a.path not in on_home]
    assert len(deep) >= 10
    kinds = {p.path: p for p in manifest.pages}
    reached = _crawl(root)
    tag_only = [a for a in manifest.articles if a.note == "linked only from tag pages"]
    assert tag_only
    for article in tag_only:
        # the page's own fragment links (#respond, #main) aside, only tag pages lead there
        referrers = reached[article.path] - {article.path}
        assert referrers
        assert {kinds[ref].noise_type for ref in referrers} == {"tag"}


def _text(node: lxml.html.HtmlElement) -> str:
    return node.text_content().strip()


def _check_article_page(root: Path, record: PageRecord) -> lxml.html.HtmlElement:
    doc = lxml.html.fromstring(_file_for(root, record.path).read_bytes())
    assert doc.get("lang") == record.lang
    assert _text(doc.find(".//title")) == f"{record.title} - Demo Daily"
    (h1,) = doc.xpath("//h1")
    assert _text(h1) == record.title
    (time,) = doc.xpath("//time[@itemprop='datePublished']")
    assert time.get("datetime").startswith(record.date or "")
    meta = {m.get("property") or m.get("name"): m.get("content") for m in doc.xpath("//meta")}
    assert meta["og:title"] == record.title
    assert meta["author"] == record.author
    assert (meta["article:published_time"] or "").startswith(record.date or "")
    (body,) = doc.xpath("//div[contains(concat(' ', @class, ' '), ' article-body ')]")
    lines = [_text(child) for child in body if child.tag in ("p", "h2")]
    assert "\n".join(lines) == record.text
    return doc


def test_article_pages_carry_the_manifest_truth_inside_real_chrome(
    site: tuple[Path, Manifest],
) -> None:
    root, manifest = site
    in_body_ads = json_ld = 0
    for record in manifest.articles:
        doc = _check_article_page(root, record)
        for selector in (
            "nav",
            "breadcrumb",
            "site-header",
            "site-footer",
            "cookie-notice",
            "share-buttons",
            "comments-area",
        ):
            assert doc.find_class(selector), (record.path, selector)
        assert (
            doc.xpath("//form[contains(@class, 'newsletter-form')]") or record.layout != "classic"
        )
        assert doc.xpath("//section[contains(@class, 'related')]"), record.path
        assert "©" in _text(doc.find_class("copyright")[0])
        in_body_ads += bool(doc.xpath("//div[contains(@class, 'article-body')]//div[@class]"))
        json_ld += bool(doc.xpath("//script[@type='application/ld+json']"))
    assert in_body_ads >= 10
    assert 10 <= json_ld < len(manifest.articles)


def test_comments_and_ads_hold_real_sentences(site: tuple[Path, Manifest]) -> None:
    root, manifest = site
    comments = ads = 0
    for record in manifest.articles:
        doc = lxml.html.fromstring(_file_for(root, record.path).read_bytes())
        comments += sum(len(_text(c)) > 10 for c in doc.find_class("comment-content"))
        ads += sum(len(_text(a)) > 20 for a in doc.find_class("ad"))
    assert comments >= 60
    assert ads >= 2 * len(manifest.articles)


def test_cli_generate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "--seed", "3"]) == 0
    assert "60 articles" in capsys.readouterr().out
    assert Manifest.load(tmp_path / "manifest.json").seed == 3


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


# no proxy: a proxy from the environment must not see loopback requests
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def _get(url: str) -> tuple[int, Message, bytes]:
    """Status, headers (case-insensitive) and body, without following redirects."""
    try:
        with _OPENER.open(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_site_zip_reads_back_in_the_shared_site_format(
    site: tuple[Path, Manifest], tmp_path: Path
) -> None:
    from scrapy_denoise.evaluation.datasets import iter_site_pages

    root, manifest = site
    packed = write_site_zip(root, manifest, tmp_path / "demo.zip")
    pages = {p.path: p for p in iter_site_pages(packed)}
    assert set(pages) == {record.path for record in manifest.pages}
    for record in manifest.pages:
        page = pages[record.path]
        assert page.kind == record.kind and page.noise_type == record.noise_type
        assert page.html == (root / record.file).read_bytes()
        assert page.truth == (record.text if record.kind == "article" else None)
        assert page.title == record.title


def test_server_serves_pages_and_404s(site: tuple[Path, Manifest]) -> None:
    root, manifest = site
    non_ascii = next(a for a in manifest.articles if not a.path.isascii())
    with serve(root) as base:
        assert base.startswith("http://127.0.0.1:")
        status, headers, body = _get(base + "/")
        assert status == 200
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert b"Demo Daily" in body
        status, _, body = _get(base + quote(non_ascii.path))
        assert status == 200
        assert non_ascii.title is not None and non_ascii.title.encode("utf-8") in body
        assert _get(base + "/no/such/page.html")[0] == 404
        assert _get(base + "/static/")[0] == 404  # no generated directory listings
        status, headers, _ = _get(base + "/section/world")
        assert status == 301 and headers["Location"].endswith("/section/world/")


def test_server_handles_real_site_file_names_and_foreign_charsets(tmp_path: Path) -> None:
    spaced = tmp_path / "blog" / "2012" / "Pacific Vis 2012 信息可视化报告 2"
    spaced.mkdir(parents=True)
    (spaced / "index.html").write_bytes("<p>可视化</p>".encode())
    (tmp_path / "gbk.html").write_bytes('<meta charset="gbk"><p>新闻</p>'.encode("gbk"))
    with serve(tmp_path) as base:
        status, headers, body = _get(base + quote("/blog/2012/Pacific Vis 2012 信息可视化报告 2/"))
        assert status == 200 and "可视化".encode() in body
        status, headers, body = _get(base + "/gbk.html")
        # claiming utf-8 for a GBK page would override its own <meta charset>
        assert status == 200 and headers["Content-Type"] == "text/html"
        # a client sending raw UTF-8 bytes in the request line still finds the file
        parts = urlsplit(base)
        with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
            path = "/blog/2012/Pacific%20Vis%202012%20信息可视化报告%202/".encode()
            sock.sendall(b"GET " + path + b" HTTP/1.0\r\nHost: localhost\r\n\r\n")
            assert sock.makefile("rb").readline().split()[1] == b"200"


def test_server_module_cli_prints_url(site: tuple[Path, Manifest]) -> None:
    root, _ = site
    process = subprocess.Popen(
        [sys.executable, "-m", "demosite.serve", str(root), "--port", "0"],
        cwd=EXAMPLE_PROJECT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert _get(url)[0] == 200
    finally:
        process.terminate()
        process.wait(timeout=10)
