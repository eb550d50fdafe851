"""What a command may touch: which files it writes or reads, which URLs a tab loads.

Every handler that takes a path or a URL from the caller asks this module
first, so a page that talks an agent into `screenshot ~/.bashrc` or `upload
.refbrowse/daemon.json` is refused in one place, with the way to allow it.

Files: output paths and the files commands read (`upload`, `eval`,
`cookie-import`) must lie in the workspace or the system
temp directory (after following every symlink), or in a folder allowed by
`--allow-path DIR` or `BROWSE_ALLOWED_PATHS` (os.pathsep-separated); never in
a state directory (this daemon's or any other's), which holds a daemon's token
and saved logins; and never in a folder of private keys or another browser's
profile (`~/.ssh`, `~/.gnupg`, …) unless `--allow-path` names that folder. The
checked path comes back resolved, and is opened through `nofollow`, so that a
symlink swapped in after the check is not followed.

URLs: `file://` is refused unless `--allow-file` or `BROWSE_ALLOW_FILE=1`, and
never inside the state directory. `BROWSE_ALLOWED_HOSTS` (comma-separated glob
patterns such as `*.example.com,127.0.0.1`) limits navigations and subresource
requests to those hosts.
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from refbrowse.daemon.core.io.nofollow import open_resolved, refuse_special
from refbrowse.errors import UsageError
from refbrowse.protocol import DAEMON_FILE, LIFE_LOCK, STATE_DIRNAME

ALLOW_PATH_FLAG = "--allow-path"
ALLOW_FILE_FLAG = "--allow-file"


class Refused(UsageError):
    """A path or URL outside what the policy allows; the hint says how to allow it."""


def _env_dirs(raw: str) -> tuple[str, ...]:
    return tuple(os.path.realpath(part) for part in raw.split(os.pathsep) if part.strip())


def _env_hosts(raw: str) -> tuple[str, ...]:
    return tuple(part.strip().lower() for part in raw.split(",") if part.strip())


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


# What only a daemon's state directory holds: a folder with these is one, whatever its name.
_STATE_MARKERS = (LIFE_LOCK, DAEMON_FILE)

# The files and folders that hold credentials: private keys, keyrings, tokens
# of command-line tools and other browsers' profiles (their cookies and saved
# passwords). No file of theirs goes to a page, or is written over, unless
# `--allow-path` names it. Each is known by its name wherever it lies (another
# user's home, a workspace that is a home folder), and under this user's home.
PRIVATE_PLACES = (
    ".ssh",
    ".gnupg",
    ".pki",
    ".password-store",
    ".local/share/keyrings",
    ".netrc",
    "_netrc",
    ".git-credentials",
    ".config/git/credentials",
    ".config/gh",
    ".config/hub",
    ".config/glab-cli",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".pgpass",
    ".my.cnf",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".gem/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".config/op",
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".config/github-copilot",
    ".mozilla",
    ".thunderbird",
    ".config/google-chrome",
    ".config/google-chrome-beta",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    ".config/opera",
    "snap/chromium",
    "snap/firefox",
    ".var/app",
    "Library/Keychains",
    "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox",
)
_PRIVATE_PARTS = tuple(tuple(place.split("/")) for place in PRIVATE_PLACES)


def state_dir_holding(real: str) -> str:
    """The refbrowse state directory `real` lies in (any workspace's), or ""."""
    probe = real
    while True:
        if os.path.basename(probe) == STATE_DIRNAME or all(
            os.path.lexists(os.path.join(probe, marker)) for marker in _STATE_MARKERS
        ):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return ""
        probe = parent


def private_folder_holding(real: str) -> str:
    """The credential file or folder (`PRIVATE_PLACES`) `real` is or lies in, or ""."""
    home = os.path.realpath(os.path.expanduser("~"))
    for name in PRIVATE_PLACES:
        place = os.path.join(home, name)
        if _inside(real, place):
            return place
    parts = real.split(os.sep)
    for i in range(len(parts)):
        for named in _PRIVATE_PARTS:
            if tuple(parts[i : i + len(named)]) == named:
                return os.sep.join(parts[: i + len(named)])
    return ""


@dataclass(frozen=True, slots=True)
class Policy:
    state_dir: str
    roots: tuple[str, ...]  # the workspace and the temp directory, symlinks resolved
    allowed_dirs: tuple[str, ...]
    allow_file: bool
    allowed_hosts: tuple[str, ...]

    @classmethod
    def from_env(cls, state_dir: str) -> Policy:
        state = os.path.realpath(state_dir)
        workspace = os.path.dirname(state)
        return cls(
            state_dir=state,
            roots=(workspace, os.path.realpath(tempfile.gettempdir())),
            allowed_dirs=_env_dirs(os.environ.get("BROWSE_ALLOWED_PATHS", "")),
            allow_file=os.environ.get("BROWSE_ALLOW_FILE", "") not in ("", "0"),
            allowed_hosts=_env_hosts(os.environ.get("BROWSE_ALLOWED_HOSTS", "")),
        )

    # files

    def output_path(self, path: str, allow: str | bool | None = None) -> str:
        """The resolved `path` if a command may write it; else `Refused` naming the way to allow it.

        Write to the path returned, through `write_new` or `open_new`: they
        follow no symlink, so what is written is what was checked.
        """
        return self._check_path(path, "write", allow)

    def input_path(self, path: str, allow: str | bool | None = None) -> str:
        """The resolved `path` if a command may read it (`upload`, `eval`, `cookie-import`).

        A FIFO or device is refused here, before anything could block on it.
        """
        real = self._check_path(path, "read", allow)
        refuse_special(path, real)
        return real

    def _check_path(self, path: str, verb: str, allow: str | bool | None) -> str:
        real = os.path.realpath(path)
        via = f" (a symlink to {real})" if real != os.path.abspath(path) else ""
        held = self.state_dir if _inside(real, self.state_dir) else state_dir_holding(real)
        if held:
            raise Refused(
                f"refusing to {verb} {path}{via}: it is in the state directory {held}, "
                "which holds a daemon's token and saved logins",
                "choose a path outside .refbrowse/ (no flag allows this one)",
            )
        named = _env_dirs(allow) if isinstance(allow, str) else ()
        self._check_private(path, real, verb, named)
        folders = self.roots + self.allowed_dirs + named
        if any(_inside(real, folder) for folder in folders):
            return real
        parent = os.path.dirname(real)
        raise Refused(
            f"refusing to {verb} {path}{via}: outside the workspace {self.roots[0]} "
            f"and the temp directory {self.roots[1]}",
            f"allow its folder with {ALLOW_PATH_FLAG} {parent} (or BROWSE_ALLOWED_PATHS={parent})",
        )

    @staticmethod
    def _check_private(path: str, real: str, verb: str, named: tuple[str, ...]) -> None:
        """Refuse a path in a folder of private keys unless this command's --allow-path names that folder."""
        private = private_folder_holding(real)
        if not private or any(_inside(folder, private) and _inside(real, folder) for folder in named):
            return
        raise Refused(
            f"refusing to {verb} {path}: {_in_private(real, private)}, which holds private keys, "
            "tokens or a browser's logins",
            f"if you mean it, name it for this command: {ALLOW_PATH_FLAG} {private}",
        )

    # URLs

    def checked_url(self, url: str, allow_file: bool) -> str:
        """`url` (already normalised by its kind) if it passes the policy (file://, allowed hosts)."""
        self.check_url(url, allow_file)
        return url

    def check_url(self, url: str, allow_file: bool = False) -> None:
        """Refuse a URL a tab must not load; `url` is already normalized (has a scheme)."""
        try:
            parts = urlsplit(url)
            host = parts.hostname or ""
        except ValueError as exc:  # e.g. "http://[z]": brackets that hold no IPv6 address
            raise Refused(
                f"not a valid URL: {url} ({exc})", "check the URL, e.g. http://localhost:3000/"
            ) from None
        scheme = parts.scheme.lower()
        if scheme == "file":
            self._check_file_url(url, unquote(parts.path), allow_file)
        elif scheme in ("http", "https", "ws", "wss") and not self.host_allowed(host):
            raise Refused(
                f"refusing to load {url}: {parts.hostname} is not in BROWSE_ALLOWED_HOSTS "
                f"({','.join(self.allowed_hosts)})",
                "add the host to BROWSE_ALLOWED_HOSTS (glob patterns, comma-separated) and restart",
            )

    def _check_file_url(self, url: str, path: str, allow_file: bool) -> None:
        if not (allow_file or self.allow_file):
            raise Refused(
                f"refusing to load {url}: file:// URLs are off by default (a page could read local files)",
                f"allow them for this command with {ALLOW_FILE_FLAG}, or for the daemon with "
                "BROWSE_ALLOW_FILE=1",
            )
        why = self.file_url_forbidden(path)
        if why:
            raise Refused(f"refusing to load {url}: {why}", "no flag allows this for a file:// URL")

    def url_refused(self, url: str) -> bool:
        """Whether the host policy refuses a request to `url` (as the context route and remote gate do)."""
        try:
            parts = urlsplit(url)
            return parts.scheme in ("http", "https", "ws", "wss") and not self.host_allowed(
                parts.hostname or ""
            )
        except ValueError:
            return True

    def file_url_forbidden(self, path: str) -> str:
        """Why no tab may show the file at `path` whatever was allowed (state, credentials), or ""."""
        real = os.path.realpath(path or "/")
        held = self.state_dir if _inside(real, self.state_dir) else state_dir_holding(real)
        if held:
            return f"it is in the state directory {held}, which holds a daemon's token and saved logins"
        private = private_folder_holding(real)
        if private:
            return f"{_in_private(real, private)}, which holds credentials"
        return ""

    def host_allowed(self, host: str) -> bool:
        if not self.allowed_hosts:
            return True
        host = host.lower().strip("[]")
        return any(fnmatch.fnmatchcase(host, pattern) for pattern in self.allowed_hosts)

    def host_regexes(self) -> list[str]:
        """The allowed host patterns as JavaScript regular expressions matching what `host_allowed` does."""
        return [glob_regex(pattern) for pattern in self.allowed_hosts]


def _in_private(real: str, private: str) -> str:
    return f"it is {private}" if real == private else f"it is in {private}"


def glob_regex(pattern: str) -> str:
    """An fnmatch pattern as the source of a JavaScript regular expression (anchored by its user).

    Written out rather than taken from `fnmatch.translate`, whose output uses
    Python-only syntax (atomic groups, `\\Z`).
    """
    out, i = [], 0
    while i < len(pattern):
        char, i = pattern[i], i + 1
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[" and (end := _bracket_end(pattern, i)) > 0:
            inner, i = pattern[i:end].replace("\\", "\\\\"), end + 1
            negated = inner.startswith("!")
            inner = inner[1:] if negated else inner
            inner = "\\" + inner if inner[:1] in ("]", "^", "[") else inner
            out.append(f"[{'^' if negated else ''}{inner}]")
        else:
            out.append(char if char.isalnum() else "\\" + char)
    return "".join(out)


def _bracket_end(pattern: str, start: int) -> int:
    """Where the `[...]` set opened just before `start` closes, as fnmatch reads it; -1 if it does not."""
    j = start + (pattern[start : start + 1] == "!")
    j += pattern[j : j + 1] == "]"
    return pattern.find("]", j)


def write_new(path: str, data: bytes) -> None:
    """Write `data` to the checked, resolved `path` (see `open_new`)."""
    with os.fdopen(open_new(path), "wb") as f:
        f.write(data)


def write_private(path: str, data: bytes) -> None:
    """`write_new`, readable by this user only: a recording holds what the session saw and sent."""
    with os.fdopen(open_private(path), "wb") as f:
        f.write(data)


def open_private(path: str) -> int:
    """`open_new`, the file readable by this user only (see `write_private`); for writing in parts."""
    fd = open_resolved(os.path.abspath(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600, make_parents=True)
    os.fchmod(fd, 0o600)  # a file that was there keeps its mode through O_TRUNC
    return fd


def open_new(path: str) -> int:
    """A descriptor to write the checked, resolved `path`, created or truncated, its folders made.

    No symlink is followed anywhere on the way, and a FIFO or device is refused:
    what is written is what the policy checked.
    """
    return open_resolved(os.path.abspath(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, make_parents=True)
