"""What is alive when many games begin is set apart from the collector while they run,
and given back after (with the collector's thresholds): a process that goes on can still
free it.

Each test runs in a fresh interpreter of its own: what is set apart is a whole process's
state, and the test session's own (tests/conftest.py freezes what it holds) would both hide
what is checked and, given back, cost every test after it a walk of the whole session.
"""
import subprocess
import sys
import textwrap


def _in_a_fresh_process(code: str) -> None:
    """Run `code` in a new interpreter; its failed assertion fails the test, with its words."""
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_what_is_alive_is_set_apart_while_the_games_run_and_given_back_after():
    _in_a_fresh_process("""
        import gc
        from compiler.engine.collector import YOUNG, set_apart
        thresholds = gc.get_threshold()
        with set_apart():
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold()[0] == YOUNG
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == thresholds
    """)


def test_garbage_made_before_is_freed_not_set_apart():
    _in_a_fresh_process("""
        import weakref
        from compiler.engine.collector import set_apart

        class Loop:
            pass

        loop = Loop()
        loop.me = loop  # a cycle: only a collection frees it
        alive = weakref.ref(loop)
        del loop
        assert alive() is not None
        with set_apart():
            assert alive() is None
    """)


def test_what_was_set_apart_before_the_block_stays_apart_after_it():
    _in_a_fresh_process("""
        import gc
        from compiler.engine.collector import set_apart
        gc.freeze()  # as a process that settles what it holds does (the test session does)
        with set_apart():
            pass
        assert gc.get_freeze_count() > 0
    """)
