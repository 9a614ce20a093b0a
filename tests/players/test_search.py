"""The search players (simbalance/players, docs/strategies.md) in every game that has them, beyond
the contract test's search checks (tests/test_contract.py: valid games, the same on any threads and
chunks, the replay, the leak test):

- a determinization keeps what the seat sees, passes the engine's validation, keeps the hidden
  cards and the size of every hidden place, and puts each hidden card in each hidden place at the
  rate of that place's size (``simbalance.testing.check_determinization``, with each game's view
  read from its state's layout below);
- with validation on, ``mcts`` and ``flat`` choose a listed option at every decision (10^4
  validated decisions per game and player) and the engine's invariants hold after it;
- the search's stream is ``derive_seed(seed, "search")``; sequential halving and progressive
  widening do what docs/strategies.md says.
"""

from __future__ import annotations

import numpy as np
import pytest
from small_search import small_search_overrides

from simbalance.core.rng import derive_seed
from simbalance.games.registry import all_games
from simbalance.players.common_nb import search_seed
from simbalance.studies.run import plan_run
from simbalance.testing import check_determinization, seats_of

GAMES = sorted(g for g, spec in all_games().items() if spec.load().search is not None)
ROLLOUT = {"captain-action": "builder", "lady-actions-escape": "blocker", "aquaman": "runner",
           "captain-future": "aggressor"}


def small_plan(game: str, strategies: str, n: int = 40, validate: bool = False, rotate: bool = True):
    return plan_run(game, n, players=4, seed=7, strategies=strategies, rotate=rotate,
                    overrides=small_search_overrides(game), validate=validate)  # small budgets: tests/small_search.py


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
    check_determinization(small_plan(game, ",".join([ROLLOUT[game]] * 4)), *VIEW[game])


def play_validated(plan, target: int) -> int:
    """Play the plan's games through the resumable steps, the search seats' decisions asked of the
    search (as the kernel asks), until ``target`` search decisions: each option must be listed, and
    the engine's validation must pass after it. Returns the decisions made."""
    res, search = plan.engine.resumable, plan.engine.search
    ctx = res.context(*plan.prepared)
    assert ctx[-1]  # validated: the rule steps check themselves too
    scratch = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params, plan.evaluation_weights)
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


def test_paired_choice_keeps_its_own_option_among_equally_valued_ones_on_few_deals():
    """Eight options of equal value (each deal's results i.i.d. uniform shares): with one deal an
    option, the paired variance is 0 and before the prior (common_nb.paired_variance) and the
    minimum of deals (MIN_DEALS) any option with one lucky deal replaced the rollout strategy's own
    (87% of the decisions at confidence 2, 49% with two deals); now fewer than four deals never do,
    more seldom. An option that is better on every deal still wins."""
    from simbalance.players.common_nb import N_OPT, O_ALIVE, O_RESULT, add_deal, paired_choice

    n = 8
    options = np.arange(100, 100 + n)
    gen = np.random.default_rng(5)
    rng = np.array([3], np.uint64)

    def replaced(deals, trials=1000, edge=0.0):
        count = 0
        for _ in range(trials):
            opt = np.zeros((N_OPT, n))
            opt[O_ALIVE] = 1.0
            for _ in range(deals):
                opt[O_RESULT] = gen.uniform(0.0, 1.0, n)
                opt[O_RESULT, 5] = min(1.0, opt[O_RESULT, 5] + edge)
                add_deal(opt, n, 0)  # own: option 0
            count += paired_choice(opt, options, n, 0, options[0], rng, 2.0) != options[0]
        return count / trials

    assert replaced(1) == 0.0 and replaced(2) == 0.0 and replaced(3) == 0.0  # 0.87 and 0.49 before
    assert replaced(4) < 0.15  # the best of seven at two standard errors, the prior in: 0.12
    # the search still finds a better option: option 5 a third of a game better on each of 20 deals
    opt = np.zeros((N_OPT, n))
    opt[O_ALIVE] = 1.0
    for _ in range(20):
        opt[O_RESULT] = gen.uniform(0.3, 0.6, n)
        opt[O_RESULT, 5] = opt[O_RESULT, 0] + 0.33
        add_deal(opt, n, 0)
    assert paired_choice(opt, options, n, 0, options[0], rng, 2.0) == options[5]
