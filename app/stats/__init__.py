"""Pure statistics over pitch records: no database, no web.

Every function takes plain records (the ``pitch`` event's ``data``, or rows of the ``pitch``
table as dicts; see :mod:`app.records.shape`) and returns dataclasses with ``to_json()`` or
plain dicts.

- :mod:`app.stats.boxscore`: line score and box score, and the scoring conventions.
- :mod:`app.stats.cards`: how often a side played each card and how often it worked (what each
  card and challenge did, and SB / CS, are :mod:`app.records.plays`).
- :mod:`app.stats.playbyplay`: play-by-play in Korean and English.
- :mod:`app.stats.replay`: the state after any pitch, and the JSON export of a game.
- :mod:`app.stats.ratings`: openskill ratings, provisional rule, leaderboard, rebuild.
- :mod:`app.stats.players`: one account's stats over its games.
- :mod:`app.stats.analysis`: dice fairness, run expectancy, win probability, card value.
"""
