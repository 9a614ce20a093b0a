"""captain-future's part of the search players (search_nb, play_nb's search kernel): what
tests/players/test_search.py and the contract test (simbalance.testing) check for every game, plus
what is captain-future's own:

- a determinization puts each hidden card kind in each hidden place (the other hands, the stack)
  and on top of the stack at the rates of the places' sizes (chi-square);
- the search sees nothing hidden: cards moved between the other hands and the stack by hand (not
  by a determinization) and the game's stream re-keyed leave every choice of mcts and flat the same;
- ``policy`` reads back the heuristic's own choice: the option, applied, is the heuristic's step;
- the search's options (``search_options``) are legal options, one per body and kind of move;
- a search seat answers Recall with its rollout strategy (set_seats), never with its search row.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from simbalance.core.rng import seed_game
from simbalance.games.captain_future import state_nb as S
from simbalance.games.captain_future.search_nb import search_options
from simbalance.players import FLAT, MCTS
from simbalance.studies.run import plan_run
from simbalance.testing import decision_states

SETS = ["strategies.mcts.iterations=16", "strategies.mcts.depth=8", "strategies.flat.playouts=2",
        "strategies.flat.depth=8"]


def _plan(strategies="aggressor,aggressor,aggressor,aggressor", validate=False):
    return plan_run("captain-future", 8, players=4, seed=5, strategies=strategies, overrides=SETS, validate=validate)


def _rows(plan, names):
    """Seat rows (ids and parameter rows) for the strategy names ``names`` of the plan's slots."""
    from simbalance.core.lineup import all_strategies

    infos = all_strategies(plan.config, plan.engine.strategies, plan.engine.strategy_params)
    sid = np.array([plan.engine.strategies[n] for n in names], np.int64)
    prm = np.zeros((len(names), plan.lineup.slot_params.shape[1]))
    for q, n in enumerate(names):
        if n in ("mcts", "flat"):
            k = list(plan.lineup.slot_strategy).index(plan.engine.strategies[n])
            prm[q] = plan.lineup.slot_params[k]
        else:
            values = list(infos[n].params.values())
            prm[q, :len(values)] = values
    return sid, prm


def _states(plan, games=range(2), every=3, strategy="aggressor"):
    return decision_states(plan, games, every, seats=_rows(plan, [strategy] * 4))


def _hidden(ctx, state, seat):
    st = state[0]
    places = {q: [k for k in range(S.MK) for _ in range(int(st[S.HANDS + q * S.MK + k]))]
              for q in range(4) if q != seat}
    places["stack"] = st[S.STACK:S.STACK + st[S.NSTACK]].tolist()
    return places


def test_a_determinization_deals_each_hidden_kind_at_the_rate_of_each_place():
    plan = _plan()
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = _states(plan)
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(3), np.int64(0))
    samples = 2000
    for state in (states[10], states[len(states) // 2], states[-5]):
        seat = res.to_move(ctx, state)
        places = _hidden(ctx, state, seat)
        every = sum(places.values(), [])
        kinds = sorted(set(every))
        size = {place: len(cards) for place, cards in places.items()}
        counts = {(k, place): 0 for k in kinds for place in places}
        top = dict.fromkeys(kinds, 0)
        for _ in range(samples):
            w = res.clone(state)
            search.determinize(ctx, w, seat, rng)
            for place, cards in _hidden(ctx, w, seat).items():
                for k in cards:
                    counts[k, place] += 1
            if w[0][S.NSTACK] > 0:
                top[int(w[0][S.STACK + w[0][S.NSTACK] - 1])] += 1
        for k in kinds:
            # A kind's copies are dealt without replacement: the statistic is smaller than a
            # multinomial's, the test errs towards passing; a place favoured by 10 % still fails.
            obs = [counts[k, place] for place in places]
            exp = [samples * every.count(k) * size[place] / len(every) for place in places]
            assert chisquare(obs, exp).pvalue > 1e-4, (k, obs, exp)
        if state[0][S.NSTACK] > 0:
            obs = [top[k] for k in kinds]
            exp = [samples * every.count(k) / len(every) for k in kinds]
            assert chisquare(obs, exp).pvalue > 1e-4, ("top of the stack", obs, exp)


def _shuffle_hidden_by_hand(state, seat, rs):
    """Another real state the seat cannot tell apart: the other hands and the stack dealt anew
    (sizes kept), the game's stream and the deck as dealt changed."""
    st = state[0]
    places = _hidden(None, state, seat)
    cards = sum(places.values(), [])
    rs.shuffle(cards)
    at = 0
    for q in range(4):
        if q == seat:
            continue
        st[S.HANDS + q * S.MK:S.HANDS + (q + 1) * S.MK] = 0
        for k in cards[at:at + len(places[q])]:
            st[S.HANDS + q * S.MK + k] += 1
        at += len(places[q])
    st[S.STACK:S.STACK + st[S.NSTACK]] = cards[at:]
    state[3][0] = np.uint64(rs.integers(2**63))
    state[6][:] = rs.permutation(state[6])


@pytest.mark.parametrize("player", ["mcts", "flat"])
def test_the_search_sees_no_card_it_cannot_see(player):
    plan = _plan(f"{player},aggressor,aggressor,aggressor")
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = _states(plan, every=5)
    a = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params, plan.evaluation_weights)
    b = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params, plan.evaluation_weights)
    rs = np.random.default_rng(0)
    stats = 2 if player == "mcts" else 9
    moved = 0
    for k, state in enumerate(states[::3]):
        seat = res.to_move(ctx, state)
        names = ["aggressor"] * 4
        names[seat] = player
        sid, prm = _rows(plan, names)
        other = res.clone(state)
        _shuffle_hidden_by_hand(other, seat, rs)
        moved += not np.array_equal(other[0], state[0])
        key = (np.uint64(plan.seed), np.int64(1), np.int64(k))
        assert search.choose(ctx, state, sid, prm, *key, a) == search.choose(ctx, other, sid, prm, *key, b)
        assert np.array_equal(a[stats], b[stats])
    assert moved > 10


@pytest.mark.parametrize("strategy", ["aggressor", "builder", "random"])
def test_the_policy_is_the_heuristics_own_step(strategy):
    plan = _plan()
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = _states(plan, games=range(3), every=2, strategy=strategy)
    sid, prm = _rows(plan, [strategy] * 4)
    options = np.zeros(res.max_options(ctx), np.int64)
    kinds = set()
    for state in states:
        seat = res.to_move(ctx, state)
        n = res.legal_options(ctx, state, options)
        option = search.policy(ctx, res.clone(state), sid[seat], prm[seat])
        assert option in options[:n]
        kinds.add(int(option) // 65536)
        own, by_option = res.clone(state), res.clone(state)
        res.play_out(ctx, own, sid, prm, np.int64(1))
        res.apply_option(ctx, by_option, option)
        assert np.array_equal(own[0][S.EV:S.EV + 4], by_option[0][S.EV:S.EV + 4])
        if int(option) // 65536 == S.OPT_RECALL:
            continue  # every player's ship is his strategy's, ties from the stream: the card is the choice
        assert np.array_equal(own[0][S.OWNER:S.OWNER + S.ML], by_option[0][S.OWNER:S.OWNER + S.ML])
        assert own[0][S.STONE_I] == by_option[0][S.STONE_I] and own[0][S.STONE_T] == by_option[0][S.STONE_T]
        # random pays an attack with random cards, an option the cheapest; and a reshuffle of the
        # discard pile draws from the game's stream, which the heuristic's own ties used before
        if strategy != "random" and state[0][S.NSTACK] >= bd_hand(ctx):
            assert np.array_equal(own[0][S.HANDS:S.HANDS + 4 * S.MK], by_option[0][S.HANDS:S.HANDS + 4 * S.MK])
    assert {S.OPT_NONE, S.OPT_LAND, S.OPT_ATTACK} <= kinds


def bd_hand(ctx):
    return int(ctx[0][S.HAND])


def test_the_search_options_are_legal_and_few():
    plan = _plan()
    res = plan.engine.resumable
    ctx, states = _states(plan, games=range(4), every=1)
    legal = np.zeros(res.max_options(ctx), np.int64)
    mine = np.zeros(res.max_options(ctx), np.int64)
    sizes = []
    for state in states:
        n = res.legal_options(ctx, state, legal)
        m = search_options(ctx, state, mine)
        assert 1 <= m <= n
        assert set(mine[:m].tolist()) <= set(legal[:n].tolist())
        assert len(set(mine[:m].tolist())) == m
        sizes.append((m, n))
    m, n = np.mean(sizes, axis=0)
    assert m < 25 and n > 5 * m  # what makes a budget of 100 iterations tell options apart


def test_a_search_seat_answers_recall_with_its_rollout_strategy():
    """set_seats: the state holds a search seat's rollout strategy (the one that answers Recall in
    the game and in the play-outs) and its bit in SEARCHERS; play_out stops before its decision."""
    plan = _plan("mcts,aggressor,aggressor,aggressor")
    res = plan.engine.resumable
    ctx = res.context(*plan.prepared)
    sid, prm = _rows(plan, ["mcts", "builder", "aggressor", "random"])
    _, agg = _rows(plan, ["aggressor"])
    state = res.new_state(ctx)
    res.start(ctx, state, np.uint64(1), np.int64(0))
    res.play_out(ctx, state, sid, prm, np.int64(-1))
    st, seat_prm = state[0], state[4]
    assert res.to_move(ctx, state) == 0  # seat 0 searches: nothing was played
    assert st[S.SEARCHERS] == 1
    assert st[S.SID] == S.AGGRESSOR and np.array_equal(seat_prm[0, :12], agg[0, :12])
    assert list(st[S.SID + 1:S.SID + 4]) == [S.BUILDER, S.AGGRESSOR, S.RANDOM]
    assert sid[0] == MCTS != FLAT
