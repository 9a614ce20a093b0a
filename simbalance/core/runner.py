"""Play games in chunks, on local threads or on a Dask cluster, in game-index order.

The runner knows nothing about any game. A run is a list of chunks of consecutive game indices;
each chunk is played on this machine's threads or on a Dask worker. On a machine, a chunk is split
into blocks of consecutive games, and each block is one call of the engine's kernel (compiled
``nogil=True``) on a thread of a pool: the kernels hold no GIL, so the threads play side by side.
Chunks come back in index order whatever the backend, so everything downstream (the
records, the merged statistics, a checkpoint) is the same for the same seed: game ``g`` is the same
game whatever the chunk size, thread count or machine, because its randomness is keyed by
``(seed, g)``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING

import numba
import numpy as np

from simbalance.core.errors import SimbalanceError
from simbalance.core.lineup import Lineup

if TYPE_CHECKING:
    from simbalance.core.spec import Engine

MAX_GAMES = 10**12  # the most games one run may play (--n, a precision run's maximum): see docs/scale.md
MAX_GAMES_TEXT = "10^12 (1e12)"
DASK_TIMEOUT_S = 60.0  # the longest a Dask run waits for a worker, or for its next chunk
BACKENDS = ("local", "dask")

ProgressFn = Callable[[int, int, float], None]  # (games done, total, elapsed seconds)
ProgressFactory = Callable[[str], ProgressFn]  # a run's label -> its display (studies/run.play)


def max_threads() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(threads: int | None) -> int:
    limit = max_threads()
    if threads is None:
        return limit
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise SimbalanceError(f"threads = {threads!r}: allowed 1 to {limit} on this machine")
    return threads


# The most games in one chunk: a chunk's records are held in memory at once (10^7 records of a few
# hundred bytes: a few GB), and its progress and checkpoint come only when it is done.
MAX_CHUNK = 10**7


def chunk_size_for(engine: Engine, chunk_size: int | None) -> int:
    chunk = int(chunk_size or engine.chunk_size)
    if chunk < 1:
        raise SimbalanceError(f"chunk_size = {chunk_size!r}: must be at least 1")
    return chunk


# A precision run (--precision) stops at the first chunk boundary where its target is met, so a
# chunk as large as the engine's (65,536 captain-future games) overshoots a target that 9,000 games
# meet. Its chunks start at RAMP_FIRST games and grow to the engine's chunk by at most RAMP_SHARE of
# the games before each: the run stops within 10% of the games it needs (or RAMP_FIRST games, when it
# needs fewer than ten times that). Which chunk plays a game changes nothing in it.
RAMP_FIRST = 100
RAMP_SHARE = 0.1


def chunk_sizes(n: int, chunk: int, ramp: bool = False) -> Iterator[int]:
    """The size of every chunk of a run of ``n`` games: ``chunk`` each, the last what is left; with
    ``ramp`` (a precision run) small chunks first, growing to ``chunk`` (RAMP_FIRST, RAMP_SHARE)."""
    done = 0
    while done < n:
        size = min(chunk, max(RAMP_FIRST, int(RAMP_SHARE * done))) if ramp else chunk
        size = min(size, n - done)
        yield size
        done += size


def chunk_bounds(n: int, chunk: int, first_game: int = 0, first_chunk: int = 0,
                 ramp: bool = False) -> Iterator[tuple[int, int]]:
    """(first game, size) of every chunk of a run of ``n`` games, from chunk ``first_chunk`` on.

    Lazy: one tuple at a time, so a run's bookkeeping does not grow with ``n``. Without ``ramp`` the
    boundaries are those of ``range(0, n, chunk)``; with it, those of ``chunk_sizes``: the same chunks
    whatever the chunk is started from."""
    if not ramp:
        for start in range(first_chunk * chunk, n, chunk):
            yield first_game + start, min(chunk, n - start)
        return
    start = 0
    for index, size in enumerate(chunk_sizes(n, chunk, ramp)):
        if index >= first_chunk:
            yield first_game + start, size
        start += size


def games_in_chunks(n: int, chunk: int, chunks: int, ramp: bool = False) -> int:
    """How many games the first ``chunks`` chunks of a run of ``n`` games hold."""
    if not ramp:
        return min(n, chunks * chunk)
    return sum(itertools.islice(chunk_sizes(n, chunk, ramp), chunks))


BLOCKS_PER_THREAD = 8  # blocks per thread in a chunk: uneven game lengths still even out
PROGRESS_BLOCKS = 16  # at least this many blocks in a chunk whose progress is shown


def block_spans(size: int, threads: int, blocks: int | None = None) -> list[tuple[int, int]]:
    """The blocks ``(lo, hi)`` a chunk of ``size`` games is played in: one on one thread, else
    about ``BLOCKS_PER_THREAD`` per thread (or ``blocks``, when progress within the chunk is
    wanted). Which block plays a game changes nothing in it (its randomness is keyed by its
    index), so the records are the same for any split."""
    if blocks is None:
        blocks = 1 if threads <= 1 else threads * BLOCKS_PER_THREAD
    blocks = max(1, min(size, blocks))
    return [((b * size) // blocks, ((b + 1) * size) // blocks) for b in range(blocks)]


@functools.cache
def _thread_pool(threads: int) -> ThreadPoolExecutor:
    """One pool per thread count, kept for the process: a run calls it once per chunk."""
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="simbalance-kernel")


def play_chunk(engine: Engine, lineup: Lineup, prepared: tuple, seed: int, first: int, size: int,
               threads: int, kernel=None, out: np.ndarray | None = None,
               on_games: Callable[[int], None] | None = None) -> np.ndarray:
    """Play games ``first .. first + size - 1`` on this machine and return their records (written
    into ``out`` when given: no copy). A chunk of no games still calls the kernel once: that
    compiles it (or loads it from the cache).

    ``on_games(k)``: called on this thread each time another ``k`` games of the chunk are done, so
    that a progress display moves within a long chunk (the chunk is then played in
    ``PROGRESS_BLOCKS`` blocks or more, also on one thread)."""
    kernel = kernel or engine.kernel_for(lineup)  # with search players, the search kernel
    if out is None:
        out = np.zeros(size, dtype=engine.record_dtype)
    # Kernels write `out[i].field`; as plain Python (NUMBA_DISABLE_JIT=1) that needs a recarray view,
    # and one thread: plain Python holds the GIL.
    plain = numba.config.DISABLE_JIT
    target = out.view(np.recarray) if plain else out
    threads = 1 if plain else threads
    spans = block_spans(size, threads, _blocks_wanted(threads, on_games))
    if threads > 1 and len(spans) > 1:
        _wait_for_blocks(_start_blocks(kernel, out, spans, threads, _kernel_args(lineup, prepared, seed, first)),
                         on_games)
        return out
    args = _kernel_args(lineup, prepared, seed, first)
    # As plain Python, numpy warns on the uint64 wrap-around the generator relies on.
    with np.errstate(over="ignore") if plain else contextlib.nullcontext():
        for lo, hi in spans if size else [(0, 0)]:
            kernel(target, np.int64(lo), np.int64(hi), *args)
            if on_games is not None and hi > lo:
                on_games(hi - lo)
    return out


def _blocks_wanted(threads: int, on_games: Callable[[int], None] | None) -> int | None:
    """Blocks per chunk when progress within the chunk is shown (None: block_spans' default)."""
    return None if on_games is None else max(PROGRESS_BLOCKS, threads * BLOCKS_PER_THREAD)


def _kernel_args(lineup: Lineup, prepared: tuple, seed: int, first: int) -> tuple:
    return (np.int64(first), np.uint64(seed), lineup.seats, lineup.slot_strategy, lineup.slot_params, *prepared)


def _start_blocks(kernel, out: np.ndarray, spans: list[tuple[int, int]], threads: int, args: tuple) -> dict:
    """Queue a chunk's blocks on the pool: {future: games in the block}."""
    pool = _thread_pool(threads)
    return {pool.submit(kernel, out, np.int64(lo), np.int64(hi), *args): hi - lo for lo, hi in spans}


def _wait_for_blocks(blocks: dict, on_games: Callable[[int], None] | None) -> None:
    for block in as_completed(blocks):
        block.result()  # an exception in a block is raised here
        if on_games is not None:
            on_games(blocks[block])


def _abandon(blocks: dict) -> None:
    """A chunk queued but not wanted any more (the run stopped or failed): drop the blocks not begun
    and wait for those in play, which write into its records."""
    for block in blocks:
        block.cancel()
    for block in blocks:
        if not block.cancelled():
            with contextlib.suppress(Exception):
                block.result()


def _play_chunks_ahead(engine, lineup, prepared, seed, chunks, threads, stop, kernel, target, on_games):
    """On several threads: each chunk's blocks are queued before the chunk before it is waited for,
    so no thread idles at a chunk's end while the last blocks finish (a chunk's games are still
    yielded in order, and once all are done). ``stop`` is asked before a chunk is queued."""
    kernel = kernel or engine.kernel_for(lineup)
    wanted = _blocks_wanted(threads, on_games)

    def start(first: int, size: int):
        out = target[first : first + size] if target is not None else np.zeros(size, dtype=engine.record_dtype)
        return out, _start_blocks(kernel, out, block_spans(size, threads, wanted), threads,
                                  _kernel_args(lineup, prepared, seed, first))

    todo = iter(chunks)
    queued: deque = deque()
    more = True  # chunks left to queue, and no stop asked for
    try:
        while True:
            while more and len(queued) < 2:  # the chunk to wait for, and the one after it
                nxt = None if stop is not None and stop() else next(todo, None)
                if nxt is None:
                    more = False
                else:
                    queued.append(start(*nxt))
            if not queued:
                return
            out, blocks = queued.popleft()
            _wait_for_blocks(blocks, on_games)
            yield out
    finally:
        for _, blocks in queued:
            _abandon(blocks)


def _play_chunk_on_worker(engine_module: str, lineup: Lineup, prepared: tuple, seed: int, first: int,
                          size: int) -> np.ndarray:
    """What a Dask worker runs: import the engine there and play one chunk on the worker's cores."""
    engine = importlib.import_module(engine_module).ENGINE
    return play_chunk(engine, lineup, prepared, seed, first, size, max_threads())


def play_chunks(
    engine: Engine,
    lineup: Lineup,
    prepared: tuple,
    seed: int,
    chunks: Iterable[tuple[int, int]],
    *,
    threads: int,
    backend: str = "local",
    scheduler: str | None = None,
    stop: Callable[[], bool] | None = None,
    kernel=None,
    target: np.ndarray | None = None,
    timeout: float = DASK_TIMEOUT_S,
    on_games: Callable[[int], None] | None = None,
    label: str | None = None,
) -> Iterator[np.ndarray]:
    """The records of each chunk, in chunk order. ``stop`` is asked between chunks (on Dask, also
    while waiting). With ``target`` (records indexed by game), chunks are written straight into it.
    ``timeout``: on Dask, how long to wait for a worker to join or for the next chunk.
    ``on_games(k)``: locally, another ``k`` games of the chunk in play are done (see play_chunk).
    ``label``: the run plays code from outside simbalance (a plug-in game, a strategy file), named so
    in messages: its chunks are watched (``contained``)."""
    if label is not None:
        source = iter(chunks)
        waiting: deque = deque()  # bounds looked at (to name the chunk to come), not yet handed on
        pulled: deque = deque()  # bounds handed on to be played, oldest first: the next to come back

        def pulling():
            while (bounds := waiting.popleft() if waiting else next(source, None)) is not None:
                pulled.append(bounds)
                yield bounds

        def upcoming() -> tuple[int, int]:
            if not pulled and not waiting and (bounds := next(source, None)) is not None:
                waiting.append(bounds)
            return pulled[0] if pulled else waiting[0] if waiting else (0, 0)

        yield from contained(play_chunks(engine, lineup, prepared, seed, pulling(), threads=threads, backend=backend,
                                         scheduler=scheduler, stop=stop, kernel=kernel, target=target,
                                         timeout=timeout, on_games=on_games),
                             upcoming, pulled, lineup, label)
        return
    if backend == "local" and threads > 1 and not numba.config.DISABLE_JIT:
        yield from _play_chunks_ahead(engine, lineup, prepared, seed, chunks, threads, stop, kernel, target, on_games)
        return
    if backend == "local":
        for first, size in chunks:
            if stop is not None and stop():
                return
            out = target[first : first + size] if target is not None else None
            yield play_chunk(engine, lineup, prepared, seed, first, size, threads, kernel, out, on_games)
        return
    if backend != "dask":
        raise SimbalanceError(f"backend = {backend!r}: allowed {', '.join(BACKENDS)}")
    if kernel is not None and kernel is not engine.kernel_for(lineup):
        raise SimbalanceError("plug-in strategies run on the local backend only")
    yield from _play_chunks_dask(engine, lineup, prepared, seed, chunks, scheduler, stop, target, timeout)


class PluginFailure(SimbalanceError):
    """Code from outside simbalance failed while it played: one line naming it (issue 54 item 5)."""


# The longest game a plug-in may record, in its own unit: the aggregate counts lengths in a histogram
# as long as the longest game, so a record of 2^31 picks would take 16 GB (issue 54: 24 GB, then the
# OOM killer). The built-in games' caps stop far below it.
MAX_PLUGIN_LENGTH = 10**7


def contained(parts: Iterator[np.ndarray], upcoming: Callable[[], tuple[int, int]], pulled: deque, lineup: Lineup,
              label: str) -> Iterator[np.ndarray]:
    """The chunks of a run that plays code from outside simbalance (``label`` names it), watched:
    the guard hears when each chunk starts and ends (core/plugin_guard.py: a chunk that does not end
    is stopped there); an exception the code raises is one line naming it; every chunk's records are
    checked against their declared ranges (``record_problem``) before anything adds them up."""
    from simbalance.core import plugin_guard

    plugin_guard.in_play(label)
    parts = iter(parts)
    while True:
        first, size = upcoming()
        plugin_guard.chunk_started(first, size)
        try:
            part = next(parts)
        except StopIteration:
            plugin_guard.chunk_ended()
            return
        except (SimbalanceError, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 (the plug-in's code: its error, in one line)
            said = str(exc).splitlines()[0] if str(exc).strip() else "no message"
            raise PluginFailure(f"{label}: raised {type(exc).__name__}: {said} (while playing games {first:,} to "
                                f"{first + size - 1:,})") from None
        plugin_guard.chunk_ended()
        first, size = pulled.popleft() if pulled else (int(part["game"][0]) if len(part) else 0, len(part))
        problem = record_problem(part, first, lineup.seats.shape[1], len(lineup.slot_names))
        if problem:
            raise PluginFailure(f"{label}: {problem}; the run was stopped (games {first:,} to {first + size - 1:,})")
        yield part


def record_problem(part: np.ndarray, first: int, players: int, n_slots: int) -> str | None:
    """What is wrong with a chunk's records (games ``first ..``), checked against the ranges
    core/records.py declares for the common fields, or None: the game index, the winner and the
    winners' mask, the end code, the length (0 to MAX_PLUGIN_LENGTH), the seats' strategy slots and
    a stalemate's reason."""
    from simbalance.core.records import END_NAMES, MAX_REASONS

    def first_bad(name: str, bad: np.ndarray, allowed: str) -> str | None:
        where = np.flatnonzero(bad)
        if not len(where):
            return None
        i = int(where[0])
        value = part[name][i]
        shown = value.tolist() if hasattr(value, "tolist") else value
        return (f"game {first + i:,}'s record has {name} = {shown}, outside what the record allows ({allowed}): "
                "the engine wrote it wrong")

    checks = [
        ("game", part["game"] != first + np.arange(len(part)), f"the game's own index, {first:,} and up"),
        ("winner", (part["winner"] < -1) | (part["winner"] >= players), f"-1 to {players - 1}"),
        ("winners", part["winners"] >= (1 << players), f"a mask of the {players} seats' bits, below {1 << players}"),
        ("end", ~np.isin(part["end"], list(END_NAMES)), f"one of {sorted(END_NAMES)}"),
        ("length", (part["length"] < 0) | (part["length"] > MAX_PLUGIN_LENGTH), f"0 to {MAX_PLUGIN_LENGTH:,}"),
        ("strategy", ((part["strategy"][:, :players] < 0) | (part["strategy"][:, :players] >= n_slots)).any(axis=1),
         f"a strategy slot per seat, 0 to {n_slots - 1}"),
    ]
    if "stalemate_reason" in (part.dtype.names or ()):
        reason = part["stalemate_reason"]
        checks.append(("stalemate_reason", (reason < 0) | (reason >= MAX_REASONS), f"0 to {MAX_REASONS - 1}"))
    for name, bad, allowed in checks:
        problem = first_bad(name, bad, allowed)
        if problem:
            return problem
    return None


def _dask_client(scheduler: str | None, timeout: float):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimbalanceError("backend = 'dask' needs Dask: pip install 'simbalance[dask]'") from None
    if scheduler:
        try:
            client = Client(scheduler, timeout=f"{min(timeout, 10.0)}s")
        except (OSError, ValueError, TypeError) as exc:
            raise SimbalanceError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError) as exc:
            client.close()
            raise SimbalanceError(f"--scheduler {scheduler}: no Dask worker joined within {timeout:g} s "
                                  f"({type(exc).__name__})") from None
        return client, None
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def dask_place(scheduler: str | None) -> str:
    """Where the Dask work ran, as an error line names it."""
    return f"--scheduler {scheduler}" if scheduler else "the local Dask cluster"


def dask_lost(exc: Exception, where: str) -> Exception:
    """``exc`` as one line when it is Dask's own (a worker killed, a connection lost: KilledWorker,
    CommClosedError...), else ``exc`` itself (a chunk's own error, a game that raises: as on threads)."""
    if type(exc).__module__.split(".")[0] not in ("distributed", "tornado"):
        return exc
    return SimbalanceError(f"{where}: Dask lost the work ({type(exc).__name__}: {' '.join(str(exc).split())[:200]}); "
                           "run the command again")


def _wait_for(future, scheduler: str | None, timeout: float, stop: Callable[[], bool] | None):
    """A chunk's records, or None when ``stop`` asks to stop; a one-line error when no chunk came
    back within ``timeout`` (every worker gone, say)."""
    from dask.distributed import TimeoutError as DaskTimeout

    waited = 0.0
    where = dask_place(scheduler)
    while True:
        try:
            return future.result(timeout=1.0)
        except (DaskTimeout, TimeoutError):
            waited += 1.0
        except Exception as exc:  # a worker killed or a connection lost: Dask's own errors, in one line
            raise dask_lost(exc, where) from None
        if stop is not None and stop():
            return None
        if waited >= timeout:
            raise SimbalanceError(f"{where}: no chunk came back within {timeout:g} s; are its workers alive? "
                                  "(--dask-timeout sets the wait)")


def _play_chunks_dask(engine, lineup, prepared, seed, chunks, scheduler, stop, target,
                      timeout: float) -> Iterator[np.ndarray]:
    client, cluster = _dask_client(scheduler, timeout)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * workers  # chunks in flight: keeps every worker busy, bounds memory
        pending: deque = deque()
        todo = iter(chunks)

        def submit() -> bool:
            nxt = next(todo, None)
            if nxt is None:
                return False
            pending.append(client.submit(_play_chunk_on_worker, engine.module, lineup, prepared, seed,
                                         nxt[0], nxt[1], pure=False))
            return True

        while len(pending) < window and submit():
            pass
        while pending:
            records = _wait_for(pending.popleft(), scheduler, timeout, stop)
            if records is None:
                return
            if target is not None:
                first = int(records["game"][0]) if len(records) else 0
                target[first : first + len(records)] = records
            yield records
            if stop is not None and stop():
                return
            submit()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# The notice every run shows while its kernel compiles, unless it asks for its own or for none
# (RunOptions.compiling): the command line sets it for all its commands, the Python API has none.
default_compile_notice: Callable[[str], contextlib.AbstractContextManager] | None = None


@contextlib.contextmanager
def announcing_compiles(notice: Callable[[str], contextlib.AbstractContextManager]):
    """Within this block, every run shows ``notice(game)`` while its kernel compiles (the command
    line's spinner: cli/terminal.py)."""
    global default_compile_notice
    before, default_compile_notice = default_compile_notice, notice
    try:
        yield
    finally:
        default_compile_notice = before
