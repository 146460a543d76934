"""``python -m tests.engine.playthroughs --regen``: write the golden playthroughs again."""

from __future__ import annotations

import argparse

from . import regenerate


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.playthroughs")
    parser.add_argument("--regen", action="store_true", help="write every <preset>.txt again")
    if not parser.parse_args().regen:
        parser.error("say --regen to write the golden files again")
    for path in regenerate():
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
