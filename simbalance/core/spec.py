"""The two things a game gives simbalance: ``GameSpec`` (who it is) and ``Engine`` (how it plays).

A game package ``simbalance/games/<name>/`` follows one file template (docs/architecture.md):

- ``__init__.py`` defines ``SPEC = GameSpec.of_package(__name__, ...)``. It stays light: no numba, so ``simbalance
  games`` lists every game without compiling any.
- ``engine.py`` defines ``ENGINE = Engine(...)``: the contract below, filled in. ``SPEC.load()``
  imports it (and with it the compiled kernel).

Every field of ``Engine`` has one meaning and one signature; a game without a part leaves its hook
``None`` and the part is absent from its reports (no discovery by ``hasattr`` or ``inspect``). Hooks
get everything they need as arguments: an engine keeps no module-level state between calls.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from simbalance.core.strategy_ids import is_search_id

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

DEFAULT_CHUNK = 1 << 16

# A report hook sees the games (one row per game: the records as a DataFrame), the player count
# and the resolved config; the figures hook also gets the summary the summarize hook made.
Summarize = Callable[["pd.DataFrame", int, dict], dict]
Figures = Callable[["pd.DataFrame", int, dict, dict], "dict[str, Figure]"]
PairedMetrics = Callable[["pd.DataFrame", int, dict], "dict[str, tuple[str, Any]]"]
Replay = Callable[[Any, int], "list[str]"]  # (plan, game index) -> the game in words
Trace = Callable[[Any, int], "tuple[np.ndarray, np.ndarray]"]  # (plan, game) -> (record, event log)


@dataclass(frozen=True)
class Cards:
    """The card-impact table: which cards each seat had, and what they are called.

    ``labels(config) -> (labels, groups)``: one label per card id, and named groups of card ids.
    ``masks(games, players, config) -> {kind: [one uint64 array per seat]}``: per game and seat the
    bit mask of the cards the seat held (kind: e.g. ``"dealt"``).
    """

    labels: Callable[[dict], tuple[list[str], dict[str, list[int]]]]
    masks: Callable[[pd.DataFrame, int, dict], dict[str, list[np.ndarray]]]


@dataclass(frozen=True)
class UserStrategy:
    """Strategies written by a user (``--strategy-file``): ``kernel(fn)`` builds a kernel in which
    ``fn`` decides for the seats named ``plugin``; ``doc`` is the decision signature ``fn`` must have;
    ``sample(players)``: decisions as the game hands them to ``fn`` (argument tuples), on which the
    probe calls it before it is trusted (core/probe.py)."""

    kernel: Callable[[Callable], Callable]
    doc: str
    sample: Callable[[int], list[tuple]]


@dataclass(frozen=True)
class Resumable:
    """A game that can be stopped at any decision, copied, and played on (docs/architecture.md,
    "Resumable state"): what search players and the contract test build on.

    All but ``context`` and ``max_options`` are ``@njit`` functions of ``play_nb.py``:
    - ``context(*prepared) -> ctx``: the game's read-only arrays (a tuple) from ``prepare``'s output.
    - ``new_state(ctx) -> state``: a blank state (a tuple of arrays, the random stream among them).
    - ``start(ctx, state, seed, game)``: deal game ``game`` of ``seed`` into ``state`` and play on
      to the first decision (or the end).
    - ``to_move(ctx, state) -> int``: the seat whose decision is pending; -1 once the game is over.
    - ``legal_options(ctx, state, options) -> int``: write the pending decision's options (int64
      codes, the game's own) into ``options`` (length ``max_options(ctx)``) and return how many.
    - ``apply_option(ctx, state, option)``: take one listed option and play on to the next decision.
    - ``play_out(ctx, state, seat_sid, seat_prm, max_decisions) -> int``: let the seats'
      strategies (ids and parameter rows, as the kernel gives them) decide, at most
      ``max_decisions`` times (-1: to the end); returns the decisions made.
    - ``clone(state) -> state``: an independent copy (the random stream too).
    - ``check(ctx, state) -> int``: the engine's own validation (0: every invariant holds).
    - ``write_record(ctx, state, out, i)``: the finished game's record into ``out[i]``, as the kernel
      writes it (the kernel's strategy and game fields excepted: the kernel writes those itself).
    The kernel plays every game as ``start``, ``play_out(..., -1)``, ``write_record``: the resumable
    path and the fast path are one code.
    """

    context: Callable[..., tuple]
    max_options: Callable[[tuple], int]
    new_state: Callable
    start: Callable
    to_move: Callable
    legal_options: Callable
    apply_option: Callable
    play_out: Callable
    clone: Callable
    check: Callable
    write_record: Callable

    @classmethod
    def of_game(cls, play, state, validate) -> Resumable:
        """The steps where the game template puts them (docs/architecture.md, "A game's files"):
        ``play_nb`` (context, max_options, start, to_move, legal_options, apply_option, play_out,
        write_record), ``state_nb`` (new_state, clone), ``validate_nb`` (check)."""
        found = {name: getattr(play, name) for name in ("context", "max_options", "start", "to_move", "legal_options",
                                                         "apply_option", "play_out", "write_record")}
        found.update(new_state=state.new_state, clone=state.clone, check=validate.check)
        return cls(**found)


@dataclass(frozen=True)
class Search:
    """What the search players (``mcts``, ``flat``: simbalance/players, docs/strategies.md) need
    of a game beyond ``Resumable``; the kernel plays them, these are for tests and tools.

    - ``determinize(ctx, state, seat, rng)``: for the seat to move, shuffle every card ``seat``
      cannot see among the places it cannot see (each keeping its size, everything public kept) and re-key the state's
      own random stream from ``rng`` (a ``uint64[1]``, the search's stream).
    - ``outcome(ctx, state) -> int``: a finished game's winners as a bit mask (0: none).
    - ``evaluate(ctx, state, rew)``: each seat's share of the win as the game's evaluation estimates
      it now, into ``rew`` (float64, shares from 0 to 1 summing to at most 1): a play-out cut at its
      depth.
    - ``features(ctx, state, seat, out)``: seat ``seat``'s features (``feature_names``, the game's
      ``search_nb.FEATURES``) into ``out`` (float64), from public information and what ``seat``
      itself sees, never another seat's hidden cards: the fitted evaluation's inputs (a conditional
      logit, players/common_nb.fitted_shares; fitted by ``simbalance fit-eval``, docs/strategies.md);
      ``feature_signs`` (``search_nb.FEATURE_SIGNS``): per feature, the sign its weight may take
      (1: at least 0, -1: at most 0, 0: either).
    - ``kernel``: the engine's kernel with the search players (the kernel's signature, and the
      fitted evaluation's weights last: an empty float64 array scores cut play-outs by
      ``evaluate``); a run with a search
      seat plays it (``Engine.kernel_for``), the others the engine's own, whose cold compile stays
      free of the search.
    - ``policy(ctx, state, sid, params) -> option``: the option heuristic ``sid`` takes at the
      pending decision (the search's tie-break: its rollout strategy's own choice).
    - ``observe(ctx, state, option, seat) -> code``: what ``seat`` sees of ``option``, the move the
      seat to move takes in ``state``: the option itself when it sees the move, the same code for
      options it cannot tell apart (a sign put face down). ``mcts`` builds its tree on what the
      searching seat observes (docs/strategies.md, "Hidden moves"); None (a ``search_nb`` without
      one): every move is seen (``players.common_nb.fully_observed``).
    - ``new_scratch(ctx, slot_strategy, slot_params, weights)``: the search's preallocated scratch
      (``weights``: the fitted evaluation's, empty for none).
    - ``choose(ctx, state, seat_sid, seat_prm, seed, game, decision, scratch) -> option``: the
      option the search seat to move takes, as the kernel asks for it (decision: the game's search
      decisions so far).
    - ``record_positions``: ``simbalance fit-eval``'s recording kernel with the game's steps named
      once (``play_nb.record_positions``, calling players/fit_eval_nb.record_positions without its
      first six arguments), which numba caches; None: the generic kernel, compiled in every process
      (players.game_kernel).
    """

    kernel: Callable
    determinize: Callable
    outcome: Callable
    evaluate: Callable
    policy: Callable
    new_scratch: Callable
    choose: Callable
    features: Callable
    feature_names: tuple[str, ...]
    feature_signs: tuple[int, ...]
    observe: Callable | None = None
    record_positions: Callable | None = None

    @classmethod
    def of_game(cls, play, search, **replaced) -> Search:
        """The search's parts where the game template puts them: ``play_nb`` (search_kernel,
        new_search_scratch, search_option, record_positions: the kernel's side) and ``search_nb`` (determinize,
        outcome, evaluate, features, FEATURES, policy: what a seat may know and how a position is
        scored); ``replaced`` names a part that lives elsewhere."""
        found = dict(kernel=play.search_kernel, new_scratch=play.new_search_scratch, choose=play.search_option)
        found.update({name: getattr(search, name) for name in ("determinize", "outcome", "evaluate", "features",
                                                                "policy") if name not in replaced})
        if "observe" not in replaced:
            found["observe"] = getattr(search, "observe", None)
        if "record_positions" not in replaced:
            found["record_positions"] = getattr(play, "record_positions", None)
        if "feature_names" not in replaced:
            found["feature_names"] = tuple(search.FEATURES)
        if "feature_signs" not in replaced:
            found["feature_signs"] = tuple(int(sign) for sign in search.FEATURE_SIGNS)
        return cls(**{**found, **replaced})


SELECTION_UNSAID = "a player's choices may decide which cards it holds (the game does not say otherwise)"


@dataclass(frozen=True)
class CardSwap:
    """What ``simbalance card-value`` needs of a game beyond ``Resumable`` (docs/card_value.md): the
    cards a seat holds, and the swap of one of them for a card the seat could have held instead.
    All but the names and words are ``@njit`` functions of the game's ``card_value_nb.py``; card ids
    are those ``Engine.cards.labels`` numbers.

    - ``held(ctx, state, seat, out) -> n``: the card ids ``seat`` holds now into ``out`` (int64,
      at least the deck's size); what "holding" means is the game's (``holding``, in words).
    - ``swap(ctx, state, seat, card, rng) -> int``: replace ``card`` in ``seat``'s holding by a card
      drawn uniformly (from ``rng``, a ``uint64[1]``) among those the seat could have held instead
      (``swapped``, in words: the cards unseen from its view, each allowed by the rules there), which
      takes ``card``'s place where it was, so that every zone keeps its count. Returns the card
      swapped in, -1 when there is none (the state is then unchanged).
    - ``rekey(state, rng)``: key the state's own random stream from ``rng`` (its next word), so that
      two copies of a game play on with the same draws (common random numbers).
    - ``outcome(ctx, state) -> int``: a finished game's winners as a bit mask (0: none).
    - ``zones(ctx, state, out) -> n``: the number of cards in each zone (hands, piles, decks) into
      ``out``: what a swap must leave unchanged (the tests check it).
    - ``option_kind(ctx, state, option) -> int``: the kind of one of the pending decision's options,
      an index into ``decision_kinds`` (the game's names: draw, discard, call; land, attack,
      exchange ...): a decision that offers options of several kinds is valued per kind.
    - ``labels(config) -> [label per card id]``: for a game without ``Engine.cards`` (no
      card-impact table), the cards' names; None: ``Engine.cards``' labels.
    - ``selection``: how a player's own choices can link holding a card to winning, in words ("players
      choose which cards to keep"), or None where the deal and the play hand cards out blind
      (find-dr-evil: a random deal, blind picks). card-value says the card-impact table is swayed by
      "who gets to hold it" only where there is such a link (docs/card_value.md). A game that does
      not say is taken to have one.
    - ``value_cards``, ``value_decisions``: the card-value kernels with the game's steps named once
      (``card_value_nb.value_cards`` and ``value_decisions``, calling those of
      players/card_value_nb.py without their leading step arguments), which numba caches; None:
      the generic kernel, compiled in every process (players.game_kernel).
    """

    held: Callable
    swap: Callable
    rekey: Callable
    outcome: Callable
    zones: Callable
    option_kind: Callable
    decision_kinds: tuple[str, ...]
    holding: str
    swapped: str
    labels: Callable[[dict], list[str]] | None = None
    selection: str | None = SELECTION_UNSAID
    value_cards: Callable | None = None
    value_decisions: Callable | None = None

    @classmethod
    def of_game(cls, module, selection: str | None = SELECTION_UNSAID) -> CardSwap:
        """The hooks where the game template puts them: ``card_value_nb`` (held, swap, rekey,
        outcome, zones, option_kind, DECISION_KINDS, HOLDING, SWAPPED; ``card_labels`` in a game
        without ``Engine.cards``; the cached ``value_cards`` and ``value_decisions`` where the game
        has them); ``selection`` as the engine says it."""
        found = {name: getattr(module, name) for name in ("held", "swap", "rekey", "outcome", "zones",
                                                           "option_kind")}
        return cls(**found, decision_kinds=tuple(module.DECISION_KINDS), holding=module.HOLDING,
                   swapped=module.SWAPPED, labels=getattr(module, "card_labels", None), selection=selection,
                   value_cards=getattr(module, "value_cards", None),
                   value_decisions=getattr(module, "value_decisions", None))


@dataclass(frozen=True)
class Engine:
    """What the runner, the studies and the reports need from a game's engine.

    - ``version``: bumped only when game behaviour changes (the pinned digests say when).
    - ``record_dtype``: ``simbalance.core.records.record_dtype([...the game's fields...])``.
    - ``strategies``: strategy name -> integer id inside the kernel. Each name has a
      ``[strategies.<name>]`` table in the game's config: ``idea`` (one line) and its parameters.
    - ``strategy_params``: per strategy, its parameter names in the order the kernel reads them from
      a seat's parameter vector; configs bind to them by name.
    - ``prepare(config, players, validate) -> tuple``: check the resolved config (raise
      ConfigError), refusing one under which no game can be played (a deck that cannot deal the
      players a game, a deal that decides every game by itself: the error says why), and return
      the kernel's extra arguments (numpy arrays and scalars, never Python objects). With
      ``validate`` the kernel checks its invariants at every step and ends a game that breaks one
      with ``end = END_INVALID``.
    - ``kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, *prepared)``: an
      ``@njit(cache=True, nogil=True)`` function that plays the block ``lo .. hi - 1`` of a chunk:
      game ``first_game + i`` into ``out[i]``. Game ``g`` seats the strategy slots
      ``lineups[g % len(lineups)]`` and draws all its randomness from ``seed_game(seed, g)``. The
      runner plays a chunk's blocks on its threads (core/runner.py).
    - ``chunk_size``: games per chunk (large enough to amortise the call, small enough for a
      progress bar and checkpoints).
    - ``has_decisions``: False for a game of pure luck (the skill study says so instead of measuring).
    - ``summarize``, ``figures``, ``paired_metrics``, ``cards``: the report's game-specific parts.
      ``paired_metrics`` gives per-game values (name -> (kind, array)) that ``compare`` tests in pairs.
    - ``replay`` and ``trace``: one game again, in words and as (record, event log).
    - ``user_strategy``: a user's own strategy (``--strategy-file``), for the games that take one.
    - ``resumable``: the game as resumable steps (``Resumable``).
    - ``progress``: what the whole-game metrics measure per seat, in words (docs/metrics.md,
      "Whole-game metrics"): the measure the kernel hands core/whole_game.py at every round, higher
      is better (e.g. "cards left, fewer is better"). None: the engine tracks no progress.
    - ``stalemate_reasons``: stalemate reason code (the record's ``stalemate_reason``, 1 and up)
      -> (name, what happened), e.g. ``{2: ("dr-evil-chain", "Dr. Evil answered with Dr. Evil: ...")}``;
      the summary counts stalemates by these names.
    - ``search``: the game's part of the search players (``Search``); a game with it lists ``mcts``
      and ``flat`` among its strategies (ids simbalance.players.SEARCH_IDS).
    - ``card_swap``: the card-value study's hooks (``CardSwap``); None: ``card-value`` refuses the game.
    - ``module``: the dotted path of the engine module (a Dask worker imports it by this name).
    """

    version: int
    record_dtype: np.dtype
    strategies: Mapping[str, int]
    strategy_params: Mapping[str, tuple[str, ...]]
    prepare: Callable[[dict, int, bool], tuple]
    kernel: Callable
    module: str
    chunk_size: int = DEFAULT_CHUNK
    has_decisions: bool = True
    summarize: Summarize | None = None
    figures: Figures | None = None
    paired_metrics: PairedMetrics | None = None
    cards: Cards | None = None
    replay: Replay | None = None
    trace: Trace | None = None
    user_strategy: UserStrategy | None = None
    resumable: Resumable | None = None
    progress: str | None = None
    stalemate_reasons: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    search: Search | None = None
    card_swap: CardSwap | None = None

    @classmethod
    def of_game(cls, engine, play, state, validate, search=None, **parts) -> Engine:
        """A game's engine from its modules, each part where the game template puts it
        (docs/architecture.md, "A game's files"): from the engine module ``engine``, its
        ``ENGINE_VERSION``, ``RECORD_DTYPE``, ``STRATEGIES``, ``STRATEGY_PARAMS``, ``CHUNK_SIZE``,
        ``PROGRESS``, ``STALEMATE_REASONS`` and ``prepare``; ``play_nb.kernel``; the resumable steps
        (``Resumable.of_game``) and, for a game with search players, ``Search.of_game(play,
        search)``. ``parts``: the fields only some games have (the report's and the replay's hooks,
        ``cards``, ``user_strategy``, ``has_decisions``), by name."""
        found = dict(version=engine.ENGINE_VERSION, record_dtype=engine.RECORD_DTYPE, strategies=engine.STRATEGIES,
                     strategy_params=engine.STRATEGY_PARAMS, prepare=engine.prepare, kernel=play.kernel,
                     module=engine.__name__, chunk_size=engine.CHUNK_SIZE, progress=engine.PROGRESS,
                     stalemate_reasons=engine.STALEMATE_REASONS, resumable=Resumable.of_game(play, state, validate))
        if search is not None:
            found["search"] = Search.of_game(play, search)
        return cls(**found, **parts)

    def is_search(self, name: str) -> bool:
        """True for a search player's strategy name (``mcts``, ``flat``), False for a heuristic."""
        return is_search_id(self.strategies[name])

    def searches(self, lineup) -> bool:
        """True when a slot of ``lineup`` (core/lineup.Lineup) is a search player."""
        return any(is_search_id(sid) for sid in lineup.slot_strategy)

    def kernel_for(self, lineup):
        """The kernel that plays ``lineup``: with search players ``search.kernel``, else ``kernel``."""
        if self.search is not None and self.searches(lineup):
            return self.search.kernel
        return self.kernel

    @property
    def heuristics(self) -> list[str]:
        """The strategy names that are not search players."""
        return [name for name in self.strategies if not self.is_search(name)]

    def __post_init__(self):
        missing = set(self.strategies) ^ set(self.strategy_params)
        if missing:
            raise TypeError(f"{self.module}: strategies and strategy_params disagree on {sorted(missing)}")
        if self.chunk_size < 1:
            raise TypeError(f"{self.module}: chunk_size must be at least 1")
        from simbalance.core.records import MAX_REASONS

        if any(not 1 <= code < MAX_REASONS for code in self.stalemate_reasons):
            raise TypeError(f"{self.module}: stalemate reason codes run from 1 to {MAX_REASONS - 1}")


def load_engine(module: str) -> Engine:
    """The ``ENGINE`` of an engine module, checked to be an ``Engine``."""
    engine = getattr(importlib.import_module(module), "ENGINE", None)
    if not isinstance(engine, Engine):
        raise TypeError(f"{module} defines no ENGINE = Engine(...)")
    return engine


BUILT_IN = "built-in"  # GameSpec.origin of the games inside simbalance


@dataclass(frozen=True)
class GameSpec:
    """Who a game is. A built-in game's package defines ``SPEC`` in its ``__init__``; a plug-in game
    (a package installed on its own, declaring an entry point in the group ``simbalance.games``)
    does the same in its own package (games/registry.py)."""

    id: str  # CLI and API name, e.g. "find-dr-evil"
    title: str
    summary: str  # one line for `simbalance games`
    min_players: int
    max_players: int
    engine: str  # dotted module path of the engine module
    length_unit: str = "turns"  # what `length` counts: "picks", "turns", ...
    # The folder of the game's config, variants, presets and baselines: None for the built-in games
    # (core/config.CONFIG_DIR); a plug-in's own, inside its package (the registry fills in
    # ``<package>/configs`` when a plug-in leaves it None).
    config_dir: str | None = None
    origin: str = BUILT_IN  # "built-in", or "plug-in <distribution> <version>" (set by the registry)

    @classmethod
    def of_package(cls, package: str, title: str, summary: str, players: tuple[int, int], **more) -> GameSpec:
        """The spec of the game in ``package`` (its ``__name__``): the id is the package's last name
        with dashes (``captain_future`` is ``captain-future``) and the engine its ``engine`` module,
        so neither is written twice."""
        game_id = package.rpartition(".")[2].replace("_", "-")
        return cls(id=game_id, title=title, summary=summary, min_players=players[0], max_players=players[1],
                   engine=f"{package}.engine", **more)

    @property
    def builtin(self) -> bool:
        return self.origin == BUILT_IN

    def load(self) -> Engine:
        """The game's engine. First drops this game's compiled kernels if any source they are built
        from changed (core/jit_cache.py), then imports the engine module (and its kernels)."""
        self.check_cache()
        return load_engine(self.engine)

    def check_cache(self) -> None:
        """Drop this game's compiled kernels if a source they were built from changed (once per
        process: a sweep plans hundreds of runs of one game)."""
        from pathlib import Path

        from simbalance.core.jit_cache import PACKAGE_DIR

        package = importlib.import_module(self.engine.rpartition(".")[0])
        for folder in (Path(package.__file__).parent, PACKAGE_DIR / "core", PACKAGE_DIR / "analysis"):
            _check_folder(folder)  # the game's own, and the jitted statistics every run uses


@functools.cache
def _check_folder(folder) -> None:
    from simbalance.core.jit_cache import drop_stale_cache

    drop_stale_cache(folder)
