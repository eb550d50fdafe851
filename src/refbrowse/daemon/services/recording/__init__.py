"""Recordings of a session: Playwright traces, Chrome performance profiles, videos, and the test script.

Each session records at most one of each kind at a time (`Recordings`); the
`trace`, `profile`, `video` and `record` commands start and stop them, and the
files they write go through the path policy like screenshots.
"""
