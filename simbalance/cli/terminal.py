"""What the command line shows: the spinner while an engine compiles, the progress bar of a run
and the tables of results. The runner (core/runner.py) only calls them: it knows no terminal."""

from __future__ import annotations

import contextlib
import time

import rich.table

COMPILE_NOTICE_AFTER_S = 0.5  # a warm cache loads a kernel faster: no notice then
SHOW_BAR_OVER_S = 1.0  # a bar only for runs projected to take longer than this


class Table(rich.table.Table):
    """rich's table whose cells fold onto a next line where the terminal is narrow (a CI log is 80
    columns) instead of being cut short with an ellipsis ("8.9e-…", "signif…"): a number is read
    whole or not at all."""

    def add_column(self, *args, **kwargs) -> None:
        kwargs.setdefault("overflow", "fold")
        super().add_column(*args, **kwargs)


@contextlib.contextmanager
def compile_notice(game: str):
    """While a kernel compiles (a cold cache: the first run, or after an update), a spinner with the
    elapsed time, so that a first run does not look like a hang; a warm cache loads faster than
    ``COMPILE_NOTICE_AFTER_S`` and shows nothing."""
    import threading

    from rich.console import Console

    started = time.perf_counter()

    class Elapsed:  # rendered at every refresh of the spinner
        def __rich__(self) -> str:
            return (f"compiling the {game} engine (first run only; up to a minute or two): "
                    f"{time.perf_counter() - started:.0f} s")

    status = Console(stderr=True).status(Elapsed())
    lock, state = threading.Lock(), {"shown": False, "done": False}

    def show():
        with lock:  # not after the compile has ended
            if not state["done"]:
                state["shown"] = True
                status.start()

    timer = threading.Timer(COMPILE_NOTICE_AFTER_S, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                status.stop()  # the run's header then says how long it took


class RichProgress:
    """A rich progress bar with games/s and ETA that appears only for runs longer than a moment."""

    def __init__(self, label: str):
        self.label = label
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        if self._bar is None:
            projected = elapsed * total / max(done, 1)
            if done >= total or projected < SHOW_BAR_OVER_S:
                return
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed:,}/{task.total:,} games"),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total, rate="")
        rate = done / elapsed if elapsed > 0 else 0.0
        self._bar.update(self._task, completed=done, rate=f"{rate:,.0f} games/s")
        if done >= total:
            self.close()

    def note(self, text: str) -> None:
        """A line of the study between its runs (tune's generations), above the bar while it shows."""
        from rich.console import Console

        (self._bar.console if self._bar is not None else Console()).print(text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
