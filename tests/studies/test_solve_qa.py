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
