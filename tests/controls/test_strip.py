"""The LED strip: the track drawn as pixels, the bytes on the wire, the drivers, the spec."""

import math
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.colours import BY_NAME, COLOURS, RGB
from companion.controls import strip as strip_module
from companion.controls.mock_spidev import MockSpiDev
from companion.controls.strip import MockStrip, SpiStrip, TrackStrip, make_strip
from companion.controls.strip_spi import (
    APA102_SPI_HZ,
    WS2812_RESET_BYTES,
    WS2812_SPI_HZ,
    StripKind,
    apa102_bytes,
    ws2812_bytes,
)
from companion.controls.strip_track import (
    OFF,
    SHARE_SECONDS,
    TARGET_RGB,
    TICK_RGB,
    TRACK_RGB,
    RabbitSpot,
    rabbit_led,
    scaled,
    space_led,
    track_pixels,
)
from companion.errors import HardwareError, PinSettingError, SettingError

RED = BY_NAME["red"].rgb
BLUE = BY_NAME["blue"].rgb
GREEN = BY_NAME["green"].rgb


def empty_track_31() -> list[RGB]:
    """The bare track on a 31-LED strip, one LED per space, at full brightness."""
    pixels = [TRACK_RGB] * 31
    for space in range(0, 30, 5):
        pixels[space] = TICK_RGB
    pixels[30] = TARGET_RGB
    return pixels


def with_lit(pixels: list[RGB], lit: dict[int, RGB]) -> tuple[RGB, ...]:
    for led, rgb in lit.items():
        pixels[led] = rgb
    return tuple(pixels)


# The track, drawn


def test_empty_track_marks_every_fifth_space_and_the_target() -> None:
    assert track_pixels([], 31, brightness=1.0) == tuple(empty_track_31())


def test_rabbit_at_start_lights_the_first_led() -> None:
    assert track_pixels([(0, (RED,))], 31, brightness=1.0) == with_lit(empty_track_31(), {0: RED})


def test_rabbit_at_thirty_lights_the_last_led() -> None:
    assert track_pixels([(30, (RED,))], 31, brightness=1.0) == with_lit(empty_track_31(), {30: RED})


def test_rabbit_past_thirty_laps_and_blinks() -> None:
    lit = track_pixels([(31, (RED,))], 31, brightness=1.0, t=0.0)
    dark = track_pixels([(31, (RED,))], 31, brightness=1.0, t=0.75 * SHARE_SECONDS)
    assert lit == with_lit(empty_track_31(), {1: RED})
    assert dark == with_lit(empty_track_31(), {1: OFF})


def test_rabbits_sharing_a_space_take_turns_in_seating_order() -> None:
    rabbits: list[RabbitSpot] = [(7, (RED,)), (7, (BLUE,)), (3, (GREEN,))]
    shown = [track_pixels(rabbits, 31, brightness=1.0, t=k * SHARE_SECONDS)[7] for k in range(4)]
    assert shown == [RED, BLUE, RED, BLUE]
    assert track_pixels(rabbits, 31, brightness=1.0, t=SHARE_SECONDS)[3] == GREEN


def test_team_rabbit_shows_each_members_colour_in_turn() -> None:
    shown = [
        track_pixels([(4, (RED, BLUE))], 31, brightness=1.0, t=k * SHARE_SECONDS)[4]
        for k in range(3)
    ]
    assert shown == [RED, BLUE, RED]


def test_twelve_rabbits_on_the_start_space_show_all_twelve_colours_in_turn() -> None:
    rabbits = [(0.0, (c.rgb,)) for c in COLOURS]
    shown = [track_pixels(rabbits, 31, brightness=1.0, t=k * SHARE_SECONDS)[0] for k in range(12)]
    assert shown == [c.rgb for c in COLOURS]


def test_twelve_rabbits_on_their_own_spaces_each_show_their_colour() -> None:
    rabbits = [(float(2 * i), (c.rgb,)) for i, c in enumerate(COLOURS)]
    pixels = track_pixels(rabbits, 60, brightness=1.0)
    assert [pixels[space_led(2 * i, 60)] for i in range(12)] == [c.rgb for c in COLOURS]


def test_sixty_leds_put_the_spaces_on_about_every_second_led() -> None:
    assert [space_led(s, 60) for s in (0, 1, 2, 15, 29, 30)] == [0, 2, 4, 30, 57, 59]


def test_moving_rabbit_glides_through_the_leds_between_spaces() -> None:
    assert rabbit_led(0.5, 60) == 1
    pixels = track_pixels([(0.5, (RED,))], 60, brightness=1.0)
    assert pixels[1] == RED
    assert pixels[0] == TICK_RGB


def test_brightness_scales_every_colour_rounding_half_up() -> None:
    pixels = track_pixels([(1, (RED,))], 31, brightness=0.5)
    assert pixels[1] == (110, 20, 20)
    assert pixels[2] == scaled(TRACK_RGB, 0.5) == (6, 4, 2)


def test_strip_shorter_than_the_track_is_refused() -> None:
    with pytest.raises(PinSettingError, match="30 LEDs cannot show 31 track spaces"):
        track_pixels([], 30, brightness=1.0)


@pytest.mark.parametrize("brightness", [-0.1, 1.5, float("nan")])
def test_brightness_outside_zero_to_one_is_refused(brightness: float) -> None:
    with pytest.raises(PinSettingError, match="brightness"):
        track_pixels([], 31, brightness=brightness)


@pytest.mark.parametrize(
    ("spot", "message"),
    [
        ((-1, (RED,)), "position"),
        ((float("nan"), (RED,)), "position"),
        ((3, ()), "no colour"),
        ((3, ((300, 0, 0),)), "not an RGB colour"),
    ],
)
def test_impossible_rabbit_is_refused(spot: RabbitSpot, message: str) -> None:
    with pytest.raises(SettingError, match=message):
        track_pixels([spot], 31, brightness=1.0)


rabbit_spots = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=120, allow_nan=False),
        st.lists(st.sampled_from([c.rgb for c in COLOURS]), min_size=1, max_size=2).map(tuple),
    ),
    max_size=12,
)


@given(
    positions=rabbit_spots,
    length=st.integers(min_value=31, max_value=300),
    brightness=st.floats(min_value=0, max_value=1),
    t=st.floats(min_value=-1e6, max_value=1e6),
)
def test_track_has_one_pixel_per_led_within_the_brightness(
    positions: list[RabbitSpot], length: int, brightness: float, t: float
) -> None:
    pixels = track_pixels(positions, length, brightness=brightness, t=t)
    assert len(pixels) == length
    ceiling = math.floor(255 * brightness + 0.5)
    assert all(0 <= channel <= ceiling for rgb in pixels for channel in rgb)


@given(positions=rabbit_spots, length=st.integers(min_value=31, max_value=300))
def test_every_rabbits_colour_appears_on_its_led_within_one_round_of_turns(
    positions: list[RabbitSpot], length: int
) -> None:
    turns = sum(len(colours) for _, colours in positions)
    frames = [
        track_pixels(positions, length, brightness=1.0, t=k * SHARE_SECONDS) for k in range(turns)
    ]
    for position, colours in positions:
        led = rabbit_led(position, length)
        for rgb in colours:
            assert any(frame[led] == rgb for frame in frames)


# The bytes on the wire


def test_ws2812_frame_of_one_known_pixel() -> None:
    frame = ws2812_bytes([(0xFF, 0x00, 0x80)])
    reset = bytes(WS2812_RESET_BYTES)
    green_00 = bytes([0x92, 0x49, 0x24])  # 100 x 8
    red_ff = bytes([0xDB, 0x6D, 0xB6])  # 110 x 8
    blue_80 = bytes([0xD2, 0x49, 0x24])  # 110, then 100 x 7
    assert frame == reset + green_00 + red_ff + blue_80 + reset


def test_ws2812_reset_gap_is_longer_than_280_microseconds() -> None:
    assert WS2812_RESET_BYTES * 8 / WS2812_SPI_HZ > 280e-6


def test_ws2812_bit_lengths_fit_the_datasheet_windows() -> None:
    spi_bit = 1 / WS2812_SPI_HZ
    assert 0.25e-6 <= 1 * spi_bit <= 0.55e-6  # T0H 0.40 us +- 0.15
    assert 0.65e-6 <= 2 * spi_bit <= 0.95e-6  # T1H 0.80 us +- 0.15


@given(st.lists(st.tuples(*[st.integers(0, 255)] * 3), max_size=40))
def test_ws2812_frame_decodes_back_to_grb(pixels: list[RGB]) -> None:
    frame = ws2812_bytes(pixels)
    body = frame[WS2812_RESET_BYTES : len(frame) - WS2812_RESET_BYTES]
    bits = "".join(f"{byte:08b}" for byte in body)
    triplets = [bits[i : i + 3] for i in range(0, len(bits), 3)]
    assert set(triplets) <= {"100", "110"}
    decoded = bytes(
        int("".join("1" if t == "110" else "0" for t in triplets[i : i + 8]), 2)
        for i in range(0, len(triplets), 8)
    )
    assert decoded == b"".join(bytes((g, r, b)) for r, g, b in pixels)


def test_apa102_frame_layout() -> None:
    frame = apa102_bytes([(1, 2, 3), (4, 5, 6)])
    assert frame == (
        bytes(4)
        + bytes([0xFF, 3, 2, 1])
        + bytes([0xFF, 6, 5, 4])
        + bytes(4 + 1)  # SK9822 latch, then ceil(2 / 16) bytes of clock
    )


def test_apa102_brightness_level_goes_in_the_led_frame_header() -> None:
    assert apa102_bytes([(1, 2, 3)], level=7)[4] == 0xE7


@pytest.mark.parametrize(("count", "end"), [(0, 4), (1, 5), (16, 5), (17, 6), (60, 8)])
def test_apa102_end_frame_gives_half_a_clock_per_led(count: int, end: int) -> None:
    frame = apa102_bytes([(0, 0, 0)] * count)
    assert len(frame) == 4 + 4 * count + end
    assert frame[4 + 4 * count :] == bytes(end)


def test_apa102_level_above_31_is_refused() -> None:
    with pytest.raises(PinSettingError, match="0 to 31"):
        apa102_bytes([], level=32)


@pytest.mark.parametrize("encode", [ws2812_bytes, apa102_bytes])
def test_pixel_outside_a_byte_is_refused(encode: object) -> None:
    with pytest.raises(SettingError, match="pixel 1"):
        encode([(0, 0, 0), (0, 256, 0)])  # type: ignore[operator]


# The drivers


def test_mock_strip_records_every_frame_and_goes_dark_on_close() -> None:
    strip = MockStrip(3)
    strip.show([RED, BLUE, GREEN])
    strip.show([OFF, RED, OFF])
    strip.close()
    strip.close()
    assert strip.frames == [(RED, BLUE, GREEN), (OFF, RED, OFF), (OFF, OFF, OFF)]


def test_strip_refuses_a_frame_of_the_wrong_length() -> None:
    with MockStrip(3) as strip, pytest.raises(PinSettingError, match="3 LEDs, but 2 pixels"):
        strip.show([RED, BLUE])


def test_closed_strip_refuses_frames() -> None:
    strip = MockStrip(3)
    strip.close()
    with pytest.raises(HardwareError, match="closed"):
        strip.show([RED, BLUE, GREEN])


def test_spi_strip_sets_the_clock_and_writes_the_encoded_frame(
    fake_spidev: type[MockSpiDev],
) -> None:
    spi = fake_spidev()
    strip = SpiStrip(StripKind.WS2812, 2, spi=spi)
    strip.show([RED, OFF])
    strip.close()
    assert (spi.max_speed_hz, spi.mode) == (WS2812_SPI_HZ, 0)
    assert spi.written == [ws2812_bytes([RED, OFF]), ws2812_bytes([OFF, OFF])]
    assert spi.closed


def test_make_strip_opens_the_named_bus_and_device(fake_spidev: type[MockSpiDev]) -> None:
    strip = make_strip("apa102:60:1.0")
    assert isinstance(strip, SpiStrip)
    assert strip.kind is StripKind.APA102
    assert strip.length == 60
    (spi,) = fake_spidev.made
    assert spi.opened == (1, 0)
    assert spi.max_speed_hz == APA102_SPI_HZ
    strip.close()


def test_make_strip_defaults_to_spi0_ce0(fake_spidev: type[MockSpiDev]) -> None:
    strip = make_strip("ws2812:60")
    assert strip is not None
    assert fake_spidev.made[0].opened == (0, 0)
    strip.close()


def test_missing_spidev_asks_for_the_pi_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(HardwareError, match="install the pi extra"):
        make_strip("ws2812:60")


@pytest.mark.parametrize(
    ("refusal", "message"),
    [
        (FileNotFoundError, "turn SPI on"),
        (PermissionError, "spi group"),
        (OSError, "cannot be opened"),
    ],
)
def test_spi_device_that_cannot_be_opened_says_why(
    fake_spidev: type[MockSpiDev], refusal: type[OSError], message: str
) -> None:
    fake_spidev.refuse = refusal
    with pytest.raises(HardwareError, match=message):
        make_strip("ws2812:60")


def test_ws2812_strip_too_long_for_one_spidev_transfer_is_refused(
    fake_spidev: type[MockSpiDev], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    monkeypatch.setattr(strip_module, "SPIDEV_BUFSIZ", bufsiz)
    make_strip("ws2812:433").close()  # type: ignore[union-attr]
    with pytest.raises(PinSettingError, match=r"spidev\.bufsiz=4692"):
        make_strip("ws2812:500")
    assert fake_spidev.made[-1].closed


@pytest.mark.parametrize("spec", [None, "none", " None "])
def test_make_strip_none_means_no_strip(spec: str | None) -> None:
    assert make_strip(spec) is None


@pytest.mark.parametrize("spec", ["mock:60", "MOCK:60", " mock:60 "])
def test_make_strip_mock(spec: str) -> None:
    strip = make_strip(spec)
    assert isinstance(strip, MockStrip)
    assert strip.length == 60


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "mock",
        "mock:",
        "mock:0",
        "mock:sixty",
        "mock:-5",
        "laser:60",
        "mock:60:0.0",
        "ws2812:60:0",
        "ws2812:60:a.b",
        "ws2812 60",
    ],
)
def test_make_strip_refuses_a_bad_spec_naming_it(spec: str) -> None:
    with pytest.raises(PinSettingError, match=re.escape(f"LED strip {spec!r}")):
        make_strip(spec)


# The track on the strip


def test_track_strip_writes_only_when_the_picture_changes() -> None:
    driver = MockStrip(31)
    track = TrackStrip(driver, 31, brightness=1.0)
    rabbits: list[RabbitSpot] = [(7, (RED,)), (7, (BLUE,))]
    assert track.show(rabbits, t=0.0)
    assert not track.show(rabbits, t=0.1 * SHARE_SECONDS)
    assert track.show(rabbits, t=SHARE_SECONDS)
    assert track.show([(8, (RED,)), (7, (BLUE,))], t=SHARE_SECONDS)
    assert not track.show([(8, (RED,)), (7, (BLUE,))], t=SHARE_SECONDS)
    assert len(driver.frames) == 3
    assert driver.frames[0][7] == RED
    assert driver.frames[1][7] == BLUE


def test_track_strip_length_defaults_to_the_drivers() -> None:
    driver = MockStrip(60)
    TrackStrip(driver).show([(30, (RED,))], t=0.0)
    assert driver.frames[0][59] == scaled(RED, 0.3)


def test_track_strip_length_must_match_the_driver() -> None:
    with pytest.raises(PinSettingError, match="set for 61 LEDs but the strip has 60"):
        TrackStrip(MockStrip(60), 61)


def test_track_strip_refuses_a_strip_shorter_than_the_track() -> None:
    with pytest.raises(PinSettingError, match="at least 31 LEDs"):
        TrackStrip(MockStrip(30))


def test_track_strip_close_turns_the_strip_off_and_is_safe_twice() -> None:
    driver = MockStrip(31)
    with TrackStrip(driver) as track:
        track.show([(3, (RED,))], t=0.0)
    track.close()
    assert driver.closed
    assert driver.frames[-1] == (OFF,) * 31
