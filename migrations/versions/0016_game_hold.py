"""games.hold: what viewers see of a game while a pass folded into its last commit is held

A pass the server knows is certain (the side's only legal action) is applied and written in the
same statement as the command that made it certain, and shown only at its hidden ``pass_at``
(design note 1). Until then readers take the game's visible part from here: ``{"until", "seq",
"state", "deadlines", "side"}`` (``app.games.hold``); ``NULL`` when nothing is held.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(JSONB(), 'postgresql')


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('hold', JSON_, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('hold')
