"""The compiler is game-agnostic: no game's vocabulary anywhere in compiler/.

Games live in rules/. If a rule cannot be expressed, the language grows in a
general way; no game is special-cased in Python.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.ir.english import declaration_readings
from compiler.ir import model as m
from compiler.load import REPO_ROOT
from tests import compiled

WORDS = re.compile(r"emissar|nebul|corvette|rogue|mineral|credit|\btrian\b|planet|exmitter|"
                   r"teleport|extractor|outpost|starlight|galaxy|colony|colonies|warp|reactor|"
                   r"trucker", re.I)


@pytest.mark.parametrize("path", sorted((REPO_ROOT / "compiler").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_no_game_words_in_the_compiler(path: Path) -> None:
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1)
            if WORDS.search(line)]
    assert not hits, "\n".join(hits)


def english_readings(ruleset: m.Ruleset) -> list[tuple[str, str]]:
    """Every declaration read in English, labelled (compiler/ir/english.py), so that
    `tests/test_snapshots.py` can keep them as a readable list."""
    return declaration_readings(ruleset)


@pytest.mark.parametrize("name", compiled.names())
def test_every_declaration_reads_in_english(name: str) -> None:
    """No IR node renders as a stub: every condition and effect becomes a sentence."""
    texts = [text for _, text in english_readings(compiled.ruleset(name))]
    assert texts
    for t in texts:
        assert t and "None" not in t and "{" not in t and "()" not in t, t
        assert not re.search(r"\b[a-z_]+\(", t), f"a call left unread: {t}"
