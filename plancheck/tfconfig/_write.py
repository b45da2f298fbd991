"""Writing configuration: check a dict against Terraform's JSON configuration rules, then serialize it."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any, Final

from .._frozen import public
from .._redact import number_text
from ._convert import python_to_node
from ._errors import ConfigFormatError, Source
from ._json_reader import BOOL, NULL, NUMBER, OBJECT, STRING, Node
from ._load import config_from_node

__all__ = ["CONFIG_SUFFIXES", "dumps_config", "write_config"]

#: The file name endings Terraform (``.tf.json``) and OpenTofu (both) read as JSON configuration.
CONFIG_SUFFIXES: Final = (".tf.json", ".tofu.json")


def _number_text(value: int | float | Decimal) -> str:
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, float):
        text = repr(value)
        return text
    # str() of a finite Decimal is always a valid JSON number (1E+3, 0.0001, -0).
    return str(value)


def _dumps_node(root: Node, indent: int = 2) -> str:
    out: list[str] = []
    encode = json.JSONEncoder(ensure_ascii=False).encode
    # Stack items: a Node to write at a depth, or a literal string.
    stack: list[tuple[Node, int] | str] = [(root, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, depth = item
        kind = node.kind
        if kind == STRING:
            out.append(encode(node.value))
        elif kind == NUMBER:
            out.append(_number_text(node.value))
        elif kind == BOOL:
            out.append("true" if node.value else "false")
        elif kind == NULL:
            out.append("null")
        elif not node.value:
            out.append("{}" if kind == OBJECT else "[]")
        else:
            pad = "\n" + " " * (indent * (depth + 1))
            close = "\n" + " " * (indent * depth) + ("}" if kind == OBJECT else "]")
            out.append("{" if kind == OBJECT else "[")
            stack.append(close)
            children = node.value
            for i in range(len(children) - 1, -1, -1):
                if kind == OBJECT:
                    name, _, child = children[i]
                    stack.append((child, depth + 1))
                    stack.append(pad + encode(name) + ": ")
                else:
                    stack.append((children[i], depth + 1))
                    stack.append(pad)
                if i:
                    stack.append(",")
    return "".join(out) + "\n"


@public("plancheck.tfconfig")
def dumps_config(config: Mapping[str, Any]) -> str:
    """Check ``config`` against Terraform's JSON configuration rules and return it as JSON text.

    The checks are those of the reader (block types, label levels, bodies, Terraform's
    own arguments, templates, duplicate names) in strict mode: an unknown top-level
    property is an error. Decimal numbers are written exactly. Property order is kept.

    >>> print(dumps_config({"resource": {"terraform_data": {"web": {"input": Decimal("0.10")}}}}), end="")
    {
      "resource": {
        "terraform_data": {
          "web": {
            "input": 0.10
          }
        }
      }
    }
    >>> dumps_config({"resource": {"null_resource": "x"}})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.resource["null_resource"]: expected an object of resource names (resource "null_resource" needs 1 more label: name), found a string
    """
    if not isinstance(config, Mapping):
        raise ConfigFormatError(
            "$", "a mapping of top-level blocks", found=f"a value of type {type(config).__name__}"
        )
    root = python_to_node(config)
    config_from_node(root, Source(None, ""), strict=True)
    return _dumps_node(root)


@public("plancheck.tfconfig")
def write_config(
    config: Mapping[str, Any], directory: str | os.PathLike[str], *, filename: str = "main.tf.json"
) -> FsPath:
    """Check ``config`` (as :func:`dumps_config` does) and write it to ``directory/filename``; return the path.

    ``filename`` must end with ``.tf.json`` or ``.tofu.json`` (else Terraform would not read
    it). The directory is created if needed; the file is replaced atomically.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = write_config({"locals": {"greeting": "Hello, ${var.name}"}}, d)
    ...     path.name, path.read_text().count("greeting")
    ('main.tf.json', 1)
    """
    if (
        not isinstance(filename, str)
        or not filename.endswith(CONFIG_SUFFIXES)
        or os.sep in filename
        or (os.altsep and os.altsep in filename)
    ):
        raise ValueError(
            f"filename must be a plain file name ending with .tf.json or .tofu.json, got {filename!r}"
        )
    text = dumps_config(config)
    target_dir = FsPath(directory)
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / filename
    fd, tmp = tempfile.mkstemp(prefix="." + filename, suffix=".tmp", dir=target_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target
