"""What the daemon knows of a page: selectors and refs resolved, probes and page work, popups, snapshots.

Imports only `core`. The scripts it runs in pages are `.js` files in `page/js/`.
"""
