"""DevTools: the kept per-page session, the daemon's own connection to a remote browser, the page scripts."""
