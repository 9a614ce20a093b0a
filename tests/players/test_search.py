"""The search players (simbalance/players, docs/strategies.md) in every game that has them:

- a determinization keeps what the seat sees, passes the engine's validation, keeps the hidden
  cards and the size of every hidden place, and puts each hidden card in each hidden place at the
  rate of that place's size;
- a leak test: states the seat cannot tell apart (the hidden cards placed otherwise, the game's
  stream re-keyed) get the same search, option and statistics alike;
- with validation on, ``mcts`` and ``flat`` choose a listed option at every decision (10^4
  validated decisions per game and player) and the engine's invariants hold after it;
- the same games on 1 and 2 threads and in any chunking; the replay is the recorded game; the
  search kernel plays heuristic lineups exactly as the kernel;
- the search's stream is ``derive_seed(seed, "search")``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from small_search import small_search_overrides

from simbalance.core.rng import derive_seed, seed_game
from simbalance.core.runner import play_chunk
from simbalance.games.registry import all_games
from simbalance.players import FLAT, MCTS
from simbalance.players.common_nb import search_seed
from simbalance.studies.run import plan_run

GAMES = sorted(g for g, spec in all_games().items() if spec.load().search is not None)
ROLLOUT = {"captain-action": "builder", "lady-actions-escape": "blocker", "aquaman": "runner",
           "captain-future": "aggressor"}


def small_plan(game: str, strategies: str, n: int = 40, validate: bool = False, rotate: bool = True):
    return plan_run(game, n, players=4, seed=7, strategies=strategies, rotate=rotate,
                    overrides=small_search_overrides(game), validate=validate)  # small budgets: tests/small_search.py


def seats_of(plan, g: int):
    slots = plan.lineup.seats[g % len(plan.lineup.seats)]
    return (plan.lineup.slot_strategy[slots].astype(np.int64), np.ascontiguousarray(plan.lineup.slot_params[slots]))


def decision_states(plan, games, every: int = 3):
    """States at the decisions of the plan's games (every ``every``-th, the heuristic rollout
    strategy deciding in between), copied: the places a search starts from."""
    res = plan.engine.resumable
    ctx = res.context(*plan.prepared)
    sid = np.full(plan.players, plan.engine.strategies[ROLLOUT[plan.spec.id]], np.int64)
    prm = np.ascontiguousarray(np.tile(_heuristic_row(plan), (plan.players, 1)))
    found = []
    for g in games:
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(plan.seed), np.int64(g))
        while res.to_move(ctx, state) >= 0:
            found.append(res.clone(state))
            res.play_out(ctx, state, sid, prm, np.int64(every))
    return ctx, found


def stream(state):
    """The state's own random stream: its one uint64[1] array (not the first in every game)."""
    (rng,) = [a for a in state if a.dtype == np.uint64 and a.shape == (1,)]
    return rng


def _heuristic_row(plan):
    from simbalance.core.lineup import all_strategies

    infos = all_strategies(plan.config, plan.engine.strategies, plan.engine.strategy_params)
    row = np.zeros(plan.lineup.slot_params.shape[1])
    values = list(infos[ROLLOUT[plan.spec.id]].params.values())
    row[:len(values)] = values
    return row


# ---------------------------------------------------------------------------------------------------
# What a seat sees and what it does not, per game (read from the state's layout)


def captain_action_view(ctx, state, seat):
    from simbalance.games.captain_action import state_nb as S

    _, gv, order, hand, pile, _, _ = state
    hand_size = int(ctx[2][S.G_HAND])
    own = hand_size + 1 if gv[S.V_PHASE] == S.PH_DISCARD and gv[S.V_SEAT] == seat else hand_size
    known = [(s, k, int(hand[s, k])) for s in range(hand.shape[0]) for k in range(hand_size)
             if s != seat and (int(gv[S.V_KNOWN + s]) >> int(hand[s, k])) & 1]
    return (hand[seat, :own].tolist(), gv.tolist(), pile[:gv[S.V_PILE_N]].tolist(), int(order[gv[S.V_CD_END]]), known)


def captain_action_hidden(ctx, state, seat):
    from simbalance.games.captain_action import state_nb as S

    _, gv, order, hand, _, _, _ = state
    hand_size = int(ctx[2][S.G_HAND])
    places = {}
    for s in range(hand.shape[0]):
        if s == seat:
            continue
        slots = hand_size + 1 if gv[S.V_PHASE] == S.PH_DISCARD and gv[S.V_SEAT] == s else hand_size
        places[f"hand {s}"] = [int(c) for c in hand[s, :slots] if not (int(gv[S.V_KNOWN + s]) >> int(c)) & 1]
    places["countdown"] = order[gv[S.V_CD_POS]:gv[S.V_CD_END]].tolist()
    places["unused"] = order[gv[S.V_CD_END] + 1:].tolist()
    return places


def lady_view(ctx, state, seat):
    from simbalance.games.lady_actions_escape import state_nb as S

    masks, st = state[1], state[2]
    return int(masks[S.HAND + seat]), st[:S.DRAW].tolist(), st[S.DISC:S.DISC + st[S.DISC_N]].tolist()


def lady_hidden(ctx, state, seat):
    from simbalance.games.lady_actions_escape import state_nb as S

    masks, st = state[1], state[2]
    places = {f"hand {s}": [c for c in range(64) if (int(masks[S.HAND + s]) >> c) & 1]
              for s in range(int(ctx[3][S.G_PLAYERS])) if s != seat}
    places["draw pile"] = st[S.DRAW:S.DRAW + st[S.DRAW_N]].tolist()
    return places


def aquaman_view(ctx, state, seat):
    from simbalance.games.aquaman import state_nb as S
    from simbalance.games.aquaman.search_nb import hidden_reveal

    cards, seatv, ctr = state.cards, state.seat, state.ctr
    first = int(hidden_reveal(state, seat))
    knows = [(int(k) >> seat) & 1 for k in cards[S.K_KNOWN]]
    pile = cards[S.K_DISC, :ctr[S.C_DISC] - (first >= 0)].tolist()
    public = [seatv[s, :S.V_SUIT].tolist() for s in range(seatv.shape[0])]
    others = [(s, i, int(c)) for s in range(seatv.shape[0]) if s not in (seat, first)
              for i, c in enumerate(cards[S.K_HAND + s, :seatv[s, S.V_HAND_N]]) if knows[c]]
    group = []  # the first fighter's cards the seat knows, among his hand and his chosen card
    if first >= 0:
        held = [*cards[S.K_HAND + first, :seatv[first, S.V_HAND_N]], ctr[S.C_REVEAL_A]]
        group = sorted(int(c) for c in held if knows[c])
    deck = [(j, int(c)) for j, c in enumerate(cards[S.K_DECK, :ctr[S.C_DECK]]) if knows[c]]
    counters = [int(v) for k, v in enumerate(ctr) if not (first >= 0 and k == S.C_REVEAL_A)]
    return (cards[S.K_HAND + seat, :seatv[seat, S.V_HAND_N]].tolist(), seatv[seat].tolist(),
            cards[S.K_BOARD, :ctx.move_to.shape[0]].tolist(), pile, public, counters, others, group, deck)


def aquaman_hidden(ctx, state, seat):
    from simbalance.games.aquaman import state_nb as S
    from simbalance.games.aquaman.search_nb import hidden_reveal

    cards, seatv, ctr = state.cards, state.seat, state.ctr
    first = int(hidden_reveal(state, seat))
    knows = [(int(k) >> seat) & 1 for k in cards[S.K_KNOWN]]
    places = {}
    for s in range(seatv.shape[0]):
        if s != seat:
            held = cards[S.K_HAND + s, :seatv[s, S.V_HAND_N]].tolist() + ([int(ctr[S.C_REVEAL_A])] if s == first else [])
            places[f"hand {s}"] = [c for c in held if not knows[c]]
    places["deck"] = [int(c) for c in cards[S.K_DECK, :ctr[S.C_DECK]] if not knows[c]]
    return places


def captain_future_view(ctx, state, seat):
    from simbalance.games.captain_future import state_nb as S

    st = state[0].copy()
    own = st[S.HANDS + seat * S.MK:S.HANDS + (seat + 1) * S.MK].tolist()
    for q in range(int(ctx[0][S.PLAYERS])):
        st[S.HANDS + q * S.MK:S.HANDS + (q + 1) * S.MK] = 0
    st[S.STACK:S.STACK + S.MN] = 0
    return own, st.tolist()


def captain_future_hidden(ctx, state, seat):
    """Card kinds (a kind has several cards: the test counts each kind's copies)."""
    from simbalance.games.captain_future import state_nb as S

    st = state[0]
    places = {f"hand {q}": [k for k in range(S.MK) for _ in range(int(st[S.HANDS + q * S.MK + k]))]
              for q in range(int(ctx[0][S.PLAYERS])) if q != seat}
    places["stack"] = st[S.STACK:S.STACK + st[S.NSTACK]].tolist()
    return places


VIEW = {"captain-action": (captain_action_view, captain_action_hidden), "lady-actions-escape": (lady_view, lady_hidden),
        "aquaman": (aquaman_view, aquaman_hidden), "captain-future": (captain_future_view, captain_future_hidden)}


def test_every_game_with_search_players_has_its_view_here():
    assert set(GAMES) <= set(VIEW), "add the game's view and hidden places to tests/players/test_search.py"


# ---------------------------------------------------------------------------------------------------


def test_the_search_stream_is_derive_seed_search():
    for seed in (0, 1, 11, 2**63 + 5, 2**64 - 1):
        assert int(search_seed(np.uint64(seed))) == derive_seed(seed, "search")


@pytest.mark.parametrize("game", GAMES)
def test_a_determinization_keeps_the_view_and_shuffles_the_hidden_cards_uniformly(game):
    view, hidden = VIEW[game]
    plan = small_plan(game, ",".join([ROLLOUT[game]] * 4))
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = decision_states(plan, range(3))
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(5), np.int64(0))
    changed = 0
    for state in states:  # a search determinizes for the seat to move
        seat = res.to_move(ctx, state)
        w = res.clone(state)
        search.determinize(ctx, w, seat, rng)
        assert view(ctx, w, seat) == view(ctx, state, seat)
        assert res.check(ctx, w) == 0
        before, after = hidden(ctx, state, seat), hidden(ctx, w, seat)
        assert {k: len(v) for k, v in before.items()} == {k: len(v) for k, v in after.items()}
        assert sorted(sum(before.values(), [])) == sorted(sum(after.values(), []))
        assert stream(w)[0] != stream(state)[0]  # the game's own stream is re-keyed
        changed += before != after
    assert changed > len(states) // 2  # the hidden cards do move
    # Uniform: each hidden card lands in each hidden place at the rate of the place's size.
    state = states[len(states) // 2]
    seat = res.to_move(ctx, state)
    places = hidden(ctx, state, seat)
    total = sum(len(v) for v in places.values())
    counts = {}
    samples = 3000
    for _ in range(samples):
        w = res.clone(state)
        search.determinize(ctx, w, seat, rng)
        for place, cards in hidden(ctx, w, seat).items():
            for c in cards:
                counts[c, place] = counts.get((c, place), 0) + 1
    every = sum(places.values(), [])
    for card in sorted(set(every)):
        copies = every.count(card)  # captain-future's cards are kinds: a kind's copies count together
        for place, cards in places.items():
            p = len(cards) / total
            got = counts.get((card, place), 0)
            # (the copies of one kind are drawn without replacement: this variance is an upper bound)
            z = (got - samples * copies * p) / np.sqrt(samples * copies * p * (1 - p)) if 0 < p < 1 else 0.0
            assert abs(z) < 5, (f"{game}: card {card} in {place} {got} times of {samples}, "
                                f"expected {samples * copies * p:.0f}")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("player", ["mcts", "flat"])
def test_the_search_sees_nothing_hidden(game, player):
    """The leak test: the hidden cards placed otherwise (a determinization of the real state) and the
    game's stream re-keyed: the same search, option and statistics."""
    plan = small_plan(game, f"{player},{ROLLOUT[game]},{ROLLOUT[game]},{ROLLOUT[game]}")
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = decision_states(plan, range(2))
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(9), np.int64(0))
    a = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params)
    b = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params)
    stats = 2 if player == "mcts" else 9  # the tree's statistics, flat's sums per option
    changed = 0
    for k, state in enumerate(states[::2]):
        seat = res.to_move(ctx, state)
        sid = np.full(plan.players, plan.engine.strategies[ROLLOUT[game]], np.int64)
        sid[seat] = MCTS if player == "mcts" else FLAT
        prm = np.tile(_heuristic_row(plan), (plan.players, 1))  # the others play the rollout heuristic as configured
        prm[seat] = plan.lineup.slot_params[0]
        other = res.clone(state)
        search.determinize(ctx, other, seat, rng)
        changed += any(not np.array_equal(x, y) for x, y in zip(state, other, strict=True) if x is not stream(state))
        key = (np.uint64(plan.seed), np.int64(0), np.int64(k))
        assert search.choose(ctx, state, sid, prm, *key, a) == search.choose(ctx, other, sid, prm, *key, b)
        assert np.array_equal(a[stats], b[stats])
    assert changed > 0


def play_validated(plan, target: int) -> int:
    """Play the plan's games through the resumable steps, the search seats' decisions asked of the
    search (as the kernel asks), until ``target`` search decisions: each option must be listed, and
    the engine's validation must pass after it. Returns the decisions made."""
    res, search = plan.engine.resumable, plan.engine.search
    ctx = res.context(*plan.prepared)
    assert ctx[-1]  # validated: the rule steps check themselves too
    scratch = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params)
    options = np.zeros(res.max_options(ctx), np.int64)
    made = 0
    g = 0
    while made < target:
        sid, prm = seats_of(plan, g)
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(plan.seed), np.int64(g))
        decision = 0
        while True:
            res.play_out(ctx, state, sid, prm, np.int64(-1))
            if res.to_move(ctx, state) < 0:
                break
            n = res.legal_options(ctx, state, options)
            option = search.choose(ctx, state, sid, prm, np.uint64(plan.seed), np.int64(g), np.int64(decision), scratch)
            assert option in options[:n], f"{plan.spec.id} game {g}: option {option} is not listed"
            res.apply_option(ctx, state, option)
            assert res.check(ctx, state) == 0, f"{plan.spec.id} game {g}: option {option} breaks a rule"
            decision += 1
        made += decision
        g += 1
    return made


@pytest.mark.exhaustive  # 10^4 validated search decisions per player and game
@pytest.mark.parametrize("game", GAMES)
def test_validated_search_players_choose_listed_options(game):
    rollout = ROLLOUT[game]
    assert play_validated(small_plan(game, f"mcts,{rollout},mcts,{rollout}", validate=True), 10_000) >= 10_000
    assert play_validated(small_plan(game, f"flat,{rollout},flat,{rollout}", validate=True), 10_000) >= 10_000
    # and the kernel's own validated run of search players ends no game as invalid (it would raise)
    records = small_plan(game, f"mcts,flat,{rollout},random", n=24, validate=True)
    from simbalance.studies.run import SimulationResult

    assert (SimulationResult.from_plan(records).records["end"] != 3).all()


def play(plan, threads: int = 1, chunk: int | None = None) -> np.ndarray:
    out = np.zeros(plan.n, plan.engine.record_dtype)
    chunk = chunk or plan.n
    for first in range(0, plan.n, chunk):
        size = min(chunk, plan.n - first)
        play_chunk(plan.engine, plan.lineup, plan.prepared, plan.seed, first, size, threads, plan.kernel,
                   out=out[first:first + size])
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_same_search_games_on_one_and_two_threads_and_any_chunks(game):
    plan = small_plan(game, f"mcts,flat,{ROLLOUT[game]},random", n=24)
    base = play(plan)
    assert np.array_equal(base, play(plan, threads=2))
    assert np.array_equal(base, play(plan, chunk=5))
    shorter = dataclasses.replace(plan, n=10)
    assert np.array_equal(base[:10], play(shorter))


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_of_a_search_game_is_the_recorded_game(game):
    plan = small_plan(game, f"mcts,flat,{ROLLOUT[game]},random", n=4)
    records = play(plan)
    for g in range(plan.n):
        record, events = plan.engine.trace(plan, g)
        assert record.tobytes() == records[g:g + 1].tobytes()
        assert len(events) > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_search_kernel_plays_heuristic_lineups_as_the_kernel(game):
    names = list(plan_run(game, 1).engine.heuristics)
    heuristics = plan_run(game, 200, players=4, seed=3, strategies=(names * 4)[:4], rotate=True)
    assert heuristics.kernel is heuristics.engine.kernel
    searching = dataclasses.replace(heuristics, kernel=heuristics.engine.search.kernel)
    assert np.array_equal(play(heuristics), play(searching))


@pytest.mark.parametrize("game", GAMES)
def test_a_search_seat_never_plays_in_the_kernel_without_search(game):
    """The kernel without search stops at a search seat and ends that game as invalid (records that
    look played would be wrong); the runner picks the search kernel for such a lineup."""
    plan = small_plan(game, f"mcts,{ROLLOUT[game]},{ROLLOUT[game]},{ROLLOUT[game]}", n=4, rotate=False)
    assert plan.kernel is plan.engine.search.kernel  # seat 0 searches: it takes the first decision
    wrong = dataclasses.replace(plan, kernel=plan.engine.kernel)
    assert (play(wrong)["end"] == 3).all()


def test_sequential_halving_keeps_the_better_half_and_always_the_rollout_strategys_own_option():
    from simbalance.players.common_nb import N_OPT, O_ALIVE, O_SUM
    from simbalance.players.ismcts_nb import _keep_better_half

    opt = np.zeros((N_OPT, 6))
    opt[O_ALIVE, :5] = 1.0  # option 5 is out of the running already
    opt[O_SUM, :] = [0.0, 3.0, -1.0, 2.0, 1.0, 9.0]
    rng = np.array([7], np.uint64)
    left = _keep_better_half(opt, 6, 5, 2, rng)  # own: option 2, the worst: it stays all the same
    assert left == 4 and list(opt[O_ALIVE]) == [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]  # ceil(5 / 2) = 3 best, and own
    # ties among the best are broken uniformly: of three tied options two stay, each 2 times in 3
    stays = np.zeros(3)
    for k in range(3000):
        opt[O_ALIVE, :] = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
        opt[O_SUM, :4] = [5.0, 5.0, 5.0, 0.0]
        rng[0] = np.uint64(k * 2654435761 + 1)
        assert _keep_better_half(opt, 4, 4, 3, rng) == 3  # two of the tied, and own (3)
        stays += opt[O_ALIVE, :3]
    assert stays.sum() == 6000 and np.all(np.abs(stays / 3000 - 2 / 3) < 0.04)


def test_progressive_widening_lets_a_node_grow_with_the_root_of_its_visits():
    from simbalance.players.ismcts_nb import _children_allowed

    assert [_children_allowed(float(v), 1.0) for v in (0, 1, 2, 4, 5, 9, 10)] == [1, 1, 2, 2, 3, 3, 4]
    assert _children_allowed(3.0, 0.0) > 10 ** 9  # 0: every option before any is revisited
