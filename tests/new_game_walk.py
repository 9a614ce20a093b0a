"""A designer's whole first session with a new game, end to end (issue 20 item 2; issue 51 item 7):
run, compare two variants, sweep, tournament, replay, baseline and check; a head start moves its
seat; `solve` with the game's own [knobs] and [targets] answers (its `set` plays); the game's rule
tests still pass after its deck's defaults change; pip uninstall, and the built-in games play as
before.

Walked by tests/test_packaging.py's wheel test, in the venv where it installed the wheel and
followed new-game's printed `next:` steps (pip install -e the game with its test extra, run, its
own tests: they pass there). One venv for both: the new game's kernels and search players compile
once (issue 56: the two tests had each compiled them, about a minute of CPU each)."""

from __future__ import annotations

import json
from pathlib import Path

from venvs import Venv, ok


def walk_the_first_session(venv: Venv, work: Path, folder: Path) -> None:
    """The walk in ``venv``, where trick-race is installed (editable, from ``folder``) and its own
    tests have passed; outputs under ``work``."""
    games = ok(venv.simbalance("games", cwd=work)).stdout
    assert "trick-race" in games and "plug-in trick-race 0.1.0" in games
    out = ok(venv.simbalance("run", "trick-race", "--n", "1e5", "--out", work / "run", cwd=work)).stdout
    assert "trick-race: 100,000 games" in out and (work / "run" / "report.html").exists()
    assert "card impact" in (work / "run" / "report.html").read_text().lower()
    out = ok(venv.simbalance("run", "trick-race", "--n", "400", "--strategies", "mcts,flat,greedy,random", "--rotate",
                             "--out", work / "search", cwd=work)).stdout
    rates = {row["strategy"]: row["win_rate"] for row in json.loads((work / "search" / "summary.json").read_text())
             ["strategies"]}
    assert rates["mcts"] > rates["random"] and rates["flat"] > rates["random"], out  # the search players play
    out = ok(venv.simbalance("compare", "trick-race", "--variant", "rotating-lead", "--variant", "long-race", "--n",
                             "2e4", "--out", work / "compare", cwd=work)).stdout
    assert "rotating-lead" in out and "long-race" in out and (work / "compare" / "compare.html").exists()
    out = ok(venv.simbalance("sweep", "trick-race", "--param", "rules.target=2:4:1", "--n", "2000", "--out",
                             work / "sweep", cwd=work)).stdout
    assert "rules.target" in out and (work / "sweep" / "sweep.html").exists()
    out = ok(venv.simbalance("tournament", "trick-race", "--strategies", "greedy,patient,random", "--players", "3",
                             "--n", "3000", "--out", work / "tournament", cwd=work)).stdout
    assert "greedy" in out and (work / "tournament" / "tournament.html").exists()
    out = ok(venv.simbalance("replay", "trick-race", "--seed", "0", "--game", "3", cwd=work)).stdout
    assert out.startswith("trick-race, game 3 of seed 0") and "Trick 1:" in out
    assert "player 1" in out and "seat 0" not in out  # people count players from 1 (issue 41 item 4)
    baseline = folder / "trick_race" / "configs" / "baselines" / "trick-race.json"
    ok(venv.simbalance("baseline", "trick-race", "--n", "5000", "--out", baseline, cwd=work))
    assert "all 1 baseline(s) pass" in ok(venv.simbalance("check", baseline, cwd=work)).stdout

    def seats(run: str) -> list[float]:
        return [seat["win_rate"] for seat in json.loads((work / run / "summary.json").read_text())["seats"]]

    ok(venv.simbalance("run", "trick-race", "--n", "2e4", "--set", "compensation.points.1=1", "--out", work / "head",
                       cwd=work))
    assert seats("head")[0] > seats("run")[0] + 0.05  # player 1's head start: player 1 wins more
    out = ok(venv.simbalance("solve", "trick-race", "--budget", "1m", "--out", work / "solve", cwd=work)).stdout
    solution = json.loads((work / "solve" / "solution.json").read_text())
    if solution["changes"]:  # the answer, as the output and solution.json give it, plays and is better balanced
        assert solution["words"] in " ".join(out.split()), out
        ok(venv.simbalance("run", "trick-race", "--n", "2e4", "--seed", "7", *solution["set"].split(), "--out",
                           work / "answer", cwd=work))
        balance = {run: json.loads((work / run / "summary.json").read_text())["balance"] for run in ("run", "answer")}
        assert balance["answer"] > balance["run"], (solution["set"], balance)
    ok(venv.simbalance("solve", "trick-race", "--strategies", "patient", "--budget", "1m", "--out",
                       work / "solve-patient", cwd=work))  # the walk's second question: with patient seated
    assert (work / "solve-patient" / "solution.json").exists()
    config = folder / "trick_race" / "configs" / "trick-race.toml"
    text = config.read_text()
    changed = text.replace("ranks = 10 ", "ranks = 12 ").replace("copies = 4 ", "copies = 3 ")
    assert changed.count("ranks = 12 ") == 1 and changed.count("copies = 3 ") == 1
    config.write_text(changed)  # the deck's defaults change: the rule tests derive theirs or pin their own
    tests = ok(venv.simbalance_python("-m", "pytest", "-q", "-p", "no:cacheprovider", folder / "tests" / "test_rules.py",
                                      cwd=work))
    assert " passed" in tests.stdout and "failed" not in tests.stdout, tests.stdout
    config.write_text(text)

    ok(venv.pip("uninstall", "-y", "trick-race"))
    games = ok(venv.simbalance("games", cwd=work)).stdout
    assert "trick-race" not in games and games.count("built-in") == 5
    gone = venv.simbalance("run", "trick-race", "--n", "10", cwd=work)
    assert gone.returncode == 2 and gone.stderr.startswith("error: unknown game 'trick-race'")
    out = ok(venv.simbalance("run", "find-dr-evil", "--n", "2000", "--out", work / "builtin", cwd=work)).stdout
    assert "find-dr-evil: 2,000 games" in out
