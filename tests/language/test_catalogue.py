"""The translation catalogues: complete, in step with the code, compiled, typeset."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(root / "scripts" / "catalogue.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_every_message_has_a_compiled_french_translation() -> None:
    result = check(ROOT)
    assert result.returncode == 0, result.stderr


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The package and its scripts, copied to be changed."""
    shutil.copytree(ROOT / "companion", tmp_path / "companion")
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    return tmp_path


def edit_french(copy: Path, old: str, new: str) -> None:
    """Change one translation in the copy's French catalogue."""
    po = copy / "companion" / "locale" / "fr" / "LC_MESSAGES" / "companion.po"
    text = po.read_text()
    assert old in text
    po.write_text(text.replace(old, new))


def test_a_new_message_without_translation_fails_the_check(copy: Path) -> None:
    (copy / "companion" / "new_words.py").write_text(
        'from companion.phrases import phrase\n\nWORDS = phrase("a message nobody translated")\n'
    )
    result = check(copy)
    assert result.returncode == 1
    assert "'a message nobody translated'" in result.stderr


def test_a_stale_compiled_catalogue_fails_the_check(copy: Path) -> None:
    edit_french(copy, 'msgstr "{items} et {last}"', 'msgstr "{items} puis {last}"')
    result = check(copy)
    assert result.returncode == 1
    assert "is not compiled from the .po file" in result.stderr


def test_french_without_a_no_break_space_before_a_colon_fails_the_check(copy: Path) -> None:
    edit_french(copy, "manche {number}\u00a0: {problem}", "manche {number} : {problem}")
    result = check(copy)
    assert result.returncode == 1
    assert "a no-break space belongs before ':'" in result.stderr


def test_a_translation_with_a_value_its_message_lacks_fails_the_check(copy: Path) -> None:
    edit_french(copy, 'msgstr "{items} et {last}"', 'msgstr "{items} et {dernier}"')
    result = check(copy)
    assert result.returncode == 1
    assert "has values that" in result.stderr


def test_a_translation_that_loses_a_value_of_its_message_fails_the_check(copy: Path) -> None:
    edit_french(copy, 'msgstr "{items} et {last}"', 'msgstr "{items} et le reste"')
    result = check(copy)
    assert result.returncode == 1
    assert "loses values of" in result.stderr


def test_a_page_templates_message_without_translation_fails_the_check(copy: Path) -> None:
    templates = copy / "companion" / "web" / "templates"
    templates.mkdir(parents=True, exist_ok=True)
    (templates / "new.html").write_text(
        '<p>\n{{ phrase("a page message nobody translated", n=1) }}</p>\n'
    )
    result = check(copy)
    assert result.returncode == 1
    assert "'a page message nobody translated'" in result.stderr


def test_the_page_templates_messages_are_extracted_with_their_file_and_line() -> None:
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "scripts" / "catalogue.py")
    assert spec is not None and spec.loader is not None
    catalogue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogue)
    extracted = catalogue.extract()
    past = extracted.get("Past games")
    assert past is not None
    assert any(f == "companion/web/templates/games.html" and line > 0 for f, line in past.locations)
    staff = extracted.get("Staff", context="page")
    assert staff is not None
    assert {f for f, _ in staff.locations} >= {"companion/web/templates/base.html"}
