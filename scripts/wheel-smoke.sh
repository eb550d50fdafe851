#!/bin/sh
# A wheel installed into a fresh venv outside any clone, then used as a new user
# would (scripts/wheel_smoke.py): as the current user and, when run as root on a
# machine with useradd and runuser (CI), as a new non-root user too.
#   sh scripts/wheel-smoke.sh [WHEEL]   (no WHEEL: build one from this clone)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python=$(command -v "${PYTHON:-python3}")
work=$(mktemp -d /tmp/refbrowse-smoke.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

if [ $# -gt 0 ]; then
    wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
    echo "== $(date +%T) building the wheel"
    "$python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/dist" "$here/.."
    wheel=$(ls "$work"/dist/refbrowse-*.whl)
fi
# The wheel and every dependency, once, so that each install below is offline and alike.
echo "== $(date +%T) collecting $(basename "$wheel") and its dependencies"
"$python" -m pip wheel -q --disable-pip-version-check -w "$work/wheels" "$wheel"
cp "$here/wheel_smoke.py" "$work/"
chmod -R a+rX "$work/wheels" "$work/wheel_smoke.py"

# As whoever runs this: a venv, a home, a temp folder and a project folder of their own under $2.
smoke_as() {
    user=$1
    home=$2
    as=""
    user_python=$python
    if [ "$user" != "$(id -un)" ]; then
        as="runuser -u $user --"
        # root's own Python may live where the user cannot read (/root/.pyenv): the system's then.
        $as "$python" -c "" 2>/dev/null || user_python=$(PATH=/usr/local/bin:/usr/bin:/bin command -v python3)
    fi
    run="$as env -u BROWSE_STATE_DIR -u DISPLAY HOME=$home TMPDIR=$home/tmp"
    $run mkdir -p "$home/tmp" "$home/project"
    echo "== $(date +%T) as $user ($($run "$user_python" --version)): a fresh venv in $home/venv, a project in $home/project"
    $run "$user_python" -m venv "$home/venv"
    $run "$home/venv/bin/pip" install -q --disable-pip-version-check --no-index \
        --find-links "$work/wheels" refbrowse
    echo "== $(date +%T) installed; using it"
    (cd "$home/project" && $run "$home/venv/bin/python" "$work/wheel_smoke.py")
}

mkdir -p "$work/me"
smoke_as "$(id -un)" "$work/me"

if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null && command -v runuser >/dev/null; then
    user=refbrowse-smoke
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh "$user"
    install -d -o "$user" -m 700 "$work/user"
    smoke_as "$user" "$work/user"
else
    echo "== as a non-root user: skipped (not root, or no useradd/runuser here)"
fi
