"""Threshold rules of the noise-page paper (section 3.1), each one a documented setting.

The paper gives the rules but not the thresholds ("empirical"); the defaults here were set
on the two shared sites and checked against the wcxb page types (see BENCHMARKS.md). Every
rule can be switched off by setting its threshold to ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from .features import PageFeatures
from .verdict import PageVerdict

__all__ = ["DEFAULT_URL_PATTERNS", "PageHistory", "PageRules", "apply_rules"]

#: Path segments that mark non-article pages (forms, sitemaps, search, taxonomy, paging).
DEFAULT_URL_PATTERNS: tuple[str, ...] = (
    r"sitemap",
    r"sendto_form",
    r"pre_form",
    r"login",
    r"signin",
    r"register",
    r"search",
    r"tags?",
    r"categor(?:y|ies)",
    r"archives?",
    r"page/\d+",
    r"feed",
)


@dataclass(frozen=True, slots=True)
class PageHistory:
    """How often a URL was seen and how often its main content changed between visits."""

    visits: int
    changes: int


@dataclass(frozen=True, slots=True)
class PageRules:
    #: fewer non-link text characters than this: noise (paper rule 1)
    min_text_chars: int | None = 150
    #: URL path at most this many directory levels AND at most ``short_url_chars`` long
    shallow_url_depth: int | None = 0
    short_url_chars: int = 1
    #: regexes matched against whole path segments of the URL (paper rule 4)
    url_patterns: tuple[str, ...] = DEFAULT_URL_PATTERNS
    #: more links than this: noise (paper rule 5)
    max_links: int | None = 1000
    #: link text / non-link text above this: noise (paper rule 6)
    max_link_text_ratio: float | None = 1.5
    #: content changed on every one of at least this many earlier visits (paper rule 3)
    changing_min_visits: int | None = 3

    def compiled_patterns(self) -> re.Pattern[str] | None:
        if not self.url_patterns:
            return None
        body = "|".join(f"(?:{p})" for p in self.url_patterns)
        return re.compile(rf"(?:^|[/_.\-?=&])(?:{body})(?:$|[/_.\-?=&])", re.I)


def _path_and_query(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def apply_rules(
    features: PageFeatures,
    url: str,
    rules: PageRules,
    history: PageHistory | None = None,
    *,
    pattern: re.Pattern[str] | None = None,
) -> PageVerdict | None:
    """The first rule that fires, as a noise verdict; ``None`` when no rule fires.

    Rules are ordered cheapest and most certain first, so the reason names the clearest
    evidence.
    """
    pattern = pattern if pattern is not None else rules.compiled_patterns()
    if pattern is not None and url and pattern.search(_path_and_query(url)):
        return PageVerdict(True, 1.0, "url_pattern")
    if (
        rules.shallow_url_depth is not None
        and url
        and features.url_depth <= rules.shallow_url_depth
        and len(urlsplit(url).path.strip("/")) < rules.short_url_chars
    ):
        return PageVerdict(True, 1.0, "shallow_url")
    if rules.min_text_chars is not None and features.text_len < rules.min_text_chars:
        return PageVerdict(True, 1.0, "little_text")
    if rules.max_links is not None and features.links > rules.max_links:
        return PageVerdict(True, 1.0, "many_links")
    if (
        rules.max_link_text_ratio is not None
        and features.link_text_len > rules.max_link_text_ratio * max(features.text_len, 1)
    ):
        return PageVerdict(True, 1.0, "link_text_ratio")
    if (
        rules.changing_min_visits is not None
        and history is not None
        and history.visits >= rules.changing_min_visits
        and history.changes >= history.visits - 1
    ):
        return PageVerdict(True, 1.0, "changing_content")
    return None
