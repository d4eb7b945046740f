"""play_queue: the "play now" queue (one entry per account; paired entries name their room)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')


def upgrade() -> None:
    op.create_table(
        'play_queue',
        sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('pool', sa.String(length=48), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('options', JSON_, nullable=False),
        sa.Column('rating', sa.Integer(), nullable=False),
        sa.Column('since', sa.DateTime(timezone=True), nullable=False),
        sa.Column('room_id', sa.String(length=32), nullable=True),
        sa.Column('paired_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['room_id'], ['rooms.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('account_id'),
    )
    with op.batch_alter_table('play_queue', schema=None) as batch_op:
        batch_op.create_index('ix_play_queue_pool', ['pool', 'room_id', 'since'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('play_queue', schema=None) as batch_op:
        batch_op.drop_index('ix_play_queue_pool')
    op.drop_table('play_queue')
