"""The store's tables as SQLAlchemy typed ORM models.

The Alembic revisions under ``migrations/versions`` are the source of truth for what a
database contains; these models must describe the same thing (``tests/test_store.py``
compares them with a migrated database), and they are what the repository queries with.

URLs are unique through a 16-byte MD5 of the URL rather than the URL itself: PostgreSQL
cannot index a btree entry above ~2.7 kB and real crawls do meet URLs that long.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "TABLES",
    "VERSION_TABLE",
    "Base",
    "LineStat",
    "PageFingerprint",
    "PageVerdictCount",
    "Site",
    "StoredArticle",
    "Template",
    "TemplateBatch",
    "TemplateBatchEntry",
    "UTCDateTime",
    "utcnow",
]

#: Alembic's version table, named for this package so it can share a database with an
#: application that runs its own Alembic migrations.
VERSION_TABLE = "denoise_alembic_version"

HASH_BYTES = 16


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware datetimes on every backend.

    SQLite has no timestamp type and drops the offset, so values are normalised to UTC
    before they are written and given UTC back when read. Naive values are refused: the
    store cannot know which zone they meant.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value.isoformat()} given; the store needs tz-aware")
        try:
            value = value.astimezone(UTC)
        except OverflowError:
            # 0001-01-01T00:00:00+01:00 (.NET's minimum date) is a year before datetime's
            # range in UTC; say so rather than "date value out of range" of no value.
            raise ValueError(f"{value.isoformat()} has no UTC equivalent (out of range)") from None
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


_NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=_NAMING)


class Site(Base):
    """A site: scheme + host, or a configured URL prefix."""

    __tablename__ = "sites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(512), unique=True)
    #: RC of the line-statistics paper
    pages_processed: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Template(Base):
    """A learned template: a (tag, text) unit common to a site's pages."""

    __tablename__ = "templates"
    __table_args__ = (UniqueConstraint("site_id", "key_hash", name="uq_templates_site_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"))
    tag: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    key_hash: Mapped[bytes] = mapped_column(LargeBinary(HASH_BYTES))
    frequency: Mapped[int] = mapped_column(BigInteger)
    learned_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TemplateBatch(Base):
    """One owner's batch in progress, so a restarted crawler resumes its batch."""

    __tablename__ = "template_batches"

    site_id: Mapped[int] = mapped_column(
        ForeignKey("sites.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(200), primary_key=True)
    pages: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TemplateBatchEntry(Base):
    """An entry of the batch cache S; ``position`` keeps S's order, which breaks match ties."""

    __tablename__ = "template_batch_entries"
    __table_args__ = (
        ForeignKeyConstraint(
            ["site_id", "owner"],
            ["template_batches.site_id", "template_batches.owner"],
            ondelete="CASCADE",
            name="fk_template_batch_entries_batch",
        ),
    )

    site_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner: Mapped[str] = mapped_column(String(200), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    tag: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    key_hash: Mapped[bytes] = mapped_column(LargeBinary(HASH_BYTES))
    frequency: Mapped[int] = mapped_column(Integer)


class LineStat(Base):
    """LC of one line (by MD5) on one site; ``text`` is optional and only for reports."""

    __tablename__ = "line_stats"
    __table_args__ = (Index("ix_line_stats_site_count", "site_id", "count"),)

    site_id: Mapped[int] = mapped_column(
        ForeignKey("sites.id", ondelete="CASCADE"), primary_key=True
    )
    line_hash: Mapped[bytes] = mapped_column(LargeBinary(HASH_BYTES), primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)


class PageFingerprint(Base):
    """A URL's main-content hash and how often it changed, for the "changes on every visit"
    page rule."""

    __tablename__ = "page_fingerprints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[bytes] = mapped_column(LargeBinary(HASH_BYTES), unique=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    content_hash: Mapped[str] = mapped_column(String(64))
    visits: Mapped[int] = mapped_column(BigInteger)
    changes: Mapped[int] = mapped_column(BigInteger)
    first_seen: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime)
    #: short hashes of the lines this URL has counted in its site's line statistics, so a
    #: revisit counts only the lines it gained (a banner added to every story later)
    line_keys: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)


class PageVerdictCount(Base):
    """Pages the page filter judged one way, per site: a counter, not a row per page, so a
    crawl of millions of pages adds a few dozen rows per site and every write is an
    additive upsert (noise pages are otherwise never stored, so this is the only record
    of them)."""

    __tablename__ = "page_verdicts"

    site_id: Mapped[int] = mapped_column(
        ForeignKey("sites.id", ondelete="CASCADE"), primary_key=True
    )
    is_noise: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    #: the rule that fired, ``model`` (page SVM) or ``article``
    reason: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``records.score_bucket(score)``, of ``records.SCORE_BUCKETS`` equal buckets of [0, 1]
    score_bucket: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger)


class StoredArticle(Base):
    """An extracted article; rewritten only when its content hash changes."""

    __tablename__ = "articles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[bytes] = mapped_column(LargeBinary(HASH_BYTES), unique=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    title: Mapped[str | None] = mapped_column(Text, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    published: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    author: Mapped[str | None] = mapped_column(Text, nullable=True)
    lang: Mapped[str | None] = mapped_column(String(16), nullable=True)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    content_hash: Mapped[str] = mapped_column(String(64))
    #: ``ArticleRecord.identity``: a second URL with the same identity on the same site is
    #: the same article and is not stored again. Not unique: a re-crawl may rewrite a row
    #: into another's identity, and the insert's upsert can name only one constraint.
    identity_hash: Mapped[bytes | None] = mapped_column(
        LargeBinary(HASH_BYTES), nullable=True, index=True
    )


#: Every table the store owns, for "is this database empty?" checks.
TABLES: frozenset[str] = frozenset(Base.metadata.tables)
