"""``python -m models.eval``: the evaluation's command (:mod:`models.eval.cli`)."""

from models.eval.cli import main

main()
