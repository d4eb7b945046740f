"""Leagues: seasons of scheduled games between clubs (or single players), standings, leaders."""
