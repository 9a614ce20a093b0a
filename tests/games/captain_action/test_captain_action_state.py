"""captain-action as resumable state (Engine.resumable): a copy taken at any decision plays on to the
kernel's own record; every listed option is legal by the engine's validation and the heuristics
choose among them; hand-made positions have as many options as the rule text allows; to_move and
play_out's decision limit stop where they should. Decisions and option codes:
docs/rules/captain-action.md, "Decisions"."""

import numpy as np
import pytest
from captain_action_deals import CFG, COUNTDOWN, FACE_UP, HAND_A, HAND_B, order_for

import simbalance
from simbalance.core.config import apply_overrides
from simbalance.core.records import END_TIMEOUT, END_WIN
from simbalance.games.captain_action.engine import ENGINE, prepare
from simbalance.games.captain_action.play_nb import start_scripted
from simbalance.games.captain_action.state_nb import (
    CALL,
    FROM_COUNTDOWN,
    FROM_PILE,
    G_HAND,
    PH_CALL_AFTER,
    PH_CALL_BEFORE,
    PH_DISCARD,
    PH_SOURCE,
    PLAY_ON,
    V_PHASE,
)
from simbalance.games.captain_action.strategies_nb import choose
from simbalance.games.captain_action.validate_nb import CHECK_OK
from simbalance.testing import check_resumable_play_on

R = ENGINE.resumable
SEED = 17

SETUPS = [
    dict(players=4, strategies=["builder", "random", "bold", "collector"], rotate=True, overrides={}),
    dict(players=4, strategies=["collector"], rotate=False, overrides={}),  # long games: many decisions
    dict(players=3, strategies=["random", "collector", "random"], rotate=True,
         overrides={"strategies.random.call": 0.05, "rules.call_timing": "before_draw", "rules.take_back": True}),
    dict(players=2, strategies=["random"], rotate=False,
         overrides={"strategies.random.call": 0.0, "rules.countdown_penalty": 5, "rules.penalty_to": "last_drawer"}),
    dict(players=2, strategies=["collector", "random"], rotate=True,
         overrides={"strategies.random.call": 0.0, "rules.turn_cap": 5}),  # timeouts
    dict(players=5, strategies=["builder", "collector", "random", "random", "bold"], rotate=True,
         overrides={"rules.max_wilds_per_set": 1, "rules.dr_ling": "wild"}),
]
GAMES = 25


@pytest.fixture(scope="module", params=range(len(SETUPS)), ids=lambda k: f"setup{k}")
def run(request):
    """A validated run's records and its plan; the kernel played them."""
    res = simbalance.simulate("captain-action", GAMES, seed=SEED, validate=True, **SETUPS[request.param])
    return res.records, res.plan


def seats(plan, game):
    """The strategy slots, ids and parameter rows of game ``game``'s seats, as the kernel seats them."""
    slots = plan.lineup.seats[game % len(plan.lineup.seats)]
    return (np.asarray(slots), plan.lineup.slot_strategy[slots].astype(np.int64),
            np.ascontiguousarray(plan.lineup.slot_params[slots], dtype=np.float64))


def started(plan, ctx, game):
    state = R.new_state(ctx)
    R.start(ctx, state, np.uint64(plan.seed), np.int64(game))
    return state


def record(plan, ctx, state, game):
    """The finished game's record, with the fields the kernel writes itself (game, strategy)."""
    out = np.zeros(1, plan.engine.record_dtype)
    R.write_record(ctx, state, out, 0)
    out["game"][0] = game
    out["strategy"][0, :plan.players] = seats(plan, game)[0]
    return out[0]


def same_state(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_playing_on_from_a_copy_reproduces_the_kernels_record(run):
    """The contract's check (simbalance.testing) on every setup, each of its games."""
    records, plan = run
    check_resumable_play_on(plan, games=range(GAMES))


def test_every_listed_option_is_legal_and_the_strategies_choose_among_them(run):
    records, plan = run
    ctx = R.context(*plan.prepared)
    assert ctx[3]  # a validating run: an illegal option ends the game as invalid
    options = np.zeros(R.max_options(ctx), np.int64)
    hand_size = int(plan.prepared[2][G_HAND])
    for game in range(GAMES):
        _, sid, prm = seats(plan, game)
        state = started(plan, ctx, game)
        while True:
            seat = R.to_move(ctx, state)
            n = R.legal_options(ctx, state, options)
            assert R.check(ctx, state) == CHECK_OK
            if seat < 0:
                assert n == 0
                break
            listed = options[:n].tolist()
            assert n > 0 and len(set(listed)) == n
            for option in listed:
                trial = R.clone(state)
                R.apply_option(ctx, trial, option)
                assert R.check(ctx, trial) == CHECK_OK, (game, option)
            if state[1][V_PHASE] == PH_DISCARD:
                # An option not listed is caught by the same validation: a slot past the drawn card,
                # and the card just taken from the discard pile (when it may not go straight back).
                for option in set(range(-1, hand_size + 2)) - set(listed):
                    trial = R.clone(state)
                    R.apply_option(ctx, trial, option)
                    assert R.check(ctx, trial) != CHECK_OK, (game, option)
            # The seat's strategy picks one of the listed options, and choosing it then applying it
            # is exactly one step of play_out (the same draws from the same stream).
            chooser = R.clone(state)
            option = choose(ctx, chooser, sid[seat], prm[seat])
            assert option in listed
            R.apply_option(ctx, chooser, option)
            assert R.play_out(ctx, state, sid, prm, 1) == 1
            assert same_state(chooser, state)
        assert record(plan, ctx, state, game) == records[game]


def test_to_move_is_minus_one_exactly_when_the_game_is_over(run):
    records, plan = run
    ctx = R.context(*plan.prepared)
    for game in range(GAMES):
        _, sid, prm = seats(plan, game)
        state = started(plan, ctx, game)
        made = 0
        while R.to_move(ctx, state) >= 0:
            assert R.play_out(ctx, state, sid, prm, 1) == 1
            made += 1
        # Over: no option, no further decision, and the record is final.
        assert R.legal_options(ctx, state, np.zeros(R.max_options(ctx), np.int64)) == 0
        assert R.play_out(ctx, state, sid, prm, -1) == 0
        assert R.play_out(ctx, state, sid, prm, 5) == 0
        assert made > 0 and record(plan, ctx, state, game) == records[game]
        assert made == R.play_out(ctx, started(plan, ctx, game), sid, prm, -1)


# ---- hand-made positions: the option counts the rule text allows ---------------------------------


def scripted(overrides=None, hands=(HAND_A, HAND_B), countdown=COUNTDOWN):
    """A validated state dealt from a chosen order, at its first decision."""
    cfg = apply_overrides(CFG, overrides or {})
    ctx = R.context(*prepare(cfg, len(hands), True))
    state = R.new_state(ctx)
    start_scripted(ctx, state, np.uint64(0), np.int64(0), order_for(list(hands), countdown, FACE_UP))
    return ctx, state


def listed(ctx, state):
    options = np.zeros(R.max_options(ctx), np.int64)
    return options[:R.legal_options(ctx, state, options)].tolist()


def test_a_turn_of_the_default_rules_has_two_then_nine_or_eight_then_two_options():
    ctx, state = scripted()
    # Rule 3: take the top card of the Countdown Deck or of the discard pile: 2 options.
    assert R.to_move(ctx, state) == 0 and state[1][V_PHASE] == PH_SOURCE
    assert listed(ctx, state) == [FROM_COUNTDOWN, FROM_PILE]
    drawn = R.clone(state)
    R.apply_option(ctx, drawn, FROM_COUNTDOWN)
    # ... then discard one card: any of the 8 held plus the one drawn, 9 options (slots 0..8).
    assert drawn[1][V_PHASE] == PH_DISCARD and listed(ctx, drawn) == list(range(9))
    R.apply_option(ctx, state, FROM_PILE)
    # A card taken from the discard pile may not be discarded in the same turn: 8 options.
    assert listed(ctx, state) == list(range(8))
    # Rule 4: after discarding, call or not: 2 options; not calling passes the turn to seat 1.
    R.apply_option(ctx, state, 7)
    assert state[1][V_PHASE] == PH_CALL_AFTER and R.to_move(ctx, state) == 0
    assert listed(ctx, state) == [PLAY_ON, CALL]
    R.apply_option(ctx, state, PLAY_ON)
    assert R.to_move(ctx, state) == 1 and listed(ctx, state) == [FROM_COUNTDOWN, FROM_PILE]
    # Calling ends the game at once (the attack): nobody is to move, no option is left.
    R.apply_option(ctx, drawn, 8)
    R.apply_option(ctx, drawn, CALL)
    assert R.to_move(ctx, drawn) == -1 and listed(ctx, drawn) == []


def test_take_back_lets_the_taken_card_go_again_nine_options():
    ctx, state = scripted({"rules.take_back": True})
    R.apply_option(ctx, state, FROM_PILE)
    assert listed(ctx, state) == list(range(9))  # 8 held + the card taken, which may go back


def test_a_smaller_hand_has_fewer_discards():
    ctx, state = scripted({"rules.hand_size": 6}, hands=(HAND_A[:6], HAND_B[:6]))
    R.apply_option(ctx, state, FROM_COUNTDOWN)
    assert listed(ctx, state) == list(range(7))  # 6 held + the card drawn
    ctx, state = scripted({"rules.hand_size": 6}, hands=(HAND_A[:6], HAND_B[:6]))
    R.apply_option(ctx, state, FROM_PILE)
    assert listed(ctx, state) == list(range(6))  # the card taken stays


def test_calling_before_drawing_is_a_decision_of_two_options_then_the_turn_has_no_call():
    ctx, state = scripted({"rules.call_timing": "before_draw"})
    # The call comes at the start of the turn: call or not (2), then the source (2) and the
    # discard (9); after the discard the turn passes on without another call.
    assert state[1][V_PHASE] == PH_CALL_BEFORE and listed(ctx, state) == [PLAY_ON, CALL]
    R.apply_option(ctx, state, PLAY_ON)
    assert listed(ctx, state) == [FROM_COUNTDOWN, FROM_PILE]
    R.apply_option(ctx, state, FROM_COUNTDOWN)
    assert len(listed(ctx, state)) == 9
    R.apply_option(ctx, state, 8)
    assert R.to_move(ctx, state) == 1 and state[1][V_PHASE] == PH_CALL_BEFORE


def test_drawing_the_last_countdown_card_leaves_no_call():
    # Rule 5: a one-card Countdown Deck. Seat 0 draws its last card and discards (9 options as
    # ever); it cannot call: the attack starts at once, nothing is left to decide.
    ctx, state = scripted({"rules.countdown": 1}, countdown=COUNTDOWN[:1])
    R.apply_option(ctx, state, FROM_COUNTDOWN)
    assert len(listed(ctx, state)) == 9
    R.apply_option(ctx, state, 8)
    assert R.to_move(ctx, state) == -1 and listed(ctx, state) == []
    out = np.zeros(1, ENGINE.record_dtype)
    R.write_record(ctx, state, out, 0)
    assert out[0]["countdown_out"] == 1 and out[0]["end"] == END_WIN and out[0]["length"] == 1


def test_the_turn_cap_ends_the_game_when_the_next_turn_would_begin():
    # Rule 9 with a cap of one turn: seat 0 plays its turn and does not call; seat 1's turn would be
    # the second: a timeout, nothing to decide.
    ctx, state = scripted({"rules.turn_cap": 1})
    for option in (FROM_COUNTDOWN, 8, PLAY_ON):
        R.apply_option(ctx, state, option)
    assert R.to_move(ctx, state) == -1 and listed(ctx, state) == []
    out = np.zeros(1, ENGINE.record_dtype)
    R.write_record(ctx, state, out, 0)
    assert out[0]["end"] == END_TIMEOUT and out[0]["winner"] == -1 and out[0]["length"] == 1
