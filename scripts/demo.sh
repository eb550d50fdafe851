#!/bin/sh
# The main job on the demo page that ships with refbrowse: load it, read it.
set -e
bin="$1"
browse="$bin/browse"
page=$("$bin/python" -m refbrowse.demo)

step() {
    printf '\n$ browse %s\n' "$*"
    "$browse" "$@"
}

step goto "$page"
step text
step forms
step links
step tabs
printf '\nThe browser stays up for the next command: try %s status, %s stop ends it.\n' "$browse" "$browse"
