"""rooms.computer and games.computer: the computer's seat ({"side", "level"}) for every game kind

Solo play was a Bottom of the 9th option (``mode: solo``); the computer now plays Base on Board
too, at a chosen level, so the seat is the server's, not an engine option. Existing solo rooms
and games get the seat their options imply, at level ``normal``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def _seat(options: dict | None) -> dict | None:
    if not options or options.get('mode') != 'solo':
        return None
    human = 'away' if options.get('solo_side') == 'away' else 'home'
    return {'side': 'home' if human == 'away' else 'away', 'level': 'normal'}


def upgrade() -> None:
    bind = op.get_bind()
    for name in ('rooms', 'games'):
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column('computer', JSON_, nullable=True))
        table = sa.table(name, sa.column('id', sa.String), sa.column('options', JSON_),
                         sa.column('computer', JSON_))
        for row_id, options in bind.execute(sa.select(table.c.id, table.c.options)).all():
            seat = _seat(options)
            if seat is not None:
                bind.execute(table.update().where(table.c.id == row_id).values(computer=seat))


def downgrade() -> None:
    for name in ('games', 'rooms'):
        with op.batch_alter_table(name) as batch:
            batch.drop_column('computer')
