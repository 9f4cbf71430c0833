"""Every ``DENOISE_*`` setting of the Scrapy integration, its default and its meaning.

The settings live in one dataclass so that there is exactly one place to look them up: each
field is one setting (``DENOISE_`` + the field name in upper case), its default is the
field default, and its documentation is the field's ``doc`` metadata, from which the
README table is generated (:func:`settings_table`). Components never call
``settings.get("DENOISE_...")`` themselves; they read a parsed :class:`DenoiseConfig`, so a
mistyped value fails once, at start, with the setting's name in the message.

Page filter thresholds default to the core's :class:`~scrapy_denoise.page.rules.PageRules`
defaults instead of repeating the numbers, so the crawl and the benchmark cannot drift apart.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, TypeVar

from scrapy.settings import BaseSettings

from ..document import DEFAULT_MAX_BYTES
from ..first_pages import CRAWL_REVISIT_FIRST
from ..methods import UnknownMethodError, check_method_name, create_method
from ..options import DenoiseOptions
from ..page.model import PageSvm
from ..page.rules import PageRules
from ..worker import WORKER_KINDS

__all__ = [
    "DEFAULT_DATABASE_URL",
    "DEFAULT_FIELDS",
    "DenoiseConfig",
    "item_fields",
    "setting_name",
    "settings_table",
]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

DEFAULT_DATABASE_URL = "sqlite:///denoise.sqlite3"

#: item field that holds each value; the names article tools (newspaper, trafilatura,
#: news-please) use. ``body``, ``headers`` and ``verdict`` are the page item's inputs.
DEFAULT_FIELDS: dict[str, str] = {
    "url": "url",
    "body": "body",
    "headers": "headers",
    "verdict": "denoise",
    "title": "title",
    "text": "text",
    "published": "published",
    "author": "author",
    "lang": "lang",
}

#: Article attributes a user may add to ``DENOISE_FIELDS`` besides the defaults.
OPTIONAL_FIELDS = frozenset({"site", "method", "warnings"})

_RULES = PageRules()


def _doc(
    text: str, kind: str, shown_default: str | None = None, *, minimum: int | None = None
) -> dict[str, Any]:
    """Field metadata: the README text, the parser, optionally what the README shows as
    the default when the value itself is too long for a table cell, and the least value
    an ``int`` setting may take (checked at start, naming the setting)."""
    meta: dict[str, Any] = {"doc": " ".join(text.split()), "kind": kind}
    if shown_default is not None:
        meta["shown_default"] = shown_default
    if minimum is not None:
        meta["minimum"] = minimum
    return meta


def setting_name(field_name: str) -> str:
    return "DENOISE_" + field_name.upper()


#: the components ``DENOISE_ENABLED = False`` turns off
_COMPONENT_FIELDS = (
    "page_filter_enabled",
    "item_filter_enabled",
    "extract_enabled",
    "store_enabled",
    "logstats_enabled",
)


@dataclass(frozen=True, slots=True)
class DenoiseConfig:
    """The parsed ``DENOISE_*`` settings of one crawler."""

    # -- components ---------------------------------------------------------------------
    enabled: bool = field(
        default=True,
        metadata=_doc(
            "``False`` turns every component below off (page filter, item filter, "
            "extraction, store, log stats), for a crawl without the plugin that keeps the "
            "project's settings: ``scrapy crawl news -s DENOISE_ENABLED=False``.",
            "bool",
        ),
    )
    page_filter_enabled: bool = field(
        default=True,
        metadata=_doc(
            "Run the page filter (downloader middleware) on every HTML response and record "
            "its verdict in ``response.meta['denoise']``.",
            "bool",
        ),
    )
    item_filter_enabled: bool = field(
        default=True,
        metadata=_doc(
            "Drop items yielded from responses the page filter judged noise (spider "
            "middleware); requests from those responses are still followed.",
            "bool",
        ),
    )
    extract_enabled: bool = field(
        default=True,
        metadata=_doc(
            "Extract title, text, date, author and language from page items (``DenoisePipeline``).",
            "bool",
        ),
    )
    store_enabled: bool = field(
        default=True,
        metadata=_doc(
            "Upsert the articles ``DenoisePipeline`` extracted into the database's "
            "``articles`` table (``StorePipeline``); a spider's other items are not stored "
            "(without ``DenoisePipeline``, or with ``DENOISE_EXTRACT_ENABLED = False``: "
            "every item with a url and a text).",
            "bool",
        ),
    )
    logstats_enabled: bool = field(
        default=True,
        metadata=_doc(
            "Log the plugin's counters every ``LOGSTATS_INTERVAL`` seconds and at the end "
            "of the crawl.",
            "bool",
        ),
    )
    # -- database and core ------------------------------------------------------------
    database_url: str | None = field(
        default=DEFAULT_DATABASE_URL,
        metadata=_doc(
            "SQLAlchemy URL of the database holding articles and learned site state "
            "(``sqlite:///file.db``, ``postgresql+psycopg://user@host/db``). Empty or "
            "``None``: learned state in memory only and no ``StorePipeline``.",
            "optional_str",
        ),
    )
    core_worker: str = field(
        # the child process is started over an inherited socket, which needs POSIX
        default="process" if os.name == "posix" else "thread",
        metadata=_doc(
            "Where the core runs: ``process`` (a child process per crawler, so that its CPU "
            "work runs beside Scrapy's instead of taking turns with it under the interpreter "
            "lock; the default on Linux and macOS) or ``thread`` (a thread of the crawler's "
            "process; the default on Windows).",
            "str",
        ),
    )
    method: str = field(
        default=DenoiseOptions().method,
        metadata=_doc(
            "Extraction method: ``default`` (the measured best chain) or one method's name.",
            "str",
        ),
    )
    method_params: dict[str, Any] = field(
        default_factory=dict,
        metadata=_doc("Per-method parameter overrides, e.g. ``{'cevc': {'alpha': 0.6}}``.", "dict"),
    )
    page_model: str | None = field(
        default=DenoiseOptions().page_model,
        metadata=_doc(
            "Page SVM behind the threshold rules: ``default`` (the shipped model), a model "
            "file path (``scrapy-denoise train pages``), or empty for the rules alone.",
            "optional_str",
        ),
    )
    max_bytes: int = field(
        default=DEFAULT_MAX_BYTES,
        metadata=_doc("Bytes of a page processed at most; the rest is cut.", "int"),
    )
    templates_enabled: bool = field(
        default=DenoiseOptions().templates,
        metadata=_doc("Learn each site's templates and remove them before extraction.", "bool"),
    )
    line_stats_enabled: bool = field(
        default=DenoiseOptions().line_stats,
        metadata=_doc(
            "Remove lines that recur across a site's pages after extraction. With "
            "``DENOISE_TEMPLATES_ENABLED`` off too, nothing is learned per site: no "
            "fingerprints (the ``changing_content`` rule), verdict counts (``summary``) or "
            "per-process memory of copies either.",
            "bool",
        ),
    )
    keep_headline: bool = field(
        default=False,
        metadata=_doc(
            "Keep the headline in the text. By default the first of the text's first five "
            "lines that is the article's title is left out, and so are the lines of its first "
            "six that only say the article's date, author and reading time: the ``title``, "
            "``published`` and ``author`` fields hold them "
            "(set ``True`` where ``DENOISE_FIELDS`` leaves the title out, or to store what "
            "``Denoiser.extract`` gives a single page, whose default keeps it).",
            "bool",
        ),
    )
    site_prefixes: tuple[str, ...] = field(
        default=(),
        metadata=_doc(
            "URL prefixes that are sites of their own (portals hosting several sites "
            "under one host), learned separately.",
            "list",
        ),
    )
    skip_noise_pages: bool = field(
        default=DenoiseOptions().skip_noise_pages,
        metadata=_doc(
            "Do not learn templates and line statistics from noise pages: list and tag "
            "pages repeat article text, which would then be removed as boilerplate. With the "
            "page filter on, noise pages never reach extraction and are never learned from "
            "either way; ``False`` matters with ``DENOISE_PAGE_FILTER_ENABLED = False``.",
            "bool",
        ),
    )
    flush_every: int = field(
        default=DenoiseOptions().flush_every,
        metadata=_doc("Pages between writes of learned site state to the database.", "int"),
    )
    owner: str = field(
        default=DenoiseOptions().owner,
        metadata=_doc(
            "This crawler process's name when several crawl into one database: its batch "
            "of learned templates and, in a distributed crawl, its list of unfinished "
            "requests. Give every process its own (``worker-1``, ``worker-2``, ...): a "
            "worker whose owner a live process uses closes at start "
            "(``denoise_owner_in_use``); a restarted one takes its own name back.",
            "str",
        ),
    )
    worker_timeout: int = field(
        default=120,
        metadata=_doc(
            "Distributed crawls (``scrapy_denoise.integration.distributed.RedisScheduler``): "
            "seconds without a heartbeat after which a crawler counts as dead and the others "
            "put the requests it had taken back into the shared queue.",
            "int",
            minimum=1,
        ),
    )
    # -- page filter rules --------------------------------------------------------------
    rule_min_text_chars: int | None = field(
        default=_RULES.min_text_chars,
        metadata=_doc(
            "Page filter: fewer non-link text characters than this marks a noise page "
            "(``little_text``). ``None`` switches the rule off.",
            "optional_int",
        ),
    )
    rule_shallow_url_depth: int | None = field(
        default=_RULES.shallow_url_depth,
        metadata=_doc(
            "Page filter: URL paths with at most this many directory levels and shorter "
            "than ``DENOISE_RULE_SHORT_URL_CHARS`` are noise (``shallow_url``, home pages), "
            "unless a query other than tracking parameters names a page (``/?p=123``).",
            "optional_int",
        ),
    )
    rule_short_url_chars: int = field(
        default=_RULES.short_url_chars,
        metadata=_doc("Page filter: path length bound of the ``shallow_url`` rule.", "int"),
    )
    rule_url_patterns: tuple[str, ...] = field(
        default=_RULES.url_patterns,
        metadata=_doc(
            "Page filter: regexes for the end of the URL path, whole segments "
            "(``url_pattern``): site maps, feeds, forms, search, tag/category/author/section "
            "pages, archives, paths of dates alone (``/2019/05/``), a site's documentation "
            "(``/docs/``), paging, an article's AMP "
            "and print versions (``/amp/``, ``/print/``, ``.amp.html``), a site's members, "
            "services and records (papers, talks, events), forum threads (Discourse's "
            "``/t/slug/123``: replies, not articles), named in English "
            "and in other European languages (``schlagwort``, ``rubrique``, ``etiqueta``, "
            "``seite/2``, ...); one starting with ``^`` matches from the path's start. An "
            "empty list switches the rule off.",
            "list",
            "``scrapy_denoise.page.rules.DEFAULT_URL_PATTERNS``",
        ),
    )
    rule_site_pages: str | None = field(
        default=_RULES.site_pages,
        metadata=_doc(
            "Page filter: a regex of the last URL path segments that name a site's own "
            "pages (``site_page``): about, contact, privacy, terms, legal, advertise, "
            "subscribe, jobs, help, in English and in other European languages "
            "(``impressum``, ``mentions-legales``, ``aviso-legal``, ...) and as Chinese "
            "sites' pinyin initials (``gywm``, ``lxwm``, ``bqsm``, ...), matched whole at "
            "the site's root, a language's root or in a folder of site pages (``/legal/``, "
            "``/pages/``, ...), not deeper (``/2018/05/privacy/`` is a post). ``None`` "
            "switches the rule off.",
            "optional_str",
            "``scrapy_denoise.page.rules.DEFAULT_SITE_PAGES``",
        ),
    )
    rule_query_keys: tuple[str, ...] = field(
        default=_RULES.query_keys,
        metadata=_doc(
            "Page filter: query keys that mark search, tag and paging URLs "
            "(``url_pattern``, e.g. ``?s=``, ``?q=``, ``?paged=``), and AMP and print "
            "versions (``?amp=1``, ``?print=1``), matched case-sensitively.",
            "list",
        ),
    )
    rule_max_links: int | None = field(
        default=_RULES.max_links,
        metadata=_doc(
            "Page filter: more links than this marks a noise page (``many_links``).",
            "optional_int",
        ),
    )
    rule_max_link_text_ratio: float | None = field(
        default=_RULES.max_link_text_ratio,
        metadata=_doc(
            "Page filter: link text longer than this times the non-link text marks a noise "
            "page (``link_text_ratio``).",
            "optional_float",
        ),
    )
    rule_declared_collection: bool = field(
        default=_RULES.declared_collection,
        metadata=_doc(
            "Page filter: a page whose JSON-LD declares it a ``CollectionPage``, "
            "``SearchResultsPage`` or ``ProfilePage`` (archive, category, tag, search and "
            "author pages, as SEO plugins mark them) and declares no article, or whose "
            "``<body>`` classes name a list view (WordPress's ``archive date``, "
            "``search-results``, ``single-attachment``, ...; Ghost's ``tag-template``; "
            "Drupal's ``path-taxonomy``), is noise (``declared_collection``). ``False`` "
            "switches the rule off.",
            "bool",
        ),
    )
    rule_changing_min_visits: int | None = field(
        default=_RULES.changing_min_visits,
        metadata=_doc(
            "Page filter: a URL whose main content changed on every one of at least this "
            "many earlier visits is noise (``changing_content``, needs a database). At "
            "least 2; ``None`` switches the rule off.",
            "optional_int",
        ),
    )
    rule_navigation_min_links: int | None = field(
        default=_RULES.navigation_min_links,
        metadata=_doc(
            "Page filter: a page with neither a publication date nor an author that at least "
            "this many pages of the crawl link to from their navigation (menus, header, "
            "footer) and none from their content is a site page such as about, policies or "
            "documentation (``navigation_page``; only on a site that has shown three signs "
            "of dated articles: pages that passed the filter with a date, links from content "
            "to URLs with a date, articles stored with a date by earlier crawls). ``None`` "
            "switches the rule off.",
            "optional_int",
        ),
    )
    # -- middleware -------------------------------------------------------------------
    drop_noise_leaves: bool = field(
        default=False,
        metadata=_doc(
            "Drop (``IgnoreRequest``) noise responses to requests marked "
            "``meta['denoise_leaf'] = True``, i.e. pages the spider only visits for their "
            "content, never for their links.",
            "bool",
        ),
    )
    # -- pipelines --------------------------------------------------------------------
    fields: dict[str, str] = field(
        default_factory=lambda: dict(DEFAULT_FIELDS),
        metadata=_doc(
            "Item field names, merged into the defaults ``url``, ``body``, ``headers``, "
            "``verdict`` → ``denoise``, ``title``, ``text``, ``published``, ``author``, "
            "``lang``; map a key to ``None`` to leave that value out. ``site``, ``method`` "
            "and ``warnings`` may be added. A spider whose settings rename ``url``, ``body``, "
            "``headers`` or ``verdict`` yields ``page_item(response, fields=self.settings)``.",
            "fields",
        ),
    )
    min_text_chars: int = field(
        default=100,
        metadata=_doc(
            "Items whose extracted text has fewer non-whitespace characters are dropped "
            "(``DropItem``, stat ``denoise/items/dropped_short_text``); a CJK character "
            "counts three, about the English characters it takes to say as much.",
            "int",
            minimum=0,
        ),
    )
    drop_duplicates: bool = field(
        default=True,
        metadata=_doc(
            "Drop (``DropItem``, stat ``denoise/items/dropped_duplicate``) an article page "
            "met before under another URL of its site (same ``<title>`` and extracted "
            "text: ``?replytocom=``, tracking parameters, ``/index.html``), so each article "
            "is one row. Needs the site store; each crawler process remembers its own pages, "
            "and the database skips (stat ``denoise/store/duplicates``) a copy of an article "
            "it holds, met by another process or an earlier crawl.",
            "bool",
        ),
    )
    store_withdraw: bool = field(
        default=True,
        metadata=_doc(
            "Delete the stored article of a URL that a later visit judges a site page "
            "(``navigation_page``: about, contact, terms, documentation; ``site_page``), "
            "stat ``denoise/store/withdrawn``. A site's first crawl lets some site pages "
            "through before it has seen that the site dates its articles, and list pages "
            "with teasers before the articles whose titles they list (``listing``), and "
            "deletes their rows when the spider closes; ``False`` keeps every row.",
            "bool",
        ),
    )
    revisit_first: int = field(
        default=CRAWL_REVISIT_FIRST,
        metadata=_doc(
            "Extract again, when the spider closes, the article pages each site's learning "
            "counted among its first this many pages, and rewrite "
            "their stored text where what the whole crawl learned changes it (stat "
            "``denoise/store/revised``): a new site's first articles are extracted before "
            "its templates and recurring lines are known, and kept its sidebar and share "
            "lines until a re-crawl. The bodies wait in memory, 64 MB at most in all. "
            "``0`` switches it off.",
            "int",
            minimum=0,
        ),
    )
    refilter_lines: bool = field(
        default=True,
        metadata=_doc(
            "When the spider closes, take out of the stored articles the lines their "
            "site's line statistics learned as noise after them, and rewrite those rows "
            "(stat ``denoise/store/revised``): a line that recurs on little more than a "
            "third of a site's pages, or whose pages the crawl met late, crosses the bound "
            "after the articles met before it were stored. Each article's lines wait in "
            "memory as 4-byte keys, 32 MB at most. ``False`` switches it off.",
            "bool",
        ),
    )
    store_batch: int = field(
        default=50,
        metadata=_doc(
            "Articles written to the database per batch (one transaction).", "int", minimum=1
        ),
    )

    def __post_init__(self) -> None:
        # Checked here, as Scrapy starts the crawl, so that a typo fails like any bad
        # setting (exit status 1) instead of closing the spider once the core is opened
        # (finish reason denoise_setup_failed, exit status 0, the setting unnamed). What
        # the core would refuse is built here once: the rules and options, the method
        # with its parameters, the page model (milliseconds; block models load lazily).
        if self.core_worker not in WORKER_KINDS:
            raise ValueError(
                f"invalid DENOISE_CORE_WORKER setting: {self.core_worker!r} "
                "(use 'process' or 'thread')"
            )
        try:
            check_method_name(self.method)
        except UnknownMethodError as exc:
            raise ValueError(f"invalid DENOISE_METHOD setting: {exc}") from exc
        for f in dataclass_fields(self):
            minimum = f.metadata.get("minimum")
            value = getattr(self, f.name)
            if minimum is not None and value < minimum:
                raise ValueError(
                    f"invalid {setting_name(f.name)} setting: {value!r} (at least {minimum})"
                )
        self._check_page_model()
        options = self.options()
        try:
            create_method(options.method, options.method_params, warn_ignored=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"invalid DENOISE_METHOD_PARAMS setting: {exc}") from exc

    def _check_page_model(self) -> None:
        model = self.page_model
        if not model or model == "default":
            return
        if not os.path.isfile(model):
            raise ValueError(
                f"invalid DENOISE_PAGE_MODEL setting: no model file at {model!r} "
                "(a file from `scrapy-denoise train pages`, 'default', or empty for no model)"
            )
        try:
            PageSvm(model).model  # noqa: B018 -- reads and checks the file
        except (OSError, ValueError) as exc:  # ModelFormatError is a ValueError
            raise ValueError(
                f"invalid DENOISE_PAGE_MODEL setting: {model!r} is not a page model file "
                f"from `scrapy-denoise train pages`: {exc}"
            ) from exc

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> DenoiseConfig:
        """Parse every ``DENOISE_*`` setting; unset ones keep the defaults above, and so
        does a text setting set to ``None`` (not the string ``"None"``).

        The first time a crawler's settings are parsed, unknown ``DENOISE_*`` names and a
        pipeline set-up that cannot store anything are logged (see :func:`_first_parse`).
        """
        first = _first_parse(settings)
        if first:
            _warn_unknown_settings(settings)
        values: dict[str, Any] = {}
        for f in dataclass_fields(cls):
            name = setting_name(f.name)
            if name not in settings:
                continue
            kind = f.metadata["kind"]
            if kind == "str" and settings[name] is None:
                continue
            try:
                values[f.name] = _parse(settings, name, kind)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"invalid {name} setting: {exc}") from exc
        if values.get("enabled") is False:
            values.update(dict.fromkeys(_COMPONENT_FIELDS, False))
        config = cls(**values)
        if first:
            config._warn_if_nothing_stored()
            config._warn_if_headline_lost()
        return config

    def rules(self) -> PageRules:
        """The page filter rules, one ``DENOISE_RULE_*`` setting per :class:`PageRules`
        field (a test keeps the two in step); a value they refuse names its setting."""
        values = {f.name: getattr(self, f"rule_{f.name}") for f in dataclass_fields(PageRules)}
        return _build(PageRules, values, {n: setting_name(f"rule_{n}") for n in values})

    def options(self) -> DenoiseOptions:
        """The core's options; a value they refuse names its setting."""
        values = {option: getattr(self, name) for option, name in _OPTION_FIELDS.items()}
        if not (self.store_enabled and self.database_url and self.extract_enabled):
            # no row to rewrite: keep no page and no lines for it
            values["revisit_first"] = 0
            values["refilter_lines"] = False
        return _build(
            DenoiseOptions,
            {**values, "rules": self.rules()},
            {option: setting_name(name) for option, name in _OPTION_FIELDS.items()},
        )

    def _warn_if_headline_lost(self) -> None:
        """The headline leaves the text because the title field keeps it: with that field
        switched off, it would be stored nowhere."""
        if self.keep_headline or not self.extract_enabled or self.fields.get("title"):
            return
        logger.warning(
            "DENOISE_FIELDS switches the title off and DENOISE_KEEP_HEADLINE is False: the "
            "headline is in neither the title nor the text; set DENOISE_KEEP_HEADLINE = True "
            "to keep it in the text"
        )

    def _warn_if_nothing_stored(self) -> None:
        """Without extraction, page items keep their raw page and carry no text, so the
        store pipeline, which stores items with a text, has nothing to store. It stays on
        (a project may fill the text field itself), hence a warning rather than an error."""
        if self.extract_enabled or not self.store_enabled or not self.database_url:
            return
        logger.warning(
            "DENOISE_EXTRACT_ENABLED is False: page items keep their raw body and headers "
            "and get no text, and StorePipeline stores only items with a %r field; set "
            "DENOISE_STORE_ENABLED = False too unless the project fills that field itself",
            self.fields.get("text"),
        )


#: :class:`DenoiseOptions` field -> the :class:`DenoiseConfig` field it comes from
#: (``rules`` is built from the ``rule_*`` fields)
_OPTION_FIELDS: dict[str, str] = {
    "method": "method",
    "max_bytes": "max_bytes",
    "templates": "templates_enabled",
    "line_stats": "line_stats_enabled",
    "keep_headline": "keep_headline",
    "site_prefixes": "site_prefixes",
    "skip_noise_pages": "skip_noise_pages",
    "page_model": "page_model",
    "method_params": "method_params",
    "flush_every": "flush_every",
    "owner": "owner",
    "revisit_first": "revisit_first",
    "refilter_lines": "refilter_lines",
}


def _build(cls: Callable[..., _T], values: dict[str, Any], settings: Mapping[str, str]) -> _T:
    """``cls(**values)``, a ``ValueError`` naming the setting at fault.

    The core's own checks say what is wrong with a value, not which setting it came from:
    the culprit is the first value that ``cls`` refuses on its own.
    """
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        culprit = next(
            (setting for name, setting in settings.items() if _refuses(cls, name, values[name])),
            "DENOISE_*",
        )
        raise ValueError(f"invalid {culprit} setting: {exc}") from exc


def _refuses(cls: Callable[..., object], name: str, value: Any) -> bool:
    try:
        cls(**{name: value})
    except (TypeError, ValueError):
        return True
    return False


#: settings already parsed once, by id (Scrapy's settings are unhashable); weak values, so
#: that a new crawler's settings reusing a dead one's id are not taken for them
_PARSED: weakref.WeakValueDictionary[int, BaseSettings] = weakref.WeakValueDictionary()


def _first_parse(settings: BaseSettings) -> bool:
    """Is this the first parse of ``settings``? A crawler's settings are parsed by each
    component that needs them (runtime, distributed scheduler), its warnings logged once."""
    if _PARSED.get(id(settings)) is settings:
        return False
    _PARSED[id(settings)] = settings
    return True


def _warn_unknown_settings(settings: BaseSettings) -> None:
    """A misspelt ``DENOISE_*`` name would otherwise be ignored without a word."""
    known = [f.name.upper() for f in dataclass_fields(DenoiseConfig)]
    for name in sorted(n for n in settings if n.startswith("DENOISE_")):
        suffix = name.removeprefix("DENOISE_")
        if suffix in known:
            continue
        # matched without the prefix all names share, which would make any name "close"
        close = difflib.get_close_matches(suffix, known, n=1)
        hint = f" (did you mean DENOISE_{close[0]}?)" if close else ""
        logger.warning("unknown setting %s is ignored%s", name, hint)


_OFF = frozenset({"", "none", "null", "off", "false"})


def _parse(settings: BaseSettings, name: str, kind: str) -> Any:
    raw = settings[name]
    if kind == "bool":
        return settings.getbool(name)
    if kind == "int":
        return _whole(raw)
    if kind == "str":
        return str(raw)
    if kind == "list":
        return tuple(str(v) for v in _list(settings, name))
    if kind == "dict":
        return settings.getdict(name)
    if kind == "fields":
        return _parse_fields(settings.getdict(name))
    if raw is None or raw is False or (isinstance(raw, str) and raw.strip().lower() in _OFF):
        return None
    if kind == "optional_str":
        return str(raw)
    if kind == "optional_int":
        return _whole(raw)
    if kind == "optional_float":
        return float(raw)
    raise AssertionError(f"unknown setting kind {kind!r}")


def _whole(raw: Any) -> int:
    """``int(raw)``, except that a fraction is refused: ``int(1.7)`` would quietly be 1."""
    if isinstance(raw, float) and not raw.is_integer():
        raise ValueError(f"{raw!r} is not a whole number")
    return int(raw)


def _list(settings: BaseSettings, name: str) -> list[Any]:
    """A list setting: a string starting with ``[`` is a JSON list, any other string is
    split on commas (Scrapy's ``getlist``), which breaks a regex such as ``\\d{1,3}``."""
    raw = settings[name]
    if isinstance(raw, str) and raw.lstrip().startswith("["):
        value: list[Any] = json.loads(raw)  # valid JSON starting with "[" is a list
        return value
    return settings.getlist(name)


def item_fields(source: BaseSettings | Mapping[str, Any] | str | None = None) -> dict[str, str]:
    """The item field of each value (``DENOISE_FIELDS`` merged into the defaults).

    ``source`` is a crawler's settings, or the setting's value as a user has it: a mapping
    whose ``None`` values switch a field off, or its JSON text (what ``-s`` gives); ``None``
    gives the defaults. A spider passes its settings to :func:`.items.page_item`, so that
    its items use the names the pipelines read.
    """
    if not isinstance(source, BaseSettings):
        source = BaseSettings({"DENOISE_FIELDS": source or {}})
    try:
        return _parse_fields(source.getdict("DENOISE_FIELDS"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"invalid DENOISE_FIELDS setting: {exc}") from exc


def _parse_fields(overrides: Mapping[str, Any]) -> dict[str, str]:
    """Merge a user's mapping into the defaults, like Scrapy's ``*_BASE`` dictionaries."""
    merged: dict[str, str | None] = dict(DEFAULT_FIELDS)
    for key, value in overrides.items():
        if key not in DEFAULT_FIELDS and key not in OPTIONAL_FIELDS:
            raise ValueError(
                f"unknown key {key!r}; known: {sorted(DEFAULT_FIELDS.keys() | OPTIONAL_FIELDS)}"
            )
        merged[key] = None if value is None else str(value)
    for required in ("url", "body"):
        if not merged.get(required):
            raise ValueError(f"{required!r} cannot be switched off")
    fields = {k: v for k, v in merged.items() if v}
    # Two values in one field: the later overwrites the earlier ({"title": "text"} stored
    # the whole text as the title).
    roles: dict[str, str] = {}
    for role, name in fields.items():
        if name in roles:
            raise ValueError(
                f"{roles[name]!r} and {role!r} are both in the item field {name!r}; "
                "give each its own field, or map one to None"
            )
        roles[name] = role
    return fields


def _format_default(value: Any) -> str:
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, (dict, list)):
        return "``" + json.dumps(value, ensure_ascii=False) + "``"
    return f"``{value!r}``"


def settings_table() -> str:
    """The README's settings table (Markdown), generated so it cannot go stale."""
    rows = ["| setting | default | meaning |", "|---|---|---|"]
    for f in dataclass_fields(DenoiseConfig):
        default = f.default_factory() if callable(f.default_factory) else f.default
        shown = f.metadata.get("shown_default") or _format_default(default)
        cells = (f"``{setting_name(f.name)}``", shown, f.metadata["doc"])
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)
