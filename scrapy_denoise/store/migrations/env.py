"""Alembic environment for the store, run in code by :mod:`scrapy_denoise.store.migrate`.

The store passes its own open connection (inside its own transaction, holding the
migration lock) through ``config.attributes["connection"]``; the URL path below only
serves developers who run Alembic commands against a scratch database to author a
revision (see :func:`scrapy_denoise.store.migrate.alembic_config`).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from scrapy_denoise.store.schema import VERSION_TABLE, Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        # SQLite cannot ALTER most things; batch mode rebuilds tables instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    config = context.config
    if context.is_offline_mode():
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=Base.metadata,
            version_table=VERSION_TABLE,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection given and no sqlalchemy.url configured")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


_main()
