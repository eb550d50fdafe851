"""`audit [SEL] [--tags T]`: an accessibility audit of the page by axe-core (see `services/audit.py`)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import ElementHandle

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.page.resolver import resolve_one
from refbrowse.daemon.services.audit import IMPACTS, Audit, Rule, axe_version, run_audit

HTML_CHARS = 100  # an element's markup, as a reminder of which one it is


@handler("audit")
async def audit(call: Call) -> Reply:
    tags = _tags(call.flag("--tags"))
    scope = await _scope(call, call.arg(0))
    try:
        found = await run_audit(call.services.cdp, call.tab, scope, tags, call.nav_timeout_ms)
    finally:
        if scope is not None:
            await scope.dispose()
    where = call.page.url + (f" inside {call.arg(0)}" if call.arg(0) else "")
    text = fence(render(found, where, tags), f"the audit of {call.page.url}", call.raw)
    return Reply(text, _data(found))


def _tags(raw: str | None) -> list[str]:
    if raw is None:
        return []
    # Only commas: kept whole, so axe-core's check names it as the tag it does not know.
    return [tag.strip() for tag in raw.split(",") if tag.strip()] or [raw]


async def _scope(call: Call, selector: str | None) -> ElementHandle | None:
    if selector is None:
        return None
    locator = await resolve_one(call.tab, selector)
    return await locator.element_handle(timeout=call.action_timeout_ms)


def render(found: Audit, where: str, tags: list[str]) -> str:
    rules = f"rules tagged {','.join(tags)}" if tags else "axe's default rules"
    engine = f"axe-core {axe_version()}, {rules}"
    counts = found.counts()
    total = sum(counts.values())
    where += f" and {_many(found.frames, 'frame')} in it" if found.frames else ""
    if not found.rules:
        return "\n".join(
            [f"No violations on {where} ({engine}; {found.passed} rules passed).", *_unaudited(found)]
        )
    said = ", ".join(f"{counts[i]} {i}" for i in IMPACTS if counts[i])
    head = f"{_many(total, 'violation')} of {_many(len(found.rules), 'rule')} on {where} ({said}; {engine}):"
    return "\n".join(
        [head, *(line for rule in found.rules for line in _rule_lines(rule)), *_unaudited(found)]
    )


def _unaudited(found: Audit) -> list[str]:
    lines = [f"frame not audited: {why}" for why in found.skipped]
    if found.left_out:
        lines.append(f"{_many(found.left_out, 'more frame')} not audited (the first {found.frames} were)")
    return lines


def _many(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _rule_lines(rule: Rule) -> list[str]:
    lines = [f"{rule.impact} {rule.id}: {rule.help} ({_many(rule.count, 'element')}) {rule.url}"]
    for finding in rule.findings:
        who = finding.ref.describe() or "(no ref)"
        who += f" (frame {finding.frame})" if finding.frame else ""
        html = " ".join(finding.html.split())
        html = html if len(html) <= HTML_CHARS else html[: HTML_CHARS - 1] + "…"
        lines.append(f"  {who}: {finding.why} {html}".rstrip())
    if rule.count > len(rule.findings):
        lines.append(f"  … and {rule.count - len(rule.findings)} more")
    return lines


def _data(found: Audit) -> dict[str, Any]:
    return {
        "counts": found.counts(),
        "passed": found.passed,
        "frames": found.frames,
        "frames_not_audited": [*found.skipped, *([f"{found.left_out} more"] if found.left_out else [])],
        "rules": [
            {
                "id": r.id,
                "impact": r.impact,
                "help": r.help,
                "url": r.url,
                "count": r.count,
                "elements": [
                    {"ref": f.ref.ref, "exact": f.ref.exact, "html": f.html, "why": f.why, "frame": f.frame}
                    for f in r.findings
                ],
            }
            for r in found.rules
        ],
    }
