"""captain-future engine: config -> arrays, record layout, kernel, report hooks, replay.

Files (the game template of docs/architecture.md): board.py (config -> the board array, map
parsing), state_nb.py (the layout of the flat arrays, every enum), rules_nb.py (the rule steps on
one game's state), strategies_nb.py (decisions), play_nb.py (the turn as steps, the end, the record,
the kernel, the replay's event log), validate_nb.py (the invariants checked by ``--validate``),
replay.py (one game again: its event log, in words), report.py (summarize, figures).

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/captain-future.md.
2. The aggressor reads its `cheap_cost` parameter from the config; it was missing there and read
   past the parameter vector (games with aggressors were not reproducible).
3. Players fair to every seat (issue 17): every choice among equally valued options is uniform at
   random from the game's stream (attack victims and bodies, GRAG/Otto targets and sources, the
   stone's body, Recall's ship, the space within a body, the card exchanged); opponents tied for
   the score lead share `leader_weight`. New switches `play_events` (0: no event in any turn, the
   `no_events` preset) and `hold_events`; exchanges keep row/column/body cards that pay for an
   attack. builder and aggressor retuned with `simbalance tune`.
4. Whole-game metrics and loop detection (issue 21): the records gain core/whole_game.PROGRESS_FIELDS
   (progress: the score as the board stands), and a game in which for ``rules.stalemate_window``
   turns no player gets down to fewer ships in supply than any had before and no score gets better
   than any so far ends as a stalemate, reason ``no-progress``; the whole round in which nobody can
   act is reason ``no-action``.
5. The same players, fewer draws (issue 37): the heuristics search GRAG and Otto targets only on
   bodies where an arrival can be worth what the card needs to be played (an upper bound on the
   value from the body's live summary, strategies_nb._arrival_bound; Otto's own move and the
   displaced ship bounded too). Every decision is the one v4 made from the same position, so the
   players keep their strength, but a search that cannot lead to a play no longer draws its
   tie-breaks from the game's stream: the same seed gives other games, as likely as before.

Not a new version: the search players ``mcts`` and ``flat`` (simbalance/players; search_nb.py;
docs/rules/captain-future.md, "Search players"). Games without a search seat are the same games.
A search seat searches every decision of its own turns (the event before the slots, each action
slot, the event after them); what the search leaves to the seat's rollout strategy, and why:
- Recall's ship, a reply in another player's turn (and in its own, after its own Recall): the rule
  step asks every player at once, in the middle of the card's effect, and it is rare (about 2
  Recalls a game); the state holds the rollout strategy for a search seat (play_nb.set_seats);
- an attack's payment, as for every option: the cards naming the space, the least useful first;
- the search weighs one option per body and kind of move (search_nb.search_options, a subset of
  the legal options), never all of the hundreds the rule text allows.
"""

from __future__ import annotations

import sys

import numpy as np

from simbalance.core.records import MAX_SEATS
from simbalance.core.records import record_dtype
from simbalance.core.spec import CardSwap
from simbalance.core.spec import Engine
from simbalance.core.whole_game import PROGRESS_FIELDS
from simbalance.games.captain_future import card_value_nb
from simbalance.games.captain_future import play_nb
from simbalance.games.captain_future import search_nb
from simbalance.games.captain_future import state_nb
from simbalance.games.captain_future import validate_nb
from simbalance.games.captain_future.board import MAX_BODIES
from simbalance.games.captain_future.board import build_board
from simbalance.games.captain_future.replay import replay
from simbalance.games.captain_future.replay import trace
from simbalance.games.captain_future.report import figures
from simbalance.games.captain_future.report import summarize
from simbalance.players import SEARCH_PARAMS
from simbalance.players import SEARCH_STRATEGIES

# card-value: how a player's own choices can link holding a card to winning (core/spec.CardSwap.selection;
# None: the deal and the play hand cards out blind)
CARD_SELECTION = "players choose which of their cards to land, attack with and exchange"

ENGINE_VERSION = 5
CHUNK_SIZE = 1 << 16
STRATEGIES = {"random": state_nb.RANDOM, "builder": state_nb.BUILDER, "aggressor": state_nb.AGGRESSOR, **SEARCH_STRATEGIES}
# Each heuristic's parameters in the order its code reads them (state_nb.P_*); configs bind by name.
STRATEGY_PARAMS = {
    "random": (),
    "builder": state_nb.HEURISTIC_PARAMS[:-1],
    "aggressor": state_nb.HEURISTIC_PARAMS,
    **SEARCH_PARAMS,
}

RECORD_DTYPE = record_dtype([
    ("score", np.int16, (MAX_SEATS,)),  # final points
    ("ships_board", np.int8, (MAX_SEATS,)),  # ships on the board at the end
    ("ships_supply", np.int8, (MAX_SEATS,)),  # ships left in supply
    ("ships_lost", np.int8, (MAX_SEATS,)),  # ships removed from the game by attacks
    ("full_control", np.int8, (MAX_SEATS,)),  # bodies fully controlled at the end
    ("majorities", np.int8, (MAX_SEATS,)),  # bodies with a strict majority, not fully controlled
    ("attacks_majority", np.int16, (MAX_SEATS,)),  # attacks as the majority holder (1 card by default)
    ("attacks_present", np.int16, (MAX_SEATS,)),  # attacks with a ship on the body (2 cards)
    ("attacks_absent", np.int16, (MAX_SEATS,)),  # attacks with no ship on the body (3 cards)
    ("simon_wright", np.int16),  # event cards played in the game, by kind
    ("recall", np.int16),
    ("otto", np.int16),
    ("grag", np.int16),
    ("exchanges", np.int16),
    ("end_seat", np.int8),  # the seat whose placement triggered the end (-1: none, a cap ended it)
    ("stone", np.int8),  # the stone's last place: rows 0..R-1, columns R.., bodies R+C..
    ("held_mask", np.uint64, (2,)),  # bit s (s = landing space in reading order) set when held at the end
    ("winner_mask", np.uint64, (2,)),  # ... when held by a winner (ties: any winner)
    ("body_full", np.int8, (MAX_BODIES,)),  # per body (legend order): the seat in full control, or -1
    ("body_major", np.int8, (MAX_BODIES,)),  # per body: the seat with the strict majority (or full), or -1
    *PROGRESS_FIELDS,  # the whole-game metrics and the stalemate reason (core/whole_game.py)
])
PROGRESS = "the score as the board stands (ships, full control, majorities)"
STALEMATE_REASONS = {
    state_nb.R_NO_ACTION: ("no-action", "a whole round in which nobody could do anything"),
    state_nb.R_NO_PROGRESS: ("no-progress", "no player got down to fewer ships in supply than any before (the end comes no "
                    "closer) and no score got better, for rules.stalemate_window turns"),
}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    """The kernel's extra arguments: the board array and the validate flag (check every invariant
    after every step, validate_nb)."""
    bd, _ = build_board(cfg, players)
    return (bd, np.bool_(validate))


# Decisions: the event before the slots, each action slot, the events after them
# (docs/rules/captain-future.md, "Decisions"; option codes state_nb.OPT_*).
ENGINE = Engine.of_game(sys.modules[__name__], play_nb, state_nb, validate_nb, search_nb,
                        summarize=summarize, figures=figures, replay=replay, trace=trace,
                        card_swap=CardSwap.of_game(card_value_nb, selection=CARD_SELECTION))
