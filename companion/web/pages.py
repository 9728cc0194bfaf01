"""The phone page's HTML: every page the web server sends, in the table's language.

The live part of the table page is drawn from the same `ScreenView` the table's
screen draws, so a phone says exactly what the table says; the rest comes from the
state document (`GET /api/state`) and the journal's games. Templates are Jinja2 with
autoescaping on: a player's name is always text, never markup. Every word a player
reads goes through the phrase functions (in the templates as in Python), so Babel
finds it and the page speaks the table's language.
"""

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jinja2

from companion.colours import COLOURS
from companion.display.view import Rabbit, ScreenView
from companion.journal import DamagedGame, GameStatus, GameSummary, RoundSummary, StoredGame
from companion.language import Language, translations
from companion.phrases import (
    Phrase,
    Translations,
    in_context,
    listing,
    phrase,
    plural,
)
from companion.rules import find_ruleset
from companion.session.draft import OPTION_CHOICES, colour_name
from companion.session.setup import EDITIONS, OPTIONS, player_range
from companion.view.present_setup import OPTION_WORDS, option_value
from companion.web.game_page import game_line, hand_entry, names, round_page
from companion.web.pending import Pending
from companion.web.style import kit, signed

STATIC: Mapping[str, str] = {
    "page.css": "text/css; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
}
"""The only files the page is served besides its HTML, with their media types."""

_MAKERS: Mapping[str, Callable[..., Phrase]] = {
    "phrase": phrase,
    "plural": plural,
    "in_context": in_context,
}
"""The phrase functions the templates call by the same names, so Babel extracts them."""

_SPLIT = "\x00"
"""Stands for a number that the page's script changes inside translated words."""


@dataclass(frozen=True)
class Split:
    """Translated words around a number the page's script keeps up to date."""

    before: str
    number: int
    after: str


class Pages:
    """Renders each page of the phone page; the web server's routes call it."""

    def __init__(self) -> None:
        self._env = jinja2.Environment(
            loader=jinja2.PackageLoader("companion.web", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._env.globals["kit"] = kit
        self._env.globals["listing"] = listing
        self._env.filters["signed"] = signed
        folder = resources.files("companion.web").joinpath("static")
        self._static = {
            name: (folder.joinpath(name).read_bytes(), media) for name, media in STATIC.items()
        }

    def static(self, name: str) -> tuple[bytes, str] | None:
        """The page's style sheet or script with its media type; None for any other name
        (names are looked up, never made into paths)."""
        return self._static.get(name)

    def live(self, view: ScreenView, state: dict[str, Any], language: Language) -> str:
        """The live part of the table page: what the stream sends on every change."""
        words = translations(language)
        return self._render(
            "live.html",
            language,
            view=view,
            state=state,
            rabbits=_scored(view.rabbits, state),
            scale=view.target or max((r.total for r in view.rabbits), default=0) or 1,
            lines=_keys(len(view.proposal.lines) if view.proposal else 0, state),
            last_lines=_keys(len(view.last_round.lines) if view.last_round else 0, state),
            countdown=_countdown(view.countdown, words),
        )

    def table(
        self,
        view: ScreenView,
        state: dict[str, Any],
        language: Language,
        *,
        csrf: str,
        staff: bool,
    ) -> str:
        """`GET /`: the whole table page around its live part."""
        return self._render(
            "table.html",
            language,
            page="table",
            csrf=csrf,
            staff=staff,
            setting_up=state["setup"] is not None,
            live=self.live(view, state, language),
        )

    def games(
        self,
        summaries: Sequence[GameSummary | DamagedGame],
        language: Language,
        *,
        archive_damage: str | None = None,
    ) -> str:
        """`GET /games`: the table's past games, newest first, under a note saying why
        the archive's games are missing when it cannot be read (`archive_damage`)."""
        words = translations(language)
        newest = sorted(summaries, key=lambda s: s.id, reverse=True)
        return self._render(
            "games.html",
            language,
            page="games",
            csrf="",
            setting_up=False,
            games=[game_line(s, words) for s in newest],
            archive_damage=archive_damage,
        )

    def game(
        self,
        stored: StoredGame,
        summary: GameSummary,
        rounds: Sequence[RoundSummary],
        language: Language,
        *,
        csrf: str,
        staff: bool,
        slots: Sequence[int],
        bgstats: str | None,
        version: int = 0,
    ) -> str:
        """`GET /games/ID`: every round with its points, reasons, cards, votes and
        photos; downloads; the staff's correction forms, which send back `version`
        (the table's snapshot when the page was drawn)."""
        words = translations(language)
        game = stored.game
        correctable = staff and stored.status is not GameStatus.ABANDONED
        pages = [
            round_page(stored, kept, words, tuple(slots) if correctable else None)
            for kept in rounds
            if 1 <= kept.number <= len(game.played)
        ]
        return self._render(
            "game.html",
            language,
            page="game",
            csrf=csrf,
            staff=staff,
            setting_up=False,
            line=game_line(summary, words),
            game_id=stored.id,
            rounds=list(reversed(pages)),
            entering=hand_entry(game, tuple(slots), words)
            if correctable and stored.status is GameStatus.PLAYING
            else None,
            entering_number=game.round_number,
            players=game.seating.players,
            bgstats=bgstats,
            winners=names(game, summary.winners, words),
            version=version,
        )

    def setup(self, state: dict[str, Any], language: Language, *, csrf: str) -> str:
        """`GET /setup`: names for the seats the table shows, the edition, the options."""
        words = translations(language)
        setup = state["setup"]
        return self._render(
            "setup.html",
            language,
            page="setup",
            csrf=csrf,
            setting_up=setup is not None,
            setup=setup,
            editions=[_edition(name, words) for name in EDITIONS],
            options=[_option(name, setup, words) for name in OPTIONS] if setup else [],
            colours=[(c.name, colour_name(c.name, language)) for c in COLOURS],
        )

    def staff(
        self,
        state: dict[str, Any],
        language: Language,
        *,
        csrf: str,
        staff: bool,
        waiting: Pending,
    ) -> str:
        """`GET /staff`: the PIN form, or the staff's buttons for the table around what
        waits for them (`staff_panel`, which the stream keeps up to date)."""
        return self._render(
            "staff.html",
            language,
            page="staff",
            csrf=csrf,
            staff=staff,
            setting_up=state["setup"] is not None,
            state=state,
            panel=self.staff_panel(waiting, language),
        )

    def staff_panel(self, waiting: Pending, language: Language) -> str:
        """What waits for the staff and the buttons that apply now: what the stream
        sends the staff page on every change."""
        words = translations(language)
        return self._render(
            "staff_panel.html",
            language,
            pending=waiting,
            headline=waiting.headline.render(words),
            details=[detail.render(words) for detail in waiting.details],
            countdown=_countdown(waiting.countdown, words),
        )

    def message(self, title: Phrase, detail: Phrase | str, language: Language, status: int) -> str:
        """An error page in the page's style: what went wrong and the way back."""
        words = translations(language)
        said = detail.render(words) if isinstance(detail, Phrase) else detail
        return self._render(
            "message.html",
            language,
            page="message",
            csrf="",
            setting_up=False,
            title=title.render(words),
            detail=said,
            status=status,
        )

    def _render(self, name: str, language: Language, **values: Any) -> str:
        template = self._env.get_template(name)
        return template.render(lang=language.value, **_sayers(translations(language)), **values)


def _sayers(words: Translations) -> dict[str, Callable[..., str]]:
    """The phrase functions for the templates, each putting its words in `words`."""

    def bound(maker: Callable[..., Phrase]) -> Callable[..., str]:
        def said(*args: Any, **values: Any) -> str:
            return maker(*args, **values).render(words)

        return said

    return {name: bound(maker) for name, maker in _MAKERS.items()}


def _keys(count: int, state: Mapping[str, Any]) -> list[str]:
    """The scorers' keys in the state's totals, in seating order: the view lists its
    rabbits and score lines in that order too."""
    totals = list(state.get("totals") or {})
    return totals if len(totals) == count else [""] * count


def _scored(rabbits: Sequence[Rabbit], state: Mapping[str, Any]) -> list[tuple[Rabbit, str]]:
    keys = _keys(len(rabbits), state)
    return [(rabbit, key or rabbit.name) for rabbit, key in zip(rabbits, keys, strict=True)]


def _countdown(seconds: float | None, words: Translations) -> Split | None:
    if seconds is None:
        return None
    text = phrase("Confirms by itself in {seconds} s", seconds=_SPLIT).render(words)
    before, _, after = text.partition(_SPLIT)
    return Split(before, max(0, math.ceil(seconds)), after)


def _edition(name: str, words: Translations) -> tuple[str, str]:
    rules = find_ruleset(name)
    label = phrase("{summary} ({players})", summary=rules.title_words, players=player_range(rules))
    return name, label.render(words)


def _option(name: str, setup: Mapping[str, Any], words: Translations) -> dict[str, Any]:
    """One option's select: its name in words, the values offered, the value now."""
    value = setup["options"].get(name)
    offered = list(OPTION_CHOICES[name])
    if value not in offered:
        offered.append(value)
    return {
        "name": name,
        "label": OPTION_WORDS[name].render(words),
        "value": _choice(value),
        "choices": [(_choice(v), option_value(name, v).render(words)) for v in offered],
    }


def _choice(value: int | None) -> str:
    """An option's value as a select's value: "none" for no limit."""
    return "none" if value is None else str(value)
