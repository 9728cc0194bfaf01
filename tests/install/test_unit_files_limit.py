"""The unit gives the companion the file descriptors the phone page is sized for:
without `LimitNOFILE` a process gets 1,024, which a stranger's idle connections
once took to the last, starving the watchdog's messages."""

from companion.web.connections import MAX_CONNECTIONS
from companion.web.server import FILES_NEEDED
from tests.install.script import unit_settings, unit_text


def test_the_unit_grants_the_file_descriptors_the_page_is_sized_for() -> None:
    (limit,) = unit_settings(unit_text())["LimitNOFILE"]
    assert int(limit) >= 2 * FILES_NEEDED > 2 * MAX_CONNECTIONS
