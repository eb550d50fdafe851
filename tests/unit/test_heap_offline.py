"""The daemon's heap keeping: the collector held during a big build, and idle tidying."""

from __future__ import annotations

import gc

from refbrowse.daemon.core import heap


def test_the_collector_is_held_inside_and_given_back_after_even_on_an_error() -> None:
    assert gc.isenabled()
    try:
        with heap.paused():
            assert not gc.isenabled()
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()


def test_a_nested_pause_leaves_the_outer_one_in_charge() -> None:
    with heap.paused():
        with heap.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block did not turn it back on under the outer one
    assert gc.isenabled()


def test_tidying_frees_the_cycles_a_pause_left() -> None:
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    with heap.paused():
        for _ in range(1000):
            Cycle()
        # still held here (counting them allocates, which would set off a collection once it is back)
        assert sum(type(obj) is Cycle for obj in gc.get_objects()) == 1000
        heap.tidy()
        assert not any(type(obj) is Cycle for obj in gc.get_objects())
