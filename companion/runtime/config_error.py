"""The screen a table shows when its own options are wrong.

As a service the companion starts at boot with nobody at a keyboard, and nobody
reads its stderr. A mistake in the table's options (a misspelt ruleset, two buttons
on one pin) would otherwise leave the screen dark while systemd restarts the
program every two seconds. Instead the screen says what is wrong and where to put it
right, and the process stays up showing it: it tells systemd it is ready and alive
(the watchdog), and stops cleanly when the service is stopped. Its words are shown
in the table's language when its options name one the table speaks (the language
option may be the one at fault: then in English); the error itself, which also goes
to the log, stays in English.
"""

import signal
import sys
import threading
import time
from collections.abc import Mapping

import pygame

from companion.actions import Action
from companion.display import fonts
from companion.display.screen import DisplayMode, Screen
from companion.display.theme import BACKGROUND, MUTED, RED, TEXT, scale_for
from companion.errors import CompanionError
from companion.language import Language, translations
from companion.phrases import Phrase, phrase
from companion.runtime.service import QuietManager, ServiceManager, service_manager
from companion.service_options import OPTIONS_FILE, OPTIONS_VARIABLE

TITLE = phrase("The table cannot start: one of its options is wrong")
WAIT_SECONDS = 0.25
"""How often the screen looks for a stop, a key press, and feeds the watchdog."""


def advice() -> tuple[Phrase, ...]:
    """Where the options are put right, and how the table starts again."""
    return (
        phrase(
            "Put it right in {variable} in {file},", variable=OPTIONS_VARIABLE, file=OPTIONS_FILE
        ),
        phrase("then: {command}", command="sudo systemctl restart dixit-companion"),
        phrase("({command} checks the same options)", command="companion doctor"),
    )


def draw_config_error(
    surface: pygame.Surface, message: str, language: Language = Language.ENGLISH
) -> None:
    """The error screen, in `language`: a title, the one-line error, and where to fix it."""
    words = translations(language)
    surface.fill(BACKGROUND)
    w, h = surface.get_size()
    s = scale_for(h)
    margin = s(40)
    box = w - 2 * margin
    title = fonts.fit(TITLE.render(words), box, s(44), RED, min_px=s(18))
    surface.blit(title, (margin, margin))
    top = margin + title.get_height() + s(30)
    told = tuple(line.render(words) for line in advice())
    parts = (
        (fonts.block((message,), (box, (h - top) * 3 // 5), s(40), s(16)), TEXT),
        (fonts.block(told, (box, (h - top) * 2 // 5 - s(20)), s(30), s(14)), MUTED),
    )
    for block, colour in parts:
        for line in block.lines:
            surface.blit(fonts.text(line, block.px, colour), (margin, top))
            top += fonts.line_height(block.px)
        top += s(20)


def show_config_error(
    message: str,
    mode: DisplayMode,
    environ: Mapping[str, str],
    language: Language | None = None,
) -> bool:
    """Show the error (in `language`, English when None) until the service is stopped
    (SIGTERM) or Q is pressed; True once it was shown.

    If the screen itself cannot be opened (at boot the display may not be ready yet),
    one line on stderr says so and this returns False at once: `play` then exits with
    the ordinary error status, so that systemd tries again and the next start can show
    the mistake."""
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        service = _manager(environ)
        with Screen(mode=mode) as screen:
            draw_config_error(screen.surface, message, language or Language.ENGLISH)
            if mode is not DisplayMode.HEADLESS:
                pygame.display.flip()
            service.ready()
            while not stop.is_set():
                service.alive(time.monotonic())
                if any(press.action is Action.QUIT for press in screen.presses()):
                    break
                stop.wait(WAIT_SECONDS)
            service.stopping()
    except pygame.error as err:
        print(
            f"companion play: the screen cannot show this either: {err or type(err).__name__}",
            file=sys.stderr,
            flush=True,
        )
        return False
    finally:
        signal.signal(signal.SIGTERM, previous)
    return True


def _manager(environ: Mapping[str, str]) -> ServiceManager:
    """systemd when it started us; a broken watchdog setting is itself a wrong option,
    already shown, so the screen is shown without the watchdog."""
    try:
        return service_manager(environ)
    except CompanionError:
        return QuietManager()
