"""Every reason of a real round is drawn whole and legible on a 15.6" monitor at
1280x720, in English and French, with twelve players and with six teams; on the 7"
screen (800x480), whose type must be far larger in pixels for the same millimetres,
the reasons are drawn whole or leave for the phone page, never cut. The rounds are
scored by `companion.rules`, so the reasons are the longest the rules really print,
and the screen is laid out as it is drawn (`table.arrange`), so the table is checked
in the room it really gets."""

import dataclasses
from dataclasses import dataclass

import pygame
import pytest

from companion.actions import Action
from companion.colours import COLOURS
from companion.display import breakdown_layout, fonts, layout, table, theme, typescale
from companion.display.render import render
from companion.display.scoreboard import standings
from companion.display.typescale import Tier
from companion.display.view import (
    Breakdown,
    CameraView,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScoreLine,
    ScreenView,
)
from companion.language import Language, translations
from companion.rules import Game, Reveal, RoundScore, find_ruleset
from tests.display.sample_views import camera_picture

SIZES = ((800, 480), (1280, 720))
"""The 7" touch screen and a television."""
PLAYERS = (
    "Élodie",
    "Maximilien-Alexandre",
    "Clémentine",
    "Dan",
    "Ève",
    "Françoise",
    "Orange",
    "Hélène",
    "Ivo",
    "Jade",
    "Kai",
    "Léa",
)
"""Twelve names, one long, most with accents; seat 7 unnamed, playing as its colour."""
STORYTELLER = PLAYERS[0]
BUTTONS = (
    OnScreenButton("Valider", Action.CONFIRM),
    OnScreenButton("Corriger", Action.FIX),
    OnScreenButton("Annuler", Action.UNDO, enabled=False),
)


@dataclass(frozen=True)
class RealRound:
    """A round as the rules score it."""

    name: str
    ruleset: str
    votes: dict[str, tuple[int, ...]]
    """Voter to slots; player i lays the card on slot i + 1."""
    trap: int | None = None


ROUNDS = (
    RealRound(
        # The most reasons: five find the card with a single vote and each gets votes
        # (three reasons each), six cast two votes on others' cards and get one back.
        "odyssey-most-reasons",
        "odyssey",
        {
            "Maximilien-Alexandre": (1,),
            "Clémentine": (1,),
            "Dan": (1,),
            "Ève": (1,),
            "Françoise": (1,),
            "Orange": (2, 8),
            "Hélène": (3, 9),
            "Ivo": (4, 10),
            "Jade": (5, 11),
            "Kai": (6, 12),
            "Léa": (7, 2),
        },
    ),
    RealRound(
        # The longest reasons: bonuses capped at 3 ("six votes on your card, capped at
        # 3") beside the single-vote bonus, and eight "0 did not find" rows.
        "odyssey-capped",
        "odyssey",
        {
            "Maximilien-Alexandre": (1,),
            "Clémentine": (1,),
            "Dan": (1,),
            **{voter: (2, 3) if i % 2 else (3, 4) for i, voter in enumerate(PLAYERS[4:])},
        },
    ),
    RealRound(
        # Six teams named by both members; the teams' reasons name players too.
        "teams",
        "teams",
        {"Hélène": (1,), "Ivo": (3,), "Jade": (3,), "Kai": (4,), "Léa": (1,)},
    ),
    RealRound(
        # Party: every reason counts the votes on a slot, some capped at 5.
        "party-capped",
        "party-1e",
        {
            **dict.fromkeys(PLAYERS[:7], (4,)),
            **dict.fromkeys(PLAYERS[7:10], (9,)),
            "Kai": (2,),
            "Léa": (11,),
        },
        trap=2,
    ),
)


def scored(real: RealRound) -> tuple[Game, RoundScore]:
    """The round scored by the rules, in a new game of twelve."""
    game = Game.start(find_ruleset(real.ruleset), PLAYERS, STORYTELLER)
    cards = dict(enumerate(PLAYERS, start=1))
    if real.ruleset.startswith("teams"):
        voters = set(real.votes)
        cards = {slot: p for slot, p in cards.items() if p not in voters}
    reveal = Reveal(cards, real.votes, real.trap)
    problems = game.problems(reveal)
    assert not problems, [str(p) for p in problems]
    return game, game.score(reveal)


def proposal_view(
    real: RealRound, language: Language, camera: bool = True, proposal: bool = True
) -> ScreenView:
    """The playing screen with the round proposed (or, with `proposal` False, scored
    and waiting for the table to be cleared), as `present` builds it."""
    game, score = scored(real)
    words = translations(language)
    colour_of = {player: COLOURS[i].rgb for i, player in enumerate(PLAYERS)}
    members = {team: tuple(team.split("+")) for team in game.scorers}
    reasons = score.reasons_in(words)
    lines = tuple(
        ScoreLine(
            " + ".join(members[scorer]),
            tuple(colour_of[m] for m in members[scorer]),
            points,
            reasons[scorer],
        )
        for scorer, points in score.deltas.items()
    )
    points = Breakdown("Score proposé : manche 9", lines)
    rabbits = tuple(
        Rabbit(line.name, line.colours, 3 * i, 3.0 * i, STORYTELLER in members[scorer])
        for i, (scorer, line) in enumerate(zip(game.scorers, lines, strict=True))
    )
    notice = Notice("Élodie raconte en premier", Level.INFO)
    clear = Notice("douze jetons restent sur la table", Level.WAITING)
    return ScreenView(
        title="Dixit Odyssey - manche 9",
        headline="Manche 9 : valider le score ?",
        rabbits=rabbits,
        notices=(notice,) if proposal else (clear, notice),
        proposal=points if proposal else None,
        last_round=None if proposal else points,
        camera=CameraView(camera_picture(), "caméra : table simulée", True) if camera else None,
        buttons=BUTTONS,
    )


def laid_out(view: ScreenView, size: tuple[int, int]) -> tuple[table.Parts, breakdown_layout.Plan]:
    """Where the screen puts the points, and how the table lays them out there."""
    s = theme.scale_for(size[1])
    frame = layout.frame(size, s, bool(view.buttons), view.headline, seat_sized=True)
    parts = table.arrange(frame.body, view, s, frame.gap)
    points = view.proposal or view.last_round
    assert points is not None
    assert parts.points is not None, "the points are shown"
    if not parts.reasons:
        bare = tuple(dataclasses.replace(line, reasons=()) for line in points.lines)
        points = dataclasses.replace(points, lines=bare)
    totals = standings(view.rabbits) if parts.merged else ()
    return parts, breakdown_layout.plan(pygame.Rect(parts.points).size, points, s, totals)


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


CASES = [
    pytest.param(
        real, language, camera, size, id=f"{real.name}-{language.value}-{tag}-{size_id(size)}"
    )
    for real in ROUNDS
    for language in Language
    for camera, tag in ((True, "camera"), (False, "no-camera"))
    for size in SIZES
]


@pytest.mark.parametrize(("real", "language", "camera", "size"), CASES)
def test_every_reason_of_a_proposal_is_drawn_whole(
    real: RealRound, language: Language, camera: bool, size: tuple[int, int]
) -> None:
    view = proposal_view(real, language, camera)
    parts, plan = laid_out(view, size)
    assert view.proposal is not None
    if not parts.reasons:
        assert size == (800, 480), "only the 7-inch screen sends the reasons to the phone"
        assert all(not row.lines for row in plan.rows)
        return
    assert plan.whole and not plan.names_cut
    for scorer, row in zip(view.proposal.lines, plan.rows, strict=True):
        assert row.reasons == scorer.reasons
        assert " ".join(row.lines).split() == " ".join(scorer.reasons).split()
        assert not any(fonts.ELLIPSIS in line for line in row.lines)
        assert all(fonts.width(line, plan.reason_px) <= plan.reason_width for line in row.lines)
        assert len(row.lines) <= breakdown_layout.LINES_PER_REASON * len(scorer.reasons)


@pytest.mark.parametrize(("real", "language", "camera", "size"), CASES)
def test_reasons_are_never_drawn_below_the_least_size(
    real: RealRound, language: Language, camera: bool, size: tuple[int, int]
) -> None:
    _, plan = laid_out(proposal_view(real, language, camera), size)
    s = theme.scale_for(size[1])
    assert plan.reason_px >= s.at_least(breakdown_layout.LEAST_REASON, Tier.DETAIL)
    assert min(plan.reason_px, plan.name_px, plan.points_px) == plan.reason_px
    assert fonts.cap_height(plan.reason_px) * s.mm_per_px >= typescale.CAP_MM[Tier.DETAIL]
    assert fonts.cap_height(plan.points_px) * s.mm_per_px >= typescale.CAP_MM[Tier.SEAT]


@pytest.mark.parametrize(("real", "language", "camera", "size"), CASES)
def test_the_last_round_is_drawn_whole_or_as_points_only_while_the_table_is_cleared(
    real: RealRound, language: Language, camera: bool, size: tuple[int, int]
) -> None:
    view = proposal_view(real, language, camera, proposal=False)
    if size == (800, 480):
        s = theme.scale_for(size[1])
        frame = layout.frame(size, s, bool(view.buttons), view.headline, seat_sized=True)
        shown = table.arrange(frame.body, view, s, frame.gap)
        if shown.points is None:  # the notices and the scoreboard come first
            assert shown.notices is not None and shown.scoreboard is not None
            return
    parts, plan = laid_out(view, size)
    assert plan.whole and not plan.names_cut
    assert parts.notices is not None
    assert parts.reasons or camera, "without a camera, the reasons find room"
    if not parts.reasons:
        assert all(not row.lines for row in plan.rows)


@pytest.mark.parametrize("language", list(Language), ids=lambda language: language.value)
def test_team_names_fit_on_their_rows(language: Language) -> None:
    """On the 15.6" monitor; the 7" screen cannot hold six names of two at 4 mm."""
    size = (1280, 720)
    view = proposal_view(ROUNDS[2], language)
    _, plan = laid_out(view, size)
    assert not plan.names_cut
    assert [" ".join(row.name).replace("- ", "-") for row in plan.rows] == [
        "Élodie + Orange",
        "Maximilien-Alexandre + Hélène",
        "Clémentine + Ivo",
        "Dan + Jade",
        "Ève + Kai",
        "Françoise + Léa",
    ]


@pytest.mark.parametrize(("real", "language", "camera", "size"), CASES)
def test_the_rows_stay_in_the_table_and_apart(
    real: RealRound, language: Language, camera: bool, size: tuple[int, int]
) -> None:
    parts, plan = laid_out(proposal_view(real, language, camera), size)
    assert parts.points is not None
    area = pygame.Rect((0, 0), pygame.Rect(parts.points).size)
    rows = [pygame.Rect(row.box) for row in plan.rows]
    for i, row in enumerate(rows):
        assert area.contains(row)
        assert row.collidelist(rows[i + 1 :]) == -1


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("proposal", [True, False], ids=["proposal", "clearing"])
def test_the_parts_of_the_screen_never_overlap(proposal: bool, size: tuple[int, int]) -> None:
    for real in ROUNDS:
        for camera in (True, False):
            view = proposal_view(real, Language.FRENCH, camera, proposal)
            s = theme.scale_for(size[1])
            frame = layout.frame(size, s, bool(view.buttons), view.headline, seat_sized=True)
            parts = table.arrange(frame.body, view, s, frame.gap)
            shown = [
                pygame.Rect(part)
                for part in (
                    parts.track,
                    parts.scoreboard,
                    parts.points,
                    parts.notices,
                    parts.camera,
                )
                if part is not None
            ]
            for i, part in enumerate(shown):
                assert part.collidelist(shown[i + 1 :]) == -1, (real.name, camera)


def test_a_table_too_long_for_its_room_drops_repeated_zero_reasons_before_cutting() -> None:
    view = proposal_view(ROUNDS[0], Language.FRENCH)
    assert view.proposal is not None
    s = theme.scale_for(720)
    zeros = [r for line in view.proposal.lines for r in line.reasons if r.startswith("0 ")]
    assert len(zeros) > 2 and len(set(zeros)) == 1
    tight = breakdown_layout.plan((1200, 350), view.proposal, s, standings(view.rabbits))
    roomy = breakdown_layout.plan((1200, 400), view.proposal, s, standings(view.rabbits))
    assert roomy.whole
    assert tight.dropped and not tight.cut
    shown = [r for row in tight.rows for r in row.reasons if r.startswith("0 ")]
    assert shown == zeros[:1]


def test_a_table_with_no_room_at_all_is_cut_short_with_an_ellipsis() -> None:
    view = proposal_view(ROUNDS[0], Language.FRENCH)
    assert view.proposal is not None
    plan = breakdown_layout.plan((500, 120), view.proposal, theme.scale_for(480))
    assert plan.cut and not plan.whole
    assert any(row.lines and row.lines[-1].endswith(fonts.ELLIPSIS) for row in plan.rows)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_a_proposal_of_twelve_is_drawn(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    render(proposal_view(ROUNDS[0], Language.FRENCH), surface)


def test_on_the_small_screen_the_camera_and_the_reasons_give_way_to_a_proposal_of_twelve() -> None:
    view = proposal_view(ROUNDS[0], Language.FRENCH)
    parts, _ = laid_out(view, (800, 480))
    assert parts.camera is None and parts.merged
    assert pygame.Rect(parts.track).height < theme.scale_for(480)(layout.TRACK_HEIGHT)
    assert parts.notices is not None and not parts.reasons


def test_a_failed_camera_stays_on_the_screen_beside_a_proposal() -> None:
    view = proposal_view(ROUNDS[0], Language.FRENCH)
    assert view.camera is not None
    failed = dataclasses.replace(view, camera=dataclasses.replace(view.camera, working=False))
    s = theme.scale_for(480)
    frame = layout.frame((800, 480), s, True, failed.headline, seat_sized=True)
    assert table.arrange(frame.body, failed, s, frame.gap).camera is not None


def test_the_camera_stays_beside_the_points_when_they_fit_with_it() -> None:
    view = proposal_view(ROUNDS[2], Language.FRENCH)
    parts, plan = laid_out(view, (1280, 720))
    assert parts.camera is not None and plan.whole
