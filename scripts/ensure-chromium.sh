#!/bin/sh
# Find a Chromium for refbrowse; install Debian's when apt is there and we are root.
python="$1"
if "$python" -m refbrowse.daemon.chromium >/dev/null 2>&1; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "no Chromium found: installing Debian's chromium (about 30 s)…"
    apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            chromium fonts-liberation >/dev/null &&
        "$python" -m refbrowse.daemon.chromium >/dev/null && exit 0
fi
"$python" -m refbrowse.daemon.chromium
if command -v apt-get >/dev/null 2>&1; then
    echo "run: sudo apt-get install -y --no-install-recommends chromium fonts-liberation" >&2
fi
exit 1
