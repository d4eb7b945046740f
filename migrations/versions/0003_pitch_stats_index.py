"""covering index for SQL player stats

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INCLUDE = ['offense', 'defense', 'pa_result', 'runs', 'rbi', 'outs', 'outs_after', 'thrown',
           'strike']


def upgrade() -> None:
    # PostgreSQL: index-only scans of a player's pitches; SQLite: a plain index on game_id.
    op.create_index('ix_pitch_game_stats', 'pitch', ['game_id'], unique=False,
                    postgresql_include=INCLUDE)


def downgrade() -> None:
    op.drop_index('ix_pitch_game_stats', table_name='pitch')
