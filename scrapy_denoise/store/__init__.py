"""Where learned site state and extracted articles live: SQLite or PostgreSQL via SQLAlchemy.

``Store.open(None)`` is an in-memory database for one process; ``sqlite:///path`` a file
several processes may share; ``postgresql+psycopg://...`` a server many crawler processes
write to at once. The schema is created or upgraded by the Alembic scripts shipped in
``migrations/`` when the store is opened.
"""

from __future__ import annotations

from .errors import SchemaVersionError, StoreDataError, StoreError, redact_url
from .records import (
    SCORE_BUCKETS,
    ArticleRecord,
    BatchState,
    LineCount,
    PageState,
    PageVisit,
    SiteDelta,
    SiteSnapshot,
    SiteSummary,
    TemplateText,
    UpsertCounts,
    VerdictCount,
    comparable,
    score_bucket,
)
from .store import DAMAGED_SHARE, Store, content_hash, fit_hash, text_hash

__all__ = [
    "DAMAGED_SHARE",
    "SCORE_BUCKETS",
    "ArticleRecord",
    "BatchState",
    "LineCount",
    "PageState",
    "PageVisit",
    "SchemaVersionError",
    "SiteDelta",
    "SiteSnapshot",
    "SiteSummary",
    "Store",
    "StoreDataError",
    "StoreError",
    "TemplateText",
    "UpsertCounts",
    "VerdictCount",
    "comparable",
    "content_hash",
    "fit_hash",
    "redact_url",
    "score_bucket",
    "text_hash",
]
