"""Pure rule engines. Nothing in this package may import web, database, asyncio or clock code.

Both games implement :class:`app.engines.interface.GameEngine`, so the server treats them alike.
"""
