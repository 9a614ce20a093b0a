"""The numbers quoted in docs/rules/aquaman.md ("What designers learn"), played with fixed seeds.

Run ``python docs/figures/run.py aquaman`` (``make docs-figures``). Each function returns one
marked passage of the page; runs several passages share are played once (``_play`` caches them).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from common import (
    compensation_passage,
    ladder_passage,
    lead_passage,
    robustness_passage,
    strategy_share,
    strength_at_cut_comment,
    strength_at_cut_passage,
)
from common import pct as _pct

import simbalance
from simbalance.core.records import END_TIMEOUT, win_shares
from simbalance.games.aquaman import report

N = 20_000  # games per setup
SEED = 2026


@cache
def _play(strategies: tuple[str, ...], players: int = 4, n: int = N):
    """One run: every seat permutation of ``strategies`` equally often when they differ."""
    return simbalance.simulate("aquaman", n, players=players, seed=SEED, strategies=list(strategies),
                               rotate=len(set(strategies)) > 1)



def _seat_rates(strategies: tuple[str, ...], players: int = 4) -> np.ndarray:
    return win_shares(_play(strategies, players).games["winners"].to_numpy(), players).mean(axis=0)


def _strategy_share(strategies: tuple[str, ...], name: str) -> float:
    """The win share of the seats played by ``name`` (all lineups of a rotated run)."""
    return strategy_share(_play(strategies), name)


def _fights_per_game(strategies: tuple[str, ...], players: int = 4) -> float:
    games = _play(strategies, players).games
    return float(sum(games[f"fights_{s}"] for s in range(players)).mean() / 2)  # two sides per fight


def lengths() -> str:
    runners, raiders, randoms = ("runner",) * 4, ("raider",) * 4, ("random",) * 4
    mean = {k: float(_play(*k).games["length"].mean())
            for k in ((runners, 4), (raiders, 4), (("runner",) * 2, 2), (("raider",) * 2, 2), (randoms, 4))}
    timeouts = {k: float((_play(k).games["end"] == END_TIMEOUT).mean()) for k in (runners, raiders, randoms)}
    heuristic_timeouts = timeouts[runners] + timeouts[raiders]
    return (
        f"- Games between heuristic players last {mean[(runners, 4)]:.0f} turns on average (runners) to "
        f"{mean[(raiders, 4)]:.0f} (raiders) with 4 players (about {mean[(runners, 4)] / 4:.0f} to "
        f"{mean[(raiders, 4)] / 4:.0f} turns each), and {mean[(('runner',) * 2, 2)]:.0f} (runners) or "
        f"{mean[(('raider',) * 2, 2)]:.0f} (raiders) with 2; four random players need "
        f"{mean[(randoms, 4)]:.0f} turns. Timeouts: {_pct(timeouts[randoms])} of all-random games, "
        + ("none with heuristics." if heuristic_timeouts == 0 else
           f"{_pct(timeouts[runners])} among runners, {_pct(timeouts[raiders])} among raiders.")
    )


def seat_rates() -> str:
    four = _seat_rates(("runner",) * 4)
    two = _seat_rates(("runner",) * 2, 2)
    raiders = _seat_rates(("raider",) * 4)
    se = np.sqrt(0.25 * 0.75 / N)

    def by_seat(rates) -> str:
        return " / ".join(f"{100 * r:.1f}%" for r in rates)

    ratio = four[0] / four[3]
    strength = "A strong" if ratio >= 1.5 else "A clear" if four[0] - four[3] > 4 * se else "No clear"
    return (
        f"- {strength} first-player advantage. Win rate by seat (seat 0 first; {N:,} games each, standard "
        f"error about {100 * se:.1f} points): four runners {by_seat(four)}, two runners {by_seat(two)}, four "
        f"raiders {by_seat(raiders)}. Among four runners seat 0 wins {ratio:.2f} times as often as seat 3 "
        f"({100 * (four[0] - 0.25):+.1f} points over a fair 25%); among raiders {raiders[0] / raiders[3]:.2f} times."
    )


def fights() -> str:
    runners, raiders = ("runner",) * 4, ("raider",) * 4
    one_runner = ("runner", "raider", "raider", "raider")
    one_raider = ("raider", "runner", "runner", "runner")
    decided = report.summarize(_play(raiders).games, 4, {})["share_of_fights_decided"]
    runner, raider = _strategy_share(one_runner, "runner"), _strategy_share(one_raider, "raider")
    verdict = ("seeking fights costs cards that missions need" if runner > 0.25 > raider else
               "fighting pays" if raider > 0.25 > runner else "neither style dominates")
    return (
        f"- Fights per game: {_fights_per_game(runners):.3f} among four runners, "
        f"{_fights_per_game(raiders):.1f} among four raiders ({_pct(decided)} of the raiders' fights have a "
        f"winner). One runner among three raiders wins {_pct(runner)} of the games, one raider among three "
        f"runners {_pct(raider)} (rotated over the seats; 25% would be even): {verdict}."
    )


def powers() -> str:
    summary = report.summarize(_play(("runner",) * 4).games, 4, {})["powers"]
    raider = report.summarize(_play(("raider",) * 4).games, 4, {})["powers"]
    aq = summary["aquaman"]
    top = sorted(summary, key=lambda p: -summary[p]["uses_per_seat_game"])
    uses = ", ".join(f"{p} {summary[p]['uses_per_seat_game']:.2f}" for p in top)
    never = [p for p in top if summary[p]["uses_per_seat_game"] == 0 and raider[p]["uses_per_seat_game"] == 0]
    return (
        f"- Power activations per player and game among four runners: {uses} (raiders: "
        + ", ".join(f"{p} {raider[p]['uses_per_seat_game']:.2f}" for p in top)
        + "). "
        + (f"{' and '.join(never).capitalize()} {'is' if len(never) == 1 else 'are'} never worth a card to "
           "either heuristic. " if never else "")
        + f"Runners who used Aquaman at least once won {_pct(aq['win_rate_when_used'])} of their games, "
        f"those who never did {_pct(aq['win_rate_when_not_used'])} (a correlation: see above)."
    )


def lead() -> str:
    return lead_passage(_play(("runner",) * 4), f"four `runner`s, {N:,} games")


def ladder() -> str:
    return ladder_passage("aquaman", "8,32,128,512", 200, yardstick="flat")


def robustness() -> str:
    return robustness_passage("aquaman", 10_000, 100, 5000)


FIGURES = {"lengths": lengths, "lead": lead, "seat-rates": seat_rates, "fights": fights, "powers": powers,
           "ladder": ladder, "robustness": robustness}


def fitted_evaluation() -> str:
    from common import fitted_evaluation_passage

    return fitted_evaluation_passage("aquaman")


FIGURES["fitted-evaluation"] = fitted_evaluation


def seat_compensation() -> str:
    """How far each compensation kind moves the seats (docs/rules/aquaman.md, "Seat compensation")."""
    return compensation_passage("aquaman", [{}, {"compensation.hand_limit.1": -1}, {"compensation.hand_limit.1": -2}, {"compensation.hand_limit.4": 2},
        {"compensation.cards.1": -1}, {"compensation.cards.4": 1}], 20_000)


FIGURES["seat-compensation"] = seat_compensation


CUT = ("aquaman", "mcts-100", [0, 20], 200, 1)  # docs/strategies.md's table and the config's comment: the same runs


def strength_at_cut() -> str:
    return strength_at_cut_passage(*CUT)


def strength_at_cut_comment_lines() -> str:
    return strength_at_cut_comment(*CUT)


FIGURES["strength-at-cut"] = strength_at_cut
COMMENTS = {"strength-at-cut": strength_at_cut_comment_lines}  # configs/aquaman.toml
