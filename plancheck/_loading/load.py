"""Reading plan documents from files, streams, bytes or dicts, then validating and indexing them.

Loading happens once per plan: read the bytes (at most ``max_bytes``, see ``_input``),
check the JSON syntax of all of it and the structure the schema constrains, and index the
resource changes by address. Big values are parsed when first read (see ``split``),
so a check costs the same in a plan of ten resources as in one of twenty thousand.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping
from typing import IO, Any, Final

from .._documents.plan import Plan
from .._errors import DocumentFormatError, PlanFormatError
from .jsontext import check_utf8, collector_paused, exact_numbers, loads_exact, resolve_parser
from .lazy import LazyObject, Thunk
from .source import InputTooLarge, max_input_bytes, read_limited
from .split import SplitPlan, split_fast
from .validate import VALIDATION_MODES, check_kind, plan_validator, render_violation, validate_plan

__all__ = ["PlanSource", "load_plan", "parse_plan_json", "plan_from_document", "read_source"]

PlanSource = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[str] | IO[bytes] | Mapping[str, Any]

#: Plans at least this big are split and parsed lazily; smaller ones are parsed whole (it is quicker).
LAZY_MIN_BYTES: Final = 1 << 20


def read_source(
    source: Any, error: type[DocumentFormatError], what: str, caller: str, max_bytes: int | None = None
) -> tuple[bytes | str, str | None] | Mapping[str, Any]:
    """The JSON text (bytes or str) and a name for ``source``; a Mapping is returned as it is.

    A path or a stream is read up to ``max_bytes`` (see :func:`plancheck._loading.source.max_input_bytes`):
    past it, ``error`` is raised, after reading no more than that.

    >>> read_source(b"{}", PlanFormatError, "plan", "load_plan")
    (b'{}', None)
    >>> import io
    >>> read_source(io.BytesIO(b"[" * 100), PlanFormatError, "plan", "load_plan", max_bytes=64)
    Traceback (most recent call last):
    ...
    plancheck._errors.PlanFormatError: $: expected a plan of at most 64 bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES), found more than 64 bytes
    """
    if isinstance(source, Mapping):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    limit = max_input_bytes(max_bytes)
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if not isinstance(name, str):
            name = os.fsdecode(name)
        if name == "-":
            return _read_stream(sys.stdin.buffer, limit, error, what, "<stdin>"), "<stdin>"
        try:
            with open(name, "rb") as f:
                return _read_stream(f, limit, error, what, name), name
        except OSError as exc:
            raise error("$", f"a readable {what} file", found=f"{exc.strerror or exc}", source=name) from None
    read = getattr(source, "read", None)
    if callable(read):
        stream_name = getattr(source, "name", None)
        name = stream_name if isinstance(stream_name, str) else None
        data = _read_stream(source, limit, error, what, name)
        if not isinstance(data, (bytes, bytearray, str)):
            raise TypeError(f"{caller}: read() returned {type(data).__name__}, expected bytes or str")
        return (data if isinstance(data, str) else bytes(data)), name
    raise TypeError(f"{caller} expects a path, file object, bytes or dict, got {type(source).__name__}")


def _read_stream(
    stream: Any, limit: int, error: type[DocumentFormatError], what: str, name: str | None
) -> bytes | str:
    try:
        return read_limited(stream, limit)
    except InputTooLarge as exc:
        raise error("$", exc.expected(what), found=exc.found, source=name) from None


def _check_mode(validation: str) -> None:
    if validation not in VALIDATION_MODES:
        raise ValueError(f"validation must be one of {', '.join(VALIDATION_MODES)}, got {validation!r}")


def plan_from_document(document: Any, *, source: str | None = None, validation: str = "fast") -> Plan:
    """Validate a parsed plan document (not copied, never modified) and wrap it in a Plan.

    >>> plan_from_document({"format_version": "1.0"}).format_version
    '1.0'
    """
    _check_mode(validation)
    validate_plan(document, source=source, mode=validation)
    return Plan(document, source=source)


def _plan_from_split(split: SplitPlan, source: str | None, validation: str) -> Plan:
    validator = plan_validator()
    check_kind(split.view, PlanFormatError, source)
    raw = LazyObject(split.values)
    if validation == "full":
        validate_plan(raw, source=source, mode="full")
    else:
        violation = validator.first_violation(split.view)
        if violation is not None:
            if isinstance(violation.instance, Thunk):
                # Describe the value itself (its size too), as a full parse would.
                violation = dataclasses.replace(violation, instance=violation.instance.load())
            raise render_violation(violation, split.view, validator.schema, PlanFormatError, source)
    entries = split.entries.get("resource_changes")
    if entries is None:
        return Plan(raw, source=source)
    return Plan._from_parts(raw, source, entries, split.keys["resource_changes"])


def _plan_from_bytes(box: list[bytes | str], source: str | None, validation: str, which: str) -> Plan | None:
    """Load a large plan lazily; ``box`` holds the only reference to the bytes, so they can be freed early."""
    data = box[0]
    assert isinstance(data, bytes)
    with collector_paused(), exact_numbers():
        split = None
        if which == "fast" and not data.startswith(b"\xef\xbb\xbf") and b"\x00" not in data[:4]:
            check_utf8(data, error=PlanFormatError, source=source)
            split = split_fast(data, source)
        else:
            from .parallel import split_parallel

            del data
            split = split_parallel(box, source)
        if split is None:
            return None
        return _plan_from_split(split, source, validation)


def _parse(box: list[bytes | str], source: str | None, validation: str, parser: str) -> Plan:
    _check_mode(validation)
    which = resolve_parser(parser)
    text = box[0]
    if isinstance(text, bytes) and len(text) >= LAZY_MIN_BYTES:
        del text
        plan = _plan_from_bytes(box, source, validation, which)
        if plan is not None:
            return plan
        text = box[0]
    box.clear()
    document = loads_exact(text, error=PlanFormatError, source=source, parser=which)
    del text
    return plan_from_document(document, source=source, validation=validation)


def parse_plan_json(
    text: str | bytes, *, source: str | None = None, validation: str = "fast", parser: str = "auto"
) -> Plan:
    """Parse JSON text and validate it as a plan.

    >>> parse_plan_json(b'{"format_version": "0.1"}').format_version
    '0.1'
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"Plan.from_json expects str or bytes, got {type(text).__name__}")
    return _parse([text if isinstance(text, (str, bytes)) else bytes(text)], source, validation, parser)


def load_plan(
    source: PlanSource, *, validation: str = "fast", parser: str = "auto", max_bytes: int | None = None
) -> Plan:
    """Load a plan from a path (str or PathLike; ``"-"`` is stdin), a file object, JSON bytes or a parsed dict.

    A ``str`` is always a path; use :meth:`Plan.from_json` for JSON text. ``validation``
    is ``"fast"`` (the compiled schema) or ``"full"`` (the ``jsonschema`` library; same
    verdicts, same errors, slower); ``parser`` is ``"auto"`` (msgspec when the ``fast``
    extra is installed), ``"stdlib"`` or ``"fast"``; every parser gives the same plan.
    A path or a stream is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else
    2 GiB); more is a PlanFormatError. A state is refused: use :func:`plancheck.load_state`.

    >>> load_plan(b'{"format_version": "1.2", "resource_changes": []}').format_version
    '1.2'
    """
    read = read_source(source, PlanFormatError, "plan", "load_plan", max_bytes)
    if isinstance(read, Mapping):
        return plan_from_document(read, validation=validation)
    box: list[bytes | str] = [read[0]]
    name = read[1]
    del read
    return _parse(box, name, validation, parser)
