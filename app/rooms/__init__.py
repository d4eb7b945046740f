"""Rooms (a table where games are played), their options and seats."""
