"""The small camera picture with its status line; a failed camera is a red box that
says what to do, so nobody waits for a table that cannot be read.
"""

import numpy as np
import numpy.typing as npt
import pygame

from companion.display import fonts, paint, theme
from companion.display.theme import Scale
from companion.display.view import CameraView

SMOOTH_BELOW = 0.75
"""Pictures shrunk more than this are smoothed (thin tag outlines would break up);
the small picture the loop gives is only ever shrunk a little or enlarged, which
the cheaper nearest-pixel scaling does well."""


def picture(image: npt.NDArray[np.uint8]) -> pygame.Surface:
    """A BGR (or grey) array as a pygame surface, read in place where it can be."""
    if image.ndim == 2:
        bgr = np.repeat(image[:, :, None], 3, axis=2)
    else:
        bgr = np.ascontiguousarray(image[:, :, :3])
    height, width = bgr.shape[:2]
    return pygame.image.frombuffer(bgr.data, (width, height), "BGR")


def _fitted(image: npt.NDArray[np.uint8], room: pygame.Rect) -> pygame.Surface | None:
    height, width = image.shape[:2]
    if width == 0 or height == 0 or room.width <= 0 or room.height <= 0:
        return None
    zoom = min(room.width / width, room.height / height)
    size = (max(1, int(width * zoom)), max(1, int(height * zoom)))
    if zoom < SMOOTH_BELOW:
        return pygame.transform.smoothscale(picture(image), size)
    return pygame.transform.scale(picture(image), size)


def draw(surface: pygame.Surface, area: pygame.Rect, camera: CameraView, s: Scale) -> None:
    """The camera panel in `area`."""
    if not camera.working:
        _failed(surface, area, camera, s)
        return
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(8), -2 * s(8))
    px = s(20)
    status = pygame.Rect(
        inner.x, inner.bottom - fonts.line_height(px), inner.width, fonts.line_height(px)
    )
    room = pygame.Rect(inner.x, inner.y, inner.width, status.y - inner.y - s(4))
    shown = None if camera.image is None else _fitted(camera.image, room)
    if shown is None:
        paint.panel(surface, room, theme.BACKGROUND, radius=s(4))
        paint.line(surface, camera.no_picture, room, s(24), theme.DIM, "center", s(12))
    else:
        surface.blit(shown, shown.get_rect(center=room.center))
    paint.line(surface, str(camera.status), status, px, theme.MUTED, "left", s(13))


def _failed(surface: pygame.Surface, area: pygame.Rect, camera: CameraView, s: Scale) -> None:
    paint.panel(surface, area, theme.ALARM_FILL, theme.RED, s(4), radius=s(8))
    inner = area.inflate(-2 * s(14), -2 * s(12))
    heading = pygame.Rect(inner.x, inner.y, inner.width, fonts.line_height(s(30)))
    paint.line(surface, camera.failed, heading, s(30), theme.TEXT, "left", s(16))
    words = pygame.Rect(
        inner.x, heading.bottom + s(8), inner.width, inner.bottom - heading.bottom - s(8)
    )
    if words.height > 0:
        paint.paragraphs(surface, (str(camera.status),), words, s(24), s(14), theme.TEXT)
