"""lady-actions-escape as plain Python."""

from plain_python import assert_plain_python_plays_the_same_games


def test_plain_python_plays_the_same_games_as_the_jit():
    assert_plain_python_plays_the_same_games("lady-actions-escape", 3, seed=4,
                                             strategies=["flexible", "steer", "blocker", "random"])
