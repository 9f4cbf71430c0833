"""``scrapy-denoise summary``: what a crawl decided and learned about each site, from the
store alone.

Per site: pages judged (the page filter's verdicts, one per visit over every crawl: article
pages and noise pages by reason),
pages learned from (the line statistics' RC), URLs fingerprinted and their visits, articles
stored, templates learned, the most frequent lines (the site's common noise), and charts of
the page filter's scores (article vs noise), noise pages by reason, articles over time and
the template library's growth. Text on the terminal, and a self-contained HTML file
(inline SVG, no script) with ``-o``.

The verdicts are counted by ``Denoiser.classify_document`` whenever a store is attached
(the crawl's page filter and the core alike) and stored from schema revision
``0002_page_verdicts`` on; a store written before that has none, and the summary says so.
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Table, func, select

from ..methods.linestats import LineParams, keep_limit
from ..page.verdict import REASONS
from ..store import SCORE_BUCKETS, SiteSummary, Store, VerdictCount
from ..store.schema import Base
from .charts import bar_chart, hbar_chart, stacked_bar_chart, step_chart

__all__ = [
    "NO_VERDICTS",
    "SiteReport",
    "collect_summary",
    "format_summary",
    "render_summary_html",
    "write_summary",
]

NO_VERDICTS = (
    "no page filter verdicts in the store (written before scrapy-denoise stored them, or "
    "with site learning off)"
)

_ARTICLE_COLOUR = "#1b9e77"
_NOISE_COLOUR = "#d95f02"

#: No script, no loads: the summary is static HTML with inline CSS and SVG.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

_SITES: Table = Base.metadata.tables["sites"]
_ARTICLES: Table = Base.metadata.tables["articles"]
_TEMPLATES: Table = Base.metadata.tables["templates"]
_PAGES: Table = Base.metadata.tables["page_fingerprints"]


@dataclass(slots=True)
class SiteReport:
    """One site's numbers, as read from the store."""

    summary: SiteSummary
    visits: int = 0
    changed_urls: int = 0
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    #: articles per day, by publication date and by fetch time ("YYYY-MM-DD" -> n)
    published_days: dict[str, int] = field(default_factory=dict)
    fetched_days: dict[str, int] = field(default_factory=dict)
    undated: int = 0
    languages: dict[str, int] = field(default_factory=dict)
    #: templates learned per day ("YYYY-MM-DD" -> n)
    template_days: dict[str, int] = field(default_factory=dict)
    #: lines with a count above this are removed (default line-statistics parameters)
    keep_limit: int = 1
    #: the page filter's verdict counters of the site
    verdicts: list[VerdictCount] = field(default_factory=list)

    @property
    def site(self) -> str:
        return self.summary.site

    @property
    def article_pages(self) -> int:
        """Pages the page filter judged articles."""
        return sum(v.count for v in self.verdicts if not v.is_noise)

    @property
    def noise_pages(self) -> int:
        return sum(v.count for v in self.verdicts if v.is_noise)

    @property
    def pages_seen(self) -> int:
        """Pages the page filter judged: article pages plus noise pages."""
        return self.article_pages + self.noise_pages

    def noise_by_reason(self) -> list[tuple[str, int]]:
        """Noise pages per reason, most first."""
        counts: Counter[str] = Counter()
        for v in self.verdicts:
            if v.is_noise:
                counts[v.reason] += v.count
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def score_bins(self) -> list[tuple[str, int, int]]:
        """(bucket's lower bound, article pages, noise pages) for every score bucket."""
        article = [0] * SCORE_BUCKETS
        noise = [0] * SCORE_BUCKETS
        for v in self.verdicts:  # the store keeps buckets in range
            (noise if v.is_noise else article)[v.score_bucket] += v.count
        return [(_bucket_label(b), article[b], noise[b]) for b in range(SCORE_BUCKETS)]

    def articles_over_time(self) -> tuple[str, list[tuple[str, int]]]:
        """(basis, bins): by publication date when most articles have one, else by fetch."""
        s = self.summary
        if self.published_days and sum(self.published_days.values()) * 2 >= s.articles:
            return "published", time_bins(self.published_days)
        return "fetched", time_bins(self.fetched_days)


def _day(column: Any, dialect: str) -> ColumnElement[Any]:
    """The UTC calendar day of a timestamp column as ``YYYY-MM-DD``, in SQL."""
    if dialect == "sqlite":
        return func.strftime("%Y-%m-%d", column)
    return func.to_char(func.timezone("UTC", column), "YYYY-MM-DD")


def collect_summary(store: Store, *, top_lines: int = 10) -> list[SiteReport]:
    """Every site of ``store`` (most processed first) with its counts and time series.

    A handful of grouped queries (three reads, not one snapshot: during a running crawl
    the figures of one site may be some pages apart); the per-day groups stay small
    (days, not rows), so this is fine on a store with millions of articles.
    """
    summaries = store.site_summaries(top_lines=top_lines)
    reports = {s.site: SiteReport(s) for s in summaries}
    params = LineParams()
    for report in reports.values():
        report.keep_limit = keep_limit(report.summary.pages_processed, params)
    dialect = store.dialect
    key = _SITES.c.key
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                key,
                func.coalesce(func.sum(_PAGES.c.visits), 0),
                func.count().filter(_PAGES.c.changes > 0),
                func.min(_PAGES.c.first_seen),
                func.max(_PAGES.c.last_seen),
            )
            .join(_SITES, _SITES.c.id == _PAGES.c.site_id)
            .group_by(key)
        )
        for site, visits, changed, first, last in rows:
            r = reports.get(site)
            if r is not None:
                r.visits, r.changed_urls = int(visits), int(changed)
                r.first_seen, r.last_seen = _aware(first), _aware(last)
        for column, attr in (
            (_ARTICLES.c.published, "published_days"),
            (_ARTICLES.c.fetched_at, "fetched_days"),
        ):
            day = _day(column, dialect)
            for site, value, n in conn.execute(
                select(key, day, func.count())
                .join(_SITES, _SITES.c.id == _ARTICLES.c.site_id)
                .where(column.is_not(None))
                .group_by(key, day)
            ):
                r = reports.get(site)
                if r is not None and value:
                    getattr(r, attr)[str(value)] = int(n)
        for site, lang, n in conn.execute(
            select(key, _ARTICLES.c.lang, func.count())
            .join(_SITES, _SITES.c.id == _ARTICLES.c.site_id)
            .group_by(key, _ARTICLES.c.lang)
        ):
            r = reports.get(site)
            if r is not None:
                r.languages[lang or "?"] = int(n)
        day = _day(_TEMPLATES.c.learned_at, dialect)
        for site, value, n in conn.execute(
            select(key, day, func.count())
            .join(_SITES, _SITES.c.id == _TEMPLATES.c.site_id)
            .group_by(key, day)
        ):
            r = reports.get(site)
            if r is not None and value:
                r.template_days[str(value)] = int(n)
    for verdict in store.verdict_counts():
        r = reports.get(verdict.site)
        if r is not None:
            r.verdicts.append(verdict)
    for r in reports.values():
        r.undated = r.summary.articles - sum(r.published_days.values())
    return [reports[s.site] for s in summaries]


def _bucket_label(bucket: int) -> str:
    return f"{bucket / SCORE_BUCKETS:.2f}"


def _aware(value: datetime | None) -> datetime | None:
    # The typed columns give aware datetimes; aggregates (min/max) bypass the type on SQLite.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def time_bins(days: dict[str, int]) -> list[tuple[str, int]]:
    """Per-day counts binned by day, month or year (whichever gives a readable number of
    bars for the span), with empty bins kept so the time axis is even."""
    parsed: list[tuple[date, int]] = []
    for text, n in days.items():
        try:
            parsed.append((date.fromisoformat(text[:10]), n))
        except ValueError:
            continue
    if not parsed:
        return []
    parsed.sort()
    first, last = parsed[0][0], parsed[-1][0]
    span = (last - first).days
    if span <= 92:
        keys = [(d.isoformat(), n) for d, n in parsed]
        start, stop, unit = first.toordinal(), last.toordinal(), "day"
    elif span <= 8 * 366:
        keys = [(f"{d.year:04d}-{d.month:02d}", n) for d, n in parsed]
        start, stop, unit = (
            first.year * 12 + first.month - 1,
            last.year * 12 + last.month - 1,
            "month",
        )
    else:
        keys = [(f"{d.year:04d}", n) for d, n in parsed]
        start, stop, unit = first.year, last.year, "year"
    counts: Counter[str] = Counter()
    for k, n in keys:
        counts[k] += n
    if stop - start > 400:
        # A stray date (1970, 2099) would stretch the axis to hundreds of empty bars.
        return sorted(counts.items())
    out = []
    for value in range(start, stop + 1):
        if unit == "day":
            label = date.fromordinal(value).isoformat()
        elif unit == "month":
            label = f"{value // 12:04d}-{value % 12 + 1:02d}"
        else:
            label = f"{value:04d}"
        out.append((label, counts.get(label, 0)))
    return out


# -- text -----------------------------------------------------------------------------------


#: C0 and C1 control characters: a host name with ESC in it became a site key, and
#: printing ``ESC c`` reset the reader's terminal
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """``text`` for a terminal: control characters shown as ``\\x1b`` escapes."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def format_summary(sites: Sequence[SiteReport], *, store_url: str = "") -> str:
    """The terminal version: one block per site."""
    head = f"Store {store_url}: " if store_url else ""
    lines = [f"{head}{_plural(len(sites), 'site')}"]
    for r in sites:
        s = r.summary
        lines.append("")
        lines.append(_printable(s.site))
        lines.extend(_verdict_lines(r))
        lines.append(f"  pages learned from (RC)  {s.pages_processed}")
        lines.append(
            f"  URLs fingerprinted       {s.fingerprints} ({_plural(r.visits, 'visit')}, "
            f"{r.changed_urls} with changed content)"
        )
        basis, bins = r.articles_over_time()
        span = ""
        if bins:
            span = f"; {'published' if basis == 'published' else 'fetched'} {bins[0][0]}"
            span += f" .. {bins[-1][0]}" if len(bins) > 1 else ""
        langs = ", ".join(f"{k} {v}" for k, v in sorted(r.languages.items(), key=lambda kv: -kv[1]))
        lines.append(
            f"  articles stored          {s.articles}{span}"
            + (f"; undated {r.undated}" if s.articles and r.undated else "")
            + (f"; languages: {langs}" if langs else "")
        )
        lines.append(f"  templates learned        {s.templates}")
        if s.top_lines:
            lines.append(
                f"  most frequent lines (pages with the line; more than {r.keep_limit} "
                "is noise and removed):"
            )
            for line in s.top_lines:
                mark = "*" if line.count > r.keep_limit else " "
                text = _printable(line.text) if line.text is not None else "(text not stored)"
                if len(text) > 90:
                    text = text[:89] + "…"
                lines.append(f"    {mark}{line.count:>7}  {text}")
        else:
            lines.append("  most frequent lines      none counted")
    return "\n".join(lines)


def _verdict_lines(r: SiteReport) -> list[str]:
    if not r.verdicts:
        return [f"  pages judged             {NO_VERDICTS}"]
    out = [
        f"  pages judged             {r.pages_seen} ({r.article_pages} article pages, "
        f"{r.noise_pages} noise pages)"
    ]
    reasons = r.noise_by_reason()
    out.append(
        "  noise pages by reason    "
        + (", ".join(f"{reason} {n}" for reason, n in reasons) if reasons else "none")
    )
    out.append("  page filter scores         article   noise  (noise probability; rules give 1.0)")
    for bucket, (_, article, noise) in enumerate(r.score_bins()):
        if article or noise:
            low, high = bucket / SCORE_BUCKETS, (bucket + 1) / SCORE_BUCKETS
            out.append(f"    {low:.2f}-{high:.2f}{article:>23}{noise:>8}")
    return out


# -- HTML -----------------------------------------------------------------------------------

_CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",
 "Noto Sans CJK SC",sans-serif;color:#1d1d1f;background:#f4f4f6}
header{padding:12px 20px;background:#fff;border-bottom:1px solid #d9d9de}
h1{font-size:18px;margin:0}
.sub{color:#555;font-size:12px}
main{padding:12px 20px;max-width:1400px}
section.site{background:#fff;border:1px solid #d9d9de;border-radius:6px;padding:12px 16px;
 margin-bottom:16px}
h2{font-size:16px;margin:0 0 8px;word-break:break-all}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 10px}
.tile{border:1px solid #e3e3e8;border-radius:5px;padding:6px 10px;min-width:130px}
.tile b{display:block;font-size:20px}
.tile span{color:#666;font-size:12px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:12px 24px}
.chart{width:100%;max-width:820px;height:auto;background:#fff}
.note{color:#8a5a00;background:#fff8e1;border:1px solid #f3e0a8;border-radius:4px;
 padding:6px 10px;margin:8px 0}
table{border-collapse:collapse;width:100%;font-size:13px;margin-top:8px}
td,th{border-bottom:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top;
 overflow-wrap:anywhere}
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.noise td{color:#a0135f}
.reasons{max-width:820px}
.caption{font-size:11px;font-weight:600;margin:2px 0 0 4px}
"""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _site_html(r: SiteReport) -> str:
    s = r.summary
    tiles: list[tuple[object, str]] = []
    if r.verdicts:
        tiles += [
            (r.pages_seen, "pages judged (page filter, every visit)"),
            (r.article_pages, "article pages"),
            (r.noise_pages, "noise pages"),
        ]
    tiles += [
        (s.articles, "articles stored"),
        (s.pages_processed, "pages learned from (RC)"),
        (s.templates, "templates learned"),
        (
            s.fingerprints,
            f"URLs fingerprinted, {r.changed_urls} changed",
        ),
    ]
    tile_html = "".join(f'<div class="tile"><b>{v}</b><span>{_e(k)}</span></div>' for v, k in tiles)
    basis, bins = r.articles_over_time()
    title = "articles by publication date" if basis == "published" else "articles by fetch date"
    if basis == "published" and r.undated:
        title += f" ({r.undated} undated not shown)"
    # without verdicts the note says why, instead of an empty chart and table
    charts = [_score_chart(r), _reasons_table(r)] if r.verdicts else []
    charts += [
        bar_chart(bins, title, colour="#1b9e77"),
        step_chart(sorted(r.template_days.items()), "templates learned (cumulative)"),
    ]
    rows = [(line.text or "(text not stored)", line.count) for line in s.top_lines]
    charts.append(
        hbar_chart(
            rows,
            f"most frequent lines: pages they occur on, of {s.pages_processed} learned",
            total=s.pages_processed,
            marker=r.keep_limit,
            marker_label=f"removed above {r.keep_limit}",
        )
    )
    table_rows = "".join(
        f'<tr class="{"noise" if line.count > r.keep_limit else ""}">'
        f'<td class="n">{line.count}</td>'
        f'<td class="n">{(100 * line.count / s.pages_processed if s.pages_processed else 0):.0f}%'
        f"</td><td>{_e(line.text) if line.text is not None else '<i>text not stored</i>'}</td>"
        "</tr>"
        for line in s.top_lines
    )
    langs = ", ".join(f"{_e(k)} {v}" for k, v in sorted(r.languages.items(), key=lambda kv: -kv[1]))
    seen = ""
    if r.first_seen and r.last_seen:
        seen = (
            f'<div class="sub">{_plural(r.visits, "visit")} fingerprinted '
            f"{r.first_seen:%Y-%m-%d %H:%M} .. {r.last_seen:%Y-%m-%d %H:%M} UTC"
            + (f"; article languages: {langs}" if langs else "")
            + "</div>"
        )
    note = "" if r.verdicts else f'<p class="note">{_e(NO_VERDICTS)}.</p>'
    return (
        f'<section class="site"><h2>{_e(s.site)}</h2>{seen}'
        f'<div class="tiles">{tile_html}</div>{note}'
        f'<div class="charts">{"".join(charts)}</div>'
        "<table><thead><tr><th class=n>pages</th><th class=n>share</th><th>line "
        f"(highlighted: removed as site noise, on more than {r.keep_limit} pages)</th></tr>"
        "</thead>"
        f"<tbody>{table_rows or '<tr><td colspan=3>none counted</td></tr>'}</tbody></table>"
        "</section>"
    )


def _score_chart(r: SiteReport) -> str:
    bins = [(label, (article, noise)) for label, article, noise in r.score_bins()]
    return stacked_bar_chart(
        bins,
        f"page filter scores (noise probability, buckets of {1 / SCORE_BUCKETS:.2f}; "
        "rules give 1.0)",
        series=(("article pages", _ARTICLE_COLOUR), ("noise pages", _NOISE_COLOUR)),
        marker=SCORE_BUCKETS / 2,
        marker_label="SVM threshold 0.5",
    )


def _reasons_table(r: SiteReport) -> str:
    reasons = r.noise_by_reason()
    if not reasons:
        body = "<tr><td colspan=4>none</td></tr>"
    else:
        body = "".join(
            f'<tr><td>{_e(reason)}</td><td class="n">{n}</td>'
            f'<td class="n">{_percent(n, r.pages_seen)}</td>'
            f"<td>{_e(REASONS.get(reason, ''))}</td></tr>"
            for reason, n in reasons
        )
    return (
        '<div class="reasons"><div class="caption">noise pages by reason '
        f"({r.noise_pages} of {r.pages_seen} pages judged)</div>"
        "<table><thead><tr><th>reason</th><th class=n>pages</th><th class=n>of judged</th>"
        f"<th>meaning</th></tr></thead><tbody>{body}</tbody></table></div>"
    )


def _percent(part: int, whole: int) -> str:
    """A share that never reads "0%" for a count that is not zero."""
    share = 100 * part / whole if whole else 0.0
    return f"{share:.1f}%" if 0 < share < 1 else f"{share:.0f}%"


def render_summary_html(sites: Iterable[SiteReport], *, store_url: str = "") -> str:
    sites = list(sites)
    body = "".join(_site_html(r) for r in sites) or "<p>The store has no sites yet.</p>"
    totals: defaultdict[str, int] = defaultdict(int)
    for r in sites:
        totals["articles"] += r.summary.articles
        totals["templates"] += r.summary.templates
        totals["pages"] += r.summary.pages_processed
        totals["seen"] += r.pages_seen
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Denoise crawl summary</title>
<style>{_CSS}</style>
</head>
<body>
<header><h1>What the crawl decided and learned</h1>
<div class="sub">{_e(store_url)}: {_plural(len(sites), "site")},
{totals["seen"]} pages judged, {totals["pages"]} learned from, {totals["articles"]} articles,
{totals["templates"]} templates</div></header>
<main>{body}</main>
</body>
</html>
"""


def write_summary(sites: Sequence[SiteReport], path: str | Path, *, store_url: str = "") -> Path:
    out = Path(path)
    out.write_text(render_summary_html(sites, store_url=store_url), encoding="utf-8")
    return out
