"""captain-action's replay: one game of a run played again with the kernel's own code
(play_nb.trace_game) and an event log (state_nb EV_*), and told in words.
"""

from __future__ import annotations

import numpy as np

from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.replay import trace_with_log
from simbalance.games.captain_action import state_nb as st
from simbalance.games.captain_action.deck import game_deck
from simbalance.games.captain_action.play_nb import trace_game
from simbalance.games.captain_action.play_nb import trace_search_game
from simbalance.games.captain_action.scoring_nb import hand_score


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernel's own code, validated) and return its
    record and its event log (rows of st.EV_*)."""
    lineup = plan.lineup
    play = trace_search_game if plan.engine.searches(lineup) else trace_game
    return trace_with_log(
        lambda target, log, log_n: play(lineup.seats, lineup.slot_strategy, lineup.slot_params,
                                              *plan.prepared[:3], np.uint64(plan.seed), np.int64(game), target,
                                              log, log_n, *plan.trace_extra),
        plan.engine.record_dtype, 4, rows=1024)


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    out, events = trace(plan, game)
    rec = out[0]
    card_info, srules, game_rules, _ = plan.prepared
    deck = game_deck(plan.config)
    card = deck.label
    players, hand_size = plan.players, int(game_rules[st.G_HAND])
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"player {s + 1} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    cnt = np.zeros((3, max(int(srules[st.RULE_N_BG]), int(srules[st.RULE_N_CH]))), np.int64)
    scratch = np.zeros(int(srules[st.RULE_N_BG] + srules[st.RULE_N_CH]) + deck.size + 1, np.int64)

    def worth(seat: int) -> int:
        h = np.array([hands[seat]], np.int64)
        return int(hand_score(h, 0, h.shape[1], card_info, srules, cnt, scratch))

    timing = "after discarding" if not game_rules[st.G_CALL_BEFORE] else "before drawing"
    lines = [f"captain-action, game {game} of seed {plan.seed}, {players} players; player 1 starts, play goes "
             f"clockwise; a call comes {timing}."]
    turn: list[str] = []
    for ev, a, b, c in events.tolist():
        if ev == st.EV_DEAL:
            hands[a].append(b)
        elif ev == st.EV_FACE_UP:
            for s in range(players):
                lines.append(f"Player {s + 1} is dealt {hand_size} cards: {', '.join(card(x) for x in hands[s])} "
                             f"(worth {worth(s)}).")
            lines.append(f"The Countdown Deck holds {int(game_rules[st.G_COUNTDOWN])} cards; {card(a)} starts the "
                         "discard pile.")
        elif ev == st.EV_TURN:
            turn = [f"Turn {a}, {who[b]}:"]
        elif ev == st.EV_DRAW:
            hands[a].append(b)
            turn.append(f"draws {card(b)} from the Countdown Deck ({c} left),")
        elif ev == st.EV_TAKE:
            hands[a].append(b)
            turn.append(f"takes {card(b)} from the discard pile,")
        elif ev == st.EV_DISCARD:
            hands[a].remove(b)
            turn.append(f"discards {card(b)}; hand worth {worth(a)}.")
            lines.append(" ".join(turn))
            turn = []
        elif ev == st.EV_CALL:
            if turn and len(turn) == 1:  # a call before drawing
                lines.append(turn[0])
            lines.append(f"Player {a + 1} calls \"Let Justice Be Done!\" with {b} Countdown cards left: a bonus of {b}.")
            turn = []
        elif ev == st.EV_COUNTDOWN_OUT:
            penalty = int(game_rules[st.G_PENALTY])
            whom = "every player loses" if game_rules[st.G_PENALTY_ALL] else f"player {a + 1} loses"
            lines.append(f"Player {a + 1} drew the last Countdown card: Dr. Evil attacks, nobody has a bonus"
                         + (f", {whom} {penalty} points." if penalty else "."))
        elif ev == st.EV_SCORE:
            if a == 0:
                lines.append("Attack! The hands are scored:" if rec["end"] == 0 else "The hands at the end:")
            lines.append(f"  Player {a + 1}: {', '.join(card(x) for x in hands[a])}: sets worth {b}, total {c}.")
        elif ev == st.EV_TIMEOUT:
            lines.append(f"The turn cap ({a} turns) is reached.")
        elif ev == st.EV_STALEMATE:
            name, text = plan.engine.stalemate_reasons.get(a, ("unspecified", ""))
            lines.append(f"No Countdown card drawn in {b} turns (rules.stalemate_window): a stalemate, reason "
                         f"{name}: {text}.")
        elif ev == st.EV_INVALID:
            lines.append("Invalid game: " + (f"player {a + 1} discarded slot {b}, which it may not." if a >= 0
                                             else "the cards are no longer all accounted for."))
    if rec["end"] == END_TIMEOUT:
        lines.append("A timeout: nobody wins.")
    elif rec["end"] == END_STALEMATE:
        lines.append("A stalemate: nobody wins.")
    elif rec["end"] == END_WIN:
        winners = [s for s in range(players) if int(rec["winners"]) >> s & 1]
        best = int(rec["score"][winners[0]])
        if len(winners) == 1:
            lines.append(f"{who[winners[0]].capitalize()} wins with {best} points after {_turns(rec)}.")
        else:
            tied = ", ".join(str(s + 1) for s in winners)
            lines.append(f"Players {tied} tie with {best} points after {_turns(rec)}.")
    return lines


def _turns(rec) -> str:
    n = int(rec["length"])
    return f"{n} turn" if n == 1 else f"{n} turns"
