"""`companion demo`: the whole companion on a simulated table, from setup to winner.

With no arguments a group of six sets up a game of Dixit Odyssey on the table's
screens and plays it to the end; `--all` plays one game of every edition in turn.
Windowed where there is a display; with `--headless` (and on its own where there is
none) it prints the progress and, with `--out DIR`, saves a PNG of the screen at each
phase, the setup's steps included. The phone page is served as at a café table;
`--speed 1 --stay` plays at real time and keeps the table up, to follow it on a phone.
`--lens` and `--conditions` choose the camera and how the café table looks (its
light, glare, shadows, the camera's hunting, how the tokens are made and laid). The
table is built as `companion play` builds one, from a configuration checked by the
same rules; `--strip`, `--buttons` and `--light` fit the parts a café table has.
"""

import argparse
import shlex
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.cli import stopping
from companion.cli.each import fail
from companion.cli.parts import add_part_options
from companion.cli.web_options import PhonePage, add_web_options
from companion.closing import Closing
from companion.demo.demo import (
    DEFAULT_AUTO_CONFIRM,
    LAYOUT,
    DemoGame,
    DemoResult,
    demo_config,
    run_demo,
)
from companion.display.screen import (
    DEFAULT_SIZE,
    DISPLAY_MODES,
    DisplayMode,
    choose_mode,
    screen_size,
)
from companion.errors import CompanionError, PlayerCountError, SettingError
from companion.language import Language, find_language
from companion.names import player_name, quoted
from companion.numbers import whole_number
from companion.phrases import phrase, plural
from companion.rules import RULESETS, Ruleset, find_ruleset
from companion.runtime.config import TableConfig, Wiring, web_from_args
from companion.runtime.loop import Loop
from companion.session.draft import DEFAULT_RULESET, KIT_COLOURS, Draft
from companion.session.setup_checks import name_fault
from companion.sim import LENSES, VARIATIONS, look_with
from companion.statedir import demo_journal_path, journal_to_read

HEADLESS_OUT = Path("demo-screens")
"""Where a headless demo saves its screens when not told."""
PREFERRED_PLAYERS = 6
"""Players at the demo table when not told: the closest count the ruleset allows."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "demo",
        help="set up and play a whole game on a simulated table, no hardware needed",
        description="Set up a game on the table's screens and play it on a simulated table "
        "with simulated players, auto-confirming, from setup to the winner screen.",
    )
    editions = parser.add_mutually_exclusive_group()
    editions.add_argument(
        "--ruleset",
        default=DEFAULT_RULESET,
        help=f"the edition the group picks: {', '.join(RULESETS)} (default {DEFAULT_RULESET})",
    )
    editions.add_argument(
        "--all", action="store_true", help="play one game of every edition in turn"
    )
    parser.add_argument(
        "--language",
        choices=[language.value for language in Language],
        default=Language.ENGLISH.value,
        help="the language the group picks at the first step (default en)",
    )
    parser.add_argument(
        "--players", help="players at the table (default: as many as --names gives, or about 6)"
    )
    parser.add_argument(
        "--names",
        metavar="NAME[,NAME...]",
        help="the names the simulated players type, in seat order (default: Ann, Ben, Cleo…)",
    )
    parser.add_argument(
        "--screen",
        default=f"{DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]}",
        metavar="WIDTHxHEIGHT",
        help="the size the screens are drawn and saved at, in pixels "
        f"(default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]}; the 7-inch display is 800x480)",
    )
    parser.add_argument("--seed", default="1", help="the random seed, 0 or more (default 1)")
    parser.add_argument(
        "--headless", action="store_true", help="no window: print progress, save PNGs with --out"
    )
    parser.add_argument(
        "--display",
        choices=DISPLAY_MODES,
        help="how to show the screen (default: a window where there is a display)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"folder for PNG snapshots of each phase (headless default: {HEADLESS_OUT})",
    )
    parser.add_argument(
        "--layout", default=LAYOUT, help=f"the board: a layout name or file (default {LAYOUT})"
    )
    parser.add_argument(
        "--rounds", metavar="N", help="stop each game after N rounds, 1 or more (default: play on)"
    )
    parser.add_argument(
        "--resume", action="store_true", help="go on with the journal's unfinished game first"
    )
    parser.add_argument(
        "--journal",
        type=Path,
        help="the journal file (default: demo.sqlite in the state folder, beside the table's "
        "journal, which `companion history` reads while there is no table's)",
    )
    parser.add_argument(
        "--auto-confirm",
        type=float,
        default=DEFAULT_AUTO_CONFIRM,
        metavar="SECONDS",
        help="seconds a proposal waits before it confirms itself "
        f"(default {DEFAULT_AUTO_CONFIRM:g})",
    )
    parser.add_argument(
        "--speed",
        type=float,
        metavar="TIMES",
        help="how many times faster than real time to play (default: as fast as it goes "
        "headless, real time in a window)",
    )
    parser.add_argument(
        "--stay",
        action="store_true",
        help="keep the table and its phone page up after the last game, until Ctrl-C",
    )
    parser.add_argument(
        "--phone-names",
        action="store_true",
        help="the group types no names at the table: they wait for the phone page's",
    )
    parser.add_argument(
        "--lens",
        choices=list(LENSES),
        default="standard",
        help="the camera over the simulated table: "
        + "; ".join(f"{name}: {lens.description}" for name, lens in LENSES.items())
        + " (default standard)",
    )
    parser.add_argument(
        "--conditions",
        default="",
        metavar="NAME[,NAME...]",
        help="how the café table differs from a good one: "
        + "; ".join(f"{name}: {v.description}" for name, v in VARIATIONS.items()),
    )
    add_part_options(parser, "use", fitted=False)
    add_web_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games; exit status 0 when every one reached its end (or the rounds asked
    for). Ctrl-C or SIGTERM ends the game being played after its frame, sums it up as
    any game's end, and stops the demo (`companion.cli.stopping`)."""
    try:
        config = _config(args)
        games, out = _games(args, config.display)
    except CompanionError as err:
        return fail("demo", err)
    with PhonePage(config.web, config.journal, "demo") as page:
        if out is not None:
            print(f"demo: screens of each phase go to {out}")
        for index, game in enumerate(games, start=1):
            resume = args.resume and index == 1
            table = replace(config, game=replace(config.game, new_game=not resume))
            try:
                with stopping.gently():  # a stop ends this game, summed up, and the demo
                    result = run_demo(table, game, page=page.address, serve=_with_loop(page.serve))
                    _summary(result, config.journal)
            except CompanionError as err:
                return fail("demo", err)
    return 0


def _config(args: argparse.Namespace) -> TableConfig:
    """The demo table's configuration, from the options a table has: its journal, the
    proposals' countdown, where its screen and phone page are, its wired parts."""
    mode = choose_mode("headless" if args.headless else args.display)
    config = demo_config(
        args.journal or demo_journal_path(),
        auto_confirm=args.auto_confirm,
        display=mode,
        wiring=Wiring.from_args(args),
    )
    return replace(config, web=web_from_args(args), screen=screen_size("--screen", args.screen))


def _games(args: argparse.Namespace, mode: DisplayMode) -> tuple[list[DemoGame], Path | None]:
    """The games the options ask for, one per edition with `--all` (what only a demo
    has), and where their screens go."""
    rulesets = list(RULESETS.values()) if args.all else [find_ruleset(args.ruleset)]
    names = None if args.names is None else demo_names(args.names)
    wanted = None if args.players is None else _number_of_players(args.players)
    if names is not None and wanted is not None and wanted != len(names):
        raise PlayerCountError(f"--players {wanted} but --names gives {len(names)} names")
    if names is not None:
        wanted = len(names)
    counts = [_players(r, wanted) for r in rulesets]
    rounds = _count("--rounds", args.rounds, "a number of rounds")
    seed = whole_number("--seed", args.seed, "a random seed", least=0)
    if args.speed is not None and not 0 < args.speed < float("inf"):
        raise SettingError(f"--speed must be more than 0, not {args.speed}")
    out = HEADLESS_OUT if args.out is None and mode is DisplayMode.HEADLESS else args.out
    look = look_with(name.strip() for name in args.conditions.split(",") if name.strip())
    games = [
        DemoGame(
            ruleset,
            players,
            language=find_language(args.language),
            layout=args.layout,
            seed=seed,
            rounds=rounds,
            out=out / ruleset.name if out and len(rulesets) > 1 else out,
            speed=args.speed,
            stay=args.stay and index == len(rulesets),
            phone_names=args.phone_names,
            names=names,
            lens=LENSES[args.lens],
            look=look,
        )
        for index, (ruleset, players) in enumerate(zip(rulesets, counts, strict=True), start=1)
    ]
    return games, out


def demo_names(text: str) -> tuple[str, ...]:
    """`--names`: names split at commas, in seat order, each one a name the setup takes
    for a seat (its own rule for a name typed on a phone), none given twice."""
    given = text.split(",")
    if len(given) > len(KIT_COLOURS):
        raise PlayerCountError(
            f"--names gives {len(given)} names; the kit has {len(KIT_COLOURS)} seats"
        )
    names: list[str] = []
    for colour, name in zip(KIT_COLOURS, given, strict=False):
        fault = name_fault(Draft(), colour, name)
        if fault is None and name.strip().casefold() in {n.casefold() for n in names}:
            fault = phrase("{name} is already the name of another seat", name=name.strip())
        if fault is not None:
            raise SettingError(f"--names {quoted(name)}: {fault}")
        names.append(player_name(name))
    return tuple(names)


def _number_of_players(text: str) -> int:
    """`--players`, in digits: how many each ruleset allows is checked with the ruleset."""
    return whole_number("--players", text, "a number of players")


def _count(option: str, text: str | None, what: str) -> int | None:
    """A count given on the command line, 1 or more; None when not given."""
    return None if text is None else whole_number(option, text, what, least=1)


def _summary(result: DemoResult, journal: Path) -> None:
    """How the game went, and the command that shows it from the journal."""
    if not result.game_id:
        print("demo: stopped before the game was set up")
        return
    ended = "over" if result.finished else "stopped"
    after = plural("after {n} round", "after {n} rounds", result.rounds)
    exact = plural(
        "{exact} of the {n} round scored in this run read exactly as laid",
        "{exact} of the {n} rounds scored in this run read exactly as laid",
        result.scored,
        exact=result.exact,
    )
    caught = plural("{n} misplaced dial caught", "{n} misplaced dials caught", result.mistakes)
    frames = plural("{n} frame read", "{n} frames read", result.frames)
    print(
        f"demo: game {result.game_id} {ended} {after}; {exact}, {caught}, {frames} "
        f"(median {result.reading_ms:.1f} ms per frame)"
    )
    if result.first_round_after_setup_s is not None:
        print(
            f"demo: first round scored {result.first_round_after_setup_s:.1f} s "
            "after the setup finished"
        )
    found = journal_to_read().resolve() == journal.resolve()  # `history` reads it unasked
    history = "companion history" + ("" if found else f" --journal {shlex.quote(str(journal))}")
    print(f"demo: see it with: {history} {result.game_id} (add --export for its game file)")


def _with_loop(serve: Callable[[Loop], Closing | None]) -> Callable[[Loop], Closing | None]:
    """What starts with each game's loop: Ctrl-C or SIGTERM ends that loop after the
    frame it is drawing, and the phone page, if there is one, is served from it."""

    def start(loop: Loop) -> Closing | None:
        stopping.on_stop(loop.stop)
        return serve(loop)

    return start


def _players(ruleset: Ruleset, wanted: int | None) -> int:
    """The player count to play `ruleset` with."""
    allowed = ruleset.player_counts
    if wanted is not None:
        if wanted not in allowed:
            raise PlayerCountError(
                f"{ruleset.name} is played by {', '.join(map(str, allowed))} players, not {wanted}"
            )
        return wanted
    return min(allowed, key=lambda n: (abs(n - PREFERRED_PLAYERS), n))
