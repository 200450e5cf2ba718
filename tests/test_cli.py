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
    assert "expected quuylto to gain +5 points, but the change is +4" in result.output


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
    assert result.exit_code == 1
    assert "turn.player" in result.output


def test_unknown_ruleset_gets_a_suggestion() -> None:
    result = run("moves", "trian_delux", "x.json")
    assert result.exit_code == 1
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
    assert result.exit_code == 1 and "cannot be a ruleset id" in result.output


def test_diff_lists_what_a_variant_adds_removes_and_changes() -> None:
    result = runner.invoke(app, ["diff", "trian_deluxe", "trian_family"])
    assert result.exit_code == 0, result.output
    assert "+ family.systems" in result.output
    assert "- actions.station" in result.output
    assert "~ areas.control" in result.output and "(declarations changed)" in result.output
    assert "[[control]]" in result.output  # prose shown as written, not eaten as markup
