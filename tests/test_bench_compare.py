"""`rulebook bench --compare`: the judgement of a run against a baseline, on made-up figures.

No timing happens here: the measurements are invented, so these tests say what the comparison
concludes from given numbers, not how fast this machine is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import compiler.engine.bench as bench
from compiler.cli import app
from compiler.engine.bench import Baseline, Figures, Measurement, best, compare

runner = CliRunner()


def figures(rate: float, decisions: int = 4600, games: int = 30) -> Figures:
    return Figures(games=games, players=4, decisions=decisions, decisions_per_second=rate,
                   games_per_second=rate / 150, early_decision_ms=0.7, late_decision_ms=1.2,
                   adjudication_ms=2.0, compile_ms=500)


def test_a_run_five_percent_slower_keeps_up_with_the_baseline() -> None:
    verdict = compare(figures(800), figures(760))
    assert not verdict.slower
    assert verdict.lines[0].startswith("decisions per second: baseline 800, now 760 (-5.0%)")


def test_a_run_eight_percent_slower_fails_and_says_by_how_much() -> None:
    verdict = compare(figures(800), figures(736))
    assert verdict.slower
    assert verdict.lines[0] == ("decisions per second: baseline 800, now 736 (-8.0%); allowed: "
                                "down to 744.0 (7% slower than the baseline) -> TOO SLOW")


def test_a_faster_run_passes_and_the_other_figures_are_shown_but_not_judged() -> None:
    slow_compile = figures(900).model_copy(update={"compile_ms": 5000})
    verdict = compare(figures(800), slow_compile)
    assert not verdict.slower
    assert "compile ms: baseline 500, now 5000 (shown, not judged)" in verdict.lines


def test_the_same_games_taking_other_decisions_are_flagged_as_not_like_for_like() -> None:
    verdict = compare(figures(800), figures(800, decisions=4601))
    assert any("the engine plays differently" in line for line in verdict.lines)


def test_the_best_of_several_runs_stands_for_them_all() -> None:
    chosen = best([figures(700), figures(820), figures(790)])
    assert chosen.decisions_per_second == 820
    assert chosen.every_run == [700, 820, 790]


def test_a_baseline_file_reads_back_as_written() -> None:
    written = Baseline(machine="a test machine", recorded="2026-01-01",
                       rulesets={"trian_deluxe": best([figures(800)])})
    text = written.model_dump_json(by_alias=True)
    assert '"decisions per second":800' in text
    assert Baseline.model_validate_json(text) == written


@pytest.fixture
def measured_at(monkeypatch: pytest.MonkeyPatch):
    """Make every bench run report `rate` decisions per second, without playing."""
    def set_rate(rate: float) -> None:
        def fake(name: str, games: int = 30, players: int = 4) -> Measurement:
            return Measurement(games, players, decisions=4600, elapsed=4600 / rate,
                               early=[0.0007], late=[0.0012], judged=[0.002], compile_time=0.5)
        monkeypatch.setattr(bench, "measure", fake)
    return set_rate


def test_compare_exits_1_naming_the_figure_when_the_engine_got_slower(
        tmp_path: Path, measured_at) -> None:
    baseline = tmp_path / "baseline.json"
    measured_at(800)
    assert runner.invoke(app, ["bench", "trian_deluxe", "--record", str(baseline)]).exit_code == 0
    measured_at(700)
    result = runner.invoke(app, ["bench", "trian_deluxe", "--compare", str(baseline)])
    assert result.exit_code == 1
    assert "run 3 of at most 3" in result.output
    assert "decisions per second: baseline 800, now 700 (-12.5%); allowed: down to 744.0" \
        in result.output
    assert "Timings depend on the machine" in result.output


def test_compare_stops_at_the_first_run_that_keeps_up(tmp_path: Path, measured_at) -> None:
    baseline = tmp_path / "baseline.json"
    measured_at(800)
    runner.invoke(app, ["bench", "trian_deluxe", "--record", str(baseline)])
    measured_at(790)
    result = runner.invoke(app, ["bench", "trian_deluxe", "--compare", str(baseline)])
    assert result.exit_code == 0, result.output
    assert "run 1 of at most 3" in result.output and "run 2" not in result.output


def test_compare_refuses_a_baseline_without_the_ruleset(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(Baseline(rulesets={"trian_deluxe": figures(800)})
                        .model_dump_json(by_alias=True))
    result = runner.invoke(app, ["bench", "trian_six", "--compare", str(baseline)])
    assert result.exit_code == 2
    assert "has no figures for trian_six; it has: trian_deluxe" in result.output


def test_compare_refuses_a_file_that_is_not_a_baseline(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"rulesets": {"trian_deluxe": {"games": 30}}}')
    result = runner.invoke(app, ["bench", "trian_deluxe", "--compare", str(baseline)])
    assert result.exit_code == 2 and "not a bench baseline" in result.output
