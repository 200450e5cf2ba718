"""Variants: a ruleset that extends another and edits it by id.

Written as an author meets the mechanism: a small variant file on top of the
Deluxe base game, and what `rulebook check` says when an id is wrong.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.formats import from_state
from compiler.engine.position import Position, Rules
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.load import load_files
from tests import compiled


def variant(tmp_path: Path, body: str, name: str = "my_variant") -> m.Ruleset:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.rules").write_text(textwrap.dedent(body), encoding="utf-8")
    return load_files(sorted(folder.glob("*.rules")))[0]


def errors(tmp_path: Path, body: str) -> list[str]:
    with pytest.raises(CompileError) as info:
        variant(tmp_path, body)
    return [f"{d.message} | {d.hint or ''}" for d in info.value.diagnostics]


HEADER = """
ruleset my_variant extends trian_deluxe {
    subtitle "My variant"
}
"""


def test_a_variant_with_no_edits_is_the_base_game(tmp_path: Path, deluxe: m.Ruleset) -> None:
    rs = variant(tmp_path, HEADER)
    assert rs.id == "my_variant" and rs.extends == "trian_deluxe"
    assert rs.title == deluxe.title and rs.subtitle == "My variant"
    assert [r.id for r in rs.all_rules()] == [r.id for r in deluxe.all_rules()]
    assert len(rs.examples) == len(deluxe.examples) and rs.changes == []


def test_replacing_a_rule_changes_what_the_engine_does(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        replace rule actions.research "Research" {
            text """Score 5 victory points."""
            action research "research" {
                notation "research"
                give 5 points to me
            }
        }
    ''')
    assert [(c.op, c.id) for c in rs.changes] == [("replaced", "actions.research")]
    rules = Rules(rs)
    action = rules.game.actions["research"]
    assert action.decl.rule == "actions.research"
    assert "5" in rs.rule_index()["actions.research"].text


def test_replacing_a_rule_keeps_the_sub_rules_it_does_not_mention(tmp_path: Path,
                                                                  deluxe: m.Ruleset) -> None:
    rs = variant(tmp_path, HEADER + '''
        replace rule actions.teleport "Teleporting an emissary" {
            text """As in the base game, in fewer words."""
            action teleport "teleport an emissary" {
                notation "teleport {e} to {dest}"
                require placed has teleport
                choose e from emissary in neighbours(placed)
                choose dest from sites
                move e to dest
            }
        }
    ''')
    old = [r.id for r in deluxe.rule_index()["actions.teleport"].rules]
    assert [r.id for r in rs.rule_index()["actions.teleport"].rules] == old


def test_removing_a_rule_removes_its_declarations_and_sub_rules(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + """
        remove rule actions.one_kind
        remove example teleport_occupied
    """)
    assert "actions.one_kind" not in rs.rule_index()
    game = Rules(rs).game
    assert not any(f.rule == "actions.one_kind" for f in rs.all_decls()
                   if isinstance(f, m.Forbid))
    assert len(game.forbids) == len(compiled.rules("trian_deluxe").game.forbids) - 1
    assert {(c.op, c.kind, c.id) for c in rs.changes} == {
        ("removed", "rule", "actions.one_kind"), ("removed", "example", "teleport_occupied")}


def test_add_to_puts_a_rule_into_an_existing_chapter(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        add to chapter end {
            rule end.bonus "A bonus for the last player" {
                text """The last player in turn order scores 3 more points."""
                at end of game {
                    give 3 points to only(players as p where p == me)
                }
            }
        }
    ''')
    chapter = next(c for c in rs.chapters if c.id == "end")
    assert chapter.rules[-1].id == "end.bonus"
    assert chapter.rules[-1].number == f"{chapter.number}.{len(chapter.rules)}"
    assert ("added", "end.bonus") in {(c.op, c.id) for c in rs.changes}


def test_replacing_an_unknown_rule_says_did_you_mean(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + '''
        replace rule actions.reserch "Research" { text """x""" }
    ''')
    assert "cannot replace rule `actions.reserch`" in msg
    assert "did you mean `actions.research`" in msg


def test_removing_an_unknown_example_says_did_you_mean(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + "remove example nebula_fuor\n")
    assert "cannot remove example `nebula_fuor`" in msg and "nebula_four" in msg


def test_writing_an_existing_id_plainly_asks_for_replace(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + '''
        term nebula "nebula" { text """A cloud.""" }
    ''')
    assert "term `nebula` already exists" in msg and "replace term nebula" in msg


def test_a_reference_to_a_removed_rule_names_the_removal(tmp_path: Path) -> None:
    found = errors(tmp_path, HEADER + "remove rule actions.outpost\n")
    assert any("refers to no rule" in f and "removes rule `actions.outpost`" in f for f in found)


def test_edits_need_a_base(tmp_path: Path) -> None:
    folder = tmp_path / "lonely"
    folder.mkdir()
    (folder / "a.rules").write_text('ruleset lonely { title "x" }\nremove rule a.b\n')
    with pytest.raises(CompileError) as info:
        load_files([folder / "a.rules"])
    assert any("extends none" in d.message for d in info.value.diagnostics)


def test_an_unknown_base_is_reported_with_a_suggestion(tmp_path: Path) -> None:
    found = errors(tmp_path, "ruleset my_variant extends trian_delux { }\n")
    assert any("extends unknown ruleset `trian_delux`" in f and "trian_deluxe" in f
               for f in found)


def test_a_variant_of_a_variant_inherits_both(tmp_path: Path) -> None:
    rs = variant(tmp_path, """
        ruleset family_more extends trian_family { subtitle "Family, more tiles" }
        add to rule components.tiles { use tiles base }
    """)
    assert "family.systems" in rs.rule_index()
    assert "actions.station" not in rs.rule_index()


# ------------------------------------------------------------ out-of-turn choices


def test_a_choice_granted_out_of_turn_is_that_players_to_make() -> None:
    rules = compiled.rules("trian_family")
    ex = next(e for e in rules.ruleset.examples if e.id == "family_recall_all")
    from compiler.engine.scenario import model_from_facts
    from compiler.engine.formats import to_state
    pos = Position(rules, to_state(rules, model_from_facts(rules, ex.given)))
    after = pos.apply("t68 a at 3,0 r2; research")
    assert rules.game.seat_id(after.active) == "quuylto"      # Xemh's turn, Quuylto decides
    assert after.situation().player == "quuylto"
    moves = [after.notation(mv) for mv in after.legal_moves()]
    assert moves == ["recall emissary@1,0:nebula", "pass"]
    # The position, with its pending choice, survives a round trip through JSON.
    model = from_state(rules, after.state)
    assert model.turn.grants[0].player == "quuylto"
    declined = after.apply("pass")
    assert rules.game.seat_id(declined.state.turn.active) == "khaarquar"


def test_check_warns_about_what_nothing_reaches(tmp_path: Path) -> None:
    folder = tmp_path / "my_variant"
    folder.mkdir()
    (folder / "ruleset.rules").write_text(textwrap.dedent(HEADER + '''
        term comet "comet" { text """A rock with a tail.""" }
        add to chapter actions {
            rule actions.wish "Wishing" {
                text """Nothing offers this action."""
                action wish "wish" { give 1 points to me }
                define twice(x) = 2 * x
            }
        }
    '''), encoding="utf-8")
    _, _, warnings = load_files([folder / "ruleset.rules"])
    found = {w.message for w in warnings}
    assert "term `comet` is never linked from any text" in found
    assert "action `wish` is never offered" in found
    assert "definition `twice` is never used" in found


def test_five_players_deal_105_tiles_from_two_copies() -> None:
    rules = compiled.rules("trian_six")
    assert len(rules.ruleset.tiles()) == 168
    assert "t01_2" in rules.game.catalogue.card_faces
    for players, dealt in ((4, 84), (5, 105), (6, 126)):
        pos = rules.start(players, seed=7)
        assert sum(len(s) for s in pos.state.stacks) + len(pos.state.board) == dealt


def test_a_copy_of_an_unknown_tile_set_is_reported(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + 'tiles spare "Spare" copies bsae suffix "_2" { }\n')
    assert "copies unknown tile set `bsae`" in msg and "did you mean `base`" in msg


def test_replacing_a_chapter_keeps_its_rules_and_adds_new_ones(tmp_path: Path,
                                                               deluxe: m.Ruleset) -> None:
    rs = variant(tmp_path, HEADER + '''
        replace chapter situations "Unusual moments" {
            text """Rare things, settled in advance."""
            rule situations.calm "A quiet turn" {
                text """Nothing happens; that is allowed."""
            }
        }
    ''')
    chapter = next(c for c in rs.chapters if c.id == "situations")
    old = next(c for c in deluxe.chapters if c.id == "situations")
    assert chapter.title == "Unusual moments"
    assert [r.id for r in chapter.rules] == [r.id for r in old.rules] + ["situations.calm"]
    assert {(c.op, c.kind, c.id) for c in rs.changes} == {
        ("replaced", "chapter", "situations"), ("added", "rule", "situations.calm")}


def test_tiles_can_be_replaced_removed_and_added_by_id(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + '''
        replace tile t02 {
            face a [space, space, space] { space 0, 1, 2 }
            face b [nebula, nebula, nebula] { nebula 0, 1, 2 }
        }
        remove tile t72
        add to tiles base {
            tile t99 { face a [space, space, space] { space 0, 1, 2 } }
        }
        remove example tile_set_aside
    ''')
    tiles = {t.id: t for t in rs.tiles()}
    assert "t72" not in tiles and "t99" in tiles and len(tiles) == 72
    assert tiles["t02"].faces[1].edges == ["nebula", "nebula", "nebula"]
    game = Rules(rs).game
    assert ("t99", "a") in game.catalogue.faces


def test_remove_every_example_clears_the_inherited_ones(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + "remove every example\n")
    assert rs.examples == []
    assert sum(1 for c in rs.changes if c.op == "removed" and c.kind == "example") == 42


def test_giving_an_area_what_no_area_holds_is_caught_by_check(tmp_path) -> None:
    """Points given to a nebula went nowhere until an example happened to run it."""
    [msg] = errors(tmp_path, HEADER + '''
        add to rule areas.minerals {
            when nebula a closes {
                give 1 points to a
            }
        }
    ''')
    assert "no kind of area holds `points`, so an area can be given none" in msg


# The same text as the base's rule, another reading: nebulas pay double, closer or not.
DOUBLED_NEBULAS = '''
replace rule areas.points.nebula "A nebula: 1 point per tile" {
    text """
    Each leader scores 1 point for every tile in the nebula.
    """
    when nebula a closes, at step check {
        for each p in leaders(a) {
            give 2 * count(tiles in a) points to p
        }
    }
}
'''


def test_what_changes_shows_a_rule_changed_only_in_what_the_engine_reads(tmp_path: Path) -> None:
    """The same text, another reading: the page says the text is the same and sets the two
    readings side by side, where it once showed two identical texts."""
    from compiler.rulebook.pages import RulesetPages
    base = RulesetPages(compiled.rules("trian_deluxe"), {})
    mine = RulesetPages(Rules(variant(tmp_path, HEADER + DOUBLED_NEBULAS)), {})
    mine.link_books({"trian_deluxe": base, "my_variant": mine})
    page = mine.changes_page().text
    assert "The text is the same; what changes is what the engine reads:" in page
    shown = page.split("what changes is what the engine reads:")[1]
    here, there = shown.split("**Deluxe edition: the base game**")
    assert "p receives 2 × the number of tiles in a victory points" in here
    assert "if there are no leaders in a: the player who closed it receives" in there
    assert "p receives the number of tiles in a victory points" in there


def test_rulebook_diff_says_how_the_engines_reading_changed(tmp_path: Path) -> None:
    from typer.testing import CliRunner
    from compiler.cli import app
    variant(tmp_path, HEADER + DOUBLED_NEBULAS)
    result = CliRunner().invoke(app, ["diff", "trian_deluxe", str(tmp_path / "my_variant")])
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    assert "as the engine reads it:" in said
    assert ("+trigger 1 effect: for each p of the leaders in a: p receives 2 × the number of "
            "tiles in a victory points") in said
    assert "-trigger 1 effect: if there are no leaders in a: the player who closed it" in said


def test_add_to_rule_may_add_a_paragraph_of_prose(tmp_path: Path) -> None:
    """A variant says what its new declaration means, under the base's own text, without
    copying the rule."""
    rs = variant(tmp_path, HEADER + '''
        add to rule areas.minerals {
            text "In this variant the closer also takes one mineral from the pool."
            when nebula a closes, at step check after areas.minerals {
                give 1 mineral to closer
            }
        }
    ''')
    rule = rs.rule_index()["areas.minerals"]
    assert rule.text.startswith("A nebula that closes receives mineral markers")
    assert rule.text.endswith("In this variant the closer also takes one mineral from the pool.")
    assert ("replaced", "rule", "areas.minerals") in [(c.op, c.kind, c.id) for c in rs.changes]


REROLL = '''
ruleset lucky extends trian_new_order { subtitle "Lucky rerolls" code "LR" }

replace action reroll "roll the attack die again, with a bonus" {
    notation "reroll"
    choose a from areas where it.fighting
    require me.rerolls > 0 per battles.clash
    set me.roll to die(6) + 1
    set me.rerolls to me.rerolls - 1
    apply next_reroll(a)
}
'''


def test_one_action_deep_in_a_battle_rule_is_replaced_on_its_own(tmp_path: Path) -> None:
    """Changing one line of a New Order battle rule takes the action, not the 40-line rule."""
    rs = variant(tmp_path, REROLL, name="lucky")
    clash = rs.rule_index()["battles.emissaries.clash"]
    actions = {d.id: d for d in clash.decls if isinstance(d, m.Action)}
    assert actions["reroll"].title == "roll the attack die again, with a bonus"
    assert "keep" in actions and "next_reroll" in {d.id for d in clash.decls
                                                   if isinstance(d, m.Effect)}
    assert actions["reroll"].rule == "battles.emissaries.clash"  # cited as the old one was
    assert ("replaced", "rule", "battles.emissaries.clash") in [(c.op, c.kind, c.id)
                                                                  for c in rs.changes]


def test_a_declaration_to_replace_must_exist_and_is_named_with_the_ones_meant(
        tmp_path: Path) -> None:
    [msg] = errors(tmp_path, REROLL.replace("replace action reroll", "replace action rerol"))
    assert "cannot replace action `rerol`: trian_new_order has no such action" in msg
    assert "did you mean `reroll`" in msg


def test_removing_an_action_the_base_still_grants_is_reported_where_it_is_granted(
        tmp_path: Path) -> None:
    found = errors(tmp_path, REROLL + "\nremove action keep\n")
    assert any("unknown action `keep`" in msg for msg in found), found


def test_a_replacement_that_leaves_out_what_the_base_uses_is_one_error_at_the_replace(
        tmp_path: Path) -> None:
    """Replacing New Order's skill modules with text alone left 61 errors in the base's files,
    none at the `replace`: now one, there, naming what was left out."""
    with pytest.raises(CompileError) as info:
        variant(tmp_path, '''
            ruleset short extends trian_new_order { subtitle "Short" code "SH" }

            replace rule skills.modules "Unlocking a skill" {
                text "Skills cost less in this variant."
            }
        ''', name="short")
    [d] = info.value.diagnostics
    assert d.file.endswith("short/ruleset.rules") and d.line == 4
    assert d.message.startswith("`replace rule skills.modules` leaves out `module1`, `module2`, "
                                "`module3`, `racial`, `universal`, `unlock_racial`, "
                                "`unlock_universal`, which the base still uses:")
    assert "replace action" in (d.hint or "")


# ---------------------------------------------------------------- triggers, prohibitions, attributes


def test_the_trigger_of_a_rule_is_replaced_without_copying_the_rule(tmp_path: Path) -> None:
    """A nebula receives 2 minerals when it closes, in place of the base's count: the rule's
    text and its other declarations stay the base's."""
    rs = variant(tmp_path, HEADER + '''
        replace trigger in areas.minerals {
            when nebula a closes, at step check {
                give 2 mineral to a
            }
        }
    ''')
    rule = rs.rule_index()["areas.minerals"]
    [trigger] = [d for d in rule.decls if isinstance(d, m.Trigger)]
    [give] = trigger.body
    assert isinstance(give, n.Give) and give.rule == "areas.minerals"  # cited as the old one
    assert rule.text.startswith("A nebula that closes receives mineral markers")
    assert ("replaced", "rule", "areas.minerals") in [(c.op, c.kind, c.id) for c in rs.changes]


def test_a_prohibition_is_removed_from_its_rule(tmp_path: Path) -> None:
    rs = variant(tmp_path, HEADER + "\nremove forbid in actions.one_kind\n")
    assert not [d for d in rs.rule_index()["actions.one_kind"].decls if isinstance(d, m.Forbid)]


def test_a_rule_with_no_trigger_says_where_the_triggers_are(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + "\nremove trigger in actions.one_kind\n")
    assert msg.startswith("rule `actions.one_kind` declares no trigger of its own | "
                          "the triggers are in `actions.outpost`, `areas.check`")


def test_a_trigger_beyond_the_rules_count_is_out_of_range(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + "\nremove trigger 2 in areas.minerals\n")
    assert msg.startswith("rule `areas.minerals` declares 1 trigger, so there is no trigger 2")


def test_a_trigger_is_not_replaced_by_something_else(tmp_path: Path) -> None:
    [msg] = errors(tmp_path, HEADER + '''
        replace trigger in areas.minerals {
            forbid emissary entering s when true
        }
    ''')
    assert msg.startswith("`replace trigger` takes a trigger (`when …` or `at …`) in its "
                          "braces, not a `forbid`")


def test_a_player_attribute_is_replaced_and_removed_by_its_name(tmp_path: Path) -> None:
    rs = variant(tmp_path, '''
        ruleset counted extends trian_new_order { subtitle "Counted" code "CT" }

        replace player attribute pluses: int "holds {value} +1 tokens in play"
    ''', name="counted")
    [pluses] = [d for d in rs.all_decls() if isinstance(d, m.PlayerAttribute)
                and d.attribute.name == "pluses"]
    assert pluses.attribute.phrase == "holds {value} +1 tokens in play"
    [msg] = errors(tmp_path, HEADER + "\nremove player attribute lucky\n")
    assert msg.startswith("cannot remove player attribute `lucky`: trian_deluxe has no such "
                          "player attribute")


def test_a_use_of_what_a_remove_took_out_names_the_remove_line(tmp_path: Path) -> None:
    """Each use is reported where it is (each may need its own change), and says which
    `remove` of the variant took its name away."""
    with pytest.raises(CompileError) as info:
        variant(tmp_path, HEADER + "\nremove rule actions.research\n")
    [d] = info.value.diagnostics
    assert d.file.endswith("trian_deluxe/turn.rules")
    assert d.message == "step `action` names unknown action `research`"
    assert d.hint is not None and d.hint.startswith(
        "`research` is taken out by `remove rule actions.research` (")
    assert "my_variant/ruleset.rules:6)" in d.hint
