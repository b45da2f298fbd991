"""Path: an immutable, hashable sequence of steps into a JSON document, and its escaped text form; finding
its value, and walking a document.

The text form: ``root_map_attribute["example-key"][0]["nested"]``. Go's dotted ``String()`` is ambiguous
(``a.0`` may be the key "0" or the index 0, and a key may itself contain a dot) and has no parser. This
form is unambiguous:

    path    = "" | first rest*
    first   = ident | bracket
    rest    = "." ident | bracket
    bracket = "[" index "]" | "[" quoted "]"
    ident   = [A-Za-z_][A-Za-z0-9_]*
    index   = "0" | [1-9][0-9]*
    quoted  = a JSON string literal; "\\u{HEX}" (1 to 6 hex digits) also
              stands for one code point (see ._text)

Rendering (``Path.to_text``) is canonical: only a first key that matches ``ident`` is written bare;
every other key, including every key after the first step, is a bracketed quoted string, and an index
is in brackets. Parsing (``Path.parse``) still accepts ``.ident`` after the first step.

Resolving and walking are iterative (no recursion limit).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, final, overload

from typing_extensions import deprecated

from ._errors import PathArgumentError, PathSyntaxError, TfJsonPathError, public
from ._jsontypes import describe_json_type, is_object, is_sequence, plural
from ._text import (
    MAX_INDEX,
    MapStep,
    SliceStep,
    Step,
    _Immutable,
    _index_refusal,
    _key_refusal,
    _scan_quoted,
    quote_key,
)

__all__ = ["New", "Path", "PathNotFoundError", "Traverse", "leaves", "walk"]


# Python never returns -1 from hash(), so it can mark "not computed yet".
_UNHASHED = -1

#: A key that the text form may write bare (as a first step).
_IDENT_FULL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INDEX = re.compile(r"0|[1-9][0-9]*")

_EXPECT_FIRST = "a key or '['"
_EXPECT_NEXT = "'.', '[' or the end of the path"
_EXPECT_IDENT = "a key of letters, digits and '_' after '.' (quote other keys as [\"...\"])"
_EXPECT_BRACKET = "an index or a quoted key"
_EXPECT_INDEX_END = "']' after the index"
_EXPECT_SMALL_INDEX = f"an index no greater than {MAX_INDEX}"
_EXPECT_KEY_END = "']' after the quoted key"


@public("tfjsonpath")
@final
class Path(_Immutable):
    """An immutable path into a JSON document, built like Go's ``tfjsonpath.Path``.

    Builders return new paths, so branching from a shared base is safe (in Go, two
    ``AtMapKey`` calls on one base can overwrite each other's last step):

    >>> base = New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block")
    >>> a, b = base.AtSliceIndex(0), base.AtSliceIndex(1)
    >>> str(a), str(b), str(base)
    ('root_list_block.0.nested_list_block.0', 'root_list_block.0.nested_list_block.1', 'root_list_block.0.nested_list_block')
    >>> Path.parse('root_map_attribute["example-key"][0]').to_text()
    'root_map_attribute["example-key"][0]'
    >>> Path(MapStep("a"), SliceStep(0)) == New("a").AtSliceIndex(0)
    True

    ``Path()`` with no steps is the document root; unlike an empty tuple it is truthy. ``steps``
    holds the steps, as a tuple:

    >>> New("a").AtSliceIndex(0).steps
    (MapStep('a'), SliceStep(0))
    """

    __slots__ = ("_hash", "steps")
    steps: tuple[Step, ...]
    """The steps, as a tuple: a plain attribute, set once (every check reads it)."""
    _hash: int

    def __init__(self, *steps: Step) -> None:
        for i, step in enumerate(steps):
            if not isinstance(step, (MapStep, SliceStep)):
                raise PathArgumentError(
                    f"Path() step {i} must be a MapStep or SliceStep, got {type(step).__name__}"
                    " (build paths from keys and indexes with New(...) or Path.parse(...))"
                )
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "_hash", _UNHASHED)

    @classmethod
    def _from_steps(cls, steps: tuple[Step, ...]) -> Path:
        # Skips per-step validation: callers pass steps that are already Step objects.
        obj = object.__new__(cls)
        object.__setattr__(obj, "steps", steps)
        # Hashing is deferred: building a 10,000-step path one step at a time must not hash every prefix.
        object.__setattr__(obj, "_hash", _UNHASHED)
        return obj

    def __reduce__(self) -> tuple[type[Path], tuple[Step, ...]]:
        return (Path, self.steps)

    # -- building -------------------------------------------------------------------------

    def AtMapKey(self, key: str) -> Path:  # Go's name, kept for line-by-line ports
        """Return a new path one map key deeper.

        >>> New("triggers").AtMapKey("dep")
        Path(MapStep('triggers'), MapStep('dep'))
        >>> New("triggers").AtMapKey(0)
        Traceback (most recent call last):
        ...
        tfjsonpath.PathArgumentError: AtMapKey() key must be a str, got int
        """
        try:
            step = MapStep(key)
        except PathArgumentError:
            raise _key_refusal(key, "AtMapKey()") from None  # the step's refusal, said by the builder given the key
        return Path._from_steps((*self.steps, step))

    def AtSliceIndex(self, index: int) -> Path:  # Go's name, kept for line-by-line ports
        """Return a new path one array index deeper.

        >>> New("list").AtSliceIndex(2)
        Path(MapStep('list'), SliceStep(2))
        >>> New("list").AtSliceIndex(-1)
        Traceback (most recent call last):
        ...
        tfjsonpath.PathArgumentError: AtSliceIndex() index must be >= 0, got -1
        """
        try:
            step = SliceStep(index)
        except PathArgumentError:
            raise _index_refusal(index, "AtSliceIndex()") from None
        return Path._from_steps((*self.steps, step))

    def join(self, *others: Path | Step | str | int) -> Path:
        """Return this path followed by other paths, steps, keys (str) or indexes (int).

        >>> New("a").join(New("b"), 0, "c", SliceStep(1)).to_text()
        'a["b"][0]["c"][1]'
        """
        steps = list(self.steps)
        for n, other in enumerate(others, start=1):
            if isinstance(other, Path):
                steps.extend(other.steps)
            elif isinstance(other, (MapStep, SliceStep)):
                steps.append(other)
            elif isinstance(other, str):
                steps.append(MapStep(other))
            elif isinstance(other, int) and not isinstance(other, bool):
                try:
                    steps.append(SliceStep(other))
                except PathArgumentError:
                    raise _index_refusal(other, f"join() argument {n}") from None
            else:
                raise PathArgumentError(
                    f"join() argument {n} must be a Path, MapStep, SliceStep, str key or int index, "
                    f"got {type(other).__name__}"
                )
        return Path._from_steps(tuple(steps))

    # -- inspecting ------------------------------------------------------------------------

    @property
    def parent(self) -> Path | None:
        """The path without its last step; ``None`` for the root path.

        >>> New("a").AtSliceIndex(0).parent
        Path(MapStep('a'))
        >>> New("a").parent, Path().parent
        (Path(), None)
        """
        if not self.steps:
            return None
        return Path._from_steps(self.steps[:-1])

    @property
    def last_step(self) -> Step | None:
        """The last step, or ``None`` for the root path.

        >>> New("a").AtSliceIndex(3).last_step
        SliceStep(3)
        """
        return self.steps[-1] if self.steps else None

    def ancestors(self) -> Iterator[Path]:
        """Yield every proper ancestor, nearest first, ending with the root path.

        >>> [p.to_text() for p in New("a").AtMapKey("b").AtSliceIndex(0).ancestors()]
        ['a["b"]', 'a', '']
        """
        for n in range(len(self.steps) - 1, -1, -1):
            yield Path._from_steps(self.steps[:n])

    def is_parent_of(self, other: Path) -> bool:
        """True if this path is a proper ancestor of ``other`` (any number of steps above it).

        >>> New("a").is_parent_of(New("a").AtMapKey("b").AtSliceIndex(0))
        True
        >>> New("a").is_parent_of(New("a")), Path().is_parent_of(New("a"))
        (False, True)
        """
        if not isinstance(other, Path):
            raise PathArgumentError(f"is_parent_of() expects a Path, got {type(other).__name__}")
        n = len(self.steps)
        return len(other.steps) > n and other.steps[:n] == self.steps

    def is_child_of(self, other: Path) -> bool:
        """True if ``other`` is a proper ancestor of this path (any number of steps above it).

        >>> New("a").AtMapKey("b").is_child_of(New("a")), New("a").is_child_of(New("a"))
        (True, False)
        """
        if not isinstance(other, Path):
            raise PathArgumentError(f"is_child_of() expects a Path, got {type(other).__name__}")
        return other.is_parent_of(self)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __contains__(self, step: object) -> bool:
        return step in self.steps

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> Path: ...
    def __getitem__(self, index: int | slice) -> Step | Path:
        if isinstance(index, slice):
            return Path._from_steps(self.steps[index])
        if isinstance(index, bool) or not isinstance(index, int):
            # The builtin, not PathArgumentError: this is the subscript protocol, whose error for a wrong index
            # type is the builtin TypeError a list or tuple raises (as the IndexError below is the builtin's).
            raise TypeError(f"Path indices must be ints or slices, got {type(index).__name__}")
        try:
            return self.steps[index]
        except IndexError:
            raise IndexError(f"step {index} is out of range for a path of {len(self.steps)} steps") from None

    def __bool__(self) -> bool:
        # The root path is still a real path; truthiness must not hinge on length.
        return True

    # -- comparing -------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Path):
            return NotImplemented
        if self is other:
            return True
        if self._hash != _UNHASHED and other._hash != _UNHASHED and self._hash != other._hash:
            return False
        return self.steps == other.steps

    def __hash__(self) -> int:
        h = self._hash
        if h == _UNHASHED:
            h = hash((Path, self.steps))
            object.__setattr__(self, "_hash", h)
        return h

    def sort_key(self) -> tuple[tuple[int, int, str], ...]:
        """A key that orders paths deterministically: step by step, indexes (numerically) before keys.

        >>> sorted([New("b"), New(1), New(0), New("a"), New("a").AtSliceIndex(0)], key=Path.sort_key)
        [Path(SliceStep(0)), Path(SliceStep(1)), Path(MapStep('a')), Path(MapStep('a'), SliceStep(0)), Path(MapStep('b'))]
        """
        return tuple((0, s.index, "") if isinstance(s, SliceStep) else (1, 0, s.key) for s in self.steps)

    # -- text ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return "Path(" + ", ".join([repr(s) for s in self.steps]) + ")"

    def __str__(self) -> str:
        """Go's ``String()``: steps joined with dots. Ambiguous; use :meth:`to_text` to round-trip."""
        return ".".join([s.key if isinstance(s, MapStep) else str(s.index) for s in self.steps])

    def to_text(self) -> str:
        """The unambiguous, escaped text form, which :meth:`parse` reads back to an equal path.

        Only a leading key that is an identifier goes bare. Every later key is bracketed:
        JSON cannot tell an attribute from a map key, and HCL writes map keys as
        ``triggers["a"]``, which is how Terraform users read them.

        >>> New("a").AtMapKey("b-c").AtSliceIndex(0).AtMapKey("d").to_text()
        'a["b-c"][0]["d"]'
        >>> New("a.b").AtMapKey("0").AtSliceIndex(0).AtMapKey("ok").to_text()
        '["a.b"]["0"][0]["ok"]'
        >>> Path().to_text()
        ''
        """
        parts: list[str] = []
        for step in self.steps:
            if isinstance(step, SliceStep):
                parts.append(f"[{step.index}]")
            elif not parts and _IDENT_FULL.match(step.key):
                parts.append(step.key)
            else:
                parts.append(f"[{quote_key(step.key)}]")
        return "".join(parts)

    @classmethod
    def parse(cls, text: str) -> Path:
        """Parse the escaped text form made by :meth:`to_text`; raise PathSyntaxError if it is not one.

        >>> Path.parse('triggers["file1.txt"][0]').steps
        (MapStep('triggers'), MapStep('file1.txt'), SliceStep(0))
        >>> from tfjsonpath import PathSyntaxError
        >>> try:
        ...     Path.parse("a.0")
        ... except PathSyntaxError as e:
        ...     print(e)
        invalid path 'a.0' at offset 2: expected a key of letters, digits and '_' after '.' (quote other keys as ["..."]), found '0'
        """
        if not isinstance(text, str):
            raise PathArgumentError(f"Path.parse() text must be a str, got {type(text).__name__}")
        steps: list[Step] = []
        pos = 0
        end = len(text)
        while pos < end:
            ch = text[pos]
            if ch == "[":
                pos += 1
                if text.startswith('"', pos):
                    key, pos = _scan_quoted(text, pos + 1)
                    if not text.startswith("]", pos):
                        raise PathSyntaxError(text, pos, _EXPECT_KEY_END)
                    steps.append(MapStep(key))
                    pos += 1
                    continue
                index = _INDEX.match(text, pos)
                if index is None:
                    raise PathSyntaxError(text, pos, _EXPECT_BRACKET)
                digits = index.group()
                if len(digits) > len(str(MAX_INDEX)) or int(digits) > MAX_INDEX:
                    found = digits if len(digits) <= 30 else f"a number of {len(digits)} digits"
                    raise PathSyntaxError(text, pos, _EXPECT_SMALL_INDEX, found=found)
                pos = index.end()
                if not text.startswith("]", pos):
                    raise PathSyntaxError(text, pos, _EXPECT_INDEX_END)
                steps.append(SliceStep(int(digits)))
                pos += 1
                continue
            if steps:
                if ch != ".":
                    raise PathSyntaxError(text, pos, _EXPECT_NEXT)
                pos += 1
                expected = _EXPECT_IDENT
            else:
                expected = _EXPECT_FIRST
            ident = _IDENT.match(text, pos)
            if ident is None:
                raise PathSyntaxError(text, pos, expected)
            steps.append(MapStep(ident.group()))
            pos = ident.end()
        return cls._from_steps(tuple(steps))

    # -- resolving -------------------------------------------------------------------------

    @deprecated("tfjsonpath.Path.traverse is deprecated; use tfjsonpath.Traverse(document, path)")
    def traverse(self, document: Any) -> Any:
        """Deprecated: :func:`tfjsonpath.Traverse`, Go's function, is the one name (#34); this one goes in the next release."""
        return resolve(document, self)


@public("tfjsonpath")
def New(first_step: str | int) -> Path:  # Go's name, kept for line-by-line ports
    """Start a path with a map key (str) or, for a root-level array, an index (int).

    >>> New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block")
    Path(MapStep('root_list_block'), SliceStep(0), MapStep('nested_list_block'))
    >>> New(0)
    Path(SliceStep(0))
    >>> New(1.5)
    Traceback (most recent call last):
    ...
    tfjsonpath.PathArgumentError: New() first_step must be a str (map key) or an int (slice index), got float
    """
    if isinstance(first_step, str):
        return Path._from_steps((MapStep(first_step),))
    if isinstance(first_step, int) and not isinstance(first_step, bool):
        try:
            step = SliceStep(first_step)
        except PathArgumentError:
            raise _index_refusal(first_step, "New() first_step") from None
        return Path._from_steps((step,))
    raise PathArgumentError(
        f"New() first_step must be a str (map key) or an int (slice index), got {type(first_step).__name__}"
    )


# -- resolving a path, and its error (here, beside Path, which both name) -------------------------


@public("tfjsonpath")
class PathNotFoundError(TfJsonPathError, LookupError):
    """A Path does not lead to a value in a document.

    The message starts with the wording of Go's tfjsonpath (``go_message``), then
    says precisely what went wrong (``detail``). It names JSON types, never values:
    values may be secrets. ``step_index`` counts from 0; the message's "step N"
    counts from 1.

    >>> from tfjsonpath import New
    >>> try:
    ...     Traverse({"a": [1]}, New("a").AtMapKey("b"))
    ... except PathNotFoundError as e:
    ...     print(e)
    ...     print(e.step_index, e.step, e.found, e.reached.to_text(), sep=" | ")
    path not found: cannot convert object at MapStep a.b to map[string]any; expected an object for key 'b' at step 2 of a["b"], found an array of 1 element
    1 | MapStep('b') | an array of 1 element | a
    """

    def __init__(
        self, *, path: Path, step_index: int, step: Step, found: str, go_message: str, detail: str
    ) -> None:
        self.path = path
        self.step_index = step_index
        self.step = step
        self.found = found
        self.go_message = go_message
        self.detail = detail
        super().__init__(f"{go_message}; {detail}")

    @property
    def reached(self) -> Path:
        """The longest prefix of ``path`` that exists: where ``step`` was tried.

        >>> from tfjsonpath import New
        >>> try:
        ...     Traverse({"a": [1]}, New("a").AtSliceIndex(5).AtMapKey("b"))
        ... except PathNotFoundError as e:
        ...     e.reached.to_text()
        'a'
        """
        return self.path[: self.step_index]


def resolve(document: Any, path: Path) -> Any:
    """The value at ``path`` in ``document``, or PathNotFoundError naming the step (see :func:`tfjsonpath.Traverse`).

    >>> from tfjsonpath import New
    >>> resolve({"a": [1, 2]}, New("a").AtSliceIndex(0))
    1
    """
    current = document
    for i, step in enumerate(path.steps):
        if isinstance(step, MapStep):
            key = step.key
            if is_object(current):
                # `in` first: a Mapping's __getitem__ may insert (defaultdict) or compute a default.
                if key in current:
                    current = current[key]
                    continue
                raise _not_found(
                    path,
                    i,
                    current,
                    f"specified key {key} not found in map at {path[: i + 1]}",
                    f"key {key!r} missing at step {i + 1} of {path.to_text()}; "
                    f"the map has {plural(len(current), 'key')}",
                )
            raise _not_found(
                path,
                i,
                current,
                f"cannot convert object at MapStep {path[: i + 1]} to map[string]any",
                f"expected an object for key {key!r} at step {i + 1} of {path.to_text()}, "
                f"found {describe_json_type(current)}",
            )
        index = step.index
        if is_sequence(current):
            if index < len(current):
                current = current[index]
                continue
            raise _not_found(
                path,
                i,
                current,
                f"SliceStep index {path[: i + 1]} is out of range with slice length {len(current)}",
                f"index {index} out of range at step {i + 1} of {path.to_text()}; "
                f"the array has {plural(len(current), 'element')}",
            )
        raise _not_found(
            path,
            i,
            current,
            f"cannot convert object at SliceStep {path[: i + 1]} to []any",
            f"expected an array for index {index} at step {i + 1} of {path.to_text()}, "
            f"found {describe_json_type(current)}",
        )
    return current


def _not_found(path: Path, step_index: int, found: Any, go_reason: str, detail: str) -> PathNotFoundError:
    return PathNotFoundError(
        path=path,
        step_index=step_index,
        step=path.steps[step_index],
        found=describe_json_type(found),
        go_message=f"path not found: {go_reason}",
        detail=detail,
    )


@public("tfjsonpath")
def Traverse(document: Any, path: Path) -> Any:  # Go's name, kept for line-by-line ports
    """Return the value at ``path`` in ``document`` (Go's ``tfjsonpath.Traverse``).

    A MapStep only enters an object (any Mapping) and a SliceStep only enters an
    array (any Sequence but str/bytes): a path never indexes into a string, never
    treats an array as an object or an object as an array. Nothing in the document
    is modified (a ``defaultdict`` gains no keys). When the path leads nowhere,
    PathNotFoundError says at which step and what was found there, by JSON type only.

    >>> from tfjsonpath import New
    >>> Traverse({"a": {"b": [1, 2]}}, New("a").AtMapKey("b").AtSliceIndex(1))
    2
    >>> from tfjsonpath import PathNotFoundError
    >>> try:
    ...     Traverse({"Array": [1, 2]}, New("Array").AtSliceIndex(7))
    ... except PathNotFoundError as e:
    ...     print(e)
    path not found: SliceStep index Array.7 is out of range with slice length 2; index 7 out of range at step 2 of Array[7]; the array has 2 elements
    """
    if not isinstance(path, Path):
        raise PathArgumentError(f"Traverse() path must be a tfjsonpath.Path, got {type(path).__name__}")
    return resolve(document, path)


_ROOT = Path()


def _has_children(value: Any) -> bool:
    return (is_object(value) or is_sequence(value)) and len(value) > 0


def _items(container: Any) -> tuple[bool, Iterator[tuple[Any, Any]]]:
    if is_object(container):
        return True, iter(container.items())
    return False, enumerate(container)


def _check_prefix(prefix: object, where: str) -> None:
    if not isinstance(prefix, Path):
        raise PathArgumentError(f"{where} prefix must be a tfjsonpath.Path, got {type(prefix).__name__}")


def _walk(document: Any, prefix: Path, leaves_only: bool) -> Iterator[tuple[Path, Any]]:
    if not _has_children(document):
        yield prefix, document
        return
    if not leaves_only:
        yield prefix, document
    base = prefix.steps
    # `branch` holds the steps from the document down to the container being iterated; a
    # Path is materialised only for a value that is yielded, so leaves() of a 10,000-level
    # document does not build 10,000 long tuples. `open_ids` holds the containers on the
    # branch, so a document that contains itself is caught instead of looped over forever.
    branch: list[Step] = []
    containers = [document]
    frames = [_items(document)]
    open_ids = {id(document)}
    while frames:
        in_object, items = frames[-1]
        for key, child in items:
            if not in_object:
                step: Step = SliceStep(key)
            elif isinstance(key, str):
                step = MapStep(key)
            else:
                where = Path._from_steps((*base, *branch)).to_text() or "the top"
                raise PathArgumentError(
                    f"not a JSON document: an object key at {where} is a {type(key).__name__}, not a str"
                )
            if not _has_children(child):
                yield Path._from_steps((*base, *branch, step)), child
                continue
            if id(child) in open_ids:
                where = Path._from_steps((*base, *branch, step)).to_text()
                raise PathArgumentError(f"not a JSON document: the value at {where} contains itself")
            branch.append(step)
            if not leaves_only:
                yield Path._from_steps((*base, *branch)), child
            containers.append(child)
            frames.append(_items(child))
            open_ids.add(id(child))
            break
        else:
            frames.pop()
            open_ids.discard(id(containers.pop()))
            if branch:
                branch.pop()


@public("tfjsonpath")
def walk(document: Any, *, prefix: Path = _ROOT) -> Iterator[tuple[Path, Any]]:
    """Yield ``(path, value)`` for every value in ``document``, the document itself first.

    The order is depth first, in document order (object keys as the mapping iterates
    them, array elements by index); ``Traverse(document, path) is value`` for every pair.
    ``prefix`` is put in front of every path, for walking a part cut out of a larger
    document. Any depth works: the walk keeps its own stack instead of recursing (each
    yielded path is built afresh, so the cost grows with depth times the number of values).
    A document that contains itself raises PathArgumentError (a ValueError) instead of looping forever.

    >>> from tfjsonpath import New
    >>> for path, value in walk({"a": [1, {"b": None}]}):
    ...     print(repr(path.to_text()), value)
    '' {'a': [1, {'b': None}]}
    'a' [1, {'b': None}]
    'a[0]' 1
    'a[1]' {'b': None}
    'a[1]["b"]' None
    >>> [p.to_text() for p, _ in walk({"id": "x"}, prefix=New("after"))]
    ['after', 'after["id"]']
    """
    _check_prefix(prefix, "walk()")
    return _walk(document, prefix, leaves_only=False)


@public("tfjsonpath")
def leaves(document: Any, *, prefix: Path = _ROOT) -> Iterator[tuple[Path, Any]]:
    """Yield ``(path, value)`` for every leaf: a string, number, bool, null, or an empty object or array.

    Same order, ``prefix`` and guarantees as :func:`walk`; only leaves get a path built,
    so a deep document with few leaves is cheap.

    >>> doc = {"first_name": "John", "phone_numbers": [{"mobile": "111"}, {}], "tags": []}
    >>> for path, value in leaves(doc):
    ...     print(path.to_text(), value)
    first_name John
    phone_numbers[0]["mobile"] 111
    phone_numbers[1] {}
    tags []

    It sees plain JSON, and no marks: given a plan's raw values (``change.after``), it yields
    every secret in clear, and no leaf for a value unknown until apply (Terraform leaves it out of
    ``after`` and marks it in ``after_unknown``). To print a plan's values, let plancheck apply the
    marks: ``plancheck.snapshot.render(plan)`` (one line per value, ``(known after apply)`` and
    ``(sensitive)``), or ``resolve_value(...).describe(plan.secrets)`` for one value (see the loading
    guide, "Printing a plan's values").

    >>> after, after_unknown = {"password": "hunter2"}, {"id": True}     # a change's after and marks
    >>> list(leaves(after))                                              # the secret in clear, no id
    [(Path(MapStep('password')), 'hunter2')]
    """
    _check_prefix(prefix, "leaves()")
    return _walk(document, prefix, leaves_only=True)
