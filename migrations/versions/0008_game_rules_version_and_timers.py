"""games.rules_version (the rules a game started under) and games.timers (copied from its room)

A game now carries what the command path needs of it: the engine's rules version, so a game is
never carried on under rules it did not start with, and its timers, so a command never reads
the room (``games`` does not depend on ``rooms``). Existing games are of rules version 1 (the
only one so far) and take their room's timers, which were fixed when the room was created.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('rules_version', sa.String(length=16), nullable=False,
                                   server_default='1'))
        batch.add_column(sa.Column('timers', JSON_, nullable=True))
    games = sa.table('games', sa.column('room_id', sa.String), sa.column('timers', JSON_))
    rooms = sa.table('rooms', sa.column('id', sa.String), sa.column('timers', JSON_))
    op.get_bind().execute(games.update().values(
        timers=sa.select(rooms.c.timers).where(rooms.c.id == games.c.room_id).scalar_subquery()
    ))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('timers')
        batch.drop_column('rules_version')
