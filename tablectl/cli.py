"""``tablectl``: the one composition root of the table (replay, run, demo, enrol, doctor, room...).

Each command lives in its own module, imported only when that command runs: ``tablectl
replay`` loads the replay and the records, never the web pages or the hardware drivers, so
that it starts fast. ``tablectl --help`` (or an unknown command) loads them all to list them.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]

# command name -> the module whose ``add_commands(sub)`` declares it
COMMANDS: dict[str, str] = {
    "replay": "tablectl.replaycmd",
    "demo-replay": "tablectl.replaycmd",
    "enrol": "tablectl.hardware",
    "doctor": "tablectl.hardware",
    "run": "tablectl.serve",
    "demo": "tablectl.serve",
    "room": "tablectl.room.cli",
    "console": "tablectl.room.cli",
    "score": "tablectl.score",
    "handrecord": "tablectl.handrecord",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``command`` alone, or of every command when ``command`` is None."""
    parser = argparse.ArgumentParser(prog="tablectl", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(name).add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(command).parse_args(argv)
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # the reader of the output went away (``tablectl replay big.pbn | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
