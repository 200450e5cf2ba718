"""What is alive when many games begin is set apart from the collector while they run,
and given back after (with the collector's thresholds): a process that goes on can still
free it."""
import gc
import weakref

from compiler.engine.collector import YOUNG, set_apart


def test_what_is_alive_is_set_apart_while_the_games_run_and_given_back_after():
    gc.unfreeze()  # what the test session itself set apart (tests/conftest.py), given back
    thresholds = gc.get_threshold()
    with set_apart():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == YOUNG
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == thresholds


def test_garbage_made_before_is_freed_not_set_apart():
    class Loop:
        pass

    loop = Loop()
    loop.me = loop  # a cycle: only a collection frees it
    alive = weakref.ref(loop)
    del loop
    assert alive() is not None
    with set_apart():
        assert alive() is None


def test_what_was_set_apart_before_the_block_stays_apart_after_it():
    gc.unfreeze()
    gc.freeze()  # as a process that settles what it holds does (the test session does)
    try:
        with set_apart():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
