"""Strategy slots, lineups, rotation and presets."""

import pytest

from simbalance.core.errors import ConfigError
from simbalance.core.lineup import resolve_lineup

ENGINE = {"random": 0, "greedy": 1}
PARAMS = {"random": ("call",), "greedy": ("a", "b")}
CFG = {
    "game": {"strategies": ["random"]},
    "strategies": {"random": {"idea": "r", "call": 0.5}, "greedy": {"idea": "g", "a": 1.0, "b": 2.0}},
    "presets": {"eager": {"base": "greedy", "idea": "e", "b": 9.0}},
}


def test_one_name_fills_every_seat():
    lineup = resolve_lineup(CFG, ENGINE, PARAMS, 3)
    assert lineup.slot_names == ("random",) and lineup.seats.tolist() == [[0, 0, 0]]


def test_rotation_plays_every_distinct_permutation():
    lineup = resolve_lineup(CFG, ENGINE, PARAMS, 3, ["greedy", "random", "random"], rotate=True)
    assert sorted(map(tuple, lineup.seats.tolist())) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_every_lineup_for_tournaments():
    lineup = resolve_lineup(CFG, ENGINE, PARAMS, 3, ["greedy", "random"], every_lineup=True)
    assert len(lineup.seats) == 8


def test_presets_run_their_base_with_their_parameters():
    lineup = resolve_lineup(CFG, ENGINE, PARAMS, 2, ["eager", "greedy"])
    assert lineup.slot_strategy.tolist() == [1, 1]
    assert lineup.slot_params[:, :2].tolist() == [[1.0, 9.0], [1.0, 2.0]]
    assert not lineup.slot_params[:, 2:].any()  # padded with zeros to the full width


@pytest.mark.parametrize("presets, message", [
    ({"x": {"base": "nope"}}, "presets.x.base = 'nope': not a heuristic"),
    ({"x": {"base": "greedy", "c": 1.0}}, "presets.x.c: greedy has no parameter 'c'"),
    ({"x": {"base": "greedy", "a": "high"}}, "presets.x.a = 'high': expected a number"),
    ({"x": {"base": "greedy", "a": True}}, "presets.x.a = True: strategy parameters are numbers"),
])
def test_bad_presets(presets, message):
    with pytest.raises(ConfigError, match=message):
        resolve_lineup({**CFG, "presets": presets}, ENGINE, PARAMS, 2)


def test_wrong_number_of_names():
    with pytest.raises(ConfigError, match="3 names for 2 players"):
        resolve_lineup(CFG, ENGINE, PARAMS, 2, "random,random,greedy")


def test_parameters_bind_by_name_not_by_file_order():
    swapped = {**CFG, "strategies": {**CFG["strategies"], "greedy": {"idea": "g", "b": 2.0, "a": 1.0}}}
    lineup = resolve_lineup(swapped, ENGINE, PARAMS, 1, ["greedy"])
    assert lineup.slot_params[0, :2].tolist() == [1.0, 2.0]  # a, then b: the engine's order


@pytest.mark.parametrize("table, message", [
    ({"idea": "g", "a": 1.0}, r"strategies.greedy: missing parameter 'b'; it needs: a, b"),
    ({"idea": "g", "a": 1.0, "b": 2.0, "c": 3.0}, r"strategies.greedy.c: unknown parameter; allowed: a, b"),
])
def test_missing_or_unknown_parameter_is_an_error(table, message):
    cfg = {**CFG, "strategies": {**CFG["strategies"], "greedy": table}}
    with pytest.raises(ConfigError, match=message):
        resolve_lineup(cfg, ENGINE, PARAMS, 2)


def test_a_strategy_table_the_engine_does_not_know_is_an_error():
    cfg = {**CFG, "strategies": {**CFG["strategies"], "greedyy": {"idea": "typo"}}}
    with pytest.raises(ConfigError, match="strategies.greedyy: not a heuristic of this game"):
        resolve_lineup(cfg, ENGINE, PARAMS, 2)


def test_a_config_file_with_its_parameters_reordered_plays_the_same_games(tmp_path):
    """Issue 17: moving a parameter line in a config used to move its value into another
    parameter's place (aquaman's runner lost every game with `fight` above `need`)."""
    import tomllib

    import simbalance
    from simbalance.core.config import CONFIG_DIR

    text = (CONFIG_DIR / "captain-action.toml").read_text()
    cfg = tomllib.loads(text)
    builder = cfg["strategies"]["builder"]
    reordered = "\n".join(f"{k} = {v!r}" if not isinstance(v, str) else f'{k} = "{v}"'
                          for k, v in reversed(list(builder.items())))
    start = text.index("[strategies.builder]")
    end = text.index("[", start + 1)
    path = tmp_path / "captain-action.toml"
    path.write_text(text[:start] + "[strategies.builder]\n" + reordered + "\n\n" + text[end:])
    kw = dict(players=3, seed=5, strategies=["builder", "random", "random"])
    default = simbalance.simulate("captain-action", 3000, **kw).records
    moved = simbalance.simulate("captain-action", 3000, config=path, **kw).records
    assert (default == moved).all()


def test_a_config_missing_a_parameter_is_a_one_line_error(tmp_path):
    import simbalance
    from simbalance.core.config import CONFIG_DIR

    text = (CONFIG_DIR / "captain-action.toml").read_text()
    start = text.index("[strategies.builder]")
    line_start = text.index("pair_weight", start)
    line_end = text.index("\n", line_start)
    path = tmp_path / "captain-action.toml"
    path.write_text(text[:line_start] + text[line_end + 1:])
    with pytest.raises(ConfigError, match=r"strategies.builder: missing parameter 'pair_weight'; it needs: take_gain, pair_weight"):
        simbalance.simulate("captain-action", 10, config=path)


# A parameter that names a strategy (search players' ``rollout``): written as that strategy's id and
# its parameters, after the strategy's own numbers.
SEARCHING = {**ENGINE, "search": -64}
SEARCH_PARAMS = {**PARAMS, "search": ("budget", "rollout")}
SEARCH_CFG = {**CFG, "strategies": {**CFG["strategies"], "search": {"idea": "s", "budget": 10.0, "rollout": "eager"}},
              "presets": {**CFG["presets"], "search-5": {"base": "search", "idea": "s5", "budget": 5.0,
                                                         "rollout": "random"}}}


def test_a_parameter_naming_a_strategy_becomes_its_id_and_parameters():
    lineup = resolve_lineup(SEARCH_CFG, SEARCHING, SEARCH_PARAMS, 3, ["search", "search-5", "greedy"])
    assert lineup.slot_strategy.tolist() == [-64, -64, 1]
    assert lineup.slot_params[0, :4].tolist() == [10.0, 1.0, 1.0, 9.0]  # budget, greedy's id, eager's a and b
    assert lineup.slot_params[1, :3].tolist() == [5.0, 0.0, 0.5]  # budget, random's id, its call


@pytest.mark.parametrize("change, message", [
    ({"rollout": "nope"}, "strategies.search.rollout = 'nope': not a strategy of this game"),
    ({"rollout": "search"}, "names a strategy that itself names one"),
    ({"rollout": 1.0}, "strategies.search.rollout = 1.0: expected a strategy's name"),
])
def test_bad_strategy_references(change, message):
    table = {**SEARCH_CFG["strategies"]["search"], **change}
    cfg = {**SEARCH_CFG, "strategies": {**SEARCH_CFG["strategies"], "search": table}, "presets": CFG["presets"]}
    if isinstance(change["rollout"], float):  # a preset must keep the type of its base's parameter
        cfg = {**SEARCH_CFG, "presets": {"s": {"base": "search", "rollout": 1.0}}}
        message = "presets.s.rollout = 1.0: expected a strategy's name"
    with pytest.raises(ConfigError, match=message):
        resolve_lineup(cfg, SEARCHING, SEARCH_PARAMS, 2, ["search", "s" if "s" in cfg["presets"] else "search"])


def test_only_the_last_parameter_names_a_strategy():
    params = {**PARAMS, "search": ("rollout", "budget")}
    with pytest.raises(ConfigError, match="only a strategy's last parameter may name a strategy"):
        resolve_lineup(SEARCH_CFG, SEARCHING, params, 2, ["search", "greedy"])
