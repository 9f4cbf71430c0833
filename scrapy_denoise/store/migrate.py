"""Bring a database to the store's schema with Alembic, run in code.

The Alembic scripts ship inside the package and the configuration is built here, so an
installed scrapy-denoise needs no ``alembic.ini`` and no working directory of its own.
Several crawler processes may open one empty database at the same moment; the check and
the upgrade run in one transaction under a lock (a PostgreSQL advisory lock, SQLite's
``BEGIN IMMEDIATE``), so exactly one of them creates the schema and the others see it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, select, text
from sqlalchemy.exc import DBAPIError

from .errors import SchemaVersionError, StoreError
from .schema import TABLES, VERSION_TABLE

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

__all__ = [
    "MIGRATIONS_DIR",
    "SCHEMA_REVISION",
    "alembic_config",
    "ensure_schema",
    "head_revision",
]

logger = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

#: The newest revision under ``migrations/versions`` (a test keeps the two in step). A
#: database already there is opened without importing Alembic, which is most of the cost
#: of opening a store in every crawler process.
SCHEMA_REVISION = "0004_page_line_keys"

# Any constant works; it only has to be the same in every process using the database.
_PG_LOCK_KEY = 0x5D3E_0157


def alembic_config(url: str | None = None) -> Config:
    """Alembic configuration for the shipped scripts.

    Developers author a revision against a scratch database with
    ``alembic.command.revision(alembic_config(url), message, autogenerate=True)``.
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no Alembic revisions found in {MIGRATIONS_DIR}")
    return head


def ensure_schema(conn: Connection, *, where: str, create: bool) -> None:
    """Create or upgrade the schema on ``conn`` (already in a write transaction).

    ``where`` is the redacted URL used in messages. With ``create=False`` nothing is
    written: an empty or older database is an error instead.
    """
    if _stored_revision(conn) == SCHEMA_REVISION:
        return
    with _quiet_alembic():
        _upgrade(conn, where=where, create=create)


@contextmanager
def _quiet_alembic() -> Iterator[None]:
    """Alembic logs its plugins and every step at INFO, ten lines in a crawl's log where
    one of ours says what happens ("creating store schema ..."). Quieted unless the user
    gave the ``alembic`` logger a level of their own."""
    log = logging.getLogger("alembic")
    if log.level != logging.NOTSET:
        yield
        return
    log.setLevel(logging.WARNING)
    try:
        yield
    finally:
        log.setLevel(logging.NOTSET)


def _upgrade(conn: Connection, *, where: str, create: bool) -> None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    head = script.get_current_head()
    current = MigrationContext.configure(
        conn, opts={"version_table": VERSION_TABLE}
    ).get_current_revision()
    if current == head:
        return
    if current is None:
        present = sorted(TABLES & set(inspect(conn).get_table_names()))
        if present:
            raise SchemaVersionError(
                f"database {where} has store tables ({', '.join(present)}) but no "
                f"{VERSION_TABLE} table, so its schema revision is unknown; this version "
                f"expects revision {head!r}. Point the store at a new database, or drop "
                "these tables to let the store recreate them."
            )
        if not create:
            raise StoreError(
                f"database {where} has no store schema (is it the database a crawl wrote?); "
                f"create revision {head!r} with `scrapy-denoise db upgrade --store URL`, or "
                "open it with create=True"
            )
        logger.info("creating store schema at %s (revision %s)", where, head)
    else:
        if not _known(script, current):
            raise SchemaVersionError(
                f"database {where} is at store schema revision {current!r}, which this "
                f"version of scrapy-denoise does not know (its newest is {head!r}); the "
                "database was probably written by a newer scrapy-denoise. Upgrade "
                "scrapy-denoise, or point the store at another database."
            )
        if not create:
            raise SchemaVersionError(
                f"database {where} is at store schema revision {current!r}, older than "
                f"{head!r}; upgrade it with `scrapy-denoise db upgrade --store URL` (a crawl "
                "does it when it opens the database), or open it with create=True"
            )
        logger.warning("upgrading store schema at %s from revision %s to %s", where, current, head)
    cfg.attributes["connection"] = conn
    try:
        command.upgrade(cfg, "head")
    except DBAPIError as exc:
        if not _insufficient_privilege(exc):
            raise
        # the user a crawl runs as may read and write rows without the right to change
        # tables; the database's own "permission denied for schema public" said neither
        # what was being done nor who can do it
        doing = f"upgrading it from revision {current!r}" if current else "creating it"
        raise StoreError(
            f"the store schema at {where} needs {doing} to {head!r}, which this database "
            f"user may not do ({str(exc.orig).strip().splitlines()[0]}); run `scrapy-denoise "
            "db upgrade --store URL` once as a user who may create tables (the database's "
            "owner), then crawl as this one"
        ) from None


def _insufficient_privilege(exc: DBAPIError) -> bool:
    """PostgreSQL's SQLSTATE 42501, as psycopg 3 (``sqlstate``) or 2 (``pgcode``) gives it."""
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code == "42501"


def _stored_revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    table = text(VERSION_TABLE)
    rows = conn.execute(select(text("version_num")).select_from(table)).scalars().all()
    return rows[0] if len(rows) == 1 else None


def _known(script: ScriptDirectory, revision: str) -> bool:
    from alembic.util.exc import CommandError

    try:
        return script.get_revision(revision) is not None
    except CommandError:
        return False
