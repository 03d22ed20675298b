"""`python -m school serve …` / `python -m school teachers …`: the school server's commands
without the Discord bot's command line (`mattekrig serve` runs the same)."""

import sys

from school.cli import main

raise SystemExit(main(sys.argv[1:] or ["serve", "--help"]))
