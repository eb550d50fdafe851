"""`cookie-import-browser` in one place: pick a profile, read it, say what happened."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from refbrowse.daemon.services.cookies import chromium, firefox
from refbrowse.daemon.services.cookies.model import Cookie, plural
from refbrowse.daemon.services.cookies.profiles import BROWSERS, pick, profiles, roots


@dataclass(frozen=True, slots=True)
class Found:
    browser: str
    profile: str
    cookies: list[Cookie]
    failures: Counter[str] = field(default_factory=Counter)

    def report(self, imported: int, domain: str | None) -> str:
        scope = f" for {domain}" if domain else ""
        lines = [f"Imported {plural(imported, 'cookie')}{scope} from {self.browser} (profile {self.profile})"]
        if imported == 0 and domain:
            lines[0] += f": none of its {plural(len(self.cookies), 'cookie')} belong to {domain}"
        failed = sum(self.failures.values())
        if failed:
            lines.append(f"{failed} could not be decrypted (not imported):")
            lines += [f"  {count} × {why}" for why, count in self.failures.most_common()]
        return "\n".join(lines)


def read_cookies(browser_key: str | None, profile: str | None) -> Found:
    browser, chosen = pick(browser_key, profile)
    if browser.family == "firefox":
        return Found(browser.title, chosen.name, firefox.read(chosen.cookie_db))
    cookies, failures = chromium.read(browser, chosen.cookie_db)
    return Found(browser.title, chosen.name, cookies, failures)


def describe_installed() -> str:
    lines = []
    for browser in BROWSERS:
        found = profiles(browser)
        if found:
            names = ", ".join(p.name for p in found)
            lines.append(f"{browser.key}: {names}  ({found[0].cookie_db.parent.parent})")
    if not lines:
        where = ", ".join(str(r) for b in BROWSERS for r in roots(b))
        return f"No browser profiles with cookies found (looked in {where})"
    return "\n".join(lines)
