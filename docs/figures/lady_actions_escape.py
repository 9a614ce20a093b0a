"""The numbers quoted in docs/rules/lady-actions-escape.md, played with fixed seeds.

Run ``python docs/figures/run.py lady-actions-escape`` (``make docs-figures``). Each function returns
one marked passage of the page; runs several passages share are played once (``_play`` caches them).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from common import pct as _pct
from common import strategy_share

import simbalance
from simbalance.core.config import load_config
from simbalance.core.records import END_TIMEOUT, END_WIN, win_shares
from simbalance.games.lady_actions_escape.engine import prepare
from simbalance.games.lady_actions_escape.state_nb import EFFECT_DRAW, INFO_EFFECT

N = 20_000  # games per setup of random players and mixed tables
N_HEURISTIC = 5_000  # games per table of four heuristic players (many run to the 5,000-turn cap)
SEED = 2026


@cache
def _play(strategies: tuple[str, ...], overrides: tuple = (), players: int = 4, n: int = N):
    """One run: every seat permutation of ``strategies`` equally often when they differ."""
    return simbalance.simulate("lady-actions-escape", n, players=players, seed=SEED, strategies=list(strategies),
                               rotate=len(set(strategies)) > 1, overrides=dict(overrides))



def _seat_rates(strategies: tuple[str, ...], overrides: tuple = (), players: int = 4) -> np.ndarray:
    return win_shares(_play(strategies, overrides, players).games["winners"].to_numpy(), players).mean(axis=0)


def _by_seat(rates) -> str:
    return " / ".join(f"{100 * r:.1f}%" for r in rates)


def _share(strategies: tuple[str, ...], name: str) -> float:
    """The win share of the seats played by ``name`` (all lineups of a rotated run)."""
    return strategy_share(_play(strategies), name)


def random_play() -> str:
    g = _play(("random",)).games
    rates = _seat_rates(("random",))
    return (
        f"- Random play at 4 players ({N:,} games): median {g['length'].median():.0f} turns, mean "
        f"{g['length'].mean():.0f}, 99th percentile {g['length'].quantile(0.99):,.0f}; per game about "
        f"{g['reshuffles'].mean():.0f} reshuffles, {g['draw_twos'].mean():.0f} Dr. Evils and "
        f"{g['reversals'].mean():.0f} reversals; seat win rates {_by_seat(rates)} (seat 0, the leader, "
        "first)."
    )


def vs_random() -> str:
    parts = {name: _share((name, "random", "random", "random"), name) for name in ("flexible", "steer", "blocker")}
    return (
        f"- Against three random players `flexible` wins {_pct(parts['flexible'])} of its seats' games, "
        f"`steer` {_pct(parts['steer'])} and `blocker` {_pct(parts['blocker'])} (rotated over the seats, "
        f"{N:,} games each; 25% would be even): steering the table to one's own kinds matters more than "
        "keeping options."
    )


def dr_evil() -> str:
    cfg = load_config("lady-actions-escape")
    card_info, _, _, game_rules, _ = prepare(cfg, 4)
    evils = int((card_info[:, INFO_EFFECT] == EFFECT_DRAW).sum())
    penalty, cap = cfg["rules"]["draw_penalty"], cfg["rules"]["turn_cap"]
    timeouts, medians = {}, {}
    for name in ("flexible", "steer", "blocker"):
        g = _play((name,) * 4, n=N_HEURISTIC).games
        timeouts[name] = float((g["end"] == END_TIMEOUT).mean())
        g0 = _play((name,) * 4, (("rules.draw_penalty", 0),), n=N_HEURISTIC).games
        assert (g0["end"] == END_WIN).all()
        medians[name] = float(g0["length"].median())
    return (
        f"- Dr. Evil dominates the game: {evils} of {card_info.shape[0]} cards make every other player draw "
        f"{penalty}, so hands grow faster than they shrink once players play deliberately. "
        f"Among four `flexible` players {_pct(timeouts['flexible'])} of the games reach the {cap:,}-turn cap, "
        f"among four `steer`s {_pct(timeouts['steer'])}, among four `blocker`s {_pct(timeouts['blocker'])} "
        f"({N_HEURISTIC:,} games each). With `--set rules.draw_penalty=0` the same players finish every game, "
        f"in a median of {medians['flexible']:.0f} (`flexible`), {medians['steer']:.0f} (`steer`) and "
        f"{medians['blocker']:.0f} (`blocker`) turns. A smaller penalty, fewer Dr. Evils or a rule against "
        "answering Dr. Evil with Dr. Evil are the obvious levers."
    )


def leader() -> str:
    rows = []
    for players in (2, 4):
        base = _seat_rates(("random",), players=players)
        rot = _seat_rates(("random",), (("rules.first_leader", "rotate"),), players=players)
        rows.append(f"{players} random players: {_by_seat(base)} with seat 0 leading every game, "
                    f"{_by_seat(rot)} with the `rotating-leader` variant")
    se = np.sqrt(0.25 * 0.75 / N)
    return (
        "- Leading first is an edge: " + "; ".join(rows)
        + f" (seat 0 first, {N:,} games each, standard error about {100 * se:.1f} points at 4 players)."
    )


FIGURES = {"random-play": random_play, "vs-random": vs_random, "dr-evil": dr_evil, "leader": leader}
