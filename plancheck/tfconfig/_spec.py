"""The schema of a block type, as the reader knows it: what ``_blocks`` reads with and ``_model`` keeps."""

from __future__ import annotations

__all__ = ["Spec"]


class Spec:
    """The schema of one block type: labels, known arguments (by kind), nested block types."""

    __slots__ = ("args", "attributes_only", "labels", "literal", "name", "nested", "open", "required")
    name: str
    labels: tuple[str, ...]
    args: dict[str, str]
    nested: dict[str, Spec]
    open: bool
    literal: bool
    attributes_only: bool
    required: tuple[str, ...]

    def __init__(
        self,
        name: str,
        labels: tuple[str, ...] = (),
        args: dict[str, str] | None = None,
        nested: dict[str, Spec] | None = None,
        *,
        open: bool = False,
        literal: bool = False,
        attributes_only: bool = False,
        required: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.labels = labels
        self.args = args or {}
        self.nested = nested or {}
        self.open = open
        self.literal = literal
        self.attributes_only = attributes_only
        self.required = required

    def arg_kind(self, name: str) -> str:
        """How the value of argument ``name`` is read (``"expr"``, ``"open"``, ``"literal"``...)."""
        kind = self.args.get(name)
        if kind is not None:
            return kind
        if self.attributes_only:
            return "literal" if self.literal else "expr"
        if self.open:
            return "literal" if self.literal else "open"
        return "unknown"

    def __repr__(self) -> str:
        return f"<Spec {self.name}>"
