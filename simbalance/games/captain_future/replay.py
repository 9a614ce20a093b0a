"""captain-future's replay: one game played again with the kernel's own code (play_nb.trace_game),
its event log (state_nb.EV_*) told move by move in words, with the board's names (board.Layout).

The text follows the board from the log alone (owners, supplies, hands) and, at the end, checks
that this agrees with the game's record (scores, ships, control per body): a log that lost track of
something is a bug and raises.
"""

from __future__ import annotations

import numpy as np

from simbalance.core.errors import SimbalanceError
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.replay import trace_with_log
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future.board import EVENT_NAMES
from simbalance.games.captain_future.board import parse_map
from simbalance.games.captain_future.validate_nb import INVARIANTS

EVENT_TITLES = ("Simon Wright", "Recall", "Otto", "GRAG")
CATEGORY_WORDS = ("as the majority holder", "with a ship of its own there", "with no ship of its own there")
assert len(EVENT_TITLES) == len(EVENT_NAMES)


def check_game_index(plan, game) -> int:
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)):
        raise SimbalanceError(f"game = {game!r}: expected a game index, a whole number")
    if not 0 <= game < min(plan.n, 2**63):
        raise SimbalanceError(f"game {game}: out of range; the run has games 0 to {min(plan.n, 2**63) - 1} "
                              "(the column `game` of its records)")
    return int(game)


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernel's own code, validated) and return its
    record and its event log (rows of state_nb.EV_*, columns kind, a..e)."""
    from simbalance.games.captain_future.play_nb import trace_game
    from simbalance.games.captain_future.play_nb import trace_search_game

    game = check_game_index(plan, game)
    searching = plan.engine.searches(plan.lineup)
    if plan.kernel is not None and plan.kernel is not plan.engine.kernel_for(plan.lineup):
        raise SimbalanceError("replay: a plug-in strategy cannot be replayed; replay the built-in strategies")
    lineup = plan.lineup
    bd = plan.prepared[0]
    play = trace_search_game if searching else trace_game
    return trace_with_log(
        lambda target, log, log_n: play(target, np.int64(game), np.uint64(plan.seed), lineup.seats,
                                        lineup.slot_strategy, lineup.slot_params, bd, log, log_n,
                                        *plan.trace_extra),
        plan.engine.record_dtype, X.N_EV_COLS)


class _Names:
    """Designer names of card kinds, spaces and stone places on one board."""

    def __init__(self, lay, bd: np.ndarray):
        self.lay = lay
        self.nr, self.nc, self.nb = len(lay.row_labels), len(lay.col_labels), len(lay.body_ids)
        self.kj = int(bd[X.KJ])

    def body(self, b: int) -> str:
        return self.lay.body_names[b]

    def card(self, k: int) -> str:
        """'row C', 'column 7', 'Saturn', 'joker', 'Recall'."""
        if k < self.nr:
            return f"row {self.lay.row_labels[k]}"
        if k < self.nr + self.nc:
            return f"column {self.lay.col_labels[k - self.nr]}"
        if k < self.kj:
            return self.body(k - self.nr - self.nc)
        if k == self.kj:
            return "joker"
        if k - self.kj - 1 < len(EVENT_TITLES):
            return EVENT_TITLES[k - self.kj - 1]
        return f"unknown card (kind {k})"  # only in a broken game

    def a_card(self, k: int) -> str:
        """'the row C card', 'a joker', 'a Recall card'."""
        if k == self.kj:
            return "a joker"
        if k > self.kj + len(EVENT_TITLES):
            return f"an {self.card(k)}"
        if k > self.kj:
            return f"a{'n' if self.card(k)[0] in 'AEIOU' else ''} {self.card(k)} card"
        return f"the {self.card(k)} card"

    def cards(self, counts: dict[int, int]) -> str:
        """'joker x2, Saturn, row C' (by kind: rows, columns, bodies, joker, events)."""
        parts = [self.card(k) + (f" x{n}" if n > 1 else "") for k, n in sorted(counts.items()) if n > 0]
        return ", ".join(parts) if parts else "no cards"

    def space(self, s: int) -> str:
        """'Saturn C7' (body, row label, column label)."""
        lay = self.lay
        return f"{self.body(int(lay.space_body[s]))} {lay.row_labels[lay.space_row[s]]}{lay.col_labels[lay.space_col[s]]}"

    def place(self, place: int) -> str:
        if place < self.nr:
            return f"row {self.lay.row_labels[place]}"
        if place < self.nr + self.nc:
            return f"column {self.lay.col_labels[place - self.nr]}"
        return self.body(place - self.nr - self.nc)


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


class _Board:
    """The game as the log tells it: owners, supplies, ships lost, hands; and its scoring."""

    def __init__(self, bd: np.ndarray, lay, players: int):
        self.lay, self.P = lay, players
        self.L, self.B = int(bd[X.NL]), int(bd[X.NB])
        self.size = [int(bd[X.BODY_SIZE + b]) for b in range(self.B)]
        self.bonus = [int(bd[X.BODY_BONUS + b]) for b in range(self.B)]
        self.ship_pts, self.maj_pts = int(bd[X.SHIP_PTS]), int(bd[X.MAJ_PTS])
        self.owner = [-1] * self.L
        self.supply = [int(bd[X.SHIPS])] * players
        self.lost = [0] * players
        self.hands: list[dict[int, int]] = [{} for _ in range(players)]

    def on_body(self, b: int) -> list[int]:
        """Ships of every player on body ``b``."""
        c = [0] * self.P
        for s in range(self.L):
            if self.owner[s] >= 0 and self.lay.space_body[s] == b:
                c[self.owner[s]] += 1
        return c

    def full(self, b: int) -> bool:
        return sum(self.on_body(b)) == self.size[b]

    def control(self, b: int) -> tuple[int, int, bool]:
        """(the seat with the strict majority or -1, its bonus, full control?), as rules_nb.body_points."""
        c = self.on_body(b)
        top = max(c)
        if top == 0 or c.count(top) > 1:
            return -1, 0, False
        q = c.index(top)
        return (q, self.bonus[b], True) if top == self.size[b] else (q, self.maj_pts, False)

    def ships(self, q: int) -> int:
        return self.owner.count(q)

    def score(self, q: int) -> int:
        pts = self.ship_pts * self.ships(q)
        for b in range(self.B):
            h, award, _ = self.control(b)
            if h == q:
                pts += award
        return pts

    def give(self, q: int, k: int, n: int = 1) -> None:
        self.hands[q][k] = self.hands[q].get(k, 0) + n

    def take(self, q: int, k: int, n: int = 1) -> None:
        if self.hands[q].get(k, 0) < n:
            raise RuntimeError(f"captain-future replay: player {q + 1} spends a card it does not hold (a bug)")
        self.hands[q][k] -= n

    def hand_n(self, q: int) -> int:
        return sum(self.hands[q].values())


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words: the deal, the stone, every turn's
    events, actions and draws, the end and the final scores with the control of every body."""
    out, events = trace(plan, game)
    rec = out[0]
    bd = plan.prepared[0]
    lay = parse_map(plan.config)
    nm = _Names(lay, bd)
    P = plan.players
    g = _Board(bd, lay, P)
    hand_size, final_max, slots = int(bd[X.HAND]), int(bd[X.FINAL_MAX]), int(bd[X.SLOTS])
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"player {s + 1} ({plan.lineup.slot_names[seats[s]]})" for s in range(P)}
    counts = {"exchanges": 0, **{name: 0 for name in EVENT_NAMES}}
    attacks = np.zeros((P, 3), np.int64)

    lines = [
        f"captain-future, game {game} of seed {plan.seed}, {P} players: " + ", ".join(who[s] for s in range(P))
        + f". {int(bd[X.SHIPS])} ships each, hands of {hand_size} cards, {slots} action slots per turn. "
        "A space is named by its body, row and column (Saturn C7: row C, column 7).",
    ]

    def conquered(b: int, was_full: bool) -> str:
        if not was_full and g.full(b):
            return f" {nm.body(b)} is conquered: all {g.size[b]} of its spaces hold ships, they can be attacked now."
        return ""

    def body_of(s: int) -> int:
        return int(lay.space_body[s])

    def short_hand(q: int) -> str:
        n = g.hand_n(q)
        if n < hand_size:
            return f"  the stack is empty: its hand stays at {_n(n, 'card')}."
        return ""

    end_code, turns, invalid = END_WIN, 0, None
    seat = -1
    i = 0
    rows = events.tolist()
    while i < len(rows):
        kind, a, b, c, d, e = rows[i]
        i += 1
        if kind == X.EV_HAND:
            g.give(a, c, b)
        elif kind == X.EV_STONE:
            lines.append("The deal:")
            for q in range(P):
                lines.append(f"  {who[q]}: {nm.cards(g.hands[q])}.")
            lines.append(f"The secret stone starts on {nm.place(a)}.")
        elif kind == X.EV_TURN:
            if seat >= 0 and short_hand(seat):
                lines.append(short_hand(seat))
            seat = b
            final = " (final round)" if c else ""
            if g.hand_n(b) != d or g.supply[b] != e:
                raise RuntimeError(f"captain-future replay of game {game}: the log lost track of player {b + 1} (a bug)")
            lines.append(f"Turn {a}{final}, {who[b]}: {_n(g.score(b), 'point')}, {_n(e, 'ship')} in supply; "
                         f"hand: {nm.cards(g.hands[b])}.")
        elif kind == X.EV_LAND:
            was_full = g.full(body_of(b))
            g.take(a, c)
            g.owner[b] = a
            g.supply[a] -= 1
            lines.append(f"  lands on {nm.space(b)} with {nm.a_card(c)}.{conquered(body_of(b), was_full)}")
        elif kind == X.EV_ATTACK:
            paid = []
            while i < len(rows) and rows[i][0] == X.EV_PAY:
                _, _, n, k, _, _ = rows[i]
                g.take(a, k, n)
                paid.append(nm.card(k) + (f" x{n}" if n > 1 else ""))
                i += 1
            g.owner[b] = a
            g.supply[a] -= 1
            g.lost[c] += 1
            attacks[a, d] += 1
            lines.append(f"  attacks {nm.space(b)} held by player {c + 1}, {CATEGORY_WORDS[d]}: pays {_n(e, 'card')} "
                         f"({', '.join(paid)}); player {c + 1}'s ship leaves the game and one of player {a + 1}'s takes the space.")
        elif kind == X.EV_EXCHANGE:
            g.take(a, b)
            g.give(a, c)
            counts["exchanges"] += 1
            lines.append(f"  exchanges {nm.a_card(b)} and draws {nm.a_card(c)}.")
        elif kind == X.EV_PASS:
            what = "its last action slot" if b == 1 else f"its {b} action slots"
            lines.append(f"  can do nothing legal: passes {what}.")
        elif kind == X.EV_SIMON:
            g.take(a, nm.kj + 1)
            counts["simon_wright"] += 1
            lines.append(f"  plays Simon Wright: the secret stone moves from {nm.place(b)} to {nm.place(c)}.")
        elif kind == X.EV_RECALL:
            g.take(a, nm.kj + 2)
            counts["recall"] += 1
            back = []
            while i < len(rows) and rows[i][0] == X.EV_RETURN:
                _, q, s, _, _, _ = rows[i]
                g.owner[s] = -1
                g.supply[q] += 1
                back.append((q, s))
                i += 1
            said = [f"player {q + 1} takes its ship off {nm.space(s)}" for q, s in back]
            none = [q for q in range(P) if q not in {q for q, _ in back}]
            if none:
                said.append(("player " if len(none) == 1 else "players ") + ", ".join(str(q + 1) for q in none)
                            + (" has" if len(none) == 1 else " have") + " no ship on the board")
            lines.append("  plays Recall: every player sends one of his ships back to his supply: "
                         + "; ".join(said) + ".")
        elif kind == X.EV_OTTO:
            g.take(a, nm.kj + 3)
            counts["otto"] += 1
            was_full = g.full(body_of(c))
            g.owner[c] = a
            g.owner[b] = d
            swap = f"; player {d + 1}'s ship there moves to {nm.space(b)}" if d >= 0 else f", leaving {nm.space(b)} empty"
            lines.append(f"  plays Otto: its ship on {nm.space(b)} moves to {nm.space(c)}{swap}."
                         f"{conquered(body_of(c), was_full)}")
        elif kind == X.EV_GRAG:
            g.take(a, nm.kj + 4)
            counts["grag"] += 1
            was_full = g.full(body_of(b))
            g.owner[b] = a
            g.supply[a] -= 1
            if c >= 0:
                g.supply[c] += 1
            back = f"; player {c + 1}'s ship there goes back to its supply" if c >= 0 else ""
            lines.append(f"  plays GRAG: a ship from its supply onto {nm.space(b)}{back}."
                         f"{conquered(body_of(b), was_full)}")
        elif kind == X.EV_TRIGGER:
            rest = ("everyone else plays one more turn, in turn order, with no attack costing more than "
                    f"{_n(final_max, 'card')}") if P > 1 else "the game ends"
            lines.append(f"  Player {a + 1} placed its last ship: {rest}.")
        elif kind == X.EV_RESHUFFLE:
            lines.append(f"  (the stack ran out: the {_n(a, 'card')} of the discard pile are shuffled into a new "
                         "stack)")
        elif kind == X.EV_DRAW:
            drawn = {}
            i -= 1
            while i < len(rows) and rows[i][0] == X.EV_DRAW:
                _, q, n, k, _, _ = rows[i]
                g.give(q, k, n)
                drawn[k] = n
                i += 1
            lines.append(f"  draws {_n(sum(drawn.values()), 'card')}: {nm.cards(drawn)}.")
        elif kind == X.EV_INVALID:
            invalid = (a, b)
        elif kind == X.EV_END:
            end_code, turns = a, b
            if seat >= 0 and invalid is None and short_hand(seat):
                lines.append(short_hand(seat))
    return lines + _ending(plan, rec, g, nm, who, end_code, turns, invalid, counts, attacks)


def _ending(plan, rec, g: _Board, nm: _Names, who, end_code, turns, invalid, counts, attacks) -> list[str]:
    """The end, the board's control body by body, the scores; checked against the record."""
    P = plan.players
    lines = []
    if end_code == END_INVALID:
        turn, code = invalid if invalid is not None else (turns, 0)
        lines.append(f"Validation: in turn {turn} an invariant broke: {INVARIANTS.get(code, code)}. The game stops "
                     "here (end = invalid): this is a bug in the engine.")
        return lines
    if end_code == END_TIMEOUT:
        lines.append(f"The turn cap ({turns} turns) ends the game: a timeout, nobody wins (scores as they stand).")
    elif end_code == END_STALEMATE and int(rec["stalemate_reason"]) != X.R_NO_PROGRESS:
        lines.append(f"After {turns} turns a whole round passed in which nobody could do anything: a stalemate, "
                     "nobody wins (scores as they stand).")
    elif end_code == END_STALEMATE:
        name, text = plan.engine.stalemate_reasons[X.R_NO_PROGRESS]
        lines.append(f"After {turns} turns, {int(rec['longest_stall'])} of them without progress "
                     f"(rules.stalemate_window): a stalemate, reason {name}: {text}. Nobody wins (scores as they "
                     "stand).")
    else:
        lines.append(f"The game ends after {turns} turns.")
    lines.append("The bodies (ships of each player there):")
    full = [0] * P
    major = [0] * P
    body_full, body_major = [], []
    awards: list[list[str]] = [[] for _ in range(P)]
    for b in range(g.B):
        c = g.on_body(b)
        h, award, is_full = g.control(b)
        held = ", ".join(f"player {q + 1} {c[q]}" for q in range(P) if c[q])
        if h < 0:
            what = f"no majority ({held})" if held else "empty"
        elif is_full:
            what = f"player {h + 1} in full control, +{award} ({held})"
            full[h] += 1
            awards[h].append(f"{award} ({nm.body(b)}, full control)")
        else:
            what = f"player {h + 1} has the majority, +{award} ({held})"
            major[h] += 1
            awards[h].append(f"{award} ({nm.body(b)}, majority)")
        body_full.append(h if is_full else -1)
        body_major.append(h)
        lines.append(f"  {nm.body(b)} ({g.lay.body_classes[b]}, {g.size[b]} spaces): {what}.")
    lines.append("Scores:")
    scores = [g.score(q) for q in range(P)]
    for q in range(P):
        ships = g.ships(q) * g.ship_pts
        parts = " + ".join([f"{ships} for {_n(g.ships(q), 'ship')}"] + awards[q])
        lines.append(f"  {who[q]}: {_n(scores[q], 'point')} = {parts}; {_n(g.supply[q], 'ship')} in supply, "
                     f"{g.lost[q]} lost to attacks.")
    if end_code == END_WIN:
        top = max(scores)
        winners = [q for q in range(P) if scores[q] == top]
        if len(winners) == 1:
            lines.append(f"{who[winners[0]].capitalize()} wins with {_n(top, 'point')}.")
        else:
            lines.append(f"Players {', '.join(str(q + 1) for q in winners)} tie with {_n(top, 'point')} and share the win.")
    # Everything told must be what the kernel recorded.
    told = {
        "length": turns, "end": end_code, "score": scores, "ships_board": [g.ships(q) for q in range(P)],
        "ships_supply": g.supply, "ships_lost": g.lost, "full_control": full, "majorities": major,
        "attacks_majority": list(attacks[:, 0]), "attacks_present": list(attacks[:, 1]),
        "attacks_absent": list(attacks[:, 2]), "body_full": body_full, "body_major": body_major, **counts,
    }
    for field, value in told.items():
        kept = rec[field]
        kept = [int(x) for x in kept[: len(value)]] if np.ndim(kept) else int(kept)
        if kept != ([int(x) for x in value] if isinstance(value, list) else int(value)):
            raise RuntimeError(f"captain-future replay of game {rec['game']}: the log tells {field} = {value}, "
                               f"the record has {kept} (a bug)")
    return lines
