"""Two clubs of two people play a Base on Board game over real sockets, every member acting for
its side; the club page's record, rating and lines then equal a count made by hand from the
game's ``pitch`` rows."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.client import open_socket
from app.games.models import Command, Pitch, PitchPlay
from app.stats.boxscore import HITS, NOT_AT_BAT, STRIKEOUTS
from app.stats.players import PlayerGame, player_stats
from tests.clubs.helpers import add_member, auth, club_table, in_db, make_club, register
from tests.conftest import real_engines
from tests.support.live import LiveServer
from tests.support.table import Client

POOL = "base-on-board:lite"


async def rows_of(url: str, game_id: str) -> tuple[list[Pitch], list[PitchPlay], list[Command]]:
    async def read(db: AsyncSession) -> Any:
        pitches = list(await db.scalars(select(Pitch).where(Pitch.game_id == game_id)))
        plays = list(await db.scalars(select(PitchPlay).where(PitchPlay.game_id == game_id)))
        commands = list(await db.scalars(select(Command).where(Command.game_id == game_id)))
        return pitches, plays, commands
    return tuple(await in_db(url, read))  # type: ignore[return-value]


def hand_count(pitches: list[Pitch], plays: list[PitchPlay], side: str) -> dict[str, int]:
    """The batting line of ``side`` counted from the rows one by one."""
    line = dict.fromkeys(("PA", "AB", "H", "2B", "3B", "HR", "BB", "K", "SB", "R"), 0)
    for p in pitches:
        if p.offense != side:
            continue
        line["R"] += p.runs
        if p.pa_result is None:
            continue
        line["PA"] += 1
        line["AB"] += p.pa_result not in NOT_AT_BAT
        line["H"] += p.pa_result in HITS
        line["2B"] += p.pa_result == "2B"
        line["3B"] += p.pa_result == "3B"
        line["HR"] += p.pa_result == "HR"
        line["BB"] += p.pa_result == "BB"
        line["K"] += p.pa_result in STRIKEOUTS
    line["SB"] = sum(play.sb for play in plays if play.offense == side)
    return line


async def newest(client: Client) -> dict[str, Any]:
    """The newest state this socket has received by now (everything waiting is read)."""
    with contextlib.suppress(TimeoutError):
        while True:
            await client.next(timeout=0.02)
    return next(m for m in reversed(client.log) if m["type"] in ("state", "snapshot"))


async def play_taking_turns(seats: dict[str, list[Client]], limit: int = 20000) -> None:
    """Plays the game out, the members of each side taking turns: each step, the next member
    of the side to move acts for it with its first legal action. A step that lost a race with
    the server's own timers (an automatic pass) is simply taken again."""
    for turn in range(limit):
        states = {side: await newest(members[turn % 2]) for side, members in seats.items()}
        if any(state["game"]["status"] != "live" for state in states.values()):
            return
        mover = next((side for side, state in states.items() if state["legal_actions"]), None)
        if mover is None:
            await asyncio.sleep(0.02)
            continue
        client = seats[mover][turn % 2]
        command = uuid.uuid4().hex
        await client.send({"type": "action", "id": command,
                           "action": states[mover]["legal_actions"][0]})
        reply = await client.next(
            lambda m, sent=command: m["type"] in ("ack", "error") and m.get("id") == sent)
        if reply.get("code") == "roll_rate":
            await asyncio.sleep(0.3)
    raise AssertionError("game did not end")


async def test_two_clubs_of_two_play_and_the_club_page_counts_it(live: LiveServer) -> None:
    if "base-on-board" not in real_engines():
        pytest.skip("base-on-board engine not importable")
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        people = {side: [await register(http, side[0]), await register(http, side[0])]
                  for side in ("home", "away")}
        clubs = {}
        for side, (owner, mate) in people.items():
            clubs[side] = await make_club(http, owner)
            await add_member(http, clubs[side], owner, mate)
    table = await club_table(live.url, people["home"][0], people["away"][0],
                             {s: c["id"] for s, c in clubs.items()}, "base-on-board",
                             {"innings": 3, "tier": "lite"}, {"auto_pass_ms": 0})
    mates: list[Client] = []
    try:
        http = table.http
        for side in ("home", "away"):
            mate = people[side][1]
            invite = await table.invite(side)
            joined = await http.post(f"/api/rooms/{table.room_id}/join",
                                     json={"side": side, "invite": invite}, headers=auth(mate))
            assert joined.status_code == 200, joined.text
            ws, welcome = await open_socket(live.url, table.room_id, mate["token"])
            assert welcome["side"] == side
            mates.append(Client(ws, welcome))
        seats = {side: [table.client(side), mates[i]] for i, side in enumerate(("home", "away"))}
        await play_taking_turns(seats)
        await table.spectators[0].next(
            lambda m: m["type"] == "state" and m["game"]["status"] != "live")

        pitches, plays, commands = await rows_of(live.database_url, table.game_id)
        for side in ("home", "away"):
            actors = {c.actor for c in commands if c.side == side}
            assert {p["account"]["id"] for p in people[side]} <= actors, side

        summary = (await http.get(f"/api/games/{table.game_id}")).json()
        winner = summary["result"].get("winner")
        records = (await http.get(f"/api/games/{table.game_id}/pitches")).json()
        for side, club in clubs.items():
            page = (await http.get(f"/api/clubs/{club['code']}")).json()
            assert {m["name"]: m["role"] for m in page["members"]} == {
                people[side][0]["account"]["name"]: "owner",
                people[side][1]["account"]["name"]: "member"}
            lines = page["pools"][POOL]
            by_hand = hand_count(pitches, plays, side)
            assert {k: lines["batting"][k] for k in by_hand if k != "R"} == {
                k: v for k, v in by_hand.items() if k != "R"}
            assert lines["runs_for"] == by_hand["R"] == summary["result"]["score"][side]
            other = "away" if side == "home" else "home"
            assert lines["runs_against"] == summary["result"]["score"][other]
            assert lines["pitching"]["H"] == hand_count(pitches, plays, other)["H"]
            # The whole lines, as the player pages' pure functions count them.
            pure = player_stats([PlayerGame(records, side, "finished", winner)]).to_json()
            assert lines["batting"] == pure["batting"]
            assert lines["pitching"] == pure["pitching"]
            assert (lines["wins"], lines["ties"], lines["games"]) == (
                int(winner == side), int(winner is None), 1)
            assert lines["rating"]["games"] == 1
            assert page["record"]["games"] == 1
            assert page["recent"][0]["game_id"] == table.game_id
    finally:
        for client in mates:
            await client.close()
        await table.close()
