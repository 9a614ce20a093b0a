"""Every command's --help renders, and loses no word of its text: rich reads ``[targets]`` as a
style tag and drops it unless the help is escaped."""

from __future__ import annotations

import re

import click
import pytest
import typer
from typer.testing import CliRunner

from simbalance.cli.main import app

COMMAND = typer.main.get_command(app)
BRACKETED = re.compile(r"\[([A-Za-z_.*:-]+)\]")  # [targets], [game.strategies], [start:stop:step]


def commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*prefix, name))


def texts(command: click.Command) -> list[str]:
    return [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]


@pytest.mark.parametrize("path,command", list(commands(COMMAND)), ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_help_keeps_every_bracketed_word(path, command):
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    lost = [f"[{word}]" for text in texts(command) for word in BRACKETED.findall(text) if f"[{word}]" not in shown]
    assert not lost, f"simbalance {' '.join(path)} --help loses {lost}"
