"""Test helpers: a small genuine engine, live servers on real sockets, scripted clients."""
