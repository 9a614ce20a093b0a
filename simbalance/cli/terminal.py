"""What the command line shows: the spinner while an engine compiles, the progress bar of a run
and the tables of results; and how it hears a Ctrl-C (``interruptible``: a flag every study that
plays in chunks or blocks asks). The runner (core/runner.py) only calls them: it knows no terminal."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

import rich.table
from rich.console import Console

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

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


@contextlib.contextmanager
def interruptible():
    """Ctrl-C and SIGTERM ask the run to stop after the chunk in progress; a second Ctrl-C aborts
    at once, even inside a compiled kernel (a plug-in stuck in a loop included).

    Python runs its signal handlers in the main thread between bytecodes, so while a kernel plays a
    chunk on the main thread (a one-thread run) no handler runs. Kernels run without the GIL
    (``nogil``), and a watcher thread reads the signals from the interpreter's wakeup file
    descriptor as they arrive: at the second Ctrl-C it ends the process. Checkpoints are atomic, so
    the last one survives the abort."""
    flag = {"stop": False}
    previous = {}

    def handler(signum, frame):
        if not flag["stop"]:
            Console(stderr=True).print("[yellow]stopping after the current chunk... "
                                       "(Ctrl-C again to abort at once)[/]")
        flag["stop"] = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError):  # not the main thread: no handlers
            previous[sig] = signal.signal(sig, handler)
    watcher = _AbortOnSecondInterrupt(flag) if previous else None
    try:
        yield lambda: flag["stop"]
    finally:
        if watcher is not None:
            watcher.close()
        for sig, old in previous.items():
            signal.signal(sig, old)


class _AbortOnSecondInterrupt:
    """Counts SIGINTs as the C-level handler writes them to the wakeup fd; the second one exits."""

    def __init__(self, flag: dict):
        import socket
        import threading

        self.flag = flag
        self.reader, self.writer = socket.socketpair()
        self.writer.setblocking(False)
        self.previous_fd = signal.set_wakeup_fd(self.writer.fileno(), warn_on_full_buffer=False)
        self.thread = threading.Thread(target=self._watch, name="simbalance-interrupts", daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        seen = 0
        while True:
            try:
                data = self.reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for signum in data:
                if signum in (signal.SIGINT, signal.SIGTERM):
                    self.flag["stop"] = True
                if signum == signal.SIGINT:
                    seen += 1
                    if seen >= 2:
                        sys.stderr.write("aborted; the last checkpoint is kept\n")
                        sys.stderr.flush()
                        os._exit(130)

    def close(self) -> None:
        signal.set_wakeup_fd(self.previous_fd)
        self.writer.close()  # the watcher's recv returns b"" and the thread ends
        self.thread.join(timeout=1)
        self.reader.close()
