""""Play now": a queue per game kind and rating pool that pairs two waiting players by rating."""
