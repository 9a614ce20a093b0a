"""captain-future as resumable state (core/spec.py ``Resumable``; docs/rules/captain-future.md,
"Decisions"): a copy taken at any decision plays on to the kernel's record, every listed option is
legal by the engine's own validation and the strategies' own choices are among them, hand-made
positions list as many options as the rule text allows, and the game stops where it is over."""

from __future__ import annotations

import numpy as np
import pytest
from captain_future_helpers import Table

import simbalance
from simbalance.api import plan_run
from simbalance.core.lineup import MAX_PARAMS
from simbalance.core.records import END_INVALID
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future.engine import ENGINE
from simbalance.games.captain_future.play_nb import play_on
from simbalance.testing import check_resumable_play_on

R = ENGINE.resumable

SETUPS = [
    dict(players=4, strategies="random"),
    dict(players=4, strategies=None),  # aggressor x 4, the default
    dict(players=4, strategies=["builder", "aggressor", "random", "builder"], rotate=True,
         overrides={"rules.stone_start": "anywhere", "rules.events_per_turn": 2}),
    dict(players=3, strategies=["aggressor", "builder", "random"], rotate=True),
    dict(players=2, strategies=["random", "aggressor"], rotate=True, overrides={"rules.actions_per_turn": 3}),
    dict(players=3, strategies=["random", "builder", "aggressor"], overrides={"rules.reshuffle_discards": False}),
]
N = 12
SEED = 29


def run(setup, validate=False):
    """The kernel's records of N games, and what playing them again needs: (records, plan, ctx)."""
    res = simbalance.simulate("captain-future", N, seed=SEED, validate=validate, **setup)
    plan = res.plan
    return res.records, plan, R.context(*plan.prepared)


def seats(plan, game):
    """Game ``game``'s seat strategy ids and parameter rows, as the kernel gives them."""
    lineup = plan.lineup.seats[game % len(plan.lineup.seats)]
    return plan.lineup.slot_strategy[lineup].astype(np.int64), plan.lineup.slot_params[lineup]


def started(plan, ctx, game):
    state = R.new_state(ctx)
    R.start(ctx, state, np.uint64(plan.seed), np.int64(game))
    return state


def record_of(plan, ctx, state, kernel_record):
    """The finished game's record as the kernel writes it (game and strategy fields are the kernel's)."""
    out = np.zeros(1, plan.engine.record_dtype)
    R.write_record(ctx, state, out, 0)
    out[0]["game"] = kernel_record["game"]
    out[0]["strategy"] = kernel_record["strategy"]
    return out[0]


@pytest.mark.parametrize("validate", [False, True])
@pytest.mark.parametrize("setup", SETUPS)
def test_playing_on_from_a_copy_reproduces_the_kernels_record(setup, validate):
    """The contract's check (simbalance.testing) on every setup, with validation off and on."""
    check_resumable_play_on(plan_run("captain-future", N, seed=SEED, validate=validate, **setup), games=(0, 3, 7, 11))


def observed_option(log, n_logged, phase):
    """The option a strategy took, read from the replay's event log of its decision (the first
    event logged: a landing, an attack, an exchange, a pass, an event card; nothing at an event
    decision: no event)."""
    if n_logged:
        kind, a, b, c, _, _ = (int(x) for x in log[0])
        if kind == X.EV_LAND:
            return X.OPT_LAND * 65536 + c * 256 + b
        if kind == X.EV_ATTACK:
            return X.OPT_ATTACK * 65536 + b
        if kind == X.EV_EXCHANGE:
            return X.OPT_EXCHANGE * 65536 + b * 256
        if kind == X.EV_PASS:
            return X.OPT_NONE
        if kind == X.EV_SIMON:
            return X.OPT_SIMON * 65536 + c * 256
        if kind == X.EV_RECALL:
            return X.OPT_RECALL * 65536
        if kind == X.EV_OTTO:
            return X.OPT_OTTO * 65536 + b * 256 + c
        if kind == X.EV_GRAG:
            return X.OPT_GRAG * 65536 + b * 256
    assert phase != X.PH_SLOT, "a slot that logged nothing"
    return X.OPT_NONE


@pytest.mark.parametrize("setup", SETUPS)
def test_every_listed_option_is_legal_and_the_strategies_choose_among_them(setup):
    _, plan, plain = run(setup)
    ctx = (plain[0], np.bool_(True))  # validated: a broken invariant would end the game END_INVALID
    options = np.zeros(R.max_options(ctx), np.int64)
    pick = np.random.default_rng(5)
    log = np.zeros((256, X.N_EV_COLS), np.int64)
    log_n = np.zeros(1, np.int64)
    seen = set()
    for game in (0, 5):
        sid, prm = seats(plan, game)
        state = started(plan, ctx, game)
        R.play_out(ctx, state, sid, prm, 0)  # the seats' strategies into the state
        while R.to_move(ctx, state) >= 0:
            st = state[0]
            n = R.legal_options(ctx, state, options)
            listed = set(options[:n].tolist())
            assert n >= 1 and len(listed) == n  # at least "no event" or "pass"; no option twice
            # some listed options, each applied to a copy: the engine's own validation holds after it
            for option in pick.choice(options[:n], size=min(n, 6), replace=False):
                copy = R.clone(state)
                R.apply_option(ctx, copy, np.int64(option))
                assert R.check(ctx, copy) == X.INV_OK
                assert not (copy[0][X.PHASE] == X.PH_OVER and copy[0][X.END] == END_INVALID)
            # the strategy's own decision, on a copy with the replay's log: one of the listed options
            copy = R.clone(state)
            bd, (cst, fs, buf, rng, seat_prm, work, _) = ctx[0], copy
            log_n[0] = 0
            phase = int(st[X.PHASE])
            play_on(bd, cst, fs, buf, rng, seat_prm, 1, -1, work, log, log_n)
            chosen = observed_option(log, int(log_n[0]), phase)
            assert chosen in listed, (game, int(st[X.TURN]), phase, chosen)
            seen.add(chosen // 65536)
            # and on: the state itself, by its strategies
            R.play_out(ctx, state, sid, prm, 1)
        assert state[0][X.END] != END_INVALID
    assert {X.OPT_LAND, X.OPT_ATTACK, X.OPT_NONE} <= seen


# ---- hand-made positions: the options the rule text allows, counted by hand -------------------------
# The default board: 12 x 12, rows A-L, columns 1-12, 72 landing spaces, 6 on every row and column;
# Uranus A1-B4, Neptune A11-D12, Saturn C6-D9, Jupiter K5-L8 (8 spaces each); 36 stone places (12 rows,
# 12 columns, 12 bodies). Table() puts the stone on Jupiter: nobody lands or attacks there.

def position(t: Table, phase: int, seat: int = 0, final: bool = False):
    """The state tuple of ``t`` with seat ``seat`` to decide in ``phase``."""
    st = t.st
    st[X.SEAT] = seat
    st[X.PHASE] = phase
    st[X.SLOT] = 0
    st[X.EVENTS_LEFT] = 1
    st[X.FINAL_LEFT] = 2 if final else -1
    state = (st, t.fs, np.zeros(X.ML, np.int64), t.rng, np.zeros((t.players, MAX_PARAMS)), np.zeros(X.WORK_SIZE, np.int64),
             np.zeros(int(t.bd[X.NCARDS]), np.int64))
    return (t.bd, np.bool_(True)), state


def listed(ctx, state):
    options = np.zeros(R.max_options(ctx), np.int64)
    n = R.legal_options(ctx, state, options)
    codes = options[:n]
    assert len(set(codes.tolist())) == n
    return {kind: int(np.count_nonzero(codes // 65536 == kind)) for kind in range(8)}, n


def test_a_slot_on_an_empty_board():
    t = Table()
    t.give(0, t.row_card("A"))
    t.give(0, t.col_card("11"))
    t.give(0, t.body_card("saturn"))
    counts, n = listed(*position(t, X.PH_SLOT))
    # row A: A1-A4, A11, A12 (6); column 11: A11-D11, I11, J11 (6); Saturn: 8 spaces; nothing to
    # attack (no body conquered); exchange: any of the 3 kinds in hand
    assert counts[X.OPT_LAND] == 6 + 6 + 8
    assert counts[X.OPT_ATTACK] == 0 and counts[X.OPT_EXCHANGE] == 3
    assert n == 23


def conquered_saturn(t: Table) -> None:
    """Saturn full: seat 0 on C6, seat 1 on C7-C9 and D6 (the majority), seat 2 on D7-D9."""
    t.put(0, "C6")
    t.put(1, "C7", "C8", "C9", "D6")
    t.put(2, "D7", "D8", "D9")


@pytest.mark.parametrize("final", [False, True])
def test_a_slot_with_attacks_on_a_conquered_body(final):
    t = Table()
    conquered_saturn(t)
    for p in (0, 3):
        t.give(p, t.joker, 2)
        t.give(p, t.body_card("saturn"))
    # seat 0 has a ship on Saturn: an attack costs it 2 cards, and its 3 cards name every Saturn
    # space: the 7 foreign ships (in the final round too: at most 2 cards); the jokers land on every
    # empty space but Saturn (full) and Jupiter (the stone): 72 - 8 - 8 = 56, the Saturn card on
    # none; exchange: 2 kinds
    counts, n = listed(*position(t, X.PH_SLOT, 0, final))
    assert (counts[X.OPT_LAND], counts[X.OPT_ATTACK], counts[X.OPT_EXCHANGE], n) == (56, 7, 2, 65)
    # seat 3 has none there: 3 cards, which its hand pays, for each of the 8 ships; not in the final
    # round, where no attack may cost more than 2 cards
    counts, n = listed(*position(t, X.PH_SLOT, 3, final))
    attacks = 0 if final else 8
    assert (counts[X.OPT_LAND], counts[X.OPT_ATTACK], counts[X.OPT_EXCHANGE], n) == (56, attacks, 2, 58 + attacks)


def test_a_slot_where_the_stone_on_a_row_blocks_attacks():
    t = Table(stone=(X.STONE_ROW, "C"))
    conquered_saturn(t)
    t.give(3, t.joker, 3)
    # the stone on row C blocks attacks on C6-C9, not landings: the joker lands on the 64 empty
    # spaces (Saturn is full) and attacks D6-D9 (4); exchange: 1 kind
    counts, n = listed(*position(t, X.PH_SLOT, 3))
    assert (counts[X.OPT_LAND], counts[X.OPT_ATTACK], counts[X.OPT_EXCHANGE], n) == (64, 4, 1, 69)


def test_a_slot_with_nothing_legal_is_a_pass():
    t = Table()
    counts, n = listed(*position(t, X.PH_SLOT))  # an empty hand: no landing, attack or exchange
    assert n == 1 and counts[X.OPT_NONE] == 1


@pytest.mark.parametrize("phase", [X.PH_EVENT_BEFORE, X.PH_EVENT_AFTER])
def test_an_event_decision(phase):
    t = Table()
    counts, n = listed(*position(t, phase))
    assert n == 1 and counts[X.OPT_NONE] == 1  # no event card: only "no event"
    for name in ("simon_wright", "recall", "otto", "grag"):
        t.give(0, t.event(name))
    counts, n = listed(*position(t, phase))
    assert counts[X.OPT_RECALL] == 0  # no ship on the board: Recall has no use
    t.put(0, "A1", "A2")
    t.put(1, "C6")
    counts, n = listed(*position(t, phase))
    # no event (1); Simon Wright: the 35 other places; Recall (1); Otto: each of the 2 own ships to
    # every space not holding an own ship and not on Jupiter (the stone): 72 - 2 - 8 = 62, so 124;
    # GRAG: those 62 spaces
    assert [counts[k] for k in (X.OPT_NONE, X.OPT_SIMON, X.OPT_RECALL, X.OPT_OTTO, X.OPT_GRAG)] == [1, 35, 1, 124, 62]
    assert n == 223


def test_an_event_decision_with_the_stone_on_the_own_ships_row():
    t = Table(stone=(X.STONE_ROW, "A"))
    for name in ("simon_wright", "recall", "otto", "grag"):
        t.give(0, t.event(name))
    t.put(0, "A1", "A2")
    counts, n = listed(*position(t, X.PH_EVENT_BEFORE))
    # the stone on row A protects A1 and A2: Otto cannot move them (0); GRAG: not the 2 own spaces,
    # not the other 4 of row A: 72 - 6 = 66; Simon Wright 35, Recall 1, no event 1
    assert [counts[k] for k in (X.OPT_NONE, X.OPT_SIMON, X.OPT_RECALL, X.OPT_OTTO, X.OPT_GRAG)] == [1, 35, 1, 0, 66]
    assert n == 103


# ---- where the game stops ---------------------------------------------------------------------------

@pytest.mark.parametrize("setup", SETUPS[:3])
def test_to_move_is_minus_one_exactly_when_the_game_is_over(setup):
    records, plan, ctx = run(setup)
    options = np.zeros(R.max_options(ctx), np.int64)
    for game in (1, 2):
        sid, prm = seats(plan, game)
        state = started(plan, ctx, game)
        decisions = 0
        while R.to_move(ctx, state) >= 0:
            st = state[0]
            assert st[X.PHASE] != X.PH_OVER and R.to_move(ctx, state) == st[X.SEAT]
            assert R.legal_options(ctx, state, options) >= 1
            assert R.play_out(ctx, state, sid, prm, 1) == 1
            decisions += 1
        assert state[0][X.PHASE] == X.PH_OVER and R.legal_options(ctx, state, options) == 0
        assert R.play_out(ctx, state, sid, prm, 1) == 0 and R.play_out(ctx, state, sid, prm, -1) == 0
        assert record_of(plan, ctx, state, records[game]).tobytes() == records[game].tobytes()
        # in steps of 7: every call but the last makes all 7 decisions
        state = started(plan, ctx, game)
        made = [R.play_out(ctx, state, sid, prm, 7) for _ in range(decisions // 7 + 1)]
        assert made == [7] * (decisions // 7) + [decisions % 7]
        assert R.to_move(ctx, state) == -1
        # a game has a decision per event before the slots, per slot and per event after them
        assert decisions >= 2 * int(records[game]["length"])
