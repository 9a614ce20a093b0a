"""A search player is a strategy like the others: it plays in tournaments, comparisons, skill and
the CI gate (captain-action: its search is fast)."""

from __future__ import annotations

import json

from simbalance.studies.check import create_baseline, run_check
from simbalance.studies.compare import compare
from simbalance.studies.skill import skill
from simbalance.studies.tournament import tournament

SEARCH = "mcts-100"


def test_a_search_player_in_a_tournament():
    res = tournament("captain-action", [SEARCH, "builder"], 320, players=2)
    assert set(res.matchups["strategy"]) == {SEARCH, "builder"}
    assert res.result.n_played == 320


def test_a_search_player_in_a_comparison():
    res = compare("captain-action", ["short-countdown"], 200, strategies=f"{SEARCH},builder,builder,builder",
                  rotate=True)
    assert len(res.table) > 0
    assert all(arm.plan.lineup.slot_names[0] == SEARCH for arm in res.arms.values())


def test_a_search_player_in_the_ci_gate(tmp_path):
    base = create_baseline("captain-action", 400, strategies=f"{SEARCH},builder,builder,builder", rotate=True)
    path = tmp_path / "base.json"
    path.write_text(json.dumps(base))
    assert run_check(path).passed


def test_skill_measures_the_search_players_only_when_asked():
    without = skill("captain-action", 200)
    assert without.search is not None and without.search.empty
    res = skill("captain-action", 200, search_n=200)
    assert {"mcts", "flat", "mcts-100", "mcts-1000"} <= set(res.search["strategy"])
    # the verdict reads the heuristics only: asking for the search players changes nothing there
    assert res.verdict == without.verdict
    assert res.agency.equals(without.agency)
