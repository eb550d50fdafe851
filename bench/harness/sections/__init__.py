"""One module per section of RESULTS.md; each exposes `run(ctx) -> dict`."""
