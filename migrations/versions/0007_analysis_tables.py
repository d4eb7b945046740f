"""analysis_table (precomputed analysis answers) and job_claim (one process runs a periodic job)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    op.create_table(
        'analysis_table',
        sa.Column('key', sa.String(length=96), nullable=False),
        sa.Column('payload', JSON_, nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('computed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('key'),
    )
    claims = op.create_table(
        'job_claim',
        sa.Column('name', sa.String(length=48), nullable=False),
        sa.Column('until', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.bulk_insert(claims, [{'name': 'analysis', 'until': datetime(2000, 1, 1, tzinfo=UTC)}])


def downgrade() -> None:
    op.drop_table('job_claim')
    op.drop_table('analysis_table')
