"""Keeps the translation catalogues in step with the code.

    .venv/bin/python scripts/catalogue.py           # extract, update the .po files, compile
    .venv/bin/python scripts/catalogue.py --check   # fail if anything is out of date

Messages are found by Babel's extractor in every `phrase(...)`, `plural(...)` and
`in_context(...)` call under companion/, in the code and in the phone page's Jinja2
templates (companion/web/templates/). Updating keeps every translation already
made, adds new messages untranslated and drops messages the code no longer has.
`--check` (run by the tests) fails when a message has no translation, when a
translation does not keep its message's `{values}`, when French typography is not
kept (a no-break space before : ; ? !), or when a compiled catalogue is not what its
.po file compiles to.
"""

import argparse
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
LOCALE = PACKAGE / "locale"
DOMAIN = "companion"
LANGUAGES = ("fr",)
KEYWORDS = {"phrase": (1,), "plural": (1, 2), "in_context": ((1, "c"), 2)}
METHODS = [("**.py", "python"), ("web/templates/**.html", "jinja2")]
"""The code, and the phone page's templates, which call the same phrase functions."""
OPTIONS = {"web/templates/**.html": {"silent": "false"}}
"""A template Jinja2 cannot read fails the extraction rather than losing its messages."""
NO_BREAK_SPACES = "\u00a0\u202f"
_VALUE = re.compile(r"\{(\w*)(?::[^{}]*)?\}")


def extract() -> Catalog:
    """Every message the code says, with where it says it."""
    catalog = Catalog(project="dixit-companion", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(
        str(PACKAGE),
        method_map=METHODS,
        options_map=OPTIONS,
        keywords=KEYWORDS,
        comment_tags=("NOTE",),
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(
            message,
            None,
            [(f"companion/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read(language: str) -> Catalog:
    path = po_path(language)
    if not path.exists():
        return Catalog(
            locale=language,
            domain=DOMAIN,
            project="dixit-companion",
            version="0.1.0",
            copyright_holder="the Dixit table companion's authors",
            msgid_bugs_address="",
            last_translator="the Dixit table companion's authors",
            language_team=language,
            header_comment="# The companion's words for the players, in this language.\n"
            "# Made and kept up to date by scripts/catalogue.py; translate the msgstr lines.",
            fuzzy=False,
        )
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, ignore_obsolete=True, no_location=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def updated(language: str, template: Catalog) -> Catalog:
    catalog = read(language)
    template.creation_date = catalog.creation_date
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    return catalog


def update(taken: list[Path]) -> None:
    """Bring every catalogue up to date with the code and compile it, taking the
    translations of the .po files in `taken` (a translator's work) for its language."""
    template = extract()
    for language in LANGUAGES:
        catalog = updated(language, template)
        for path in taken:
            with path.open("rb") as file:
                given = read_po(file, locale=language, domain=DOMAIN)
            for message in given:
                mine = catalog.get(message.id, message.context)
                if message.id and message.string and mine is not None:
                    mine.string = message.string
                    mine.flags.discard("fuzzy")
        po_path(language).parent.mkdir(parents=True, exist_ok=True)
        po_path(language).write_bytes(po_bytes(catalog))
        mo_path(language).write_bytes(mo_bytes(read(language)))
        missing = untranslated(read(language))
        print(f"{language}: {len(catalog)} messages, {len(missing)} without a translation")


def untranslated(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id and (m.fuzzy or not _all_strings(m.string))]


def _all_strings(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)


def _strings(string: object) -> list[str]:
    if isinstance(string, tuple | list):
        return [str(s) for s in string]
    return [str(string)] if string else []


def _ids(message: Message) -> list[str]:
    return [str(i) for i in message.id] if isinstance(message.id, tuple | list) else [message.id]


def problems(language: str) -> list[str]:
    """What is out of date or wrong in one language's catalogue."""
    found: list[str] = []
    template = extract()
    catalog = read(language)
    known = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
    for message in template:
        if not message.id:
            continue
        key = (message.id if isinstance(message.id, str) else message.id[0], message.context)
        if key not in known:
            found.append(f"{language}: not in the catalogue (run scripts/catalogue.py): {key[0]!r}")
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    for key in sorted(known - wanted, key=str):
        found.append(f"{language}: no longer in the code (run scripts/catalogue.py): {key[0]!r}")
    for message in untranslated(catalog):
        found.append(f"{language}: no translation: {_ids(message)[0]!r}")
    for message in catalog:
        if not message.id:
            continue
        names = {name for text in _ids(message) for name in _VALUE.findall(text)}
        for text in _strings(message.string):
            if set(_VALUE.findall(text)) - names - {"n"}:
                found.append(f"{language}: {text!r} has values that {_ids(message)[0]!r} lacks")
            if names - set(_VALUE.findall(text)) - {"n"}:
                found.append(f"{language}: {text!r} loses values of {_ids(message)[0]!r}")
            if language == "fr":
                found += _typography(text)
    if not mo_path(language).exists() or mo_path(language).read_bytes() != mo_bytes(catalog):
        found.append(f"{language}: {mo_path(language)} is not compiled from the .po file")
    return found


def _typography(text: str) -> list[str]:
    """French puts a no-break space before : ; ? ! (values' format specs aside)."""
    bare = _VALUE.sub("{}", text)
    wrong = []
    for at, char in enumerate(bare):
        if char in ":;?!" and at > 0 and bare[at - 1] not in NO_BREAK_SPACES:
            wrong.append(f"fr: {text!r}: a no-break space belongs before {char!r}")
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; change nothing")
    parser.add_argument(
        "--take", type=Path, nargs="*", default=[], help=".po files whose translations to take"
    )
    args = parser.parse_args()
    if not args.check:
        update(args.take)
    found = [p for language in LANGUAGES for p in problems(language)]
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
