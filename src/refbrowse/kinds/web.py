"""Values of the web: URLs, a remote browser's address, HTTP headers, time zones, language tags."""

from __future__ import annotations

from refbrowse.errors import UsageError

LOADABLE_SCHEMES = ("http", "https", "file", "about", "data")
NEVER_HOSTS = ("javascript", "chrome", "devtools", "view-source", "chrome-extension", "data", "file")


def url(value: str, label: str) -> str:
    """A loadable URL: known schemes pass, a bare host gets https (http when local)."""
    text = value.strip()
    if not text:
        raise UsageError(f"{label} takes a URL, got nothing", "for example: https://example.com/")
    scheme, colon, rest = text.partition(":")
    scheme = scheme.lower()
    is_scheme = (
        bool(colon)
        and scheme[:1].isalpha()
        and scheme.replace("+", "").replace(".", "").replace("-", "").isalnum()
    )
    # "localhost:3000" is a host and port, not a scheme; "javascript:1" is never a host.
    if is_scheme and (scheme in NEVER_HOSTS or not rest[:1].isdigit()):
        if scheme not in LOADABLE_SCHEMES:
            raise UsageError(
                f"cannot load {scheme}: URLs", f"{label} takes {', '.join(LOADABLE_SCHEMES)} URLs"
            )
        return text
    return ("http://" if _is_local(text) else "https://") + text


def _is_local(url: str) -> bool:
    if url.startswith("[::1]"):
        return True
    host = url
    for stop in ":/?#":
        host = host.partition(stop)[0]
    dotted = host.replace(".", "")
    local = ("localhost", "0.0.0.0")  # noqa: S104 - names compared, nothing bound
    return host in local or (host.startswith("127.") and dotted.isdigit())


def endpoint(value: str, label: str) -> str:
    if not value.startswith(("http://", "https://", "ws://", "wss://")) or value[-3:] == "://":
        raise UsageError(
            f"{label} takes a DevTools address, got {value!r}", "for example: http://127.0.0.1:9222 or ws://…"
        )
    return value


# A header name is an RFC 9110 token: these characters and letters and digits.
_TOKEN_MARKS = "!#$%&'*+-.^_`|~"  # noqa: S105 - characters, not a secret


def header_name(value: str, label: str) -> str:
    if not value or not all(c.isalnum() or c in _TOKEN_MARKS for c in value):
        raise UsageError(f"{label}: {value!r} is not a header name", "give NAME and VALUE as two words")
    return value


def header(value: str, label: str) -> tuple[str, str]:
    name, colon, rest = value.partition(":")
    name = name.strip()
    if not colon or not name or not all(c.isalnum() or c in _TOKEN_MARKS for c in name):
        raise UsageError(
            f"{label} takes NAME:VALUE with a header name before the colon, got {value!r}",
            "for example: --header 'Cache-Control: no-store'",
        )
    if "\n" in rest or "\r" in rest:
        raise UsageError(f"{label}: a header value cannot hold a line break", "give the value on one line")
    return name, rest.strip()


def timezone(value: str, label: str) -> str:
    if value.lower() == "off":
        return "off"
    import zoneinfo  # only for this kind: not on any other command's path

    try:
        zoneinfo.ZoneInfo(value)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        if not zoneinfo.available_timezones():
            return value  # no time zone database here to check against: the browser checks it
        raise UsageError(
            f"{label}: {value!r} is not a time zone name", "for example: Europe/Paris, America/New_York, UTC"
        ) from None
    return value


def locale(value: str, label: str) -> str:
    if value.lower() == "off":
        return "off"
    parts = value.replace("_", "-").split("-")
    if not (parts[0].isalpha() and 2 <= len(parts[0]) <= 3 and all(p.isalnum() and p for p in parts)):
        raise UsageError(f"{label}: {value!r} is not a language tag", "for example: de-DE, fr, pt-BR")
    return "-".join(parts)
