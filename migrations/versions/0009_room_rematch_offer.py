"""rooms.rematch_offer: a rematch is an offer the other side accepts

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('rematch_offer', JSON_, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('rematch_offer')
