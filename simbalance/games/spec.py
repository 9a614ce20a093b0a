"""The game contract moved to ``simbalance.core.spec`` (issue 36: the core no longer imports a floor
above it). This name stays for plug-in games written against it; new code imports the core's."""

from simbalance.core.spec import *  # noqa: F401,F403
