"""The ``scrapy-denoise`` command: extract, evaluate, train, benchmark, manage the store.

Heavy imports happen inside each command so ``scrapy-denoise --help`` stays instant.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from . import __version__
from .evaluation.datasets import SPLITS, TRAIN_SPLITS

if TYPE_CHECKING:
    from .denoiser import Denoiser

_T = TypeVar("_T")

__all__ = ["main"]


def _progress(label: str) -> Any:
    """A one-line progress meter on stderr (only when it is a terminal or in verbose runs)."""

    def report(done: int, total: int | None) -> None:
        if total:
            sys.stderr.write(f"\r{label}: {done}/{total}")
        else:
            sys.stderr.write(f"\r{label}: {done}")
        if total is not None and done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return report


#: sent when ``extract`` or ``report`` fetches a URL: many sites refuse urllib's default
_USER_AGENT = f"scrapy-denoise/{__version__} (+https://pypi.org/project/scrapy-denoise/)"


#: "127.0.0.1:8000/a.html", "example.com/news", "www.example.com": a URL typed without its
#: scheme (a port, a path after a dotted host, or "www."; "notes.html" stays a file name)
_LOOKS_LIKE_HOST = re.compile(
    r"^(?:(?:localhost|[\w-]+(?:\.[\w-]+)+)(?::\d+/?|/)|www\.[\w-]+\.[\w.-]+)"
)


def _read_source(source: str, url: str | None) -> tuple[bytes, dict[str, str] | None, str]:
    """The page ``extract`` and ``report`` read: (body, response headers, the page's URL)
    from an http(s) URL or a file; ``url`` (``--url``) overrides the URL either way."""
    from http.client import HTTPException
    from urllib.request import Request, urlopen

    if source.startswith(("http://", "https://")):
        request = Request(source, headers={"User-Agent": _USER_AGENT})
        try:
            with urlopen(request, timeout=30) as resp:
                body, headers = resp.read(), dict(resp.headers.items())
        except (HTTPException, ValueError) as error:
            # a malformed response or redirect (a bad status line, a body cut short, an
            # invalid URL to follow): one line like any other failed fetch
            raise ConnectionError(
                f"cannot fetch {source}: {type(error).__name__}: {error}"
            ) from error
        return _decompressed(body, headers), headers, url or source
    path = Path(source)
    if not path.exists() and _LOOKS_LIKE_HOST.match(source):
        raise FileNotFoundError(f"no file {source!r}; for a URL, give its scheme: http://{source}")
    return path.read_bytes(), None, url or path.resolve().as_uri()


def _decompressed(body: bytes, headers: dict[str, str]) -> bytes:
    """The body a server compressed without being asked (urllib asks for none), as a
    crawl's HttpCompressionMiddleware would give it; read up to ``DEFAULT_MAX_BYTES`` and
    one byte more, as loading would, so a compression bomb stays small."""
    encoding = next((v for k, v in headers.items() if k.lower() == "content-encoding"), "")
    encoding = encoding.strip().lower()
    if encoding not in ("gzip", "x-gzip", "deflate"):
        return body
    from .document import DEFAULT_MAX_BYTES

    limit = DEFAULT_MAX_BYTES + 1
    try:
        # wbits 47: gzip or zlib by the header; raw deflate (some servers) as a fallback
        return zlib.decompressobj(47).decompress(body, limit)
    except zlib.error:
        try:
            return zlib.decompressobj(-15).decompress(body, limit)
        except zlib.error:
            return body  # loading reports what it is (binary)


def _cmd_extract(args: argparse.Namespace) -> int:
    body, headers, url = _read_source(args.source, args.url)
    # the store is read, not taught: looking at a page must not change a crawl's state
    status, article = _on_one_page(
        args, "extract", lambda denoiser: denoiser.extract(body, url, headers, learn=False)
    )
    if article is None:
        return status
    if args.json:
        values = article.as_dict()
        # the fields printed, in this order, of all Article.as_dict has; identity is what
        # the store keeps one row per (ArticleRecord.identity); site and the removed
        # templates and lines say what a --store's learning took out
        keys = (
            "url title published author lang site method verdict warnings removed_templates "
            "removed_lines identity duplicate_of replaces text"
        )
        printed = {key: values[key] for key in keys.split()}
        print(json.dumps(printed, ensure_ascii=False, indent=2))
    else:
        if article.title:
            print(f"# {article.title}\n")
        print(article.text)
        if not article.text:
            # an empty line alone would not say why; --json has the same facts as fields
            why = [f"page filter: {article.verdict.reason}"] if article.verdict else []
            why += [f"page warning: {w}" for w in article.warnings]
            print(
                f"scrapy-denoise extract: no main text ({'; '.join(why) or 'none found'})",
                file=sys.stderr,
            )
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from .evaluation.benchmark import method_extractor
    from .evaluation.peers import peers
    from .evaluation.runner import evaluate_dataset, format_table, to_json

    params = _method_params(args.params)
    if params is None:
        return 2
    methods = args.method or ["default"]
    baseline = None
    if args.baseline is not None:
        baseline = _method_params(args.baseline, option="--baseline")
        if baseline is None:
            return 2
        if len(methods) > 1:
            print("--baseline compares one method with itself: give one --method", file=sys.stderr)
            return 2
    extractors: dict[str, Any] = {}
    baseline_name = ""
    for method in methods:
        name = method if method != "default" else "scrapy-denoise"
        runs = [(name, params, args.params, "--params")]
        if baseline is not None:
            baseline_name = f"{name} (baseline)"
            runs.append((baseline_name, baseline, args.baseline, "--baseline"))
        for label, method_params, raw, option in runs:
            try:
                extractor = method_extractor(
                    method, method_params, keep_headline=not args.drop_headline
                )
                # the model file is read on first use: fail here, not on every page
                extractor("<p>A first sentence to check the method's parameters.</p>", "")
            except (OSError, TypeError, ValueError) as error:
                return _refuse_method(method, raw, error, option)
            extractors[label] = extractor
    compared: list[str] = []
    if args.compare:
        available = peers(metadata=True)
        for name in args.compare.split(","):
            name = name.strip()
            if name not in available:
                print(f"unknown peer {name!r}; choose from {', '.join(available)}", file=sys.stderr)
                return 2
            extractors[name] = available[name]
            compared.append(name)
    results: dict[str, Any] = {}
    for dataset in args.datasets:
        path = Path(dataset)
        name = path.stem
        results[name] = evaluate_dataset(
            path,
            extractors,
            limit=args.limit,
            split=args.split,
            progress=None if args.quiet else _progress(name),
            # the F1 differences' bootstrap intervals
            keep_pages=bool(args.compare) or baseline is not None,
        )
    # differences and CPU ratios against the baseline when there is one, else trafilatura
    # when it runs, else the first peer given
    reference = baseline_name or (
        "trafilatura" if "trafilatura" in compared else (compared or [""])[0]
    )
    print(to_json(results) if args.json else format_table(results, reference=reference))
    return 0


#: ``--drop-headline`` of ``extract``, ``report`` and ``eval``
_DROP_HEADLINE_HELP = (
    "leave out the text's first line that is the title (DENOISE_KEEP_HEADLINE = False)"
)


def _on_one_page(
    args: argparse.Namespace, command: str, work: Callable[[Denoiser], _T]
) -> tuple[int, _T | None]:
    """``work`` done by a Denoiser of ``--method`` with ``--params`` over ``--store``, for
    ``extract`` and ``report``: (0, its result), or (exit status, None) after one line
    saying why. The store is a crawl's database, only read: an existing one, never created
    (a typo in the URL must not leave an empty database behind and look as if nothing had
    been learned)."""
    from . import Denoiser
    from .store import StoreError

    params = _method_params(args.params)
    if params is None:
        return 2, None
    method = args.method or "default"
    try:
        store = _open_existing_store(args.store) if args.store else None
    except StoreError as exc:
        print(f"scrapy-denoise {command}: {exc}", file=sys.stderr)
        return 2, None
    try:
        with Denoiser(
            method=method,
            store=store or False,
            method_params={method: params},
            keep_headline=not args.drop_headline,
        ) as denoiser:
            return 0, work(denoiser)
    except (OSError, TypeError, ValueError) as error:
        if not args.params:
            raise
        return _refuse_method(method, args.params, error), None
    finally:
        if store is not None:
            store.close()


def _method_params(raw: str | None, option: str = "--params") -> dict[str, object] | None:
    """``--params`` (or ``option``) as a dict ({} when absent); None, after saying why, when
    it is not a JSON object."""
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        print(f"{option} is not JSON: {error}", file=sys.stderr)
        return None
    if not isinstance(value, dict):
        print(
            f'{option} must be a JSON object, e.g. {{"model_path": "blocks.json"}}', file=sys.stderr
        )
        return None
    return value


def _refuse_method(
    method: str, params: str | None, error: Exception, option: str = "--params"
) -> int:
    """One line on stderr for a method its arguments or model file cannot build; exit 2."""
    given = f" with {option} {params}" if params else ""
    print(f"method {method!r}{given}: {error}", file=sys.stderr)
    return 2


def _bench_sites(args: argparse.Namespace) -> int:
    from .evaluation.report_file import write_section
    from .evaluation.site_learning import DEFAULT_SITES, site_learning_benchmark

    zips: dict[str, Path] = {}
    for spec in args.zip or ():
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise SystemExit(f"--zip wants NAME=PATH, got {spec!r}")
        zips[name] = Path(path)
    sites = tuple(args.site or ([] if zips else DEFAULT_SITES)) + tuple(zips)
    body = site_learning_benchmark(
        sites,
        method=args.method,
        zips=zips,
        progress=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)),
    )
    # One section per method, so the default's table and a DOM method's (where single-page
    # extraction leaves more boilerplate for learning to remove) stand side by side.
    section = "sites" if args.method == "default" else f"sites-{args.method}"
    heading = "## Site learning on whole sites (templates, line statistics)"
    if args.method != "default":
        heading += f", method {args.method}"
    heading += "\n\n"
    print(heading + body)
    if args.out:
        command = "scrapy-denoise bench sites"
        if args.site:
            command += "".join(f" --site {site}" for site in args.site)
        command += "".join(f" --zip {spec}" for spec in args.zip or ())
        if args.method != "default":
            command += f" --method {args.method}"
        write_section(Path(args.out), section, heading + body, command=command)
    return 0


def _bench_pages(args: argparse.Namespace) -> int:
    from .evaluation.datasets import DATA_NOT_FOUND, shared_data_dir
    from .evaluation.report_file import write_section
    from .models.train_pages import evaluate_pages
    from .page.model import DEFAULT_MODEL_PATH

    data = shared_data_dir()
    if data is None:
        print(f"scrapy-denoise bench: {DATA_NOT_FOUND}", file=sys.stderr)
        return 2
    body = evaluate_pages(
        data,
        DEFAULT_MODEL_PATH,
        progress=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)),
    )
    heading = (
        "## Page filter: noise pages vs article pages on pages no model saw\n\n"
        "Target (issue 5): noise-page precision >= 0.95 and article recall >= 0.98.\n\n"
    )
    print(heading + body)
    if args.out:
        write_section(Path(args.out), "pages", heading + body, command="scrapy-denoise bench pages")
    return 0


def _bench_metadata(args: argparse.Namespace) -> int:
    from .evaluation.metadata_bench import (
        format_metadata,
        format_titles,
        format_url_dates,
        metadata_benchmark,
        title_benchmark,
        url_date_benchmark,
    )
    from .evaluation.report_file import write_section
    from .evaluation.site_learning import DEFAULT_SITES

    sites = tuple(args.site or DEFAULT_SITES)
    say = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    results = metadata_benchmark(sites, progress=say)
    body = "## Metadata: title, date and author on the sites' article pages\n\n"
    body += format_metadata(results)
    body += "\n### Dates on news pages whose URL carries one (URL hidden)\n\n"
    body += format_url_dates(url_date_benchmark(progress=say))
    body += "\n### Titles of wcxb pages\n\n"
    body += format_titles(title_benchmark(progress=say))
    print(body)
    if args.out:
        command = "scrapy-denoise bench metadata" + "".join(
            f" --site {site}" for site in args.site or ()
        )
        write_section(Path(args.out), "metadata", body, command=command)
    return 0


def _bench_blocks(args: argparse.Namespace) -> int:
    from .evaluation.datasets import shared_data_dir
    from .evaluation.report_file import write_section
    from .models.ablation import ablation, format_ablation
    from .models.train_blocks import truth_datasets

    data = shared_data_dir()
    if data is None:
        raise SystemExit("bench blocks needs the shared data folder (DENOISE_SHARED_DATA)")
    datasets = args.dataset or truth_datasets(data)
    try:
        seeds = [int(seed) for seed in args.seeds.split(",")]
    except ValueError:
        raise SystemExit(f"--seeds takes comma-separated integers, not {args.seeds!r}") from None
    rows = ablation(
        data,
        eval_datasets=datasets,
        seeds=seeds,
        limit=args.limit,
        progress=(lambda line: None)
        if args.quiet
        else (lambda line: print(line, file=sys.stderr, flush=True)),
    )
    limited = f", first {args.limit} per dataset" if args.limit else ""
    seeded = f", mean of {len(seeds)} training seeds" if len(seeds) > 1 else ""
    heading = (
        "## Block classifier: feature-group ablation (trained on dev pages, "
        f"F1 on holdout pages{limited}{seeded})\n\n"
    )
    body = heading + format_ablation(rows)
    print(body)
    if args.out:
        command = f"scrapy-denoise bench blocks --seeds {','.join(map(str, seeds))}" + (
            f" --limit {args.limit}" if args.limit else ""
        )
        write_section(Path(args.out), "blocks", body, command=command)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .evaluation.benchmark import extraction_benchmark
    from .evaluation.report_file import write_section

    if args.section == "sites":
        return _bench_sites(args)
    if args.section == "crawl":
        return _bench_crawl(args)
    if args.section == "perf":
        return _bench_perf(args)
    if args.section == "pages":
        return _bench_pages(args)
    if args.section == "blocks":
        return _bench_blocks(args)
    if args.section == "metadata":
        return _bench_metadata(args)
    table, _ = extraction_benchmark(
        split=args.split,
        limit=args.limit,
        datasets=args.dataset,
        progress=None if args.quiet else _progress,
    )
    heading = (
        f"## Extraction quality and speed ({args.split} pages"
        + (f", first {args.limit} per dataset" if args.limit else "")
        + ")\n\n"
    )
    print(heading + table)
    if args.out:
        command = "scrapy-denoise bench extraction --split " + args.split
        if args.limit:
            command += f" --limit {args.limit}"
        write_section(Path(args.out), "extraction", heading + table, command=command)
    return 0


def _bench_perf(args: argparse.Namespace) -> int:
    from .evaluation.perf import perf_benchmark
    from .evaluation.report_file import write_section

    per_dataset = args.limit or 100
    site = args.site[0] if args.site else "flink-blog"
    body = perf_benchmark(
        split=args.split,
        per_dataset=per_dataset,
        datasets=args.dataset,
        postgres_url=args.postgres,
        replay_site=site,
        replay_pages=args.replay_pages,
        progress=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)),
    )
    heading = "## Speed, store throughput and memory (one run, this machine)\n\n"
    print(heading + body)
    if args.out:
        command = (
            f"scrapy-denoise bench perf --split {args.split} --limit {per_dataset} "
            f"--site {site} --replay-pages {args.replay_pages}"
        )
        if args.dataset:
            command += "".join(f" --dataset {d}" for d in args.dataset)
        if args.postgres:
            command += " --postgres URL"
        elif os.environ.get("DENOISE_TEST_POSTGRES_URL"):  # the fallback perf_benchmark reads
            command = "DENOISE_TEST_POSTGRES_URL=URL " + command
        write_section(Path(args.out), "perf", heading + body, command=command)
    return 0


def _bench_crawl(args: argparse.Namespace) -> int:
    from .evaluation.crawl_bench import crawl_benchmark
    from .evaluation.report_file import write_section

    site = args.site[0] if args.site else "flink-blog"
    latencies = [int(v) for v in args.latency_ms.split(",") if v.strip()]
    table, _ = crawl_benchmark(
        site=site,
        runs=args.runs,
        latencies_ms=latencies,
        progress=None if args.quiet else lambda line: print(line, file=sys.stderr),
    )
    heading = "## Crawl throughput: plain Scrapy and with scrapy-denoise\n\n"
    print(heading + table)
    if args.out:
        command = (
            f"scrapy-denoise bench crawl --site {site} --runs {args.runs} "
            f"--latency-ms {args.latency_ms}"
        )
        write_section(Path(args.out), "crawl", heading + table, command=command)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    data = Path(args.data)
    out = Path(args.out)
    if args.what == "pages" and (args.dataset or args.split != "dev"):
        raise SystemExit(
            "scrapy-denoise train: --dataset and --split are for train blocks; train pages "
            "reads every labelled page"
        )
    if args.what == "blocks" and args.without:
        raise SystemExit(
            "scrapy-denoise train: --without is for train pages; train blocks chooses its "
            "datasets with --dataset"
        )
    # Checked before minutes of training, not when the model is written (OSError: one line).
    if out.is_dir():
        raise IsADirectoryError(f"--out {out} is a directory; give the model file's path")
    if not out.parent.is_dir():
        raise FileNotFoundError(f"--out {out}: no directory {out.parent}")
    if not os.access(out.parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise PermissionError(f"--out {out}: not writable")

    # Progress goes to stderr like every long command's: stdout is the JSON training report.
    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    if args.what == "blocks":
        from .models.train_blocks import train_blocks

        report = train_blocks(
            data, out, seed=args.seed, progress=progress, datasets=args.dataset, split=args.split
        )
    else:
        from .models.train_pages import train_pages

        report = train_pages(data, out, seed=args.seed, without=args.without, progress=progress)
    print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    return 0


def _cmd_db(args: argparse.Namespace) -> int:
    from .store import Store, redact_url

    store = Store.open(args.store)
    print(f"{redact_url(args.store)}: schema at the current revision")
    store.close()
    return 0


def _open_existing_store(url: str) -> Any:
    """A store that must already exist: reports read it, and must not leave an empty
    database behind when the URL has a typo (SQLite creates any file it is pointed at)."""
    from sqlalchemy.engine import make_url

    from .store import Store, StoreError

    try:
        parsed = make_url(url)
    except Exception:  # malformed: let Store.open word the error
        parsed = None
    if parsed is not None and parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not Path(database).exists():
            raise StoreError(f"no database file at {database}")
    return Store.open(url, create=False)


def _cmd_report(args: argparse.Namespace) -> int:
    from .report.page_report import build_page_report, write_page_report

    body, headers, url = _read_source(args.source, args.url)
    status, report = _on_one_page(
        args, "report", lambda denoiser: build_page_report(body, url, headers, denoiser=denoiser)
    )
    if report is None:
        return status
    out = write_page_report(report, args.out)
    counts = ", ".join(f"{fate} {n}" for fate, n in report.counts().items())
    kind = "noise page" if report.verdict.is_noise else "article page"
    print(f"{out}: {len(report.blocks)} blocks ({counts}); {kind} ({report.verdict.reason})")
    return 0


def _cmd_summary(args: argparse.Namespace) -> int:
    from .report.summary import collect_summary, format_summary, write_summary
    from .store import StoreError

    try:
        store = _open_existing_store(args.store)
    except StoreError as exc:
        print(f"scrapy-denoise summary: {exc}", file=sys.stderr)
        return 2
    try:
        sites = collect_summary(store, top_lines=args.top_lines)
    finally:
        store.close()
    print(format_summary(sites, store_url=store.url))
    if args.out:
        print(f"wrote {write_summary(sites, args.out, store_url=store.url)}")
    return 0


def _count(text: str) -> int:
    """A whole number of 0 or more (a negative LIMIT is "no limit" on SQLite and an error on
    PostgreSQL)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scrapy-denoise",
        description="Clean article text from crawled pages: extract, evaluate, train, bench.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("extract", help="extract one page (file or URL) and print its text")
    p.add_argument("source", help="an HTML file or an http(s) URL")
    p.add_argument("--url", help="the page's URL when SOURCE is a file (or to override it)")
    p.add_argument("--method", default=None, help="extraction method (default: the chain)")
    p.add_argument("--params", help="parameters of the method as JSON (as for eval)")
    p.add_argument("--store", help="database URL with learned site state (read only)")
    p.add_argument("--json", action="store_true", help="print the article as JSON")
    p.add_argument("--drop-headline", action="store_true", help=_DROP_HEADLINE_HELP)
    p.set_defaults(func=_cmd_extract)

    p = sub.add_parser("eval", help="score extraction on datasets with ground truth")
    p.add_argument("datasets", nargs="+", help="extraction/NAME.zip files of shared/data")
    p.add_argument(
        "--method",
        action="append",
        help="method to evaluate (repeatable; default: the default chain)",
    )
    p.add_argument(
        "--params",
        help='parameters of the evaluated method as JSON, e.g. \'{"model_path": "blocks.json"}\' '
        "for a model from `train blocks` or '{\"region_margin\": 0}' (the method's keyword "
        "arguments)",
    )
    p.add_argument(
        "--baseline",
        help="the same method with these parameters (JSON, as --params; '{}' for its "
        "defaults) on the same pages, as the reference of the F1 differences: e.g. "
        '\'{"model_path": "old-blocks.json"}\' to compare two models',
    )
    p.add_argument(
        "--compare",
        help="peers to run on the same pages: trafilatura,readability (and "
        "trafilatura+metadata, trafilatura reading title, date and author too)",
    )
    p.add_argument("--limit", type=int, help="first N pages of each dataset")
    p.add_argument(
        "--split",
        choices=SPLITS,
        default="all",
        help="the project's stable page split (tune on dev, report holdout; dev-a and dev-b "
        "are the halves of dev, to score a model trained with `train blocks --split dev-a` "
        "out of sample)",
    )
    p.add_argument("--drop-headline", action="store_true", help=_DROP_HEADLINE_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=_cmd_eval)

    p = sub.add_parser("bench", help="benchmark tables for BENCHMARKS.md")
    p.add_argument(
        "section",
        choices=("extraction", "sites", "crawl", "perf", "pages", "blocks", "metadata"),
    )
    p.add_argument("--split", choices=SPLITS, default="holdout")
    p.add_argument("--limit", type=int, help="first N pages of each dataset")
    p.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    p.add_argument(
        "--site",
        action="append",
        help="sites: only this shared site (repeatable); crawl: the site (default flink-blog)",
    )
    p.add_argument(
        "--zip",
        action="append",
        metavar="NAME=PATH",
        help="sites: also a site zip in the shared format (repeatable; e.g. the demo site "
        "packed by `python -m demosite.generate DIR --zip FILE`)",
    )
    p.add_argument("--method", default="default", help="sites: the extraction method")
    p.add_argument("--runs", type=int, default=3, help="crawl: rounds of (plain, plugin) crawls")
    p.add_argument(
        "--latency-ms",
        default="0,250",
        help="crawl: server latencies, comma-separated (0 = loopback speed)",
    )
    p.add_argument(
        "--postgres",
        help="perf: PostgreSQL server URL for the store throughput (a database is created "
        "and dropped); default DENOISE_TEST_POSTGRES_URL",
    )
    p.add_argument(
        "--replay-pages",
        type=int,
        default=100_000,
        help="perf: pages replayed through a SQLite-backed Denoiser for the memory table "
        "(0 skips it)",
    )
    p.add_argument(
        "--seeds",
        default="0,1,2",
        help="blocks: training seeds, comma-separated; the table averages them",
    )
    p.add_argument("--out", help="update this file's section (e.g. BENCHMARKS.md)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("train", help="train the block or page SVM from labelled data")
    p.add_argument("what", choices=("blocks", "pages"))
    p.add_argument("--data", required=True, help="the shared/data folder (or your own)")
    p.add_argument("--out", required=True, help="model file to write (JSON)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--dataset",
        action="append",
        help="blocks: train on this extraction/NAME.zip only (repeatable; default: every "
        "dataset under --data with true texts)",
    )
    p.add_argument(
        "--split",
        choices=TRAIN_SPLITS,
        default="dev",
        help="blocks: the development pages (default), or one half of them, to score the "
        "model on the other with `eval --split dev-b`",
    )
    p.add_argument(
        "--without",
        metavar="NAME",
        help="pages: leave out every page of this site or dataset (sites/NAME.zip, "
        "extraction/NAME.zip), to crawl that site with a model that never saw it",
    )
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=_cmd_train)

    p = sub.add_parser("report", help="HTML report of one page: each block coloured by its fate")
    p.add_argument("source", help="an HTML file or an http(s) URL")
    p.add_argument("--url", help="the page's URL when SOURCE is a file (sets its site)")
    p.add_argument("--store", help="database URL with learned site state (read only)")
    p.add_argument("--method", default=None, help="extraction method (default: the chain)")
    p.add_argument("--params", help="parameters of the method as JSON (as for extract)")
    p.add_argument("--drop-headline", action="store_true", help=_DROP_HEADLINE_HELP)
    p.add_argument(
        "-o", "--out", default="report.html", help="HTML file to write (default: %(default)s)"
    )
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("summary", help="what the store learned, per site (text; HTML with -o)")
    p.add_argument("--store", required=True, help="database URL")
    p.add_argument("-o", "--out", help="also write an HTML summary with charts")
    p.add_argument(
        "--top-lines",
        type=_count,
        default=10,
        help="most frequent lines shown per site (default: %(default)s)",
    )
    p.set_defaults(func=_cmd_summary)

    p = sub.add_parser("db", help="create or upgrade the store's schema")
    p.add_argument("action", choices=("upgrade",))
    p.add_argument("--store", required=True, help="database URL")
    p.set_defaults(func=_cmd_db)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from .methods import UnknownMethodError
    from .store import StoreError

    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # the reader went away (`scrapy-denoise extract page.html | head`): not an error;
        # stdout is pointed at devnull so the interpreter's final flush stays quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except UnknownMethodError as error:
        print(f"scrapy-denoise {args.command}: {error}", file=sys.stderr)
        return 2
    except (OSError, StoreError) as error:
        # A missing file, an unreachable URL or a store that cannot be opened is the
        # user's to fix, and the message says what it is; a traceback would bury it.
        print(f"scrapy-denoise {args.command}: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        # So is a malformed data zip, or data too thin to train on (TrainingDataError is a
        # DatasetFormatError): the message names the zip, the line and what is wrong.
        from .evaluation.datasets import DatasetFormatError

        if not isinstance(error, DatasetFormatError):
            raise
        print(f"scrapy-denoise {args.command}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
