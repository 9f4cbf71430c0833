"""Query parameters that say where a reader came from, not which page they read; and a
directory's index file (``/post/index.html`` is ``/post/``), which names no other page.

Ad and analytics platforms append them to any URL (``?utm_source=``, Google's ``?gclid=``,
Merchant Center's ``?srsltid=``, Meta's ``?fbclid=``, Mailchimp's and HubSpot's ids). Two
places must agree on them: the page filter, for which a home page carrying only them is
still the home page, and the store, which keeps an article under its URL without them.
"""

from __future__ import annotations

import re

__all__ = ["DIRECTORY_INDEX", "is_tracking_key", "without_tracking"]

#: a directory's index page at a path's end, as web servers serve it for the directory (not
#: the URL rules' wider ``INDEX_FILE``: ``/docs/index.md`` or ``/feed/index.xml`` are files
#: of their own). The store keeps an article under the directory's URL, and a canonical
#: link to either names the same page.
DIRECTORY_INDEX = re.compile(r"/(?:index|default)\.(?:html?|shtml|php\d?|aspx?|jsp|cfm)$", re.I)

_TRACKING_KEY = re.compile(
    r"utm_\w*|_ga|_gl|gclid|dclid|gbraid|wbraid|fbclid|msclkid|yclid|srsltid|igshid"
    r"|mc_[ce]id|_hsenc|_hsmi",
    re.I,
)


def is_tracking_key(key: str) -> bool:
    return _TRACKING_KEY.fullmatch(key) is not None


def without_tracking(query: str) -> str:
    """``query`` without its tracking parameters, the others as they were written (order,
    repeated keys, percent-escapes)."""
    params = query.split("&")
    kept = [p for p in params if not is_tracking_key(p.split("=", 1)[0])]
    return query if len(kept) == len(params) else "&".join(kept)
