"""The suite's own layout: no test module imports another. What tests share lives in
helper modules (not named `test_*.py`) or in fixtures, so a module runs, moves or
splits across workers without dragging another's tests along."""

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def imported_modules(path: Path) -> list[str]:
    """Every module `path` imports, relative imports resolved within `tests`."""
    package = ".".join(path.relative_to(TESTS.parent).parent.parts)
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def test_no_test_module_imports_another() -> None:
    imports = {
        str(path.relative_to(TESTS.parent)): sorted(
            name
            for name in imported_modules(path)
            if name.split(".")[0] == "tests" and name.split(".")[-1].startswith("test_")
        )
        for path in sorted(TESTS.rglob("test_*.py"))
    }
    assert {path: names for path, names in imports.items() if names} == {}
