"""Every worked example of every ruleset, played against the engine.

These are the rulebook's own examples: a position, the moves, and every
result the rulebook states. An example the engine disagrees with fails here
with the same "expected ... but ..." lines that stop the rulebook build.
"""

from __future__ import annotations

import pytest

from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from tests import compiled
from tests.compiled import rules as rules_for

CASES = [pytest.param(name, ex.id, id=f"{name}:{ex.number}:{ex.id}")
         for name in compiled.names() for ex in compiled.ruleset(name).examples]


def assert_stated_and_verified(rules: Rules, expected: dict[str, list[tuple[str, str, int]]]
                               ) -> None:
    """Each example states these (resource, holder, number) facts, and the engine agrees."""
    for ex_id, facts in expected.items():
        ex = next(e for e in rules.ruleset.examples if e.id == ex_id)
        stated = {(f.args[0], f.args[1], f.args[2]) for f in ex.expect
                  if f.fact in ("delta", "amount")}
        for fact in facts:
            assert fact in stated, (ex_id, fact)
        assert run_example(rules, ex).ok


@pytest.mark.parametrize("ruleset,example", CASES)
def test_worked_example(ruleset: str, example: str) -> None:
    rules = rules_for(ruleset)
    ex = next(e for e in rules.ruleset.examples if e.id == example)
    result = run_example(rules, ex)
    assert result.ok, "\n".join(result.failures)


def test_the_deluxe_rulebook_has_enough_examples(deluxe) -> None:
    assert len(deluxe.examples) >= 25
    illegal = [e for e in deluxe.examples if any(f.fact == "illegal" for f in e.expect)]
    assert len(illegal) >= 10


def test_every_numeric_example_of_the_printed_rulebook_is_reproduced(rules: Rules) -> None:
    """4 points and 5 minerals; 6; 9; 35; 6; 20; 30 (Deluxe base game)."""
    expected = {
        "nebula_four": [("points", "quuylto", 4), ("mineral", "0,0:nebula", 5)],
        "system_three": [("points", "xemh", 6)],
        "space_three": [("points", "xemh", 9)],
        "nebula_35": [("points", "quuylto", 35)],
        "nebula_6": [("points", "borfnaree", 6)],
        "system_20": [("points", "xemh", 20)],
        "system_30": [("points", "quuylto", 30)],
    }
    assert_stated_and_verified(rules, expected)


def test_every_numeric_example_of_the_expansion_is_reproduced() -> None:
    """Plundering: 5 = 5 planets × level 1; the owner keeps (2 + 1) × 4 − 5 = 7, where
    the rulebook drops the station's emissary and says 3 (ruling plunder_example_a); then
    3 and 4 plundered while the owners score 16 − 3 = 13 and 20 − 4 = 16; 5 points a ship
    beaten, 15 for a Corvette that beats two Rogues and a Corvette."""
    rules = rules_for("trian_conquest")
    expected = {
        "plunder_five": [("points", "khaarquar", 5), ("points", "xemh", 7)],
        "plunder_two": [("points", "quuylto", 7), ("points", "borfnaree", 13),
                        ("points", "xemh", 16)],
        "battle_corvette_rogue": [("points", "xemh", 5)],
        "battle_corvette_sweeps": [("points", "xemh", 15)],
    }
    assert_stated_and_verified(rules, expected)


@pytest.mark.parametrize("name", compiled.names())
def test_every_move_is_written_one_way_only(name: str) -> None:
    """No two actions' notations read the same text, so every record says what was played."""
    from compiler.engine.notation import notation_clashes
    assert notation_clashes(rules_for(name).game) == []
