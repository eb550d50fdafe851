"""The browser and its driver: found, launched or reached, watched, revived, switched.

Playwright's errors are mapped to ours here too (`pwerrors`).
"""
