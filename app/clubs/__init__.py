"""Clubs: teams that last from game to game (roster, roles, invitations, record, rating).

Above ``games`` and ``rooms`` like ``stats``: a room may be club against club, and the club a
side played for is written with the game (``GameClub``) so a club's record and lines are plain
SQL over what games wrote.
"""
