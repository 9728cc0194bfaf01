"""How a café wants its table to behave: the one record every transition may read."""

from dataclasses import dataclass

from companion.language import Language


@dataclass(frozen=True)
class Settings:
    """How a café wants its table to behave."""

    slots: tuple[int, ...]
    """The board's slot numbers."""
    auto_confirm: float | None = None
    """Seconds after which a proposal confirms itself; None waits for a press."""
    language: Language = Language.ENGLISH
    """The language a new group is greeted in (the table's default)."""
