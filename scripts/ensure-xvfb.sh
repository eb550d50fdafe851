#!/bin/sh
# X tools for headed mode and its tests: Xvfb (a display where there is none),
# xdotool (raise the window) and ImageMagick's import (a shot of the real screen).
# Installed from Debian when apt is there and we are root; otherwise the headed
# tests skip and say why.
if command -v Xvfb >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1 && command -v import >/dev/null 2>&1; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "installing Xvfb, xdotool and ImageMagick for headed mode (about 20 s)…"
    apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            xvfb xdotool imagemagick >/dev/null && exit 0
fi
echo "no Xvfb, xdotool or ImageMagick here: the headed tests will skip" >&2
if command -v apt-get >/dev/null 2>&1; then
    echo "run: sudo apt-get install -y --no-install-recommends xvfb xdotool imagemagick" >&2
fi
exit 0
