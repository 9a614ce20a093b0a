"""How numba compiles simbalance's own jitted code: array indices are used as they are.

numba follows Python: ``a[i]`` with a signed ``i`` first tests ``i < 0`` and adds the array's length
(a compare and a select on every array access, and a loop LLVM cannot prove free of them is often
compiled to slow gathers). simbalance's kernels never index from the end: every index is an offset
into a flat state or board array (docs/architecture.md, "Kernels"). So for functions of the
simbalance package, and only those, an index is used as it is. captain-future's kernel is about 12%
faster for it (BENCHMARKS.md, "Issue 24").

What keeps this honest: ``tests/core/test_codegen.py`` plays every engine and the search players
with numba's bounds checks on (``NUMBA_BOUNDSCHECK=1``), where an index that would have wrapped
fails instead; and the pinned record digests show the games unchanged. A plug-in game's own
functions (any module outside the simbalance package) keep numba's semantics, negative indices
included. If numba's internals ever differ from what this expects, nothing is changed (only slower).

``install()`` runs when simbalance is imported, before any engine compiles. ``CODEGEN`` is part of
the numba-cache stamp (core/jit_cache.py): code cached before this (or without it) is compiled again.
"""

from __future__ import annotations

CODEGEN = "no-wraparound-1"  # change it when what is patched here changes: cached kernels recompile

# numba's mangled names start with the function's module path, each part preceded by its length:
# simbalance.games.captain_future.strategies_nb.heuristic_slot -> _ZN10simbalance5games14captain_future...
_OURS = "_ZN10simbalance"

_installed = False


def install() -> bool:
    """Compile simbalance's own array accesses without the negative-index wrap; True if in place."""
    global _installed
    if _installed:
        return True
    try:
        import numba.np.arrayobj as arrayobj
        from numba.core import types
    except ImportError:  # pragma: no cover - numba moved its internals: keep its own code
        return False
    numba_fix = getattr(arrayobj, "fix_integer_index", None)
    if numba_fix is None:  # pragma: no cover
        return False

    def fix_integer_index(context, builder, idxty, idx, size):
        if idxty.signed and builder.function.name.startswith(_OURS):
            return context.cast(builder, idx, idxty, types.intp)
        return numba_fix(context, builder, idxty, idx, size)

    fix_integer_index.numba_original = numba_fix
    arrayobj.fix_integer_index = fix_integer_index
    _installed = True
    return True


def installed() -> bool:
    return _installed
