"""Readings a judge at the table would stumble over, pinned down.

A collection owned by a phrase ("the controller of it") reads "the pieces of
its controller", never "the controller of it’s pieces"; and a ruling cites the
rule that ends the game only where the game ends, not on every move.
"""

from __future__ import annotations

from pathlib import Path

from compiler.engine.explain import explainer
from compiler.engine.formats import PositionModel, position_from_model
from compiler.engine.position import Rules
from compiler.engine.scenario import model_from_facts, settled
from compiler.ir.english import English, Vocabulary, negate_title
from compiler.ir import model as m
from compiler.load import load_ruleset
from tests import compiled

TESTS = Path(__file__).parent


def test_an_area_whose_controller_has_no_piece_left_reads_aloud() -> None:
    rules = Rules(load_ruleset(TESTS / "rulesets" / "trian_audited"))
    g = rules.game
    lapse = g.audits["contested"].decl.breaches[1].collection
    assert English(Vocabulary.of(rules.ruleset))(lapse.cond) == \
        "the controller of it is somebody and there are no pieces of its controller in it"
    # K'Haarquar controls the nebula at 0,0 but has no piece in it.
    pos = position_from_model(rules, PositionModel.model_validate({
        "format": "rulebook-position", "ruleset": "trian_audited",
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}, {"seat": "khaarquar"}],
        "tiles": [{"tile": "t01", "face": "b", "at": "0,0", "rotation": 0},
                  {"tile": "t05", "face": "b", "at": "1,0", "rotation": 1}],
        "pieces": [{"kind": "emissary", "owner": "quuylto", "at": "0,0:nebula"}],
        "areas": [{"at": "0,0:nebula", "attributes": {"controller": "khaarquar"}}],
        "turn": {"number": 9, "player": "khaarquar", "step": "tile"},
        "stacks": [["t11"], ["t30"]]}))
    st = pos.state
    ex = explainer(g)
    nebula = st.areas.find(g.site_area(st, ((0, 0), "nebula")))
    said = ex.why(lapse.cond, ex.context(st, {"it": nebula}), True).text
    assert "there are no pieces of the controller of the nebula at 0,0:nebula in" in said
    assert "’s pieces" not in said


def _card_table(deck: str) -> tuple[Rules, m.Example]:
    rules = Rules(load_ruleset(TESTS / "fixtures" / "card_table"))
    [ex] = rules.ruleset.examples
    given = [f for f in ex.given if not (f.fact == "zone" and f.args[0] == "deck")]
    return rules, ex.model_copy(update={"given": given + [m.PositionFact(
        fact="zone", args=["deck", None, [deck] if deck else []])]})


def test_a_move_that_leaves_cards_in_the_deck_does_not_cite_the_end_of_the_game() -> None:
    rules, ex = _card_table("c4")
    pos = settled(position_from_model(rules, model_from_facts(rules, ex.given)))
    ruling = pos.adjudicate("pick c2")
    assert [c.id for mv in ruling.moves for c in mv.decided_by] == ["play.turn", "play.pick"]
    assert not [e for mv in ruling.moves for e in mv.consequences
                if e.rule and e.rule.id == "play.over"]


def test_stashing_the_last_card_of_the_deck_ends_the_game_under_its_rule() -> None:
    rules, ex = _card_table("c4")
    pos = settled(position_from_model(rules, model_from_facts(rules, ex.given)))
    ruling = pos.adjudicate("stash")
    ends = [e for mv in ruling.moves for e in mv.consequences if e.kind == "game-end"]
    assert [(e.rule.id if e.rule else None, e.text) for e in ends] == [
        ("play.over", "the game ends")]


def test_a_player_short_of_a_resource_hears_how_much_they_have_and_what_it_takes() -> None:
    rules = compiled.rules("among_the_stars_aggressive")
    ex = next(e for e in rules.ruleset.examples if e.id == "aggressive_conflict_needs_a_credit")
    pos = settled(position_from_model(rules, model_from_facts(rules, ex.given)))
    ruling = pos.adjudicate("red: play espionage")
    assert [b.message for mv in ruling.moves for b in mv.breaches] == [
        "you have 0 credits; the rule asks for at least 1"]


def test_a_defined_condition_with_a_plain_verb_is_denied_on_its_verb() -> None:
    assert negate_title("{c} lies on the table") == "{c} does not lie on the table"
    assert negate_title("{t} touches a lake") == "{t} does not touch a lake"
    assert negate_title("{p} carries cargo") == "{p} does not carry cargo"
    assert negate_title("{t} is next to a well") == "{t} is not next to a well"
