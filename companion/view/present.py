"""What the screen shows of a session's state: every word and number, as a `ScreenView`.

The display decides where things go; this module decides what they say, in the
table's language, so the wording can be read and tested without drawing anything.
It reads a frozen `SessionState` (a snapshot's), never the session itself. The
messages are phrases until here: this is where they are put into words.
"""

from collections.abc import Mapping
from dataclasses import replace

from companion.actions import Action
from companion.colours import RGB
from companion.display.view import (
    Breakdown,
    CameraView,
    EditorView,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScoreLine,
    ScreenView,
    WinnerView,
)
from companion.language import translations
from companion.phrases import Phrase, Translations, in_context, listing, phrase, plural
from companion.rules import Game, RoundScore
from companion.session.states import (
    Abandoning,
    Choosing,
    Clearing,
    Editing,
    Phase,
    PickingLanguage,
    Proposal,
    SessionState,
    Winner,
)
from companion.view.present_editor import editor_title, editor_view
from companion.view.present_setup import setup_view
from companion.wording import number_word


def present(
    state: SessionState, now: float, camera: CameraView | None, page: str | None = None
) -> ScreenView:
    """The screen for the session as it stands at `now`, in the table's language;
    `page` is the phone page's address, shown as a QR code (None: no page)."""
    words = translations(state.language)
    shown = _camera(camera, words)
    if state.setting_up:
        return _setting_up(state, now, shown, words, page)
    game, at = state.game, state.at
    return ScreenView(
        title=_title(state).render(words),
        headline=_headline(state, shown).render(words),
        rabbits=_rabbits(state, state.positions(now)),
        notices=_notices(state, now, words),
        proposal=_breakdown(state, at.score, _proposed(at.score), words)
        if isinstance(at, Proposal)
        else None,
        last_round=_last_round(state, words),
        camera=shown,
        buttons=_buttons(state, words),
        countdown=state.countdown(now),
        footer=_footer(state, words),
        editor=_editor(state, at, words) if isinstance(at, Editing) else None,
        winner=_winner(state, words) if isinstance(at, Winner) else None,
        target=game.ruleset.target,
        more_notices=phrase("+{n} more").render(words),
        details_elsewhere=phrase("details on the phone page").render(words),
        page=page,
        page_caption=_page_caption(words),
    )


def members(game: Game, scorer: str) -> tuple[str, ...]:
    """The players behind a scorer: the player, or a team's two members."""
    seating = game.seating
    if scorer in seating:
        return (scorer,)
    return dict(zip(seating.teams, seating.pairs, strict=True))[scorer]


def scorer_name(game: Game, scorer: str) -> str:
    """A scorer's name as shown: "Ann", or "Ann + Bob" for a team."""
    return " + ".join(members(game, scorer))


def scorer_colours(state: SessionState, scorer: str) -> tuple[RGB, ...]:
    """A scorer's colours: one per member."""
    return tuple(state.lineup.rgb_of(p) for p in members(state.game, scorer))


def _setting_up(
    state: SessionState,
    now: float,
    camera: CameraView | None,
    words: Translations,
    page: str | None,
) -> ScreenView:
    """A setup step: the step's own view, its question as the headline; no track (the
    game is not there yet), and the step's messages are among its problems."""
    step = setup_view(state, now, words)
    at = state.at
    finished = state.game_id is not None and state.game.outcome is not None
    confirm = (
        in_context("button", "Start")
        if isinstance(at, Choosing)
        else in_context("button", "Confirm")
    )
    buttons = (
        OnScreenButton(
            in_context("button", "Back").render(words),
            Action.BACK,
            enabled=not isinstance(at, PickingLanguage) or finished,
        ),
        OnScreenButton(in_context("button", "Next").render(words), Action.NEXT),
        OnScreenButton(confirm.render(words), Action.CONFIRM),
    )
    return ScreenView(
        title=phrase("New game").render(words),
        headline=step.question,
        rabbits=(),
        camera=camera,
        buttons=buttons,
        setup=step,
        target=None,
        more_notices=phrase("+{n} more").render(words),
        details_elsewhere=phrase("details on the phone page").render(words),
        page=page,
        page_caption=_page_caption(words),
    )


def _page_caption(words: Translations) -> str:
    """What the phone page's QR code is for, said under it."""
    return phrase("Follow the game on your phone").render(words)


def _camera(camera: CameraView | None, words: Translations) -> CameraView | None:
    """The camera panel in the table's language."""
    if camera is None:
        return None
    status = camera.status
    return replace(
        camera,
        status=status.render(words) if isinstance(status, Phrase) else status,
        no_picture=phrase("no picture yet").render(words),
        failed=phrase("Camera not working").render(words),
    )


def _title(state: SessionState) -> Phrase:
    game = state.game
    edition = game.ruleset.title_words
    if game.outcome is not None:
        return phrase(
            "{edition} - game over after round {number}",
            edition=edition,
            number=len(game.played),
        )
    return phrase("{edition} - round {number}", edition=edition, number=game.round_number)


def _headline(state: SessionState, camera: CameraView | None) -> Phrase:
    game = state.game
    number = game.round_number
    match state.at:
        case Proposal():
            return phrase("Round {number}: confirm the score?", number=number)
        case Clearing() if not game.played:
            return phrase("{player} tells first. Clear the table", player=game.first_storyteller)
        case Clearing():
            return phrase(
                "Round {scored} scored. Clear the table for round {number}",
                scored=len(game.played),
                number=number,
            )
        case Editing(editor=editor):
            return editor_title(editor)
        case Winner():
            outcome = game.outcome
            winners = [scorer_name(game, w) for w in outcome.winners] if outcome else []
            return plural(
                "{winners} wins!", "{winners} win!", len(winners), winners=listing(winners)
            )
        case Abandoning():
            return phrase("Give up this game? It stays in the journal, marked abandoned")
        case _:
            blocking = _blocking(state)
            if blocking is not None:
                return phrase("Put this right to score: {problem}", problem=blocking)
            if camera is not None and not camera.working:
                return phrase(
                    "Round {number}: {player} tells. Press {button} to enter it by hand",
                    number=number,
                    player=game.storyteller,
                    button=in_context("button", "Fix"),
                )
            return phrase("Round {number}: {player} tells", number=number, player=game.storyteller)


def _blocking(state: SessionState) -> Phrase | None:
    """The first problem on the table that stops the round being scored, while a
    round is laid out; the headline says it, whole, with what to do."""
    table = state.table
    if table is None or state.phase is not Phase.WAITING or not table.report.problems:
        return None
    return table.report.problems[0]


def _rabbits(state: SessionState, positions: Mapping[str, float]) -> tuple[Rabbit, ...]:
    game = state.game
    return tuple(
        Rabbit(
            name=scorer_name(game, scorer),
            colours=scorer_colours(state, scorer),
            total=total,
            position=positions[scorer],
            storyteller=game.storyteller in members(game, scorer) and game.outcome is None,
        )
        for scorer, total in game.totals.items()
    )


def _notices(state: SessionState, now: float, words: Translations) -> tuple[Notice, ...]:
    said: list[tuple[Phrase, Level]] = []
    message = state.says(now)
    if message is not None:
        said.append((message, Level.INFO))
    said += _table_notices(state)
    return tuple(Notice(text.render(words), level) for text, level in said)


def _table_notices(state: SessionState) -> list[tuple[Phrase, Level]]:
    """What the phase and the table as read say beside the one-off message."""
    at, table = state.at, state.table
    if isinstance(at, Editing):  # what is wrong with the question asked, not the round
        return [(p, Level.PROBLEM) for p in (*at.problems, *at.questions.problems())]
    if isinstance(at, Abandoning):
        asked = phrase(
            "A long hold on {button} (or a long touch on the screen) asked for this",
            button=in_context("button", "Confirm"),
        )
        return [(asked, Level.INFO)]
    if table is None or state.phase is Phase.WINNER:
        return []
    report = table.report
    if state.phase is Phase.CLEARING:
        if report.cleared:
            return []
        left = plural(
            "{count} token still on the table",
            "{count} tokens still on the table",
            report.tokens,
            count=number_word(report.tokens),
        )
        return [(left, Level.WAITING)]
    notices: list[tuple[Phrase, Level]] = []
    if state.already_scored():
        scored = phrase(
            "the table still shows round {number}, already scored: clear it",
            number=len(state.game.played),
        )
        notices.append((scored, Level.WAITING))
    told = 1 if _blocking(state) is not None else 0  # the first is the headline
    notices += [(p, Level.PROBLEM) for p in (*report.problems[told:], *report.alerts)]
    notices += [(w, Level.WAITING) for w in report.waiting]
    if report.ready and not table.steady:
        notices.append((phrase("hold still: the table is settling"), Level.WAITING))
    notices += [(n, Level.INFO) for n in report.notes]
    return notices


def _proposed(score: RoundScore) -> Phrase:
    return phrase("Proposed score: round {number}", number=score.round.number)


def _last_round(state: SessionState, words: Translations) -> Breakdown | None:
    played = state.game.played
    if not played:
        return None
    score = played[-1].score
    title = phrase("Round {number}", number=score.round.number)
    return _breakdown(state, score, title, words)


def _breakdown(
    state: SessionState, score: RoundScore | None, title: Phrase, words: Translations
) -> Breakdown | None:
    if score is None:
        return None
    game = state.game
    reasons = score.reasons_in(words)
    lines = tuple(
        ScoreLine(
            name=scorer_name(game, scorer),
            colours=scorer_colours(state, scorer),
            points=points,
            reasons=reasons[scorer],
        )
        for scorer, points in score.deltas.items()
    )
    return Breakdown(title.render(words), lines)


def _buttons(state: SessionState, words: Translations) -> tuple[OnScreenButton, ...]:
    def button(label: Phrase | str, action: Action, enabled: bool = True) -> OnScreenButton:
        shown = label.render(words) if isinstance(label, Phrase) else label
        return OnScreenButton(shown, action, enabled)

    can_undo = bool(state.game.played)
    match state.phase:
        case Phase.EDITING:
            ready = state.editor is not None and not state.editor.problems()
            return (
                button(in_context("button", "Previous"), Action.UP),
                button(in_context("button", "Next"), Action.DOWN),
                button("<", Action.LEFT),
                button(">", Action.RIGHT),
                button(in_context("button", "Save"), Action.CONFIRM, enabled=ready),
                button(in_context("button", "Cancel"), Action.BACK),
            )
        case Phase.ABANDONING:
            return (
                button(in_context("button", "Give up"), Action.CONFIRM),
                button(in_context("button", "Go back"), Action.BACK),
            )
        case Phase.WINNER:
            return (
                button(in_context("button", "Same players again"), Action.CONFIRM),
                button(in_context("button", "New group"), Action.NEXT),
                button(in_context("button", "Fix"), Action.FIX),
            )
        case Phase.PROPOSAL:
            first = button(in_context("button", "Confirm"), Action.CONFIRM)
        case Phase.CLEARING:
            first = button(in_context("button", "Next round"), Action.CONFIRM)
        case _:
            first = button(in_context("button", "Confirm"), Action.CONFIRM, enabled=False)
    return (
        first,
        button(in_context("button", "Fix"), Action.FIX),
        button(in_context("button", "Undo"), Action.UNDO, enabled=can_undo),
    )


def _footer(state: SessionState, words: Translations) -> str:
    game = state.game
    rules = game.ruleset
    parts = [
        phrase("draw pile {cards}", cards=game.piles.draw),
        phrase("discard {cards}", cards=game.piles.discard),
    ]
    turns = rules.storyteller_turns
    if turns is not None:
        rounds = turns * len(game.seating)
        parts.append(plural("game ends after {n} round", "game ends after {n} rounds", rounds))
    if rules.round_limit is not None:
        parts.append(plural("at most {n} round", "at most {n} rounds", rules.round_limit))
    if state.game_id is not None:
        parts.append(phrase("game {number}", number=state.game_id))
    return " - ".join(part.render(words) for part in parts)


def _editor(state: SessionState, editing: Editing, words: Translations) -> EditorView:
    editor = editing.editor
    preview = editor.preview() if editing.reviewing and not editor.problems() else None
    title = (
        phrase("New score: round {number}", number=editor.number)
        if editor.past
        else phrase("Round {number}", number=editor.number)
    )
    return editor_view(editing, words, _breakdown(state, preview, title, words))


def _winner(state: SessionState, words: Translations) -> WinnerView:
    game = state.game
    outcome = game.outcome
    totals = game.totals
    standings = sorted(totals.items(), key=lambda item: -item[1])
    reason = (
        phrase(
            "{reason} after round {number}",
            reason=outcome.termination.words,
            number=outcome.after_round,
        ).render(words)
        if outcome
        else ""
    )
    return WinnerView(
        winners=tuple(scorer_name(game, w) for w in outcome.winners) if outcome else (),
        reason=reason,
        standings=tuple((scorer_name(game, s), scorer_colours(state, s), t) for s, t in standings),
        heading=in_context("winner screen", "Winner").render(words),
        shared_heading=in_context("winner screen", "Winners").render(words),
    )
