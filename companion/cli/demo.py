"""`companion demo`: the whole companion on a simulated table, from setup to winner.

With no arguments a group of six sets up a game of Dixit Odyssey on the table's
screens and plays it to the end; `--all` plays one game of every edition in turn.
Windowed where there is a display; with `--headless` (and on its own where there is
none) it prints the progress and, with `--out DIR`, saves a PNG of the screen at each
phase, the setup's steps included. The phone page is served as at a café table;
`--speed 1 --stay` plays at real time and keeps the table up, to follow it on a phone.
`--lens` and `--conditions` choose the camera and how the café table looks (its
light, glare, shadows, the camera's hunting, how the tokens are made and laid).
"""

import argparse
import os
import shlex
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli import stopping
from companion.cli.each import fail
from companion.cli.numbers import whole_number
from companion.cli.web_options import add_web_options, check_web, open_listener, serve
from companion.closing import Closing
from companion.demo.demo import LAYOUT, DemoResult, run_demo
from companion.display.screen import DISPLAY_MODES, DisplayMode, choose_mode
from companion.errors import CompanionError, PlayerCountError, SettingError
from companion.journal import Journal
from companion.language import Language, find_language
from companion.phrases import plural
from companion.rules import RULESETS, Ruleset, find_ruleset
from companion.runtime.loop import Loop
from companion.session.draft import DEFAULT_RULESET
from companion.session.session import check_auto_confirm
from companion.sim import LENSES, VARIATIONS, look_with
from companion.statedir import demo_journal_path, journal_to_read

if TYPE_CHECKING:
    from companion.web.server import Listener

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
    parser.add_argument("--players", help="players at the table (default: about 6)")
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
        default=2.0,
        metavar="SECONDS",
        help="seconds a proposal waits before it confirms itself (default 2)",
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
    add_web_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games; exit status 0 when every one reached its end (or the rounds asked
    for). Ctrl-C or SIGTERM ends the game being played after its frame, sums it up as
    any game's end, and stops the demo (`companion.cli.stopping`)."""
    try:
        rulesets = list(RULESETS.values()) if args.all else [find_ruleset(args.ruleset)]
        wanted = None if args.players is None else _number_of_players(args.players)
        counts = [_players(r, wanted) for r in rulesets]
        rounds = _count("--rounds", args.rounds, "a number of rounds")
        seed = whole_number("--seed", args.seed, "a random seed", least=0)
        check_auto_confirm(args.auto_confirm)
        check_web(args)
        if args.speed is not None and not 0 < args.speed < float("inf"):
            raise SettingError(f"--speed must be more than 0, not {args.speed}")
        mode = choose_mode("headless" if args.headless else args.display)
        if mode is DisplayMode.HEADLESS and args.out is None:
            args.out = HEADLESS_OUT
        look = look_with(name.strip() for name in args.conditions.split(",") if name.strip())
        path = args.journal or demo_journal_path()
        journal, recovered = Journal.open_or_recover(path)
    except CompanionError as err:
        return fail("demo", err)
    with journal, ExitStack() as stack:
        listener = open_listener(args, "demo")
        if listener is not None:
            stack.callback(listener.close)
        if recovered:
            print(f"demo: {recovered}")
        if args.out is not None:
            print(f"demo: screens of each phase go to {args.out}")
        for index, (ruleset, players) in enumerate(zip(rulesets, counts, strict=True), start=1):
            out = args.out / ruleset.name if args.out and len(rulesets) > 1 else args.out
            try:
                with stopping.gently():  # a stop ends this game, summed up, and the demo
                    result = run_demo(
                        ruleset,
                        players,
                        journal,
                        mode,
                        layout_name=args.layout,
                        language=find_language(args.language),
                        resume=args.resume and index == 1,
                        seed=seed,
                        out=out,
                        auto_confirm=args.auto_confirm,
                        rounds=rounds,
                        page=listener.page if listener is not None else None,
                        serve=_with_loop(listener, path),
                        speed=args.speed,
                        stay=args.stay and index == len(rulesets),
                        phone_names=args.phone_names,
                        lens=LENSES[args.lens],
                        look=look,
                    )
                    _summary(result, path)
            except CompanionError as err:
                return fail("demo", err)
    return 0


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


def _with_loop(listener: "Listener | None", journal: Path) -> Callable[[Loop], Closing | None]:
    """What starts with each game's loop: Ctrl-C or SIGTERM ends that loop after the
    frame it is drawing, and the phone page, if there is one, is served from it."""

    def start(loop: Loop) -> Closing | None:
        stopping.on_stop(loop.stop)
        return None if listener is None else serve(listener, loop, journal, os.environ, "demo")

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
