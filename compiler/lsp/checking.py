"""A ruleset checked as the editor shows it: `rulebook check`'s diagnostics, unsaved texts read.

The checks are the compiler's own (`compiler.load.load_files`, the engine's worked
examples and notations); this module only chooses the files, lends the editor's
texts to the loader, and keeps what the compile gave, so that hover and go to
definition can use the last ruleset that compiled while the author types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic
from compiler.ir import model as m
from compiler.played import played_problems
from compiler.load import (id_taken, load_files, read_header, reading_unsaved,
                           resolve_ruleset_path)


@dataclass
class Outcome:
    """What checking one ruleset folder found."""

    folder: Path
    diagnostics: list[Diagnostic]
    ruleset: m.Ruleset | None = None  # None when it did not compile
    playable: bool = False  # compiled, under an id of its own: the engine may play its examples
    files: set[Path] = field(default_factory=set)  # every file read, its bases' included


def path_of(shown: str) -> Path:
    """The file a diagnostic or a `Loc` names (the loader names files relative to the
    working folder when it can)."""
    path = Path(shown)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


def ruleset_folder(file: Path) -> Path:
    """The ruleset a `.rules` file belongs to: the folder holding it."""
    return file.resolve().parent


def check_folder(folder: Path, unsaved: Mapping[Path, str], examples: bool = True) -> Outcome:
    """Check the ruleset in `folder` as `rulebook check` does, reading `unsaved` texts in
    place of their files (a new file not saved yet included)."""
    folder = folder.resolve()
    files = set(folder.glob("*.rules")) | {p.resolve() for p in unsaved
                                           if p.resolve().parent == folder}
    outcome = Outcome(folder, [], files={f.resolve() for f in files})
    with reading_unsaved(unsaved):
        try:
            ruleset, sources, warnings = load_files(sorted(files))
        except CompileError as e:
            outcome.diagnostics = list(e.diagnostics)
            outcome.files |= {path_of(d.file) for d in e.diagnostics if d.file.endswith(".rules")}
            return outcome
    outcome.ruleset = ruleset
    outcome.files |= {path_of(name) for name in sources.texts}
    outcome.diagnostics = list(warnings)
    taken = id_taken(ruleset.id, folder)
    if taken is not None:
        outcome.diagnostics.append(taken)
    outcome.playable = taken is None
    if examples and outcome.playable:
        outcome.diagnostics += played_problems(ruleset)
    return outcome


def base_ruleset(folder: Path, unsaved: Mapping[Path, str]) -> m.Ruleset | None:
    """The compiled base of the variant in `folder`, for a variant that has not compiled yet:
    its base's ids are still there to hover and go to. None if it has none that compiles."""
    try:
        base = read_header(folder).extends
        if base is None:
            return None
        return check_folder(resolve_ruleset_path(base), unsaved, examples=False).ruleset
    except (CompileError, OSError):
        return None
