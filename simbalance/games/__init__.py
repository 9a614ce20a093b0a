"""The games. One package per game; ``registry`` finds them."""
