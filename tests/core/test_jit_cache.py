"""The numba cache is dropped when any jitted source changes, not only the kernel's own file."""

from simbalance.core.jit_cache import drop_stale_cache


def test_stale_cache_is_dropped_when_any_jitted_source_changes(tmp_path):
    (tmp_path / "rules_nb.py").write_text("from numba import njit\n@njit\ndef f():\n    return 1\n")
    (tmp_path / "strategies_nb.py").write_text("from numba import njit\n@njit\ndef g():\n    return 2\n")
    (tmp_path / "plain.py").write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    stamp = cache / "stamp"
    entry = cache / "rules_nb.f-3.py311.nbi"
    entry.write_text("x")
    assert drop_stale_cache(tmp_path, stamp) and not entry.exists()
    entry.write_text("x")
    assert not drop_stale_cache(tmp_path, stamp) and entry.exists()  # nothing changed: kept
    (tmp_path / "plain.py").write_text("x = 2\n")
    assert not drop_stale_cache(tmp_path, stamp)  # not jitted code: kept
    with open(tmp_path / "strategies_nb.py", "a") as fh:
        fh.write("# an edit\n")
    assert drop_stale_cache(tmp_path, stamp) and not entry.exists()
