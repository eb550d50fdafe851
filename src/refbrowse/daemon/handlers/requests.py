"""`request N`: one request of the network log in full (see `services/requestdetail.py`)."""

from __future__ import annotations

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.services.requestdetail import default_body_path, describe
from refbrowse.errors import BrowseError


@handler("request")
async def request(call: Call) -> Reply:
    n: int = call.arg(0)
    session = call.session.name
    book = call.services.page_logs.requests
    held = book.get(session, n)
    if held is None:
        raise BrowseError(
            _missing(n, book.last(session), book.oldest(session)), "run `browse network` for the numbers"
        )
    policy = call.services.policy

    def body_path(part: str, ext: str) -> str:
        return policy.output_path(default_body_path(policy.roots[0], n, part, ext))

    detail = await describe(n, held, bool(call.flag("--secrets")), body_path)
    text = fence("\n".join(detail.lines), f"request #{n} of session {session}", call.raw)
    return Reply(text, {"n": n, "saved": detail.saved})


def _missing(n: int, last: int, oldest: int) -> str:
    if last == 0:
        return "no request has been logged in this session yet"
    if n > last:
        return f"no request #{n}: the newest is #{last}"
    return f"request #{n} is no longer held: only the newest ({oldest} to {last}) are"
