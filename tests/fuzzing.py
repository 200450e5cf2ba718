"""What every fuzz test shares: its budget, its bounds, and the promise it checks.

The promise (the README's "bad input gets a clear error"): whatever a user
feeds the tools, the answer is either a result or the project's own error,
with a place and words — never a Python traceback, never a hang, never all
the memory of the machine.

Budgets: the normal suite runs a few hundred cases, the same ones every time
(derandomized, so a failure reproduces). `make fuzz` sets RULEBOOK_FUZZ=1,
which selects the "rulebook-fuzz" hypothesis profile: random cases, each
test's budget multiplied by RULEBOOK_FUZZ_SCALE (default 10).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import os
import re
import resource
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from compiler.diagnostics import CompileError, Diagnostic
from tests import compiled

FUZZ = os.environ.get("RULEBOOK_FUZZ", "") not in ("", "0")
SCALE = int(os.environ.get("RULEBOOK_FUZZ_SCALE", "10"))

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
          HealthCheck.function_scoped_fixture, HealthCheck.large_base_example]
settings.register_profile("rulebook-suite", deadline=None, derandomize=True, database=None,
                          suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("rulebook-fuzz", deadline=None, suppress_health_check=_QUIET,
                          print_blob=True)
PROFILE = "rulebook-fuzz" if FUZZ else "rulebook-suite"

# Every fuzz test runs in one xdist worker, so each ruleset is compiled once.
GROUP = pytest.mark.xdist_group("fuzz")


def budget(cases: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a test of `cases` examples in the suite (SCALE times that fuzzing)."""
    return settings(settings.get_profile(PROFILE), max_examples=cases * SCALE if FUZZ else cases)


# ---------------------------------------------------------------- the bounds

# One case: a rules file checked, a record replayed, a move judged. Fuzzing does
# more per case (every example of a changed ruleset, its rulebook pages).
SECONDS = 90.0 if FUZZ else 20.0
MEGABYTES = 1500        # more address space than that for one case is a runaway


class TooSlow(Exception):
    """A case ran past its time bound (raised from a timer signal inside it)."""


@contextlib.contextmanager
def bounded(seconds: float | None = None, megabytes: int = MEGABYTES) -> Iterator[None]:
    """Run the body within a time and a memory bound; past either, the case fails.

    Time: a timer signal interrupts the body. Memory: the address space may
    grow by `megabytes` at most, so a runaway allocation fails at once with
    MemoryError instead of taking the machine down.
    """
    seconds = SECONDS if seconds is None else seconds
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = _address_space()
    limit = soft if used is None else used + megabytes * 2**20  # unknown: no new bound
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)

    def expire(signum: int, frame: Any) -> None:
        raise TooSlow(f"more than {seconds:g} seconds")

    previous = signal.signal(signal.SIGALRM, expire)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert time.perf_counter() - started < seconds


def _address_space() -> int | None:
    """The address space this process uses now, in bytes (None where the system does not say)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return None


# ------------------------------------------------------------ the promise

# Words that only Python says: a message that contains one leaked an exception.
PYTHON_WORDS = re.compile(
    r"Traceback|NoneType|object has no attribute|invalid literal for|unhashable type|"
    r"not subscriptable|codec can't|set_int_max_str_digits|object is not|"
    r"\b(?:KeyError|ValueError|TypeError|IndexError|AttributeError|RecursionError)\b|"
    r"<class '|pydantic|errors\.pydantic\.dev|input_value=")


def plain(message: str) -> None:
    """A message meant for a person: some words, and nothing only Python would say."""
    assert message.strip(), "an empty message"
    leak = PYTHON_WORDS.search(message)
    assert leak is None, f"a Python detail reached the reader ({leak.group(0)!r}): {message}"


def located(d: Diagnostic, files: set[str] | None = None) -> None:
    """A diagnostic names a file (one of `files`, if given) and says what is wrong in words."""
    assert d.file, f"no file: {d.render()}"
    if files is not None:
        assert d.file in files, f"{d.file} is none of the files read: {d.render()}"
    if d.code == "syntax":
        assert d.line >= 1 and d.column >= 1, f"a syntax error with no place: {d.render()}"
    plain(d.message)
    assert len(d.render()) < 20_000, "a single message longer than a reader can read"


def compile_error_is_located(e: CompileError, files: set[str] | None = None) -> None:
    assert e.diagnostics, "a CompileError with nothing in it"
    for d in e.diagnostics:
        located(d, files)
    assert len(str(e)) < 2_000_000, "every diagnostic together is too long to print"


# ------------------------------------------------------------ parsed files


@functools.lru_cache(maxsize=None)
def _parsed(text: str, file: str) -> list[Any]:
    from compiler.parse import parse_rules
    return parse_rules(text, file)


def cached_parse(text: str, file: str = "<text>") -> list[Any]:
    """`parse_rules`, remembered: fuzzing changes one file of a ruleset, the others parse once.

    The checker and the variant builder edit the IR in place, so each call
    gets its own deep copy. A text that does not parse is not remembered.
    """
    return copy.deepcopy(_parsed(text, file))


# ------------------------------------------------------------ played positions


@functools.lru_cache(maxsize=None)
def played(name: str, seed: int, decisions: int) -> Any:
    """A `History` of random legal play from a seeded start, at most `decisions` long.

    The number of players follows the seed through the ruleset's range, so
    every table size is met. Chance is decided by the same seed and written
    into the moves, as `rulebook play` records it.
    """
    import random
    from dataclasses import replace

    from compiler.engine.records import History
    rules = compiled.rules(name)
    rs = rules.ruleset
    players = rs.players_min + seed % (rs.players_max - rs.players_min + 1)
    pos = rules.start(players, seed=seed)
    stacks = [[c for c in reversed(s) if c is not None] for s in pos.state.stacks]
    history = History(start=pos, seats=[rules.game.seat_id(i) for i in range(players)],
                      stacks=stacks, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if pos.finished:
            break
        move = rng.choice(pos.legal_moves())
        nxt, ruling = pos.play(move, chance=rng)
        if "!" in ruling.move:
            move = replace(move, chance=tuple(ruling.move.partition("!")[2].split()))
        history.add(pos, move)
        pos = nxt
    history.final = pos  # type: ignore[attr-defined]
    return history


def positions(name: str, seed: int, decisions: int) -> list[Any]:
    """Every position met in `played(...)`, the last one included."""
    history = played(name, seed, decisions)
    return [p for _, p, _ in history.moves] + [history.final]


def canonical(pos: Any) -> str:
    """A position as text, to tell whether anything in it changed."""
    from compiler.engine.formats import from_state
    st = pos.state
    return from_state(pos.rules, st).model_dump_json() + repr(
        (st.next_id, sorted(st.gone), sorted(st.unknown), st.winners, st.turn))
