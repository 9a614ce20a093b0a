"""`simbalance solve` tried as a designer would (issue 51's QA, qa51): defects found on the planted
rule duel of test_solve_inputs.py, whose right answers are known exactly (the two players win alike
exactly when player 2's bonus equals player 1's; one point short leaves a gap of 11/36, a balance
of 25/36 = 0.6944)."""

from __future__ import annotations

import json

import pytest
from test_solve_inputs import rule_duel  # noqa: F401  (the fixture)
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app

runner = CliRunner()


def test_a_choice_knob_beside_a_refusing_keep_gives_words_not_a_traceback(rule_duel, tmp_path):  # noqa: F811
    """rules.second_bonus = "two" is exactly fair but raises ties from 4/36 to 6/36, so --keep
    ties=0.02 refuses it; "one" still favours player 1. Nothing meets: the findings must say so.
    The coarse-grid hint compared the choice's words as numbers (float('one')): a ValueError, exit 1,
    nothing written after the whole search."""
    res = simbalance.solve(rule_duel, ["balance=0.97:1"], ["rules.second_bonus=one,two"], keep=["ties=0.02"],
                           verify_n=4000, start_n=200, seed=4, threads=1, models="random")
    assert res.chosen is None
    text = " ".join(f.text for f in res.findings())
    assert "No change found" in text and "finer step" not in text, text
    out = tmp_path / "solve"
    cli = runner.invoke(app, ["solve", rule_duel, "--target", "balance=0.97:1", "--knob", "rules.second_bonus=one,two",
                              "--keep", "ties=0.02", "--verify-n", "4000", "--start-n", "200", "--threads", "1",
                              "--seed", "4", "--models", "random", "--out", str(out)])
    assert cli.exit_code == 0, cli.output
    assert json.loads((out / "solution.json").read_text())["meets"] is False


def test_the_games_cap_said_is_not_below_the_games_the_closest_played(rule_duel):  # noqa: F811
    """One more point for player 2 has a balance of exactly 25/36 = 0.694, a hair under 0.70: on
    20,000-game blocks it is not settled, and "none found" is right. But the words gave the cap as
    "at most 20,000 games a candidate" beside "not settled after 25,200 games per player model": the
    cap is on one block (400 + 800 + ... + 12,800 = 25,200 were played). A number the sentence
    states must not be contradicted by the next number in it."""
    import re

    res = simbalance.solve(rule_duel, ["balance=0.70:1"], ["compensation.points.2=0:1"], verify_n=20_000, seed=3,
                           threads=1, models="random")
    text = " ".join(f.text for f in res.findings())
    assert "none found within the budget" in text, text
    played = int(res.candidates["games"].max())
    assert played == 25_200
    capped = re.search(r"at most ([\d,]+) games a candidate", text)
    assert capped is None or int(capped.group(1).replace(",", "")) >= played, text


def _barely(rule_duel, tmp_path):  # noqa: F811
    """One more point for player 2 (balance exactly 25/36 = 0.694) against balance >= 69%: it meets
    in the race (seed 3: after 25,200 games) and is not settled on 20,000 fresh games."""
    out = tmp_path / "solve"
    res = runner.invoke(app, ["solve", rule_duel, "--target", "balance=0.69:1", "--knob", "compensation.points.2=0:1",
                              "--verify-n", "2e4", "--threads", "1", "--seed", "3", "--models", "random", "--out",
                              str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    solution = json.loads((out / "solution.json").read_text())
    assert solution["changes"] == {"compensation.points.2": 1} and not solution["meets"]
    verdicts = {t["met"] for t in solution["metrics"]}
    assert verdicts == {False}
    return res.output, solution


def test_a_change_not_settled_on_fresh_games_is_not_said_to_fail_them(rule_duel, tmp_path):  # noqa: F811
    """The change that barely meets must never be called a failure: on fresh games its interval
    straddles the target (not settled; the findings say so), but the terminal's headline said
    "(verified: does not meet every target)", the words of a refuted change."""
    output, solution = _barely(rule_duel, tmp_path)
    assert "(not settled)" in output
    assert "does not meet every target" not in output, output


def test_no_change_found_writes_no_command_to_play(rule_duel, tmp_path):  # noqa: F811
    """docs/solve.md: "with nothing found it is null (and set holds the setup's own options)". The
    findings say "No change found", yet solution.json's command (and the terminal's "play it:")
    give the unverified change to play, as a found answer would be given."""
    output, solution = _barely(rule_duel, tmp_path)
    assert "No change found" in output
    assert solution["command"] is None and "play it:" not in output, (solution["command"], output)


def test_ctrl_c_during_todays_verification_says_how_many_games_were_played(rule_duel):  # noqa: F811
    """Ctrl-C while today's rules play their verification games: the solve stops with "interrupted
    after 0 of N games" whatever was played (studies/solve.py raises RunInterrupted(0, verify_n));
    a designer who waited minutes is told nothing had run. The count must be the games played."""
    from simbalance.core.errors import RunInterrupted

    seen = {"done": 0}

    def progress(label):  # the CLI's Ctrl-C: a flag the run asks between chunks (cli/interrupts.interruptible)
        def show(done, total, seconds):
            if "today's rules" in label:
                seen["done"] = done
        return show

    with pytest.raises(RunInterrupted) as stopped:
        simbalance.solve(rule_duel, ["balance=0.97:1"], ["compensation.points.2=0:4"], verify_n=400_000, seed=1,
                         threads=1, models="random", progress=progress, stop=lambda: seen["done"] > 0)
    assert seen["done"] > 0
    assert stopped.value.games_done >= seen["done"], str(stopped.value)


def test_models_on_a_game_without_decisions_does_not_offer_a_search_player(rule_duel, tmp_path):  # noqa: F811
    """The rule duel has no decisions and so no search player: --models random,mcts@8 is refused,
    rightly, but the line offered "(or a search player at a budget, e.g. mcts@32)", which is refused
    the same way."""
    out = tmp_path / "out"
    res = runner.invoke(app, ["solve", rule_duel, "--knob", "compensation.points.2=0:4", "--models", "random,mcts@8",
                              "--out", str(out)])
    assert res.exit_code == 2 and not out.exists(), res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "unknown player 'mcts@8'" in lines[0], res.output
    assert "mcts@32" not in lines[0], lines[0]
