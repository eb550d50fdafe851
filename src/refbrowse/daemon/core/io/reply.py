"""A handler's text with its structured value: what `--json` callers get as the result's `data`."""

from __future__ import annotations


class Reply(str):
    """A handler's text with its structured value: the result's `data` field under `--json`.

    A `str`, so that every caller of a handler (`chain`, the tab guard) keeps
    treating it as the text it prints.
    """

    data: object

    def __new__(cls, text: str, data: object) -> Reply:
        answer = super().__new__(cls, text)
        answer.data = data
        return answer


def data_of(output: str) -> object:
    """The structured value of a handler's output, None when it has none."""
    return output.data if isinstance(output, Reply) else None
