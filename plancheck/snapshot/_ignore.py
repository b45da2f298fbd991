"""What a snapshot leaves out: paths in every resource, paths in some resources, whole resources.

An ``ignore`` list holds, in any mix:

* a path (a :class:`tfjsonpath.Path`, or its text form ``tags["created"]``): left out of every
  resource (and data source), with everything below it;
* a :class:`plancheck.Resources` selector: the resources it selects are left out whole;
* a ``(selector, path)`` pair: the path is left out of the resources the selector selects.

A value left out renders as nothing at all, so it never makes a difference. The command line
writes an entry as text (:func:`parse_ignore_spec`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeAlias

from tfjsonpath import MapStep, Path, PathSyntaxError

from .._documents.plan import ResourceChange
from .._documents.select import Resources
from ._values import IGNORED, Ignored

__all__ = ["SELECTOR_FIELDS", "IgnoreEntry", "IgnoreSpec", "parse_ignore_spec"]

IgnoreEntry: TypeAlias = "Path | str | Resources | tuple[Resources, Path | str]"
#: The fields of a selector written as text, as :class:`plancheck.Resources` names them.
SELECTOR_FIELDS: Final = ("type", "module", "address", "mode", "provider", "action")
_PATH_FIELD: Final = "path"
_EXPECTED_ENTRY: Final = (
    "a tfjsonpath.Path, its text form (str), a plancheck.Resources selector, or a (Resources, path) pair"
)


def _path(value: object, where: str) -> Path:
    if isinstance(value, Path):
        return value
    if isinstance(value, str):
        try:
            return Path.parse(value)
        except PathSyntaxError as exc:
            raise ValueError(f"{where}: {exc}") from None
    raise TypeError(f"{where}: expected a tfjsonpath.Path or its text form (str), got {type(value).__name__}")


def _trie(paths: Iterable[Path]) -> tuple[Ignored, bool]:
    """The trie of ``paths`` (a step to the trie below it, or to IGNORED), and whether the root itself is ignored."""
    root: dict[tuple[str, Any], Any] = {}
    for path in paths:
        steps = path.steps
        if not steps:
            return {}, True
        node = root
        for step in steps[:-1]:
            token = ("k", step.key) if isinstance(step, MapStep) else ("i", step.index)
            below = node.get(token)
            if below is IGNORED:
                break
            if below is None:
                below = node[token] = {}
            node = below
        else:
            last = steps[-1]
            node[("k", last.key) if isinstance(last, MapStep) else ("i", last.index)] = IGNORED
    return root, False


class IgnoreSpec:
    """An ``ignore`` list, checked and compiled: per resource, whether to leave it out, and which paths.

    >>> from plancheck import Resources
    >>> spec = IgnoreSpec(['triggers["ts"]', Resources(type="random_*"), (Resources(type="null_*"), "id")], "render()")
    >>> spec.for_resource(ResourceChange({"address": "random_id.x", "type": "random_id"})) is None
    True
    >>> sorted(spec.for_resource(ResourceChange({"address": "null_resource.a", "type": "null_resource"}))[0])
    [('k', 'id'), ('k', 'triggers')]
    >>> IgnoreSpec([3], "render()")
    Traceback (most recent call last):
    ...
    TypeError: render() ignore[0]: expected a tfjsonpath.Path, its text form (str), a plancheck.Resources selector, or a (Resources, path) pair, got int
    """

    __slots__ = ("_cache", "_everywhere", "_scoped", "_skip", "entries")

    def __init__(self, ignore: object, owner: str) -> None:
        if isinstance(ignore, (str, Path, Resources)):
            ignore = [ignore]
        if not isinstance(ignore, Iterable) or isinstance(ignore, (bytes, Mapping)):
            raise TypeError(f"{owner} ignore must be a list of paths, selectors and (selector, path) pairs, "
                            f"got {type(ignore).__name__}")
        everywhere: list[Path] = []
        scoped: list[tuple[Resources, Path]] = []
        skip: list[Resources] = []
        entries: list[IgnoreEntry] = []
        for i, entry in enumerate(ignore):
            where = f"{owner} ignore[{i}]"
            if isinstance(entry, Resources):
                skip.append(entry)
            elif isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], Resources):
                scoped.append((entry[0], _path(entry[1], where)))
            elif isinstance(entry, (Path, str)):
                everywhere.append(_path(entry, where))
            else:
                raise TypeError(f"{where}: expected {_EXPECTED_ENTRY}, got {type(entry).__name__}")
            entries.append(entry)
        self.entries = tuple(entries)
        self._everywhere = tuple(everywhere)
        self._scoped = tuple(scoped)
        self._skip = tuple(skip)
        self._cache: dict[tuple[int, ...], tuple[Ignored, bool]] = {(): _trie(everywhere)}

    @property
    def selects(self) -> bool:
        """Whether any entry depends on which resource it is (a selector)."""
        return bool(self._scoped or self._skip)

    def for_resource(self, change: ResourceChange | None) -> tuple[Ignored, bool] | None:
        """For one resource: None to leave it out whole, else its ignore trie and whether all its values are ignored.

        ``change`` may be None when no entry has a selector (:attr:`selects` is false).
        """
        if change is None or not self.selects:
            return self._cache[()]
        if any(selector.matches(change) for selector in self._skip):
            return None
        chosen = tuple(i for i, (selector, _) in enumerate(self._scoped) if selector.matches(change))
        found = self._cache.get(chosen)
        if found is None:
            found = self._cache[chosen] = _trie([*self._everywhere, *(self._scoped[i][1] for i in chosen)])
        return found


def parse_ignore_spec(text: str) -> IgnoreEntry:
    """An ``ignore`` entry written as text, as ``tfplancheck snapshot --ignore`` takes it.

    ``PATH`` (the text form of a path) is left out of every resource; ``FIELD=VALUE[,FIELD=VALUE...]``
    (fields of :class:`plancheck.Resources`: type, module, address, mode, provider, action; repeat
    ``action=`` for several) leaves out the resources it selects; ending it with ``,path=PATH``
    leaves out only that path of them. ``path=`` comes last: the rest of the text is the path.

    >>> parse_ignore_spec('triggers["ts"]')
    Path(MapStep('triggers'), MapStep('ts'))
    >>> parse_ignore_spec('type=null_resource,address=null_resource.a[*],path=triggers["a,b"]')
    (Resources(type='null_resource', address='null_resource.a[*]'), Path(MapStep('triggers'), MapStep('a,b')))
    >>> parse_ignore_spec("action=create,action=update")
    Resources(action=(ResourceAction.Create, ResourceAction.Update))
    >>> parse_ignore_spec("typ=x")
    Traceback (most recent call last):
    ...
    ValueError: 'typ=x' is neither a path (expected '.', '[' or the end of the path at offset 3, found '=') nor a selector FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields type, module, address, mode, provider, action
    """
    if not isinstance(text, str):
        raise TypeError(f"an ignore spec must be a str, got {type(text).__name__}")
    fields = _leading_fields(text)
    if fields is None:
        try:
            return Path.parse(text)
        except PathSyntaxError as exc:
            fields_text = ", ".join(SELECTOR_FIELDS)
            raise ValueError(
                f"{text!r} is neither a path ({_syntax(exc)}) nor a selector "
                f"FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields {fields_text}"
            ) from None
    arguments: dict[str, Any] = {}
    path: Path | None = None
    for name, value in fields:
        if name == _PATH_FIELD:
            try:
                path = Path.parse(value)
            except PathSyntaxError as exc:
                raise ValueError(f"{text!r}: path={value!r} is not a path: {_syntax(exc)}") from None
        elif name == "action":
            arguments.setdefault("action", []).append(value)
        elif name in arguments:
            raise ValueError(f"{text!r}: {name}= is given twice")
        else:
            arguments[name] = value
    if not arguments:
        assert path is not None  # _leading_fields found at least one field
        return path
    actions = arguments.get("action")
    if actions is not None and len(actions) == 1:
        arguments["action"] = actions[0]
    try:
        selector = Resources(**arguments)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{text!r}: {str(exc).removeprefix('Resources: ')}") from None
    return selector if path is None else (selector, path)


def _syntax(exc: PathSyntaxError) -> str:
    """A path syntax error without the path it repeats (the caller quotes the whole text)."""
    return f"expected {exc.expected} at offset {exc.position}, found {exc.found}"


def _leading_fields(text: str) -> list[tuple[str, str]] | None:
    """``FIELD=VALUE`` pairs split at each ``,FIELD=``, ``path=`` taking the rest; None if ``text`` starts with none."""
    names = (*SELECTOR_FIELDS, _PATH_FIELD)
    if not any(text.startswith(f"{name}=") for name in names):
        return None
    found: list[tuple[str, str]] = []
    rest = text
    while True:
        name, _, rest = rest.partition("=")
        if name == _PATH_FIELD:
            found.append((name, rest))
            return found
        cut = -1
        for other in names:
            at = rest.find(f",{other}=")
            if at >= 0 and (cut < 0 or at < cut):
                cut = at
        if cut < 0:
            found.append((name, rest))
            return found
        found.append((name, rest[:cut]))
        rest = rest[cut + 1 :]
