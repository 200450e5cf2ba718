"""The `rulebook` command as a user meets it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine.formats import from_state
from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import write_record
from tests.conftest import DELUXE

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def said(result) -> str:
    """The output as one line of words, without the frame an error panel draws around it."""
    return " ".join(result.output.replace("│", " ").replace("╭", " ").replace("╰", " ").split())


@pytest.fixture(scope="module")
def files(tmp_path_factory, rules: Rules):
    folder = tmp_path_factory.mktemp("game")
    final, history = random_game(rules, 4, seed=3)
    (folder / "game.record").write_text(write_record(history, final))
    _, mid, _ = history.moves[60]
    (folder / "mid.json").write_text(from_state(rules, mid.state).model_dump_json(indent=2))
    return folder, mid


def test_check_accepts_the_deluxe_rules_and_verifies_the_examples() -> None:
    result = run("check", str(DELUXE))
    assert result.exit_code == 0, result.output
    assert "is correct" in result.output and "all verified" in result.output


def test_check_reports_planted_mistakes_with_place_caret_and_hint(tmp_path: Path) -> None:
    copy = tmp_path / "deluxe"
    shutil.copytree(DELUXE, copy)
    f = copy / "actions.rules"
    f.write_text(f.read_text().replace("give 2 points to me", "give 2 pionts to me"))
    result = run("check", str(f))
    assert result.exit_code == 1
    assert "actions.rules:" in result.output
    assert "unknown resource `pionts`" in result.output
    assert "^^^^^^" in result.output
    assert "did you mean `points`?" in result.output


def test_check_reports_an_example_the_engine_disagrees_with(tmp_path: Path) -> None:
    copy = tmp_path / "deluxe"
    shutil.copytree(DELUXE, copy)
    f = copy / "examples_areas.rules"
    f.write_text(f.read_text().replace("expect points quuylto +4", "expect points quuylto +5", 1))
    result = run("check", str(copy))
    assert result.exit_code == 1
    assert "example `nebula_four` disagrees with the engine" in result.output
    assert "expected quuylto to gain +5 victory points, but the change is +4" in result.output


def test_compile_json_is_the_complete_ir() -> None:
    result = run("compile", "trian_deluxe", "--json")
    assert result.exit_code == 0
    ir = json.loads(result.output)
    assert ir["id"] == "trian_deluxe" and len(ir["tilesets"][0]["tiles"]) == 72


def test_moves_lists_legal_moves_in_notation(files) -> None:
    folder, mid = files
    result = run("moves", "trian_deluxe", str(folder / "mid.json"))
    assert result.exit_code == 0
    listed = result.output.splitlines()[1:]
    assert listed == [mid.notation(m) for m in mid.legal_moves()]


def test_adjudicate_a_legal_move_cites_rules_with_links(files) -> None:
    folder, mid = files
    move = mid.notation(mid.legal_moves()[0])
    result = run("adjudicate", "trian_deluxe", str(folder / "mid.json"), move, "--json")
    assert result.exit_code == 0
    ruling = json.loads(result.output)
    assert ruling["verdict"] == "LEGAL"
    assert all(r["url"].startswith("http") and "#" in r["url"]
               for r in ruling["moves"][0]["decided_by"])


def test_adjudicate_an_illegal_move_exits_2_and_says_why(files) -> None:
    folder, _ = files
    result = run("adjudicate", "trian_deluxe", str(folder / "game.record"), "research")
    assert result.exit_code == 2
    assert result.output.startswith("ILLEGAL")
    assert "the game is over" in result.output


def test_replay_shows_the_final_scores(files) -> None:
    folder, _ = files
    result = run("replay", "trian_deluxe", str(folder / "game.record"))
    assert result.exit_code == 0
    assert "game over" in result.output and "(winner)" in result.output


def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    result = run("play", "trian_deluxe", "--players", "2", "--seed", "5")
    assert result.exit_code == 0
    (tmp_path / "g.record").write_text(result.output)
    again = run("replay", "trian_deluxe", str(tmp_path / "g.record"), "--json")
    assert again.exit_code == 0
    assert json.loads(again.output)["finished"] is True


def test_a_bad_position_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text('{"ruleset": "trian_deluxe", "players": [], "turn": {}}')
    result = run("moves", "trian_deluxe", str(tmp_path / "p.json"))
    assert result.exit_code == 2  # the input is refused
    assert "turn.player" in result.output


def test_unknown_ruleset_gets_a_suggestion() -> None:
    result = run("moves", "trian_delux", "x.json")
    assert result.exit_code == 2  # a wrong argument is refused input
    assert "did you mean `trian_deluxe`" in result.output


def test_schema_prints_json_schema() -> None:
    result = run("schema")
    assert json.loads(result.output)["title"] == "Position"


# ------------------------------------------------------------ variants


def test_new_variant_scaffolds_a_file_that_checks(tmp_path: Path) -> None:
    target = tmp_path / "house_rules"
    result = runner.invoke(app, ["new-variant", "house_rules", "--extends", "trian_deluxe",
                                 "--folder", str(target)])
    assert result.exit_code == 0, result.output
    text = (target / "ruleset.rules").read_text()
    assert "ruleset house_rules extends trian_deluxe" in text
    checked = runner.invoke(app, ["check", str(target), "--no-examples"])
    assert checked.exit_code == 0, checked.output


def test_new_variant_refuses_a_bad_name(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new-variant", "House Rules", "--extends", "trian_deluxe",
                                 "--folder", str(tmp_path / "x")])
    assert result.exit_code == 2 and "cannot be a ruleset id" in result.output


def test_diff_lists_what_a_variant_adds_removes_and_changes() -> None:
    result = runner.invoke(app, ["diff", "trian_deluxe", "trian_family"])
    assert result.exit_code == 0, result.output
    assert "+ family.systems" in result.output
    assert "- actions.station" in result.output
    assert "~ areas.control" in result.output and "(declarations changed)" in result.output
    assert "[[control]]" in result.output  # prose shown as written, not eaten as markup


# ------------------------------------------------------------ bad input


def test_every_exit_code_is_documented_in_the_help() -> None:
    from compiler.cli import EXIT_CODES
    text = run("--help").output
    assert set(EXIT_CODES) == {0, 1, 2} and "Exit codes" in text


def test_help_paragraphs_break_only_where_the_terminal_ends() -> None:
    """A docstring's own line breaks would break the help in mid-sentence ("…what they" /
    "can see."): every paragraph of every command's help is one line."""
    for command in app.registered_commands:
        assert command.help, command.name
        for paragraph in command.help.split("\n\n"):
            assert "\n" not in paragraph, (command.name, paragraph)
    text = " ".join(run("play", "--help").output.split())
    assert "each chooses from what they can see." in text


def test_an_unreadable_move_exits_2_and_says_what_moves_look_like(files) -> None:
    folder, _ = files
    result = run("adjudicate", "trian_deluxe", str(folder / "mid.json"), "xyzzy")
    assert result.exit_code == 2
    assert result.output.startswith("UNREADABLE") and "moves are written" in result.output


def test_the_empty_move_is_not_legal(files) -> None:
    folder, _ = files
    result = run("adjudicate", "trian_deluxe", str(folder / "mid.json"), "")
    assert result.exit_code == 2 and result.output.startswith("UNREADABLE")


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    (tmp_path / "bad.record").write_bytes(b'[Ruleset "trian_deluxe"]\n\xff\xfe')
    result = run("replay", "trian_deluxe", str(tmp_path / "bad.record"))
    assert result.exit_code == 2
    assert "bad.record:2:1: this file is not UTF-8 text: byte 0xff" in result.output


def test_a_file_name_too_long_is_refused_in_words() -> None:
    result = run("moves", "trian_deluxe", "a" * 300 + ".json")
    assert result.exit_code == 2 and "the file name is too long" in result.output


def test_a_folder_given_as_a_position_is_refused(tmp_path: Path) -> None:
    result = run("moves", "trian_deluxe", str(tmp_path))
    assert result.exit_code == 2 and "this is a folder" in result.output


def test_a_position_given_as_a_record_is_read_as_a_position(files) -> None:
    folder, mid = files
    result = run("replay", "trian_deluxe", str(folder / "mid.json"))
    assert result.exit_code == 0 and f"turn {mid.state.turn.number}" in result.output
    result = run("replay", "trian_deluxe", str(folder / "mid.json"), "--upto", "3")
    assert result.exit_code == 2 and "is a position (JSON), not a record" in result.output


@pytest.mark.parametrize("args,words", [
    (["play", "trian_deluxe", "--players", "0"], "is for 2 to 4 players, not 0"),
    (["play", "trian_deluxe", "--games", "0"], "--games"),
    (["replay", "trian_deluxe", "x.record", "--upto", "-1"], "--upto"),
    (["bench", "nosuch"], "no ruleset `nosuch`"),
    (["play", "trian_deluxe", "--seats", "p²,xemh", "--players", "2"], "no seat 'p²'"),
])
def test_wrong_arguments_are_refused_with_exit_2(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and words in said(result), result.output


def test_saving_records_onto_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    result = run("play", "trian_deluxe", "--save", str(tmp_path / "afile"))
    assert result.exit_code == 2 and "is a file" in said(result)
    result = run("new-variant", "house", "--extends", "trian_deluxe",
                 "--folder", str(tmp_path / "afile"))
    assert result.exit_code == 2 and "this is a file" in result.output


def test_a_record_seating_other_seats_replays_with_them(tmp_path: Path) -> None:
    game = run("play", "trian_deluxe", "--players", "2", "--seats", "khaarquar,xemh")
    assert game.exit_code == 0, game.output
    (tmp_path / "g.record").write_text(game.output)
    shown = run("replay", "trian_deluxe", str(tmp_path / "g.record"))
    assert shown.exit_code == 0 and "khaarquar" in shown.output, shown.output
    as_json = json.loads(run("replay", "trian_deluxe", str(tmp_path / "g.record"),
                             "--json").output)
    assert [p["seat"] for p in as_json["players"]] == ["khaarquar", "xemh"]
    assert {p["owner"] for p in as_json["pieces"]} <= {"khaarquar", "xemh"}


def test_play_defaults_to_a_player_count_the_ruleset_allows() -> None:
    result = run("play", "trian_teams_3v3", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert len(result.output.split("[Players \"")[1].split("\"")[0].split()) == 6


def test_a_fault_of_the_program_is_one_paragraph_not_a_traceback(monkeypatch, capsys) -> None:
    import compiler.cli as cli

    def broken() -> None:
        raise KeyError("seat")

    monkeypatch.setattr(cli, "app", broken)
    monkeypatch.delenv("RULEBOOK_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 1
    text = capsys.readouterr().err
    assert "rulebook failed: KeyError" in text and "not in your input" in text
    assert "Traceback" not in text


def test_a_ruleset_name_is_enough_for_check() -> None:
    result = run("check", "trian_family", "--no-examples")
    assert result.exit_code == 0, result.output
    assert "trian_family is correct" in result.output
    assert run("check", "no_such_ruleset").exit_code == 2


def test_an_inherited_example_the_variant_breaks_comes_with_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "two_no_draw"
    folder.mkdir()
    (folder / "ruleset.rules").write_text('''
ruleset two_no_draw extends among_the_stars_two { subtitle "No card drawn before a turn" }
replace rule two.draw "No card before a turn" {
    text "Nobody draws before a turn."
}
''')
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    assert "example `two_deck_after_setup` disagrees with the engine" in result.output
    assert "hint: two_no_draw inherits this example from among_the_stars_two" in result.output
    assert "`remove example two_deck_after_setup`" in result.output


def test_a_copied_ruleset_that_kept_its_originals_id_is_refused_in_rules(tmp_path: Path) -> None:
    """A variant begun as a copy of another folder under rules/, its `ruleset` line unchanged,
    would take the other's place in the rulebook without a word; a copy kept elsewhere to try
    something is no one's business."""
    import shutil
    from compiler.load import id_taken, ruleset_dirs
    for name in ("trian_family", "my_family"):
        shutil.copytree(ruleset_dirs()["trian_family"], tmp_path / name)
    found = id_taken("trian_family", tmp_path / "my_family", root=tmp_path)
    assert found is not None and found.code == "duplicate"
    assert "this folder declares `ruleset trian_family`, and so does" in found.message
    assert found.hint is not None and "(`ruleset my_family …`)" in found.hint
    assert id_taken("trian_family", tmp_path / "trian_family", root=tmp_path) is None
    assert id_taken("trian_family", tmp_path / "my_family") is None  # not under rules/


def test_a_judge_starts_from_a_worked_example_by_its_number() -> None:
    """`--example TD-E5` (or `example:E5` where a position goes): the example's table, before
    its moves, with no position file to write."""
    result = run("adjudicate", "trian_deluxe", "--example", "TD-E5", "emissary 1,0:planet")
    assert result.exit_code == 0
    assert "position: turn 5, Xemh to play" in result.output and "LEGAL" in result.output
    listed = run("moves", "trian_deluxe", "example:E5")
    assert listed.exit_code == 0 and "research" in listed.output.split()


def test_an_example_number_two_books_share_asks_for_the_whole_id() -> None:
    result = run("moves", "trian_family", "--example", "E1")
    assert result.exit_code == 2
    assert "more than one example 'E1': TD-E1" in said(result) and "TF-E1" in said(result)
    both = run("adjudicate", "trian_deluxe", "game.record", "research", "--example", "E5")
    assert both.exit_code == 2 and "not both" in said(both)


def test_one_legal_move_is_said_in_the_singular() -> None:
    result = run("moves", "trian_family", "--example", "TF-E9")
    assert result.exit_code == 0
    assert result.output.splitlines()[0].endswith("step “Take one action”: 1 legal move")


def test_two_actions_written_alike_are_refused_without_running_examples(tmp_path: Path) -> None:
    """A record could not say which was played: `check --no-examples` says so too."""
    (tmp_path / "house.rules").write_text(
        'ruleset house extends trian_deluxe { subtitle "House rules" }\n'
        'add to rule actions.research {\n'
        '    action study "study" {\n'
        '        notation "research"\n'
        '        give 1 points to me\n'
        '    }\n'
        '}\n')
    result = run("check", "--no-examples", str(tmp_path))
    assert result.exit_code == 1
    assert "both read `research`, so a record could not tell which was played [notation]" \
        in result.output
