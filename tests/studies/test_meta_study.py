"""The metagame study (issue 55) on planted plug-in games whose answer is known exactly
(tests/planted/edge_duel): rock, paper, scissors with known margins (one equilibrium, known; a
cycle; no dominant strategy), the same game with a dominant style (named; the others dominated),
and a preset that is a copy of a style (said to play alike). Bad input is one line."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from tiers import everyday_first, exhaustive
from typer.testing import CliRunner

pytest.importorskip("numba")
from planted.plugins import installed  # noqa: E402

import simbalance.api as api  # noqa: E402
from simbalance.cli.main import app  # noqa: E402

GAME = "edge-duel"
STYLES = "alpha,beta,gamma"
MARGINS = (0.20, 0.10, 0.30)  # alpha over beta, beta over gamma, gamma over alpha (the game's config)
KNOWN = np.array([MARGINS[1], MARGINS[2], MARGINS[0]]) / sum(MARGINS)  # (b, c, a) / (a + b + c)
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def duel_game():
    with installed("edge_duel"):
        yield


def kinds(result) -> dict:
    found = {}
    for f in result.findings():
        found.setdefault(f.kind, []).append(f)
    return found


@pytest.mark.parametrize("seed", everyday_first([1, 2, 3], keep=2))
def test_rock_paper_scissors_the_known_equilibrium_inside_its_intervals_a_cycle_and_no_dominant(seed):
    result = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=100, seed=seed)
    w = result.answer.weights
    assert len(result.answer.equilibria) == 1
    assert ((w["ci_low"] <= KNOWN) & (KNOWN <= w["ci_high"])).all(), (w, KNOWN)
    assert np.allclose(w["weight"], KNOWN, atol=0.06)
    found = kinds(result)
    assert "dominant_strategy" not in found and "dominated_strategies" not in found
    assert [f.text.split(":")[0] for f in found["cycle"]] == ["alpha beats beta beats gamma beats alpha"]
    assert "Players who adapt settle on beta" in found["equilibrium"][0].text
    assert "equilibrium_not_pinned" not in found  # one equilibrium, and the games pin it down
    assert found["seat_balance_equilibrium"][0].ci[0] <= 0  # the seats are fair by construction
    for f in result.findings():  # every sentence says the population it was measured with (issue 55 QA)
        assert f.text.endswith("Measured with the population alpha, beta, gamma at 2 seats."), f.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_dominant_style_is_named_and_the_others_dominated(seed):
    result = api.meta(GAME, strategies=STYLES, n=1000, bootstrap=50, seed=seed, overrides=["rules.edge_ca=-30"])
    found = kinds(result)
    assert result.answer.dominant == "alpha"
    assert found["dominant_strategy"][0].text.startswith("alpha is the best choice whatever the others play")
    assert found["dominated_strategies"][0].text.startswith("No equilibrium uses beta, gamma (each dominated by alpha)")
    assert np.allclose(result.answer.equilibria[0], [1, 0, 0])
    assert "cycle" not in found
    assert result.answer.weights.set_index("strategy").loc["alpha", "alpha_rank"] == 1
    # one style at every seat: a seat is never said to win over itself (issue 55's QA found "the widest
    # gap, player 1 over player 1" where every seat's share was the same to the last digit)
    seats = found["seat_balance_equilibrium"][0].text
    assert not re.search(r"player (\d+) over player \1\b", seats), seats


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_set_of_equilibria_is_said_whichever_point_of_it_the_solver_found(seed):
    """edge_ca = 0: alpha and gamma tie where they meet, so every mix alpha x + gamma (1 - x) with
    x >= 1/3 is an equilibrium (beta, against it, wins 0.3 x + 0.6 (1 - x) <= 0.5). The estimated
    table has one equilibrium, somewhere near the set (alpha 100% on some seeds, gamma 65% on
    others: qa55's case 11); the page must say the games do not pin the mix down."""
    result = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=50, seed=seed, overrides=["rules.edge_ca=0"])
    (said,) = kinds(result)["equilibrium_not_pinned"]
    y, distance, _ = result.answer.far_fit
    assert distance > 0.25 and said.text.startswith("These games do not pin the mix down")
    from claims import check_claims

    check_claims(said)  # each strategy's gain against that mix kept, none clear of 0
    # what it names fits the true set: beta at most a sliver, alpha at least a third of the rest
    assert y[1] < 0.1 and y[0] >= (1 - y[1]) / 3 - 0.05, y


def test_without_a_dominant_style_none_is_named_even_where_one_style_is_strongest():
    # gamma beats alpha by only 5 points, while alpha beats beta by 20: alpha wins the most against
    # the field on average, yet gamma beats it: nothing dominates
    result = api.meta(GAME, strategies=STYLES, n=1000, bootstrap=0, seed=4, overrides=["rules.edge_ca=5"])
    assert result.answer.dominant is None and "dominant_strategy" not in kinds(result)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rules", [[], ["rules.edge_ca=-30"]])
def test_a_copy_is_merged_and_the_answer_is_the_one_without_it(seed, rules):
    """alpha_twin (a preset that is alpha) in the default population must not move the answer
    (issue 55 item 2): the equilibrium, its intervals, α-Rank, dominance, the dominant style and the
    cycles are exactly those of the population without it, and a finding says it was counted once.
    Before, at edge_ca=-30 no dominant style was named, and the dominance margin read 12.5 points
    for the exact 6.67 (a copy counted alpha twice in the even field)."""
    result = api.meta(GAME, n=1000, bootstrap=30, seed=seed, overrides=rules)  # alpha, beta, gamma, alpha_twin
    alone = api.meta(GAME, strategies=STYLES, n=1000, bootstrap=30, seed=seed, overrides=rules)
    assert result.names == ("alpha", "beta", "gamma", "alpha_twin")
    assert result.answer.names == ("alpha", "beta", "gamma")
    assert result.answer.copies[["copy", "plays_as"]].values.tolist() == [["alpha_twin", "alpha"]]
    assert result.answer.weights.equals(alone.answer.weights)
    assert result.dominance == alone.dominance
    assert result.answer.dominant == alone.answer.dominant
    assert result.answer.cycles == alone.answer.cycles
    found = kinds(result)
    said = found["copies_merged"][0].text
    assert said.startswith("alpha_twin plays as alpha (payoff rows equal within their intervals") and \
        "counted once" in said and "alpha_twin counted as alpha" in said
    if rules:
        assert found["dominated_strategies"][0].text.startswith("No equilibrium uses beta, gamma (each dominated by alpha)")
        assert result.dominance[0] == "alpha" and result.dominance[1].low <= 2 / 3 - 0.5 <= result.dominance[1].high
    else:
        assert len(found["cycle"]) == 1
        assert result.dominance[0] == "gamma" and result.dominance[1].low <= 1.7 / 3 - 0.5 <= result.dominance[1].high
    from types import SimpleNamespace

    target = SimpleNamespace(metric="dominance", low=0.0, high=0.05)  # the solver's target reads the same merge
    assert result.table.target_test(target) == alone.table.target_test(target)
    numbers = result.numbers()
    assert numbers["copies"][0]["copy"] == "alpha_twin" and list(numbers["equilibria"][0]) == ["alpha", "beta", "gamma"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", [[], ["rules.edge_ca=5"], ["rules.edge_ca=-30"]])
def test_strategies_that_differ_are_never_merged(seed, rules):
    """Only a copy is merged: alpha, beta and gamma differ (by 5 to 60 points against some field;
    edge_ca=5: gamma beats alpha by only 5), and stay three strategies on every seed, at few games."""
    result = api.meta(GAME, n=300, bootstrap=0, seed=seed, overrides=rules)
    assert set(result.answer.copies["copy"]) <= {"alpha_twin"}  # at 300 games the copy may not be bounded yet
    assert {"alpha", "beta", "gamma"} <= set(result.answer.names)


def test_strategies_the_games_cannot_bound_are_not_merged():
    """A few dozen games tell nothing apart: a merge also needs every switch's interval within
    +-COPY_WITHIN, so alpha, beta, gamma and alpha_twin all stay (said alike where not told apart)."""
    result = api.meta(GAME, n=12, bootstrap=0, seed=1)
    assert result.answer.copies.empty and result.answer.names == ("alpha", "beta", "gamma", "alpha_twin")


def test_the_folder_holds_the_page_the_numbers_and_the_payoff_table(tmp_path):
    out = tmp_path / "meta"
    done = runner.invoke(app, ["meta", GAME, "--strategies", STYLES, "--n", "300", "--bootstrap", "10",
                               "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert {p.name for p in out.iterdir()} >= {"meta.html", "meta.json", "payoffs.parquet", "findings.json",
                                               "manifest.json", "field.png", "equilibrium.png", "alpha_rank.png"}
    numbers = json.loads((out / "meta.json").read_text())
    assert numbers["compositions"] == 6 and numbers["population"] == ["alpha", "beta", "gamma"]
    html = (out / "meta.html").read_text()
    assert html.index("Players who adapt") < html.index("id='figures'")  # findings first


@pytest.mark.parametrize("args, words", [
    (["--strategies", "alpha,rock"], ["--strategies", "'rock'", "known: alpha"]),
    (["--strategies", "alpha"], ["population of one"]),
    (["--strategies", "alpha,alpha"], ["named twice"]),
    (["--bootstrap", "-1"], ["--bootstrap", "-1"]),
    (["--search", "mcts@8"], ["--search", "no search players"]),
    (["--n", "1"], ["--n", "2"]),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, args, words):
    out = tmp_path / "meta"
    done = runner.invoke(app, ["meta", GAME, *args, "--out", str(out)])
    assert done.exit_code == 2, done.output
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.exhaustive
def test_the_bootstrap_intervals_cover_the_true_weights_at_the_nominal_rate():
    """100 replications of rock, paper, scissors: each weight's 95% interval covers the known
    weight in at least 88 (at 95% coverage, 88 or fewer happen with probability below 1%)."""
    covered = np.zeros(3)
    reps = 100
    for seed in range(reps):
        w = api.meta(GAME, strategies=STYLES, n=1000, bootstrap=200, seed=100 + seed).answer.weights
        covered += ((w["ci_low"] <= KNOWN) & (KNOWN <= w["ci_high"])).to_numpy()
    assert (covered >= 88).all(), covered


@pytest.mark.exhaustive
def test_a_search_player_at_one_budget_joins_the_population():
    """``--search mcts@4``: the search player, made at that budget as the ladder makes its budgets, sits
    in every composition it belongs to (compiles the search kernel: the exhaustive tier)."""
    result = api.meta("captain-action", strategies="builder,bold", search="mcts@4", n=24, bootstrap=0, seed=2)
    assert result.names == ("builder", "bold", "mcts@4")
    assert len(result.table.counts) == 15  # 3 strategies at 4 seats
    assert set(result.payoffs()["strategy"]) == {"builder", "bold", "mcts@4"}


@pytest.mark.exhaustive
def test_the_seat_gap_under_the_equilibrium_is_told_apart_no_more_often_than_its_level_on_fair_seats():
    """edge-duel's seats are fair by construction: over 200 seeds the gap's 95% interval excludes 0
    in at most 18 (at a 5% rate, 19 or more happen with probability about 1%; measured: 6 of 200)."""
    told = sum(api.meta(GAME, strategies=STYLES, n=200, bootstrap=0, seed=seed).answer.seat_gap.low > 0
               for seed in range(100, 300))
    assert told <= 18, told


def test_ctrl_c_keeps_the_finished_compositions_and_the_same_study_goes_on_to_the_same_answer(tmp_path, monkeypatch):
    from simbalance.core.errors import RunInterrupted

    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path))

    def interrupting(label):  # Ctrl-C once the fourth composition has begun
        def show(done, total, seconds):
            if done > 3 * 300:
                raise KeyboardInterrupt
        return show

    with pytest.raises(RunInterrupted, match="after 3 of 6 compositions; the finished ones are kept"):
        api.meta(GAME, strategies=STYLES, n=300, bootstrap=5, seed=9, progress=interrupting)
    assert len(list((tmp_path / "blocks").glob("meta-*/part-*.npz"))) == 3
    labels, reports = [], []
    again = api.meta(GAME, strategies=STYLES, n=300, bootstrap=5, seed=9,
                     progress=lambda label: labels.append(label) or (lambda *report: reports.append(report)))
    assert labels == [f"{GAME}: meta, 6 compositions x 300 games, 3 kept from before"]
    assert reports[-1][:2] == (900, 900)  # only the three not played yet
    whole = api.meta(GAME, strategies=STYLES, n=300, bootstrap=5, seed=9)
    assert np.array_equal(again.table.wins, whole.table.wins)
    assert again.answer.weights.equals(whole.answer.weights)
    assert list((tmp_path / "blocks").glob("meta-*/*")) == []  # removed once the table was whole


def test_one_display_for_the_whole_table_its_games_counted_up_to_the_total(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path))
    labels, reports, closed = [], [], []

    class Display:
        def __init__(self, label):
            labels.append(label)

        def __call__(self, done, total, seconds):
            reports.append((done, total))

        def close(self):
            closed.append(True)

    api.meta(GAME, strategies=STYLES, n=1000, bootstrap=0, seed=10, progress=Display)
    assert labels == [f"{GAME}: meta, 6 compositions x 1,000 games"] and closed == [True]
    done = [d for d, _ in reports]
    assert {t for _, t in reports} == {6 * 1000} and done == sorted(done) and done[-1] == 6 * 1000
    assert len(reports) > 6  # it moves within a composition, not only between them


def test_dominance_is_the_best_margin_over_an_even_field_known_exactly():
    # rock, paper, scissors: against an even field gamma wins (0.8 + 0.4 + 0.5) / 3, the average 1/2
    best, margin = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=0, seed=6).dominance
    assert best == "gamma" and margin.low <= 1.7 / 3 - 0.5 <= margin.high
    # alpha dominant: (0.5 + 0.7 + 0.8) / 3 against the average 1/2
    best, margin = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=0, seed=6,
                            overrides=["rules.edge_ca=-30"]).dominance
    assert best == "alpha" and margin.low <= 2 / 3 - 0.5 <= margin.high


def test_the_target_matrix_judges_each_cell_by_its_interval(tmp_path):
    path = tmp_path / "targets.csv"
    path.write_text("strategy,field,target,tolerance\n"
                    "alpha,beta,0.70,0.05\n"  # true 70%: meets
                    "beta,gamma,0.50,0.05\n"  # true 60%: misses
                    "alpha,gamma,0.25,0.05\n")  # true 20%, on the edge of 20% to 30%: not settled
    result = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=0, seed=7, target_matrix=str(path))
    assert result.target_matrix["verdict"].tolist() == ["meets", "misses", "not settled"]
    found = kinds(result)["target_matrix"][0]
    assert found.severity == "high" and found.text.startswith(
        "1 of 3 cells of the target matrix meet their targets, 1 miss, 1 not settled: the furthest, beta alone in a "
        "field of gamma")


@pytest.mark.parametrize("text, words", [
    ("strategy,field,target,tolerance\nalpha,rock,0.5,0.1\n", ["field 'rock' not in the population"]),
    ("strategy,field,target\nalpha,beta,0.5\n", ["the columns are strategy,field,target"]),
    ("strategy,field,target,tolerance\nalpha,beta,0.5,0.1\nalpha,beta,0.6,0.1\n", ["alpha against beta", "twice"]),
    ("strategy,field,target,tolerance\nalpha,beta,30,5\n", ["target 30", "0.3 is 30%"]),
])
def test_a_bad_target_matrix_is_one_line_before_any_game(tmp_path, text, words):
    path = tmp_path / "targets.csv"
    path.write_text(text)
    out = tmp_path / "meta"
    done = runner.invoke(app, ["meta", GAME, "--strategies", STYLES, "--target-matrix", str(path), "--out", str(out)])
    assert done.exit_code == 2, done.output
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: --target-matrix {path}"), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert not out.exists()


def passages_script():
    """docs/figures/metagame/passages.py, the rules pages' metagame passages (issue 55 item 4)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "figures" / "metagame" / "passages.py"
    spec = importlib.util.spec_from_file_location("docs_metagame_passages", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_rules_page_of_a_game_marks_one_metagame_passage():
    from simbalance.games.registry import builtin_games

    script = passages_script()
    assert sorted(script.GAMES) == sorted(builtin_games())
    for game in script.GAMES:
        script.marked(game)  # SystemExit when the page has no pair, or more than one


def test_the_metagame_passage_says_the_table_in_numbers_and_words_and_replaces_only_its_body(tmp_path, monkeypatch):
    script = passages_script()
    result = api.meta(GAME, strategies=STYLES, n=600, bootstrap=20, seed=11)
    body = script.passage(result)
    w = result.answer.weights.set_index("strategy")
    for name in STYLES.split(","):
        assert f"| {name} | {100 * w.loc[name, 'weight']:.1f}% (" in body
    assert "alpha beats beta beats gamma beats alpha" in body and "Dominance, the solver's target" in body
    assert f"--n {result.n:g} --seed 11" in body and "6 compositions played 600 times" in body
    page = tmp_path / "edge-duel.md"
    page.write_text("a\n<!-- figure x -->\nkept\n<!-- end figure -->\n<!-- metagame -->\nold\n<!-- end metagame -->\nb\n")
    monkeypatch.setattr(script, "RULES", tmp_path)
    script.write("edge-duel", "new", "7")
    text = page.read_text()
    assert text.startswith("a\n<!-- figure x -->\nkept\n<!-- end figure -->\n<!-- metagame -->\nnew\n\n<sub>edge-duel "
                           "engine v7, simbalance ")
    assert text.endswith("passages.py edge-duel`</sub>\n<!-- end metagame -->\nb\n")
    page.write_text("a\n")
    with pytest.raises(SystemExit, match="needs one <!-- metagame -->"):
        script.write("edge-duel", "new", "7")


def test_ctrl_c_on_the_command_line_says_compositions_kept_and_that_the_same_command_goes_on(tmp_path, monkeypatch):
    """The command's line is the study's own words (docs/meta.md, "Errors and interruptions"): the
    finished compositions, kept, and the same command going on from them; not "games", not only
    "nothing written" (issue 55 QA: "meta interrupted after 36 of 126 games; nothing written")."""
    import contextlib

    import simbalance.cli.interrupts as interrupts

    asked = []

    @contextlib.contextmanager
    def ctrl_c_in_the_third_composition(aborted=""):
        yield lambda: asked.append(1) or len(asked) > 2  # the study asks after each chunk it plays

    monkeypatch.setattr(interrupts, "interruptible", ctrl_c_in_the_third_composition)
    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "meta"
    done = runner.invoke(app, ["meta", GAME, "--strategies", STYLES, "--n", "300", "--threads", "1", "--out", str(out)])
    assert done.exit_code == 130, done.output
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("meta interrupted after ") and " of 6 compositions; the finished ones are kept: " \
        "the same command goes on from them; nothing written" in lines[0], lines[0]
    assert "games" not in lines[0] and not out.exists()


def test_the_interrupted_line_of_a_run_in_play_still_counts_the_study_s_games():
    """The other side of the line's words (cli/study_command.interrupted_words): a run of
    studies/run.play (a compare's arm, a sweep's point) is counted in games, and its own count named."""
    from simbalance.cli.study_command import interrupted_words
    from simbalance.core.errors import RunInterrupted

    plain = RunInterrupted(40, 300)
    assert interrupted_words(plain) == "interrupted after 40 of 300 games"
    in_play = RunInterrupted(40, 300)
    in_play.label = "arm cap"
    assert interrupted_words(in_play).endswith("the run in play, arm cap, had played 40 of its 300")
    own = RunInterrupted(36, 126, unit="compositions", resume="the finished ones are kept: the same command goes on")
    assert interrupted_words(own) == ("interrupted after 36 of 126 compositions; the finished ones are kept: the same "
                                      "command goes on")


NUMBERS = """
import json, sys
from planted.plugins import installed
import simbalance.api as api
with installed("edge_duel"):
    result = api.meta("edge-duel", strategies="alpha,beta,gamma", n=3000, bootstrap=20, seed=1, threads=1)
numbers = result.numbers()
numbers.pop("elapsed_s")
print(json.dumps(numbers, sort_keys=True))
"""


def _meta_numbers_in_a_process(env: dict) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(tests), str(tests.parent), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", NUMBERS], capture_output=True, text=True, timeout=900,
                          env={**os.environ, **env, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@exhaustive  # two subprocesses of meta
def test_the_numbers_do_not_depend_on_the_blas_thread_count():
    """The cause of meta.json differing at the 10th digit under Dask (issue 55 QA case 7): the
    bootstrap's and the intervals' sums over games were BLAS products, whose sum order follows
    OpenBLAS's thread count (one in a process that started Dask workers, the cores in a plain one).
    The same table must give the same numbers to the last digit (analysis/meta.game_sums)."""
    one = _meta_numbers_in_a_process({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    two = _meta_numbers_in_a_process({"OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"})
    assert one == two


@pytest.mark.exhaustive
def test_the_command_on_dask_writes_the_meta_json_of_the_command_on_threads(tmp_path):
    """Each in its own process, as a designer runs them (the study contract's Dask test runs both in
    one process, where the BLAS threads are the same: it missed this)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    site = tmp_path / "site" / "edge_duel-0.1.dist-info"  # the plug-in, seen by every process (planted/plugins.py)
    site.mkdir(parents=True)
    (site / "METADATA").write_text("Metadata-Version: 2.1\nName: edge-duel\nVersion: 0.1\n")
    (site / "entry_points.txt").write_text("[simbalance.games]\nedge-duel = edge_duel\n")
    env = {**os.environ, "SIMBALANCE_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(site.parent), str(tests / "planted"), str(tests.parent),
                                          os.environ.get("PYTHONPATH", "")])}
    numbers = []
    for backend, threads in (("local", "1"), ("dask", "2")):
        out = tmp_path / backend
        done = subprocess.run([sys.executable, "-m", "simbalance.cli.main", "meta", GAME, "--strategies", STYLES, "--n", "3000",
                               "--seed", "1", "--bootstrap", "20", "--threads", threads, "--backend", backend,
                               "--out", str(out)], capture_output=True, text=True, timeout=1800, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        data = json.loads((out / "meta.json").read_text())
        data.pop("elapsed_s")
        numbers.append(data)
    assert numbers[0] == numbers[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_unused_strategy_not_told_apart_from_the_mix_is_said(seed):
    """A near tie (issue 55 QA, captain-action's builder: weight 0, gain -0.16 pp, 95% CI -1.01 to
    +0.68, while "settle on bold 100%" read as if builder were out). Planted: alpha beats beta by 1
    point, beta beats gamma by 10, alpha beats gamma by 30: against alpha a beta seat gains exactly
    -1 point, which 300 games cannot tell from 0. The one of alpha and beta the equilibrium leaves
    out is said as not told apart (the statistics core's verdict: never "wins less than the mix"),
    and never among the dominated."""
    from claims import check_claims

    result = api.meta(GAME, strategies=STYLES, n=300, bootstrap=30, seed=seed,
                      overrides=["rules.edge_ab=1", "rules.edge_ca=-30"])
    w = result.answer.weights.set_index("strategy")
    left_out = [s for s in ("alpha", "beta") if w.loc[s, "weight"] == 0]
    assert len(left_out) == 1, w
    near = kinds(result)["unused_not_told_apart"]
    assert len(near) == 1
    text = near[0].text
    assert text.startswith(f"No equilibrium found uses {left_out[0]}, yet it is not told apart from the mix")
    assert f"for {left_out[0]} gains {100 * w.loc[left_out[0], 'gain']:+.1f} pp" in text and "across 0" in text
    assert "Measured with the population alpha, beta, gamma" in text
    assert [c.verdict for c in near[0].decided_by] == ["not told apart"]
    check_claims(near[0])
    for f in kinds(result).get("dominated_strategies", []):
        assert left_out[0] not in f.text.split(":")[0]
        check_claims(f)


def test_a_strategy_told_apart_below_the_mix_is_dominated_not_a_near_tie():
    result = api.meta(GAME, strategies=STYLES, n=2000, bootstrap=0, seed=1, overrides=["rules.edge_ca=-30"])
    assert "unused_not_told_apart" not in kinds(result)
    assert kinds(result)["dominated_strategies"][0].text.startswith("No equilibrium uses beta, gamma")

