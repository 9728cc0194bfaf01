"""Fitting a lens and the board together, from the corners of the fixed tags.

Through a webcam's or a wide lens's barrel the board fits no homography: its corner
tags lie several millimetres from where one fitted to the middle puts them. So the
calibration fits the lens's distortion (`Lens`: its centre and k1..k3) and the board's
homography from straightened pixels at once, to the corners of every corner and slot
tag: sixteen tags give 64 points, enough for both.

The model is nonlinear, so a small Levenberg-Marquardt (numerical Jacobian; 13
parameters and about 130 residuals) minimises the board-millimetre error, starting
from a straight lens and the least-squares homography of the tag centres. Where the
numbers are worked, pixels are measured from the frame's centre in half-diagonals
and board millimetres from the tags' middle in board half-sizes, so that every
parameter is of order one; the result is turned back into pixels and millimetres.

Each tag's own turn and printed size are fitted too (in closed form, inside the
residuals): a sticker is stuck by hand, a few degrees off or a quarter turn round,
and a printer's "fit to page" shrinks a kit by a few percent, none of which says
anything about the lens. What a tag's corners tell beyond that (how the lens squeezes
a square at the frame's edge) is what the lens is fitted to; its centre, where the
layout puts it, fixes the board.

Cauchy weights for a few rounds keep a tag that was moved or misread from pulling
the fit; then tags still off by `SET_ASIDE_MM` are set aside and the rest fitted
again. With few tags fewer lens terms are fitted, and a lens that would fold the
frame gives way to one with fewer terms. A lens that does not clearly beat a plain
homography on the same tags is not kept: the board is then read as a pinhole's.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CalibrationError
from companion.vision.board import MIN_ANCHORS, BoardFit
from companion.vision.lens import Lens
from companion.vision.records import Point

Vector = npt.NDArray[np.float64]

TERMS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (8, (0, 1, 2, 3, 4)),
    (6, (2, 3)),
    (MIN_ANCHORS, (2,)),
)
"""Lens terms fitted, by the fewest tags offered that allow them, as indices into
(centre x, centre y, k1, k2, k3): from eight tags the centre and all three terms (13
parameters against 48 equations or more: 8 coordinates a tag, less its own turn and
size); from six, k1 and k2 about the frame's centre; from four, k1 alone. The next
fewer terms stand in when more would fold the frame, and a straight lens when none
will do (the board is then judged as a plain homography's, as before lenses were
corrected)."""
CENTRE_PRIOR = 0.05
"""The distortion's centre is pulled towards the frame's centre: a shift of this share
of the half-diagonal weighs as much as one point a millimetre off. A nearly straight
lens says nothing of its centre, which must not wander then."""
CAUCHY_MM = (8.0, 4.0, 2.0, 1.0)
"""The Cauchy weights' scale in the reweighted rounds: from loose to tight, so that a
tag far off (a misread) is found before the fit bends to it, and then ~1 mm, about
what a tag's corner may be off by honestly; the last is kept for further rounds until
the weights settle."""
ROUNDS = 12
"""Most reweighted rounds: one to four settle a clean board, a dozen one with a few
tags far off."""
SETTLED_MM = 0.01
"""The weights have settled when no point moved by more than this in a round."""
SET_ASIDE_MM = 3.0
"""A tag whose corners are off by more than this on average, once the weights have
found the board, was moved or misread and is set aside."""
SET_ASIDE_SHARE = 3.0
"""...or by more than this many times the typical tag's error, when all are off (a
rough board: then the calibration's own limit judges the whole fit)."""
LENS_WORTH_MM = 0.05
"""A lens that brings the fit's error down by less than this is noise fitted, not a
lens: the board is then kept straight, as a pinhole camera's."""
LENS_GAIN = 2.0
"""...and so is one that does not at least halve it. A real lens bends the board the
same way everywhere, and its correction leaves only the noise of the tags' corners
(a tenth of a millimetre against several before), whereas on a rough board (stickers
a few millimetres off) the lens's five terms would only bend the fit towards the
misplaced stickers, shaving a quarter off its error and hiding how rough it is."""
STEPS = 100
"""Most Levenberg-Marquardt steps per fit: it settles in ten to thirty."""


@dataclass(frozen=True)
class LensFit:
    """The lens and the board fitted together, and what the lens changed."""

    board: BoardFit
    """The board through the lens: straightened pixels to millimetres, its error after
    correction, the tags it rests on (its `lens` is straight when the lens made no
    difference)."""
    straight_rms_error_mm: float
    """The error a homography alone leaves on the same tags: how far the lens bent
    the board."""
    set_aside: tuple[str, ...]
    """The tags left out of the fit (moved or misread), in the order offered."""

    @property
    def lens(self) -> Lens:
        """The lens fitted."""
        return self.board.lens


@dataclass(frozen=True)
class _Pairs:
    """The point pairs, in the normalised units the fit works in."""

    x: Vector
    """Frame pixels, measured from the frame's centre in half-diagonals, (n, 2)."""
    offset: npt.NDArray[np.complex128]
    """Each point's place relative to its tag's centre on the board, as x + iy."""
    centre: npt.NDArray[np.complex128]
    """Its tag's centre on the board, as x + iy."""
    tag: npt.NDArray[np.intp]
    """Its tag's index."""
    tags: int
    """How many tags there are."""
    mm: float
    """Board millimetres per normalised unit."""


def fit_lens(
    pixels: Sequence[Point],
    board_mm: Sequence[Point],
    tags: Sequence[str],
    frame_size: tuple[int, int],
) -> LensFit | None:
    """Fit the lens and the board to point pairs: each point's frame pixel, where the
    layout puts it on the board, and which tag it belongs to (a tag's points are the
    corners of its code, in the code's order, and the board's corners of the square
    laid upright, in the same order: any turn of the sticker is fitted). None when the
    tags cannot fix a board: fewer than four, or on a line."""
    names = list(dict.fromkeys(tags))
    if len(names) < MIN_ANCHORS:
        return None
    width, height = frame_size
    centre_px = np.array([(width - 1) / 2, (height - 1) / 2])
    scale_px = math.hypot(width, height) / 2
    index = np.array([names.index(t) for t in tags], np.intp)
    board = np.array(board_mm, np.float64)
    middle, half = board.mean(axis=0), float(np.abs(board - board.mean(axis=0)).max())
    places = _complex((board - middle) / half)
    centres = _per_tag(places, index, len(names))
    pairs = _Pairs(
        (np.array(pixels, np.float64) - centre_px) / scale_px,
        places - centres[index],
        centres[index],
        index,
        len(names),
        half,
    )
    start = _centres_homography(pairs)
    if start is None:
        return None
    for free in [*(free for least, free in TERMS if len(names) >= least), ()]:
        params, error, kept = _robust_fit(pairs, free, start)
        if not free or _usable(_lens(params, free, centre_px, scale_px), frame_size):
            break
    used = int(kept[pairs.tag].sum())
    plain = _residuals(_subset(pairs, kept), (), None)
    straight = _least_squares(plain, start)
    straight_rms, rms = _rms(plain(straight), used), _rms(error, used)
    if straight_rms < max(LENS_GAIN * rms, rms + LENS_WORTH_MM):
        params, free, rms = straight, (), straight_rms
    lens = _lens(params, free, centre_px, scale_px)
    matrix = _pixel_homography(params[len(free) :], lens, middle, half)
    board_fit = BoardFit(_rows(matrix), rms, int(kept.sum()), len(names), lens)
    aside = tuple(name for name, k in zip(names, kept, strict=True) if not k)
    return LensFit(board_fit, straight_rms, aside)


def _robust_fit(
    pairs: _Pairs, free: tuple[int, ...], start: Vector
) -> tuple[Vector, Vector, npt.NDArray[np.bool_]]:
    """Fit with `free` lens terms: reweighted rounds, then the tags still far off set
    aside and the rest fitted unweighted. Returns the parameters, the residuals of the
    points kept and which tags were kept."""
    params = np.concatenate([np.zeros(len(free)), start])
    weights, miss = None, np.full(len(pairs.tag), np.inf)
    for round_ in range(ROUNDS):
        params = _least_squares(_residuals(pairs, free, weights), params)
        before, miss = miss, _misses(_residuals(pairs, free, None)(params), len(pairs.tag))
        cauchy = CAUCHY_MM[min(round_, len(CAUCHY_MM) - 1)]
        if cauchy == CAUCHY_MM[-1] and np.max(np.abs(miss - before)) < SETTLED_MM:
            break
        weights = 1.0 / (1.0 + (miss / cauchy) ** 2)
    per_tag = np.bincount(pairs.tag, miss, pairs.tags) / np.bincount(pairs.tag, None, pairs.tags)
    kept = per_tag <= max(SET_ASIDE_MM, SET_ASIDE_SHARE * float(np.median(per_tag)))
    if kept.sum() < MIN_ANCHORS:
        kept[:] = True
    chosen = _residuals(_subset(pairs, kept), free, None)
    params = _least_squares(chosen, params)
    return params, chosen(params), kept


def _residuals(
    pairs: _Pairs, free: tuple[int, ...], weights: Vector | None
) -> Callable[[Vector], Vector]:
    """The residuals, in board millimetres (times the square roots of `weights`), of
    the parameters: the `free` lens terms, then the homography's first eight entries
    (the ninth is 1); and, when the centre is free, its pull to the frame's centre.

    Each tag's turn and size are the weighted least-squares best for the rest (a
    complex factor on its corners' offsets), so they never need a parameter."""
    root = np.ones(len(pairs.tag)) if weights is None else np.sqrt(weights)

    def residuals(params: Vector) -> Vector:
        terms = np.zeros(5)
        terms[list(free)] = params[: len(free)]
        lens = Lens((terms[0], terms[1]), (1.0, 1.0), (terms[2], terms[3], terms[4]))
        straight = lens.straighten(pairs.x) - terms[:2]  # from the distortion's centre
        homography = np.append(params[len(free) :], 1.0).reshape(3, 3)
        mapped = cv2.perspectiveTransform(straight.reshape(-1, 1, 2), homography)
        seen = _complex(np.asarray(mapped.reshape(-1, 2), np.float64)) - pairs.centre
        w = root * root
        turn = _per_tag(w * np.conj(pairs.offset) * seen, pairs.tag, pairs.tags, average=False)
        size = np.bincount(pairs.tag, w * np.abs(pairs.offset) ** 2, pairs.tags)
        factor = np.divide(turn, size, out=np.zeros_like(turn), where=size > 0)
        miss = (seen - factor[pairs.tag] * pairs.offset) * root * pairs.mm
        out = np.column_stack([miss.real, miss.imag]).ravel()
        if 0 in free:
            out = np.concatenate([out, terms[:2] / CENTRE_PRIOR])
        return out

    return residuals


def _least_squares(residuals: Callable[[Vector], Vector], start: Vector) -> Vector:
    """Levenberg-Marquardt from `start`, with forward-difference derivatives; a step
    that does not lower the sum of squares (or leaves the numbers) is refused and the
    damping raised."""
    params = start.copy()
    with np.errstate(all="ignore"):  # a refused trial step may overflow
        now = residuals(params)
        cost = float(now @ now)
        damping = 1e-3
        for _ in range(STEPS):
            jacobian = np.empty((len(now), len(params)))
            for j in range(len(params)):
                nudge = np.zeros_like(params)
                nudge[j] = 1e-7 * max(1.0, abs(params[j]))
                jacobian[:, j] = (residuals(params + nudge) - now) / nudge[j]
            normal, gradient = jacobian.T @ jacobian, jacobian.T @ now
            while True:
                damped = normal + damping * np.diag(np.diag(normal)) + 1e-12 * np.eye(len(params))
                step = np.linalg.solve(damped, -gradient)
                trial = residuals(params + step)
                trial_cost = float(trial @ trial)
                if trial_cost < cost:
                    break
                damping *= 4
                if damping > 1e12 or not np.all(np.isfinite(step)):
                    return params
            params, now = params + step, trial
            settled = cost - trial_cost <= 1e-14 * cost
            cost, damping = trial_cost, max(damping / 3, 1e-12)
            if settled:
                break
    return params


def _centres_homography(pairs: _Pairs) -> Vector | None:
    """The least-squares homography from the tags' centres in the frame to their
    centres on the board (its first eight entries), or None when they lie on a line."""
    count = np.bincount(pairs.tag, None, pairs.tags)
    seen = np.column_stack([np.bincount(pairs.tag, pairs.x[:, i], pairs.tags) for i in (0, 1)])
    board = _per_tag(pairs.centre, pairs.tag, pairs.tags)
    matrix, _ = cv2.findHomography(
        seen / count[:, None], np.column_stack([board.real, board.imag]), 0
    )
    if matrix is None or not np.all(np.isfinite(matrix)) or abs(matrix[2, 2]) < 1e-12:
        return None
    matrix = matrix / matrix[2, 2]
    if abs(np.linalg.det(matrix)) < 1e-9:
        return None
    return np.asarray(matrix.ravel()[:8], np.float64)


def _pixel_homography(entries: Vector, lens: Lens, middle: Vector, half: float) -> Vector:
    """The fitted homography, from normalised units to straightened frame pixels and
    board millimetres."""
    (cx, cy), (scale, _) = lens.centre_px, lens.scale_px
    from_px = np.array([[1 / scale, 0, -cx / scale], [0, 1 / scale, -cy / scale], [0, 0, 1]])
    to_mm = np.array([[half, 0, middle[0]], [0, half, middle[1]], [0, 0, 1]])
    matrix = to_mm @ np.append(entries, 1.0).reshape(3, 3) @ from_px
    return np.asarray(matrix / matrix[2, 2], np.float64)


def _lens(params: Vector, free: tuple[int, ...], centre_px: Vector, scale_px: float) -> Lens:
    """The lens of the fitted parameters, in frame pixels."""
    terms = np.zeros(5)
    terms[list(free)] = params[: len(free)]
    cx, cy = centre_px + scale_px * terms[:2]
    k1, k2, k3 = (float(k) for k in terms[2:])
    return Lens((float(cx), float(cy)), (scale_px, scale_px), (k1, k2, k3))


def _usable(lens: Lens, frame_size: tuple[int, int]) -> bool:
    try:
        lens.check(frame_size)
    except CalibrationError:
        return False
    return True


def _subset(pairs: _Pairs, kept: npt.NDArray[np.bool_]) -> _Pairs:
    """The pairs of the kept tags (keeping their indices)."""
    chosen = kept[pairs.tag]
    return _Pairs(
        pairs.x[chosen],
        pairs.offset[chosen],
        pairs.centre[chosen],
        pairs.tag[chosen],
        pairs.tags,
        pairs.mm,
    )


def _per_tag(
    values: npt.NDArray[np.complex128],
    tag: npt.NDArray[np.intp],
    tags: int,
    *,
    average: bool = True,
) -> npt.NDArray[np.complex128]:
    """Complex values summed (or averaged) per tag."""
    total = np.bincount(tag, values.real, tags) + 1j * np.bincount(tag, values.imag, tags)
    if average:
        total = total / np.maximum(np.bincount(tag, None, tags), 1)
    return np.asarray(total, np.complex128)


def _misses(residuals: Vector, points: int) -> Vector:
    """Each point's distance from where the fit puts it, from the residual vector."""
    return np.asarray(np.hypot(residuals[0 : 2 * points : 2], residuals[1 : 2 * points : 2]))


def _rms(residuals: Vector, points: int) -> float:
    return float(np.sqrt(np.mean(_misses(residuals, points) ** 2)))


def _complex(points: Vector) -> npt.NDArray[np.complex128]:
    return np.asarray(points[:, 0] + 1j * points[:, 1], np.complex128)


def _rows(matrix: Vector) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in matrix)
