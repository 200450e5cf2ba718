"""The compiler is game-agnostic: no game's vocabulary anywhere in compiler/.

Games live in rules/. If a rule cannot be expressed, the language grows in a
general way; no game is special-cased in Python.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.ir.english import English, Vocabulary
from compiler.ir import model as m
from compiler.load import REPO_ROOT, load_ruleset, ruleset_dirs

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
    """Every condition, choice and effect of every declaration, read in English.

    Each reading comes with a label saying whose it is (the rule, the declaration and
    the part), so that `tests/test_snapshots.py` can keep them as a readable list.
    """
    en = English(Vocabulary.of(ruleset))
    out: list[tuple[str, str]] = []
    ordinal: dict[tuple[str | None, str], int] = {}
    for d in ruleset.all_decls():
        key = (d.rule, d.decl)
        ordinal[key] = ordinal.get(key, 0) + 1
        who = f"{d.rule} {d.decl} {getattr(d, 'id', None) or ordinal[key]}"
        if isinstance(d, m.Action):
            out += [(f"{who} choice {p.name}", en.collection(p.domain)) for p in d.params]
            out += [(f"{who} requires", en(r.cond)) for r in d.requires]
            out += [(f"{who} effect", t) for t in en.block(d.effects)]
        elif isinstance(d, m.Forbid):
            out.append((f"{who} when", en(d.cond)))
        elif isinstance(d, m.Trigger):
            out += [(f"{who} effect", t) for t in en.block(d.body)]
            if d.where is not None:
                out.append((f"{who} where", en(d.where)))
        elif isinstance(d, m.Define):
            out.append((f"{who} is", en(d.expr)))
    return out


@pytest.mark.parametrize("name", sorted(ruleset_dirs()))
def test_every_declaration_reads_in_english(name: str) -> None:
    """No IR node renders as a stub: every condition and effect becomes a sentence."""
    texts = [text for _, text in english_readings(load_ruleset(name))]
    assert texts
    for t in texts:
        assert t and "None" not in t and "{" not in t and "()" not in t, t
        assert not re.search(r"\b[a-z_]+\(", t), f"a call left unread: {t}"
