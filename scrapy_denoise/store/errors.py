"""Store exceptions, and URL redaction so no message or log line carries a password."""

from __future__ import annotations

import re

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["SchemaVersionError", "StoreError", "redact_url", "scrub"]

_USERINFO = re.compile(r"(?<=://)([^/@:]*):[^/@]*@")


class StoreError(Exception):
    """The store cannot be opened or used; the message names the (redacted) database."""


class SchemaVersionError(StoreError):
    """The database's schema revision is not one this version can work with."""


def redact_url(url: str | URL) -> str:
    """The URL as it may appear in logs: the password replaced by ``***``."""
    if isinstance(url, URL):
        return url.render_as_string(hide_password=True)
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        # Not parseable as a database URL; still never echo what looks like a password.
        return _USERINFO.sub(r"\1:***@", url)


def scrub(message: str, url: URL) -> str:
    """``message`` with the URL's password removed, for texts that come from a driver."""
    password = url.password
    if password:
        message = message.replace(str(password), "***")
    return message
