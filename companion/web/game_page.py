"""A game as its page shows it: the list of games, and each round with its points,
reasons, cards, votes, photos and the staff's correction form, as plain records the
templates read, every word already in the table's language.

A round's pictures are shown only while they match their checksums (the journal checks
them as it reads the game's rounds): a damaged one is named as damaged, never shown,
nor linked.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.journal import DamagedGame, GameStatus, GameSummary, RoundSummary, StoredGame
from companion.phrases import Phrase, Translations, listing, phrase, plural, rendered
from companion.rules import Game, Reveal, find_ruleset
from companion.rules.seating import TEAM_JOINER
from companion.session.editor import RoundEditor, RowKind
from companion.view.present import members, scorer_name
from companion.web.style import kit

_STATUS: Mapping[GameStatus, Phrase] = {
    GameStatus.PLAYING: phrase("in progress"),
    GameStatus.FINISHED: phrase("finished"),
    GameStatus.ABANDONED: phrase("abandoned"),
}


@dataclass(frozen=True)
class Line:
    """One scorer's part of a round on the game page."""

    scorer: str
    """The scorer's key in the game's totals (a team is "Ann+Bob")."""
    name: str
    """As shown ("Ann + Bob")."""
    kits: tuple[str, ...]
    """The members' colour classes."""
    points: int
    reasons: tuple[str, ...]
    """In the table's language."""
    total: int
    """The total after the round."""


@dataclass(frozen=True)
class Slot:
    """What lay on one slot in a round."""

    number: int
    owner: str | None
    owner_kit: str
    voters: tuple[tuple[str, str], ...]
    """Who voted for it (name, colour class), one entry per vote."""
    storytellers: bool
    """Whether the storyteller's card lay here."""
    trapped: bool


@dataclass(frozen=True)
class Vote:
    """One vote dial of the correction form."""

    voter: str
    label: str
    """"Ann's vote", or "Ann's vote 2" where the edition gives two dials."""
    slot: int | None
    field: str = ""
    """The field's name, for the problems said beside it ("vote-Ann-1")."""


@dataclass(frozen=True)
class Correction:
    """The staff's correction form of one round, prefilled from the stored round."""

    cards: tuple[tuple[int, str | None], ...]
    """Every slot of the board with the owner of its card."""
    votes: tuple[Vote, ...]
    trap: bool
    """Whether the edition has a trap."""
    trapped: int | None


@dataclass(frozen=True)
class RoundPage:
    """One round on the game page."""

    number: int
    storyteller: str
    storyteller_kit: str
    corrected: bool
    frame: str | None
    overlay: str | None
    pruned: bool
    """Whether its pictures were deleted once older than the time they are kept."""
    damaged: tuple[str, ...]
    """Its pictures ("frame", "overlay") that no longer match their checksums."""
    lines: tuple[Line, ...]
    slots: tuple[Slot, ...]
    correction: Correction | None


@dataclass(frozen=True)
class GameLine:
    """One game in the list of past games."""

    id: int
    edition: str
    players: str
    rounds: str
    status: str
    """In words."""
    state: str
    """The status's name ("playing"), for the style sheet and the tests."""
    started: str
    totals: tuple[tuple[str, int], ...]
    winners: str
    damage: str | None = None
    archived: bool = False
    """Whether the game is read from the archive beside the journal."""


def names(game: Game, scorers: Sequence[str], words: Translations) -> str:
    """Scorers as a sentence names them: "Ann and Ann + Bob", "Ann et Ben"."""
    return rendered(listing([scorer_name(game, s) for s in scorers]), words)


def shown_scorer(scorer: str) -> str:
    """A scorer of a game's line as the table shows it: a team "Ann + Bob"."""
    return " + ".join(scorer.split(TEAM_JOINER))


def game_line(summary: GameSummary | DamagedGame, words: Translations) -> GameLine:
    """A game's line in the list of games, in the table's language."""
    if isinstance(summary, DamagedGame):
        return GameLine(summary.id, "", "", "", "", "damaged", "", (), "", damage=summary.damage)
    rules = find_ruleset(summary.ruleset)
    started = summary.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    return GameLine(
        id=summary.id,
        edition=rules.title_words.render(words),
        players=rendered(listing(summary.players), words),
        rounds=plural("{n} round", "{n} rounds", summary.rounds).render(words),
        status=_STATUS[summary.status].render(words),
        state=summary.status.value,
        started=started,
        totals=tuple((shown_scorer(s), t) for s, t in summary.totals.items()),
        winners=rendered(listing([shown_scorer(w) for w in summary.winners]), words),
        archived=summary.archived,
    )


def round_page(
    stored: StoredGame, kept: RoundSummary, words: Translations, slots: tuple[int, ...] | None
) -> RoundPage:
    game = stored.game
    played = game.played[kept.number - 1]
    score = played.score
    reasons = score.reasons_in(words)
    deltas = score.deltas
    lines = tuple(
        Line(
            scorer=scorer,
            name=scorer_name(game, scorer),
            kits=tuple(kit(stored.colours.get(p)) for p in members(game, scorer)),
            points=deltas.get(scorer, 0),
            reasons=reasons.get(scorer, ()),
            total=total,
        )
        for scorer, total in played.totals.items()
    )
    reveal = score.round.reveal
    storyteller = score.round.storyteller
    used = sorted({s for chosen in reveal.votes.values() for s in chosen} | set(reveal.cards))
    shown = tuple(
        Slot(
            number=slot,
            owner=reveal.cards.get(slot),
            owner_kit=kit(stored.colours.get(reveal.cards.get(slot, ""))),
            voters=tuple((v, kit(stored.colours.get(v))) for v in reveal.votes_on(slot)),
            storytellers=reveal.cards.get(slot) == storyteller,
            trapped=reveal.trap == slot,
        )
        for slot in used
    )
    return RoundPage(
        number=kept.number,
        storyteller=storyteller,
        storyteller_kit=kit(stored.colours.get(storyteller)),
        corrected=kept.corrected,
        frame=_picture(stored.id, kept, "frame") if kept.has_frame else None,
        overlay=_picture(stored.id, kept, "overlay") if kept.has_overlay else None,
        pruned=kept.pruned,
        damaged=kept.damaged,
        lines=lines,
        slots=shown,
        correction=None if slots is None else _correction(game, kept.number, reveal, slots, words),
    )


def _picture(game_id: int, kept: RoundSummary, which: str) -> str:
    return f"/api/games/{game_id}/rounds/{kept.number}/{which}.jpg"


def hand_entry(game: Game, slots: tuple[int, ...], words: Translations) -> Correction | None:
    """The form for the round being played, empty, as the table's editor opens on it
    from nothing; None once the game is over."""
    if game.outcome is not None:
        return None
    return _correction(game, game.round_number, Reveal({}), slots, words)


def _correction(
    game: Game, number: int, reveal: Reveal, slots: tuple[int, ...], words: Translations
) -> Correction:
    """The form as the table's editor opens on the round: one select per slot of the
    board, one per vote dial the edition gives each voter, and the trap."""
    board = tuple(sorted(set(slots) | set(reveal.cards)))
    rows = RoundEditor.open(game, board, Reveal({}), number).rows
    dials = [r for r in rows if r.kind is RowKind.VOTE and r.player is not None]
    several = {r.player for r in dials if r.index > 1}
    votes = tuple(
        Vote(
            voter=r.player,
            label=(
                phrase("{player}'s vote {index}", player=r.player, index=r.index)
                if r.player in several
                else phrase("{player}'s vote", player=r.player)
            ).render(words),
            slot=r.value,
            field=f"vote-{r.player}-{r.index}",
        )
        for r in dials
        if r.player is not None
    )
    trap = any(r.kind is RowKind.TRAP for r in rows)
    return Correction(
        cards=tuple((slot, reveal.cards.get(slot)) for slot in board),
        votes=votes,
        trap=trap,
        trapped=reveal.trap,
    )
