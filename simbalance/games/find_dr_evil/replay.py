"""One game of a run again: ``trace`` (its record and event log) and ``replay`` (in words)."""

from __future__ import annotations

import numpy as np

from simbalance.core.replay import trace_with_log
from simbalance.games.find_dr_evil import state_nb
from simbalance.games.find_dr_evil.deck import game_deck
from simbalance.games.find_dr_evil.play_nb import trace_game


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernel's own code, validated) and return its
    record and its event log (rows of state_nb.EV_*)."""
    lineup = plan.lineup
    card_pose, ling, n_pose_ids, players, rules, _ = plan.prepared
    return trace_with_log(
        lambda target, log, log_n: trace_game(lineup.seats, lineup.slot_strategy, lineup.slot_params, card_pose,
                                              ling, n_pose_ids, players, rules, np.uint64(plan.seed),
                                              np.int64(game), target, log, log_n),
        plan.engine.record_dtype, 4, rows=4 * len(card_pose) + 64)


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    out, events = trace(plan, game)
    players, rules = int(plan.prepared[3]), plan.prepared[4]
    name = game_deck(plan.config).label
    dealt: dict[int, list[str]] = {}
    lines = [f"find-dr-evil, game {game} of seed {plan.seed}, {players} players; player 1 deals."]
    k = 0
    while k < len(events) and events[k, 0] in (state_nb.EV_DEAL, state_nb.EV_PAIR):
        kind, a, b, c = events[k]
        if kind == state_nb.EV_DEAL:
            dealt.setdefault(int(a), []).append(name(int(b)))
        k += 1
    for seat in sorted(dealt):
        lines.append(f"Player {seat + 1} is dealt {len(dealt[seat])} cards: {', '.join(dealt[seat])}.")
    for kind, a, b, c in events[:k]:
        if kind == state_nb.EV_PAIR:
            lines.append(f"Player {a + 1} discards the pair {name(int(b))} + {name(int(c))}.")
    for seat in range(players):
        lines.append(f"Player {seat + 1} keeps {int(out[0]['kept'][seat])} cards.")
    picks = 0
    for kind, a, b, c in events[k:]:
        if kind == state_nb.EV_PICK:
            picks += 1
            lines.append(f"Pick {picks}: player {a + 1} draws {name(int(c))} from player {b + 1}.")
        elif kind == state_nb.EV_PAIR:
            lines.append(f"  ... and discards the pair {name(int(b))} + {name(int(c))}.")
        elif kind == state_nb.EV_WIN:
            lines.append(f"Only Dr. Ling is left: player {a + 1} holds him and wins after {picks} picks.")
        elif kind == state_nb.EV_INVALID:
            lines.append(f"Validation failed after pick {picks}: the hands broke an invariant (a bug).")
        elif kind == state_nb.EV_STALEMATE:
            lines.append(f"No pair in {a} picks (rules.stalemate_window): a stalemate, nobody wins.")
        else:
            lines.append(f"The pick cap ({int(rules[state_nb.PICK_CAP])}) is reached: a timeout, nobody wins.")
    return lines
