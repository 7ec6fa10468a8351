"""``python -m evalhouse``: the ``evalhouse`` command (``evalhouse build`` runs ``suite land`` this way, in a process
of its own)."""
from evalhouse.cli import main

main()
