"""An executor that keeps games in memory as the journal does, for tests that drive
the session's transitions with many random events (a real journal would be slow)."""

from companion.errors import CompanionError, error_words
from companion.phrases import phrase
from companion.rules import Game
from companion.session.effects import (
    CorrectRound,
    Effect,
    Failed,
    GameAbandoned,
    GameStarted,
    KeepSetup,
    MarkAbandoned,
    NamesRecalled,
    RecallNames,
    RecallSetup,
    Result,
    RoundCorrected,
    RoundUndone,
    RoundWritten,
    SetupKept,
    SetupRecalled,
    StartGame,
    UndoRound,
    WriteRound,
)


class FakeJournal:
    """An executor keeping games in memory, as the journal does, and refusing what
    the journal refuses; it records every effect, and fails when the card is full."""

    def __init__(self) -> None:
        self.games: dict[int, Game] = {}
        self.playing: set[int] = set()
        self.effects: list[Effect] = []
        self.full = False
        """Whether the card is full: every write fails."""

    def run(self, effect: Effect) -> Result:
        self.effects.append(effect)
        if self.full and not isinstance(effect, RecallNames | RecallSetup):
            return Failed(effect, phrase("the memory card is full"), card_full=True)
        try:
            return self._carry_out(effect)
        except CompanionError as error:
            return Failed(effect, error_words(error))

    def _carry_out(self, effect: Effect) -> Result:
        match effect:
            case StartGame():
                assert not effect.game.played
                game_id = len(self.games) + 1
                self.games[game_id] = effect.game
                self.playing = {game_id}
                return GameStarted(effect, game_id)
            case WriteRound():
                stored = self.games[effect.game_id]
                assert effect.game_id in self.playing, "a round of a game not being played"
                assert effect.number == len(stored.played) + 1, "a round written twice"
                assert effect.played.played[:-1] == stored.played, "another game's round"
                self.games[effect.game_id] = effect.played
                if effect.played.outcome is not None:
                    self.playing.discard(effect.game_id)
                return RoundWritten(effect)
            case UndoRound():
                back = self.games[effect.game_id].undo()
                self.games[effect.game_id] = back
                self.playing.add(effect.game_id)
                return RoundUndone(effect, back)
            case CorrectRound():
                game = self.games[effect.game_id].corrected(effect.number, effect.reveal)
                self.games[effect.game_id] = game
                return RoundCorrected(effect, game)
            case MarkAbandoned():
                if effect.game_id not in self.playing:
                    return Failed(effect, phrase("the game is over"))
                self.playing.discard(effect.game_id)
                return GameAbandoned(effect)
            case KeepSetup():
                return SetupKept(effect)
            case RecallNames():
                return NamesRecalled(("Zoé", "Yann"))
            case RecallSetup():
                return SetupRecalled(None)
