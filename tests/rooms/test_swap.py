"""A rematch swaps the sides: every member, the team names and colours, the invitations, and in
solo play the side the computer plays."""

from __future__ import annotations

from app.rooms.models import Room
from app.rooms.service import swap_sides
from app.seats.models import Seat


def test_swap_sides_moves_everything_that_belongs_to_a_team() -> None:
    room = Room(id="r", kind="base-on-board", options={"tier": "pro"}, timers={},
                created_by="a", invites={"home": "H-token", "away": "A-token"},
                teams={"home_name": "Tigers", "home_color": "#f80", "away_name": "Bears"})
    seats = [Seat(room_id="r", account_id="a", side="home"),
             Seat(room_id="r", account_id="b", side="home"),
             Seat(room_id="r", account_id="c", side="away")]
    swap_sides(room, seats)
    assert [s.side for s in seats] == ["away", "away", "home"]
    assert room.invites == {"away": "H-token", "home": "A-token"}
    assert room.teams == {"away_name": "Tigers", "away_color": "#f80", "home_name": "Bears"}
    assert room.options == {"tier": "pro"}


def test_swap_sides_in_solo_play_moves_the_computer_too() -> None:
    room = Room(id="r", kind="bottom-of-the-9th", options={"mode": "solo", "solo_side": "home"},
                timers={}, created_by="a", invites={}, teams={})
    seats = [Seat(room_id="r", account_id="a", side="home")]
    swap_sides(room, seats)
    assert seats[0].side == "away"
    assert room.options == {"mode": "solo", "solo_side": "away"}


def test_swap_sides_moves_the_clubs_too() -> None:
    room = Room(id="r", kind="base-on-board", options={}, timers={}, created_by="a",
                invites={}, teams={}, clubs={"home": "club-h"})
    swap_sides(room, [Seat(room_id="r", account_id="a", side="home")])
    assert room.clubs == {"away": "club-h"}
    swap_sides(room, [])
    assert room.clubs == {"home": "club-h"}
