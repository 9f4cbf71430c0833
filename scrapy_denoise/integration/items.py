"""The page item: what a spider yields so that the pipeline can turn a page into an article.

A spider does not extract anything itself: it yields ``page_item(response)`` for every page
it wants as an article, and :class:`~scrapy_denoise.integration.pipelines.DenoisePipeline`
replaces the raw page with the extracted fields. The item carries the raw body (not
``response.text``) because the core decodes pages itself, with the same rules on every
path (crawl, CLI, benchmark); it carries the page filter's verdict so that the page is not
classified twice.

Any item type itemadapter supports works (``dict``, ``scrapy.Item``, dataclass, attrs,
pydantic): pass ``item_cls``; it needs the url and body fields, and gets the headers and
verdict fields when it declares them.

The item's field names are the pipeline's (``DENOISE_FIELDS``) only if the spider says so:
a project that renames ``url``, ``body``, ``headers`` or ``verdict`` yields
``page_item(response, fields=self.settings)``. Otherwise its items would carry the default
names while the pipeline reads the renamed ones, and it would store nothing, or judge every
page a second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from itemadapter import ItemAdapter

from .settings import item_fields

if TYPE_CHECKING:
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

__all__ = ["ERROR_STATUS_VERDICT", "SKIPPED_VERDICT", "page_item", "response_headers"]

_ItemT = TypeVar("_ItemT")

#: Headers the core reads (charset, language, date fallback); the rest would only bloat
#: the item and could leak cookies into exports when the pipeline is off.
_KEPT_HEADERS = ("Content-Type", "Content-Language", "Last-Modified")

#: The verdict of a page the spider opted out of filtering (``meta["denoise_skip"]``).
SKIPPED_VERDICT: dict[str, object] = {"is_noise": False, "score": 0.0, "reason": "skipped"}

#: The verdict of an error response (status outside 2xx) a spider handles itself
#: (``handle_httpstatus_list``, ``HTTPERROR_ALLOW_ALL``): the page filter does not judge
#: those, and the pipeline took a 503 maintenance page for an article, rewriting the row
#: stored from the same URL's real article the crawl before.
ERROR_STATUS_VERDICT: dict[str, object] = {"is_noise": True, "score": 1.0, "reason": "http_status"}


def response_headers(response: Response) -> dict[str, str]:
    """The headers the core uses, as ``str`` (Scrapy keeps bytes, several values each)."""
    headers: dict[str, str] = {}
    for name in _KEPT_HEADERS:
        value = response.headers.get(name)
        if value:
            headers[name] = value.decode("latin-1")
    return headers


def page_item(
    response: Response,
    item_cls: type[_ItemT] | type[dict[str, Any]] = dict,
    *,
    fields: BaseSettings | Mapping[str, str | None] | str | None = None,
    **extra: Any,
) -> Any:
    """An item holding ``response``'s page, for ``DenoisePipeline`` to extract.

    ``fields`` names the item fields of the url, body, headers and verdict when
    ``DENOISE_FIELDS`` renames them: the crawler's settings (``fields=self.settings`` in a
    spider), or the setting's value itself, a mapping (``None`` switches the headers or the
    verdict off) or its JSON text. ``extra`` values are passed through (e.g. a category the
    spider knows).
    """
    names = item_fields(fields)
    meta = response.meta if response.request is not None else {}
    values: dict[str, Any] = {names["url"]: response.url, names["body"]: response.body}
    if "headers" in names:
        values[names["headers"]] = response_headers(response)
    if "verdict" in names:
        verdict: dict[str, object] | None
        if not 200 <= response.status < 300:
            verdict = ERROR_STATUS_VERDICT
        elif meta.get("denoise_skip"):
            verdict = SKIPPED_VERDICT
        else:
            verdict = meta.get("denoise")
        values[names["verdict"]] = dict(verdict) if verdict is not None else None
    values.update(extra)
    declared = ItemAdapter.get_field_names_from_class(item_cls)
    if declared is not None:
        missing = {names["url"], names["body"]} - set(declared)
        if missing:
            raise TypeError(f"{item_cls.__name__} needs the fields {sorted(missing)}")
        values = {k: v for k, v in values.items() if k in declared}
    return item_cls(**values)
