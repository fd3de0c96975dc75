"""``python -m controller.catalogue --markdown`` prints ``docs/situations.md``; ``--readme`` the
table of situations of ``docs/irregularities.md``."""

from __future__ import annotations

import argparse
import sys

from controller.catalogue.page import markdown, readme_table


def main(argv: list[str] | None = None) -> int:
    """Print the catalogue as Markdown (``docs/situations.md``, or the table of ``docs/irregularities.md``)."""
    parser = argparse.ArgumentParser(prog="python -m controller.catalogue", description=__doc__)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--markdown", action="store_true", help="docs/situations.md")
    which.add_argument("--readme", action="store_true", help="the table of situations of docs/irregularities.md")
    args = parser.parse_args(argv)
    sys.stdout.write(markdown() if args.markdown else readme_table() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
