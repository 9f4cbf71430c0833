"""Page fingerprints keep the short hashes of the lines their URL has counted in its site's
line statistics, so a re-crawl counts the lines a page gained since (boilerplate a site adds
to its old pages) instead of nothing.

Revision ID: 0004_page_line_keys
Revises: 0003_article_identity
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_page_line_keys"
down_revision: str | None = "0003_article_identity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: a page fingerprinted before this revision has none; its next visit records
    # its lines without counting them, and the visits after count what they gained.
    op.add_column("page_fingerprints", sa.Column("line_keys", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    op.drop_column("page_fingerprints", "line_keys")
