"""Pitch records, the one shape both games (which writes them) and stats (which reads them)
use: normalising them, and what a pitch and its cards did."""
