"""captain-future's hooks for ``simbalance card-value`` (core/spec.CardSwap; docs/card_value.md).

Cards are told apart by their kind alone (a row, a column, a body, the joker, each event: the
engine keeps hands as counts per kind), so a card's value is its kind's. **Holding** a card is
having one of its kind in one's hand (two copies: valued once for each). **The swap**: one card of
that kind in ``seat``'s hand changes places with a card drawn uniformly among those the seat
cannot see (search_nb.determinize's: every card of the other hands and the stack); the board and
the discard pile are public and untouched. Every hand and the stack keep their sizes.
"""

from __future__ import annotations

from numba import njit

from simbalance.core.rng import next_u64
from simbalance.core.rng import randint
from simbalance.games.captain_future.board import EVENT_NAMES
from simbalance.games.captain_future.board import parse_map
from simbalance.games.captain_future.play_nb import apply_option
from simbalance.games.captain_future.play_nb import legal_options
from simbalance.games.captain_future.play_nb import play_out
from simbalance.games.captain_future.play_nb import start
from simbalance.games.captain_future.play_nb import to_move
from simbalance.games.captain_future.search_nb import determinize
from simbalance.games.captain_future.search_nb import outcome
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import NDISC
from simbalance.games.captain_future.state_nb import NK
from simbalance.games.captain_future.state_nb import NSTACK
from simbalance.games.captain_future.state_nb import OPT_ATTACK
from simbalance.games.captain_future.state_nb import OPT_EXCHANGE
from simbalance.games.captain_future.state_nb import OPT_LAND
from simbalance.games.captain_future.state_nb import PH_EVENT_AFTER
from simbalance.games.captain_future.state_nb import PH_EVENT_BEFORE
from simbalance.games.captain_future.state_nb import PH_SLOT
from simbalance.games.captain_future.state_nb import PHASE
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import STACK
from simbalance.games.captain_future.state_nb import clone
from simbalance.players.card_value_nb import value_cards as generic_value_cards
from simbalance.players.card_value_nb import value_decisions as generic_value_decisions

HOLDING = "one of its kind in the seat's hand (the engine tells cards apart by kind)"
SWAPPED = ("one card of the kind changes places with a card drawn uniformly among those the seat cannot see: every "
           "card of the other hands and the stack")
DECISION_KINDS = ("event before", "land", "attack", "exchange", "pass", "event after")


def card_labels(cfg: dict) -> list[str]:
    """One label per card kind, in the engine's order: rows, columns, bodies, the joker, the events."""
    lay = parse_map(cfg)
    events = {"simon_wright": "Simon Wright", "recall": "Recall", "otto": "Otto", "grag": "GRAG"}
    return ([f"row {r}" for r in lay.row_labels] + [f"column {c}" for c in lay.col_labels] + list(lay.body_names)
            + ["joker"] + [events[name] for name in EVENT_NAMES])


@njit(cache=True)
def held(ctx, state, seat, out):
    """The kinds of ``seat``'s cards, one entry per card."""
    bd, st = ctx[0], state[0]
    n = 0
    for k in range(bd[NK]):
        for _ in range(st[HANDS + seat * MK + k]):
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def swap(ctx, state, seat, card, rng):
    """A card of kind ``card`` of ``seat``'s hand changes places with a card drawn uniformly among
    those ``seat`` cannot see (module doc); returns that card's kind, or -1."""
    bd, st = ctx[0], state[0]
    players = bd[PLAYERS]
    if st[HANDS + seat * MK + card] <= 0:
        return -1
    n = st[NSTACK]
    for q in range(players):
        n += st[HAND_N + q] if q != seat else 0
    if n == 0:
        return -1
    r = randint(rng, n)
    other = -1
    for q in range(players):
        if q == seat or other >= 0:
            continue
        if r < st[HAND_N + q]:
            for k in range(bd[NK]):
                c = st[HANDS + q * MK + k]
                if other < 0 and r < c:
                    other = k
                r -= c
            st[HANDS + q * MK + other] -= 1
            st[HANDS + q * MK + card] += 1
        else:
            r -= st[HAND_N + q]
    if other < 0:
        other = st[STACK + r]
        st[STACK + r] = card
    st[HANDS + seat * MK + card] -= 1
    st[HANDS + seat * MK + other] += 1
    return other


@njit(cache=True)
def rekey(state, rng):
    """The game's own stream (draws, reshuffles, the heuristics' ties) keyed from ``rng``."""
    state[3][0] = next_u64(rng)


@njit(cache=True)
def zones(ctx, state, out):
    """Cards per hand, the stack, the discard pile."""
    bd, st = ctx[0], state[0]
    players = bd[PLAYERS]
    for q in range(players):
        out[q] = st[HAND_N + q]
    out[players] = st[NSTACK]
    out[players + 1] = st[NDISC]
    return players + 2


@njit(cache=True)
def option_kind(ctx, state, option):
    """event before (0); in an action slot the option's own kind: land (1), attack (2), exchange (3),
    pass (4: offered alone, when nothing is legal); event after (5); -1 otherwise."""
    phase = state[0][PHASE]
    if phase == PH_EVENT_BEFORE:
        return 0
    if phase == PH_SLOT:
        kind = option // 65536
        return 1 if kind == OPT_LAND else 2 if kind == OPT_ATTACK else 3 if kind == OPT_EXCHANGE else 4
    if phase == PH_EVENT_AFTER:
        return 5
    return -1


# ---------------------------------------------------------------- the card-value kernels, cached


@njit(cache=True, nogil=True)
def value_cards(ctx, state, block, out):
    """players/card_value_nb.value_cards with this game's steps named once: numba caches this call
    (not the generic kernel called from Python with the steps as arguments)."""
    generic_value_cards(start, play_out, to_move, clone, held, swap, rekey, outcome, ctx, state, block, out)


@njit(cache=True, nogil=True)
def value_decisions(ctx, state, block, out):
    """players/card_value_nb.value_decisions with this game's steps named once (cached, as value_cards)."""
    generic_value_decisions(start, play_out, to_move, legal_options, apply_option, clone, determinize, outcome, option_kind, ctx, state,
                            block, out)
