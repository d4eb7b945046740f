"""pitch_play: one row per card played and per challenge made, for all-time SQL card stats

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INCLUDE = ['side', 'offense', 'code', 'succeeded', 'sb', 'cs']
BATCH = 2000


def upgrade() -> None:
    op.create_table('pitch_play',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('side', sa.String(length=8), nullable=False),
    sa.Column('offense', sa.String(length=8), nullable=False),
    sa.Column('code', sa.String(length=32), nullable=False),
    sa.Column('succeeded', sa.Boolean(), nullable=False),
    sa.Column('result', sa.String(length=16), nullable=True),
    sa.Column('sb', sa.Integer(), nullable=False),
    sa.Column('cs', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seq', 'kind', 'position')
    )
    # PostgreSQL: index-only scans of a player's plays; SQLite: a plain index on game_id.
    op.create_index('ix_pitch_play_game_stats', 'pitch_play', ['game_id'], unique=False,
                    postgresql_include=INCLUDE)
    _backfill()


def _backfill() -> None:
    """Plays of the pitches already stored, computed as the command path now writes them."""
    from app.games.pitches import play_rows  # the same function the command path calls

    json_type = sa.JSON()
    pitch = sa.table(
        'pitch', sa.column('id', sa.Integer()), sa.column('game_id', sa.String()),
        sa.column('seq', sa.Integer()), sa.column('inning', sa.Integer()),
        sa.column('half', sa.String()), sa.column('offense', sa.String()),
        sa.column('defense', sa.String()), sa.column('bases', sa.String()),
        sa.column('dice', json_type), sa.column('cards', json_type),
        sa.column('challenge_side', sa.String()), sa.column('challenge_call', sa.String()),
        sa.column('challenge_result', sa.String()), sa.column('extras', json_type),
    )
    play = sa.table('pitch_play', *(sa.column(c) for c in (
        'game_id', 'seq', 'kind', 'position', 'side', 'offense', 'code', 'succeeded', 'result',
        'sb', 'cs')))
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(
            sa.select(pitch).where(pitch.c.id > last).order_by(pitch.c.id).limit(BATCH)
        ).mappings().all()
        if not rows:
            return
        last = rows[-1]['id']
        values: list[dict[str, Any]] = []
        for row in rows:
            record = dict(row)
            record.pop('id')
            for p in play_rows(record['game_id'], record['seq'], record):
                values.append({c.key: getattr(p, c.key) for c in play.columns})
        if values:
            bind.execute(play.insert(), values)


def downgrade() -> None:
    op.drop_index('ix_pitch_play_game_stats', table_name='pitch_play')
    op.drop_table('pitch_play')
