"""A reference scorer: RULES.md transcribed as plainly as possible, for checking the
engine against an independent reading of the same rules."""

from companion.rules import Game, Reveal


def reference_deltas(game: Game, table: Reveal) -> dict[str, int]:
    """The points of `table` as the next round of `game`, by RULES.md."""
    rules, players, teller = game.ruleset, game.seating.players, game.storyteller
    n, cap, votes = len(players), game.ruleset.bonus_cap, table.votes

    def limit(points: int) -> int:
        return points if cap is None else min(points, cap)

    if rules.name in ("party", "party-1e"):
        result = {}
        for p in players:
            slot = votes[p][0]
            together = sum(1 for q in players if votes[q][0] == slot)
            result[p] = 0 if slot == table.trap or together == 1 else limit(together)
        return result

    teams = rules.name in ("teams", "teams-1e")
    half = n // 2

    def scorer(p: str) -> str:
        if not teams:
            return p
        s = players.index(p) % half
        return f"{players[s]}+{players[s + half]}"

    result = {scorer(p): 0 for p in players}
    target = next(s for s, owner in table.cards.items() if owner == teller)
    found = [v for v in votes if target in votes[v]]
    if len(found) in (0, len(votes)):
        for v in votes:
            result[scorer(v)] += 2
    else:
        points = 4 if rules.name == "classic-1e" and n == 3 and len(found) == 1 else 3
        result[scorer(teller)] += points
        for v in found:
            result[scorer(v)] += points
    if rules.name == "odyssey" and n >= 7:
        for v in found:
            if len(votes[v]) == 1:
                result[v] += 1
    on = {s: sum(s in vs for vs in votes.values()) for s in table.cards}
    if teams:
        for slot, owner in table.cards.items():
            if slot != target:
                result[scorer(owner)] += limit(on[slot])
    else:
        for p in players:
            if p != teller:
                result[p] += limit(sum(on[s] for s, owner in table.cards.items() if owner == p))
    return result
