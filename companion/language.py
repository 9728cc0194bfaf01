"""The table's languages and their catalogues.

The catalogues are gettext's: `companion/locale/<code>/LC_MESSAGES/companion.po`
(the translations, edited by people) and the `.mo` compiled from it, which ships in
the package and is what the table reads. `scripts/catalogue.py` extracts the messages
from the code, updates the catalogues and compiles them; a test fails when the
compiled catalogue is out of date or a message has no translation.
"""

import enum
import functools
import gettext
from importlib import resources

from companion.errors import SettingError
from companion.phrases import ENGLISH, Translations

DOMAIN = "companion"
"""The catalogues' gettext domain."""


class Language(enum.Enum):
    """A language the table speaks: its code is the catalogue's."""

    ENGLISH = "en"
    FRENCH = "fr"

    @property
    def native_name(self) -> str:
        """The language's name in itself, as a chooser shows it."""
        return _NATIVE_NAMES[self]


_NATIVE_NAMES = {Language.ENGLISH: "English", Language.FRENCH: "Français"}


def find_language(code: str) -> Language:
    """The language of a code ("fr", "FR", "fr_FR.UTF-8"), or `SettingError`."""
    short = code.strip().split(".")[0].split("_")[0].split("-")[0].lower()
    for language in Language:
        if language.value == short:
            return language
    known = ", ".join(language.value for language in Language)
    raise SettingError(f"the table does not speak {code!r}; its languages are {known}")


@functools.cache
def translations(language: Language) -> Translations:
    """The catalogue of `language`, read once from the package."""
    if language is Language.ENGLISH:
        return ENGLISH
    catalogue = resources.files("companion").joinpath(
        "locale", language.value, "LC_MESSAGES", f"{DOMAIN}.mo"
    )
    with catalogue.open("rb") as compiled:
        return gettext.GNUTranslations(compiled)
