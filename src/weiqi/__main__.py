"""``python -m weiqi`` runs the command line."""

from weiqi.cli import main

main()
