"""lady-actions-escape as resumable state (ENGINE.resumable, docs/rules/lady-actions-escape.md,
"Decisions"): a copy taken at any decision plays on to the kernel's very record; every listed option
is legal by the engine's own validation and a heuristic's choice is always among them; hand-made
positions list exactly the options the rules allow; ``to_move`` is -1 exactly when the game is over.
"""

import numpy as np
import pytest
from test_lady_actions_escape_rules import CFG, Table

import simbalance
from simbalance.api import plan_run
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.lady_actions_escape.engine import ENGINE
from simbalance.games.lady_actions_escape.play_nb import start_from
from simbalance.games.lady_actions_escape.state_nb import (
    G_N_BG,
    HAND,
    PENDING,
    PHASE,
    PHASE_NAME,
    PHASE_PLAY,
    option_code,
)
from simbalance.games.lady_actions_escape.strategies_nb import strategy_move
from simbalance.games.lady_actions_escape.validate_nb import ILLEGAL_PLAY, OK

R = ENGINE.resumable
GAME = "lady-actions-escape"
SEED = 17

SETUPS = [
    dict(players=4, strategies=["random"], rotate=False, overrides={}),
    dict(players=4, strategies=["blocker", "random", "flexible", "steer"], rotate=True, overrides={}),
    dict(players=3, strategies=["steer", "random", "random"], rotate=True,
         overrides={"rules.hand_size": 3, "rules.draw_penalty": 4, "rules.first_leader": "rotate"}),
    dict(players=2, strategies=["flexible", "random"], rotate=True,
         overrides={"rules.turn_cap": 60, "rules.first_leader": "random"}),  # timeouts
    dict(players=5, strategies=["blocker", "random", "random", "flexible", "random"], rotate=False,
         overrides={"rules.wildcards": False, "rules.effects_play_on_anything": True}),
]


class Run:
    """The games of one setup, as the kernel played them, and the same games step by step."""

    def __init__(self, setup, n=12, validate=False):
        self.plan = plan_run(GAME, n, seed=SEED, **setup)
        self.records = simbalance.simulate(GAME, n, seed=SEED, **setup).records
        self.ctx = R.context(*self.plan.prepared[:4], np.bool_(validate))
        self.options = np.zeros(R.max_options(self.ctx), np.int64)

    def seats(self, g):
        """The kernel's seats of game ``g``: its lineup, strategy ids and parameter rows."""
        lineup = self.plan.lineup
        seats = lineup.seats[g % len(lineup.seats)]
        return seats, lineup.slot_strategy[seats].astype(np.int64), np.ascontiguousarray(lineup.slot_params[seats])

    def started(self, g):
        state = R.new_state(self.ctx)
        R.start(self.ctx, state, np.uint64(SEED), np.int64(g), np.int64(len(self.plan.lineup.seats)))
        return state

    def record(self, state, g):
        """The finished game's record, with the fields the kernel writes itself."""
        out = np.zeros(1, ENGINE.record_dtype)
        R.write_record(self.ctx, state, out, 0)
        seats = self.seats(g)[0]
        out["game"] = g
        out["strategy"][0, : len(seats)] = seats
        return out[0]

    def listed(self, state):
        n = R.legal_options(self.ctx, state, self.options)
        return self.options[:n].copy()


@pytest.mark.parametrize("setup", SETUPS)
def test_playing_on_from_a_copy_reproduces_the_kernels_record(setup):
    """Its own loop, not the contract's check_resumable_play_on as in the other games: this game's
    ``start`` also takes the run's lineup count (a rotating first leader, setup 2), which the
    contract's ``start(ctx, state, seed, game)`` does not pass (issue 36: one template)."""
    run = Run(setup)
    for g in (0, 1, 5, 11):
        _, sid, prm = run.seats(g)
        total = R.play_out(run.ctx, run.started(g), sid, prm, -1)
        assert total > 0
        for k in sorted({0, 1, 2, 7, total // 3, total // 2, total - 1, total}):
            state = run.started(g)
            assert R.play_out(run.ctx, state, sid, prm, k) == k
            copy = R.clone(state)
            # The original goes on first: the copy shares nothing with it, its random stream included.
            assert R.play_out(run.ctx, state, sid, prm, -1) == total - k
            assert run.record(state, g) == run.records[g]
            assert R.play_out(run.ctx, copy, sid, prm, -1) == total - k
            assert run.record(copy, g) == run.records[g]  # every field


@pytest.mark.parametrize("setup", SETUPS)
def test_to_move_is_minus_one_exactly_when_the_game_is_over(setup):
    run = Run(setup, n=6)
    for g in range(6):
        _, sid, prm = run.seats(g)
        state = run.started(g)
        while R.to_move(run.ctx, state) >= 0:
            assert 0 <= R.to_move(run.ctx, state) < setup["players"]
            assert len(run.listed(state)) > 0
            assert R.play_out(run.ctx, state, sid, prm, 1) == 1
        assert len(run.listed(state)) == 0
        assert R.play_out(run.ctx, state, sid, prm, 5) == 0  # nothing left to decide
        assert run.record(state, g) == run.records[g]
        assert run.records[g]["end"] in (END_WIN, END_TIMEOUT, END_STALEMATE)


@pytest.mark.parametrize("setup", SETUPS)
def test_every_listed_option_is_legal_and_the_heuristics_choose_among_them(setup):
    run = Run(setup, n=4, validate=True)  # with validation every invariant is checked inside the turn too
    n_cards = run.ctx[0].shape[0]
    n_bg = int(run.ctx[3][G_N_BG])
    n_ch = run.ctx[2].shape[0] - n_bg
    refused = 0
    for g in range(4):
        _, sid, prm = run.seats(g)
        state = run.started(g)
        for _ in range(300):  # decisions (heuristic tables can run to the turn cap)
            seat = R.to_move(run.ctx, state)
            if seat < 0:
                break
            options = run.listed(state)
            assert len(set(options.tolist())) == len(options)  # each option once
            for option in options:
                after = R.clone(state)
                R.apply_option(run.ctx, after, option)
                assert R.check(run.ctx, after) == OK, option
            # The strategy's own choice (on a copy: it draws from the stream) is one of them.
            card, bg, ch, legal = strategy_move(run.ctx, R.clone(state), sid[seat], prm[seat])
            assert legal and option_code(card, bg, ch, n_cards, n_ch) in options
            # ... and what is not listed is refused: a card of the hand that does not fit, or a
            # wildcard played without a name.
            hand = int(state[1][HAND + seat])
            for c in range(n_cards):
                if hand >> c & 1 and c not in options:
                    after = R.clone(state)
                    R.apply_option(run.ctx, after, c)
                    assert R.check(run.ctx, after) == ILLEGAL_PLAY
                    refused += 1
                    break
            R.play_out(run.ctx, state, sid, prm, 1)
    assert refused > 0


def _position(overrides, hands, draw_top_first, players=2):
    """A scripted deal (cards named by printed number, 0: Captain Action, "L": Dr. Ling), played on
    to its first decision: seat 0 leads."""
    table = Table(CFG, players, {"rules.hand_size": len(hands[0]), **overrides})
    ctx = R.context(*table.prepared[:4], np.bool_(True))
    state = R.new_state(ctx)
    start_from(ctx, state, table.order_for(hands, draw_top_first), np.int64(0))
    return table, ctx, state


def _options(ctx, state):
    options = np.zeros(R.max_options(ctx), np.int64)
    n = R.legal_options(ctx, state, options)
    assert R.check(ctx, state) == OK
    return options[:n]


# The default deck: backgrounds periwinkle, crimson, gold, emerald; characters Captain Action,
# Action Boy, Lady Action, Dr. Evil (4 x 4 = 16 namings of a wildcard). 1, 17: periwinkle Captain
# Actions; 3: gold Captain Action; 5: periwinkle Action Boy; 6, 22, 38: crimson Action Boys; 7: gold
# Action Boy; 10: crimson Lady Action; 11: gold Lady Action; 14: crimson Dr. Evil; 16: emerald Dr. Evil;
# 24: emerald Action Boy. Seat 0 holds LEAD.
LEAD = [1, 3, 11, 16, 24]


def test_the_leader_may_lead_any_card():
    # Rule 2: the leader plays any card of his five: 5 options.
    table, ctx, state = _position({}, [LEAD, [2, 4, 8, 9, 12]], [])
    assert R.to_move(ctx, state) == 0
    assert sorted(_options(ctx, state).tolist()) == sorted(table.id(c) for c in LEAD)


def test_a_wildcard_is_one_option_per_naming():
    # Rule 4: four plain cards, and a Captain Action 0 named any of 4 backgrounds x 4 characters:
    # 4 + 16 = 20 options.
    table, ctx, state = _position({}, [[1, 6, 0, 16, 21], [2, 3, 4, 8, 9]], [])
    assert len(_options(ctx, state)) == 4 + 16
    # Without wildcards the 0 is a plain Captain Action: 5 options.
    table, ctx, state = _position({"rules.wildcards": False}, [[1, 6, 0, 16, 21], [2, 3, 4, 8, 9]], [])
    assert len(_options(ctx, state)) == 5


def test_a_follower_may_play_what_matches_the_top_card():
    # Seat 0 leads 1 (periwinkle, Captain Action). Seat 1 holds 5 (periwinkle), 17 (periwinkle,
    # Captain Action), Dr. Ling (wild: 16 namings), 22 and 38 (crimson Action Boys: neither):
    # rule 3 allows 2 + 16 = 18 options.
    table, ctx, state = _position({}, [LEAD, [5, 17, "L", 22, 38]], [])
    R.apply_option(ctx, state, table.id(1))
    assert R.to_move(ctx, state) == 1
    options = _options(ctx, state)
    assert len(options) == 18
    assert {table.id(5), table.id(17)} <= set(options.tolist())


def test_a_drawn_wildcard_leaves_only_its_naming_to_decide():
    # Seat 1 holds nothing periwinkle and no Captain Action: rule 5, it draws 7 (gold Action Boy, no
    # fit), then a Captain Action 0, which it must play: 16 options, all that 0 with a naming.
    table, ctx, state = _position({}, [LEAD, [6, 22, 38, 10, 14]], [7, 0])
    R.apply_option(ctx, state, table.id(1))
    assert R.to_move(ctx, state) == 1 and state[2][PHASE] == PHASE_NAME
    assert state[2][PENDING] == table.id(0)
    options = _options(ctx, state)
    assert len(options) == 16 and (options % table.deck.size == table.id(0)).all()
    assert R.check(ctx, state) == OK
    bad = R.clone(state)
    R.apply_option(ctx, bad, table.id(7))  # the 7 it drew is no option
    assert R.check(ctx, bad) == ILLEGAL_PLAY


def test_effects_on_anything_variant_lets_lady_action_and_dr_evil_follow_anything():
    # With rules.effects_play_on_anything, on a periwinkle Captain Action seat 1 may play its crimson
    # Lady Action 10 and crimson Dr. Evil 14, not its Action Boys 6, 22, 38: 2 options.
    table, ctx, state = _position({"rules.effects_play_on_anything": True}, [LEAD, [6, 22, 38, 10, 14]], [7, 0])
    R.apply_option(ctx, state, table.id(1))
    assert R.to_move(ctx, state) == 1 and state[2][PHASE] == PHASE_PLAY
    assert sorted(_options(ctx, state).tolist()) == sorted([table.id(10), table.id(14)])
