"""Snapshots: Playwright's ai snapshot → parsed tree → refs → the text an agent reads.

`service.take_snapshot` is the one way to snapshot a page; `render.render` turns the
result into text; `triage` says what kind of page it is and what blocks it.
"""
