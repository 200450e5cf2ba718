"""What is alive when many games begin is set apart from the collector while they run,
and given back after: a process that goes on can still free it."""
import gc
import weakref

from compiler.engine.collector import set_apart


def test_what_is_alive_is_set_apart_while_the_games_run_and_given_back_after():
    before = gc.get_freeze_count()
    assert before == 0
    with set_apart():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


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
