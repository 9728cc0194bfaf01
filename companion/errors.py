"""The one exception tree of the companion.

Every error the companion raises on purpose derives from `CompanionError`, and each
leaf also derives from the built-in it resembles, so callers can catch either. The
rules engine keeps *malformed* input (not a Dixit round at all: an unknown player, a
slot that is not a number) apart from *illegal* input (a well-formed round that the
rules forbid), the way python-chess keeps `InvalidMoveError` apart from
`IllegalMoveError`.

An error a player may see carries its message as a `Phrase`, so that the screen can
show it in the table's language; `str(error)` is always the English text.
"""

from companion.phrases import Phrase, phrase, verbatim


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""

    def __init__(self, message: str | Phrase = "", *args: object) -> None:
        super().__init__(str(message), *args)
        self.phrase = message if isinstance(message, Phrase) else verbatim(message)
        """The message, to be shown in the reader's language."""


def error_words(error: BaseException) -> Phrase:
    """What an error says to a player: a companion error's phrase, else the system's
    own message (a full disk, a library's complaint), shown as it is."""
    return error.phrase if isinstance(error, CompanionError) else verbatim(str(error))


class RulesError(CompanionError):
    """Something the rules engine refuses."""


class UnknownRulesetError(RulesError, ValueError):
    """A ruleset name that the registry does not know."""


class InvalidOptionError(RulesError, ValueError):
    """An option override that is unknown, out of range, or leaves no way to end."""


class PlayerCountError(RulesError, ValueError):
    """A number of players that the ruleset does not allow."""


class SeatingError(RulesError, ValueError):
    """Player names that cannot form a seating: duplicates, blanks, unknown storyteller."""


class MalformedRoundError(RulesError, ValueError):
    """A round that does not describe a table at all: unknown players, bad slot numbers."""


class IllegalRoundError(RulesError, ValueError):
    """A well-formed round that the rules forbid.

    The message starts with the round number and names the player and slot at fault;
    the same facts are kept as attributes so that a screen can point at them.
    """

    def __init__(
        self,
        message: str | Phrase,
        *,
        round_number: int,
        player: str | None = None,
        slot: int | None = None,
    ) -> None:
        detail = message if isinstance(message, Phrase) else verbatim(message)
        super().__init__(phrase("round {number}: {problem}", number=round_number, problem=detail))
        self.detail = detail
        """The message without the round number, for a screen that shows the round."""
        self.round_number = round_number
        """The round in which the problem lies (1 = first round)."""
        self.player = player
        """The player (or team) at fault, where there is one."""
        self.slot = slot
        """The slot at fault, where there is one."""


class CardError(IllegalRoundError):
    """The cards laid out do not match who must lay how many."""


class UnexpectedCardError(CardError):
    """A card laid by a player who must not lay one (or one card too many)."""


class MissingCardError(CardError):
    """A player or team who must lay a card has not."""


class TeamCardsError(CardError):
    """Both members of a team laid a card where only one may."""


class VoteError(IllegalRoundError):
    """A vote that the rules forbid, or a vote that is missing."""


class OwnCardVoteError(VoteError):
    """A vote for one's own card."""


class StorytellerVoteError(VoteError):
    """The storyteller voted, outside Party."""


class DuplicateVoteError(VoteError):
    """Two votes of one voter on the same slot."""


class ExtraVoteError(VoteError):
    """More votes than the ruleset allows this voter."""


class EmptySlotVoteError(VoteError):
    """A vote on a slot with no card on it."""


class MissingVoteError(VoteError):
    """A voter who has not voted: the companion waits rather than scoring an abstention."""


class VoterLaidCardError(VoteError):
    """In Teams, a player who laid a card also voted."""


class TrapError(IllegalRoundError):
    """A trap that is missing, misplaced, or not part of the ruleset."""


class GameOverError(RulesError, ValueError):
    """A round played after the game has ended."""


class NothingToUndoError(RulesError, ValueError):
    """Undo asked for before any round was played."""


class CorrectionError(RulesError, ValueError):
    """A correction of a round that was not played, or after which a later round
    could not have been played."""


class GameFileError(CompanionError, ValueError):
    """A game file that is not valid JSON or not of the game-file shape."""


class UnreadableFileError(CompanionError, OSError):
    """A file that cannot be opened or read: missing, a folder, no permission."""


class KitError(CompanionError):
    """Something wrong with the printed kit or its description."""


class ForeignTagError(KitError, ValueError):
    """A QR code whose text is not a tag of the companion's kit format."""


class InvalidKitIdError(KitError, ValueError):
    """A kit id that is not 2 to 6 capital letters or digits."""


class LayoutError(KitError, ValueError):
    """A layout file that is malformed or describes an impossible board."""


class UnknownLayoutError(KitError, ValueError):
    """A layout name that matches no layout file."""


class VisionError(CompanionError):
    """Something the table reader cannot do with the frames or files it was given."""


class UnknownDecoderError(VisionError, ValueError):
    """A decoder backend name that is not known."""


class DecoderUnavailableError(VisionError, OSError):
    """A known decoder backend whose library is not installed on this machine."""


class UnreadableImageError(VisionError, OSError):
    """An image file that is missing or that no image reader can open."""


class CalibrationError(VisionError, ValueError):
    """A frame that cannot calibrate the board: too few tags, two kits, a poor fit."""


class CalibrationFileError(VisionError, ValueError):
    """A calibration file that is missing, corrupt, or not of the calibration shape."""


class SettingError(CompanionError, ValueError):
    """A setting (a window length, a threshold) outside its meaningful range."""


class TagSizeError(KitError, ValueError):
    """A tag print size too small to print sharply or too large for the page."""


class UnreadableKitError(TagSizeError):
    """A kit whose tags the camera cannot read over its layout's board: too small for
    the height that shows the whole board."""


class UnwritableFileError(CompanionError, OSError):
    """A file or folder that cannot be written: a path through a file, no permission, no space."""


class DiskFullError(UnwritableFileError):
    """No room left on the disk (or card) where a file is written."""


class HardwareError(CompanionError):
    """Something wrong with a camera, a button, a light or an LED strip."""


class UnknownSourceError(HardwareError, ValueError):
    """A frame source description that names no known kind of source."""


class CameraUnavailableError(HardwareError, OSError):
    """A camera, video file or image folder that cannot be opened at all."""


class CameraLostError(HardwareError, OSError):
    """A frame source that failed or vanished after it had been working."""


class SourceEndedError(HardwareError, EOFError):
    """A replayed video or image folder that has no frames left."""


class PinSettingError(HardwareError, ValueError):
    """A button, light or strip setting that cannot work: a pin used twice, no such pin."""


class JournalError(CompanionError):
    """Something the journal of played games cannot do."""


class JournalCorruptError(JournalError, OSError):
    """A journal file that is damaged, truncated, or not a journal at all."""


class NotAJournalError(JournalError, ValueError):
    """A file that is not a journal this companion may use: another program's, an empty
    one given to a command that only reads, or one written by a newer companion. It is
    refused, never moved aside, because it is not ours to move."""


class LinkedJournalError(NotAJournalError):
    """A journal file with more than one name (hard links): SQLite keeps its log beside
    the name it opens, so two names would make one journal two, each missing the other's
    rounds. It is refused by name until it has one."""


class JournalInUseError(JournalError, BlockingIOError):
    """A journal another process is writing: one table, one writer."""


class UnknownGameError(JournalError, ValueError):
    """A game number that the journal does not hold."""


class UnknownRoundError(JournalError, ValueError):
    """A round number that a stored game does not have."""


class WebError(CompanionError):
    """The phone page's server could not do its work."""


class WebAddressError(WebError, OSError):
    """The phone page cannot listen where it was asked to (a port in use, an address
    the machine does not have)."""


class HardwareUnavailableError(HardwareError, OSError):
    """GPIO, SPI or a library for them that this machine lacks or that is closed."""
