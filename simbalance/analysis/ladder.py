"""The skill ladder's statistics: a search player at rising budgets against a heuristic and against
the budget before it (docs/strategies.md).

- Against the heuristic: the search seat's win rate per seat over decided games, with its Wilson
  interval, held against the fair share 1/P (as every comparison with 1/P: docs/metrics.md).
- Against the budget before it: the head-to-head share of the wins, r_b / (r_b + r_prev), from
  the games where both budgets sit at the table (analysis/tournament.head_to_head): 50 % is even
  whatever the other seats hold.
- Against the yardstick (``--yardstick flat``): the same head-to-head share against the other
  search player at the same budget (``flat`` with as many play-outs per decision as ``mcts`` has
  iterations): the tree search must beat one-step lookahead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.analysis.tournament import head_to_head, seat_matrix

LADDER_COLUMNS = ["budget", "name", "win_rate", "ci_low", "ci_high", "decided_seat_games", "games",
                  "h2h_share", "h2h_ci_low", "h2h_ci_high", "h2h_games",
                  "yard_share", "yard_ci_low", "yard_ci_high", "yard_games"]


def slot_wins_and_seats(games: pd.DataFrame, players: int, slot: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the win share of the seats that play slot ``slot``, and how many seats play it."""
    slots, shares = seat_matrix(games, players)
    mine = slots == slot
    return (shares * mine).sum(axis=1), mine.sum(axis=1).astype(np.float64)


def pair_share(games: pd.DataFrame, players: int, a: int, b: int) -> tuple[float, float, float]:
    """Slot ``a``'s head-to-head share against slot ``b`` with its 95 % interval, over the decided
    games (a game without a winner says nothing about who is stronger)."""
    decided = games[games["winners"] != 0]
    aw, asn = slot_wins_and_seats(decided, players, a)
    bw, bsn = slot_wins_and_seats(decided, players, b)
    return head_to_head(aw, asn, bw, bsn)


