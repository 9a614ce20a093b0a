"""aquaman's replay: one game of a run played again with the kernel's own code (``trace``), and
told in words (``replay``)."""

from __future__ import annotations

import numpy as np

from simbalance.core.config import get
from simbalance.core.errors import ConfigError
from simbalance.core.replay import trace_with_log
from simbalance.games.aquaman import state_nb as e
from simbalance.games.aquaman.play_nb import kernel
from simbalance.games.aquaman.play_nb import search_kernel
from simbalance.games.aquaman.play_nb import trace_game
from simbalance.games.aquaman.play_nb import trace_search_game

DIRECTION_NAMES = ("up", "down", "left", "right")


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again with the kernel's own per-game code and return its
    record and its event log (rows of ``EV_*``: kind, a, b, c, d, deck refills so far)."""
    if plan.kernel is not None and plan.kernel is not kernel and plan.kernel is not search_kernel:
        raise ConfigError("replay: a plug-in strategy file cannot be replayed; replay the built-in strategies")
    lineup = plan.lineup
    run_trace = trace_search_game if plan.engine.searches(lineup) else trace_game

    def play(out, log, log_n):
        run_trace(out, np.int64(game), np.uint64(plan.seed), lineup.seats, lineup.slot_strategy,
                   lineup.slot_params, *plan.prepared, log, log_n, *plan.trace_extra)

    return trace_with_log(play, plan.engine.record_dtype, e.N_EV_COLS)


def _legs(dice: list[int], start: int, dest: int, move_to: np.ndarray, turn: bool) -> list[tuple[int, int, int]] | None:
    """One order of the dice and directions that ends the swim on ``dest``: (die, direction or -1
    for a skipped leg, square after the leg). The heuristics choose a square, not a path."""
    from itertools import permutations

    def go(cur: int, axis: int, rest: tuple[int, ...]) -> list | None:
        if not rest:
            return [] if cur == dest else None
        d = dice[rest[0]]
        moves = [(k, int(move_to[cur, d, k])) for k in range(4)
                 if move_to[cur, d, k] >= 0 and not (turn and 1 + (k >> 1) == axis)]
        if not moves:
            tail = go(cur, axis, rest[1:])
            return None if tail is None else [(d, -1, cur)] + tail
        for k, dst in moves:
            tail = go(dst, 1 + (k >> 1), rest[1:])
            if tail is not None:
                return [(d, k, dst)] + tail
        return None

    for order in permutations(range(len(dice))):
        path = go(start, 0, order)
        if path is not None:
            return path
    return None


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    out, events = trace(plan, game)
    rec = out[0]
    rules, card, move_to = plan.prepared[0], plan.prepared[1], plan.prepared[2]
    suits = get(plan.config, "deck.suits")
    players = plan.players
    cols = int(rules[e.R_COLS])
    n_dice = int(rules[e.R_NDICE])
    turn_legs = bool(rules[e.R_TURN_LEGS])
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"player {s + 1} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}

    def name(c: int) -> str:
        return f"{suits[card[e.CARD_SUIT, c]]} {card[e.CARD_RANK, c]}" if c >= 0 else "nothing"

    def sq(cell: int) -> str:
        return f"({cell // cols},{cell % cols})"

    def leg(d: int, k: int, dst: int) -> str:
        return f"{d} {DIRECTION_NAMES[k]} to {sq(dst)}" if k >= 0 else f"{d} skipped (no legal direction)"

    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    board: dict[int, int] = {}
    missions = [0] * players
    why = {e.WHY_COMPANION: "Companion: discards", e.WHY_POWER: "Power: discards",
           e.WHY_MISSION: "mission: discards", e.WHY_REST: "hand limit: discards"}
    power_names = list(e.POWER_NAMES) + ["no power"]
    lines = [f"aquaman, game {game} of seed {plan.seed}, {players} players: "
             + ", ".join(f"{who[s]} starts at {sq(int(rules[e.R_CORNER + s]))}" for s in range(players))
             + f". Squares are (row,col) from 0; a mission needs {int(rules[e.R_MISSION_SUITS])} suits, "
             f"{int(rules[e.R_MISSIONS_TO_WIN])} missions win, hand limit {int(rules[e.R_HAND_LIMIT])}."]
    refills = 0
    dice: list[int] = []
    legs: list[tuple[int, int, int]] = []
    dealt = False

    def hand(s: int) -> str:
        return ", ".join(name(c) for c in sorted(hands[s], key=lambda c: (card[e.CARD_SUIT, c], card[e.CARD_RANK, c])))

    for kind, a, b, c, d, ref in events.tolist():
        if ref > refills:
            refills = ref
            lines.append("    (the deck ran out: the discard pile is shuffled into a new deck)")
        if kind == e.EV_BOARD:
            board[a] = b
        elif kind == e.EV_DEAL:
            if not dealt:
                dealt = True
                lines.append("The board:")
                rows = int(rules[e.R_ROWS])
                for r in range(rows):
                    lines.append(f"  row {r}: " + " | ".join(name(board[r * cols + k]) for k in range(cols)))
            hands[a].append(b)
        elif kind == e.EV_TURN:
            if a == 1:
                for s in range(players):
                    lines.append(f"{who[s].capitalize()} is dealt: {hand(s) or 'no cards'}.")
            lines.append(f"Turn {a}, {who[b]}, hand: {hand(b) or 'empty'}; missions {missions[b]}.")
        elif kind == e.EV_ACTIVATE:
            hands[a].remove(b)
            lines.append(f"  uses {name(b)}: power {power_names[c]} (rank {card[e.CARD_RANK, b]}).")
        elif kind == e.EV_DRAW:
            if b >= 0:
                hands[a].append(b)
            extra = " (a third card: the first two summed below the Aquaman card)" if d else ""
            lines.append(f"    draws {name(b)}{extra}; {c} cards left in the deck.")
        elif kind == e.EV_SEE:
            lines.append(f"    looks at {name(b)}.")
        elif kind == e.EV_KEEP:
            if b >= 0:
                hands[a].append(b)
            lines.append(f"    keeps {name(b)}." if b >= 0 else "    keeps none (none is lower).")
        elif kind == e.EV_DISC:
            if c == e.WHY_ACTIVATED:
                lines.append(f"    {name(b)} goes to the discard pile.")
            elif c == e.WHY_COMPANION:
                lines.append(f"    discards {name(b)}.")
            else:
                hands[a].remove(b)
                lines.append(f"  {why[c]} {name(b)}.")
        elif kind == e.EV_SEA:
            if b < 0:
                lines.append("    the discard pile is empty: nothing to take.")
            elif c:
                hands[a].append(b)
                lines.append(f"    takes {name(b)} from the discard pile.")
            else:
                lines.append(f"    the discard pile's top card {name(b)} is not lower: nothing taken.")
        elif kind == e.EV_PLOT:
            lines.append(f"    targets square {sq(b)} ({name(board[b])})." if b >= 0
                         else "    no square qualifies: the swim is rolled.")
        elif kind == e.EV_FOE:
            if b < 0:
                lines.append("    no adjacent opponent with cards: no effect.")
            elif d:
                hands[b].remove(c)
                lines.append(f"    player {b + 1} reveals {name(c)}: lower, discarded.")
            else:
                lines.append(f"    player {b + 1} reveals {name(c)}: not lower, kept.")
        elif kind == e.EV_STRANGE:
            if b < 0:
                lines.append("    no adjacent card is lower: no effect.")
            else:
                hands[a].append(c)
                board[b] = d
                lines.append(f"    takes {name(c)} from square {sq(b)}; {name(d)} refills it.")
        elif kind == e.EV_LOCATION:
            if c == 0:
                lines.append(f"    shows the next {d} cards of the deck:")
            lines[-1] += (" " if c == 0 else ", ") + name(b)
        elif kind == e.EV_ROLL:
            dice = [b, c, d][:n_dice]
            legs = []
            lines.append(f"  rolls {', '.join(map(str, dice))}.")
        elif kind == e.EV_LEG:
            legs.append((a, b, d))
        elif kind == e.EV_MOVE:
            if d:
                lines.append(f"  swims to {sq(c)} by Plot, without rolling.")
            else:
                how = "order and directions chosen"
                if not legs:  # a heuristic chose the square: show one way there
                    legs = _legs(dice, b, c, move_to, turn_legs) or []
                    how = "one way there"
                path = "; ".join(leg(*x) for x in legs)
                lines.append(f"  swims {sq(b)} -> {sq(c)} ({how}: {path}).")
        elif kind == e.EV_TAKE:
            hands[a].append(c)
            board[b] = d
            lines.append(f"  takes {name(c)}; {name(d)} refills the square." if d >= 0
                         else f"  takes {name(c)}; the deck is empty, the square stays empty.")
        elif kind == e.EV_EMPTY:
            lines.append("  the square is empty: nothing to take.")
        elif kind == e.EV_FIGHT:
            lines.append(f"  fights player {b + 1} on the square:")
        elif kind == e.EV_REVEAL:
            for s, x in ((a, b), (c, d)):
                if x >= 0:
                    hands[s].remove(x)
            lines.append(f"    player {a + 1} reveals {name(b) if b >= 0 else 'no card (empty hand)'}, "
                         f"player {c + 1} reveals {name(d) if d >= 0 else 'no card (empty hand)'}"
                         + ("; a tie." if b >= 0 and d >= 0 and card[e.CARD_RANK, b] == card[e.CARD_RANK, d] else "."))
        elif kind == e.EV_STEAL:
            hands[b].remove(c)
            hands[a].append(c)
            lines.append(f"    player {a + 1} steals {name(c)} from player {b + 1}.")
        elif kind == e.EV_NO_REVEAL:
            empty = [s for s, k in ((a, b), (c, d)) if k == 0]
            lines.append("    " + " and ".join(f"player {s + 1}" for s in empty)
                         + (" has" if len(empty) == 1 else " have") + " no card to reveal: "
                         "the fight ends before the reveal.")
        elif kind == e.EV_FIGHT_END:
            if c < 0:
                lines.append("    nobody wins the fight.")
            else:
                lines.append(f"    player {c + 1} wins the fight.")
        elif kind == e.EV_MISSION:
            missions[a] = b
            lines.append(f"  completes mission {b}.")
        elif kind == e.EV_WIN:
            lines.append(f"Player {a + 1} wins with {missions[a]} missions on turn {b}.")
        elif kind == e.EV_TIMEOUT:
            lines.append(f"The turn cap ({a} turns) ends the game: nobody wins.")
        elif kind == e.EV_STALEMATE:
            reason, why = plan.engine.stalemate_reasons.get(a, ("unspecified", ""))
            lines.append(f"No progress for {b} turns (rules.stalemate_window): a stalemate, reason {reason}: {why}. "
                         "Nobody wins.")
        elif kind == e.EV_INVALID:
            lines.append(f"Validation: an invariant broke after turn {a}.")
    if [len(hands[s]) for s in range(players)] != [int(rec["hand_end"][s]) for s in range(players)]:
        raise RuntimeError(f"aquaman replay of game {game}: the event log lost track of a hand (a bug)")
    lines.append(f"At the end (the deck was refilled {int(rec['refills'])} times):")
    for s in range(players):
        lines.append(f"  {who[s]}: {int(rec['missions'][s])} missions, hand: {hand(s) or 'empty'}.")
    return lines
