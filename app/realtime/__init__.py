"""The WebSocket side: connections, per-viewer fan-out, rate limits."""
