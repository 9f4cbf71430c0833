"""Small inline SVG charts for the HTML reports: no library, no script, every label escaped.

Each function returns an ``<svg>`` element as a string sized by its ``viewBox`` so that it
scales with the page. Values are drawn as given; an empty series gives a short note instead
of an empty frame, so a reader never mistakes "no data" for "zero".
"""

from __future__ import annotations

import html
from collections.abc import Sequence

__all__ = ["bar_chart", "hbar_chart", "stacked_bar_chart", "step_chart"]

_FONT = 'font-family="system-ui,sans-serif" font-size="11"'


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _nice_max(value: float) -> float:
    """The smallest 1, 2, 3, 4, 5, 6 or 8 times a power of ten at or above ``value``, for
    axis ticks (1-2-5 alone left up to half of a chart empty: 254 pages on a 500 axis)."""
    if value <= 0:
        return 1.0
    power = 1.0
    while power * 10 <= value:
        power *= 10
    while power > value:
        power /= 10
    for step in (1, 2, 3, 4, 5, 6, 8, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def _empty(title: str, note: str) -> str:
    return (
        f'<svg viewBox="0 0 640 44" role="img" aria-label="{_e(title)}" class="chart">'
        f'<text x="8" y="18" {_FONT} font-weight="600">{_e(title)}</text>'
        f'<text x="8" y="36" {_FONT} fill="#777">{_e(note)}</text></svg>'
    )


def bar_chart(
    bins: Sequence[tuple[str, int]],
    title: str,
    *,
    colour: str = "#1b9e77",
    unit: str = "",
    width: int = 640,
    height: int = 190,
) -> str:
    """Vertical bars, one per (label, value), labels along the bottom (thinned to fit)."""
    if not bins or not any(v for _, v in bins):
        return _empty(title, "no data")
    left, right, top, bottom = 44, 10, 24, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = _nice_max(max(v for _, v in bins))
    step = plot_w / len(bins)
    gap = min(2.0, step * 0.2)
    parts = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" class="chart">',
        f'<text x="{left}" y="14" {_FONT} font-weight="600">{_e(title)}</text>',
    ]
    for frac in _ticks(peak):
        y = top + plot_h * (1 - frac)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#ddd" stroke-width="1"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" {_FONT} fill="#555">'
            f"{_e(_fmt(peak * frac))}</text>"
        )
    for k, (label, value) in enumerate(bins):
        h = plot_h * value / peak
        x = left + k * step + gap / 2
        parts.append(
            f'<rect x="{x:.2f}" y="{top + plot_h - h:.2f}" width="{max(step - gap, 0.5):.2f}" '
            f'height="{h:.2f}" fill="{colour}"><title>{_e(label)}: {value}{_e(unit)}</title>'
            "</rect>"
        )
    every = max(1, -(-len(bins) * 64 // plot_w))  # a label per ~64 px
    for k in range(0, len(bins), every):
        x = left + (k + 0.5) * step
        parts.append(
            f'<text x="{x:.1f}" y="{height - bottom + 14}" text-anchor="middle" {_FONT} '
            f'fill="#555">{_e(bins[k][0])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def stacked_bar_chart(
    bins: Sequence[tuple[str, Sequence[int]]],
    title: str,
    *,
    series: Sequence[tuple[str, str]],
    marker: float | None = None,
    marker_label: str = "",
    width: int = 640,
    height: int = 210,
) -> str:
    """Vertical bars of several series stacked per bin, each (name, colour) in ``series``
    giving one value of every bin, with a legend and the bin's total above its bar.

    Totals are written above the bars because counts like these are skewed (a crawl's
    article pages pile up at one end of the page filter's scores): a linear axis keeps the
    piles honest, and the number keeps a bar of 1 readable beside a bar of 250. ``marker``
    is a position along the bins (2.5 is the middle of the third) for a dashed line.
    """
    totals = [sum(values) for _, values in bins]
    if not bins or not any(totals):
        return _empty(title, "no data")
    left, right, top, bottom = 44, 10, 40, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = _nice_max(max(totals))
    step = plot_w / len(bins)
    gap = min(2.0, step * 0.2)
    parts = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" class="chart">',
        f'<text x="{left}" y="14" {_FONT} font-weight="600">{_e(title)}</text>',
    ]
    x = float(left)
    for name, colour in series:
        parts.append(
            f'<rect x="{x:.1f}" y="22" width="10" height="10" fill="{colour}"/>'
            f'<text x="{x + 14:.1f}" y="31" {_FONT} fill="#333">{_e(name)}</text>'
        )
        x += 14 + 7 * len(name) + 16
    for frac in _ticks(peak):
        y = top + plot_h * (1 - frac)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#ddd" stroke-width="1"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" {_FONT} fill="#555">'
            f"{_e(_fmt(peak * frac))}</text>"
        )
    for k, ((label, values), total) in enumerate(zip(bins, totals, strict=True)):
        x = left + k * step + gap / 2
        base = float(top + plot_h)
        for (name, colour), value in zip(series, values, strict=True):
            if value <= 0:
                continue
            h = max(plot_h * value / peak, 1.0)  # a count of 1 stays visible
            base -= h
            parts.append(
                f'<rect x="{x:.2f}" y="{base:.2f}" width="{max(step - gap, 0.5):.2f}" '
                f'height="{h:.2f}" fill="{colour}"><title>{_e(label)}: {value} {_e(name)}'
                "</title></rect>"
            )
        if total:
            parts.append(
                f'<text x="{x + (step - gap) / 2:.1f}" y="{base - 3:.1f}" text-anchor="middle" '
                f'{_FONT} fill="#333">{total}</text>'
            )
    if marker is not None:
        mx = left + marker * step
        parts.append(
            f'<line x1="{mx:.1f}" x2="{mx:.1f}" y1="{top}" y2="{top + plot_h}" stroke="#333" '
            'stroke-dasharray="3 3"/>'
            f'<text x="{mx + 4:.1f}" y="{top + 10}" {_FONT} fill="#333">{_e(marker_label)}</text>'
        )
    every = max(1, -(-len(bins) * 64 // plot_w))
    for k in range(0, len(bins), every):
        parts.append(
            f'<text x="{left + (k + 0.5) * step:.1f}" y="{height - bottom + 14}" '
            f'text-anchor="middle" {_FONT} fill="#555">{_e(bins[k][0])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def step_chart(
    points: Sequence[tuple[str, int]],
    title: str,
    *,
    colour: str = "#7570b3",
    width: int = 640,
    height: int = 160,
) -> str:
    """A cumulative total over labelled steps (e.g. templates learned per day)."""
    if not points:
        return _empty(title, "no data")
    if len(points) == 1:
        # One step is a single dot on an empty axis: say it in words instead.
        label, value = points[0]
        return _empty(title, f"all {value} on {label}")
    left, right, top, bottom = 44, 10, 24, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    totals: list[int] = []
    running = 0
    for _, value in points:
        running += value
        totals.append(running)
    peak = _nice_max(totals[-1])
    n = len(points)
    xs = [left + plot_w * (k + 0.5) / n for k in range(n)]
    coords = " ".join(
        f"{x:.1f},{top + plot_h * (1 - t / peak):.1f}" for x, t in zip(xs, totals, strict=True)
    )
    parts = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" class="chart">',
        f'<text x="{left}" y="14" {_FONT} font-weight="600">{_e(title)}</text>',
    ]
    for frac in _ticks(peak):
        y = top + plot_h * (1 - frac)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" {_FONT} fill="#555">'
            f"{_e(_fmt(peak * frac))}</text>"
        )
    parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for x, t, (label, value) in zip(xs, totals, points, strict=True):
        y = top + plot_h * (1 - t / peak)
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}">'
            f"<title>{_e(label)}: +{value}, {t} in all</title></circle>"
        )
    every = max(1, -(-n * 80 // plot_w))
    for k in range(0, n, every):
        parts.append(
            f'<text x="{xs[k]:.1f}" y="{height - bottom + 14}" text-anchor="middle" {_FONT} '
            f'fill="#555">{_e(points[k][0])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def hbar_chart(
    rows: Sequence[tuple[str, int]],
    title: str,
    *,
    total: int,
    marker: int | None = None,
    marker_label: str = "",
    colour: str = "#e7298a",
    below_colour: str = "#9e9e9e",
    width: int = 640,
) -> str:
    """Horizontal bars of counts out of ``total`` (e.g. pages a line occurs on), with an
    optional vertical marker (e.g. the count above which a line is removed). With a marker,
    only bars past it take ``colour`` (the report's colour for "removed by line
    statistics"), the others ``below_colour``, so the chart does not say a kept line is
    removed."""
    if not rows:
        return _empty(title, "no data")
    label_w, right, top, row_h = 240, 80, 24, 18
    plot_w = width - label_w - right
    height = top + row_h * len(rows) + 22
    # Scaled to the largest bar (or the marker), not to ``total``: noise lines on a few
    # percent of pages would otherwise be slivers. The labels give the share of ``total``.
    scale = max(max(v for _, v in rows), marker or 0, 1) * 1.15
    parts = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" class="chart">',
        f'<text x="4" y="14" {_FONT} font-weight="600">{_e(title)}</text>',
    ]
    for k, (label, value) in enumerate(rows):
        y = top + k * row_h
        w = plot_w * value / scale
        # ~6.5 px per character at 11 px: longer labels would run off the left edge
        short = label if len(label) <= 36 else label[:35] + "…"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 12}" text-anchor="end" {_FONT}>'
            f"<title>{_e(label)}</title>{_e(short)}</text>"
            f'<rect x="{label_w}" y="{y + 2}" width="{max(w, 0.5):.1f}" height="{row_h - 5}" '
            f'fill="{colour if marker is None or value > marker else below_colour}">'
            f"<title>{_e(label)}: {value} of {total}</title></rect>"
            f'<text x="{label_w + w + 4:.1f}" y="{y + 12}" {_FONT} fill="#555">{value}'
            f"{_share(value, total)}</text>"
        )
    if marker is not None and 0 <= marker <= scale:
        x = label_w + plot_w * marker / scale
        bottom = top + row_h * len(rows)
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{bottom}" stroke="#333" '
            'stroke-dasharray="3 3"/>'
            f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle" {_FONT} fill="#333">'
            f"{_e(marker_label)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _ticks(peak: float) -> tuple[float, ...]:
    """Fractions of ``peak`` to draw grid lines at: the middle only when it is a whole
    number, since the charts count things."""
    return (0.0, 0.5, 1.0) if (peak / 2).is_integer() else (0.0, 1.0)


def _share(value: int, total: int) -> str:
    return f" ({100 * value / total:.0f}%)" if total > 0 else ""


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"
