"""The repository's own rulesets (`rules/*`), compiled once per test process and shared.

Why: most tests only read a ruleset of `rules/`, and each used to compile its own. Measured
on 2 xdist workers (3,524 tests): `rules/*` compiled 524 times (72 s of CPU) and `Rules(...)`
built 672 times (16 s), where 17 rulesets need 17 compiles a worker; and collecting alone
compiled all 17 twice over (the examples listed by `test_examples.py` and
`test_reading_aloud.py`), ~12.7 s a worker. Here each is compiled the first time a test (or
a module's collection) asks, and every later ask gets the same objects. Measured after:
203 compiles (32 s): the 17 a worker shares, then rulebook builds, benchmarks, commands
run as a user runs them, and the engine's own look-ups of related rulesets; `Rules` 477
times (9 s); collecting, 40 compiles -> 17; the 2,109 tests of the modules that now share
them (rulebook builds aside), 72 s -> 47 s on 2 workers (144 s -> 94 s of CPU).

The contract: what this module hands out is SHARED by every test of the process. Read it,
never change it, nor anything reached from it (its IR, `Rules.game`, ...). A test that
edits a ruleset, tests compiling itself, or times a compile, compiles its own
(`compiler.load.load_ruleset`). The session holds everyone to it: each ruleset's
fingerprint (a hash of its `model_dump_json()`, ~8 ms) is taken when it is compiled, and
`changed()`, asked by conftest's `shared_rulesets_unchanged` when the session ends (on each
xdist worker), names any shared ruleset a test changed since.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from compiler.engine.position import Rules
from compiler.ir import model as m
from compiler.load import RULES_DIR, load_ruleset, load_ruleset_dir, ruleset_dirs

# Each ruleset handed out, by name: its fingerprint when it was compiled.
_FINGERPRINTS: dict[str, str] = {}


def names() -> list[str]:
    """The names of the repository's rulesets (folders of `rules/`), in order."""
    return sorted(ruleset_dirs())


@functools.cache
def ruleset(name: str) -> m.Ruleset:
    """The compiled ruleset `rules/<name>` (as `load_ruleset(name)` gives it). Shared."""
    found = load_ruleset_dir(ruleset_dirs()[name])
    _FINGERPRINTS[name] = _fingerprint(found)
    return found


@functools.cache
def rules(name: str) -> Rules:
    """`Rules` of the ruleset `rules/<name>`: its game, notation and English. Shared."""
    return Rules(ruleset(name))


def rules_at(folder: Path) -> Rules:
    """`Rules` of the ruleset in `folder`: shared when it is one of `rules/`; a test's own
    (a fixture under `tests/`, a folder it wrote) compiled afresh, as the test wrote it."""
    if folder.resolve().parent == RULES_DIR:
        return rules(folder.name)
    return Rules(load_ruleset(folder))


def changed() -> list[str]:
    """The shared rulesets some test changed since they were compiled (their names)."""
    return [name for name, print_ in _FINGERPRINTS.items()
            if _fingerprint(ruleset(name)) != print_]


def _fingerprint(rs: m.Ruleset) -> str:
    return hashlib.sha256(rs.model_dump_json().encode()).hexdigest()
