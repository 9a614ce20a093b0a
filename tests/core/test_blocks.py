"""core/blocks.py, the block-job half of the one executor: the same results on any thread count,
block size or backend; Ctrl-C stops between blocks and keeps the finished ones; a job started again
from its checkpoint plays only the rest and ends with exactly the uninterrupted results."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simbalance.core.blocks import BlockCheckpoint, BlockSettings, execute_blocks
from simbalance.core.errors import RunInterrupted, SimbalanceError


class Draws:
    """A pure block job: item k's results come from (seed, k) alone (a planted answer: item k's
    ``value`` is the first draw of the generator seeded by (seed, k)); ``ragged`` has k % 3 rows per
    item, as card-value's pairs have a varying number per state. Counts the items it played."""

    def __init__(self, seed: int):
        self.seed, self.played = seed, 0
        self.lock = threading.Lock()

    def __getstate__(self) -> dict:  # sent to a Dask worker: a lock of its own there
        return {"seed": self.seed, "played": self.played}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, lock=threading.Lock())

    def __call__(self, lo: int, hi: int) -> dict[str, np.ndarray]:
        with self.lock:
            self.played += hi - lo
        values = np.array([np.random.default_rng([self.seed, k]).random() for k in range(lo, hi)])
        ragged = np.concatenate([np.full(k % 3, k, np.int64) for k in range(lo, hi)])
        return {"item": np.arange(lo, hi), "value": values, "ragged": ragged}


def planted(seed: int, total: int) -> dict[str, np.ndarray]:
    return {"item": np.arange(total), "value": np.array([np.random.default_rng([seed, k]).random()
                                                         for k in range(total)]),
            "ragged": np.concatenate([np.full(k % 3, k, np.int64) for k in range(total)])}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("threads,block", [(1, 7), (2, 7), (2, 1), (2, 200)])
def test_the_results_are_the_planted_ones_whatever_the_threads_and_blocks(seed, threads, block):
    got = execute_blocks(Draws(seed), 101, block, threads=threads)
    assert same(got, planted(seed, 101))


def test_progress_counts_every_item_once_in_order():
    seen = []
    execute_blocks(Draws(0), 50, 8, threads=2, progress=lambda done, total, s: seen.append((done, total)))
    assert seen == [(min(50, 8 * (b + 1)), 50) for b in range(7)]


def test_a_stop_keeps_the_finished_blocks_and_the_next_call_plays_only_the_rest(tmp_path):
    asked = []

    def stop() -> bool:  # Ctrl-C after the third block is queued
        asked.append(1)
        return len(asked) > 3

    first = Draws(4)
    check = BlockCheckpoint(tmp_path, "draws", {"seed": 4})
    with pytest.raises(RunInterrupted, match=r"interrupted after 30 of 100 items; the finished blocks are kept"):
        execute_blocks(first, 100, 10, threads=1, stop=stop, checkpoint=check)
    assert first.played == 30 and check.folder.is_dir()
    again = Draws(4)
    got = execute_blocks(again, 100, 10, threads=2, checkpoint=BlockCheckpoint(tmp_path, "draws", {"seed": 4}))
    assert again.played == 70  # only the blocks after the checkpoint
    assert same(got, planted(4, 100))
    assert not check.folder.exists()  # done: the checkpoint is removed, nothing else was in its folder


def test_a_checkpoint_saved_in_parts_reads_back_whole(tmp_path, monkeypatch):
    """Saved every block (CHECKPOINT_AFTER_S = 0): many parts, each appended, read back in order."""
    import simbalance.core.blocks as blocks

    monkeypatch.setattr(blocks, "CHECKPOINT_AFTER_S", -1.0)
    check = BlockCheckpoint(tmp_path, "draws", {"seed": 5})
    with pytest.raises(RunInterrupted):
        execute_blocks(Draws(5), 60, 4, stop=iter([False] * 9 + [True] * 99).__next__, checkpoint=check)
    assert len(list(check.folder.glob("part-*.npz"))) == 9
    assert len(BlockCheckpoint(tmp_path, "draws", {"seed": 5}).load()) == 9
    assert same(execute_blocks(Draws(5), 60, 4, checkpoint=BlockCheckpoint(tmp_path, "draws", {"seed": 5})),
                planted(5, 60))


def test_a_checkpoint_of_another_job_is_one_line(tmp_path):
    check = BlockCheckpoint(tmp_path, "draws", {"seed": 6})
    with pytest.raises(RunInterrupted):
        execute_blocks(Draws(6), 40, 10, stop=iter([False, True]).__next__, checkpoint=check)
    other = BlockCheckpoint(tmp_path, "draws", {"seed": 7})
    other.folder = check.folder  # a folder renamed by hand: its parts say whose they are
    with pytest.raises(SimbalanceError, match="a checkpoint of another job"):
        execute_blocks(Draws(7), 40, 10, checkpoint=other)


def test_kept_checkpoints_stay_until_the_study_is_done(tmp_path, monkeypatch):
    import simbalance.core.blocks as blocks

    how = BlockSettings(threads=1, checkpoints=tmp_path)
    how.play(Draws(1), 30, 10, None, "draws", "items", "short", {"seed": 1})
    assert not any(tmp_path.iterdir())  # shorter than a save's interval: nothing written
    monkeypatch.setattr(blocks, "CHECKPOINT_AFTER_S", -1.0)  # a long job: saved after every block
    got = how.play(Draws(8), 30, 10, None, "draws", "items", "draws", {"seed": 8})
    assert same(got, planted(8, 30))
    (folder,) = tmp_path.iterdir()
    assert len(list(folder.glob("part-*.npz"))) == 3
    how.finish()
    assert not any(tmp_path.iterdir())


def test_dask_local_cluster_gives_the_same_results():
    pytest.importorskip("dask.distributed")
    assert same(execute_blocks(Draws(9), 45, 10, backend="dask"), planted(9, 45))
