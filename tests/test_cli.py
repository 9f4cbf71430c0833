"""``scrapy-denoise eval`` and ``extract``: method parameters from the command line, and
clear refusals."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import json
import re
import sqlite3
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import scrapy_denoise
from scrapy_denoise.cli import main

STORY = (
    "The harbour council met on Monday evening to agree the budget for the coming year. "
    "Members argued for two hours about the cost of dredging the northern channel, which "
    "silted up again after the winter storms. The mayor said the work could not wait.",
    "Fishing crews welcomed the decision, although several said the money came too late "
    "for this season. The dredging is expected to start in April and to last six weeks, "
    "during which the channel will be closed to larger boats at low tide.",
)


HTML = (
    "<html><head><title>Council agrees budget</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
    f"<article><h1>Council agrees budget</h1><p>{STORY[0]}</p><p>{STORY[1]}</p></article>"
    "</body></html>"
)


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """One article page with its true text, in the shared data's extraction format."""
    path = tmp_path / "toy.zip"
    row = {"id": "1", "dataset": "toy", "url": "https://news.example/2024/budget", "lang": "en",
           "encoding": "utf-8", "charset_declared": None, "text": "\n".join(STORY),
           "html": "html/1.html"}  # fmt: skip
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("html/1.html", HTML.encode())
        archive.writestr("index.jsonl", json.dumps(row) + "\n")
    return path


def _f1(capsys: pytest.CaptureFixture[str], name: str) -> float:
    return float(json.loads(capsys.readouterr().out)["toy"][name]["f1"])


def test_params_reach_the_evaluated_method(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", str(dataset), "--json", "--quiet"]) == 0
    assert _f1(capsys, "scrapy-denoise") > 0.9
    # a threshold no block clears and no fallback to the best block: nothing is kept
    params = json.dumps({"threshold": 1000, "fallback": False})
    assert main(["eval", str(dataset), "--params", params, "--json", "--quiet"]) == 0
    assert _f1(capsys, "scrapy-denoise") == 0.0


def test_a_model_file_from_train_blocks_can_be_evaluated(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_denoise.methods.block_svm import DEFAULT_MODEL_PATH

    copy = tmp_path / "my-blocks.json"
    copy.write_bytes(DEFAULT_MODEL_PATH.read_bytes())
    params = json.dumps({"model_path": str(copy)})
    assert main(["eval", str(dataset), "--params", params, "--json", "--quiet"]) == 0
    assert _f1(capsys, "scrapy-denoise") > 0.9


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("{not json", "--params is not JSON"),
        ('["model_path"]', "--params must be a JSON object"),
        ('{"model_path": "/nowhere/blocks.json"}', "No such file"),
        ('{"region_margin": -1}', "region_margin must be >= 0"),
        ('{"no_such_parameter": 1}', "no_such_parameter"),
    ],
)
def test_bad_params_are_refused_before_any_page_is_scored(
    dataset: Path, capsys: pytest.CaptureFixture[str], params: str, message: str
) -> None:
    assert main(["eval", str(dataset), "--params", params, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_a_baseline_run_of_the_method_is_the_reference_of_the_differences(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the evaluated parameters keep nothing, the baseline (the defaults) keeps the story
    args = [
        "eval",
        str(dataset),
        "--params",
        '{"threshold": 1000, "fallback": false}',
        "--baseline",
        "{}",
    ]
    assert main([*args, "--json", "--quiet"]) == 0
    scores = json.loads(capsys.readouterr().out)["toy"]
    assert scores["scrapy-denoise"]["f1"] == 0.0
    assert scores["scrapy-denoise (baseline)"]["f1"] > 0.9
    assert main([*args, "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "| F1 - scrapy-denoise (baseline) (95 % interval) |" in lines[0]
    row = next(line for line in lines if line.startswith("| toy | scrapy-denoise |"))
    assert float(row.split(" | ")[6].split(" ")[0]) < -0.9


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--baseline", "{not json"], "--baseline is not JSON"),
        (["--baseline", '{"model_path": "/nowhere/blocks.json"}'], "with --baseline"),
        (["--baseline", "{}", "--method", "default", "--method", "block_svm"], "one --method"),
    ],
)
def test_bad_baselines_are_refused_before_any_page_is_scored(
    dataset: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["eval", str(dataset), *extra, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_without_trafilatura_the_first_peer_given_is_the_reference(
    dataset: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scrapy_denoise.evaluation import peers

    monkeypatch.setattr(peers, "peers", lambda **_: {"echo": lambda html, url: html})
    assert main(["eval", str(dataset), "--compare", "echo", "--quiet"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "| F1 - echo (95 % interval) |" in header and header.endswith("CPU time vs echo |")


def test_eval_compares_with_trafilatura_reading_its_metadata_too(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("trafilatura")
    pytest.importorskip("readability")
    compare = "trafilatura,trafilatura+metadata"
    assert main(["eval", str(dataset), "--compare", compare, "--quiet"]) == 0
    rows = {line.split(" | ")[1]: line for line in capsys.readouterr().out.splitlines()[2:5]}
    assert set(rows) == {"scrapy-denoise", "trafilatura", "trafilatura+metadata"}
    # the same text, so the same scores; only the CPU columns differ
    assert rows["trafilatura"].split(" | ")[3:6] == rows["trafilatura+metadata"].split(" | ")[3:6]


def test_eval_names_the_peers_it_knows(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("trafilatura")
    pytest.importorskip("readability")
    assert main(["eval", str(dataset), "--compare", "goose", "--quiet"]) == 2
    assert "choose from trafilatura, readability, trafilatura+metadata" in capsys.readouterr().err


def test_version_names_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"scrapy-denoise {scrapy_denoise.__version__}"


def test_extract_takes_the_same_params(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "budget.html"
    page.write_text(HTML, encoding="utf-8")
    assert main(["extract", str(page), "--json"]) == 0
    assert STORY[1] in json.loads(capsys.readouterr().out)["text"]
    assert (
        main(["extract", str(page), "--json", "--params", '{"threshold": 1000, "fallback": false}'])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["text"] == ""
    assert main(["extract", str(page), "--params", '{"model_path": "/nowhere.json"}']) == 2
    assert "No such file" in capsys.readouterr().err


def test_extract_report_and_eval_drop_the_headline_when_asked(
    tmp_path: Path, dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "budget.html"
    page.write_text(HTML, encoding="utf-8")
    assert main(["extract", str(page), "--json"]) == 0
    kept = json.loads(capsys.readouterr().out)
    assert main(["extract", str(page), "--json", "--drop-headline"]) == 0
    dropped = json.loads(capsys.readouterr().out)
    assert kept["text"].split("\n")[0] == kept["title"]
    assert dropped["text"].split("\n") == kept["text"].split("\n")[1:]
    out = tmp_path / "report.html"
    assert main(["report", str(page), "--drop-headline", "-o", str(out)]) == 0
    assert "the headline, left out of the text" in out.read_text(encoding="utf-8")
    capsys.readouterr()
    # the toy dataset's truth is the story without its headline, as the shared sites' is
    precision = {}
    for flags in ([], ["--drop-headline"]):
        assert main(["eval", str(dataset), "--json", "--quiet", *flags]) == 0
        scores = json.loads(capsys.readouterr().out)["toy"]["scrapy-denoise"]
        precision[bool(flags)] = scores["precision"]
    assert precision[False] < precision[True] == 1.0


def test_report_takes_the_same_params(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A report shows what a method with other parameters (another model file) decided;
    it had no --params, so it could only show the shipped one."""
    status, out, _ = _one_page(tmp_path, capsys, "report")
    assert status == 0 and re.search(r"\bkept [1-9]", out) and "; article page" in out
    strict = '{"threshold": 1000, "fallback": false}'
    status, out, _ = _one_page(tmp_path, capsys, "report", "--params", strict)
    assert status == 0 and not re.search(r"\bkept [1-9]", out)  # no block kept now
    status, _, err = _one_page(tmp_path, capsys, "report", "--params", '{"model_path": "/x"}')
    assert status == 2 and "No such file" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["extract", "{tmp}/missing.html"], "scrapy-denoise extract: [Errno 2] No such file"),
        (["eval", "{tmp}/missing.zip"], "scrapy-denoise eval: [Errno 2] No such file"),
        (["db", "upgrade", "--store", "nonsense"], "scrapy-denoise db: not a database URL"),
        (
            ["db", "upgrade", "--store", "sqlite:///{tmp}/no/such/dir/x.db"],
            "scrapy-denoise db: cannot open store",
        ),
        (
            ["extract", "127.0.0.1:9/budget.html"],
            "scrapy-denoise extract: no file '127.0.0.1:9/budget.html'; for a URL, give its "
            "scheme: http://127.0.0.1:9/budget.html",
        ),
    ],
)
def test_a_users_mistake_is_one_line_on_stderr_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    page = tmp_path / "budget.html"
    page.write_text(HTML, encoding="utf-8")
    argv = [arg.format(tmp=tmp_path, page=page) for arg in argv]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(says)
    assert "Traceback" not in err and err.count("\n") == 1


def _one_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, *args: str
) -> tuple[int, str, str]:
    """``extract`` or ``report`` of a saved page with ``args``: exit status, stdout and
    stderr."""
    page = tmp_path / "budget.html"
    page.write_text(HTML, encoding="utf-8")
    out = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    status = main([command, str(page), *args, *out])
    printed = capsys.readouterr()
    return status, printed.out, printed.err


@pytest.mark.parametrize("command", ["extract", "report"])
def test_an_unknown_method_is_a_usage_error_naming_the_methods(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    status, _, err = _one_page(tmp_path, capsys, command, "--method", "nosuch")
    assert status == 2
    assert err.startswith(f"scrapy-denoise {command}: unknown extraction method 'nosuch'")
    assert "block_svm" in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"", "page warning: empty"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "page warning: binary"),
    ],
)
def test_extract_says_on_stderr_why_a_page_has_no_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: bytes, says: str
) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(body)
    assert main(["extract", str(page)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "\n"
    assert captured.err.startswith("scrapy-denoise extract: no main text (page filter: ")
    assert says in captured.err


def test_extract_and_report_only_read_a_crawls_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_denoise.store import Store

    page = tmp_path / "budget.html"
    page.write_text(HTML, encoding="utf-8")
    url = "sqlite:///" + str(tmp_path / "crawl.db")
    with scrapy_denoise.Denoiser(store=url) as crawl:
        crawl.extract(HTML, "https://news.example/2024/05/budget.html")
    with Store.open(url) as store:
        before = store.verdict_counts()
    assert sum(v.count for v in before) == 1
    site_url = ["--url", "https://news.example/2024/05/other.html", "--store", url]
    assert main(["extract", str(page), *site_url]) == 0
    assert main(["report", str(page), *site_url, "-o", str(tmp_path / "r.html")]) == 0
    # the verdict's kind, not only its reason ("model" says nothing of which way)
    assert re.search(r"blocks \(.*\); article page \(\w+\)\n", capsys.readouterr().out)
    with Store.open(url) as store:
        assert store.verdict_counts() == before


@pytest.mark.parametrize("command", ["extract", "report"])
def test_a_store_that_does_not_exist_is_refused_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "typo.db"
    status, _, err = _one_page(tmp_path, capsys, command, "--store", f"sqlite:///{missing}")
    assert status == 2
    assert err.startswith(f"scrapy-denoise {command}: no database file at {missing}")
    assert not missing.exists()  # a typo leaves no empty database behind


def test_bench_refuses_a_dataset_the_shared_data_does_not_have(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "extraction").mkdir()
    monkeypatch.setenv("DENOISE_SHARED_DATA", str(tmp_path))
    assert main(["bench", "extraction", "--dataset", "nope", "--quiet"]) == 1
    assert "no extraction dataset 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("table", ["pages", "extraction", "metadata"])
def test_bench_without_the_shared_data_says_how_to_give_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    # an installed package has no ../shared/data beside it: the variable is the way
    monkeypatch.setenv("DENOISE_SHARED_DATA", str(tmp_path / "missing"))
    assert main(["bench", table, "--quiet"]) in (1, 2)
    err = capsys.readouterr().err
    assert err.startswith("scrapy-denoise bench: ")
    assert "set DENOISE_SHARED_DATA to the folder holding extraction/ and sites/" in err
    assert "Traceback" not in err and err.count("\n") == 1


@pytest.fixture
def served_page() -> Iterator[tuple[str, list[str]]]:
    """HTML served on 127.0.0.1, and the User-Agent of every request it got."""
    agents: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            agents.append(self.headers.get("User-Agent", ""))
            body = HTML.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with _serving(Handler) as origin:
        yield f"{origin}/budget.html", agents


@contextlib.contextmanager
def _serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on 127.0.0.1 in a thread; yields the origin."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_extract_fetches_a_url_as_scrapy_denoise(
    served_page: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, agents = served_page
    assert main(["extract", url, "--json"]) == 0
    article = json.loads(capsys.readouterr().out)
    assert article["url"] == url and STORY[1] in article["text"]
    # the identity the store dedupes on: the same for the page under another address
    assert main(["extract", url + "?utm_source=feed", "--json"]) == 0
    copy = json.loads(capsys.readouterr().out)
    assert len(article["identity"]) == 32 and copy["identity"] == article["identity"]
    assert article["duplicate_of"] is None
    # urllib's own "Python-urllib/3.x" is refused by many sites
    assert agents and all(agent.startswith("scrapy-denoise/") for agent in agents)


@pytest.fixture
def odd_server() -> Iterator[str]:
    """Responses a real server sends now and then: compressed unasked, malformed, cut."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/bad-status":
                self.wfile.write(b"HTTP/1.1 OK-ish\r\n\r\n")
                return
            body = gzip.compress(HTML.encode()) if self.path == "/gzip" else HTML.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            if self.path == "/gzip":
                self.send_header("Content-Encoding", "gzip")
            # /cut promises more than it sends
            extra = 1000 if self.path == "/cut" else 0
            self.send_header("Content-Length", str(len(body) + extra))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with _serving(Handler) as origin:
        yield origin


def test_extract_reads_a_page_compressed_unasked(
    odd_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", f"{odd_server}/gzip", "--json"]) == 0
    article = json.loads(capsys.readouterr().out)
    assert STORY[1] in article["text"] and article["warnings"] == []


@pytest.mark.parametrize(
    ("path", "says"), [("/bad-status", "BadStatusLine"), ("/cut", "Incomplete")]
)
def test_a_malformed_response_is_one_line_not_a_traceback(
    odd_server: str, path: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", f"{odd_server}{path}"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"scrapy-denoise extract: cannot fetch {odd_server}{path}: ")
    assert says in err and len(err.strip().splitlines()) == 1


def test_extract_json_prints_the_articles_fields_in_its_own_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``extract --json`` prints Article.as_dict's values under the keys it always had, and
    (since they were found missing) what a store's learning removed."""
    page = tmp_path / "budget.html"
    dated = "<meta property='article:published_time' content='2024-05-01T10:00:00Z'></head>"
    page.write_text(HTML.replace("</head>", dated), encoding="utf-8")
    assert main(["extract", str(page), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == [
        "url", "title", "published", "author", "lang", "site", "method", "verdict",
        "warnings", "removed_templates", "removed_lines", "identity", "duplicate_of",
        "replaces", "text",
    ]  # fmt: skip
    assert printed["removed_templates"] == 0 and printed["removed_lines"] == 0  # no store
    assert printed["published"] == "2024-05-01T10:00:00+00:00"
    assert printed["verdict"]["is_noise"] is False and printed["warnings"] == []
    assert printed["method"] == "block_ensemble" and STORY[1] in printed["text"]


def test_summary_of_an_older_database_names_the_command_that_upgrades_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A user upgrading scrapy-denoise ran `summary` on the last release's database and was
    told to "open it with create=True", a Python argument no command takes."""
    from alembic import command

    from scrapy_denoise.store.migrate import alembic_config, head_revision

    path = tmp_path / "old.sqlite3"
    url = f"sqlite:///{path}"
    command.upgrade(alembic_config(url), "0001_initial")  # the first release's schema
    assert main(["summary", "--store", url]) == 2
    err = capsys.readouterr().err
    assert "older than" in err and "scrapy-denoise db upgrade --store URL" in err
    assert main(["db", "upgrade", "--store", url]) == 0
    capsys.readouterr()
    assert main(["summary", "--store", url]) == 0
    with sqlite3.connect(path) as conn:
        stored = conn.execute("SELECT version_num FROM denoise_alembic_version").fetchone()
    assert stored[0] == head_revision() != "0001_initial"
