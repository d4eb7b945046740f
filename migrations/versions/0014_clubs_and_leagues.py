"""clubs, club_members, club_invites, game_clubs, club_ratings, rooms.clubs; leagues,
league_entrants, league_games

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_ = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        'clubs',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=32), nullable=False),
        sa.Column('name_key', sa.String(length=32), nullable=False),
        sa.Column('code', sa.String(length=4), nullable=False),
        sa.Column('colors', JSON_, nullable=False),
        sa.Column('created_by', sa.String(length=32), nullable=False),
        sa.Column('created_at', TS, nullable=False),
        sa.ForeignKeyConstraint(['created_by'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name'),
        sa.UniqueConstraint('name_key'),
        sa.UniqueConstraint('code'),
    )
    op.create_table(
        'club_members',
        sa.Column('club_id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('joined_at', TS, nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('club_id', 'account_id'),
    )
    op.create_index('ix_club_members_account', 'club_members', ['account_id'])
    op.create_table(
        'club_invites',
        sa.Column('club_id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('invited_by', sa.String(length=32), nullable=False),
        sa.Column('created_at', TS, nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['invited_by'], ['accounts.id']),
        sa.PrimaryKeyConstraint('club_id', 'account_id'),
    )
    op.create_index('ix_club_invites_account', 'club_invites', ['account_id'])
    op.create_table(
        'game_clubs',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('side', sa.String(length=8), nullable=False),
        sa.Column('club_id', sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'side'),
    )
    op.create_index('ix_game_clubs_club', 'game_clubs', ['club_id'])
    op.create_table(
        'club_ratings',
        sa.Column('club_id', sa.String(length=32), nullable=False),
        sa.Column('pool', sa.String(length=48), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('last_played', TS, nullable=True),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('club_id', 'pool'),
    )
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('clubs', JSON_, nullable=True))

    op.create_table(
        'leagues',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=48), nullable=False),
        sa.Column('name_key', sa.String(length=48), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('options', JSON_, nullable=False),
        sa.Column('entrant_type', sa.String(length=8), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('deadline_hours', sa.Integer(), nullable=False),
        sa.Column('knockout', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('created_by', sa.String(length=32), nullable=False),
        sa.Column('created_at', TS, nullable=False),
        sa.Column('started_at', TS, nullable=True),
        sa.ForeignKeyConstraint(['created_by'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name_key'),
    )
    op.create_table(
        'league_entrants',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('league_id', sa.String(length=32), nullable=False),
        sa.Column('club_id', sa.String(length=32), nullable=True),
        sa.Column('account_id', sa.String(length=32), nullable=True),
        sa.Column('joined_at', TS, nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'club_id', name='uq_league_entrants_club'),
        sa.UniqueConstraint('league_id', 'account_id', name='uq_league_entrants_account'),
    )
    op.create_table(
        'league_games',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('league_id', sa.String(length=32), nullable=False),
        sa.Column('stage', sa.String(length=12), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('home_entrant', sa.Integer(), nullable=False),
        sa.Column('away_entrant', sa.Integer(), nullable=False),
        sa.Column('opens_at', TS, nullable=True),
        sa.Column('deadline_at', TS, nullable=True),
        sa.Column('room_id', sa.String(length=32), nullable=True),
        sa.Column('game_id', sa.String(length=32), nullable=True),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('home_runs', sa.Integer(), nullable=True),
        sa.Column('away_runs', sa.Integer(), nullable=True),
        sa.Column('winner_entrant', sa.Integer(), nullable=True),
        sa.Column('decided_by', sa.String(length=16), nullable=True),
        sa.Column('finished_at', TS, nullable=True),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['home_entrant'], ['league_entrants.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['away_entrant'], ['league_entrants.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['winner_entrant'], ['league_entrants.id']),
        sa.ForeignKeyConstraint(['room_id'], ['rooms.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_league_games_league', 'league_games', ['league_id', 'stage', 'round'])
    op.create_index('ix_league_games_room', 'league_games', ['room_id'])
    op.create_index('ix_league_games_deadline', 'league_games', ['status', 'deadline_at'])


def downgrade() -> None:
    op.drop_table('league_games')
    op.drop_table('league_entrants')
    op.drop_table('leagues')
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('clubs')
    op.drop_table('club_ratings')
    op.drop_table('game_clubs')
    op.drop_table('club_invites')
    op.drop_table('club_members')
    op.drop_table('clubs')
