"""Initial store schema: sites, templates, batch cache, line stats, fingerprints, articles.

Revision ID: 0001_initial
Revises:
Create Date: 2025-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _hash(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.LargeBinary(16), nullable=False)


def upgrade() -> None:
    op.create_table(
        "sites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(512), nullable=False),
        sa.Column("pages_processed", sa.BigInteger(), nullable=False, server_default="0"),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_sites"),
        sa.UniqueConstraint("key", name="uq_sites_key"),
    )
    op.create_table(
        "templates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        _hash("key_hash"),
        sa.Column("frequency", sa.BigInteger(), nullable=False),
        _ts("learned_at"),
        sa.PrimaryKeyConstraint("id", name="pk_templates"),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], ondelete="CASCADE", name="fk_templates_site_id_sites"
        ),
        sa.UniqueConstraint("site_id", "key_hash", name="uq_templates_site_key"),
    )
    op.create_table(
        "template_batches",
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("pages", sa.Integer(), nullable=False),
        _ts("updated_at"),
        sa.PrimaryKeyConstraint("site_id", "owner", name="pk_template_batches"),
        sa.ForeignKeyConstraint(
            ["site_id"],
            ["sites.id"],
            ondelete="CASCADE",
            name="fk_template_batches_site_id_sites",
        ),
    )
    op.create_table(
        "template_batch_entries",
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        _hash("key_hash"),
        sa.Column("frequency", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("site_id", "owner", "position", name="pk_template_batch_entries"),
        sa.ForeignKeyConstraint(
            ["site_id", "owner"],
            ["template_batches.site_id", "template_batches.owner"],
            ondelete="CASCADE",
            name="fk_template_batch_entries_batch",
        ),
    )
    op.create_table(
        "line_stats",
        sa.Column("site_id", sa.Integer(), nullable=False),
        _hash("line_hash"),
        sa.Column("count", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("site_id", "line_hash", name="pk_line_stats"),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], ondelete="CASCADE", name="fk_line_stats_site_id_sites"
        ),
    )
    op.create_index("ix_line_stats_site_count", "line_stats", ["site_id", "count"])
    op.create_table(
        "page_fingerprints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        _hash("url_hash"),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("visits", sa.BigInteger(), nullable=False),
        sa.Column("changes", sa.BigInteger(), nullable=False),
        _ts("first_seen"),
        _ts("last_seen"),
        sa.PrimaryKeyConstraint("id", name="pk_page_fingerprints"),
        sa.ForeignKeyConstraint(
            ["site_id"],
            ["sites.id"],
            ondelete="CASCADE",
            name="fk_page_fingerprints_site_id_sites",
        ),
        sa.UniqueConstraint("url_hash", name="uq_page_fingerprints_url_hash"),
    )
    op.create_index("ix_page_fingerprints_site_id", "page_fingerprints", ["site_id"])
    op.create_table(
        "articles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        _hash("url_hash"),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        _ts("published", nullable=True),
        sa.Column("author", sa.Text(), nullable=True),
        sa.Column("lang", sa.String(16), nullable=True),
        _ts("fetched_at"),
        _ts("updated_at"),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_articles"),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], ondelete="CASCADE", name="fk_articles_site_id_sites"
        ),
        sa.UniqueConstraint("url_hash", name="uq_articles_url_hash"),
    )
    op.create_index("ix_articles_site_id", "articles", ["site_id"])


def downgrade() -> None:
    for index, table in (
        ("ix_articles_site_id", "articles"),
        ("ix_page_fingerprints_site_id", "page_fingerprints"),
        ("ix_line_stats_site_count", "line_stats"),
    ):
        op.drop_index(index, table_name=table)
    for table in (
        "articles",
        "page_fingerprints",
        "line_stats",
        "template_batch_entries",
        "template_batches",
        "templates",
        "sites",
    ):
        op.drop_table(table)
