"""From a settled table to a round the rules engine can judge, and what stops it.

The camera sees tokens, not cards: an owner token on a slot says whose card lies
there, and a vote dial says who voted for it. `read_table` turns the stabiliser's
view into a `Reveal` plus the lists the players see: what the table still waits for
("waiting for votes from Blue, Green") and what is wrong ("two owner tokens on slot
4"; a token hidden under another, since the round read without it may be legal and
still wrong). Legality is the rules engine's word alone: this module only asks it and
sorts its answers into waiting and wrong.
"""

from dataclasses import dataclass

from companion.colours import WORDS
from companion.errors import ForeignTagError, MissingCardError, MissingVoteError, TrapError
from companion.kit.tags import KitTag, Role, parse_tag
from companion.phrases import Phrase, Value, listing, phrase, plural
from companion.rules import Game, Reveal
from companion.session.lineup import Lineup
from companion.vision.assign import token_label
from companion.vision.records import TableObservation


@dataclass(frozen=True)
class TableReport:
    """What the table shows as the next round, and why it cannot be scored yet."""

    reveal: Reveal
    """The round as read: cards from owner tokens, votes from dials, the trap."""
    waiting: tuple[Phrase, ...]
    """What the table still lacks, in words: missing votes, owner tokens, the trap."""
    problems: tuple[Phrase, ...]
    """What is wrong and must be put right, in words, naming players and slots."""
    alerts: tuple[Phrase, ...]
    """Shown as problems but not in the way of scoring: a tag of another kit in view
    (the next table's board may be in the picture; a dial of theirs laid on our card
    leaves our vote missing, which the waiting list already says)."""
    notes: tuple[Phrase, ...]
    """Worth knowing but harmless: a QR code that is not a companion tag in view."""
    tokens: int
    """How many of the kit's tokens lie on the table, on cards or not, covered ones
    included."""

    @property
    def ready(self) -> bool:
        """Whether the round can be scored as it lies."""
        return not self.waiting and not self.problems

    @property
    def cleared(self) -> bool:
        """Whether no token of the kit is left on the table."""
        return self.tokens == 0


def read_table(observation: TableObservation, game: Game, lineup: Lineup) -> TableReport:
    """The next round of `game` as the table shows it, with what stops it being scored."""
    cards: dict[int, str] = {}
    dials: dict[str, dict[int, int]] = {}
    traps: list[int] = []
    problems: list[Phrase] = []
    tokens = len(observation.unplaced)
    for slot, contents in observation.slots.items():
        tokens += len(contents.owners) + len(contents.votes) + int(contents.trap)
        owners = [_who(colour, lineup, Role.OWNER, slot, problems) for colour in contents.owners]
        if len(owners) > 1:
            problems.append(
                phrase(
                    "{n} owner tokens on slot {slot} ({players}): one card has one owner",
                    n=len(owners),
                    slot=slot,
                    players=listing(_shown(c, lineup) for c in contents.owners),
                )
            )
        elif owners and owners[0] is not None:
            cards[slot] = owners[0]
        for vote in contents.votes:
            voter = _who(vote.player, lineup, Role.VOTE, slot, problems)
            if voter is not None:
                dials.setdefault(voter, {})[vote.dial] = slot
        if contents.trap:
            traps.append(slot)
    problems += [_unplaced(u.text, lineup) for u in observation.unplaced]
    for duplicate in observation.duplicates:
        tokens += len(duplicate.slots) + duplicate.off_cards
        problems.append(duplicate.worded(_token_name(parse_tag(duplicate.text), lineup)))
    for covered in observation.covered:
        tokens += 1
        below, above = (_token_name(parse_tag(t), lineup) for t in (covered.text, covered.by))
        problems.append(covered.worded(below, above))
        _count_where_last_seen(parse_tag(covered.text), covered.slot, lineup, cards, dials, traps)
    if observation.wrong_board is not None:
        wrong = observation.wrong_board
        problems.insert(0, phrase("{problem}: run `companion calibrate` again", problem=wrong))
    votes = {voter: tuple(by_dial[d] for d in sorted(by_dial)) for voter, by_dial in dials.items()}
    reveal = Reveal(cards, votes, traps[0] if traps else None)

    waiting: list[Phrase] = []
    missing_votes: list[str] = []
    missing_owners: list[str] = []
    for problem in game.problems(reveal):
        if isinstance(problem, MissingVoteError) and problem.player is not None:
            missing_votes.append(problem.player)
        elif isinstance(problem, MissingCardError) and problem.player is not None:
            missing_owners.append(_shown_scorer(game, problem.player))
        elif (
            isinstance(problem, TrapError) and problem.slot is None and problem.player and not traps
        ):
            who = _shown_scorer(game, problem.player)
            waiting.append(phrase("{player}: trap dial missing", player=who))
        else:
            problems.append(problem.detail)
    if missing_votes:
        waiting.insert(
            0,
            # NOTE: the same English for one player or several; French says "n'a" or "n'ont"
            plural(
                "waiting for votes from {players}",
                "waiting for votes from {players}",
                len(missing_votes),
                players=listing(missing_votes),
            ),
        )
    if missing_owners:
        # One line for every missing owner token, naming each player: a line each
        # would push the names past what the screen shows.
        waiting.insert(
            1 if missing_votes else 0,
            plural(
                "owner token missing: {players}",
                "owner tokens missing: {players}",
                len(missing_owners),
                players=listing(missing_owners),
            ),
        )
    return TableReport(
        reveal,
        tuple(waiting),
        tuple(problems),
        _other_kits(observation.foreign),
        _notes(observation.foreign),
        tokens,
    )


def clearing_report(report: TableReport) -> TableReport:
    """The report while the last round's table is cleared: "clear the table" and
    nothing else, however its tokens would read as the next round (they are the old
    round's, not wrong nor missing); the same once the last token is gone, as the
    next round."""
    if report.cleared:
        return report
    clear = plural(
        "clear the table: {count} token is still on it",
        "clear the table: {count} tokens are still on it",
        report.tokens,
        count=report.tokens,
    )
    return TableReport(report.reveal, (clear,), (), (), (), report.tokens)


def _count_where_last_seen(
    tag: KitTag,
    slot: int,
    lineup: Lineup,
    cards: dict[int, str],
    dials: dict[str, dict[int, int]],
    traps: list[int],
) -> None:
    """A covered token counted where it was last seen: the screen then says what is
    wrong (it lies under another) and not what follows from leaving it out (a vote
    missing, a card without an owner); the covered problem holds the score back."""
    player = lineup.player_of(tag.colour or "")
    if tag.role is Role.TRAP:
        traps.append(slot)
    elif player is None:
        return
    elif tag.role is Role.OWNER:
        cards.setdefault(slot, player)
    elif tag.index is not None:
        dials.setdefault(player, {}).setdefault(tag.index, slot)


def _shown_scorer(game: Game, scorer: str) -> str:
    """A player, or a team as the scoreboard names it: "Ann + Bob", not "Ann+Bob"."""
    seating = game.seating
    if scorer in seating:
        return scorer
    return " + ".join(dict(zip(seating.teams, seating.pairs, strict=True))[scorer])


def _who(colour: str, lineup: Lineup, role: Role, slot: int, problems: list[Phrase]) -> str | None:
    """The player of a token's colour; a colour nobody plays is a problem."""
    player = lineup.player_of(colour)
    if player is None:
        word = WORDS[colour]
        if role is Role.OWNER:
            problems.append(
                phrase(
                    "a {colour} owner token lies on slot {slot}, but nobody plays {colour}",
                    colour=word,
                    slot=slot,
                )
            )
        else:
            problems.append(
                phrase(
                    "a {colour} vote dial lies on slot {slot}, but nobody plays {colour}",
                    colour=word,
                    slot=slot,
                )
            )
    return player


def _shown(colour: str, lineup: Lineup) -> Value:
    """Who a token's colour stands for: its player, or the colour when nobody plays it."""
    player = lineup.player_of(colour)
    return WORDS[colour] if player is None else player


def _unplaced(text: str, lineup: Lineup) -> Phrase:
    """A token lying off every card, named as the players know it."""
    token = _token_name(parse_tag(text), lineup)
    return phrase("{token} lies off the cards: put it on a card or take it away", token=token)


def _token_name(tag: KitTag, lineup: Lineup) -> Phrase:
    return token_label(tag, lineup.player_of(tag.colour or ""))


def _kit_of(text: str) -> str | None:
    try:
        return parse_tag(text).kit
    except ForeignTagError:
        return None


def _other_kits(foreign: tuple[str, ...]) -> tuple[Phrase, ...]:
    """Tags of other kits: a token from the next table is a mistake worth pointing at."""
    kits = sorted({kit for kit in map(_kit_of, foreign) if kit is not None})
    return tuple(phrase("a tag of another kit ({kit}) is on the table", kit=kit) for kit in kits)


def _notes(foreign: tuple[str, ...]) -> tuple[Phrase, ...]:
    others = sum(1 for text in foreign if _kit_of(text) is None)
    if not others:
        return ()
    return (
        plural(
            "{n} QR code in view that the companion ignores",
            "{n} QR codes in view that the companion ignores",
            others,
        ),
    )
