"""Loading configuration: one file, a module directory (Terraform or OpenTofu rules), text, or a dict."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path as FsPath
from typing import Any, Final, Literal

from .._frozen import public
from .._loading.source import InputTooLarge, max_input_bytes, read_limited
from ._blocks import check_unique, decode_document
from ._convert import python_to_node
from ._errors import ConfigFormatError, Source
from ._json_reader import Node, parse_json
from ._merge import merge_overrides
from ._model import Block, Config, IgnoredProperty

__all__ = ["Flavor", "config_from_dict", "config_from_node", "is_ignored_file", "load_config", "parse_config"]

Flavor = Literal["terraform", "opentofu"]
_FLAVORS: Final = ("terraform", "opentofu")


def config_from_node(root: Node, source: Source, *, strict: bool, override: bool = False) -> Config:
    """Decode one parsed document into a Config (checking for duplicate definitions)."""
    blocks, ignored = decode_document(root, source, strict=strict, override=override)
    if not override:
        check_unique(blocks)
    return Config(blocks, files=(source.name,) if source.name else (), ignored=ignored)


def _decode_text(data: str | bytes, name: str | None) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        source = Source(name, good)
        line, column = source.line_column(len(good))
        raise ConfigFormatError(
            "$",
            "UTF-8 text",
            found=f"the byte 0x{data[exc.start]:02x}",
            source=name,
            line=line,
            column=column,
        ) from None


@public("plancheck.tfconfig")
def parse_config(
    text: str | bytes, *, filename: str | None = None, strict: bool = False, override: bool = False
) -> Config:
    """Read one JSON configuration document from text (``filename`` only names it in errors).

    With ``strict=False`` unknown top-level properties (legacy ``atlas`` blocks, generic
    HCL JSON) are kept aside in ``Config.ignored``; with ``strict=True`` they are errors,
    as in Terraform. ``override=True`` reads the text as an override file: its blocks need
    no required argument (an output without ``value``) and may repeat each other.

    >>> cfg = parse_config('{"//": "generated", "output": {"id": {"value": "${terraform_data.a.id}"}}}')
    >>> cfg.output("id").references()[0].subject
    'terraform_data.a'
    >>> parse_config('{"output": {"id": {"sensitive": true}}}', override=True).output("id").body
    {'sensitive': True}
    >>> parse_config('{"resource": {"aws_instance": "web"}}', filename="main.tf.json")
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: main.tf.json:1:31: $.resource["aws_instance"]: expected an object of resource names (resource "aws_instance" needs 1 more label: name), found a string
    """
    decoded = _decode_text(text, filename)
    source = Source(filename, decoded)
    return config_from_node(parse_json(decoded, source), source, strict=strict, override=override)


@public("plancheck.tfconfig")
def config_from_dict(config: Mapping[str, Any] | Sequence[Mapping[str, Any]], *, strict: bool = True) -> Config:
    """Read a configuration given as a Python mapping (what a generator is about to write), or as a list
    of mappings (the top-level JSON array Terraform also reads).

    Strict by default: an unknown top-level property is an error. Error locations are
    JSON locations such as ``$.resource["null_resource"]``.

    >>> sorted(config_from_dict([{"variable": {"x": {}}}, {"variable": {"y": {}}}]).variables)
    ['x', 'y']

    >>> config_from_dict({"resource": {"null_resource": {"a": {"depends_on": "x"}}}})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.resource["null_resource"]["a"]["depends_on"]: expected an array of references such as "aws_instance.web", found a string
    """
    if not isinstance(config, (Mapping, list, tuple)):
        raise ConfigFormatError(
            "$", "a mapping of top-level blocks (or a list of them)", found=f"a value of type {type(config).__name__}"
        )
    return config_from_node(python_to_node(config), Source(None, ""), strict=strict)


def _is_override(name: str, suffix: str) -> bool:
    stem = name[: -len(suffix)]
    return stem == "override" or stem.endswith("_override")


def _suffix(name: str) -> str | None:
    for suffix in (".tf.json", ".tofu.json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return suffix
    return None


def _read_file(path: FsPath, limit: int) -> bytes:
    """A configuration file's bytes, at most ``limit`` of them (see :mod:`plancheck._loading.source`)."""
    try:
        with path.open("rb") as f:
            data = read_limited(f, limit)
    except OSError as exc:
        raise ConfigFormatError(
            "$", "a readable file", found=f"{type(exc).__name__}: {exc.strerror}", source=str(path)
        ) from None
    except InputTooLarge as exc:
        raise ConfigFormatError("$", exc.expected("configuration file"), found=exc.found, source=str(path)) from None
    assert isinstance(data, bytes)
    return data


@public("plancheck.tfconfig")
def load_config(
    path: str | os.PathLike[str],
    *,
    flavor: Flavor = "terraform",
    strict: bool = False,
    max_bytes: int | None = None,
    merge_overrides: bool = True,
) -> Config:
    """Read one configuration file, or every JSON configuration file of a module directory.

    A directory is read as the chosen tool reads it, files in lexical order:

    * ``flavor="terraform"``: every ``*.tf.json``; ``*.tofu.json`` files are not read.
    * ``flavor="opentofu"``: ``*.tf.json`` and ``*.tofu.json``; when ``foo.tofu.json`` and
      ``foo.tf.json`` both exist, only ``foo.tofu.json`` is read.
    * Both skip hidden files (``.x.tf.json``) and editor leftovers (``x.tf.json~``, ``#x.tf.json#``),
      as Terraform and OpenTofu do; they are listed in ``Config.skipped_files``.

    Override files (``override.tf.json``, ``*_override.tf.json``; also ``*.tofu.json`` ones
    for OpenTofu) are merged into the blocks of the other files by Terraform's rules, in
    lexical order: ``Config.blocks`` and every accessor show what Terraform uses. The blocks
    as written stay reachable: ``Config.primary_blocks`` (the other files) and
    ``Config.overrides`` (the override files); ``merge_overrides=False`` makes ``blocks`` the
    unmerged primary blocks. An override with no block to merge into is an error, as in
    Terraform. Native-syntax files (``*.tf``, ``*.tofu``) and shadowed files are listed in
    ``Config.skipped_files``. Definitions repeated across primary files (two
    ``resource "a" "b"``, two ``variable "x"``...) are errors, as in Terraform.
    Each file is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else 2 GiB);
    a larger one is a ConfigFormatError.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "a.tf.json").write_text('{"variable": {"x": {}}}')
    ...     _ = pathlib.Path(d, "a.tofu.json").write_text('{"variable": {"y": {}}}')
    ...     sorted(load_config(d).variables), sorted(load_config(d, flavor="opentofu").variables)
    (['x'], ['y'])
    """
    if flavor not in _FLAVORS:
        raise ValueError(f"flavor must be 'terraform' or 'opentofu', got {flavor!r}")
    limit = max_input_bytes(max_bytes)
    target = FsPath(path)
    if target.is_dir():
        return _load_directory(target, flavor, strict, limit, merge_overrides)
    data = _read_file(target, limit)
    decoded = _decode_text(data, str(target))
    source = Source(str(target), decoded)
    return config_from_node(parse_json(decoded, source), source, strict=strict)


def is_ignored_file(name: str) -> bool:
    """Whether Terraform (and OpenTofu) skip this file of a module directory: hidden files and editor leftovers.

    >>> [is_ignored_file(n) for n in (".main.tf.json", "main.tf.json~", "#main.tf.json#", "main.tf.json")]
    [True, True, True, False]
    """
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def _load_directory(directory: FsPath, flavor: Flavor, strict: bool, limit: int, merge: bool) -> Config:
    suffixes = (".tf.json", ".tofu.json") if flavor == "opentofu" else (".tf.json",)
    names = sorted(entry.name for entry in directory.iterdir() if entry.is_file())
    chosen: list[tuple[str, str]] = []
    skipped: list[str] = []
    for name in names:
        if is_ignored_file(name):
            skipped.append(str(directory / name))
            continue
        suffix = _suffix(name)
        if suffix is None:
            if name.endswith((".tf", ".tofu")):
                skipped.append(str(directory / name))
            continue
        if suffix not in suffixes:
            skipped.append(str(directory / name))
            continue
        if suffix == ".tf.json" and flavor == "opentofu" and name[: -len(suffix)] + ".tofu.json" in names:
            skipped.append(str(directory / name))
            continue
        chosen.append((name, suffix))
    blocks: list[Block] = []
    overrides: list[Block] = []
    ignored: list[IgnoredProperty] = []
    files: list[str] = []
    for name, suffix in chosen:
        file_path = directory / name
        data = _read_file(file_path, limit)
        decoded = _decode_text(data, str(file_path))
        source = Source(str(file_path), decoded)
        is_override = _is_override(name, suffix)
        file_blocks, file_ignored = decode_document(
            parse_json(decoded, source), source, strict=strict, override=is_override
        )
        (overrides if is_override else blocks).extend(file_blocks)
        ignored.extend(file_ignored)
        files.append(str(file_path))
    check_unique(blocks)
    merged = merge_overrides(blocks, overrides) if merge else blocks
    return Config(
        merged, files=files, ignored=ignored, overrides=overrides, skipped_files=skipped, primary_blocks=blocks
    )
