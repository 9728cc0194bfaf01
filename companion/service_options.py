"""The table's service as `hardware/dixit-companion.service.in` sets it up, for the
code that must agree with it: where its options and state are, and what its exit
statuses mean to systemd.

Kept apart from the screen that shows a wrong option (`companion.app.config_error`,
which needs pygame) so that the doctor and the command line can name the same file
and variable without loading a display library.
"""

from pathlib import Path

OPTIONS_FILE = "/etc/default/dixit-companion"
"""The file the service reads the table's options from (hardware/default-options)."""
OPTIONS_VARIABLE = "COMPANION_PLAY_OPTIONS"
"""The variable in `OPTIONS_FILE` that holds `companion play`'s options."""
DEFAULT_PLAY_OPTIONS: tuple[str, ...] = ()
"""The options the unit gives `companion play` when `OPTIONS_FILE` does not set
`OPTIONS_VARIABLE` (its `Environment=` line, which the file overrides): none, for
each group sets up its own game at the table."""

GAME_OPTIONS = ("--players", "--ruleset", "--option", "--new-game")
"""`companion play` options that fix the game rather than the table: for scripts and
the desk, not for the table's options file (every group would get the same game)."""
SERVICE_STATE_DIR = Path("/var/lib/dixit-companion")
"""The service's state folder: the unit's `StateDirectory=` under `%S` (/var/lib for a
system service), given to the program as `COMPANION_STATE_DIR`."""
EX_CONFIG = 78
"""Exit status for a mistake in the table's options (sysexits.h EX_CONFIG): the one
status the unit does not restart on (`RestartPreventExitStatus=`), as restarting
cannot mend it. Every other failure (a journal in use, a full disk) exits 2 and is
restarted, since it may pass."""
