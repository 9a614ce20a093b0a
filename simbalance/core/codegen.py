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

It also makes numba's compiler itself cheaper, without touching what it compiles (the compiled code
is the same; BENCHMARKS.md, "Issue 37 (first run): cold compile, round two"):
- **No garbage collection while numba compiles.** A cold compile builds millions of short-lived IR
  objects; Python's cyclic collector walked them again and again (about an eighth of captain-future's
  cold compile). The collector is paused from the outermost compile's start to its end and runs
  normally after (numba's compiler state is freed by reference counting, so the pause costs memory
  only while it lasts: captain-future's compile peaks at about 0.9 GB instead of 0.5 GB).
- **numba's target options compared cheaply.** numba looks up every typed call in a cache keyed by
  its ``TargetConfig`` flags, whose hash and equality rebuilt a dict of some forty options on every
  lookup (hundreds of thousands per engine). The hash is the same value (it only ever depended on
  the option names); equality first compares the options actually set, and only when those differ
  falls back to numba's own comparison.
- **No compile for a literal that is only on its way to a type.** numba types a function by
  propagating types until nothing changes, and compiles each called function for the argument types
  it sees on the way: ``best = -1`` before a loop that sets ``best = b`` compiled the callee once for
  ``Literal[int](-1)`` and again for ``int64`` (captain-future compiled a dozen rule steps twice so,
  ``_nth_open`` four times). simbalance's functions never specialize on a literal (a contract test
  forbids handing one over: ``no-integer-literal-to-a-jitted-call``), so a call of one of them is
  compiled for the literal's type (``int64`` for ``-1``): the signature the finished caller uses.
- **An inlined function's IR copied once, not once per block.** numba copies a function's IR each
  time it inlines it (``inline="always"``), block by block, each block with its own deep copy of
  the function's variable scope: for a function of B blocks that is B copies of every variable,
  38 % of aquaman's cold compile. The blocks are now copied with one memo, so the copy has one
  scope, shared by its blocks as in the function it copies (where numba's inliner expects exactly
  one). The rest of numba's ``InlineWorker.inline_ir`` is its own code, compiled from its source;
  if that source is not what this expects, numba is left as it is.
- **Python's frame stack.** CPython 3.11 keeps frames in 16 KB chunks and frees a chunk as soon as
  its first frame returns; numba's deep, ever-changing recursion crossed chunk boundaries about a
  million times per engine, each an ``mmap`` and a ``munmap`` (about 6 s of system time in
  captain-future's compile; CPython issue 142183, fixed in 3.13 and later). The outermost compile
  runs in a frame declared to need about 4.8 MB of stack, which CPython gives a chunk of 8 MB: every
  frame the compile pushes fits in the rest of it.
"""

from __future__ import annotations

import functools
import gc
import types

CODEGEN = "no-wraparound-1 unliteral-1 inline-copy-1"  # change it when what is patched here changes: cached kernels recompile

# numba's mangled names start with the function's module path, each part preceded by its length:
# simbalance.games.captain_future.strategies_nb.heuristic_slot -> _ZN10simbalance5games14captain_future...
_OURS = "_ZN10simbalance"

_installed = False


def install() -> bool:
    """Compile simbalance's own array accesses without the negative-index wrap, and numba's compiler
    without the overheads above; True if the first is in place (each of the others falls back to
    numba's own code on its own)."""
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
    _pause_gc_while_compiling()
    _cheap_target_config_compare()
    _no_literal_signatures()
    _copy_inlined_ir_once()
    _installed = True
    return True


def _call(fn, *args, **kws):
    return fn(*args, **kws)


# ``_call`` in a frame that reserves about 4.8 MB of CPython's frame stack: see "Python's frame stack".
_in_reserved_stack = types.FunctionType(_call.__code__.replace(co_stacksize=600_000), globals(), "_in_reserved_stack")


def _wrap_once(owner: type, name: str, wrapper) -> bool:
    """Replace ``owner.name`` by ``wrapper(original)`` unless it is already simbalance's."""
    original = getattr(owner, name)
    if getattr(original, "simbalance_wrapped", False):
        return True
    wrapped = functools.wraps(original)(wrapper(original))
    wrapped.simbalance_wrapped = True
    setattr(owner, name, wrapped)
    return True


def _pause_gc_while_compiling() -> bool:
    try:
        from numba.core.dispatcher import _DispatcherBase
    except ImportError:  # pragma: no cover
        return False

    def wrapper(compile_for_args):
        def _compile_for_args(self, *args, **kws):
            if not gc.isenabled():  # an inner compile, or the caller's own pause
                return compile_for_args(self, *args, **kws)
            gc.disable()
            try:
                return _in_reserved_stack(compile_for_args, self, *args, **kws)
            finally:
                gc.enable()

        return _compile_for_args

    return _wrap_once(_DispatcherBase, "_compile_for_args", wrapper)


def _cheap_target_config_compare() -> bool:
    try:
        from numba.core.targetconfig import TargetConfig
    except ImportError:  # pragma: no cover
        return False
    numba_eq = TargetConfig.__eq__
    if getattr(numba_eq, "simbalance_fast", False):
        return True
    hashes: dict[type, int] = {}

    def __hash__(self):  # numba's: hash(tuple(sorted(self.values()))), the sorted option names
        cls = type(self)
        if cls not in hashes:
            hashes[cls] = hash(tuple(sorted(self.options)))
        return hashes[cls]

    def __eq__(self, other):
        if type(self) is type(other) and self._values == other._values:
            return True  # the same options set to the same values: every value is the same
        return numba_eq(self, other)

    __eq__.simbalance_fast = True
    TargetConfig.__hash__ = __hash__
    TargetConfig.__eq__ = __eq__
    return True


def _no_literal_signatures() -> bool:
    try:
        from numba.core import types
        from numba.core.dispatcher import _DispatcherBase
    except ImportError:  # pragma: no cover
        return False

    def literal(t) -> bool:
        return isinstance(t, types.Literal)

    def wrapper(get_call_template):
        def _get_call_template(self, args, kws):
            ours = (getattr(self.py_func, "__module__", None) or "").startswith("simbalance.")
            if ours and (any(map(literal, args)) or any(map(literal, kws.values()))):
                args = tuple(types.unliteral(a) for a in args)
                kws = {k: types.unliteral(a) for k, a in kws.items()}
            return get_call_template(self, args, kws)

        return _get_call_template

    return _wrap_once(_DispatcherBase, "get_call_template", wrapper)


_INLINE_COPY_PER_BLOCK = """\
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
"""
_INLINE_COPY_ONCE = """\
        memo = {}  # simbalance (core/codegen.py): one scope for the copy, as in the function copied
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label], memo)
"""


def _copy_inlined_ir_once() -> bool:
    try:
        import inspect
        import textwrap

        from numba.core import inline_closurecall
    except ImportError:  # pragma: no cover
        return False
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "simbalance_copy_once", False):
        return True
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):  # pragma: no cover - no source to read: keep numba's
        return False
    if source.count(_INLINE_COPY_PER_BLOCK) != 1:  # pragma: no cover - numba changed: keep its code
        return False
    space: dict = {}
    code = compile(source.replace(_INLINE_COPY_PER_BLOCK, _INLINE_COPY_ONCE), inline_closurecall.__file__, "exec")
    exec(code, vars(inline_closurecall), space)  # noqa: S102 - numba's own method, one loop changed
    inline_ir = space["inline_ir"]
    inline_ir.simbalance_copy_once = True
    worker.inline_ir = inline_ir
    return True


def installed() -> bool:
    return _installed
