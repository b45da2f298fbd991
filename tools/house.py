"""The figures of #34's acceptance, how heavy the house is: ``make bench`` prints them (``python -m tools.house``).

Each figure is printed with its goal and ``OK`` or ``OVER``; the script always exits 0, since the figures
describe the tree, they do not gate it (tests/test_house.py holds the ratchets that may only shrink):

* modules in ``plancheck/`` and ``tfjsonpath/``;
* ``_x.py`` modules inside a private package (an ancestor package named ``_x``): privacy twice over;
* modules over 600 code lines (no blank lines, comments or docstrings);
* the distinct library functions a failing ``ExpectUnknownValue`` passes through, file to message, warm,
  through ``load_plan`` + ``assert_plan`` and through the command line's ``main``;
* pairs of files that share a block of six or more lines alike in ``plancheck/``;
* hand-written MessagePack or protobuf wire code.

>>> print(Figure("modules in plancheck/ + tfjsonpath/", 140, 150).render())
modules in plancheck/ + tfjsonpath/: 140 (goal <= 150) OK
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import itertools
import json
import re
import sys
import tempfile
import tokenize
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
PACKAGES: Final = ("plancheck", "tfjsonpath")

MAX_MODULES: Final = 150
MAX_CODE_LINES: Final = 600
MAX_LIBRARY_FUNCTIONS: Final = 60
MAX_CLI_FUNCTIONS: Final = 85
MAX_DUPLICATE_PAIRS: Final = 40

#: How many lines alike make a duplicated block, and how many places one block may stand in before it
#: counts as an idiom (a dataclass header, an ``__init__`` that stores its arguments), not a copy.
WINDOW: Final = 6
MOST_PLACES: Final = 8
#: A block of lines alike only in shape (other names, strings and numbers) counts when it has this
#: many tokens: six short lines of the same shape (``x = y``) are not one piece of logic written twice.
#: With 28, the count agrees within a few pairs with the review's measure that #34 quotes (75 pairs).
SHAPE_TOKENS: Final = 28


@dataclass(frozen=True)
class Figure:
    """One figure of the house, its goal, and what it counts (a module, a pair) where that helps act on it.

    >>> print(Figure("modules", 151, 150).render())
    modules: 151 (goal <= 150) OVER
    """

    name: str
    value: int
    goal: int
    items: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the figure is within its goal."""
        return self.value <= self.goal

    def render(self) -> str:
        """The figure's line, then one indented line per item."""
        head = f"{self.name}: {self.value} (goal <= {self.goal}) {'OK' if self.ok else 'OVER'}"
        return "\n".join([head, *(f"    {item}" for item in self.items)])


# -- the tree


def modules(root: Path = ROOT) -> list[Path]:
    """Every module of the library, sorted."""
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py") if "__pycache__" not in p.parts)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_twice(paths: Iterable[Path], root: Path = ROOT) -> list[str]:
    """The ``_x.py`` modules that sit inside a package named ``_x`` (at any depth), as paths from ``root``.

    >>> private_twice([ROOT / "plancheck/_a/b/_c.py", ROOT / "plancheck/_a/c.py", ROOT / "plancheck/_d.py"])
    ['plancheck/_a/b/_c.py']
    """
    found = []
    for path in paths:
        parts = path.relative_to(root).parts
        if _private(Path(parts[-1]).stem) and any(_private(folder) for folder in parts[1:-1]):
            found.append(path.relative_to(root).as_posix())
    return found


def _docstring_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
            continue
        first = node.body[0]
        text = first.value.value if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else None
        if isinstance(text, str) and first.end_lineno:
            lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


_NOT_CODE: Final = frozenset({
    tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
    tokenize.ENDMARKER,
})


def code_lines(source: str) -> int:
    """The lines of ``source`` that hold code: no blank line, comment or docstring counts.

    >>> code_lines("'''Doc.'''\\n\\n# why\\nx = 1  # what\\ny = '''a\\nb'''\\n")
    3
    """
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - _docstring_lines(ast.parse(source)))


def long_modules(paths: Iterable[Path], limit: int = MAX_CODE_LINES, root: Path = ROOT) -> dict[str, int]:
    """The modules over ``limit`` code lines, with their count."""
    counts = {path.relative_to(root).as_posix(): code_lines(path.read_text(encoding="utf-8")) for path in paths}
    return {name: n for name, n in counts.items() if n > limit}


# -- duplicated blocks

_TOKEN: Final = re.compile(r"""[rbfuRBFU]{0,2}("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*')|[A-Za-z_]\w*|\d[\w.]*|\S""")
_KEYWORDS: Final = frozenset({
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "if", "in", "is", "lambda", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "None", "True", "False", "self",
})
_NO_SUBSTANCE: Final = re.compile(r"[\s()\[\]{},:.]*")
_SKIPPED: Final = re.compile(r"(#|import |from \S+ import |@)")


def _kept_lines(text: str) -> list[tuple[int, str, str]]:
    """(line number, the line with white space folded, its shape) for the lines that count.

    Blank lines, comments, import statements (every line of them), decorators and lone punctuation are passed over; the shape puts
    ``x`` for every name, ``s`` for every string and ``0`` for every number, keywords kept.
    """
    kept = []
    imports = _import_lines(text)
    for number, line in enumerate(text.splitlines(), 1):
        folded = " ".join(line.split())
        if not folded or number in imports or _NO_SUBSTANCE.fullmatch(folded) or _SKIPPED.match(folded):
            continue
        shape = []
        for match in _TOKEN.finditer(folded):
            token = match.group()
            if match.group(1):
                shape.append("s")
            elif token[0].isdigit():
                shape.append("0")
            elif (token[0].isalpha() or token[0] == "_") and token not in _KEYWORDS:
                shape.append("x")
            else:
                shape.append(token)
        kept.append((number, folded, " ".join(shape)))
    return kept


def _import_lines(text: str) -> set[int]:
    """The lines of every import statement, the names of a parenthesized one too (no code, nothing to share)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    return {
        number
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for number in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }


def _key(lines: Iterable[str]) -> str:
    return hashlib.blake2b("\n".join(lines).encode(), digest_size=12).hexdigest()


def _blocks(name: str, text: str) -> Iterator[tuple[str, tuple[str, int, int]]]:
    """Every window of ``WINDOW`` kept lines: its exact key, and its shape key where it has the tokens for one."""
    kept = _kept_lines(text)
    for start in range(len(kept) - WINDOW + 1):
        window = kept[start : start + WINDOW]
        place = (name, window[0][0], window[-1][0])
        yield "=" + _key(line for _, line, _ in window), place
        if sum(len(shape.split()) for _, _, shape in window) >= SHAPE_TOKENS:
            yield "~" + _key(shape for _, _, shape in window), place


def duplicate_pairs(paths: Iterable[Path], root: Path = ROOT) -> list[tuple[str, str]]:
    """The pairs of files (a file with itself too) that share a block of ``WINDOW`` lines alike, sorted.

    Alike: the same lines once white space is folded, or the same shape with other names, strings and
    numbers. A block that stands in more than ``MOST_PLACES`` places is an idiom and pairs nothing.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     body = "".join(f"total = total + values[{i}] * weights[{i}]\\n" for i in range(6))
    ...     _ = Path(folder, "a.py").write_text(body)
    ...     _ = Path(folder, "b.py").write_text(body.replace("total", "sum_"))
    ...     _ = Path(folder, "c.py").write_text("print(1)\\n")
    ...     duplicate_pairs(sorted(Path(folder).glob("*.py")), root=Path(folder))
    [('a.py', 'b.py')]
    """
    places: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for path in paths:
        for key, place in _blocks(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")):
            places[key].append(place)
    pairs: set[tuple[str, str]] = set()
    for found in places.values():
        if len(found) > MOST_PLACES:
            continue
        for (a, _, a_last), (b, b_first, _) in itertools.combinations(sorted(found), 2):
            if a != b or b_first > a_last:  # a window overlapping itself is no copy
                pairs.add((a, b))
    return sorted(pairs)


# -- hand-written wire code

#: What hand-written MessagePack or protobuf encoding looks like in code (strings and comments aside).
WIRE_SIGNS: Final = {
    "a MessagePack type byte": re.compile(r"\b0[xX][cdCD][0-9a-fA-F]\b"),
    "a varint's 7-bit shift": re.compile(r"(<<|>>)=?\s*7\b"),
    "a protobuf field key (number << 3 | wire type)": re.compile(r"<<\s*3\b"),
    "protobuf field types as numbers": re.compile(
        r"\b_?(TYPE_|LABEL_)?(STRING|BYTES|INT32|INT64|MESSAGE|REPEATED|OPTIONAL)\b[\w, ]*=\s*\d"
    ),
}


def _code_only(source: str) -> list[str]:
    """``source``'s lines with every string and comment blanked, so only code can match a sign."""
    lines = source.splitlines()
    blanked = [list(line) for line in lines]
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT):
            (first_row, first_col), (last_row, last_col) = token.start, token.end
            for row in range(first_row, last_row + 1):
                start = first_col if row == first_row else 0
                end = last_col if row == last_row else len(lines[row - 1])
                blanked[row - 1][start:end] = " " * (end - start)
    return ["".join(line) for line in blanked]


def wire_code(paths: Iterable[Path], root: Path = ROOT) -> list[str]:
    """``path:line: sign`` for every line of code that encodes MessagePack or protobuf by hand.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "w.py")
    ...     _ = path.write_text('NIL = b"\\\\xc0"  # 0xc0\\nSIZED = {0xD9: 1}\\nkey = number << 3 | 2\\n')
    ...     wire_code([path], root=Path(folder))
    ['w.py:2: a MessagePack type byte', 'w.py:3: a protobuf field key (number << 3 | wire type)']
    """
    found = []
    for path in paths:
        for number, line in enumerate(_code_only(path.read_text(encoding="utf-8")), 1):
            for sign, pattern in WIRE_SIGNS.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(root).as_posix()}:{number}: {sign}")
    return found


# -- the route of a failing check

#: A small plan: one resource whose ``triggers["greeting"]`` is known, so ExpectUnknownValue on it fails;
#: with a sensitive value, so the message is scrubbed as a user's would be.
PLAN: Final = {
    "format_version": "1.2",
    "terraform_version": "1.11.4",
    "resource_changes": [
        {
            "address": "null_resource.app", "mode": "managed", "type": "null_resource", "name": "app",
            "provider_name": "registry.terraform.io/hashicorp/null",
            "change": {
                "actions": ["create"], "before": None,
                "after": {"triggers": {"greeting": "hello", "password": "hunter2"}},
                "after_unknown": {"id": True, "triggers": {}},
                "before_sensitive": False, "after_sensitive": {"triggers": {"password": True}},
            },
        }
    ],
}
ADDRESS: Final = "null_resource.app"
PATH: Final = 'triggers["greeting"]'

#: Code objects that are an expression inside a function, not a function of their own (and that
#: Python 3.12 inlines, so counting them would make the figure depend on the version).
_NOT_FUNCTIONS: Final = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<module>"})


def library_route(plan_file: Path) -> str:
    """The failure message of ExpectUnknownValue on ``plan_file``, through ``load_plan`` and ``assert_plan``."""
    import plancheck
    import tfjsonpath

    plan = plancheck.load_plan(plan_file)
    try:
        plancheck.assert_plan(plan, plancheck.ExpectUnknownValue(ADDRESS, tfjsonpath.New("triggers").AtMapKey("greeting")))
    except AssertionError as failure:
        return str(failure)
    raise AssertionError(f"ExpectUnknownValue passed on {plan_file}: the route measured nothing")


def cli_route(plan_file: Path) -> str:
    """What ``tfplancheck PLAN --unknown ADDRESS PATH`` prints; it must fail."""
    from plancheck.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main([str(plan_file), "--unknown", ADDRESS, PATH])
    if status != 1:
        raise AssertionError(f"tfplancheck exited {status}, not 1 (a failed check):\n{out.getvalue()}")
    return out.getvalue()


def library_functions(route: Callable[[], object]) -> set[str]:
    """The library functions ``route`` calls, run warm: once to import and fill caches, then counted.

    A function is one code object of ``plancheck`` or ``tfjsonpath`` (lambdas too, comprehensions
    not), named ``module-path:line:qualified name``.
    """
    folders = tuple(str(ROOT / package) + "/" for package in PACKAGES)
    seen: set[CodeType] = set()

    def note(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(folders):
            seen.add(frame.f_code)

    route()
    sys.setprofile(note)
    try:
        route()
    finally:
        sys.setprofile(None)
    return {
        f"{Path(code.co_filename).relative_to(ROOT).as_posix()}:{code.co_firstlineno}:{code.co_qualname}"
        for code in seen
        if code.co_name not in _NOT_FUNCTIONS
    }


def _route_figure(name: str, functions: set[str], goal: int) -> Figure:
    files = {function.split(":")[0] for function in functions}
    return Figure(f"{name} ({len(files)} modules)", len(functions), goal)


def routes() -> tuple[set[str], set[str]]:
    """The library functions of a failing check's two routes: through ``load_plan`` + ``assert_plan``, and the CLI."""
    with tempfile.TemporaryDirectory(prefix="tfplancheck-house-") as folder:
        plan_file = Path(folder, "plan.json")
        plan_file.write_text(json.dumps(PLAN), encoding="utf-8")
        return library_functions(lambda: library_route(plan_file)), library_functions(lambda: cli_route(plan_file))


# -- all of them


def figures() -> list[Figure]:
    """Every figure of #34's acceptance, measured on this tree."""
    paths = modules()
    plancheck_paths = [p for p in paths if p.relative_to(ROOT).parts[0] == "plancheck"]
    long = long_modules(paths)
    library, cli = routes()
    twice = private_twice(paths)
    pairs = duplicate_pairs(plancheck_paths)
    wire = wire_code(paths)
    return [
        Figure("modules in plancheck/ + tfjsonpath/", len(paths), MAX_MODULES),
        Figure("_x.py modules inside a private package", len(twice), 0, tuple(twice)),
        Figure(
            f"modules over {MAX_CODE_LINES} code lines", len(long), 0,
            tuple(f"{name}: {n}" for name, n in sorted(long.items())),
        ),
        _route_figure("library functions, failing ExpectUnknownValue via load_plan + assert_plan", library,
                      MAX_LIBRARY_FUNCTIONS),
        _route_figure("library functions, failing ExpectUnknownValue via the CLI", cli, MAX_CLI_FUNCTIONS),
        Figure(f"pairs of files sharing {WINDOW}+ lines alike in plancheck/", len(pairs), MAX_DUPLICATE_PAIRS),
        Figure("lines of hand-written MessagePack/protobuf wire code", len(wire), 0, tuple(wire)),
    ]


def main() -> int:
    """Print every figure; always 0."""
    print("house (#34):")
    for figure in figures():
        print(figure.render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
