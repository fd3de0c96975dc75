"""The endplay side of ``bench/replay.py``: what endplay's users do with a PBN file.

``python bench/_endplay_side.py FILE [ENCODING]`` reads every board of FILE with endplay's PBN
reader, scores every board that has a contract, and prints the number of boards and of scored
boards. endplay checks nothing (no legality of calls or cards), which is why the design asks our
fully checked replay to be at least twice as fast as this, on the same file, in the same run.
"""

from __future__ import annotations

import sys
from typing import IO

from endplay.parsers import pbn
from endplay.types import Vul


def parse_and_score(f: IO[str]) -> tuple[int, int]:
    """(boards read, boards scored) of the PBN text in ``f``: endplay's ``pbn.load`` then
    ``board.contract.score(board.vul)`` for every board with a contract."""
    boards = pbn.load(f)
    scored = 0
    for board in boards:
        contract = board.contract
        if contract is not None:
            vul = board.vul  # from the board number when the record has no Vulnerable tag
            contract.score(vul if vul is not None else Vul.none)
            scored += 1
    return len(boards), scored


def main() -> None:
    path = sys.argv[1]
    encoding = sys.argv[2] if len(sys.argv) > 2 else "utf-8"
    with open(path, encoding=encoding) as f:
        boards, scored = parse_and_score(f)
    print(boards, scored)


if __name__ == "__main__":
    main()
