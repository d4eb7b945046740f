"""edition_codes: activation codes (only their SHA-256), their edition and who redeemed them

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'edition_codes',
        sa.Column('code_hash', sa.String(length=64), nullable=False),
        sa.Column('edition', sa.String(length=16), nullable=False),
        sa.Column('minted_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('redeemed_by', sa.String(length=32), nullable=True),
        sa.Column('redeemed_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['redeemed_by'], ['accounts.id']),
        sa.PrimaryKeyConstraint('code_hash'),
        sa.UniqueConstraint('redeemed_by', 'edition', name='uq_edition_codes_redeemed_by'),
    )


def downgrade() -> None:
    op.drop_table('edition_codes')
