"""The numbers quoted in docs/rules/lady-actions-escape.md, played with fixed seeds.

Run ``python docs/figures/run.py lady-actions-escape`` (``make docs-figures``). Each function returns
one marked passage of the page; runs several passages share are played once (``_play`` caches them).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from common import (
    compensation_passage,
    ladder_passage,
    lead_passage,
    robustness_passage,
    search_settings_comment,
    search_settings_passage,
    strategy_share,
    strength_at_cut_passage,
)
from common import pct as _pct

import simbalance
from simbalance.core.config import load_config
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, win_shares
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
    window = cfg["rules"]["stalemate_window"]
    stalemates, timeouts, medians = {}, {}, {}
    for name in ("flexible", "steer", "blocker"):
        res = _play((name,) * 4, n=N_HEURISTIC)
        g = res.games
        stalemates[name] = {row["reason"]: row["share"] for row in res.summary()["stalemates"]}
        timeouts[name] = float((g["end"] == END_TIMEOUT).mean())
        off = _play((name,) * 4, (("rules.stalemate_window", 0), ("rules.turn_cap", 50_000)), n=500).games
        assert (off["end"] != END_STALEMATE).all()
        stalemates[name]["_off"] = float((off["end"] == END_TIMEOUT).mean())
        g0 = _play((name,) * 4, (("rules.draw_penalty", 0),), n=N_HEURISTIC).games
        assert (g0["end"] == END_WIN).all()
        medians[name] = float(g0["length"].median())

    def loops(name: str) -> str:
        rows = stalemates[name]
        return (f"{_pct(rows.get('dr-evil-chain', 0.0))} end in a Dr. Evil chain, "
                f"{_pct(rows.get('dr-evil-lady-action-cycle', 0.0))} in a Dr. Evil / Lady Action cycle, "
                f"{_pct(rows.get('recycling', 0.0))} recycling otherwise, {_pct(timeouts[name])} reach the cap")

    return (
        f"- Dr. Evil dominates the game: {evils} of {card_info.shape[0]} cards make every other player draw "
        f"{penalty}, so hands grow faster than they shrink once players play deliberately, and deliberate "
        "players loop: a Dr. Evil answered with a Dr. Evil (or a Lady Action sending it back) makes "
        "everyone draw, the penalty draws pull the discard pile back into the hands, and nobody gets "
        f"closer to going out. Loop detection ends such a game after {window:,} turns as a stalemate and "
        f"names it (\"Stalemates\" above). Among four `flexible` players {loops('flexible')}; among four "
        f"`steer`s {loops('steer')}; among four `blocker`s {loops('blocker')} ({N_HEURISTIC:,} games each, "
        f"{cap:,}-turn cap). They are loops, not slow games: without the window and with a 50,000-turn cap "
        f"{_pct(stalemates['flexible']['_off'])}, {_pct(stalemates['steer']['_off'])} and "
        f"{_pct(stalemates['blocker']['_off'])} of the games never end (500 games each). With "
        f"`--set rules.draw_penalty=0` the same players finish every game, "
        f"in a median of {medians['flexible']:.0f} (`flexible`), {medians['steer']:.0f} (`steer`) and "
        f"{medians['blocker']:.0f} (`blocker`) turns. A smaller penalty, fewer Dr. Evils or a rule against "
        "answering Dr. Evil with Dr. Evil are the obvious levers."
    )


def lead() -> str:
    return lead_passage(_play(("random",)), f"4 random players, {N:,} games")


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


FIGURES = {"random-play": random_play, "vs-random": vs_random, "dr-evil": dr_evil, "leader": leader, "lead": lead}


def ladder() -> str:
    return ladder_passage("lady-actions-escape", "8,32,128,512", 300, yardstick="flat")


def robustness() -> str:
    return robustness_passage("lady-actions-escape", 4000, 100, 5000)


PRESETS = [  # one list for the rules page's table, the config's comment and docs/strategies.md's
    ("`mcts-100` (100 iterations, `confidence` 2, play-outs cut at 40 decisions)", "mcts-100", {}),
    ("`mcts-100` with play-outs cut at 10 decisions", "mcts-100", {"depth": 10.0}),
    ("`mcts-100` with play-outs cut at 20 decisions", "mcts-100", {"depth": 20.0}),
    ("`mcts-100` with `confidence` 0", "mcts-100", {"confidence": 0.0}),
    ("`flat`, 16 play-outs an option, `confidence` 2", "flat", {}),
]
PRESETS_N, PRESETS_SEED = 300, 1


def presets() -> str:
    return search_settings_passage("lady-actions-escape", PRESETS, PRESETS_N, PRESETS_SEED)


def presets_comment() -> str:
    return search_settings_comment("lady-actions-escape", PRESETS, PRESETS_N, PRESETS_SEED)


def strength_at_cut() -> str:
    """docs/strategies.md, "Strength at a cut": the same runs as the presets' table where they meet."""
    return strength_at_cut_passage("lady-actions-escape", "mcts-100", [10, 20, 40], PRESETS_N, PRESETS_SEED)


FIGURES.update({"ladder": ladder, "robustness": robustness, "presets": presets, "strength-at-cut": strength_at_cut})
COMMENTS = {"presets": presets_comment}  # configs/lady-actions-escape.toml


def fitted_evaluation() -> str:
    from common import fitted_evaluation_passage

    return fitted_evaluation_passage("lady-actions-escape")


FIGURES["fitted-evaluation"] = fitted_evaluation


def seat_compensation() -> str:
    """How far each compensation kind moves the seats (docs/rules/lady-actions-escape.md, "Seat compensation")."""
    return compensation_passage("lady-actions-escape", [{}, {"compensation.cards.1": 1}, {"compensation.cards.4": -1}, {"compensation.cards.1": 1, "compensation.cards.4": -1}], 20_000)


FIGURES["seat-compensation"] = seat_compensation
