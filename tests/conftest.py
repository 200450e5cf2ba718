"""Shared fixtures: the Deluxe ruleset, compiled once per test session."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.position import Rules
from compiler.ir import model as m
from compiler.load import RULES_DIR, load_files, load_ruleset

DELUXE = RULES_DIR / "trian_deluxe"


@pytest.fixture(scope="session")
def deluxe() -> m.Ruleset:
    return load_ruleset(DELUXE)


@pytest.fixture(scope="session")
def rules(deluxe: m.Ruleset) -> Rules:
    return Rules(deluxe)


def compile_errors(tmp_path: Path, **files: str) -> list:
    """Write the given files as a ruleset folder, load it, return its diagnostics."""
    for name, text in files.items():
        (tmp_path / f"{name}.rules").write_text(textwrap.dedent(text), encoding="utf-8")
    try:
        load_files(sorted(tmp_path.glob("*.rules")))
    except CompileError as e:
        return e.diagnostics
    return []
