"""The one search for the largest size at which texts fit their boxes whole
(`fonts.largest_size`): size by size for the setup screen's rows, a twelfth at a time
for a block of paragraphs (`fonts.block`)."""

from companion.display import fonts

SENTENCE = "The storyteller's card was found by everyone"
LONG_WORD = "Wolfeschlegelsteinhausenbergerdorff"


def test_the_size_found_is_the_largest_at_which_the_text_fits() -> None:
    box = (220, 80)
    size = fonts.largest_size([((SENTENCE,), box)], 40, 10)
    assert size is not None
    assert fonts.fits_whole((SENTENCE,), box, size)
    assert not any(fonts.fits_whole((SENTENCE,), box, px) for px in range(size + 1, 41))


def test_every_text_fits_its_own_box_at_the_one_size_found() -> None:
    texts = [(("Bartholomew",), (300, 40)), (("Évelyne de la Tour",), (120, 80))]
    size = fonts.largest_size(texts, 40, 10)
    assert size is not None
    assert all(fonts.fits_whole(paragraphs, box, size) for paragraphs, box in texts)
    for text in texts:
        alone = fonts.largest_size([text], 40, 10)
        assert alone is not None and size <= alone


def test_a_margin_is_kept_only_below_text_on_more_than_one_line() -> None:
    px = 20
    line = fonts.line_height(px)
    assert fonts.fits_whole(("Ann",), (200, line), px, margin=10)
    narrow = max(fonts.width("Ann", px), fonts.width("Bob", px))
    assert fonts.wrap("Ann Bob", narrow, px) == ("Ann", "Bob")
    assert fonts.fits_whole(("Ann Bob",), (narrow, 2 * line), px)
    assert not fonts.fits_whole(("Ann Bob",), (narrow, 2 * line), px, margin=1)


def test_paragraphs_start_on_new_lines_and_share_the_height() -> None:
    px = 20
    line = fonts.line_height(px)
    assert fonts.fits_whole(("Ann", "Bob"), (400, 2 * line), px)
    assert not fonts.fits_whole(("Ann", "Bob"), (400, 2 * line - 1), px)


def test_a_word_wider_than_its_box_is_never_broken_to_fit() -> None:
    assert not fonts.fits_whole((LONG_WORD,), (50, 10_000), 12)
    assert fonts.largest_size([((LONG_WORD,), (50, 10_000))], 30, 10) is None


def test_no_size_is_tried_below_the_least() -> None:
    assert fonts.largest_size([(("Ann",), (500, 500))], 9, 10) is None
    assert fonts.largest_size([(("Ann",), (500, 500))], 10, 10) == 10


def test_a_block_tries_sizes_a_twelfth_apart() -> None:
    box = (fonts.width(LONG_WORD, 39), 1_000)
    assert fonts.largest_size([((LONG_WORD,), box)], 40, 10) == 39
    assert fonts.largest_size([((LONG_WORD,), box)], 40, 10, coarse=True) == 37
    assert fonts.block((LONG_WORD,), box, 40, 10).px == 37


def test_a_block_nothing_fits_is_laid_out_at_the_least_size() -> None:
    laid = fonts.block((LONG_WORD,), (50, 100), 30, 12)
    assert laid.px == 12
    assert fonts.block((LONG_WORD,), (50, 100), 8, 12).px == 8
