"""The numba cache is dropped when any jitted source changes, not only the kernel's own file, and
only for the package whose sources changed."""

from simbalance.core.jit_cache import drop_stale_cache, jit_sources


def _tree(tmp_path):
    """A package root with one game folder (``game``) and a shared module (``layout.py``)."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "rules_nb.py").write_text(
        "from numba import njit\nfrom simbalance.layout import SIZE\n@njit\ndef f():\n    return SIZE\n")
    (game / "strategies_nb.py").write_text("from numba import njit\n@njit\ndef g():\n    return 2\n")
    (tmp_path / "layout.py").write_text("SIZE = 3\n")  # no jitted code, but its constants are compiled in
    (game / "plain.py").write_text("x = 1\n")
    cache = game / "__pycache__"
    cache.mkdir()
    return game, cache / "stamp", cache / "rules_nb.f-3.py311.nbi"


def test_stale_cache_is_dropped_when_any_jitted_source_changes(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    game, stamp, entry = _tree(tmp_path)
    entry.write_text("x")
    assert drop_stale_cache(game, tmp_path, stamp) and not entry.exists()
    entry.write_text("x")
    assert not drop_stale_cache(game, tmp_path, stamp) and entry.exists()  # nothing changed: kept
    (game / "plain.py").write_text("x = 2\n")
    assert not drop_stale_cache(game, tmp_path, stamp)  # not used by jitted code: kept
    with open(game / "strategies_nb.py", "a") as fh:
        fh.write("# an edit\n")
    assert drop_stale_cache(game, tmp_path, stamp) and not entry.exists()
    entry.write_text("x")
    (tmp_path / "layout.py").write_text("SIZE = 4\n")  # a constant the kernel baked in
    assert drop_stale_cache(game, tmp_path, stamp) and not entry.exists()


def test_an_edit_to_one_game_keeps_another_games_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    game, stamp, entry = _tree(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "rules_nb.py").write_text("from numba import njit\n@njit\ndef h():\n    return 1\n")
    (other / "__pycache__").mkdir()
    other_entry = other / "__pycache__" / "rules_nb.h-3.py311.nbi"
    other_stamp = other / "__pycache__" / "stamp"
    drop_stale_cache(game, tmp_path, stamp)
    drop_stale_cache(other, tmp_path, other_stamp)
    entry.write_text("x")
    other_entry.write_text("x")
    with open(game / "rules_nb.py", "a") as fh:
        fh.write("# an edit\n")
    assert drop_stale_cache(game, tmp_path, stamp) and not entry.exists()
    assert not drop_stale_cache(other, tmp_path, other_stamp) and other_entry.exists()


def test_imported_modules_count_as_jitted_sources(tmp_path):
    game, _, _ = _tree(tmp_path)
    names = {p.name for p in jit_sources(game, tmp_path)}
    assert names == {"rules_nb.py", "strategies_nb.py", "layout.py"}


def test_a_helper_beside_a_plugin_package_counts_as_a_jitted_source(tmp_path, monkeypatch):
    """A plug-in's own helper module on the same sys.path entry (tests/planted/planted_nb.py), whose
    jitted code the plug-in's kernels inline: an edit to it drops the plug-in's cache."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    plugin = tmp_path / "site" / "my_game"
    plugin.mkdir(parents=True)
    (plugin / "game_nb.py").write_text("import numpy as np\nimport helper_nb\nfrom numba import njit\n"
                                       "@njit\ndef f():\n    return helper_nb.g()\n")
    helper = tmp_path / "site" / "helper_nb.py"
    helper.write_text("from numba import njit\n@njit\ndef g():\n    return 1\n")
    (tmp_path / "site" / "unrelated.py").write_text("x = 1\n")
    assert {p.name for p in jit_sources(plugin, tmp_path)} == {"game_nb.py", "helper_nb.py"}
    (plugin / "__pycache__").mkdir()
    stamp, entry = plugin / "__pycache__" / "stamp", plugin / "__pycache__" / "game_nb.f-4.py311.nbi"
    drop_stale_cache(plugin, tmp_path, stamp)
    entry.write_text("x")
    assert not drop_stale_cache(plugin, tmp_path, stamp) and entry.exists()
    helper.write_text("from numba import njit\n@njit\ndef g():\n    return 2\n")
    assert drop_stale_cache(plugin, tmp_path, stamp) and not entry.exists()


def test_a_user_cache_dir_is_kept_honest_too(tmp_path, monkeypatch):
    from numba.core.caching import _CacheLocator

    src = tmp_path / "src"
    src.mkdir()
    game, stamp, _ = _tree(src)
    user = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(user))
    entry = user / _CacheLocator.get_suitable_cache_subpath(str(game / "rules_nb.py")) / "rules_nb.f-3.py311.nbi"
    entry.parent.mkdir(parents=True)
    entry.write_text("x")
    assert drop_stale_cache(game, src, stamp) and not entry.exists()
    entry.write_text("x")
    assert not drop_stale_cache(game, src, stamp) and entry.exists()
    (src / "layout.py").write_text("SIZE = 5\n")
    assert drop_stale_cache(game, src, stamp) and not entry.exists()
