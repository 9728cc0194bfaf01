"""The table's service as `hardware/dixit-companion.service.in` sets it up, for the
code that must agree with it: where its options, its staff PIN and its state are, and
what its exit statuses mean to systemd.

Kept apart from the screen that shows a wrong option (`companion.runtime.config_error`,
which needs pygame) so that the doctor and the command line can name the same file
and variable without loading a display library.
"""

from pathlib import Path

OPTIONS_FILE = "/etc/default/dixit-companion"
"""The file the service reads the table's options from (hardware/default-options)."""
OPTIONS_VARIABLE = "COMPANION_PLAY_OPTIONS"
"""The variable in `OPTIONS_FILE` that holds `companion play`'s options."""
STAFF_PIN_VARIABLE = "COMPANION_STAFF_PIN"
"""The variable in `OPTIONS_FILE` that holds the staff PIN of the phone page, which
the service finds in its environment (the unit's `EnvironmentFile=`)."""
PLACEHOLDER_PIN = "0000"
"""The PIN `hardware/default-options` ships, which `hardware/install` replaces with a
random one: known to anyone who reads this repository, so it opens nothing."""
PIN_DIGITS = range(4, 13)
"""How many digits a staff PIN may have: 4 to 12."""
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


def pin_problem(pin: str | None) -> str | None:
    """What is wrong with a staff PIN, in the words of a finding (English, for the
    doctor and the log); None when it can guard the staff tools. A PIN that cannot is
    not used at all: the staff tools are then off, rather than open to a guess."""
    if pin is None:
        return "no staff PIN is set"
    if not pin:
        return "the staff PIN is empty"
    if pin == PLACEHOLDER_PIN:
        return f"the staff PIN is still the placeholder {PLACEHOLDER_PIN} of the template"
    if not (pin.isascii() and pin.isdigit() and len(pin) in PIN_DIGITS):
        return f"the staff PIN is not {PIN_DIGITS[0]} to {PIN_DIGITS[-1]} digits"
    return None
