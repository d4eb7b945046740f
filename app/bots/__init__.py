"""``bob bots``: headless clients that play whole games through the public protocol."""
