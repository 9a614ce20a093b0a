"""The generic study kernels (players/card_value_nb.py, players/fit_eval_nb.py) reach every game
through a cached entry point of its own (``card_value_nb.value_cards`` and ``value_decisions``,
``play_nb.record_positions``; issue 56): numba loads them from its cache in a warm process instead of
compiling the generic kernels again. The entry points only name the game's steps, so the values are
the generic kernels' own: pinned here per game at a fixed seed (the digests were taken with the
generic kernels called from Python with the steps as arguments, before the entry points existed)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from simbalance.games.registry import builtin_games
from simbalance.players import card_value_nb, fit_eval_nb, game_kernel
from simbalance.studies.settings import RunSettings

STATES, DECISIONS, GAMES, SEED = 12, 6, 4, 5

# Per game: the digests of the card kernel's, the decision kernel's and the recording kernel's
# outputs (None: the game has no such kernel: find-dr-evil's picks are blind, it has no search hooks).
PINNED = {
    "find-dr-evil": ("c1fba36e49630d58", None, None),
    "captain-action": ("b3c0cf0d93121b26", "98b93d3c4cfe2edd", "4082277fb9bf4eee"),
    "lady-actions-escape": ("1cacfc3ef756d433", "3618f43d6b8201ef", "f1befd76a6d207c7"),
    "captain-future": ("35c22119a5feb0c4", "a2534be03e7ca08a", "b0240f23c222181d"),
    "aquaman": ("f9ce417e5f0390fe", "5f49f5c2aca90c32", "d703c87af11285b3"),
}


def _digest(arrays: dict) -> str:
    h = hashlib.sha256()
    for key in sorted(arrays):
        h.update(key.encode())
        h.update(np.ascontiguousarray(arrays[key]).tobytes())
    return h.hexdigest()[:16]


def study_digests(game: str) -> tuple[str, str | None, str | None]:
    """What the three kernels make of ``game``'s default lineup at SEED (small blocks, one thread)."""
    from simbalance.studies.card_value import _CardJob, _DecisionJob
    from simbalance.studies.evaluation import _RecordJob

    plan = RunSettings.of(game).plan(1)
    engine = plan.engine
    n_cards = len(engine.cards.labels(plan.config)[0] if engine.cards is not None
                  else engine.card_swap.labels(plan.config))
    phases = np.arange(max(STATES, DECISIONS)) % 3
    cards = _CardJob(engine, plan.lineup, plan.prepared, SEED, phases, 2, np.ones(n_cards, np.bool_))(0, STATES)
    decisions = positions = None
    if engine.search is not None:
        if engine.has_decisions:
            decisions = _digest(_DecisionJob(engine, plan.lineup, plan.prepared, SEED, phases, 2)(0, DECISIONS))
        positions = _digest(_RecordJob(engine, plan.lineup, plan.prepared, SEED, 3)(0, GAMES))
    return _digest(cards), decisions, positions


@pytest.mark.parametrize("game", sorted(builtin_games()))
def test_the_study_kernels_give_the_pinned_values(game):
    assert game in PINNED, f"{game}: nothing pinned; add {study_digests(game)}"
    got = study_digests(game)
    assert got == PINNED[game], f"{game}: the study kernels' values changed: now {got}"


@pytest.mark.parametrize("game", sorted(builtin_games()))
def test_every_built_in_game_plays_the_study_kernels_through_its_cached_entry_point(game):
    """game_kernel picks the game's own entry point (cached) for the engine's own steps, and the
    generic kernel with the steps bound as soon as one step is not the one the entry point names (a
    test's planted step: the values must be the planted rules')."""
    from simbalance.games.registry import get_game

    engine = get_game(game).load()
    res, swap, search = engine.resumable, engine.card_swap, engine.search
    card_steps = {"start": res.start, "play_out": res.play_out, "to_move": res.to_move, "clone": res.clone,
                  "held": swap.held, "swap": swap.swap, "rekey": swap.rekey, "outcome": swap.outcome}
    assert swap.value_cards is not None and swap.value_cards._cache.__class__.__name__ != "NullCache"
    assert game_kernel(swap.value_cards, card_value_nb.value_cards, card_steps) is swap.value_cards
    planted = game_kernel(swap.value_cards, card_value_nb.value_cards, {**card_steps, "play_out": lambda *a: 0})
    assert planted.func is card_value_nb.value_cards and planted.args[1] is not res.play_out
    if search is None:
        return
    decision_steps = {"start": res.start, "play_out": res.play_out, "to_move": res.to_move,
                      "legal_options": res.legal_options, "apply_option": res.apply_option, "clone": res.clone,
                      "determinize": search.determinize, "outcome": swap.outcome, "option_kind": swap.option_kind}
    assert game_kernel(swap.value_decisions, card_value_nb.value_decisions, decision_steps) is swap.value_decisions
    record_steps = {"start": res.start, "to_move": res.to_move, "play_out": res.play_out, "outcome": search.outcome,
                    "evaluate": search.evaluate, "features": search.features}
    assert game_kernel(search.record_positions, fit_eval_nb.record_positions, record_steps) is search.record_positions
    for entry in (swap.value_decisions, search.record_positions):
        assert entry._cache.__class__.__name__ != "NullCache"
