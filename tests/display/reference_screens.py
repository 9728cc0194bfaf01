"""The reference screens: every main screen as fixed values, and the sizes each is
drawn at; the reference pictures (`test_reference_pictures.py`) and the type scale
(`test_type_scale.py`) both check every one."""

import functools
from collections.abc import Callable
from pathlib import Path

from companion.display.view import ScreenView
from companion.language import Language
from tests.display import odyssey_twelve, sample_views

REFERENCES = Path(__file__).with_name("references")
"""Where the reference pictures are kept."""
SIZES = ((1280, 720), (800, 480))
"""A television and the 7" touch screen."""
SCREENS: dict[str, Callable[[], ScreenView]] = {
    "setup": sample_views.setup,
    "waiting": sample_views.three_players,
    "problems": sample_views.many_notices,
    "proposal": sample_views.twelve_players,
    "clearing": sample_views.teams,
    "editor": sample_views.editor,
    "editor-fr": sample_views.french_editor,
    "editor-summary": sample_views.editor_summary,
    "winner": sample_views.winner,
    "camera-lost": sample_views.camera_failed,
    "setup-language": sample_views.setup_language,
    "setup-edition": sample_views.setup_edition,
    "setup-seats": sample_views.setup_seats,
    "setup-teams": sample_views.setup_teams,
    "setup-names": sample_views.setup_names,
    "setup-options": sample_views.setup_options,
    **{
        f"setup-{step}-fr": functools.partial(sample_views.SETUP_STEPS[step], "fr")
        for step in ("edition", "seats", "teams", "names", "options", "first")
    },
    **sample_views.PAGE_SAMPLES,
    **{
        f"odyssey12-{state}{suffix}": functools.partial(odyssey_twelve.screen, language, state)
        for language, suffix in ((Language.ENGLISH, ""), (Language.FRENCH, "-fr"))
        for state in odyssey_twelve.STATES
    },
}
"""The main screens: choosing the first storyteller, a round being laid (waiting, and
with problems), a proposal with its reasons, clearing after a round, the round editor,
the winner, and a lost camera (the game goes on by hand); every step of setting up
a game, in English and (but for the language, which looks the same) in French; and
screens with the phone page's QR code; and a game of Odyssey between twelve players
with long, alike names, played through the session and the view model, in English and
French: waiting for votes and owner tokens, blocked by a problem, a proposal, the
winner past the finish."""
