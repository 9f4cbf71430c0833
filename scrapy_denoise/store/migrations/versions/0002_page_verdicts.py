"""Page filter verdict counters per site (noise pages by reason, score distribution).

Revision ID: 0002_page_verdicts
Revises: 0001_initial
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_page_verdicts"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "page_verdicts",
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("is_noise", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(64), nullable=False),
        sa.Column("score_bucket", sa.SmallInteger(), nullable=False),
        sa.Column("count", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "site_id", "is_noise", "reason", "score_bucket", name="pk_page_verdicts"
        ),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], ondelete="CASCADE", name="fk_page_verdicts_site_id_sites"
        ),
    )


def downgrade() -> None:
    op.drop_table("page_verdicts")
