"""`confirm [ID]` and `deny ID`: the answers to actions the consent gate holds.

`confirm ID` runs the held command as it was, through dispatch (so it settles
and reports as it would have); the gate refuses it if its target moved.
`confirm` alone lists what is held.
"""

from __future__ import annotations

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.errors import StepFailed


@handler("confirm")
async def confirm(call: Call) -> str:
    gate = call.services.consent
    held_id = call.arg(0)
    if held_id is None:
        waiting = gate.waiting()
        lines = [f"[{h.id}] {h.said} ({', '.join(h.kinds)})" for h in waiting]
        text = "\n".join(lines) or "Nothing is held for consent"
        return Reply(text, {"held": [h.shown(gate.ttl_s) for h in waiting]})
    held, result = await gate.confirm(str(held_id), call.daemon.dispatch)
    said = f"Confirmed [{held.id}]: {held.said}"
    if not result["ok"]:
        raise StepFailed(
            f"{said}, and it failed: {result['error']}", str(result["hint"]), int(result["exit_code"]), said
        )
    return f"{said}\n{result['output']}".rstrip("\n")


@handler("deny")
async def deny(call: Call) -> str:
    held = call.services.consent.take(str(call.args[0]))
    return f"Denied [{held.id}]: {held.said} (it did not run)"
