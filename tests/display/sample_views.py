"""Sample screens that push the display to its limits: twelve long names, teams in
split colours, rabbits sharing spaces, a lapped score, crowded notices, long
reasons, the editor, setup, the winner and a failed camera.

Run as a script to write every sample as PNG for looking at:
    python -m tests.display.sample_views [folder]
"""

import dataclasses
import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from companion.actions import Action
from companion.colours import COLOURS
from companion.display.render import render
from companion.display.view import (
    RGB,
    Breakdown,
    CameraView,
    Choice,
    EditorView,
    Group,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScoreLine,
    ScreenView,
    StepView,
    WinnerView,
)

RGBS: tuple[RGB, ...] = tuple(c.rgb for c in COLOURS)
LONG_NAMES = (
    "Alexandrina Montgomery-Smythe",
    "Bartholomew",
    "Christabel von Hohenzollern",
    "Dmitri",
    "Evangeline Featherstonehaugh",
    "Fitzgerald O'Donnell",
    "Guinevere",
    "Hieronymus Bosch-Bakker",
    "Isambard Kingdom",
    "Jacqueline Desrosiers",
    "Konstantinos Papadopoulos",
    "Leocadia",
)
SHORT_NAMES = ("Ann", "Bob", "Cleo")
PLAY_BUTTONS = (
    OnScreenButton("Confirm", Action.CONFIRM),
    OnScreenButton("Undo", Action.UNDO, enabled=False),
    OnScreenButton("Fix by hand", Action.FIX),
    OnScreenButton("Quit", Action.QUIT),
)
REASONS = (
    "+3 storyteller: some found the card, not all",
    "+1 vote from Bartholomew on their card",
    "+1 vote from Guinevere on their card",
    "+1 vote from Leocadia on their card",
    "+2 bonus: found the storyteller's card",
)


def camera_picture(width: int = 320, height: int = 240) -> npt.NDArray[np.uint8]:
    """A small BGR picture: green felt with cards and a red and a blue square."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, :] = (40, 110, 30)
    for i in range(6):
        x = 20 + i * 48
        image[60:160, x : x + 38] = (230, 230, 230)
    image[20:40, 20:40] = (0, 0, 255)
    image[20:40, 60:80] = (255, 0, 0)
    return image


def _camera() -> CameraView:
    return CameraView(camera_picture(), "camera: simulated table, 10 fps", True)


def _rabbits(names: tuple[str, ...], totals: tuple[int, ...], teller: int) -> tuple[Rabbit, ...]:
    return tuple(
        Rabbit(name, (RGBS[i],), total, float(total), storyteller=i == teller)
        for i, (name, total) in enumerate(zip(names, totals, strict=True))
    )


def _breakdown(title: str, names: tuple[str, ...], reasons: int) -> Breakdown:
    return Breakdown(
        title,
        tuple(
            ScoreLine(name, (RGBS[i],), (i * 2) % 6, REASONS[: max(0, reasons - i % 3)])
            for i, name in enumerate(names)
        ),
    )


def twelve_players() -> ScreenView:
    """Twelve players with long names, mid-game, a proposal with reasons, a camera."""
    totals = (12, 15, 12, 9, 21, 15, 3, 27, 12, 18, 6, 24)
    return ScreenView(
        title="Dixit Odyssey - round 14",
        headline="Proposed score: press Confirm, or fix it by hand",
        rabbits=_rabbits(LONG_NAMES, totals, teller=4),
        notices=(Notice("Seen a QR code that is not ours: ignored", Level.INFO),),
        proposal=_breakdown("Proposed score: round 14", LONG_NAMES, 3),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
        countdown=7.4,
        footer="deck: 24 cards left - journal: cafe-table-3.sqlite",
    )


def three_players() -> ScreenView:
    """Three players waiting for votes, the last round shown."""
    return ScreenView(
        title="Dixit (first edition) - round 3",
        headline="Waiting for Bob and Cleo to vote",
        rabbits=_rabbits(SHORT_NAMES, (7, 4, 10), teller=0),
        notices=(
            Notice("Bob still has to vote", Level.WAITING),
            Notice("Cleo still has to vote", Level.WAITING),
        ),
        last_round=_breakdown("Round 2", SHORT_NAMES, 4),
        camera=_camera(),
        buttons=(
            OnScreenButton("Confirm", Action.CONFIRM, enabled=False),
            OnScreenButton("Undo", Action.UNDO),
            OnScreenButton("Fix by hand", Action.FIX),
        ),
        footer="3 players: two cards each",
    )


def teams() -> ScreenView:
    """Four teams of two in split colours, two teams on one space, one moving."""
    names = ("Ann + Bob", "Cleo + Dan", "Eve + Finn", "Gus + Hana")
    totals = (8, 8, 13, 5)
    rabbits = tuple(
        Rabbit(
            name,
            (RGBS[2 * i], RGBS[2 * i + 1]),
            total,
            total - 1.4 if i == 2 else float(total),
            storyteller=i == 1,
        )
        for i, (name, total) in enumerate(zip(names, totals, strict=True))
    )
    return ScreenView(
        title="Dixit Party, teams - round 6",
        headline="Round 6 scored: clear the table for round 7",
        rabbits=rabbits,
        last_round=Breakdown(
            "Round 6",
            tuple(
                ScoreLine(r.name, r.colours, 3 - i % 2 * 3, REASONS[:2])
                for i, r in enumerate(rabbits)
            ),
        ),
        buttons=(OnScreenButton("Undo", Action.UNDO), OnScreenButton("Fix by hand", Action.FIX)),
    )


def crowded() -> ScreenView:
    """All twelve rabbits on space 0: the start of a big game."""
    return ScreenView(
        title="Dixit Odyssey - round 1",
        headline="Alexandrina tells: lay your cards face down",
        rabbits=_rabbits(LONG_NAMES, (0,) * 12, teller=0),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
    )


def sharing() -> ScreenView:
    """Rabbits sharing spaces in groups of two to five, one lapped (34 next to 4)."""
    totals = (4, 34, 4, 17, 17, 17, 17, 17, 29, 29, 30, 4)
    return ScreenView(
        title="Dixit Odyssey - round 11, playing on past 30",
        headline="Evangeline tells: lay your cards face down",
        rabbits=_rabbits(LONG_NAMES, totals, teller=4),
        buttons=PLAY_BUTTONS,
        target=None,
    )


def lapped() -> ScreenView:
    """A score of 34 beside a score of 4, a target of 40."""
    return ScreenView(
        title="House rules - to 40 points",
        headline="Cleo tells: lay your cards face down",
        rabbits=_rabbits(SHORT_NAMES, (34, 4, 22), teller=2),
        buttons=PLAY_BUTTONS,
        target=40,
    )


def many_notices() -> ScreenView:
    """More notices than fit, in mixed order, with long words."""
    notices = tuple(
        Notice(text, level)
        for text, level in (
            ("Seen a QR code that is not ours: ignored", Level.INFO),
            ("Blue voted for their own card, slot 2", Level.PROBLEM),
            ("Alexandrina Montgomery-Smythe still has to lay an owner token", Level.WAITING),
            ("Two owner tokens on slot 5: Red and Green", Level.PROBLEM),
            ("Dmitri still has to vote", Level.WAITING),
            ("Guinevere still has to vote", Level.WAITING),
            ("Camera: exposure changed", Level.INFO),
            ("Hieronymus Bosch-Bakker's vote lies between slots 3 and 4: move it", Level.PROBLEM),
            ("Leocadia still has to vote", Level.WAITING),
            ("Isambard still has to vote", Level.WAITING),
            ("Konstantinos still has to vote", Level.WAITING),
            ("Supercalifragilisticexpialidociouslylongwordwithoutanyspaces", Level.INFO),
        )
    )
    return ScreenView(
        title="Dixit Odyssey - round 6",
        headline="The table is not ready to score: put right what is shown in red",
        rabbits=_rabbits(LONG_NAMES, (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), teller=7),
        notices=notices,
        last_round=_breakdown("Round 5", LONG_NAMES, 2),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
    )


def long_reasons() -> ScreenView:
    """A proposal where each scorer has five reasons, and a very long headline."""
    return ScreenView(
        title="Dixit (first edition) - round 8",
        headline=(
            "Proposed score for round 8, where everyone found the storyteller's card so "
            "the storyteller scores nothing and everyone else scores two"
        ),
        rabbits=_rabbits(SHORT_NAMES, (14, 12, 16), teller=1),
        notices=(Notice("Confirming by itself in 3 seconds", Level.INFO),),
        proposal=_breakdown("Proposed score: round 8", SHORT_NAMES, 5),
        buttons=PLAY_BUTTONS,
        countdown=2.2,
    )


EDITOR_BUTTONS = (
    OnScreenButton("Previous", Action.UP),
    OnScreenButton("Next", Action.DOWN),
    OnScreenButton("<", Action.LEFT),
    OnScreenButton(">", Action.RIGHT),
    OnScreenButton("Save", Action.CONFIRM, enabled=False),
    OnScreenButton("Cancel", Action.BACK),
)
"""The editor's buttons, as `present` words them in English."""


def editor() -> ScreenView:
    """The round editor for twelve players, one question at a time: a vote for one's
    own card, said in words."""
    return ScreenView(
        title="Dixit Odyssey - round 14",
        headline="Correct round 14",
        rabbits=_rabbits(LONG_NAMES, (3,) * 12, teller=0),
        buttons=EDITOR_BUTTONS,
        editor=EditorView(
            title="Correct round 14",
            question="Marie-Christine's vote: which slot?",
            answer="3",
            progress="17 / 25",
            problem="Marie-Christine voted for slot 3, their own card",
        ),
    )


def french_editor() -> ScreenView:
    """The editor in French for twelve players: a card still to place."""
    return ScreenView(
        title="Dixit Odyssey - manche 14",
        headline="Saisir la manche 14 à la main",
        rabbits=_rabbits(LONG_NAMES, (3,) * 12, teller=0),
        buttons=tuple(
            dataclasses.replace(b, label=label)
            for b, label in zip(
                EDITOR_BUTTONS,
                ("Précédent", "Suivant", "<", ">", "Enregistrer", "Annuler"),
                strict=True,
            )
        ),
        editor=EditorView(
            title="Saisir la manche 14 à la main",
            question="Carte de Marie-Christine\u00a0: quel emplacement\u00a0?",
            answer="aucun",
            progress="3 / 25",
            problem="Marie-Christine n'a pas posé de carte\u00a0; une carte attendue",
            unanswered=True,
        ),
    )


def small_editor() -> ScreenView:
    """The editor's summary for three players, legal, with its preview."""
    return ScreenView(
        title="Dixit - round 5",
        headline="Enter round 5 by hand",
        rabbits=_rabbits(SHORT_NAMES, (3, 4, 5), teller=0),
        buttons=(*EDITOR_BUTTONS[:4], OnScreenButton("Save", Action.CONFIRM), EDITOR_BUTTONS[5]),
        editor=EditorView(
            title="Enter round 5 by hand",
            question="Save round 5?",
            answer="",
            progress="7 / 7",
            summary=("Press Save to save it",),
            preview=_breakdown("Round 5", SHORT_NAMES, 2),
            reviewing=True,
        ),
    )


def editor_summary() -> ScreenView:
    """The editor's summary for twelve players, legal, with the score it would get."""
    return ScreenView(
        title="Dixit Odyssey - round 14",
        headline="Correct round 14",
        rabbits=_rabbits(LONG_NAMES, (3,) * 12, teller=0),
        buttons=(*EDITOR_BUTTONS[:4], OnScreenButton("Save", Action.CONFIRM), EDITOR_BUTTONS[5]),
        editor=EditorView(
            title="Correct round 14",
            question="Save round 14?",
            answer="",
            progress="25 / 25",
            summary=("Press Save to save it",),
            preview=_breakdown("New score: round 14", LONG_NAMES, 5),
            reviewing=True,
        ),
    )


@dataclass(frozen=True)
class SetupWords:
    """The words a setup step shows in one language, as the app fills them."""

    title: str
    buttons: tuple[str, str, str]
    """Back, Next, Confirm."""
    steps: tuple[str, ...]
    done: str
    pick_hint: str
    colours: tuple[str, ...]
    """The kit's colours in kit order, capitalised."""
    seat: str
    """"seat {seat}"."""
    seat_slot: str
    """"seat {seat}, slot {slot}"."""
    unnamed: str
    """"seat {seat}, no name: plays as {colour}"."""
    team: str
    """"Team {number}"."""
    players: str
    """"{n} players"."""
    language: str
    edition: str
    editions: tuple[tuple[str, str], ...]
    """Each ruleset's title and detail, in registry order."""
    seats: str
    seats_hint: str
    slot_problem: str
    names: str
    names_hint: str
    options: str
    option_lines: tuple[tuple[str, str], ...]
    options_hint: str
    first: str
    first_hint: str
    tells_first: str
    to_30: str


ENGLISH_SETUP = SetupWords(
    title="New game",
    buttons=("Back", "Next", "Confirm"),
    steps=("Language", "Edition", "Players", "Names", "Options", "First storyteller"),
    done="Done: go on",
    pick_hint="Touch a line, or press Next to move and Confirm to pick",
    colours=tuple(c.name.capitalize() for c in COLOURS),
    seat="seat {seat}",
    seat_slot="seat {seat}, slot {slot}",
    unnamed="seat {seat}, no name: plays as {colour}",
    team="Team {number}",
    players="{n} players",
    language="Which language?",
    edition="Which edition?",
    editions=(
        (
            "Dixit (2021 edition)",
            "The storyteller scores 3 unless everyone or no one finds the card, "
            "to 30 points (3 to 8 players)",
        ),
        (
            "Dixit, first edition",
            "The first rules: a lone finder scores 4 and the game ends with the deck "
            "(3 to 6 players)",
        ),
        (
            "Dixit Odyssey",
            "Two votes each from 7 players, at most 3 bonus points a round, to 30 points "
            "(3 to 12 players)",
        ),
        (
            "Dixit Party (Odyssey, first printing)",
            "No right answer: find the most popular card and avoid the trap; each player "
            "tells once (6 to 12 players)",
        ),
        (
            "Dixit Party (Odyssey, voting dials)",
            "Party rules with the voting dials, to 30 points (6 to 12 players)",
        ),
        (
            "Dixit in teams (Odyssey, first printing)",
            "Partners sit face to face and score together; each player tells once "
            "(6, 8, 10 and 12 players)",
        ),
        (
            "Dixit in teams (Odyssey, voting dials)",
            "Teams of two with the voting dials, to 30 points (8, 10 and 12 players)",
        ),
    ),
    seats="Who plays? Each player lays an owner token on a card",
    seats_hint=(
        "The slot a token lies on is its player's seat: slot 1 first, then clockwise. "
        "Without tokens: Next moves, Confirm seats a colour"
    ),
    slot_problem="red and blue lie on slot 4: one seat per card, move one of them",
    names="Names",
    names_hint=(
        "Names are optional. Confirm or < > gives a seat a name used here before; "
        "names typed on a phone appear at once"
    ),
    options="Options",
    option_lines=(
        ("Score to reach", "30"),
        ("Most bonus points", "no limit"),
        ("Turns as storyteller", "no limit"),
        ("Cards in the deck", "84 cards"),
        ("Round limit", "8 rounds (preset: no limit)"),
    ),
    options_hint="Next moves; Confirm or < > changes the value",
    first="Who tells first?",
    first_hint="Press Next or touch a name, then Confirm; or lay your owner token on a card",
    tells_first="tells first",
    to_30="to 30 points",
)
FRENCH_SETUP = SetupWords(
    title="Nouvelle partie",
    buttons=("Retour", "Suivant", "Valider"),
    steps=("Langue", "Édition", "Joueurs", "Noms", "Options", "Premier conteur"),
    done="Terminé\u00a0: on continue",
    pick_hint="Touchez une ligne, ou Suivant pour vous déplacer et Valider pour choisir",
    colours=(
        "Rouge",
        "Bleu",
        "Vert",
        "Jaune",
        "Blanc",
        "Noir",
        "Orange",
        "Rose",
        "Violet",
        "Gris",
        "Marron",
        "Cyan",
    ),
    seat="place {seat}",
    seat_slot="place {seat}, emplacement {slot}",
    unnamed="place {seat}, sans nom\u00a0: joue en {colour}",
    team="Équipe {number}",
    players="{n} joueurs",
    language="Quelle langue\u00a0?",
    edition="Quelle édition\u00a0?",
    editions=(
        (
            "Dixit (édition 2021)",
            "Le conteur marque 3 points sauf si tout le monde ou personne ne trouve sa "
            "carte, en 30 points (3 à 8 joueurs)",
        ),
        (
            "Dixit, première édition",
            "Les règles d'origine\u00a0: qui trouve seul marque 4 points et la partie "
            "s'arrête avec la pioche (3 à 6 joueurs)",
        ),
        (
            "Dixit Odyssée",
            "Deux jetons de vote chacun dès 7 joueurs, au plus 3 points de bonus par "
            "manche, en 30 points (3 à 12 joueurs)",
        ),
        (
            "Dixit Party (Odyssée, premier tirage)",
            "Pas de bonne réponse\u00a0: trouvez la carte la plus populaire et évitez le "
            "piège\u00a0; chacun raconte une fois (6 à 12 joueurs)",
        ),
        (
            "Dixit Party (Odyssée, molettes de vote)",
            "Les règles Party avec les molettes de vote, en 30 points (6 à 12 joueurs)",
        ),
        (
            "Dixit en équipes (Odyssée, premier tirage)",
            "Les partenaires se font face et marquent ensemble\u00a0; chacun raconte une "
            "fois (6, 8, 10 et 12 joueurs)",
        ),
        (
            "Dixit en équipes (Odyssée, molettes de vote)",
            "Équipes de deux avec les molettes de vote, en 30 points (8, 10 et 12 joueurs)",
        ),
    ),
    seats="Qui joue\u00a0? Chaque joueur pose un jeton de propriétaire sur une carte",
    seats_hint=(
        "L'emplacement où est posé un jeton donne la place de son joueur\u00a0: "
        "l'emplacement 1 d'abord, puis dans le sens des aiguilles d'une montre. "
        "Sans jetons\u00a0: Suivant déplace, Valider installe une couleur"
    ),
    slot_problem=(
        "rouge et bleu sont sur l'emplacement 4\u00a0: une place par carte, déplacez l'un des deux"
    ),
    names="Noms",
    names_hint=(
        "Les noms sont facultatifs. Valider ou < > donne à une place un nom déjà "
        "utilisé ici\u00a0; les noms saisis sur un téléphone s'affichent aussitôt"
    ),
    options="Options",
    option_lines=(
        ("Score à atteindre", "30"),
        ("Points de bonus au plus", "sans limite"),
        ("Tours de conteur", "sans limite"),
        ("Cartes dans la pioche", "84 cartes"),
        ("Nombre de manches", "8 manches (prévu\u00a0: sans limite)"),
    ),
    options_hint="Suivant déplace\u00a0; Valider ou < > change la valeur",
    first="Qui raconte en premier\u00a0?",
    first_hint=(
        "Appuyez sur Suivant ou touchez un nom, puis Valider\u00a0; ou posez votre jeton "
        "de propriétaire sur une carte"
    ),
    tells_first="raconte en premier",
    to_30="en 30 points",
)
SETUP_WORDS = {"en": ENGLISH_SETUP, "fr": FRENCH_SETUP}
"""The setup samples' words by language code."""
SEATED_SLOTS = (4, 4, 1, 2, 3, 5, 6, 7, 8)
"""The slots the first nine colours' owner tokens lie on: red and blue share slot 4."""
SEAT_NAMES = {0: "Ann", 2: "Bartholomew", 5: "Évelyne"}
"""Names given to a few seated colours, by kit index."""


def _setup_screen(words: SetupWords, question: str, step: StepView) -> ScreenView:
    back, next_, confirm = words.buttons
    return ScreenView(
        title=words.title,
        headline=question,
        rabbits=(),
        buttons=(
            OnScreenButton(back, Action.BACK, enabled=step.step > 0),
            OnScreenButton(next_, Action.NEXT),
            OnScreenButton(confirm, Action.CONFIRM),
        ),
        setup=step,
    )


def _summary(words: SetupWords, edition: int, players: int = 0) -> str:
    parts = [words.editions[edition][0]]
    if players:
        parts.append(words.players.format(n=players))
    parts.append(words.to_30)
    return ", ".join(parts)


def setup_language(language: str = "en") -> ScreenView:
    """The first step: the language, the table's own one picked."""
    words = SETUP_WORDS[language]
    spoken = 0 if language == "en" else 1
    step = StepView(
        words.steps,
        0,
        words.language,
        tuple(
            Choice(name, selected=i == spoken, picked=i == spoken)
            for i, name in enumerate(("English", "Français"))
        ),
        words.pick_hint,
    )
    return _setup_screen(words, words.language, step)


def setup_edition(language: str = "en") -> ScreenView:
    """The seven editions with a line about each, Odyssey picked, the cursor below it."""
    words = SETUP_WORDS[language]
    step = StepView(
        words.steps,
        1,
        words.edition,
        tuple(
            Choice(title, detail, selected=i == 3, picked=i == 2)
            for i, (title, detail) in enumerate(words.editions)
        ),
        words.pick_hint,
        summary=_summary(words, 2),
    )
    return _setup_screen(words, words.edition, step)


def _seat_choices(
    words: SetupWords, seated: int, slots: tuple[int, ...], cursor: int
) -> tuple[Choice, ...]:
    """The twelve colours and Done, the first `seated` seated in the order of `slots`."""
    order = sorted(range(seated), key=lambda i: (slots[i], i))
    choices = []
    for i, colour in enumerate(words.colours):
        badge = ""
        if i < seated:
            badge = words.seat_slot.format(seat=order.index(i) + 1, slot=slots[i])
        choices.append(
            Choice(
                colour,
                SEAT_NAMES.get(i, "") if i < seated else "",
                colours=(RGBS[i],),
                selected=i == cursor,
                picked=i < seated,
                badge=badge,
            )
        )
    choices.append(Choice(words.done, selected=cursor == len(words.colours)))
    return tuple(choices)


def setup_seats(language: str = "en") -> ScreenView:
    """Nine colours seated by their owner tokens, two of them on one card."""
    words = SETUP_WORDS[language]
    step = StepView(
        words.steps,
        2,
        words.seats,
        _seat_choices(words, 9, SEATED_SLOTS, cursor=9),
        words.seats_hint,
        summary=_summary(words, 2, 9),
        problems=(words.slot_problem,),
        columns=2,
    )
    return _setup_screen(words, words.seats, step)


def setup_teams(language: str = "en") -> ScreenView:
    """Eight colours seated in a team edition: four teams, partners face to face."""
    words = SETUP_WORDS[language]
    slots = tuple(range(1, 9))
    names = tuple(SEAT_NAMES.get(i, words.colours[i].lower()) for i in range(8))
    groups = tuple(
        Group(
            words.team.format(number=i + 1),
            ((names[i], RGBS[i]), (names[i + 4], RGBS[i + 4])),
        )
        for i in range(4)
    )
    step = StepView(
        words.steps,
        2,
        words.seats,
        _seat_choices(words, 8, slots, cursor=12),
        words.seats_hint,
        summary=_summary(words, 6, 8),
        groups=groups,
        columns=2,
    )
    return _setup_screen(words, words.seats, step)


def setup_names(language: str = "en") -> ScreenView:
    """Twelve seats, most named (some with long names), three playing as their colour."""
    words = SETUP_WORDS[language]
    unnamed = {3, 7, 10}
    choices = [
        Choice(
            words.colours[i].lower() if i in unnamed else name,
            words.unnamed.format(seat=i + 1, colour=words.colours[i].lower())
            if i in unnamed
            else words.seat.format(seat=i + 1),
            colours=(RGBS[i],),
            selected=i == 4,
            picked=i not in unnamed,
        )
        for i, name in enumerate(LONG_NAMES)
    ]
    choices.append(Choice(words.done))
    step = StepView(
        words.steps,
        3,
        words.names,
        tuple(choices),
        words.names_hint,
        summary=_summary(words, 2, 12),
        columns=2,
    )
    return _setup_screen(words, words.names, step)


def setup_options(language: str = "en") -> ScreenView:
    """The five options and Done, the round limit changed from its preset."""
    words = SETUP_WORDS[language]
    choices = tuple(
        Choice(label, value, selected=i == 4) for i, (label, value) in enumerate(words.option_lines)
    )
    step = StepView(
        words.steps,
        4,
        words.options,
        (*choices, Choice(words.done)),
        words.options_hint,
        summary=_summary(words, 2, 12),
    )
    return _setup_screen(words, words.options, step)


def setup_first(language: str = "en", names: tuple[str, ...] = LONG_NAMES) -> ScreenView:
    """Choosing the first storyteller among `names`, the sixth chosen."""
    words = SETUP_WORDS[language]
    chosen = min(5, len(names) - 1)
    step = StepView(
        words.steps,
        5,
        words.first,
        tuple(
            Choice(
                name,
                colours=(RGBS[i],),
                selected=i == chosen,
                picked=i == chosen,
                badge=words.tells_first if i == chosen else "",
            )
            for i, name in enumerate(names)
        ),
        words.first_hint,
        summary=_summary(words, 2, len(names)),
        columns=1 if len(names) <= 6 else 2,
    )
    return _setup_screen(words, words.first, step)


def setup() -> ScreenView:
    """Choosing the first storyteller among twelve."""
    return setup_first()


def small_setup() -> ScreenView:
    """Choosing the first storyteller among three."""
    return setup_first("en", SHORT_NAMES)


SETUP_STEPS: dict[str, Callable[[str], ScreenView]] = {
    "language": setup_language,
    "edition": setup_edition,
    "seats": setup_seats,
    "teams": setup_teams,
    "names": setup_names,
    "options": setup_options,
    "first": setup_first,
}
"""Every setup step's sample, by step, each in any of `SETUP_WORDS`' languages."""


def winner() -> ScreenView:
    """The end of a twelve-player game with a shared win."""
    totals = (31, 31, 28, 27, 25, 22, 22, 20, 18, 15, 12, 9)
    standings = tuple((name, (RGBS[i],), totals[i]) for i, name in enumerate(LONG_NAMES))
    return ScreenView(
        title="Dixit Odyssey - game over after round 16",
        headline="Alexandrina and Bartholomew win!",
        rabbits=_rabbits(LONG_NAMES, totals, teller=-1),
        buttons=(OnScreenButton("New game", Action.CONFIRM), OnScreenButton("Quit", Action.QUIT)),
        winner=WinnerView(
            (LONG_NAMES[0], LONG_NAMES[1]),
            "a score reached 30 after round 16",
            standings,
        ),
    )


def small_winner() -> ScreenView:
    """The end of a three-player game ended by turns (no target)."""
    return ScreenView(
        title="Dixit - game over after round 9",
        headline="Cleo wins!",
        rabbits=_rabbits(SHORT_NAMES, (18, 22, 25), teller=-1),
        buttons=(OnScreenButton("New game", Action.CONFIRM),),
        winner=WinnerView(
            ("Cleo",),
            "the deck ran out after round 9",
            (("Cleo", (RGBS[2],), 25), ("Bob", (RGBS[1],), 22), ("Ann", (RGBS[0],), 18)),
        ),
        target=None,
    )


def camera_failed() -> ScreenView:
    """The camera has failed; the status says what to do."""
    return ScreenView(
        title="Dixit - round 2",
        headline="The camera has stopped: score by hand or check the cable",
        rabbits=_rabbits(SHORT_NAMES, (3, 0, 4), teller=1),
        notices=(Notice("No picture from the camera for 10 seconds", Level.PROBLEM),),
        camera=CameraView(
            None,
            "camera: picamera2 stopped (no frames for 10 s); check the ribbon cable, then restart",
            False,
        ),
        buttons=PLAY_BUTTONS,
    )


def no_picture_yet() -> ScreenView:
    """A camera that works but has no frame yet, no buttons, nothing else."""
    return ScreenView(
        title="Dixit",
        headline="Starting the camera",
        rabbits=(),
        camera=CameraView(None, "camera: opening /dev/video0", True),
    )


PAGE = "http://192.168.1.23:8080/"
"""A phone page's address, as the Pi's address on the café's network gives it."""
PAGE_CAPTIONS = {
    "en": "Follow the game on your phone",
    "fr": "Suivez la partie sur votre téléphone",
}
"""The words under the page's large QR code, by language code."""
FRENCH_REASONS = (
    "+3 conteur\u00a0: certains ont trouvé la carte, pas tous",
    "+1 vote de Bartholomew sur sa carte",
    "+1 vote de Guinevere sur sa carte",
    "+1 vote de Leocadia sur sa carte",
)


def with_page(view: ScreenView, language: str = "en", page: str = PAGE) -> ScreenView:
    """`view` with the phone page's QR code, its words in `language`."""
    return dataclasses.replace(view, page=page, page_caption=PAGE_CAPTIONS[language])


def french_three_players() -> ScreenView:
    """`three_players` at a French table."""
    view = three_players()
    assert view.last_round is not None
    lines = tuple(
        dataclasses.replace(line, reasons=FRENCH_REASONS[: len(line.reasons)])
        for line in view.last_round.lines
    )
    return dataclasses.replace(
        view,
        title="Dixit (première édition) - manche 3",
        headline="Bob et Cleo doivent encore voter",
        notices=(
            Notice("Bob doit encore voter", Level.WAITING),
            Notice("Cleo doit encore voter", Level.WAITING),
        ),
        last_round=Breakdown("Manche 2", lines),
        camera=CameraView(camera_picture(), "caméra\u00a0: table simulée, 10 img/s", True),
        buttons=(
            OnScreenButton("Valider", Action.CONFIRM, enabled=False),
            OnScreenButton("Annuler", Action.UNDO),
            OnScreenButton("Corriger", Action.FIX),
        ),
        footer="3 joueurs\u00a0: deux cartes chacun",
    )


def french_winner() -> ScreenView:
    """`winner` at a French table."""
    view = winner()
    assert view.winner is not None
    return dataclasses.replace(
        view,
        title="Dixit Odyssée - partie finie après la manche 16",
        headline="Alexandrina et Bartholomew gagnent\u00a0!",
        buttons=(
            OnScreenButton("Mêmes joueurs", Action.CONFIRM),
            OnScreenButton("Nouveau groupe", Action.NEXT),
        ),
        winner=dataclasses.replace(
            view.winner,
            reason="un score a atteint 30 après la manche 16",
            heading="Vainqueur",
            shared_heading="Vainqueurs",
        ),
    )


PAGE_SAMPLES: dict[str, Callable[[], ScreenView]] = {
    "page-setup-names": lambda: with_page(setup_names("en")),
    "page-setup-names-fr": lambda: with_page(setup_names("fr"), "fr"),
    "page-waiting": lambda: with_page(three_players()),
    "page-waiting-fr": lambda: with_page(french_three_players(), "fr"),
    "page-winner": lambda: with_page(winner()),
    "page-winner-fr": lambda: with_page(french_winner(), "fr"),
    "page-editor": lambda: with_page(editor()),
}
"""Screens with the phone page's QR code: a setup step, a round being laid, the winner
(in English and French) and the round editor. Drawn by `Screen`, not `render` alone:
the setup steps and the editor get their code from the screen (see
`companion.display.screen`)."""


SAMPLES = {
    "twelve-players": twelve_players,
    "three-players": three_players,
    "teams": teams,
    "crowded": crowded,
    "sharing": sharing,
    "lapped": lapped,
    "many-notices": many_notices,
    "long-reasons": long_reasons,
    "editor": editor,
    "editor-fr": french_editor,
    "editor-summary": editor_summary,
    "small-editor": small_editor,
    "setup": setup,
    "small-setup": small_setup,
    "winner": winner,
    "small-winner": small_winner,
    "camera-failed": camera_failed,
    "no-picture-yet": no_picture_yet,
}
"""Every sample by name."""
SETUP_SAMPLES: dict[str, Callable[[], ScreenView]] = {
    f"setup-{name}-{language}": functools.partial(build, language)
    for name, build in SETUP_STEPS.items()
    for language in SETUP_WORDS
}
"""Every setup step in every language, by name ("setup-seats-fr")."""
SAMPLES.update(SETUP_SAMPLES)
TWELVE_PLAYER_SAMPLES = (
    "twelve-players",
    "crowded",
    "sharing",
    "many-notices",
    "editor",
    "editor-fr",
    "editor-summary",
    "setup",
    "winner",
    *SETUP_SAMPLES,
)
"""The samples also looked at on the 7" screen."""


def write_all(folder: Path) -> list[Path]:
    """Every sample as PNG at 1280x720, the twelve-player ones also at 800x480."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SAMPLES.items():
        sizes = [(1280, 720)] + ([(800, 480)] if name in TWELVE_PLAYER_SAMPLES else [])
        for size in sizes:
            surface = pygame.Surface(size)
            render(build(), surface)
            path = folder / f"{name}-{size[0]}x{size[1]}.png"
            pygame.image.save(surface, str(path))
            written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/screens")):
        print(written_path)
