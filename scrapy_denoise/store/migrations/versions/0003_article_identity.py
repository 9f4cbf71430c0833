"""Articles carry their identity on their site, so one article met under two URLs (by two
crawler processes, or by a later crawl) is stored once.

Revision ID: 0003_article_identity
Revises: 0002_page_verdicts
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_article_identity"
down_revision: str | None = "0002_page_verdicts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: rows stored before this revision, and articles too short to identify,
    # have none and are never taken for copies.
    op.add_column("articles", sa.Column("identity_hash", sa.LargeBinary(16), nullable=True))
    # The hash alone: as selective as a URL hash, and a planner cannot be drawn to the
    # site, which on a one-site crawl holds every row.
    op.create_index("ix_articles_identity_hash", "articles", ["identity_hash"])


def downgrade() -> None:
    op.drop_index("ix_articles_identity_hash", table_name="articles")
    op.drop_column("articles", "identity_hash")
