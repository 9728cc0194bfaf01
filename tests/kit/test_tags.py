"""Tag texts: every kit tag round-trips, and nothing else is ever taken for one."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import ForeignTagError, InvalidKitIdError
from companion.kit.tags import ALPHANUMERIC, KitTag, Role, kit_tags, parse_tag

KIT = kit_tags("CAFE01", 12)


def test_a_full_kit_holds_corners_slots_dials_tokens_and_the_trap() -> None:
    roles = [t.role for t in KIT]
    assert roles.count(Role.CORNER) == 4
    assert roles.count(Role.SLOT) == 12
    assert roles.count(Role.VOTE) == 24
    assert roles.count(Role.OWNER) == 24
    assert roles.count(Role.TRAP) == 1
    assert len({t.text for t in KIT}) == len(KIT)


def test_texts_fit_a_version_1_qr_code_at_error_correction_m() -> None:
    assert max(len(t.text) for t in KIT) <= 20
    assert all(set(t.text) <= set(ALPHANUMERIC) for t in KIT)


@pytest.mark.parametrize("tag", KIT, ids=lambda t: t.text)
def test_every_tag_reads_back_as_itself(tag: KitTag) -> None:
    assert parse_tag(tag.text) == tag


def test_examples_of_each_role() -> None:
    assert parse_tag(KitTag("AB", Role.VOTE, colour="red", index=2).text).colour == "red"
    assert KitTag("AB", Role.SLOT, slot=3).text.startswith("DXC.AB.S03.")
    assert KitTag("AB", Role.OWNER, colour="cyan", index=1).text.startswith("DXC.AB.OCY1.")


def test_every_single_character_change_is_foreign() -> None:
    for tag in KIT:
        text = tag.text
        for i in range(len(text)):
            for c in ALPHANUMERIC:
                changed = text[:i] + c + text[i + 1 :]
                if changed != text:
                    with pytest.raises(ForeignTagError):
                        parse_tag(changed)


def test_every_swap_of_neighbouring_characters_is_foreign() -> None:
    for tag in KIT:
        text = tag.text
        for i in range(len(text) - 1):
            swapped = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
            if swapped != text:
                with pytest.raises(ForeignTagError):
                    parse_tag(swapped)


@given(st.text(max_size=40))
def test_any_text_is_a_kit_tag_only_if_it_is_exactly_one(text: str) -> None:
    try:
        tag = parse_tag(text)
    except ForeignTagError:
        return
    assert tag.text == text


@given(st.sampled_from(KIT), st.text(alphabet=ALPHANUMERIC, min_size=1, max_size=3))
def test_a_kit_tag_with_anything_around_it_is_foreign(tag: KitTag, extra: str) -> None:
    for text in (extra + tag.text, tag.text + extra):
        with pytest.raises(ForeignTagError):
            parse_tag(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "https://cafe.example/menu",
        "DXC",
        "DXC.CAFE01.S13.0",
        "DXC.CAFE01.VXX1.0",
        "dxc.cafe01.c1.2",
    ],
)
def test_common_foreign_texts(text: str) -> None:
    with pytest.raises(ForeignTagError, match="is not a companion tag"):
        parse_tag(text)


@pytest.mark.parametrize("kit", ["A", "TOOLONG7", "ca fe", "CAFÉ", "CA.FE"])
def test_bad_kit_ids(kit: str) -> None:
    with pytest.raises(InvalidKitIdError, match="must be 2 to 6 capital letters or digits"):
        kit_tags(kit, 4)
