"""pitch: Bottom of the 9th columns (stare-down reads, fatigue rows, race winner) for all-time
SQL player stats

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ('direction_read', 'location_read', 'fatigue_direction', 'fatigue_location',
           'race_winner')
BATCH = 2000


def upgrade() -> None:
    with op.batch_alter_table('pitch') as batch:
        batch.add_column(sa.Column('direction_read', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('location_read', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('fatigue_direction', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('fatigue_location', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('race_winner', sa.String(length=8), nullable=True))
    _backfill()


def _backfill() -> None:
    """The columns of the pitches already stored, from their ``extras`` (``stare``, ``race``),
    computed as the command path now writes them."""
    from app.games.pitches import ninth_columns  # the same function ``pitch_row`` calls

    pitch = sa.table(
        'pitch', sa.column('id', sa.Integer()), sa.column('kind', sa.String()),
        sa.column('extras', sa.JSON()), *(sa.column(c) for c in COLUMNS),
    )
    update = (
        pitch.update().where(pitch.c.id == sa.bindparam('_id'))
        .values({c: sa.bindparam(c) for c in COLUMNS})
    )
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(
            sa.select(pitch.c.id, pitch.c.extras)
            .where(pitch.c.id > last, pitch.c.kind == 'bottom-of-the-9th')
            .order_by(pitch.c.id).limit(BATCH)
        ).all()
        if not rows:
            return
        last = rows[-1].id
        values = [
            {'_id': row.id, **ninth_columns({'extras': row.extras or {}})} for row in rows
        ]
        bind.execute(update, values)


def downgrade() -> None:
    with op.batch_alter_table('pitch') as batch:
        for column in reversed(COLUMNS):
            batch.drop_column(column)
