"""ConfigFormatError, and Source: a configuration file's text with line and column lookup."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._errors import DocumentFormatError
from .._frozen import public

__all__ = ["ConfigFormatError", "Source", "Trail", "json_location", "trail_steps"]


@public("plancheck.tfconfig")
class ConfigFormatError(DocumentFormatError):
    """A configuration (``.tf.json``, ``.tofu.json`` or a dict to write) is malformed.

    Besides the JSON ``location`` (``$.resource["aws_instance"]``) it carries the ``source``
    file, and the 1-based ``line`` and ``column`` of the offending token when there is a file.

    >>> str(ConfigFormatError('$.resource["aws_instance"]', "an object of resource names", found="a string",
    ...                       source="main.tf.json", line=3, column=21))
    'main.tf.json:3:21: $.resource["aws_instance"]: expected an object of resource names, found a string'
    >>> str(ConfigFormatError("$.variable", "an object", found="null"))
    '$.variable: expected an object, found null'
    """

    kind = "config"

    def __init__(
        self,
        location: str,
        expected: str,
        *,
        found: str | None = None,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.line = line
        self.column = column
        super().__init__(location, expected, found=found, source=source)

    @property
    def file(self) -> str | None:
        """The file the error is in (the same as ``source``); ``None`` for a dict being written.

        >>> ConfigFormatError("$", "an object", source="a.tf.json", line=1, column=1).file
        'a.tf.json'
        """
        return self.source

    def _render(self) -> str:
        text = f"{self.location}: expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        prefix = [p for p in (self.source, self.line, self.column) if p is not None]
        if prefix:
            text = ":".join(str(p) for p in prefix) + ": " + text
        return text

    def with_source(self, source: str | None) -> ConfigFormatError:
        """Return a copy of this error that names ``source``, keeping line and column.

        >>> ConfigFormatError("$", "an object", line=1, column=1).with_source("x.tf.json").file
        'x.tf.json'
        """
        return type(self)(
            self.location, self.expected, found=self.found, source=source, line=self.line, column=self.column
        )


def json_location(steps: Iterable[Step]) -> str:
    """Render steps as a JSON location: ``$``, then the escaped tfjsonpath text form.

    >>> from tfjsonpath import MapStep, SliceStep
    >>> json_location([MapStep("resource"), MapStep("aws_instance")])
    '$.resource["aws_instance"]'
    >>> json_location([MapStep("provider"), MapStep("aws"), SliceStep(1), MapStep("a.b")])
    '$.provider["aws"][1]["a.b"]'
    """
    text = Path(*steps).to_text()
    if not text or text.startswith("["):
        return "$" + text
    return "$." + text


class Source:
    """The text of one configuration file (or of a dict being written, with no name), for locations.

    >>> s = Source("main.tf.json", '{\\n  "a": 1\\n}')
    >>> s.line_column(6)
    (2, 5)
    """

    __slots__ = ("_line_starts", "name", "text")
    name: str | None
    text: str
    _line_starts: list[int] | None

    def __init__(self, name: str | None, text: str) -> None:
        self.name = name
        self.text = text
        self._line_starts = None

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column (in characters) of a character offset."""
        starts = self._line_starts
        if starts is None:
            starts = [0]
            text = self.text
            i = text.find("\n")
            while i != -1:
                starts.append(i + 1)
                i = text.find("\n", i + 1)
            self._line_starts = starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def error(
        self, offset: int, steps: Iterable[Step], expected: str, found: str | None = None
    ) -> ConfigFormatError:
        """A ConfigFormatError at ``offset`` (``-1``: no position, as for a dict being written)."""
        line: int | None = None
        column: int | None = None
        if offset >= 0:
            line, column = self.line_column(offset)
        return ConfigFormatError(
            json_location(steps), expected, found=found, source=self.name, line=line, column=column
        )

    def __repr__(self) -> str:
        return f"Source({self.name!r}, <{len(self.text)} characters>)"


class Trail:
    """A JSON location built one step at a time in O(1) (a linked list of raw keys and indexes),
    turned into tfjsonpath steps only when an error needs them.

    >>> from tfjsonpath import MapStep
    >>> Trail(Trail((MapStep("a"),), 0), "b").steps()
    (MapStep('a'), SliceStep(0), MapStep('b'))
    """

    __slots__ = ("key", "parent")
    parent: Trail | tuple[Step, ...]
    key: str | int

    def __init__(self, parent: Trail | tuple[Step, ...], key: str | int) -> None:
        self.parent = parent
        self.key = key

    def steps(self) -> tuple[Step, ...]:
        """The steps from the root, in order."""
        out: list[Step] = []
        link: Trail | tuple[Step, ...] = self
        while isinstance(link, Trail):
            key = link.key
            out.append(MapStep(key) if isinstance(key, str) else SliceStep(key))
            link = link.parent
        out.reverse()
        return (*link, *out)


def trail_steps(trail: Trail | tuple[Step, ...]) -> tuple[Step, ...]:
    """The steps of a Trail, or the tuple itself.

    >>> from tfjsonpath import MapStep
    >>> trail_steps((MapStep("a"),))
    (MapStep('a'),)
    """
    return trail.steps() if isinstance(trail, Trail) else trail
