#!/bin/sh
# The main job on the demo page that ships with refbrowse: load it (goto
# prints the page's refs), read it, then sign up the way an agent does: fill
# and click by @ref, and read what the click did from its own report. The page is a local file, so
# `goto` says it may load one (`--allow-file`): file:// is off by default.
set -e
bin="$1"
browse="$bin/browse"
page=$("$bin/python" -m refbrowse.demo)

# Print a command as it can be pasted: a word with spaces or quotes is quoted.
step() {
    line=""
    for word in "$@"; do
        case "$word" in
            "" | *[!A-Za-z0-9@._/:=+,-]*) word="'$(printf '%s' "$word" | sed "s/'/'\\\\''/g")'" ;;
        esac
        line="$line $word"
    done
    printf '\n$ browse%s\n' "$line"
    "$browse" "$@"
}

# The @ref on the line of the snapshot that shows ROLE "NAME".
ref_of() {
    found=$("$browse" --raw snapshot -i | grep -F -- "- $1 \"$2\" @" | grep -o '@e[0-9]*' | head -n 1)
    if [ -z "$found" ]; then
        echo "demo: no $1 \"$2\" in the snapshot" >&2
        exit 1
    fi
    echo "$found"
}

step goto --allow-file "$page"
step text
step forms
step links
step tabs
team=$(ref_of textbox "Team name")
email=$(ref_of textbox "Work email")
plan=$(ref_of combobox "Plan")
terms=$(ref_of checkbox "I accept the terms of service")
create=$(ref_of button "Create team")
step fill "$team" "Rocket Lab"
step fill "$email" "ada@rocket.example"
step select "$plan" "Enterprise"
step check "$terms"
step click "$create"
step text "#welcome-text"
printf '\nThe browser stays up for the next command: try %s status, %s stop ends it.\n' "$browse" "$browse"
