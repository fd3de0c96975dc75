"""Write a club's board map (boards.toml) by putting each duplicate board on a reader in turn.

    .venv/bin/python hardware/tools/board_tags.py --boards-file /etc/bridgetable/boards.toml \\
        --first 1 --last 36 [--reader nfc:usb:072f:2200] [--timeout 60]

It asks for board 1, 2, ... in turn (``put board 7 on the reader``), waits for a tag, and
writes ``"<tag UID>" = <board number>`` under ``[boards]`` in the file that ``tablectl run
--boards`` and the table config's ``boards`` key read (hardware/decks.md). The file is saved
after every board, so Ctrl-C stops and the same command goes on with the first board not yet
in the file. A tag already in the file (the same board put down twice) is refused and the
board asked for again. Exit status: 0 every board mapped, 1 no tag within ``--timeout``, 2 the
file or the reader cannot be used, 130 Ctrl-C.

The reader is any device URL of hardware/config.md (an ACR122U, the board reader itself;
``sim://`` only shows that the reader opens: nobody can put a tag on it from outside).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from controller.sensing.events import DeviceHealth, RawEvent, TagSeen  # noqa: E402
from drivers.registry import open_source  # noqa: E402
from tablectl.boardsetup import load_board_tags  # noqa: E402

EXIT_OK, EXIT_TIMEOUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def write_board_map(path: Path, boards: dict[str, int]) -> None:
    """Save ``uid -> board`` as the TOML of ``tablectl run --boards``, at once or not at all."""
    lines = ["# Board tags: the duplicate boards' NFC tags, tag UID = board number (hardware/decks.md).",
             "# Read by tablectl run --boards FILE and the table config's [table] boards key.", "", "[boards]"]
    lines += [f'"{uid}" = {number}' for uid, number in sorted(boards.items(), key=lambda item: item[1])]
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards-file", required=True, type=Path, help="the board map (TOML) to write or extend")
    parser.add_argument("--first", type=int, default=1, help="the first board number (1)")
    parser.add_argument("--last", type=int, required=True, help="the last board number (36 for 36 boards)")
    parser.add_argument("--reader", default="nfc:usb:072f:2200", metavar="URL",
                        help="the reader's device URL (default nfc:usb:072f:2200, an ACR122U)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="stop when no tag comes for this long (default: wait for ever)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="board_tags: %(name)s: %(message)s")  # the drivers' own
    if not 1 <= args.first <= args.last:
        print("board_tags: --first and --last must be board numbers, first <= last", file=sys.stderr)
        return EXIT_USAGE
    path: Path = args.boards_file
    try:
        boards = load_board_tags(path) if path.exists() else {}
    except ValueError as exc:
        print(f"board_tags: {exc}", file=sys.stderr)
        return EXIT_USAGE
    todo = [n for n in range(args.first, args.last + 1) if n not in boards.values()]
    if not todo:
        print(f"boards {args.first}-{args.last} are all in {path}")
        return EXIT_OK
    try:
        source = open_source(args.reader, name="boards")
    except Exception as exc:   # ConfigError, a missing library: the reader cannot be used
        print(f"board_tags: cannot open the reader {args.reader!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    events: queue.Queue[RawEvent] = queue.Queue()
    source.start(events.put)
    done = len(boards)
    try:
        for number in todo:
            print(f"put board {number} on the reader   [{done} boards in {path}]", flush=True)
            while True:
                try:
                    event = events.get(timeout=args.timeout)
                except queue.Empty:
                    print(f"no tag within {args.timeout:g} s: stopped before board {number}; "
                          f"run the same command again to go on", flush=True)
                    return EXIT_TIMEOUT
                if isinstance(event, DeviceHealth):
                    print(f"  reader {'up' if event.up else 'DOWN'}: {event.detail}", flush=True)
                    continue
                if not isinstance(event, TagSeen):
                    continue
                if event.uid in boards:
                    print(f"  refused: tag {event.uid} is board {boards[event.uid]} already; put board {number}",
                          flush=True)
                    continue
                boards[event.uid] = number
                write_board_map(path, boards)
                done += 1
                print(f"  ok board {number} = tag {event.uid}", flush=True)
                break
    except KeyboardInterrupt:
        print(f"\nstopped; {done} boards saved in {path}; run the same command again to go on")
        return EXIT_INTERRUPTED
    finally:
        source.stop()
    print(f"boards {args.first}-{args.last} complete in {path}")
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
