"""The JSON the page and other café tools read: the table now, the games, one game.

These shapes are the web server's stable interface (documented in the README): keys
are only ever added, never renamed or removed. Like `companion score`'s output they
are language-neutral: reasons and waiting lines in English, names as typed, colours
by their kit name. The page itself shows the table's language from the same records.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from companion.journal import DamagedGame, GameSummary, RoundSummary, StoredGame
from companion.rules import Game, PlayedRound, Reveal
from companion.session.setup import OPTIONS
from companion.session.states import SessionState, Snapshot
from companion.view.present import members


def state_document(snapshot: Snapshot, now: float) -> dict[str, Any]:
    """`GET /api/state`: the table at one moment, with the snapshot's version."""
    state = snapshot.state
    game = state.game
    table = state.table
    report = table.report if table is not None and not state.setting_up else None
    proposal = state.proposal
    countdown = state.countdown(now)
    return {
        "version": snapshot.version,
        "phase": state.phase.value,
        "language": state.language.value,
        "ruleset": state.draft.ruleset if state.setting_up else game.ruleset.name,
        "game": None if state.setting_up else state.game_id,
        "players": [] if state.setting_up else players_document(state),
        "totals": {} if state.setting_up else dict(game.totals),
        "round": None if state.setting_up else _round_number(game),
        "storyteller": None if state.setting_up or game.outcome else game.storyteller,
        "waiting_for": [str(w) for w in report.waiting] if report else [],
        "problems": [str(p) for p in report.problems] if report else [],
        "proposal": None
        if proposal is None
        else {
            "round": proposal.round.number,
            "points": dict(proposal.deltas),
            "reasons": {s: list(r) for s, r in proposal.reasons.items()},
            "reveal": reveal_document(proposal.round.reveal),
            "confirms_in": None if countdown is None else round(countdown, 1),
        },
        "winners": list(game.outcome.winners) if game.outcome and not state.setting_up else [],
        "setup": setup_document(state) if state.setting_up else None,
    }


def players_document(state: SessionState) -> list[dict[str, Any]]:
    """The players in seating order, each with their colour and, in team editions,
    the team (the scorer their points go to)."""
    game, lineup = state.game, state.lineup
    team_of = {p: scorer for scorer in game.totals for p in members(game, scorer)}
    return [
        {"name": name, "colour": colour, "scorer": team_of.get(name, name)}
        for name, colour in zip(lineup.names, lineup.colours, strict=True)
    ]


def setup_document(state: SessionState) -> dict[str, Any]:
    """The game being set up: the step the table shows and the draft so far."""
    draft = state.draft
    return {
        "step": state.phase.value,
        "ruleset": draft.ruleset,
        "options": {name: draft.option(name) for name in OPTIONS},
        "seats": [{"colour": c, "name": draft.name_of(c)} for c in draft.seats],
        "named": dict(draft.names),
    }


def reveal_document(reveal: Reveal) -> dict[str, Any]:
    """What lay on the table, in the round shape of `companion score`'s game file."""
    doc: dict[str, Any] = {
        "cards": {str(slot): player for slot, player in sorted(reveal.cards.items())},
        "votes": {voter: list(slots) for voter, slots in reveal.votes.items()},
    }
    if reveal.trap is not None:
        doc["trap"] = reveal.trap
    return doc


def summary_document(summary: GameSummary | DamagedGame) -> dict[str, Any]:
    """One game of `GET /api/games`: its line of `companion history`."""
    if isinstance(summary, DamagedGame):
        return {"id": summary.id, "damage": summary.damage}
    return {
        "id": summary.id,
        "ruleset": summary.ruleset,
        "players": list(summary.players),
        "rounds_played": summary.rounds,
        "status": summary.status.value,
        "started_at": summary.started_at.isoformat(),
        "totals": dict(summary.totals),
        "winners": list(summary.winners),
        "archived": summary.archived,
    }


def game_document(
    summary: GameSummary, stored: StoredGame, rounds: Sequence[RoundSummary]
) -> dict[str, Any]:
    """`GET /api/games/GAME_ID`: the game with every round, what lay where, and where
    its pictures are."""
    game = stored.game
    doc = summary_document(summary)
    doc["colours"] = dict(stored.colours)
    doc["first_storyteller"] = game.first_storyteller
    doc["options"] = _options(game)
    doc["rounds"] = [
        round_document(stored.id, played, kept)
        for played, kept in zip(game.played, rounds, strict=True)
    ]
    return doc


def round_document(game_id: int, played: PlayedRound, kept: RoundSummary) -> dict[str, Any]:
    """One round of a game: the reveal, the points with their reasons, the totals
    after it, and the addresses of its pictures (None for those not kept, pruned or
    damaged), with whether they were pruned and which no longer match their checksums."""
    base = f"/api/games/{game_id}/rounds/{kept.number}"
    score = played.score
    return {
        "number": kept.number,
        "storyteller": score.round.storyteller,
        **reveal_document(score.round.reveal),
        "points": dict(score.deltas),
        "reasons": {s: list(r) for s, r in score.reasons.items()},
        "totals": dict(played.totals),
        "confirmed_at": kept.committed_at.isoformat(),
        "corrected": kept.corrected,
        "frame": f"{base}/frame.jpg" if kept.has_frame else None,
        "overlay": f"{base}/overlay.jpg" if kept.has_overlay else None,
        "pictures_pruned": kept.pruned,
        "damaged_pictures": list(kept.damaged),
    }


def _options(game: Game) -> Mapping[str, int | None]:
    rules = game.ruleset
    return {name: getattr(rules, name) for name in OPTIONS}


def _round_number(game: Game) -> int:
    """The round being played, or the last one once the game is over."""
    return len(game.played) if game.outcome is not None else game.round_number
