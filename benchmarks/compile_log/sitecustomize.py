"""Log every numba compile of this process (benchmarks/compile_counts.py puts this folder on
PYTHONPATH, so every process it starts, the subprocesses of tests included, imports it at start-up).

Does nothing unless ``SIMBALANCE_COMPILE_LOG`` names a folder. Then, once numba's dispatcher module
is imported (not before: importing numba here would slow every process), a listener of numba's
``numba:compile`` event writes one JSON line per compile (a cache miss: numba compiles it) to
``<folder>/<pid>.jsonl``: the function, its signature, whether it has an on-disk cache, the test
running (``PYTEST_CURRENT_TEST``) and the CPU seconds it took (callees compiled inside it included;
``depth`` 0 is a compile called from Python). At exit, one line per function loaded from the cache.
"""

from __future__ import annotations

import os

_FOLDER = os.environ.get("SIMBALANCE_COMPILE_LOG")

if _FOLDER:
    import atexit
    import importlib.abc
    import importlib.util
    import json
    import sys
    import time

    _out = None
    _stack: list[float] = []

    def _write(record: dict) -> None:
        global _out
        if _out is None:
            os.makedirs(_FOLDER, exist_ok=True)
            _out = open(os.path.join(_FOLDER, f"{os.getpid()}.jsonl"), "a", buffering=1)
            _out.write(json.dumps({"process": sys.argv[:4]}) + "\n")
        _out.write(json.dumps(record) + "\n")

    def _name(dispatcher) -> str:
        fn = getattr(dispatcher, "py_func", None)
        return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"

    def _listen() -> None:
        from numba.core import event

        class CompileLog(event.Listener):
            def on_start(self, ev):
                _stack.append(time.process_time())

            def on_end(self, ev):
                began = _stack.pop()
                data = ev.data or {}
                dispatcher = data.get("dispatcher")
                _write({"compiled": _name(dispatcher), "id": id(dispatcher),
                        "cache": type(getattr(dispatcher, "_cache", None)).__name__,
                        "args": str(data.get("args")), "cpu": round(time.process_time() - began, 3),
                        "depth": len(_stack), "test": os.environ.get("PYTEST_CURRENT_TEST", "")})

        event.register("numba:compile", CompileLog())

    def _hits() -> None:
        import gc

        dispatcher_module = sys.modules.get("numba.core.dispatcher")
        if dispatcher_module is None:
            return
        for obj in gc.get_objects():
            if isinstance(obj, dispatcher_module.Dispatcher) and obj._cache_hits:
                _write({"loaded": _name(obj), "signatures": sum(obj._cache_hits.values())})

    class _AfterDispatcher(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "numba.core.dispatcher":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _listen()

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _AfterDispatcher())
    atexit.register(_hits)
