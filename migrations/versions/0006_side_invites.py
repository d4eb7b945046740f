"""rooms.invites: one invitation token per side, the only way to join a started game's side

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('invites', JSON_, nullable=True))
    bind = op.get_bind()
    rooms = sa.table('rooms', sa.column('id', sa.String), sa.column('invites', JSON_))
    for (room_id,) in bind.execute(sa.select(rooms.c.id)).all():
        tokens = {side: secrets.token_urlsafe(12) for side in ('home', 'away')}
        bind.execute(rooms.update().where(rooms.c.id == room_id).values(invites=tokens))
    with op.batch_alter_table('rooms') as batch:
        batch.alter_column('invites', existing_type=JSON_, nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('invites')
