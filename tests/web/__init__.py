"""Browser tests: the client in static/ driven through Debian's Chromium with playwright."""
