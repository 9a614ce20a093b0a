"""The numbers quoted in docs/rules/captain-action.md, played with fixed seeds.

Run ``python docs/figures/run.py captain-action`` (``make docs-figures``). Each function returns one
marked passage of the page; runs several passages share are played once (``_play`` caches them).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from common import compensation_passage, ladder_passage, lead_passage, robustness_passage
from common import pct as _pct

import simbalance
from simbalance.core.config import load_config
from simbalance.core.records import win_shares

N = 20_000  # games per setup
SEED = 2026
PLAYERS = 4
INSTANT = {"strategies.bold.call_score": 0.0}  # bold with no bar: calls at its first chance
CFG = load_config("captain-action")


@cache
def _play(strategies: tuple[str, ...], overrides: tuple = (), players: int = PLAYERS, n: int = N):
    """One run: every seat permutation of ``strategies`` equally often when they differ."""
    return simbalance.simulate("captain-action", n, players=players, seed=SEED, strategies=list(strategies),
                               rotate=len(set(strategies)) > 1, overrides=dict(overrides))



def _seat_rates(strategies: tuple[str, ...], overrides: tuple = ()) -> np.ndarray:
    return win_shares(_play(strategies, overrides).games["winners"].to_numpy(), PLAYERS).mean(axis=0)


def _by_seat(rates) -> str:
    return " / ".join(f"{100 * r:.1f}%" for r in rates)


def _share(strategies: tuple[str, ...], name: str, overrides: tuple = ()) -> float:
    """The win share of one seat played by ``name`` (all lineups of a rotated run)."""
    res = _play(strategies, overrides)
    games = res.games
    slot = res.plan.lineup.slot_names.index(name)
    shares = win_shares(games["winners"].to_numpy(), PLAYERS)
    mine = sum(np.where(games[f"strategy_{s}"].to_numpy() == slot, shares[:, s], 0.0) for s in range(PLAYERS))
    return float(mine.sum() / (games.shape[0] * strategies.count(name)))


def _turns(n: float) -> str:
    return f"{n:.0f} turn" if n == 1 else f"{n:.0f} turns"


def _turn_one(strategies: tuple[str, ...], overrides: tuple = ()) -> float:
    """Share of games that end with a call on seat 0's first turn."""
    g = _play(strategies, overrides).games
    return float(((g["length"] == 1) & (g["caller"] == 0)).mean())


def opening_hands() -> str:
    # Random players who always call: seat 0 calls on turn 1, so seats 1-3 keep their dealt hands.
    g = _play(("random",), (("strategies.random.call", 1.0),)).games
    hands = np.concatenate([g[f"hand_score_{s}"].to_numpy() for s in range(1, PLAYERS)])
    p5, p50, p95 = np.percentile(hands, [5, 50, 95])
    rules = CFG["rules"]
    return (
        f"- Calling early is very strong: {rules['hand_size']} dealt cards already score a median of {p50:.0f} "
        f"(5th-95th percentile {p5:.0f} to {p95:.0f}; {hands.size:,} dealt hands), a turn of drawing adds "
        f"little compared with the up-to-{rules['countdown'] - 1}-point bonus of a call on turn one, and a "
        "call freezes everybody else's hand."
    )


def turn_one() -> str:
    builders, bolds, collectors = ("builder",) * 4, ("bold",) * 4, ("collector",) * 4
    instant = tuple(sorted(INSTANT.items()))
    lines = []
    for name, lineup, over in (("builder", builders, ()), ("bold", bolds, ()), ("instant", bolds, instant)):
        g = _play(lineup, over).games
        label = "`bold`s with `call_score = 0` (calling at the first chance)" if name == "instant" else f"`{name}`s"
        lines.append(f"four {label}: median game {_turns(g['length'].median())}, "
                     f"{_pct(_turn_one(lineup, over))} of the games called on seat 0's first turn, seat win "
                     f"rates {_by_seat(_seat_rates(lineup, over))}")
    vs = _share(("bold", "builder", "builder", "builder"), "bold", instant)
    random_rates = _seat_rates(("random",))
    cg = _play(collectors).games
    return (
        "- Under the pinned rules the deliberate players that may call on turn one do so, and the seat order "
        "decides. F" + "; ".join(lines)[1:] + f" ({N:,} games each, seat 0 first; standard error about "
        f"{100 * np.sqrt(0.25 * 0.75 / N):.1f} points). "
        f"Calling at the first chance is as good as building: one such player among three `builder`s wins "
        f"{_pct(vs)} of its games (rotated over the seats; 25% would be even). "
        f"Only a player that refuses to call early changes this: four `collector`s play a median of "
        f"{_turns(cg['length'].median())}. Random players (who call half of the time): seat rates "
        f"{_by_seat(random_rates)}.\n"
        "- This is a fact of the rules as pinned here (the bonus rewards the first call and the deal alone "
        "scores well), not of the players: of the heuristics here, none does better than calling at once."
    )


def vs_random() -> str:
    parts = []
    for name in ("builder", "bold", "collector"):
        parts.append(f"`{name}` {_pct(_share((name, 'random', 'random', 'random'), name))}")
    return (
        "- Against three random players (who call half of the time) the heuristics win "
        + ", ".join(parts) + " of their seats' games (rotated over the seats; 25% would be even)."
    )


def collector() -> str:
    col = _play(("collector",) * 4).games
    bld = _play(("builder",) * 4).games
    share = _share(("collector", "builder", "builder", "builder"), "collector")
    one_builder = _share(("builder", "collector", "collector", "collector"), "builder")
    out = float((col["countdown_out"] == 1).mean())
    min_turns = CFG["strategies"]["collector"]["min_turns"]
    return (
        f"- `collector` (never calls before its turn {min_turns:.0f}) against three `builder`s wins {_pct(share)} of its "
        f"games: the builders call first. One `builder` among three `collector`s wins {_pct(one_builder)}. "
        f"Four `collector`s play a median of {_turns(col['length'].median())} (mean "
        f"{col['length'].mean():.1f}; four `builder`s: median {_turns(bld['length'].median())}, mean "
        f"{bld['length'].mean():.1f}), the Countdown Deck runs out in {_pct(out)} of their games, and the "
        f"seat win rates are {_by_seat(_seat_rates(('collector',) * 4))}."
    )


def lead() -> str:
    return lead_passage(_play(("collector",) * PLAYERS), f"four `collector`s, who build before they call, {N:,} games") + (
        " With the default builders, who call on turn one, the game is decided by the opening hands: "
        f"{_play(('builder',) * PLAYERS).summary()['lead']['lead_changes_mean']:.3f} lead changes per game.")


FIGURES = {"opening-hands": opening_hands, "turn-one": turn_one, "vs-random": vs_random, "lead": lead,
           "collector": collector}


def ladder() -> str:
    return ladder_passage("captain-action", "8,32,128,512", 3000)


def robustness() -> str:
    return robustness_passage("captain-action", 20_000, 100, 2000)


def ladder_random() -> str:
    return ladder_passage("captain-action", "1,4,32,256", 3000, against="random", yardstick="flat")


FIGURES.update({"ladder": ladder, "ladder-random": ladder_random, "robustness": robustness})


def fitted_evaluation() -> str:
    from common import fitted_evaluation_passage

    return fitted_evaluation_passage("captain-action")


FIGURES["fitted-evaluation"] = fitted_evaluation


def seat_compensation() -> str:
    """How far each compensation kind moves the seats (docs/rules/captain-action.md, "Seat compensation")."""
    return compensation_passage("captain-action", [{}, {"compensation.points.1": -4}, {"compensation.points.1": -8}, {"compensation.later_seat_points": 4},
        {"compensation.later_seat_points": 8}], 20_000)


FIGURES["seat-compensation"] = seat_compensation
