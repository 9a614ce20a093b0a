"""The search players' entry point: ``search`` picks the pending decision's option for a search seat.

A game calls it from its kernel (never from Python with the functions as arguments: numba caches
a function that passes jitted functions to a generic one, not a call from Python that does), through
a wrapper of its own that names its functions once (``play_nb.search_option`` in each game):

    search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
           observe, ctx, state, seat_sid, seat_prm, seed, game, decision, scratch) -> option

or, for a game whose positions need less than every array of its state copied,
``search_with_copy(..., observe, copy_position, ctx, ...)`` (the same arguments and the game's
``copy_position`` after ``observe``; captain-future's: issue 56). ``search`` is
``search_with_copy`` with ``common_nb.copy_position``: a game written for it before the hook
existed (every game new-game made) plays on unchanged.

- the game's resumable steps (``Resumable`` in core/spec.py): ``play_out`` stops before a search
  seat's decision, so in the play-outs the search seats play their rollout strategy instead;
- ``determinize(ctx, state, seat, rng)``: for the seat to move, shuffle what ``seat`` cannot see
  among the places it cannot see (sizes and everything public kept) and re-key the state's own stream from ``rng``;
- ``outcome(ctx, state) -> winners``: the finished game's winners as a bit mask (0: none);
- ``evaluate(ctx, state, rew)``: for a play-out cut at its depth, each seat's share of the win as
  the game's evaluation estimates it, into ``rew`` (shares from 0 to 1, summing to at most 1);
- ``policy(ctx, state, sid, params) -> option``: the option strategy ``sid`` (a heuristic) takes at
  the pending decision, drawing its ties from the state's stream: the search's tie-break;
- ``observe(ctx, state, option, seat) -> code``: what ``seat`` sees of ``option``, the move the
  seat to move takes in ``state`` (``option`` itself: it sees the move; anything else, the same for
  options it cannot tell apart: a face-down move). ``common_nb.fully_observed`` says every seat sees
  every move; mcts's tree is built on what the searching seat observes (ismcts_nb, "Hidden moves");
- ``copy_position(ctx, dst, src)`` (``search_with_copy`` only): copy the game state ``src`` into
  ``dst`` as far as a position needs it (``common_nb.copy_position``, ``search``'s: every array whole; captain-future's skips the
  space its fixed maxima leave unused and the deal's scratch);
- ``seed``, ``game``, ``decision``: the search's own stream is keyed by ``(derive_seed(seed,
  "search"), game, decision)``, decision = the game's search decisions so far;
- ``scratch``: ``common_nb.new_search``, allocated once per block.
"""

from __future__ import annotations

from numba import njit

from simbalance.players import FLAT
from simbalance.players.common_nb import copy_position as copy_every_array
from simbalance.players.common_nb import rollout_seats, seed_search
from simbalance.players.flat_nb import flat
from simbalance.players.ismcts_nb import mcts


@njit(cache=True, forceinline=True)
def search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy, observe,
           ctx, state, seat_sid, seat_prm, seed, game, decision, scratch):
    """The option the search seat to move takes, its positions copied whole (module doc)."""
    return search_with_copy(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features,
                            policy, observe, copy_every_array, ctx, state, seat_sid, seat_prm, seed, game, decision,
                            scratch)


@njit(cache=True, forceinline=True)
def search_with_copy(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                     observe, copy_position, ctx, state, seat_sid, seat_prm, seed, game, decision, scratch):
    """The option the search seat to move takes, its positions copied by ``copy_position`` (module doc)."""
    roll_sid, roll_prm, rng = scratch[5], scratch[6], scratch[7]
    seat = to_move(ctx, state)
    rollout_seats(seat_sid, seat_prm, roll_sid, roll_prm)
    seed_search(rng, seed, game, decision)
    if seat_sid[seat] == FLAT:
        return flat(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                    copy_position, ctx, state, seat, seat_prm[seat], scratch)
    return mcts(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                observe, copy_position, ctx, state, seat, seat_prm[seat], scratch)
