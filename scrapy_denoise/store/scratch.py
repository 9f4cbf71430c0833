"""Throwaway PostgreSQL databases for the store benchmark and the tests.

Both need a database nobody else writes to: a benchmark that wrote into an existing store
would change a user's data, and parallel test runs sharing tables would see each other's
rows. One database per use, named after the process and a random token, dropped on exit.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["scratch_database"]


@contextmanager
def scratch_database(admin_url: str, prefix: str = "denoise_scratch") -> Iterator[str]:
    """URL of a new, empty database on ``admin_url``'s server, dropped afterwards (with
    ``FORCE``: a connection a failed test left open must not keep it alive)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield admin.set(database=name).render_as_string(hide_password=False)
        finally:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()
