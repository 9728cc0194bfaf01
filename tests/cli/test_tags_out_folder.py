"""`companion tags --out DIR` writes the kit's files into DIR and touches nothing else:
DIR itself is never renamed (it may be the working folder, a home folder or the root
of a USB stick), the café's own files in it stay as they are, and a failure half-way
leaves each kit file old or new, never half-written."""

import json
import os
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli import tags as tags_command


def make(out: str | Path, kit: str = "NEW2", players: str = "3") -> int:
    return main(["tags", "--kit", kit, "--players", players, "--out", str(out)])


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_out_dot_writes_into_the_working_folder_which_stays_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    monkeypatch.chdir(out)
    assert make(".", "OLD1", "5") == 0
    here = os.stat(".")
    assert make(".") == 0
    assert Path.cwd() == out
    assert (os.stat(".").st_ino, os.stat(out).st_ino) == (here.st_ino, here.st_ino)
    assert "vote-yellow-1.png" not in os.listdir("."), "a stale tag of the larger kit"
    assert capsys.readouterr().out.endswith("manifest.json to .\n")


def test_the_cafes_own_files_in_out_are_left_as_they_are(tmp_path: Path) -> None:
    out = tmp_path / "kit"
    assert make(out, "OLD1", "5") == 0
    (out / "notes.txt").write_text("the café's own file")
    (out / "photos").mkdir()
    (out / "photos" / "table.jpg").write_bytes(b"a photo")
    (out / "link").symlink_to(tmp_path / "elsewhere")
    kept = {name: os.lstat(out / name).st_ino for name in ("notes.txt", "photos", "link")}
    assert make(out) == 0
    assert {name: os.lstat(out / name).st_ino for name in kept} == kept
    assert (out / "notes.txt").read_text() == "the café's own file"
    assert (out / "photos" / "table.jpg").read_bytes() == b"a photo"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no staging left"


@pytest.mark.parametrize("failing_call", [1, 5, 20])
def test_a_failure_half_way_leaves_every_file_old_or_new(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failing_call: int,
) -> None:
    out, fresh = tmp_path / "kit", tmp_path / "fresh"
    assert make(out, "OLD1", "5") == 0
    assert make(fresh) == 0
    old, new = contents(out), contents(fresh)
    capsys.readouterr()
    real_replace = os.replace
    calls = 0

    def failing(source: str | Path, target: str | Path) -> None:
        nonlocal calls
        calls += 1
        if calls == failing_call:
            raise OSError(5, "Input/output error", str(source))
        real_replace(source, target)

    monkeypatch.setattr(tags_command.os, "replace", failing)
    assert make(out) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion tags: cannot write {out}/")
    assert err.endswith(": Input/output error\n") and err.count("\n") == 1
    for name, data in contents(out).items():
        assert data in (old.get(name), new.get(name)), name
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no staging left"


def test_files_named_like_a_kits_survive_in_a_folder_that_never_held_a_kit(
    tmp_path: Path,
) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    (out / "mat.pdf").write_bytes(b"the cafe's own mat")
    (out / "slot-99.png").write_bytes(b"the cafe's own picture")
    assert make(out) == 0
    assert (out / "mat.pdf").read_bytes() == b"the cafe's own mat"
    assert (out / "slot-99.png").read_bytes() == b"the cafe's own picture"


def test_only_the_files_the_previous_manifest_lists_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "kit"
    assert make(out, "OLD1", "5") == 0
    listed = {e["file"] for e in json.loads((out / "manifest.json").read_text())}
    (out / "slot-99.png").write_bytes(b"the cafe's own picture")
    assert make(out) == 0
    kept = {e["file"] for e in json.loads((out / "manifest.json").read_text())}
    assert listed - kept, "the previous kit was the larger one"
    names = {p.name for p in out.iterdir()}
    assert names == kept | {"kit.pdf", "manifest.json", "slot-99.png"}


@pytest.mark.parametrize("manifest", ["", "{not json", '{"file": "slot-99.png"}', "[1, 2]"])
def test_a_damaged_manifest_deletes_nothing(tmp_path: Path, manifest: str) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    (out / "manifest.json").write_text(manifest)
    (out / "slot-99.png").write_bytes(b"the cafe's own picture")
    (out / "mat.pdf").write_bytes(b"the cafe's own mat")
    assert make(out) == 0
    assert (out / "slot-99.png").read_bytes() == b"the cafe's own picture"
    assert (out / "mat.pdf").read_bytes() == b"the cafe's own mat"


@pytest.mark.parametrize(
    "escaping", ["../x", "../kit/../x", "sub/slot-99.png", "..", ".", "", "ABSOLUTE"]
)
def test_a_manifest_naming_files_outside_out_deletes_nothing_outside(
    tmp_path: Path, escaping: str
) -> None:
    out = tmp_path / "kit"
    (out / "sub").mkdir(parents=True)
    (tmp_path / "x").write_bytes(b"outside")
    (out / "sub" / "slot-99.png").write_bytes(b"in a sub-folder")
    name = str(tmp_path / "x") if escaping == "ABSOLUTE" else escaping
    (out / "manifest.json").write_text(json.dumps([{"file": name}]))
    assert make(out) == 0
    assert (tmp_path / "x").read_bytes() == b"outside"
    assert (out / "sub" / "slot-99.png").read_bytes() == b"in a sub-folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit", "x"]
