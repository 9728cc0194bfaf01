"""Reading page sizes back from the kit's PDFs, shared by the printing and `tags` tests."""

import re

PT_PER_MM = 72 / 25.4
"""PDF points in a millimetre."""


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size in points, read from the page tree, which fpdf2 writes uncompressed."""
    found = re.search(rb"/Count (\d+)", pdf)
    assert found is not None
    count = int(found[1])
    assert len(re.findall(rb"/Type /Page\b", pdf)) == count
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert len(boxes) == 1, "every page takes the size of the page tree"
    width, height = (float(v) for v in boxes[0])
    return [(width, height)] * count
