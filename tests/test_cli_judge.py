"""`rulebook draw` and `rulebook position`, as a user meets them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import write_record

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def record(tmp_path_factory, rules: Rules) -> Path:
    path = tmp_path_factory.mktemp("game") / "game.record"
    final, history = random_game(rules, 2, seed=5)
    path.write_text(write_record(history, final))
    return path


def test_position_from_example_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "ex.json"
    result = run("position", "trian_deluxe", "--from-example", "tile_mismatch", "-o", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["ruleset"] == "trian_deluxe" and doc["tiles"]
    moved = run("moves", "trian_deluxe", str(out))
    assert moved.exit_code == 0 and "legal moves" in moved.output


def test_position_from_example_e2_is_the_same_as_its_id(tmp_path: Path) -> None:
    by_id = run("position", "trian_deluxe", "--from-example", "tile_mismatch")
    assert by_id.exit_code == 0, by_id.output
    for said in ("TD-E2", "E2", "td-e2"):
        by_number = run("position", "trian_deluxe", "--from-example", said)
        assert by_number.exit_code == 0 and by_number.output == by_id.output, said


def test_position_from_example_e36_in_conquest_names_both() -> None:
    result = run("position", "trian_conquest", "--from-example", "E36")
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "more than one example 'E36': TD-E36" in said and "TC-E36" in said


def test_position_from_record_upto(record: Path) -> None:
    result = run("position", "trian_deluxe", "--from-record", str(record), "--upto", "3")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["turn"]["number"] >= 3
    past = run("position", "trian_deluxe", "--from-record", str(record), "--upto", "100000")
    assert past.exit_code == 2 and "the record has" in past.output


def test_position_refuses_unknown_example_and_no_source(record: Path) -> None:
    result = run("position", "trian_deluxe", "--from-example", "tile_mismach")
    assert result.exit_code == 2 and "did you mean `tile_mismatch`" in result.output
    assert run("position", "trian_deluxe").exit_code == 2
    assert run("position", "trian_deluxe", "--from-example", "tile_mismatch",
               "--upto", "2").exit_code == 2


def test_draw_writes_the_rulebook_picture(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = run("draw", "trian_deluxe", str(record), "-o", str(out))
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert svg.startswith("<svg") and 'class="tile"' in svg and "data-cell" not in svg


def test_draw_refuses_other_formats(record: Path, tmp_path: Path) -> None:
    result = run("draw", "trian_deluxe", str(record), "-o", str(tmp_path / "board.gif"))
    assert result.exit_code == 2 and ".svg or .png" in result.output
