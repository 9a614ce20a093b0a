"""lady-actions-escape replays: one game of a run played again with the kernels' own code and an
event log (``trace``), and told move by move (``replay``)."""

from __future__ import annotations

import numpy as np

from simbalance.core.errors import SimbalanceError
from simbalance.core.replay import trace_with_log
from simbalance.core.user_strategy import USER_STRATEGY_ID
from simbalance.games.lady_actions_escape import state_nb as S
from simbalance.games.lady_actions_escape.deck import game_deck
from simbalance.games.lady_actions_escape.play_nb import trace_game
from simbalance.games.lady_actions_escape.play_nb import trace_search_game


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernels' own code, validated) and return its
    record and its event log (rows of state_nb.EV_*)."""
    run_trace = getattr(plan.kernel, "trace_game", None)  # a plug-in kernel's own replay
    if USER_STRATEGY_ID in plan.lineup.slot_strategy and run_trace is None:
        raise SimbalanceError("lady-actions-escape: replaying a plug-in's game needs its kernel (plan_run with "
                              "strategy_file=...)")
    run_trace = run_trace or (trace_search_game if plan.engine.searches(plan.lineup) else trace_game)
    lineup = plan.lineup
    return trace_with_log(
        lambda target, log, log_n: run_trace(lineup.seats, lineup.slot_strategy, lineup.slot_params,
                                             *plan.prepared[:4], np.uint64(plan.seed), np.int64(game), target,
                                             log, log_n, *plan.trace_extra),
        plan.engine.record_dtype, S.LOG_COLUMNS)


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    out, events = trace(plan, game)
    deck = game_deck(plan.config)
    card = deck.label
    players = plan.players
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"player {s + 1} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}
    held = np.zeros(players, np.int64)

    def kind(bg: int, ch: int) -> str:
        parts = [deck.backgrounds[bg] if bg >= 0 else "", deck.characters[ch] if ch >= 0 else ""]
        return " / ".join(p for p in parts if p) or "nothing"

    leader = next((int(b) for ev, a, b, c in events.tolist() if ev == S.EV_TURN), 0)
    lines = [f"lady-actions-escape, game {game} of seed {plan.seed}, {players} players; player {leader + 1} leads, play "
             "starts clockwise."]
    dealt: dict[int, list[str]] = {}
    turn: list[str] = []  # the current turn's words
    after: list[str] = []  # what follows from it (penalties, reshuffles)
    penalty: dict[int, list[str]] = {}  # Dr. Evil's draws, per seat
    drawn: list[str] = []  # cards the player drew this turn, looking for a playable one

    def flush_penalty():
        if penalty:
            after.append("  " + "; ".join(f"player {s + 1} draws {', '.join(c)}" for s, c in penalty.items()) + ".")
            penalty.clear()

    def flush():
        flush_penalty()
        if turn:
            lines.append(" ".join(turn))
        lines.extend(after)
        turn.clear()
        after.clear()

    for ev, a, b, c in events.tolist():
        if ev == S.EV_DEAL:
            dealt.setdefault(a, []).append(card(b))
            held[a] += 1
            continue
        if dealt:
            for s in sorted(dealt):
                lines.append(f"Player {s + 1} is dealt {len(dealt[s])} cards: {', '.join(dealt[s])}.")
            lines.append(f"The draw pile holds {deck.size - int(held.sum())} cards.")
            dealt.clear()
        if ev == S.EV_TURN:
            flush()
            turn.append(f"Turn {a}, {who[b]}:")
        elif ev == S.EV_DRAW and c == 0:
            held[a] += 1
            drawn.append(card(b))
        elif ev == S.EV_DRAW:
            held[a] += 1
            penalty.setdefault(a, []).append(card(b))
        elif ev == S.EV_PLAY:
            held[a] -= 1
            if drawn:
                turn.append(f"cannot play, draws {', '.join(drawn)} and")
                drawn.clear()
            turn.append(f"{'leads' if c else 'plays'} {card(b)} ({held[a]} left).")
        elif ev == S.EV_NAME:
            turn.append(f"The wildcard stands for {kind(b, c)}.")
        elif ev == S.EV_REVERSE:
            turn.append(f"Lady Action: play now runs {'clockwise' if a == 1 else 'counter-clockwise'}.")
        elif ev == S.EV_DRAW_EFFECT:
            turn.append(f"Dr. Evil: every other player draws {b}:")
        elif ev == S.EV_RESHUFFLE:
            flush_penalty()
            after.append(f"  The discard pile but its top card ({a} cards) is shuffled into a new draw pile.")
        elif ev == S.EV_PASS:
            turn.append(f"cannot play, draws {', '.join(drawn)}, nothing is left to draw: passes." if drawn else
                        "cannot play and nothing is left to draw: passes.")
            drawn.clear()
        elif ev == S.EV_WIN:
            flush()
            lines.append(f"Player {a + 1} has played its last card and escapes: {who[a]} wins after "
                         f"{int(out[0]['length'])} turns.")
        elif ev == S.EV_STALEMATE:
            flush()
            name, text = plan.engine.stalemate_reasons.get(a, ("unspecified", ""))
            if a == S.R_NO_PLAY:
                lines.append(f"Nobody could play for a full round: a stalemate after {int(out[0]['length'])} turns, "
                             "nobody wins.")
            else:
                lines.append(f"No progress for {b} turns (rules.stalemate_window): a stalemate after "
                             f"{int(out[0]['length'])} turns, nobody wins. Reason {name}: {text}.")
        elif ev == S.EV_TIMEOUT:
            flush()
            lines.append(f"The turn cap ({a} turns) is reached: a timeout, nobody wins.")
        elif ev == S.EV_INVALID:
            flush()
            what = f"player {a + 1} played {b}, not a playable card" if a >= 0 else "the cards are no longer all accounted for"
            lines.append(f"Invalid game: {what}.")
    flush()
    left = ", ".join(f"player {s + 1} {int(out[0]['cards_left'][s])}" for s in range(players))
    lines.append(f"Cards left: {left}.")
    return lines
