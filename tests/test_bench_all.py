"""`rulebook bench --all`: every ruleset can be benchmarked, through the command itself.

A smoke test, not a timing test: one two-player game per ruleset (the nearest count a ruleset
allows when it wants more), so it takes a few seconds in all. It checks that each ruleset is
measured, not how fast: the figures depend on the machine.
"""

from __future__ import annotations

from typer.testing import CliRunner

from compiler.cli import app, bench_table
from compiler.engine.bench import Benchmarks
from compiler.load import ruleset_dirs

runner = CliRunner()


def test_bench_all_measures_every_ruleset_and_tables_them() -> None:
    result = runner.invoke(app, ["bench", "--all", "--games", "1", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    measured = Benchmarks.model_validate_json(result.stdout)
    assert measured.games_each == 1 and "cores" in measured.machine
    assert [s.ruleset for s in measured.rulesets] == list(ruleset_dirs())
    for s in measured.rulesets:
        assert s.games == 1 and s.decisions > 0 and s.games_per_second > 0, s.ruleset
        assert s.early.samples and s.late.samples, f"{s.ruleset}: no early or late decisions"
        assert s.boards == 1 and s.adjudication.samples, f"{s.ruleset}: no full board judged"
        assert s.compile_ms > 0
        if s.pieces is not None:  # the deciding player's pieces: many against few
            p = s.pieces
            assert 1 <= p.few_pieces < p.many_pieces <= 12, s.ruleset
            assert p.few.samples and p.many.samples, s.ruleset
            assert p.many_over_few == round(p.many.median_ms / p.few.median_ms, 2), s.ruleset
    by_name = {s.ruleset: s for s in measured.rulesets}
    # Pieces that multiply over a game (emissaries, ships) are measured; a card game's are not.
    assert by_name["trian_conquest"].pieces is not None
    assert by_name["among_the_stars"].pieces is None
    # the table `--all` prints, from the same figures: one row per ruleset
    table = bench_table(measured.rulesets, measured.games_each)
    assert table.row_count == len(measured.rulesets)
    assert list(table.columns[0].cells) == [s.ruleset for s in measured.rulesets]
    pieces = next(c for c in table.columns if str(c.header) == "many ÷ few\npieces")
    cells = dict(zip(table.columns[0].cells, pieces.cells))
    assert cells["among_the_stars"] == "—"
    conquest = by_name["trian_conquest"].pieces
    assert cells["trian_conquest"] == (f"{conquest.many_over_few:.2f} "
                                       f"({conquest.many_pieces}/{conquest.few_pieces})")


def test_bench_json_for_one_ruleset_says_its_spread() -> None:
    result = runner.invoke(app, ["bench", "trian_deluxe", "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    from compiler.engine.bench import Summary
    s = Summary.model_validate_json(result.stdout)
    assert (s.ruleset, s.games, s.players, s.stages) == ("trian_deluxe", 1, 4, "tiles")
    assert s.late.p95_ms is not None and s.late.median_ms is not None
    assert s.late.p95_ms >= s.late.median_ms
    assert s.late_over_early == round(s.late.median_ms / s.early.median_ms, 2)
    assert s.pieces is not None and s.pieces.few_pieces == 1  # emissaries multiply


def test_bench_table_says_how_decisions_grow_with_pieces() -> None:
    result = runner.invoke(app, ["bench", "trian_deluxe", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "many pieces ÷ few" in result.stdout and "1 piece: median" in result.stdout


def test_bench_refuses_a_ruleset_with_all_and_neither() -> None:
    both = runner.invoke(app, ["bench", "trian_deluxe", "--all"])
    assert both.exit_code == 2 and "not both" in both.output
    neither = runner.invoke(app, ["bench"])
    assert neither.exit_code == 2 and "--all" in neither.output
    json_and_record = runner.invoke(app, ["bench", "trian_deluxe", "--json", "--record", "x.json"])
    assert json_and_record.exit_code == 2 and "--json" in json_and_record.output
