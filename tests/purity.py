"""Which test modules run the same on the Raspberry Pi's versions as on the test tools'.

The test command runs the whole suite with the test tools' versions (`.venv`) and the
quick suite with the Pi's (`.venv-pi`: Debian's python3, numpy 1.24, pygame 2.1.2,
OpenCV 4.11). The two environments hold the same version of every other package
(`tests/install/test_locks.py` checks it) and, on a machine whose `python3` is the
Pi's Python 3.11 as Debian bookworm's is, the same Python. A test module that never
imports numpy, OpenCV or pygame, not even through the companion modules it imports,
and starts no process (a process may import anything) then runs the same code on the
same versions in both: its quick tests run once, in the Pi-like run
(`tests/conftest.py` marks them `pure_python`; the main run leaves out
`pure_python and not slow`).

What a module imports is read from the source (every `import` and `from ... import`
at any depth, a package's `__init__` with each of its modules), never by importing it.
"""

import ast
import functools
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSIONED = frozenset({"numpy", "cv2", "pygame"})
"""The libraries whose versions differ between the two environments."""
OWN = ("companion", "tests")
"""The packages whose imports are followed."""
SPAWNS = ("subprocess", "multiprocessing", "sys.executable", "os.fork")
"""Words of a module that may start another process."""


def is_pure(path: Path) -> bool:
    """Whether the test module at `path` never reaches numpy, OpenCV or pygame and
    starts no process."""
    return _pure(_module_name(path.resolve()))


@functools.cache
def _pure(module: str) -> bool:
    """Whether importing `module` imports none of `VERSIONED`, following the project's
    own modules (and the packages holding them), and none of those it reaches may
    start a process."""
    seen, waiting = {module}, [module]
    while waiting:
        name = waiting.pop()
        top = name.split(".")[0]
        if top in VERSIONED:
            return False
        if top not in OWN:
            continue
        source = _source(name)
        if source is not None and any(word in source for word in SPAWNS):
            return False
        for imported in _imports(name):
            if imported not in seen:
                seen.add(imported)
                waiting.append(imported)
    return True


@functools.cache
def _imports(module: str) -> tuple[str, ...]:
    """What importing `module` imports: its parent packages and every module its
    source names (for `from a import b`, both `a` and `a.b`, which may be a module)."""
    parts = module.split(".")
    parents = [".".join(parts[:i]) for i in range(1, len(parts))]
    source = _source(module)
    if source is None:
        return tuple(parents)
    return tuple(parents) + tuple(_named(ast.parse(source)))


def _named(tree: ast.AST) -> Iterable[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


@functools.cache
def _source(module: str) -> str | None:
    """The source of one of the project's modules (a package's `__init__`), or None."""
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def _module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    return ".".join(relative.parts)


if __name__ == "__main__":  # list the pure modules: python -m tests.purity tests/...
    for name in sys.argv[1:] or sorted(str(p) for p in (ROOT / "tests").rglob("test_*.py")):
        if is_pure(Path(name)):
            print(name)
