"""A table's configuration: every option of a table, checked once, before anything opens.

A `TableConfig` is built once: from `companion play`'s command line, from the
service's options file (the same words, read by `companion.cli.table_options`), or
from `companion demo`'s own options; the doctor reads the camera and wiring records
of it from its command line. Each record checks its own fields in `__post_init__`,
one rule beside each field, in words naming the option a person typed, so a config
that exists makes sense, and `companion.runtime.build` opens its parts without
checking them again. The `from_args` readers only turn the options' text into
values; what argparse already refused never reaches them.
"""

import argparse
import ipaddress
import math
from dataclasses import dataclass, field
from pathlib import Path

from companion.controls.buttons import ButtonPins, check_distinct
from companion.controls.light import LightPins
from companion.controls.pins import parse_pins
from companion.controls.strip import DEFAULT_BRIGHTNESS, StripSpec, parse_strip
from companion.controls.strip_track import SPACES, check_track
from companion.display.screen import DEFAULT_SIZE, DisplayMode, check_screen_size, choose_mode
from companion.errors import SettingError, UnknownDecoderError
from companion.journal import StoredGame
from companion.language import Language, find_language
from companion.numbers import in_digits, too_long, whole_number
from companion.rules import Game, Ruleset, find_ruleset
from companion.runtime.housekeeping import KEEP_PICTURES_DAYS, check_keep_days
from companion.session.draft import DEFAULT_RULESET, Draft
from companion.session.lineup import Lineup
from companion.sources.registry import NO_SOURCE, check_source, scheme_of
from companion.statedir import default_calibration_path, default_journal_path
from companion.vision.decode import DECODERS

DEFAULT_SOURCE = "picamera"
"""Where a table's frames come from when not told: the Raspberry Pi Camera Module."""
DEFAULT_LANGUAGE = Language.ENGLISH
"""The language a new group is greeted in when the table's options name none."""
DEFAULT_HOST = "0.0.0.0"
"""The phone page listens on every address of the Pi: on a café table, its LAN."""
DEFAULT_PORT = 8080
"""The phone page's port by default (80 needs root)."""
_WILDCARDS = {"0.0.0.0", "::", ""}


def check_auto_confirm(seconds: float | None) -> float | None:
    """The auto-confirm delay, or `SettingError` for one that is not 0 or more seconds."""
    if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
        raise SettingError(f"auto-confirm must be 0 seconds or more, not {seconds}")
    return seconds


@dataclass(frozen=True)
class Listen:
    """Where the phone page's web server listens."""

    host: str
    """An IP address (or a wildcard: every address of the machine)."""
    port: int
    """The TCP port; 0 lets the system choose one (tests)."""

    @property
    def wildcard(self) -> bool:
        """Whether it listens on every address, so the LAN address must be found."""
        return self.host in _WILDCARDS


def parse_listen(text: str) -> Listen:
    """`--web`'s value: HOST:PORT, [IPv6]:PORT, HOST alone, or :PORT; `SettingError`
    naming what is wrong."""
    text = text.strip()
    host, port_text = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    host = host or DEFAULT_HOST
    if port_text and (not in_digits(port_text) or len(port_text) > 5 or int(port_text) > 65535):
        raise SettingError(f"--web {text}: the port must be a number from 0 to 65535")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host != "localhost":
            raise SettingError(
                f"--web {text}: give an IP address to listen on (such as 0.0.0.0:8080), not a name"
            ) from None
        host = "127.0.0.1"
    return Listen(host, int(port_text) if port_text else DEFAULT_PORT)


def web_from_args(args: argparse.Namespace) -> Listen | None:
    """Where the page is to listen (`--web`, `--no-web`), or None for no page."""
    if args.no_web:
        return None
    return parse_listen(args.web) if args.web is not None else Listen(DEFAULT_HOST, DEFAULT_PORT)


@dataclass(frozen=True)
class CameraConfig:
    """Where the table's frames come from and how they are read."""

    source: str = DEFAULT_SOURCE
    """The frame source as `--source` writes it ("picamera", "folder:DIR"), or "none"."""
    calibration: Path = field(default_factory=default_calibration_path)
    """The calibration file; the camera profile lies beside it."""
    decoder: str | None = None
    """The QR decoder's name; None for the default (`COMPANION_DECODER`, else zxing)."""

    def __post_init__(self) -> None:
        check_source(self.source)
        if self.decoder is not None and self.decoder not in DECODERS:
            raise UnknownDecoderError(
                f"unknown decoder {self.decoder!r}; decoders are {', '.join(DECODERS)}"
            )

    @property
    def has_camera(self) -> bool:
        """Whether there is a camera at all ("none", in any spelling the check lets
        through, means the game is entered by hand)."""
        return scheme_of(self.source) != NO_SOURCE

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "CameraConfig":
        """`--source`, `--calibration` and `--decoder`, as `play` and the doctor take them."""
        calibration: Path = args.calibration or default_calibration_path()
        return cls(args.source, calibration, args.decoder)


@dataclass(frozen=True)
class Wiring:
    """The parts wired to the Pi: the buttons, the status light and the LED strip, each
    on pins of its own."""

    buttons: ButtonPins | None = field(default_factory=ButtonPins)
    """The buttons' pins, or None for no buttons (keys and touches only)."""
    light: LightPins | None = field(default_factory=LightPins)
    """The status light's pins, or None for no light."""
    strip: StripSpec | None = None
    """The LED strip, or None for no strip."""

    def __post_init__(self) -> None:
        check_distinct(  # a part on a pin another part drives would never work
            {
                **(self.buttons.by_role() if self.buttons else {}),
                **(self.light.by_role() if self.light else {}),
                **(self.strip.pins() if self.strip else {}),
            }
        )

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "Wiring":
        """The parts `companion.cli.parts.add_part_options` names; `PinSettingError` or
        `SettingError` naming the option or pin at fault. A command that fits no part
        unless asked (the demo) leaves `--buttons` and `--light` unset."""
        no_buttons = args.no_buttons or args.buttons is None
        no_light = args.no_light or args.light is None
        buttons = None if no_buttons else ButtonPins(*parse_pins(args.buttons, "--buttons"))
        light = None if no_light else LightPins(*parse_pins(args.light, "--light"))
        return cls(buttons, light, parse_strip(args.strip))


@dataclass(frozen=True)
class GameConfig:
    """How the table's games begin: resumed, set up at the table, or given outright."""

    language: Language = DEFAULT_LANGUAGE
    """The language a new group is greeted in; each group can change it at the table."""
    ruleset: Ruleset = field(default_factory=lambda: find_ruleset(DEFAULT_RULESET))
    """The edition, with its options, of a game given outright (`lineup`)."""
    ruleset_asked: bool = False
    """Whether the options named the ruleset or its options: a stored game of other
    rules is then not resumed."""
    lineup: Lineup | None = None
    """The players of a game given outright; None sets the game up at the table."""
    new_game: bool = False
    """Whether to leave the journal's unfinished game and set up a new one."""
    auto_confirm: float | None = None
    """Seconds after which a proposal confirms itself; None waits for a press."""
    setup: Draft | None = None
    """The setup a new game starts from at its first step (the demo's group has
    chosen its edition); None goes on with the setup the journal kept."""

    def __post_init__(self) -> None:
        check_auto_confirm(self.auto_confirm)
        if self.lineup is not None:  # the ruleset's player counts, its deck for them
            Game.start(self.ruleset, self.lineup.names, self.lineup.names[0])

    def asks_for_another_game(self, stored: StoredGame) -> bool:
        """Whether the options name other players or another ruleset than the stored
        game has: a table's options changed between games. The same options (a
        restart) resume."""
        game = stored.game
        if self.lineup is not None:
            players = game.seating.players
            if self.lineup != Lineup(players, tuple(stored.colours[p] for p in players)):
                return True
        return self.ruleset_asked and self.ruleset != game.ruleset

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "GameConfig":
        """`play`'s `--language`, `--ruleset`, `--option`, `--players`, `--new-game` and
        `--auto-confirm`."""
        ruleset = find_ruleset(DEFAULT_RULESET if args.ruleset is None else args.ruleset)
        options = ruleset_options(args.option)
        language = DEFAULT_LANGUAGE if args.language is None else find_language(args.language)
        return cls(
            language=language,
            ruleset=ruleset.with_options(options) if options else ruleset,
            ruleset_asked=args.ruleset is not None or bool(args.option),
            lineup=lineup_of(args.players) if args.players else None,
            new_game=args.new_game,
            auto_confirm=args.auto_confirm,
        )


def ruleset_options(entries: list[str]) -> dict[str, int | None]:
    """`--option NAME=VALUE` entries as values by name (null: no limit); the ruleset
    refuses a name it does not have."""
    options: dict[str, int | None] = {}
    for entry in entries:
        if not entry.isprintable():  # a message names it on one line
            raise SettingError(f"--option {entry!r}: give NAME=VALUE in printable characters")
        name, _, value = entry.partition("=")
        value = value.strip()
        if value == "null":
            options[name.strip()] = None
            continue
        if not in_digits(value, signed=True):
            raise SettingError(
                f"--option {entry}: the value must be a whole number or null, in digits 0-9"
            )
        fault = too_long(value)
        if fault is not None:
            raise SettingError(f"--option {name.strip()}: {fault}")
        options[name.strip()] = int(value)
    return options


def lineup_of(players: list[str]) -> Lineup:
    """`--players`: names with their colours (Ann=red Ben), or a number of players
    named by colour."""
    if len(players) == 1 and players[0].isdigit():  # in any script: "²" is refused here
        return Lineup.of_colours(whole_number("--players", players[0], "a number of players"))
    return Lineup.parse(players)


@dataclass(frozen=True)
class TableConfig:
    """Everything a table is built from (`companion.runtime.build.build_table`)."""

    camera: CameraConfig = field(default_factory=CameraConfig)
    """The camera and how its frames are read."""
    journal: Path = field(default_factory=default_journal_path)
    """The journal file (recovered, if damaged, when the table is built)."""
    wiring: Wiring = field(default_factory=Wiring)
    """The buttons, status light and LED strip."""
    game: GameConfig = field(default_factory=GameConfig)
    """How the games begin."""
    display: DisplayMode = field(default_factory=lambda: choose_mode(None))
    """Where the screen is drawn."""
    screen: tuple[int, int] = DEFAULT_SIZE
    """The screen's size in pixels, in a window or offscreen (full screen takes the
    display's own)."""
    web: Listen | None = field(default_factory=lambda: Listen(DEFAULT_HOST, DEFAULT_PORT))
    """Where the phone page listens; None for no page."""
    keep_pictures: int = KEEP_PICTURES_DAYS
    """Days a finished game's pictures are kept; scores are kept forever."""

    def __post_init__(self) -> None:
        strip = self.wiring.strip
        if strip is not None:  # the doctor lights shorter strips; the game needs the track
            check_track(strip.length, SPACES, DEFAULT_BRIGHTNESS)
        check_keep_days(self.keep_pictures)
        check_screen_size(self.screen)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "TableConfig":
        """`companion play`'s options (`companion.cli.play.add_parser`), checked before
        anything is opened or written: a game started from a mistake (a misspelt
        source, two buttons on one pin) would run on without the part, or keep a game
        nobody meant in the journal."""
        return cls(
            camera=CameraConfig.from_args(args),
            journal=args.journal or default_journal_path(),
            wiring=Wiring.from_args(args),
            game=GameConfig.from_args(args),
            display=choose_mode(args.display),
            web=web_from_args(args),
            keep_pictures=args.keep_pictures,
        )
