"""`chain`: a JSON array of commands from stdin, run in order in one request.

Each step is parsed as the CLI parses argv (same registry checks and flags),
then run through `daemon.dispatch`, which takes the tab's lock for that step.
That is why the registry marks `chain` as nested: the daemon does not hold
the lock for the chain itself. The first failing step stops the chain; the
chain fails with that step's exit code, after the output of the steps before.
"""

from __future__ import annotations

import json
from typing import Any

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.errors import StepFailed, UsageError
from refbrowse.parse import parse_argv
from refbrowse.registry import COMMANDS

EXAMPLE = 'echo \'[["goto","http://localhost:3000/"],["snapshot","-i"]]\' | browse chain'


def parse_steps(text: str | None) -> list[list[str]]:
    try:
        steps = json.loads(text or "")
    except ValueError as exc:
        raise UsageError(f"chain input is not JSON: {exc}", f"for example: {EXAMPLE}") from exc
    if not isinstance(steps, list) or not steps:
        raise UsageError("chain takes a non-empty JSON array of commands", f"for example: {EXAMPLE}")
    for number, step in enumerate(steps, 1):
        if not isinstance(step, list) or not step or not all(isinstance(w, (str, int, float)) for w in step):
            raise UsageError(
                f"step {number} is not a list of words: {json.dumps(step)}",
                'each step is like ["click", "@e3"]',
            )
    return [[str(word) for word in step] for step in steps]


def request_for(call: Call, number: int, words: list[str]) -> CheckedRequest:
    """The request a CLI would send for `words`, in the chain's session and output mode."""
    name = words[0]
    spec = COMMANDS.get(name)
    if spec is not None and (spec.get("local") or spec.get("nested") or spec.get("stdin")):
        raise UsageError(f"step {number}: {name} cannot run inside a chain", "run it on its own")
    try:
        request: dict[str, Any] = dict(parse_argv(words))
    except UsageError as exc:
        raise UsageError(f"step {number} ({' '.join(words)}): {exc.message}", exc.hint) from exc
    # A step's own --raw or --session wins over the chain's.
    request.update(
        raw=request["raw"] or call.raw,
        json=request["json"] or call.json,
        session=request["session"] or call.session.name,
    )
    return CheckedRequest.from_body(request)


@handler("chain")
async def chain(call: Call) -> str:
    steps = parse_steps(call.stdin)
    requests = [request_for(call, number, words) for number, words in enumerate(steps, 1)]
    blocks: list[str] = []
    results: list[dict[str, Any]] = []
    for number, (words, request) in enumerate(zip(steps, requests, strict=True), 1):
        result = await call.daemon.dispatch(request)
        title = f"[{number}/{len(steps)}] {' '.join(words)}"
        if not result["ok"]:
            raise StepFailed(
                f"step {number} of {len(steps)} ({' '.join(words)}) failed: {result['error']}",
                result["hint"],
                int(result["exit_code"]),
                "\n\n".join(blocks),
            )
        blocks.append(f"{title}\n{result['output']}".rstrip("\n"))
        results.append({"step": words, "output": result["output"], "data": result.get("data")})
    text = "\n\n".join(blocks)
    return Reply(text, {"steps": results}) if call.json else text
