"""Store exceptions, and URL redaction so no message or log line carries a password."""

from __future__ import annotations

import re

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["SchemaVersionError", "StoreDataError", "StoreError", "redact_url", "scrub"]

_USERINFO = re.compile(r"(?<=://)([^/@:]*):[^/@]*@")


class StoreError(Exception):
    """The store cannot be opened or used; the message names the (redacted) database."""


class StoreDataError(StoreError):
    """The database refused the data of a call, not the call: a value that cannot be bound
    (a date with no UTC equivalent) or that breaks a column or constraint. The same data
    fails the same way on every attempt, so a caller retries only without the offending
    record (the store pipeline bisects its batch to find it); any other ``StoreError`` is
    the database being unreachable or broken, which waiting may cure."""


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
