"""`rulebook simulate`: seeded games in figures, the same whatever plays them.

Few and short games (two-player Galaxy of Trian, a couple of seeds), so the whole file runs
in seconds: the figures are checked for consistency (wins add up to the games, each interval
holds its estimate, a difference is the variant's figure minus the base's), not for what a
ruleset's balance is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app, simulate_table
from compiler.engine import simulate as sim
from compiler.engine.performed import Performed
from compiler.engine.random_play import random_game
from compiler.load import load_ruleset_dir

runner = CliRunner()
GAMES = 4
FIXTURE = Path(__file__).parent / "fixtures" / "bazaar" / "bazaar.rules"


@pytest.fixture(scope="module")
def against() -> sim.SimulationSummary:
    """Four games of trian_deluxe against the same seeds of trian_family, in this process."""
    return sim.simulate("trian_deluxe", "trian_family", 2, GAMES, seed=3, keep_games=True)


def test_the_figures_add_up(against: sim.SimulationSummary) -> None:
    for side in (against.variant, against.base):
        assert side is not None and side.games == GAMES
        assert sum(s.wins for s in side.seats) == pytest.approx(GAMES - side.no_winner)
        for s in side.seats:
            r = s.win_rate
            assert 0 <= r.low <= r.estimate <= r.high <= 1
            assert r.estimate == pytest.approx(s.wins / GAMES, abs=1e-4)
            assert s.score.min <= s.score.q1 <= s.score.median <= s.score.q3 <= s.score.max
        rows = side.games_played
        assert [g.seed for g in rows] == [3, 4, 5, 6]
        assert side.decisions.mean == pytest.approx(sum(g.decisions for g in rows) / GAMES)
        assert sum(a.total for a in side.actions) == sum(g.decisions for g in rows)
        assert all(g.turns > 0 and len(g.scores) == 2 and g.winners for g in rows)


def test_against_gives_the_differences_with_whether_they_exclude_0(
        against: sim.SimulationSummary) -> None:
    d, v, b = against.differences, against.variant, against.base
    assert d is not None and b is not None
    for i, seat in enumerate(d.seats):
        assert seat.win_rate.estimate == pytest.approx(
            v.seats[i].win_rate.estimate - b.seats[i].win_rate.estimate, abs=1e-3)
        assert seat.score.estimate == pytest.approx(
            v.seats[i].score.mean - b.seats[i].score.mean, abs=1e-3)
        for x in (seat.win_rate, seat.score):
            assert x.low <= x.estimate <= x.high
            assert x.significant == (x.low > 0 or x.high < 0)
    # trian_family leaves out actions the deluxe game has: they are compared as 0 a game
    only = {a.action for a in v.actions} - {a.action for a in b.actions}
    assert only and all(d.actions[a].estimate > 0 for a in only)
    table = simulate_table(against)
    assert [c.header for c in table.columns][1:3] == ["trian_deluxe", "trian_family"]


def test_statistics_match_known_values() -> None:
    w = sim.wilson(5, 10)  # the textbook Wilson interval of 5 in 10
    assert (w.low, w.high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert sim.wilson(0, 4).low == 0 and sim.wilson(4, 4).high == 1
    d = sim.newcombe(sim.wilson(5, 10), sim.wilson(5, 10))
    assert d.estimate == 0 and d.low < 0 < d.high and not d.significant
    assert sim.mean_difference([3, 3, 3], [1, 1, 1]).significant


def test_random_policy_plays_random_play_s_games() -> None:
    rules = sim.rules_for("trian_deluxe")
    result = sim.play_game(rules, 2, 7, sim.POLICIES["random"])
    final, history = random_game(rules, 2, 7)
    assert list(result.scores) == list(final.scores().values())
    assert result.decisions == len(history.moves) and result.turns == final.state.turn.number


def test_same_seeds_same_summary_whatever_the_workers() -> None:
    one = sim.simulate("trian_deluxe", None, 2, GAMES, seed=3,
                       run=lambda t: sim.run_local(t, 1))
    two = sim.simulate("trian_deluxe", None, 2, GAMES, seed=3,
                       run=lambda t: sim.run_local(t, 2))
    assert one == two
    other = sim.simulate("trian_deluxe", None, 2, GAMES, seed=30)
    assert other != one


@pytest.mark.parametrize("policy", ["greedy", "greedy-random"])
def test_greedy_policies_are_seeded_and_choose_from_legal_moves(policy: str) -> None:
    a = sim.simulate("trian_deluxe", None, 2, 1, seed=2, policy=policy)
    b = sim.simulate("trian_deluxe", None, 2, 1, seed=2, policy=policy,
                     run=lambda t: sim.run_local(t, 2))
    assert a == b and a.policy == policy
    assert sum(s.wins for s in a.variant.seats) == 1


def test_the_command_writes_a_valid_summary_and_plots(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = runner.invoke(app, ["simulate", "trian_deluxe", "--against", "trian_family",
                                 "--games", "2", "--players", "2", "--workers", "1",
                                 "--out", str(folder)])
    assert result.exit_code == 0, result.output
    assert "seat 1" in result.stdout and "difference" in result.stdout
    summary = sim.SimulationSummary.model_validate_json(
        (folder / "summary.json").read_text(encoding="utf-8"))
    assert summary.base is not None and len(summary.variant.games_played) == 2
    assert json.loads((folder / "summary.schema.json").read_text()) == sim.summary_schema()
    for png in ("win_rates.png", "scores.png", "lengths.png"):
        assert (folder / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    schema = runner.invoke(app, ["schema", "simulation"])
    assert json.loads(schema.stdout)["title"] == "Simulation summary"


def test_json_prints_the_summary() -> None:
    result = runner.invoke(app, ["simulate", "trian_deluxe", "--games", "1", "--players", "2",
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = sim.SimulationSummary.model_validate_json(result.stdout)
    assert summary.games == 1 and summary.base is None and not summary.variant.games_played


@pytest.mark.parametrize(("args", "said"), [
    (["trian_delux"], "did you mean `trian_deluxe`"),
    (["trian_deluxe", "--players", "9"], "2 to"),
    (["trian_deluxe", "--against", "among_the_stars", "--players", "2"], "3 to 4 players"),
    (["trian_deluxe", "--policy", "clever"], "clever"),
    (["trian_deluxe", "--games", "0"], "--games"),
])
def test_bad_input_is_refused_in_words(args: list[str], said: str) -> None:
    result = runner.invoke(app, ["simulate", *args, "--games", "1"] if "--games" not in args
                           else ["simulate", *args])
    assert result.exit_code == 2
    assert said in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_game_that_gets_stuck_is_named_by_its_seed(tmp_path: Path, workers: str) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    ending = "game ends after turn when count(tiles) >= 4 or count(stock) == 0"
    assert ending in text
    (tmp_path / "bazaar.rules").write_text(
        text.replace(ending, "game ends after turn when count(tiles) >= 99"), encoding="utf-8")
    load_ruleset_dir(tmp_path)  # it compiles: the rules are fine, the games never end
    result = runner.invoke(app, ["simulate", str(tmp_path), "--games", "2", "--players", "2",
                                 "--workers", workers])
    assert result.exit_code == 1
    assert "got stuck" in result.output and "the game is stuck" in result.output
    assert "seed 1" in result.output or "seed 2" in result.output  # the first to get stuck
    assert "Traceback" not in result.output


def test_ray_missing_is_said_with_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    result = runner.invoke(app, ["simulate", "trian_deluxe", "--games", "1", "--players", "2",
                                 "--ray", "local"])
    assert result.exit_code == 1
    assert "pip install" in result.output and "Traceback" not in result.output


def test_a_local_ray_plays_the_same_games() -> None:
    ray = pytest.importorskip("ray")
    todo = sim.tasks(["trian_deluxe"], 2, 3, 2, "random")
    local = sim.run_local(todo, 1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = sim.run_ray(todo, "local")
    finally:
        ray.shutdown()
    assert on_ray == local


def test_the_rules_counted_are_those_each_move_s_ruling_cites() -> None:
    """Counting reads what a move carried out holds, without writing its ruling; written,
    the ruling cites every rule counted for the move, and each counts once a move."""
    rules = sim.rules_for("trian_deluxe")
    game = sim.RulesApplied()

    def check(done: Performed) -> None:
        move = sim.RulesApplied()
        move(done)
        game(done)
        ruling = done.ruling()
        cited = {c.id for c in ruling.decided_by}
        for e in ruling.consequences:
            cited |= {c.id for c in ([e.rule] if e.rule else []) + e.also}
        assert set(move.counts) <= cited and set(move.counts.values()) <= {1}
        for e in ruling.consequences:  # each rule a consequence cites is counted, once
            assert {c.id for c in ([e.rule] if e.rule else []) + e.also} <= set(move.counts)

    random_game(rules, 2, 7, observe=check)
    result = sim.play_game(rules, 2, 7, sim.POLICIES["random"])
    assert result.rules == dict(sorted(game.counts.items())) and result.rules


def test_rule_figures_add_up_and_name_the_rule(against: sim.SimulationSummary) -> None:
    d, v, b = against.differences, against.variant, against.base
    assert d is not None and b is not None
    for side in (v, b):
        assert side.rules and all(r.number and r.title for r in side.rules)
        for r in side.rules:
            assert r.total == sum(g.rules.get(r.rule, 0) for g in side.games_played)
        assert [r.total for r in side.rules] == sorted((r.total for r in side.rules),
                                                       reverse=True)
    # a rule only the deluxe game has applies more there, by the paired difference
    only = {r.rule for r in v.rules} - {r.rule for r in b.rules}
    assert only and all(d.rules[k].estimate > 0 for k in only)

    def rule_rows(summary: sim.SimulationSummary) -> list[str]:
        return [str(c) for c in simulate_table(summary, 3).columns[0]._cells
                if str(c).startswith("rule ")]
    alone = rule_rows(against.model_copy(update={"base": None, "differences": None}))
    top = sorted(v.rules, key=lambda r: (-r.per_game.mean, r.rule))[:3]
    assert sorted(alone) == sorted(f"rule {r.number} {r.title}" for r in top)
    # with a base, also (up to 3) rules whose difference excludes 0
    changed = [k for k, x in d.rules.items() if x.significant]
    assert len(rule_rows(against)) == 3 + min(3, len(set(changed) - {r.rule for r in top}))


def test_games_on_the_same_seeds_are_paired(against: sim.SimulationSummary) -> None:
    d = against.differences
    assert d is not None and d.paired
    assert {x.method for s in d.seats for x in (s.win_rate, s.score)} == {"paired"}
    assert d.margin.method == d.turns.method == "paired"
    v, b = against.variant, against.base
    assert b is not None
    for i, s in enumerate(d.seats):  # the paired estimate is still the difference of means
        assert s.score.estimate == pytest.approx(v.seats[i].score.mean - b.seats[i].score.mean,
                                                 abs=1e-3)


def test_a_ruleset_against_itself_differs_by_exactly_0() -> None:
    same = sim.simulate("trian_family", "trian_family", 2, 3, seed=5)
    d = same.differences
    assert d is not None and d.paired
    for x in [d.margin, d.decisions, d.turns, *d.actions.values(), *d.rules.values(),
              *(y for s in d.seats for y in (s.win_rate, s.score))]:
        assert (x.estimate, x.low, x.high, x.significant) == (0, 0, 0, False)
        assert x.method == "paired"


def test_games_on_other_seeds_are_compared_unpaired() -> None:
    rules = sim.rules_for("trian_family")
    ours = [sim.play_game(rules, 2, s, sim.POLICIES["random"]) for s in (1, 2)]
    theirs = [sim.play_game(rules, 2, s, sim.POLICIES["random"]) for s in (3, 4)]
    d = sim.compare(sim.summarise(rules, 2, ours), sim.summarise(rules, 2, theirs), ours,
                    theirs)
    assert not d.paired
    assert d.seats[0].win_rate.method == "newcombe" and d.seats[0].score.method == "welch"
    assert d.margin.method == "welch"
