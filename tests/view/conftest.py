"""The screens' tests: a journal for each test's session."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j
