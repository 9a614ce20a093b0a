"""Ctrl-C and SIGTERM on the command line: ``interruptible``, the one handler of every command that
stops after the chunk or block in play (run, solve, card-value, fit-eval and the stoppable studies:
cli/study_command.py). A module of its own so that cli/study_command.py, which run_cmd imports,
can use it without a circle."""

from __future__ import annotations

import contextlib
import os
import signal
import sys


@contextlib.contextmanager
def interruptible(aborted: str = "aborted; the last checkpoint is kept"):
    """Ctrl-C and SIGTERM ask the run to stop after the chunk in progress; a second Ctrl-C aborts
    at once, even inside a compiled kernel (a plug-in stuck in a loop included).

    Python runs its signal handlers in the main thread between bytecodes, so while a kernel plays a
    chunk on the main thread (a one-thread run) no handler runs. Kernels run without the GIL
    (``nogil``), and a watcher thread reads the signals from the interpreter's wakeup file
    descriptor as they arrive: at the second Ctrl-C it ends the process. Checkpoints are atomic, so
    the last one survives the abort. ``aborted``: the line the second Ctrl-C prints."""
    flag = {"stop": False}
    previous = {}

    def handler(signum, frame):
        # Plain text, no rich: the handler runs between any two bytecodes of the main thread, maybe in
        # the middle of an import of rich's own lazy modules (a fresh clone's suite saw rich's
        # Console.print import a half-imported rich._emoji_codes here: a traceback, exit 1).
        if not flag["stop"]:
            sys.stderr.write("stopping after the current chunk... (Ctrl-C again to abort at once)\n")
            sys.stderr.flush()
        flag["stop"] = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError):  # not the main thread: no handlers
            previous[sig] = signal.signal(sig, handler)
    watcher = _AbortOnSecondInterrupt(flag, aborted) if previous else None
    try:
        yield lambda: flag["stop"]
    finally:
        if watcher is not None:
            watcher.close()
        for sig, old in previous.items():
            signal.signal(sig, old)


class _AbortOnSecondInterrupt:
    """Counts SIGINTs as the C-level handler writes them to the wakeup fd; the second one exits."""

    def __init__(self, flag: dict, aborted: str):
        import socket
        import threading

        self.flag, self.aborted = flag, aborted
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
                        sys.stderr.write(self.aborted + "\n")
                        sys.stderr.flush()
                        os._exit(130)

    def close(self) -> None:
        signal.set_wakeup_fd(self.previous_fd)
        self.writer.close()  # the watcher's recv returns b"" and the thread ends
        self.thread.join(timeout=1)
        self.reader.close()
