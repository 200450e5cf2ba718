"""`action … alongside X`: a new skill plugs into a choice a base rule makes, without copying it.

The case from the authoring study: a New Order race gains a skill used while setting combat
tokens aside for a ship clash. The base's clash asks the owner to choose `ship_tokens` (or
the Xemh warcry); the Maephos fury joins that choice by saying so in its own declaration,
and the base's rule is left as it was written.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from compiler.ir.english import declaration_readings
from compiler.load import load_files
from tests.conftest import compile_errors

# The warcry's table (TNO-E66) with the Maephos holding a blue mineral: a Xemh Corvette
# sails next to a Maephos one and engages it.
GIVEN = """    given {
        players maephos, xemh
        turn 10 xemh step exploration placed 2,0
        tile t02 b at 0,0 rotation 0
        tile t04 a at 1,0 rotation 0
        tile t06 a at 2,0 rotation 0
        corvette maephos at 0,0:space
        corvette xemh at 2,0:space
        blue maephos 1
        stacks [t30], [t40]
    }"""

FURY = """
ruleset fury extends trian_new_order { subtitle "Maephos fury" }

add to rule skills.maephos {
    rule skills.maephos.fury "Fury (active)" {
        text "When you set tokens aside for a ship clash you may also pay 1 blue mineral to add 1 to your roll."
        action ship_tokens_fury "set combat tokens aside for a ship clash in fury" alongside ship_tokens {
            notation "ship tokens {r} {b} fury"
            choose x from pieces where ship(it)
            choose y from pieces where ship(it)
            require me is maephos else "only the Maephos have this skill" per skills.maephos.fury
            require me.blue > 0 else "fury costs a blue mineral" per skills.maephos.fury
            choose r from upto(min(3, me.reroll)) per battles.clash
            choose b from upto(min(3 - r, me.plus)) per battles.clash
            apply set_aside_tokens(r, b)
            give 1 blue from me to pool
            set me.pluses to me.pluses + 1
            apply ship_tokens_set(x, y)
        }
    }
}

example fury_declared "The Maephos may answer in fury" {
    illustrates skills.maephos.fury
GIVEN
    play "sail corvette@2,0:space to 1,0:space; engage corvette@0,0:space with corvette@1,0:space; ship tokens 0 0"
    expect legal
}

example fury_wins "Fury turns a tie into a win" {
    illustrates skills.maephos.fury
    text "The warcry's example the other way round: both roll 3, and the Maephos' fury wins 4 to 3."
GIVEN
    play "sail corvette@2,0:space to 1,0:space; engage corvette@0,0:space with corvette@1,0:space; ship tokens 0 0; ship tokens 0 0 fury ! 3 3 red red"
    expect legal
    expect blue maephos 0
    expect supply xemh corvette 3
}
""".replace("GIVEN", GIVEN)


def _fury(tmp_path: Path, text: str = FURY):
    (tmp_path / "fury.rules").write_text(textwrap.dedent(text))
    ruleset, _, warnings = load_files([tmp_path / "fury.rules"])
    return ruleset


def test_the_fury_is_offered_where_the_base_asks_for_tokens(tmp_path: Path) -> None:
    rules = Rules(_fury(tmp_path))
    result = run_example(rules, next(e for e in rules.ruleset.examples
                                     if e.id == "fury_declared"))
    assert result.ok, result.failures
    after = result.after
    offered = [after.notation(m) for m in after.legal_moves()]
    assert "ship tokens 0 0" in offered and "ship tokens 0 0 fury" in offered


def test_the_fury_wins_the_tie_and_costs_a_blue_mineral(tmp_path: Path) -> None:
    rules = Rules(_fury(tmp_path))
    result = run_example(rules, next(e for e in rules.ruleset.examples if e.id == "fury_wins"))
    assert result.ok, result.failures


def test_the_base_grant_reads_with_the_new_option(tmp_path: Path) -> None:
    """One declaration, two readings: the grant's English names the joined action."""
    readings = dict(declaration_readings(_fury(tmp_path)))
    [grant] = [t for k, t in readings.items()
               if k.startswith("battles.clash.declare effect offer_ship_tokens")]
    assert "set combat tokens aside for a ship clash in fury" in grant
    assert readings["skills.maephos.fury action ship_tokens_fury offered"] == \
        "wherever set combat tokens aside for a ship clash is offered"


def test_what_changes_lists_the_clash_rule_whose_choice_grew(tmp_path: Path) -> None:
    """The base's rule reads differently now, so "What changes" lists it beside the base's;
    the base's own warcry, which joins nothing, adds no such entry to the base."""
    ruleset = _fury(tmp_path)
    changed = {c.id: c for c in ruleset.changes if c.kind == "rule"}
    assert changed["battles.clash.declare"].op == "replaced"
    assert changed["skills.maephos.fury"].op == "added"


def test_an_unknown_action_to_join_gets_a_did_you_mean(tmp_path: Path) -> None:
    [d] = compile_errors(tmp_path, fury=FURY.replace("alongside ship_tokens",
                                                     "alongside ship_token"))
    assert d.message == "`ship_tokens_fury` is offered alongside `ship_token`, which is no action"
    assert d.hint.startswith("did you mean `ship_tokens`")


def test_a_parameter_the_grant_fixes_must_be_declared_by_the_joiner(tmp_path: Path) -> None:
    """The base grants `ship_tokens` with `x` and `y` fixed; a fury without them cannot join."""
    text = FURY.replace("            choose x from pieces where ship(it)\n", "")
    errors = [d for d in compile_errors(tmp_path, fury=text) if d.severity == "error"]
    assert errors[0].message.startswith("`ship_tokens_fury` is offered alongside `ship_tokens`, "
                                        "whose grant (")
    assert errors[0].message.endswith("fixes `x`; `ship_tokens_fury` has no such parameter")
    assert errors[0].hint == "declare it as `ship_tokens` does: `choose x from …`"
    assert (errors[0].line, errors[0].file.endswith("fury.rules")) == (7, True)


DEEP_SPACE = """
ruleset stargazing extends trian_deluxe { subtitle "Stargazing" }

chapter stargazing "Stargazing" {
    rule stargazing.study "Studying the stars" {
        text "Instead of researching, a player may pay a mineral for 2 points."
        action study "study the stars" alongside research {
            notation "study"
            require me.mineral > 0 else "studying costs a mineral"
            give 1 mineral from me to pool
            give 2 points to me
        }
    }
}
"""


def test_an_action_alongside_one_a_step_lists_is_offered_in_that_step(tmp_path: Path) -> None:
    ruleset = _fury(tmp_path, DEEP_SPACE)
    steps = {d.id: d for d in ruleset.all_decls() if d.decl == "step"}
    [step] = [s for s in steps.values() if "research" in s.actions]
    assert step.actions[step.actions.index("research") + 1] == "study"
