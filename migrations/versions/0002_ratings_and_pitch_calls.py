"""ratings, rating history, pitch thrown/strike columns

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('rating',
    sa.Column('account_id', sa.String(length=32), nullable=False),
    sa.Column('pool', sa.String(length=48), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('last_played', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', 'pool')
    )
    op.create_index('ix_rating_pool_board', 'rating', ['pool', 'last_played'], unique=False)
    op.create_table('rating_history',
    sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('account_id', sa.String(length=32), nullable=False),
    sa.Column('pool', sa.String(length=48), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('played_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'account_id', name='uq_rating_history_game_account')
    )
    op.create_index('ix_rating_history_account', 'rating_history',
                    ['account_id', 'pool', 'id'], unique=False)
    with op.batch_alter_table('pitch') as batch:
        batch.add_column(sa.Column('thrown', sa.Boolean(), server_default=sa.false(),
                                   nullable=False))
        batch.add_column(sa.Column('strike', sa.Boolean(), server_default=sa.false(),
                                   nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('pitch') as batch:
        batch.drop_column('strike')
        batch.drop_column('thrown')
    op.drop_index('ix_rating_history_account', table_name='rating_history')
    op.drop_table('rating_history')
    op.drop_index('ix_rating_pool_board', table_name='rating')
    op.drop_table('rating')
