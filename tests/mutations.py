"""Hypothesis strategies that damage real files, for the loaders' fuzz tests.

A shipped or freshly written JSON document is changed at up to three places chosen
among all its values, the way files really go wrong: a key dropped or renamed, an
unknown or a duplicated key, a value of another type, a number out of range or absurdly
large, NaN and Infinity, a string swapped for another string of the same document (a
player for another player), a list element copied or dropped, a value nested far too
deeply. The document is then written out as JSON text, literals no encoder writes
included, and the bytes are now and then damaged as well: truncated at any byte,
overwritten, cut by invalid UTF-8, re-encoded, or replaced by noise. Image files are
damaged likewise, or claim sizes and shapes no camera gives.
"""

import copy
import json
import struct
import zlib
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st

Location = tuple[str | int, ...]
"""Where a value lies in a document: the keys and indexes leading to it."""


@dataclass(frozen=True)
class Raw:
    """JSON text written verbatim: a literal that `json.dumps` never writes."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """A JSON object written with exactly these pairs, so a key may appear twice."""

    items: tuple[tuple[str, object], ...]


ABSURD = (
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw("1e999"),
    Raw("-1e400"),
    Raw("9" * 5000),
    Raw("-" + "1" * 4400),
    Raw("1" + "0" * 400),
    Raw("1e-400"),
    Raw('"\\ud800"'),
    Raw('"a\\u0000b"'),
    Raw("[" * 3000 + "]" * 3000),
    Raw('{"a": ' * 3000 + "0" + "}" * 3000),
)
"""Values a loader must refuse or survive: non-numbers, overflowing and over-long
numbers, a lone surrogate, a NUL, nesting deeper than Python's recursion limit."""

ODD_VALUES: st.SearchStrategy[object] = st.one_of(
    st.sampled_from(ABSURD),
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.integers(),
    st.sampled_from([0, -1, 2**31, 2**63, 10**30, 10**400]),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["", " ", "1", "01", "-1", "1.5", "NaN", "\n", "\u0661", "é"]),
    st.lists(st.integers(-2, 20), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(-2, 20), max_size=2),
)
"""Anything that may stand where a value of another type or range belongs; the absurd
values first, as they are what loaders most often forget."""

ODD_NAMES: st.SearchStrategy[str] = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", " ", "Zoé", "a\nb", "\ud800", "\x00", "\u202e", '"', "red+blue", "0"]),
)
"""Names a player, a colour or a layout might be given by mistake or by mischief."""

MUTATIONS = (
    "drop",
    "replace",
    "swap",
    "respell",
    "nudge",
    "add_key",
    "duplicate_key",
    "rename",
    "copy",
    "nest",
)
"""How a document may be changed at one place; a change that does not fit the value
found there (a key dropped from a number) replaces the value instead."""


def to_json_text(value: object) -> str:
    """The JSON text of a document that may hold `Raw` literals and `Pairs` objects."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else tuple(value.items())
        return "{" + ", ".join(f"{json.dumps(k)}: {to_json_text(v)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_json_text(v) for v in value) + "]"
    return json.dumps(value)


def locations(doc: object, here: Location = ()) -> list[Location]:
    """Every place in the document, the whole document first, containers before contents."""
    found = [here]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += locations(value, (*here, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += locations(value, (*here, index))
    return found


def scalars(doc: object) -> list[object]:
    """The keys, strings and numbers of a document: what a swap may put elsewhere."""
    if isinstance(doc, dict):
        return [item for key, value in doc.items() for item in (key, *scalars(value))]
    if isinstance(doc, list):
        return [item for value in doc for item in scalars(value)]
    return [] if isinstance(doc, Raw | Pairs) else [doc]


def respelled(doc: object, old: str, new: str) -> object:
    """The document with every key and string `old` spelt `new`."""
    if isinstance(doc, dict):
        return {new if k == old else k: respelled(v, old, new) for k, v in doc.items()}
    if isinstance(doc, list):
        return [respelled(v, old, new) for v in doc]
    return new if doc == old and isinstance(doc, str) else doc


def _at(doc: object, where: Location) -> object:
    for step in where:
        doc = doc[step]  # type: ignore[index]
    return doc


def _put(doc: object, where: Location, value: object) -> object:
    """The document with `value` at `where` (the whole document when `where` is empty)."""
    if not where:
        return value
    _at(doc, where[:-1])[where[-1]] = value  # type: ignore[index]
    return doc


@st.composite
def mutated(draw: st.DrawFn, original: object, most: int = 3) -> object:
    """A copy of `original` changed at 0 to `most` places."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(0, most))):
        where = draw(st.sampled_from(locations(doc)))
        doc = _mutate(draw, doc, where, draw(st.sampled_from(MUTATIONS)))
    return doc


def _mutate(draw: st.DrawFn, doc: object, where: Location, how: str) -> object:
    value = _at(doc, where)
    if how == "drop" and where:
        del _at(doc, where[:-1])[where[-1]]  # type: ignore[attr-defined]
        return doc
    if how == "swap":
        return _put(doc, where, draw(st.sampled_from(scalars(doc) or [None])))
    if how == "respell" and isinstance(value, str):
        return respelled(doc, value, draw(ODD_NAMES))
    if how == "nudge" and isinstance(value, int | float) and not isinstance(value, bool):
        step = draw(st.sampled_from([1, -1, 2, -100, 0.5]))
        try:
            nudged = value + step
        except OverflowError:  # an int past a float's range (from an earlier nudge)
            nudged = value + 1
        return _put(doc, where, draw(st.sampled_from([nudged, -value, value * 1000])))
    if how == "add_key" and isinstance(value, dict):
        key = draw(st.sampled_from([k for k in scalars(doc) if isinstance(k, str)] or ["x"]))
        value[draw(st.one_of(st.just(key), st.text(max_size=5)))] = draw(ODD_VALUES)
        return doc
    if how == "duplicate_key" and isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        twice = draw(st.one_of(st.just(value[key]), ODD_VALUES))
        return _put(doc, where, Pairs((*value.items(), (key, twice))))
    if how == "rename" and isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        new = draw(st.one_of(st.sampled_from([str(s) for s in scalars(doc)]), ODD_NAMES))
        renamed = {new if k == key else k: v for k, v in value.items()}
        return _put(doc, where, renamed)
    if how == "copy" and isinstance(value, list) and value:
        value.insert(draw(st.integers(0, len(value))), copy.deepcopy(draw(st.sampled_from(value))))
        return doc
    if how == "nest":
        return _put(doc, where, [value])
    return _put(doc, where, draw(ODD_VALUES))


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """The bytes as they are (most of the time), or damaged at the byte level."""
    how = draw(
        st.sampled_from(["intact"] * 4 + ["truncate", "overwrite", "utf8", "encode", "noise"])
    )
    if how == "truncate":
        return data[: draw(st.integers(0, max(0, len(data) - 1)))]
    if how == "overwrite" and data:
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at + 1 :]
    if how == "utf8":
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf"]))
        return data[:at] + bad + data[at:]
    if how == "encode":
        codec = draw(st.sampled_from(["utf-16", "utf-32", "utf-8-sig", "latin-1"]))
        return data.decode("utf-8").encode(codec, errors="replace")
    if how == "noise":
        return draw(st.binary(max_size=64))
    return data


@st.composite
def damaged_files(draw: st.DrawFn, original: object) -> bytes:
    """The bytes of a file holding a mutated copy of the document, now and then damaged."""
    return draw(damaged(to_json_text(draw(mutated(original))).encode("utf-8")))


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims a size (with a valid checksum) but holds next to no data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
        + chunk(b"IEND", b"")
    )


def encoded(image: npt.NDArray[np.uint8], suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, image)
    assert ok
    return bytes(data.tobytes())


@st.composite
def damaged_images(draw: st.DrawFn, real: npt.NDArray[np.uint8]) -> bytes:
    """The bytes of an image file gone wrong: a real frame as PNG or JPEG cut short or
    overwritten, a header claiming an absurd size, an image of an absurd shape, or noise."""
    how = draw(st.sampled_from(["truncate", "overwrite", "claims", "shape", "noise"]))
    if how == "claims":  # no two sides whose product a test machine could allocate
        sides = st.sampled_from([0, 1, 100_000, 2**31 - 1])
        return png_claiming(draw(sides), draw(sides))
    if how == "shape":
        short, long = draw(st.sampled_from([1, 2, 3, 20])), draw(st.sampled_from([1, 9216, 30_000]))
        shape = (short, long) if draw(st.booleans()) else (long, short)
        return encoded(np.full(shape, draw(st.integers(0, 255)), np.uint8), ".png")
    if how == "noise":
        return draw(st.binary(max_size=256))
    data = encoded(real, draw(st.sampled_from([".png", ".jpg", ".bmp", ".tiff"])))
    if how == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    at = draw(st.integers(0, len(data) - 1))
    return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 8 :]
