"""Triggers on one event run in reading order; `after RULE` runs one after that rule's.

A variant adds a bonus to a closing nebula, worth a point per mineral in it, inside an early
rule (`add to rule`). Read in order, it runs before the base adds the nebula's minerals and
pays nothing; written `after areas.minerals`, it runs once they are in and pays the closer 5
more for a four-tile nebula with an extractor (TD-E27, where Xemh closes it for 2)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from compiler.load import load_files
from tests.conftest import compile_errors

VARIANT = """
ruleset bonus extends trian_deluxe { subtitle "A bonus for minerals" }

add to rule areas.points.nebula {
    when nebula a closes, at step check AFTER{
        give a.mineral points to closer
    }
}
"""


def _closers_points(tmp_path: Path, after: str) -> int:
    folder = tmp_path / ("after" if after else "plain")
    folder.mkdir()
    (folder / "bonus.rules").write_text(textwrap.dedent(VARIANT.replace("AFTER", after)))
    ruleset, _, _ = load_files([folder / "bonus.rules"])
    result = run_example(Rules(ruleset), next(e for e in ruleset.examples
                                              if e.id == "nebula_four"))
    before, after_move = result.before, result.after
    assert before is not None and after_move is not None
    return after_move.scores()["xemh"] - before.scores()["xemh"]  # Xemh lays the closing tile


def test_a_trigger_added_to_an_early_rule_runs_in_reading_order(tmp_path: Path) -> None:
    assert _closers_points(tmp_path, "") == 2  # the base's 2 points; the minerals came later


def test_after_a_rule_it_runs_once_that_rules_triggers_have(tmp_path: Path) -> None:
    assert _closers_points(tmp_path, " after areas.minerals ") == 2 + 5


def test_after_an_unknown_rule_is_an_error_with_a_did_you_mean(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, bonus=VARIANT.replace("AFTER", " after areas.mineral "))
    assert [(e.code, e.message) for e in errors] == [
        ("unknown-name", "`after areas.mineral` names an unknown rule")]
    assert "areas.minerals" in (errors[0].hint or "")


@pytest.mark.parametrize("written", ["at start of turn after areas.minerals { }"])
def test_a_moment_may_be_ordered_too(tmp_path: Path, written: str) -> None:
    text = VARIANT.replace(
        "when nebula a closes, at step check AFTER{\n        give a.mineral points to closer\n    }",
        written)
    assert compile_errors(tmp_path, bonus=text) == []


def _order_warnings(tmp_path: Path, after: str) -> list[str]:
    folder = tmp_path / ("warned" + after.strip().replace(".", "_"))
    folder.mkdir()
    (folder / "bonus.rules").write_text(textwrap.dedent(VARIANT.replace("AFTER", after)))
    _, _, warnings = load_files([folder / "bonus.rules"])
    return [f"{w.message} | {w.hint}" for w in warnings if w.code == "order"]


def test_check_warns_when_the_order_decides_what_the_bonus_reads(tmp_path: Path) -> None:
    """The bonus reads the nebula's minerals, which `areas.minerals` gives on the same event:
    without `after`, the author is told it runs first, and how to make it wait."""
    [said] = _order_warnings(tmp_path, "")
    assert said.startswith("this trigger reads `mineral`, which the trigger of "
                           "`areas.minerals` changes (")
    assert "both run when a nebula closes, and this one runs first only because of the " \
           "order the files are read in" in said
    assert said.endswith("to run once `mineral` is changed, write `after areas.minerals` "
                         "before the trigger's `{`")


def test_stating_the_order_silences_the_warning(tmp_path: Path) -> None:
    assert _order_warnings(tmp_path, " after areas.minerals ") == []
