"""The shape limits of ``src/dehla`` (issue 36): short modules, classes and functions, no copied kernel code.

* no module over ``MODULE_LIMIT`` lines;
* no class over ``CLASS_LIMIT`` lines (decorators to last line);
* no function or method over ``FUNCTION_LIMIT`` lines (decorators to last line, nested ones counted
  on their own too), except in the compiled kernel modules: those that define a function compiled by
  numba (decorated with ``numba.njit``/``numba.jit``, called or not, or with a decorator of the module's
  own that calls one of them);
* no run of ``SHARED_RUN`` consecutive lines (stripped; blank lines, comments and imports left out) appears in two
  of the modules that import numba: what two kernels share belongs in one module they both import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "dehla"
MODULE_LIMIT = 800
CLASS_LIMIT = 450
FUNCTION_LIMIT = 80
SHARED_RUN = 6
NUMBA_COMPILERS = frozenset({"njit", "jit"})

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _modules() -> list[Path]:
    return sorted(SOURCE.rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(SOURCE.parent)) if SOURCE in path.parents else str(path)


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), _name(path))


def _length(node: Definition) -> int:
    """Lines from the first decorator (or the ``def``/``class``) to the last line of the body."""
    first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
    assert node.end_lineno is not None
    return node.end_lineno - first + 1


def _numba_compiler_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names bound to numba's module (``import numba``) and to ``njit``/``jit`` (``from numba import``)."""
    modules: set[str] = set()
    compilers: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.asname or alias.name for alias in node.names if alias.name == "numba")
        elif isinstance(node, ast.ImportFrom) and node.module == "numba":
            compilers.update(alias.asname or alias.name for alias in node.names if alias.name in NUMBA_COMPILERS)
    return modules, compilers


def _is_numba_compiler(expression: ast.expr, modules: set[str], compilers: set[str]) -> bool:
    """``numba.njit``, ``njit``, ``numba.jit(...)``, ``njit(...)``: numba's compiler, called for options or not."""
    if isinstance(expression, ast.Call):
        expression = expression.func
    if isinstance(expression, ast.Name):
        return expression.id in compilers
    return (
        isinstance(expression, ast.Attribute)
        and expression.attr in NUMBA_COMPILERS
        and isinstance(expression.value, ast.Name)
        and expression.value.id in modules
    )


def _wrappers(tree: ast.Module) -> set[str]:
    """The module's own decorators that hand their function to numba (``_jit``, ``jit``, ``inline`` and the like)."""
    modules, compilers = _numba_compiler_names(tree)
    if not modules and not compilers:
        return set()
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and any(
            isinstance(call, ast.Call) and _is_numba_compiler(call.func, modules, compilers) for call in ast.walk(node)
        )
    }


def _imported_wrappers(tree: ast.Module) -> set[str]:
    """Names the module imports from another dehla module that are numba decorators there (``kernel.jit.jit``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("dehla."):
            source = SOURCE.parent / Path(*(node.module or "").split(".")).with_suffix(".py")
            if source.exists():
                theirs = _wrappers(_parse(source))
                found.update(alias.asname or alias.name for alias in node.names if alias.name in theirs)
    return found


def compiles_with_numba(tree: ast.Module) -> bool:
    """Does the module define a function compiled by numba (directly, through a decorator of its own, or through
    one it imports from a dehla module that wraps numba)?"""
    modules, compilers = _numba_compiler_names(tree)
    decorators = _wrappers(tree) | _imported_wrappers(tree)
    aliases = {  # ``_jit = jit``
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in decorators
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    decorators |= aliases
    return any(
        _is_numba_compiler(decorator, modules, compilers)
        or (isinstance(decorator, ast.Name) and decorator.id in decorators)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for decorator in node.decorator_list
    )


def imports_numba(tree: ast.Module) -> bool:
    """Is numba (or a part of it) imported anywhere in the module, at its top or inside a function?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "numba" for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "numba":
            return True
    return False


def _definitions(tree: ast.Module) -> Iterator[tuple[str, Definition]]:
    """Every class and function of the module with its dotted name (``Class.method``, ``outer.inner``)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, Definition]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from walk(child, f"{name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def shape_violations(path: Path) -> list[str]:
    """One line per limit the module breaks: file, object, its length and the limit."""
    tree = _parse(path)
    name = _name(path)
    found = []
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > MODULE_LIMIT:
        found.append(f"{name}: module has {lines} lines (limit {MODULE_LIMIT})")
    kernel = compiles_with_numba(tree)
    for dotted, node in _definitions(tree):
        length = _length(node)
        if isinstance(node, ast.ClassDef):
            if length > CLASS_LIMIT:
                found.append(f"{name}:{node.lineno}: class {dotted} has {length} lines (limit {CLASS_LIMIT})")
        elif not kernel and length > FUNCTION_LIMIT:
            found.append(f"{name}:{node.lineno}: function {dotted} has {length} lines (limit {FUNCTION_LIMIT})")
    return found


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """``(line number, stripped text)`` of each line that is code: not blank, not only a comment, not an import.

    Imports are left out: two kernels importing the same modules in the same order share no code.
    """
    text = path.read_text(encoding="utf-8")
    imports = {
        number
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Import | ast.ImportFrom) and node.end_lineno is not None
        for number in range(node.lineno, node.end_lineno + 1)
    }
    numbered = enumerate(text.splitlines(), start=1)
    return [
        (number, line.strip())
        for number, line in numbered
        if line.strip() and not line.strip().startswith("#") and number not in imports
    ]


def shared_runs(first: Path, second: Path, run: int = SHARED_RUN) -> list[str]:
    """Each place where ``run`` consecutive code lines of ``first`` appear, the same, in ``second``."""
    theirs = _code_lines(second)
    where = {
        tuple(text for _, text in theirs[start : start + run]): theirs[start][0]
        for start in range(len(theirs) - run + 1)
    }
    ours = _code_lines(first)
    found = []
    last = -run  # report one overlapping stretch once, at its first window
    for start in range(len(ours) - run + 1):
        window = tuple(text for _, text in ours[start : start + run])
        if window in where and start >= last + run:
            found.append(f"{_name(first)}:{ours[start][0]} and {_name(second)}:{where[window]}: {window[0]!r} ...")
            last = start
    return found


def test_a_long_function_and_a_long_module_are_named(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LIMIT))
    plain = tmp_path / "plain.py"
    plain.write_text(f"def just_right() -> None:\n{body[body.index(chr(10)) + 1 :]}")
    assert shape_violations(plain) == []
    plain.write_text(f"def long() -> None:\n{body}")
    assert shape_violations(plain) == [f"{plain}:1: function long has 81 lines (limit {FUNCTION_LIMIT})"]
    plain.write_text("x = 1\n" * (MODULE_LIMIT + 1))
    assert shape_violations(plain) == [f"{plain}: module has {MODULE_LIMIT + 1} lines (limit {MODULE_LIMIT})"]


def test_the_checks_find_what_they_are_for() -> None:
    """Each check, on made-up source: a long function, a compiled module found by its decorator, a shared run."""
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LIMIT))
    plain = ast.parse(f"def long() -> None:\n{body}")
    assert [(name, _length(node)) for name, node in _definitions(plain)] == [("long", FUNCTION_LIMIT + 1)]
    assert not compiles_with_numba(plain)
    wrapped = ast.parse(
        "import numba as nb\n\ndef _jit(f):\n    return nb.njit(cache=True)(f)\n\n@_jit\ndef k(a):\n    return a\n"
    )
    assert compiles_with_numba(wrapped) and imports_numba(wrapped)
    assert compiles_with_numba(ast.parse("from numba import njit\n\n@njit\ndef k(a):\n    return a\n"))
    assert compiles_with_numba(ast.parse("import numba\n\n@numba.jit(nopython=True)\ndef k(a):\n    return a\n"))
    assert not compiles_with_numba(ast.parse("import numba\n\ndef warm():\n    return numba.__version__\n"))
    assert imports_numba(ast.parse("def warm():\n    import numba.core\n"))


def test_a_shared_run_is_found(tmp_path: Path) -> None:
    shared = "".join(f"a{i} = b[{i}]\n" for i in range(SHARED_RUN))
    first, second = tmp_path / "one.py", tmp_path / "two.py"
    first.write_text(f"x = 1\n{shared}")
    second.write_text(f"# a comment\n\ny = 2\n{shared.replace(chr(10), chr(10) + '    # noise' + chr(10), 2)}")
    assert len(shared_runs(first, second)) == 1
    second.write_text(f"import os\nimport sys\n{shared.replace('a3', 'c3')}")
    assert shared_runs(first, second) == []
    imports = "".join(f"import m{i}\n" for i in range(SHARED_RUN)) + "from p import (\n    q,\n    r,\n)\n"
    first.write_text(imports + "x = 1\n")
    second.write_text(imports + "y = 2\n")
    assert shared_runs(first, second) == []  # the same imports are not shared code


def test_modules_classes_and_functions_keep_their_limits() -> None:
    found = [line for path in _modules() for line in shape_violations(path)]
    assert not found, "split by concern into modules, classes and functions that say what they hold:\n" + "\n".join(
        found
    )


def test_no_run_of_lines_is_shared_between_compiled_modules() -> None:
    kernels = [path for path in _modules() if imports_numba(_parse(path)) or compiles_with_numba(_parse(path))]
    assert len(kernels) >= 2  # the solver's kernel and the batch kernel at least
    found = [
        line
        for index, first in enumerate(kernels)
        for second in kernels[index + 1 :]
        for line in shared_runs(first, second)
    ]
    assert not found, f"{SHARED_RUN}+ lines copied between compiled modules (move them to one both import):\n" + (
        "\n".join(found)
    )


def test_a_kernel_compiled_through_an_imported_decorator_is_found() -> None:
    tree = ast.parse("from dehla.kernel.jit import jit\n\n_jit = jit\n\n@_jit\ndef k(a):\n    return a\n")
    assert compiles_with_numba(tree)
    plain = "from dehla.cards import card_text\n\n@card_text\ndef k(a):\n    return a\n"
    assert not compiles_with_numba(ast.parse(plain))
