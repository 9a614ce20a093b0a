"""The numbers quoted in docs/rules/find-dr-evil.md, played with fixed seeds.

Run ``python docs/figures/run.py find-dr-evil`` (``make docs-figures``). Each function returns one
marked passage of the page; runs several passages share are played once (``_play`` caches them).
The exact two-player odds are computed here the same way as in
tests/games/find_dr_evil/test_find_dr_evil_stats.py.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
from common import compensation_passage, lead_passage

import simbalance
from simbalance.core.records import win_shares

N = 200_000  # games per setup
SEED = 2026
VARIANTS = ("deal-from-dealer", "no-repeat-pick", "repeat-with-two")


@cache
def _play(players: int = 4, variant: str | None = None, n: int = N):
    return simbalance.simulate("find-dr-evil", n, players=players, seed=SEED,
                               variants=[variant] if variant else None)


def _rates(players: int = 4, variant: str | None = None) -> np.ndarray:
    return win_shares(_play(players, variant).games["winners"].to_numpy(), players).mean(axis=0)


def _by_seat(rates) -> str:
    return " / ".join(f"{100 * r:.1f}%" for r in rates)


def _se(players: int) -> float:
    p = 1 / players
    return 100 * np.sqrt(p * (1 - p) / N)


def seat_rates() -> str:
    four = _rates(4)
    rows = ", ".join(f"{p} players {_by_seat(_rates(p))}" for p in (3, 5, 6))
    ling = _play(4).summary()["game"]
    return (
        f"The game is pure luck, and not fair between seats: with 4 players seat 3 (the dealer's right, last "
        f"to be offered) wins {100 * four[3]:.1f}% and seat 0 {100 * four[0]:.1f}% (seat win rates "
        f"{_by_seat(four)}, seat 0 first; {N:,} games, standard error about {_se(4):.1f} points). "
        f"Other tables: {rows}. The seat dealt Dr. Ling wins {100 * ling['share_won_by_seat_dealt_dr_ling']:.1f}% "
        "of the 4-player games."
    )


def length() -> str:
    g = _play(4).games
    q = g["length"].quantile([0.05, 0.5, 0.95])
    return (
        f"A 4-player game lasts a median of {q[0.5]:.0f} picks (5th-95th percentile {q[0.05]:.0f} to "
        f"{q[0.95]:.0f}); {int((g['length'] == 0).sum())} of the {len(g):,} deals left only Dr. Ling after the "
        "opening discards."
    )


def variants() -> str:
    rows = ["| variant | seat win rates, 4 players (seat 0 first) | median picks |", "|---|---|---|"]
    for v in (None, *VARIANTS):
        g = _play(4, v).games
        rows.append(f"| {'(default)' if v is None else f'`{v}`'} | {_by_seat(_rates(4, v))} | "
                    f"{g['length'].median():.0f} |")
    two = [_rates(2, v)[0] for v in (None, "repeat-with-two")]
    return ("\n".join(rows) + f"\n\n{N:,} games each (standard error about {_se(4):.1f} points). With 2 players "
            f"seat 0 wins {100 * two[0]:.1f}% by default and {100 * two[1]:.1f}% with `repeat-with-two`.")


# ---- exact odds for two players (as in the test) ---------------------------------------------


@cache
def _offerer_wins(k: int, ling: bool) -> Fraction:
    if k == 0:
        return Fraction(1 if ling else 0)
    if ling:
        return (1 + k * (1 - _offerer_wins(k - 1, False))) / Fraction(k + 2)
    return 1 - _offerer_wins(k - 1, True)


def _split_distribution(n_poses: int, cards_per_pose: int, take: int) -> dict[int, Fraction]:
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(n_poses):
        nxt: dict[tuple[int, int], int] = {}
        for (taken, split), w in ways.items():
            for j in range(cards_per_pose + 1):
                key = (taken + j, split + (j % 2))
                nxt[key] = nxt.get(key, 0) + w * comb(cards_per_pose, j)
        ways = nxt
    total = comb(n_poses * cards_per_pose, take)
    return {split: Fraction(w, total) for (taken, split), w in ways.items() if taken == take}


def _exact_seat0_two_players() -> Fraction:
    p = Fraction(0)
    for seat0_has_ling, p_ling in ((True, Fraction(18, 37)), (False, Fraction(19, 37))):
        for k, pk in _split_distribution(9, 4, 17 if seat0_has_ling else 18).items():
            p += p_ling * pk * _offerer_wins(k, seat0_has_ling)
    return p


def exact_odds() -> str:
    exact = float(_exact_seat0_two_players())
    observed = float(_rates(2)[0])
    se = (exact * (1 - exact) / N) ** 0.5
    return (
        f"- Exact odds: for two players the chance that seat 0 wins is computed exactly (a recursion over "
        f"the number of split poses and who holds Dr. Ling, averaged over the deal by dynamic programming): "
        f"{exact:.5f}. {N:,} simulated games give {observed:.5f} ({(observed - exact) / se:+.1f} standard "
        "errors); `tests/games/find_dr_evil/test_find_dr_evil_stats.py` checks its own run within 4 standard "
        "errors."
    )


def lead() -> str:
    return lead_passage(_play(), f"4 players, {N:,} games") + (
        " Here the lead is Dr. Ling: who holds him would win if the game stopped.")


FIGURES = {"seat-rates": seat_rates, "length": length, "variants": variants, "exact-odds": exact_odds,
           "lead": lead}


def seat_compensation() -> str:
    """How far each compensation kind moves the seats (docs/rules/find-dr-evil.md, "Seat compensation")."""
    return compensation_passage("find-dr-evil", [{}, {"compensation.cards.4": -1}, {"compensation.cards.4": -2}, {"compensation.cards.4": 1},
        {"compensation.cards.1": 2}], 100_000)


FIGURES["seat-compensation"] = seat_compensation
