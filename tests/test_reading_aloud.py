"""Rulings a judge can read aloud, and citations a judge can follow.

A ruling names the pieces, tiles and areas of the position and says which part
of a rule failed, in the game's words; a computed amount shows its sum; no
program value ("None", "True"), no "1 tiles", "a emissary" or "you is" ever
reaches a reader, in a ruling or (tests/test_page_text.py) on any page of the
rulebook; and every worked example's ruling cites the rules it illustrates.
"""

from __future__ import annotations

import re

import pytest

from compiler.engine.position import Position, Rules
from compiler.engine.ruling import Ruling
from compiler.engine.scenario import ExampleResult, model_from_facts, run_example, settled
from compiler.engine.formats import position_from_model
from compiler.ir import model as m
from compiler.ir.english import Vocabulary, article
from tests import compiled
from tests.compiled import rules as rules_for

pytestmark = pytest.mark.xdist_group("reading")

_RESULTS: dict[str, list[ExampleResult]] = {}


def results_for(name: str) -> list[ExampleResult]:
    if name not in _RESULTS:
        rules = rules_for(name)
        _RESULTS[name] = [run_example(rules, ex) for ex in rules.ruleset.examples]
    return _RESULTS[name]


def given(rules: Rules, example: str) -> Position:
    """The position of a worked example's `given` block."""
    ex = next(e for e in rules.ruleset.examples if e.id == example)
    return settled(position_from_model(rules, model_from_facts(rules, ex.given)))


# ------------------------------------------------------------------ leaks


class Leaks:
    """What must never reach a reader, in the words of one ruleset."""

    def __init__(self, ruleset: m.Ruleset) -> None:
        v = Vocabulary.of(ruleset)
        words = sorted(set(v.singular.values()), key=len, reverse=True)
        vowel = [w for w in words if article(w).startswith("an ")]
        consonant = [w for w in words if article(w).startswith("a ")]
        plurals = sorted(set(v.plural.values()) | {"tiles", "moves", "steps", "times", "points",
                                                   "actions", "players", "edge steps"},
                         key=len, reverse=True)
        alt = "|".join
        self.patterns = [
            (re.compile(r"\b(None|True|False)\b"), "a program value"),
            (re.compile(rf"\ba ({alt(map(re.escape, vowel))})\b"), "“a” before a vowel"),
            (re.compile(rf"\ban ({alt(map(re.escape, consonant))})\b"), "“an” before a consonant"),
            (re.compile(rf"(?<![\d,.+−-])\b1 ({alt(map(re.escape, plurals))})\b"),
             "a plural after 1"),
            (re.compile(r"\byou (is|has|does|was|holds|receives)\b"), "“you” with “is”"),
            (re.compile(r"\b(required|forbidden): "), "a formula instead of a reason"),
            (re.compile(r"\b1 (thi|hi|bonu|ga)\b"), "a word cut short as if plural"),
            (re.compile(r"\bit[’']s (supply|\w+ points)\b"), "“it’s” for “its”"),
            (re.compile(r"\b(the team of you|you and their partners)\b"), "“you” as a third person"),
            (re.compile(r"\b(\S+ \S+ \S+) (?:is|are) \1\)"), "a value said to equal itself"),
        ]
        self.titles = [t for t in (ruleset.title, ruleset.subtitle) if t]

    def found(self, text: str) -> list[str]:
        out = [f"{why}: …{text[max(0, hit.start() - 30):hit.end() + 30]}…"
               for pattern, why in self.patterns for hit in pattern.finditer(text)]
        for title in self.titles:
            for hit in re.finditer(re.escape(title), text, re.I):
                # A sentence may start a title in lower case ("the family variant"); a
                # name inside it keeps its capitals ("Początek Podboju").
                if hit.group(0)[1:] != title[1:]:
                    out.append(f"a title lost its capitals: {hit.group(0)}")
        return out


def ruling_texts(result: ExampleResult) -> list[str]:
    texts: list[str] = []
    if result.ruling is not None:
        texts.append(result.ruling.render())
    texts += [e.text for e in result.end_effects]
    return texts


@pytest.mark.parametrize("ruleset", compiled.names())
def test_every_example_ruling_reads_as_english(ruleset: str) -> None:
    leaks = Leaks(rules_for(ruleset).ruleset)
    found = [f"{r.example.id}: {hit}" for r in results_for(ruleset)
             for text in ruling_texts(r) for hit in leaks.found(text)]
    # A reason read aloud says "the pieces … that are Corvettes", never a
    # formula's "for which it" (a rule's summary on its page still may).
    found += [f"{r.example.id}: a formula's “for which it”: {text}"
              for r in results_for(ruleset) for text in ruling_texts(r) if "for which it" in text]
    assert not found, "\n".join(found)


# -------------------------------------------------------------- citations


def cited(result: ExampleResult) -> set[str]:
    """Every rule the example's ruling cites: what decided it, what it breaks, what follows."""
    out: set[str] = set()
    for mv in result.ruling.moves if result.ruling else []:
        out |= {c.id for c in mv.decided_by + ([mv.action_rule] if mv.action_rule else [])}
        for b in mv.breaches:
            out |= {c.id for c in ([b.rule] if b.rule else []) + b.also}
        for e in mv.consequences:
            out |= {c.id for c in ([e.rule] if e.rule else []) + e.also}
    for e in result.end_effects:
        out |= {c.id for c in ([e.rule] if e.rule else []) + e.also}
    out |= set(result.end_decided)
    if result.after is not None and any(f.fact == "breach" for f in result.example.expect):
        out |= {f.rule.id for f in result.after.audit() if f.rule}  # the breaches it reads out
    if any(f.fact == "start" for f in result.example.given):  # the set-up it begins with
        out |= {d.rule for d in result.before.rules.ruleset.all_decls()
                if isinstance(d, m.Trigger) and d.event.type == "moment"
                and d.event.moment == "start" and d.event.target == "game" and d.rule}
    if any(f.fact == "no_breach" for f in result.example.expect):  # every audit looked
        out |= {x for d in result.after.rules.ruleset.all_decls() if isinstance(d, m.AuditDecl)
                for x in [d.rule, *(b.rule for b in d.breaches)] if x}
    return out


def followed(rules: Rules, ids: set[str]) -> set[str]:
    """The cited rules and the rules their texts send a reader on to (`[[rule:x]]`)."""
    index = {r.id: r for r in rules.ruleset.all_rules()}
    out = set(ids)
    for rid in ids:
        if rid in index:
            out |= set(re.findall(r"\[\[rule:([\w.]+)", index[rid].text))
    return out


def uncited(rules: Rules, result: ExampleResult) -> list[str]:
    """The illustrated rules no citation reaches: cited, a sub-rule of it cited, or linked."""
    reached = followed(rules, cited(result))
    return [r for r in result.example.illustrates
            if not any(c == r or c.startswith(r + ".") for c in reached)]


EXAMPLES = [pytest.param(name, ex.id, id=f"{name}:{ex.number}:{ex.id}")
            for name in compiled.names() for ex in compiled.ruleset(name).examples]


@pytest.mark.parametrize("ruleset,example", EXAMPLES)
def test_every_example_cites_the_rules_it_illustrates(ruleset: str, example: str) -> None:
    rules = rules_for(ruleset)
    result = next(r for r in results_for(ruleset) if r.example.id == example)
    missing = uncited(rules, result)
    assert not missing, f"{example} illustrates {', '.join(missing)}, but its ruling cites " \
                        f"{', '.join(sorted(cited(result))) or 'nothing'}"


# ------------------------------------------------------------ the reasons


def only_breach(ruling: Ruling) -> str:
    (mv,) = ruling.moves
    return " / ".join(b.message for b in mv.breaches)


def test_a_covered_emissary_names_what_is_on_top() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "teleport_station")
    said = only_breach(pos.adjudicate("teleport emissary@0,0:planet to 3,0:nebula"))
    assert said == "Quuylto’s emissary at 0,0:planet has Quuylto’s research station on top"


def test_an_emissary_refused_by_an_extractor_names_the_nebula_and_the_tile() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "emissary_extractor_nebula")
    said = only_breach(pos.adjudicate("emissary 1,0:nebula"))
    assert said == ("an emissary may not go to 1,0:nebula, because the nebula at 0,0:nebula "
                    "has a Trian extractor (on tile 0,0)")


def test_a_refusal_in_an_area_someone_else_controls_names_the_controller() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "teleport_foreign")
    ruling = pos.adjudicate("teleport emissary@2,0:nebula to 1,0:planet")
    assert "is controlled by Quuylto, not by Xemh" in only_breach(ruling)


def test_a_ship_that_cannot_go_so_far_says_how_far_it_is() -> None:
    rules = rules_for("trian_conquest")
    pos = given(rules, "sail_four")
    said = only_breach(pos.adjudicate("sail corvette@0,0:space to 4,0:space"))
    assert said == "4,0:space is 4 moves from 0,0:space through outer space, more than 3"


def test_a_ship_that_may_not_pass_a_station_names_the_tile_and_the_station() -> None:
    rules = rules_for("trian_conquest")
    pos = given(rules, "sail_station_corvette")
    said = only_breach(pos.adjudicate("sail corvette@0,0:space to 2,0:space"))
    assert "passes tile 1,0, which may not be entered" in said
    assert "research station at 1,0:planet" in said


def test_a_ship_kept_out_of_an_exmitter_field_cites_the_field() -> None:
    rules = rules_for("trian_new_order")
    pos = given(rules, "exmitter_field_ship")
    ruling = pos.adjudicate("sail corvette@0,0:space to 1,0:space")
    breach = ruling.moves[0].breaches[0]
    assert breach.message.startswith("tile 1,0 may not be entered: tile 1,0 is in an exmitter's "
                                     "field (tile 2,0 has an exmitter")
    assert "expansion.exmitter.field" in {c.id for c in breach.also}


def test_a_blocked_emissary_names_the_ship_that_blocks_it() -> None:
    rules = rules_for("trian_new_order")
    pos = given(rules, "build_blocked_refused")
    ruling = pos.adjudicate("station emissary@1,0:planet")
    (breach,) = ruling.moves[0].breaches
    assert breach.message == "a blocked emissary cannot be built on"  # the author's words first
    assert breach.detail == ("K'Haarquar’s emissary at 1,0:planet is blocked (tile 1,0 holds "
                             "Arvori’s Corvette at 1,0:space)")


def test_points_for_a_closed_system_show_the_sum() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "system_three")
    ruling = pos.adjudicate("t17 a at 2,0 r2; research")
    texts = [c.text for mv in ruling.moves for c in mv.consequences]
    assert "Xemh receives 6 victory points for the planetary system at 0,0:system: " \
           "2 × 3 tiles = 6" in texts


def test_minerals_for_a_closed_nebula_show_what_they_count() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "nebula_four")
    ruling = pos.adjudicate("t68 a at 3,0 r2; research")
    texts = [c.text for mv in ruling.moves for c in mv.consequences]
    assert "the nebula at 0,0:nebula receives 5 mineral markers: 4 tiles + 1 Trian extractor " \
           "= 5" in texts


def test_a_move_while_another_player_must_decide_says_whose_decision_it_is() -> None:
    rules = rules_for("trian_new_order")
    pos = given(rules, "divine_help").apply(
        "sail rogue@2,0:space to 1,0:space; engage interstellar@0,0:space with rogue@1,0:space")
    ruling = pos.adjudicate("sail rogue@1,0:space to 2,0:space")
    step, granted = ruling.moves[0].breaches
    assert step.message == (
        "“move a ship” is not possible now: it is Arvori’s decision first, out of "
        "K'Haarquar’s turn 10: Arvori must escape with Divine help or let the Interstellar fall")
    assert granted.rule is not None and granted.rule.id == "battles.ships"
    assert "Arvori to decide" in ruling.render()


def test_an_authors_message_comes_first_and_the_reason_follows() -> None:
    rules = rules_for("trian_deluxe")
    pos = given(rules, "gather_twice")
    ruling = pos.adjudicate("gather 0,0:nebula; gather 0,0:nebula")
    breach = ruling.moves[-1].breaches[-1]
    assert breach.message == "this nebula has already yielded this turn"
    assert breach.detail and "0,0:nebula" in breach.detail


def test_a_filtered_collection_reads_as_a_relative_clause() -> None:
    rules = rules_for("trian_conquest")
    pos = given(rules, "launch_rogue_beside_ship")
    (mv,) = pos.adjudicate("rogue 1,0:space").moves
    assert "because Quuylto’s Corvette at 0,0:space is among the pieces in the tiles sharing " \
           "an edge with tile 1,0 that are Corvettes or Rogues" in mv.breaches[0].detail


def test_a_phrase_after_1_keeps_this_turn() -> None:
    rules = rules_for("trian_new_order")
    result = next(r for r in results_for("trian_new_order") if r.ruling and any(
        "yielded" in e.text for mv in r.ruling.moves for e in mv.consequences))
    texts = [e.text for mv in result.ruling.moves for e in mv.consequences if "yielded" in e.text]
    assert texts and all(t.endswith("yielded 1 this turn") for t in texts), texts
    assert rules


def consequences(ruleset: str, example: str) -> list[str]:
    result = next(r for r in results_for(ruleset) if r.example.id == example)
    assert result.ruling is not None
    return [e.text for mv in result.ruling.moves for e in mv.consequences]


def test_a_choice_let_pass_is_said_not_lost() -> None:
    said = consequences("trian_family", "family_recall_none")
    assert "Quuylto lets pass the choice to take emissaries back" in said


def test_a_choice_with_nothing_legal_left_is_said_to_lapse() -> None:
    said = consequences("trian_conquest", "launch_corvette_free_space")
    granted = said.index("K'Haarquar may now mine with a Rogue")
    assert said[granted + 1] == ("K'Haarquar’s choice to mine with a Rogue lapses, as nothing "
                                 "legal is left to choose")


@pytest.mark.parametrize(("title", "said", "reads"), [
    ("deal {n} cards to {p}", {"n": "3", "p": "Red"}, "deal 3 cards to Red"),
    ("deal {n} cards to {p}", {"n": "cards", "p": "Red"}, "deal cards to Red"),
    ("in at most {n} moves", {"n": "how far b moves"}, "in at most how far b moves"),
    ("{x} and {y}", {"x": "1"}, "1 and {y}"),
])
def test_a_title_said_with_its_values_never_says_a_word_twice(title: str, said: dict[str, str],
                                                              reads: str) -> None:
    from compiler.ir.prose import fill
    assert fill(title, said) == reads
