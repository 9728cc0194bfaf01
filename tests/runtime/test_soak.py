"""A thousand rounds through the real loop: memory stays flat, nothing leaks, no
score is ever wrong, and the journal holds every round.

The driver (`tests.runtime.soak`) replays pre-drawn frames of the small board through
the real reader, stabiliser, session, journal and headless screen. Run with `-s` to
see the figures: resident memory, open files and threads every 100 rounds.
"""

from pathlib import Path

import pytest

from tests.runtime.soak import Sample, draw_pool, soak

ROUNDS = 1_000
"""Long enough to tell a leak from caches filling: a frame kept a round would grow
9 GB, a JPEG kept a round 400 MB, and one picture in the screen's caches a round
(about 0.1 MB) 90 MB past the allowance. It was 2,000 rounds: the figures from
round 100 on grew in a straight line (+31 MB by round 2,000), so half the rounds
show the same thing in half the time."""
WARM_UP = 100
"""Rounds after which the screen's bounded caches (fonts, text, drawn parts) are
mostly full and the allocator has found its working size."""
ALLOWED_MB = 48.0
"""Growth of resident memory from round 100 to round 1,000 taken as flat: the
display's bounded caches (text, fonts, drawn parts) filling with ever new totals,
the game's own history (every round stays in the session's `Game`) and the
allocator's fragmentation."""


def row(s: Sample) -> str:
    return (
        f"{s.rounds:>6} {s.seconds:>7.0f} {s.resident_mb:>7.0f} {s.fds:>4} "
        f"{s.font_fds:>5} {s.threads:>7} {s.blocks:>9}"
    )


@pytest.mark.slow
def test_a_thousand_rounds_keep_memory_flat_and_every_score_exact(tmp_path: Path) -> None:
    path = tmp_path / "soak.sqlite"
    pool = draw_pool()
    print(
        f"\n{'round':>6} {'seconds':>7} {'MB':>7} {'fds':>4} {'fonts':>5} {'threads':>7} {'blocks':>9}"
    )
    try:
        result = soak(path, ROUNDS, pool, say=lambda s: print(row(s), flush=True))
    finally:
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
    start, warm, end = result.at(0), result.at(WARM_UP), result.at(ROUNDS)
    print(
        f"{result.steps} steps; journal {result.journal_bytes / 1e6:.0f} MB "
        f"({result.journal_bytes / ROUNDS / 1e3:.0f} KB a round); "
        f"round 1 {result.at(1).resident_mb:.0f} MB, round {WARM_UP} {warm.resident_mb:.0f} MB, "
        f"round {ROUNDS} {end.resident_mb:.0f} MB; {end.seconds:.0f} s"
    )
    assert result.wrong == ()
    assert result.journal_rounds == ROUNDS
    assert result.journal_replays
    assert end.resident_mb - warm.resident_mb < ALLOWED_MB
    assert end.other_fds == warm.other_fds == start.other_fds
    assert end.threads == warm.threads == start.threads
