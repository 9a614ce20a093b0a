"""Paths given on the command line: valid Unicode and printable, checked before anything runs.

A name that is not valid UTF-8 (``--out $'r\\xff'``) reaches Python as lone surrogates that cannot be
written into a manifest or a report (a UnicodeEncodeError after the whole play, issue 54); a newline
or another control character in a name (``--out $'r\\n'``) makes a folder no listing shows plainly.
"""

from __future__ import annotations

from pathlib import Path


def check_path_text(option: str, path: str | Path) -> None:
    """Refuse, in one line naming the option, a path that is not valid UTF-8 or holds a character
    that is not printable (a newline, a tab, an escape)."""
    from simbalance.core.errors import SimbalanceError

    text = str(path)
    if any(0xDC80 <= ord(ch) <= 0xDCFF for ch in text):  # surrogateescape: bytes that are not UTF-8
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise SimbalanceError(f"{option} '{shown}': not valid UTF-8; give a name in UTF-8")
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        raise SimbalanceError(f"{option} {text!r}: holds the character {bad!r}, which is not printable; give a name "
                              "of printable characters")
