"""rooms.reserved (the accounts a side is kept for: a player league's game) and the
job_claim row of the leagues' deadline job

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    op.add_column('rooms', sa.Column('reserved', JSON_, nullable=True))
    claims = sa.table('job_claim', sa.column('name', sa.String), sa.column('until', sa.DateTime(timezone=True)))
    op.bulk_insert(claims, [{'name': 'leagues', 'until': datetime(2000, 1, 1, tzinfo=UTC)}])


def downgrade() -> None:
    op.execute("DELETE FROM job_claim WHERE name = 'leagues'")
    op.drop_column('rooms', 'reserved')
