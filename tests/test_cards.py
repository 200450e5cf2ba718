"""Cards in the rules language, shown on a small market game (`tests/fixtures/bazaar`).

Stall cards show a cost and points; some do something when they open (an
ability each card writes for itself), some are worth more where they stand (a
value ability); a kiosk counts as a stall; the night bakery is the bakery in
another printing (`like`). Cards are laid on the table like tiles, face up or
face down, and a ruling cites the card that decided a consequence as it cites
a rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.position import Position, Rules
from compiler.ir import model as m
from compiler.load import load_files, load_ruleset

BAZAAR = Path(__file__).parent / "fixtures" / "bazaar"
SOURCE = (BAZAAR / "bazaar.rules").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def bazaar() -> m.Ruleset:
    return load_ruleset(BAZAAR)


@pytest.fixture(scope="module")
def rules(bazaar: m.Ruleset) -> Rules:
    return Rules(bazaar)


def opened_with_a_well(rules: Rules, *stack: str) -> Position:
    """Ann has laid the well in the middle; Bob draws from `stack` next."""
    pos = rules.start(2, stacks=[["well", *stack]])
    return pos.apply("well front at 0,0 r0")


def coins(pos: Position, seat: int) -> int:
    return pos.state.player_res[seat].get("coin", 0)


def points(pos: Position, seat: int) -> int:
    return pos.state.player_res[seat].get("points", 0)


# ------------------------------------------------------------------ the catalogue


def test_a_like_card_is_its_original_in_another_printing(rules: Rules) -> None:
    cards = rules.game.cards.cards
    night, day = cards["bakery_night"], cards["bakery"]
    assert (night.title, night.props["cost"], night.props["points"]) == ("Bakery", 2, 1)
    assert night.features == day.features == frozenset({"food"})
    assert night.props["night"] is True and day.props["night"] is False
    assert night.name == "bakery"          # copy limits count per printed name
    assert set(night.bodies) == {"opened"}


def test_a_card_that_does_not_print_a_property_has_its_default(rules: Rules) -> None:
    well = rules.game.cards.cards["well"]
    assert well.props == {"cost": 0, "points": 0, "night": False, "small": False}


def test_a_misspelt_card_in_a_move_is_called_a_card_with_the_nearest_name(
        rules: Rules) -> None:
    pos = rules.start(2, stacks=[["well", "bakery"]])
    said = pos.adjudicate("wel front at 0,0 r0").render()
    assert "there is no card `wel` in this game (did you mean `well`?)" in said


def test_a_kiosk_counts_as_a_stall(rules: Rules) -> None:
    assert rules.game.cards.cards["stand"].kinds == frozenset({"kiosk", "stall"})
    assert rules.game.cards.of_kind("kiosk") == ("stand",)
    assert "stand" in rules.game.cards.of_kind("stall")


def test_cards_are_numbered_within_their_set(bazaar: m.Ruleset) -> None:
    numbers = {c.id: c.number for c in bazaar.cards()}
    assert numbers == {"bakery": "S.1", "bakery_night": "S.2", "forge": "S.3", "well": "S.4",
                       "spice": "S.5", "stand": "K.1"}


# ------------------------------------------------------------------ play


def test_a_bakery_costs_its_price_scores_its_points_and_gives_a_coin_back(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "bakery")
    after = pos.apply("bakery front at 1,0 r0")
    assert coins(after, 1) == 6 - 2 + 1
    assert points(after, 1) == 1


def test_a_stall_that_writes_no_opening_does_nothing_when_it_opens(rules: Rules) -> None:
    pos = rules.start(2, stacks=[["well"]])
    after = pos.apply("well front at 0,0 r0")
    assert (coins(after, 0), points(after, 0)) == (6, 0)


def test_a_card_face_down_shows_nothing(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "spice")
    after = pos.apply("spice down at 1,0 r0")
    # No cost to pay, no points, no opening, no rare goods: the back of a card is blank.
    assert (coins(after, 1), points(after, 1)) == (6, 0)
    assert after.state.board[(1, 0)] == ("spice", "down", 0)


def test_a_forge_is_worth_a_point_more_for_each_food_stall_beside_it(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "bakery", "forge")
    pos = pos.apply("bakery front at 1,0 r0")          # Bob
    after = pos.apply("forge front at 1,1 r0")         # Ann, beside the bakery and nothing else
    assert points(after, 0) == 2 + 1


def test_rare_goods_are_read_from_the_features_of_the_card_laid(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "spice")
    after = pos.apply("spice front at 1,0 r0")
    # 3 printed points, 2 for rare goods; it opens: 1 coin for its one neighbour.
    assert points(after, 1) == 3 + 2
    assert coins(after, 1) == 6 - 4 + 1


def test_a_kiosk_opened_gets_a_coin_back_because_it_is_a_kiosk(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "stand")
    after = pos.apply("stand front at 0,1 r0")
    assert coins(after, 1) == 6 - 1 + 1


def test_too_few_coins_for_the_card_drawn_is_refused_by_the_building_rule(rules: Rules) -> None:
    pos = rules.start(2, stacks=[["spice"]])
    pos.state.player_res[0]["coin"] = 3
    ruling = pos.adjudicate("spice front at 0,0 r0")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is not None and breach.rule.id == "market.build"
    assert breach.message == "too few coins for this stall"


def test_a_ruling_cites_the_card_whose_ability_decided_a_consequence(rules: Rules) -> None:
    pos = opened_with_a_well(rules, "bakery", "forge")
    ruling = pos.adjudicate("bakery front at 1,0 r0")
    coin_back = ruling.moves[0].consequences[-1]
    # and says which card gave it, in the words of the ability's title ("{t} opens")
    assert coin_back.text == "Bob receives 1 coin (the Bakery at 1,0 opens)"
    assert coin_back.rule is not None
    assert (coin_back.rule.id, coin_back.rule.number, coin_back.rule.title) == \
        ("stalls.bakery", "S.1", "Bakery")
    assert coin_back.rule.url.endswith("/bazaar/cards-stalls/#card-bakery")


def test_a_worked_example_may_illustrate_a_card_and_a_ruling_may_settle_one(
        bazaar: m.Ruleset) -> None:
    example = next(e for e in bazaar.examples if e.id == "cards_open")
    assert "stalls.bakery" in example.illustrates
    assert bazaar.rulings[0].settles == ["stalls.bakery"]


# ------------------------------------------------------------------ readings


def test_properties_abilities_and_card_tests_read_as_english(rules: Rules, bazaar: m.Ruleset
                                                             ) -> None:
    build = next(d for d in bazaar.all_decls() if isinstance(d, m.Action) and d.id == "build")
    said = [rules.english.stmt(s) for s in build.effects]
    assert said[1:] == [
        "you pay the cost of the tile you placed this turn coins to the pool",
        "you receive the points of the tile you placed this turn + what the tile you placed "
        "this turn is worth to you points",
        "the tile you placed this turn opens",
    ]
    assert rules.english(build.requires[1].cond) == "your coins is at least the cost of card"
    kiosks = next(d for d in bazaar.all_decls() if isinstance(d, m.Trigger)
                  and d.rule == "market.kiosks")
    assert rules.english(kiosks.where) == "t is a Kiosk"
    forge = next(c for c in bazaar.cards() if c.id == "forge")
    assert rules.english(forge.abilities[0].expr) == \
        "the number of tiles sharing an edge with t that have a food"


# ------------------------------------------------------------------ mistakes


def _errors(tmp_path: Path, old: str, new: str) -> list[tuple[str, str | None]]:
    assert old in SOURCE, old
    (tmp_path / "bazaar.rules").write_text(SOURCE.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CompileError) as e:
        load_files([tmp_path / "bazaar.rules"])
    return [(d.message, d.hint) for d in e.value.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("old, new, message, hint", [
    ('cards kiosks "Kiosks" of kiosk {', 'cards kiosks "Kiosks" of kiosc {',
     "card set `kiosks` is of unknown card kind `kiosc`", "did you mean `kiosk`?"),
    ('card well "Well" { cost 0 points 0 }', 'card well "Well" { cost 0 pionts 0 }',
     "card `well` writes `pionts`, which is no property of a Stall", "did you mean `points`?"),
    ('card well "Well" { cost 0 points 0 }', 'card well "Well" { cost "none" points 0 }',
     '`cost` of card `well` is int, so write a whole number, not "none"', None),
    ("with craft  cost 3", "with crafts  cost 3",
     "card `forge` is `with` unknown feature `crafts`", "did you mean `craft`?"),
    ("opened(t) { give 1 coin to me }", "opened(t, u) { give 1 coin to me }",
     "ability `opened` takes 1 parameter(s) (t), but card `bakery` names 2", None),
    ("worth(t, p) = count", "worth(t, p) { give 1 coin to me } forge_note(t) = count",
     "ability `worth` is a value (int): write `worth(…) = VALUE`, not a block", None),
    ('card stand "Tea Stand" {', 'card stand "Tea Stand" like bakery {',
     "card `stand` is a kiosk but is like `bakery`, a stall; `like` makes another printing "
     "of a card of the same kind", None),
    ("like bakery { night true }", "like bakerie { night true }",
     "card `bakery_night` is like unknown card `bakerie`", "did you mean `bakery`?"),
    ('card well "Well" {', 'card well "Well" { copies 0',
     "card `well` has copies 0; a printed card comes in at least 1 copy (remove it to leave "
     "it out)", None),
    ('cards kiosks "Kiosks" of kiosk {\n    card stand', 'cards market "Kiosks" of kiosk {\n    card table',
     "card `table` would be cited as `market.table`, which is a rule's id; rename the card "
     "(or the rule)", None),
    ("give placed.cost coin from me", "give placed.csot coin from me",
     "a tile on the board has no attribute `csot`", "did you mean `cost`?"),
    ("where t is kiosk", "where t is kiosc",
     "`kiosc` is no card kind and no card", "did you mean `kiosk`?"),
    ("property night: bool", "property night: player",
     "property `night` is player, but a property printed on a card is int, bool or text", None),
    ('card well "Well" {', 'card stall "Well" {',
     "card `stall` has the id of the card kind `stall`, so `x is stall` could mean either; "
     "rename the card", None),
    ("property night: bool\n", "property night: bool\n            property coin: int\n"
                                "            holds coin\n",
     "property `coin` has the name of a resource that cards hold: `t.coin` could not tell them "
     "apart; call the property something else", None),
    ('card well "Well" {', 'card well "Well" { holds coins',
     "card `well` holds unknown resource `coins`", "did you mean `coin` or `points`?"),
])
def test_a_mistake_in_a_card_is_reported_in_words(tmp_path: Path, old: str, new: str,
                                                 message: str, hint: str | None) -> None:
    errors = _errors(tmp_path, old, new)
    assert (message, hint) in errors, errors


# ------------------------------------------------------------------ variants


VARIANT = '''
ruleset night_market extends bazaar {
    title "Night market"
}
replace card well "Well" { cost 1 points 1 with food }
remove card bakery_night
add to cards kiosks {
    card lamp "Lamp Stand" { cost 2 points 2 small true night true }
}
'''


def night_market() -> tuple[m.Ruleset, m.Ruleset]:
    """The market, and a variant of it that edits its cards by id."""
    from compiler.check import check_ruleset
    from compiler.diagnostics import SourceMap
    from compiler.load import assemble_files
    from compiler.parse import parse_rules
    from compiler.variants import apply_variant

    sources = SourceMap()
    base, _ = assemble_files([BAZAAR / "bazaar.rules"], sources)
    items = parse_rules(VARIANT, "night_market.rules")
    header = next(i for i in items if isinstance(i, m.Ruleset))
    variant, problems = apply_variant(base, header, items, sources)
    assert problems == []
    assert [d for d in check_ruleset(variant, sources) if d.severity == "error"] == []
    return load_ruleset(BAZAAR), variant


def test_a_variant_replaces_removes_and_adds_cards_by_id() -> None:
    _, variant = night_market()
    cards = {c.id: c for c in variant.cards()}
    assert "bakery_night" not in cards
    assert (cards["well"].props, cards["well"].features) == ({"cost": 1, "points": 1}, ["food"])
    assert cards["lamp"].kind == "kiosk" and cards["lamp"].number == "K.2"
    changed = [(c.op, c.kind, c.id, c.parent) for c in variant.changes]
    assert changed == [("replaced", "card", "well", "stalls"),
                       ("removed", "card", "bakery_night", "stalls"),
                       ("added", "card", "lamp", "kiosks")]


def test_rulebook_diff_lists_the_cards_a_variant_changed() -> None:
    from compiler.diffing import diff
    base, variant = night_market()
    cards = [(d.op, d.id) for d in diff(base, variant) if d.kind == "card"]
    assert cards == [("added", "lamp"), ("removed", "bakery_night"), ("changed", "well")]


# ------------------------------------------------------------------ the rulebook


def test_a_card_set_is_a_page_of_the_rulebook_in_place_of_the_tile_catalogue(
        rules: Rules, bazaar: m.Ruleset) -> None:
    from compiler.engine.scenario import run_example
    from compiler.rulebook.pages import RulesetPages
    book = RulesetPages(rules, {e.id: run_example(rules, e) for e in bazaar.examples})
    nav = [next(iter(entry)) for entry in book.nav()[0]["bazaar"]]
    assert "Tile catalogue" not in nav
    assert "bazaar/catalogue.md" not in [p.path for p in book.pages()]  # no page outside the nav
    # `[[page:catalogue]]` sends a reader to the cards instead.
    assert book.ix.prose("[[page:catalogue]]") == "[Stall cards](cards-stalls.md)"
    assert nav[-4:] == ["Stall cards", "Kiosks", "Positions and records", "On one page, to print"]
    page = next(p for p in book.pages() if p.path == "bazaar/cards-stalls.md")
    text = page.text
    # Each card under its number, drawn, with what it prints and its abilities as read.
    assert "## S.1 Bakery { #card-bakery }" in text
    assert "`bakery` · 2 copies · with food · cost 2 · points 1" in text
    assert "**This card opens:**\n\n    - you receive 1 coin." in text
    assert "Another printing of [S.1 Bakery](#card-bakery)." in text
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="card-svg"') == 5
    # The example and the ruling that name the bakery are linked from it, and back.
    assert "Example: [B-E1 A bakery opens](market.md#example-cards-open" in text
    rulings = next(p for p in book.pages() if p.path == "bazaar/rulings.md").text
    assert '**Settles:** [S.1 Bakery](cards-stalls.md#card-bakery "S.1 Bakery")' in rulings


def test_an_ability_may_be_named_like_a_keyword_of_the_language() -> None:
    from compiler.parse import parse_rules
    [cards] = parse_rules('''
        cards spells "Spells" of spell {
            card spark "Spark" {
                power 2
                effect(t) { give 1 points to me }
                final(t) = t.power + 1
                define(t) = 0
            }
        }
    ''')
    assert [a.name for a in cards.cards[0].abilities] == ["effect", "final", "define"]
