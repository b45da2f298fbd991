"""The pytest plugin's options and markers, and how a document path is resolved from them.

Precedence, most specific first: the test's marker (relative to the test file), the
command-line option (relative to the directory pytest was started in), the ini option
(relative to the ini file's directory).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Final, NamedTuple

import pytest

__all__ = [
    "ALLOW_ERRORED_INI",
    "DESTROY_LEFTOVERS",
    "DOCUMENT_KINDS",
    "SWEEP_ALLOW_FAILURES",
    "SWEEP_REGIONS",
    "SWEEP_RUN",
    "DocumentOption",
    "add_sweep_options",
    "allow_errored",
    "check_sweep_options",
    "ini_bool",
    "misread_path_options",
    "resolve_document_path",
    "replaces_tests",
    "show_sensitive",
    "terraform_binary",
]


class DocumentOption(NamedTuple):
    """One kind of document a fixture loads: its marker, ini key and ``getoption`` name are its ``name``.

    A record of the plugin's own, not a value users meet: a tuple, because every pytest session defines it,
    and making a frozen dataclass (the values' idiom, :mod:`plancheck._frozen`) costs a plain session more
    than the rest of this module.

    >>> PLAN.name, PLAN.option
    ('tf_plan', '--tf-plan')
    """

    name: str
    noun: str
    #: What the file may be, for the help texts.
    files: str = "JSON file"

    @property
    def option(self) -> str:
        """The command-line option, e.g. ``--tf-plan``."""
        return "--" + self.name.replace("_", "-")


PLAN: Final = DocumentOption("tf_plan", "plan", "file (JSON, or a binary plan from terraform plan -out)")
STATE: Final = DocumentOption("tf_state", "state")
DOCUMENT_KINDS: Final = (PLAN, STATE)

SHOW_SENSITIVE_INI: Final = "tf_show_sensitive"
ALLOW_ERRORED_INI: Final = "tf_allow_errored"
TERRAFORM_INI: Final = "tf_terraform"
CHDIR_INI: Final = "tf_chdir"
TF_ACC_GATE_INI: Final = "tf_acc_gate"
_FALSE_WORDS: Final = frozenset({"", "0", "false", "no", "off"})


def add_options(parser: pytest.Parser) -> None:
    """Register the command-line options and their ini counterparts."""
    group = parser.getgroup("plancheck", "plancheck (Terraform plan and state assertions)")
    for kind in DOCUMENT_KINDS:
        group.addoption(
            kind.option,
            dest=kind.name,
            metavar="PATH",
            default=None,
            help=f"default {kind.noun} {kind.files} for the {kind.name} fixture "
            f"(a @pytest.mark.{kind.name} marker takes precedence). Ini: {kind.name}.",
        )
        parser.addini(
            kind.name,
            help=f"default {kind.noun} {kind.files} for the {kind.name} fixture, relative to the ini file",
            type="string",
            default="",
        )
    group.addoption(
        "--tf-show-sensitive",
        dest=SHOW_SENSITIVE_INI,
        action="store_true",
        default=None,
        help="show sensitive values in failure output, for local debugging only "
        f"(ignored, with a warning, when the CI environment variable is set). Ini: {SHOW_SENSITIVE_INI}.",
    )
    parser.addini(
        SHOW_SENSITIVE_INI,
        help="show sensitive values in failure output (local debugging only; ignored under CI)",
        type="bool",
        default=False,
    )
    group.addoption(
        "--terraform",
        dest=TERRAFORM_INI,
        metavar="PATH",
        default=None,
        help=f"terraform (or tofu) binary for the tf_acceptance fixture and binary plan files. Ini: {TERRAFORM_INI}.",
    )
    parser.addini(
        TERRAFORM_INI,
        help="terraform (or tofu) binary for the tf_acceptance fixture and binary plan files",
        type="string",
        default="",
    )
    group.addoption(
        "--tf-chdir",
        dest=CHDIR_INI,
        metavar="DIR",
        default=None,
        help="where terraform show reads a binary plan's providers: the directory of the configuration that made "
        f"it (default: the plan file's directory), as tfplancheck --chdir. Ini: {CHDIR_INI}, relative to the ini file.",
    )
    parser.addini(
        CHDIR_INI,
        help="where terraform show reads a binary plan's providers (default: the plan file's directory)",
        type="string",
        default="",
    )
    group.addoption(
        "--tf-allow-errored",
        dest=ALLOW_ERRORED_INI,
        action="store_true",
        default=None,
        help='let the tf_plan fixture read a plan Terraform wrote although planning failed ("errored": true; '
        f"refused by default): it is partial, and every failure says so. Ini: {ALLOW_ERRORED_INI}.",
    )
    parser.addini(
        ALLOW_ERRORED_INI,
        help='let the tf_plan fixture read a plan whose planning failed ("errored": true); refused by default',
        type="bool",
        default=False,
    )
    group.addoption(
        "--no-tf-acc-gate",
        dest=TF_ACC_GATE_INI,
        action="store_false",
        default=None,
        help="run acceptance tests even when TF_ACC is not set (the session sets TF_ACC=1). "
        f"Ini: {TF_ACC_GATE_INI} = false.",
    )
    parser.addini(
        TF_ACC_GATE_INI,
        help="acceptance tests are skipped unless TF_ACC is set (true, the default, as Go); false runs them",
        type="bool",
        default=True,
    )
    _add_coverage_options(group)


def _percent(text: str) -> float:
    """``--tf-cov-fail-under``'s type: the coverage report's own reading of a minimum, imported when one is given."""
    from .coverage.report import percent_argument

    return percent_argument(text)


def _add_coverage_options(group: pytest.OptionGroup) -> None:
    """``--tf-cov`` and its reports (``plancheck/_plugin/coverage.py``, registered only with ``--tf-cov``)."""
    group.addoption("--tf-cov", action="store_true", default=False, dest="tf_cov",
                    help="measure which declared items of each Terraform module the tests planned, asserted and "
                    "drove both ways (conditions)")
    group.addoption("--tf-cov-report", action="append", default=None, dest="tf_cov_report", metavar="TYPE",
                    help="Terraform coverage report: term (default), json:PATH or html:DIR; may be repeated")
    group.addoption("--tf-cov-fail-under", type=_percent, default=None, dest="tf_cov_fail_under", metavar="PERCENT",
                    help="fail the session when the total Terraform coverage is under PERCENT")
    group.addoption("--tf-cov-data", default=None, dest="tf_cov_data", metavar="PATH",
                    help="write the Terraform coverage data to PATH (merge shards: tfplancheck coverage combine)")


def add_markers(config: pytest.Config) -> None:
    """Register the markers, so ``--strict-markers`` accepts them."""
    for kind in DOCUMENT_KINDS:
        config.addinivalue_line(
            "markers",
            f"{kind.name}(path): the {kind.noun} {kind.files} for the {kind.name} fixture, "
            "relative to the test file",
        )
    config.addinivalue_line(
        "markers",
        "tf_config(path, flavor=None, strict=False): the Terraform or OpenTofu configuration (.tf.json/.tofu.json file "
        "or directory) for the tf_config fixture, relative to the test file; without a flavor, one holding a .tofu or "
        ".tofu.json file is read as OpenTofu reads it",
    )


def _ini_dir(config: pytest.Config) -> Path:
    return config.inipath.parent if config.inipath is not None else config.rootpath


def _marker_path(node: pytest.Item, marker_name: str) -> Path | None:
    marker = node.get_closest_marker(marker_name)
    if marker is None:
        return None
    if len(marker.args) != 1 or marker.kwargs or not isinstance(marker.args[0], (str, os.PathLike)):
        pytest.fail(
            f"@pytest.mark.{marker_name} takes exactly one path (str or os.PathLike), "
            f"got args={marker.args!r} kwargs={marker.kwargs!r}",
            pytrace=False,
        )
    return Path(os.fspath(marker.args[0]))


def resolve_document_path(node: pytest.Item, kind: DocumentOption) -> tuple[Path, str] | None:
    """The document path for ``node`` and where it came from (marker, option or ini), or None.

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(getoption=lambda name, default=None: "plans/cli.json", getini=lambda name: "",
    ...     invocation_params=SimpleNamespace(dir=Path("/srv")), inipath=None, rootpath=Path("/srv"))
    >>> node = SimpleNamespace(config=config, path=Path("/srv/tests/test_a.py"), get_closest_marker=lambda name: None)
    >>> path, origin = resolve_document_path(node, PLAN)
    >>> path.as_posix(), origin
    ('/srv/plans/cli.json', '--tf-plan')
    """
    config = node.config
    from_marker = _marker_path(node, kind.name)
    if from_marker is not None:
        return _resolved(node.path.parent / from_marker), f"@pytest.mark.{kind.name}"
    cli = config.getoption(kind.name, None)
    if cli:
        return _resolved(config.invocation_params.dir / os.fspath(cli)), kind.option
    ini = config.getini(kind.name)
    if isinstance(ini, str) and ini.strip():
        return _resolved(_ini_dir(config) / ini.strip()), f"ini option {kind.name}"
    return None


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except ValueError:
        # A name no system call takes (a NUL byte, a lone surrogate): the loader refuses it with its own message.
        return path


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in _FALSE_WORDS


def show_sensitive(config: pytest.Config) -> tuple[bool, str | None]:
    """Whether failure output may reveal sensitive values, and a warning when the request is refused.

    Revealing needs ``--tf-show-sensitive`` (or the ini key) and no ``CI`` environment variable.

    >>> _in_ci() == (os.environ.get("CI", "").strip().lower() not in _FALSE_WORDS)
    True
    """
    asked = _switch(config, SHOW_SENSITIVE_INI)
    if asked and _in_ci():
        return False, (
            "plancheck: --tf-show-sensitive is ignored because the CI environment variable is set; "
            "sensitive values stay redacted"
        )
    return asked, None


def terraform_binary(config: pytest.Config) -> str | None:
    """The terraform binary asked for with ``--terraform`` or the ``tf_terraform`` ini key, or None.

    >>> TERRAFORM_INI
    'tf_terraform'
    """
    cli = config.getoption(TERRAFORM_INI, None)
    if isinstance(cli, str) and cli:
        return cli
    ini = config.getini(TERRAFORM_INI)
    if isinstance(ini, str) and ini.strip():
        value = ini.strip()
        # A bare name ("tofu") is looked up on PATH; anything with a separator is a path from the ini file.
        if os.sep in value or (os.altsep and os.altsep in value):
            return str((_ini_dir(config) / value).resolve())
        return value
    return None


def show_chdir(config: pytest.Config) -> str | None:
    """Where binary plans are shown: ``--tf-chdir`` (from where pytest runs) or the ``tf_chdir`` ini key (from the
    ini file's directory), as an absolute path; None: each plan file's directory.

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(getoption=lambda name, default=None: "infra/app", getini=lambda name: "",
    ...     invocation_params=SimpleNamespace(dir=Path("/srv")), inipath=None, rootpath=Path("/srv"))
    >>> Path(show_chdir(config)).as_posix()
    '/srv/infra/app'
    """
    cli = config.getoption(CHDIR_INI, None)
    if isinstance(cli, str) and cli:
        return str((config.invocation_params.dir / cli).resolve())
    ini = config.getini(CHDIR_INI)
    if isinstance(ini, str) and ini.strip():
        return str((_ini_dir(config) / ini.strip()).resolve())
    return None


def allow_errored(config: pytest.Config) -> bool:
    """Whether the plugin reads errored plans: ``--tf-allow-errored`` or the ``tf_allow_errored`` ini key.

    >>> ALLOW_ERRORED_INI
    'tf_allow_errored'
    """
    return _switch(config, ALLOW_ERRORED_INI)


def tf_acc_gate(config: pytest.Config) -> bool:
    """Whether acceptance tests need ``TF_ACC`` (``--no-tf-acc-gate`` or ``tf_acc_gate = false`` turn that off).

    >>> TF_ACC_GATE_INI
    'tf_acc_gate'
    """
    return _switch(config, TF_ACC_GATE_INI)


def _switch(config: pytest.Config, name: str) -> bool:
    """A switch's value: its command-line option where given (both share ``name``), else its bool ini key.

    >>> from types import SimpleNamespace
    >>> _switch(SimpleNamespace(getoption=lambda name, default: False, getini=lambda name: True), "tf_acc_gate")
    False
    """
    cli = config.getoption(name, None)
    if cli is not None:
        return bool(cli)
    return ini_bool(config, name)


def ini_bool(config: pytest.Config, name: str) -> bool:
    """A bool ini key's value; a value that is no truth value is a usage error naming the key.

    >>> import pytest
    >>> from types import SimpleNamespace
    >>> def getini(name):
    ...     raise ValueError("invalid truth value 'maybe'")
    >>> try:
    ...     ini_bool(SimpleNamespace(getini=getini), "tf_show_sensitive")
    ... except pytest.UsageError as exc:
    ...     print(exc)
    ini option tf_show_sensitive: invalid truth value 'maybe' (expected true or false)
    """
    try:
        return bool(config.getini(name))
    except (ValueError, pytest.UsageError) as exc:  # pytest's own says the value, not the key
        raise pytest.UsageError(f"ini option {name}: {exc} (expected true or false)") from None


# -- --tf-sweep and --tf-destroy-leftovers (run by sweep.py, imported only when one is given) -------------

#: The options whose value is a path. pytest knows no plugin's option yet when it chooses its rootdir and
#: configuration file, so it takes a value written apart from its option (``--terraform /usr/bin/terraform``) for
#: a test path there (pytest-dev/pytest#8846): one outside the directory pytest runs in can move both away from the
#: project (``pytest --terraform /usr/bin/terraform`` ran with rootdir /usr/bin and without the project's ini file:
#: ``tf_acc_gate``, ``testpaths``, ... silently unread; coverage named modules from /usr/bin).
_PATH_OPTIONS: Final = (*(kind.option for kind in DOCUMENT_KINDS), "--terraform", "--tf-chdir", "--tf-cov-data")


def misread_path_options(config: pytest.Config) -> str | None:
    """A warning when a path option's value, written apart and outside the directory pytest runs in, misled pytest:
    its rootdir holds that path (with the project's ini file found from a test path, it does not).

    >>> from types import SimpleNamespace
    >>> here = Path(os.getcwd())
    >>> def config(*args): return SimpleNamespace(invocation_params=SimpleNamespace(args=args, dir=here),
    ...     rootpath=Path(os.sep), inipath=None)
    >>> print(misread_path_options(config("--terraform", os.sep, "tests")))  # doctest: +ELLIPSIS
    plancheck: pytest read --terraform's path (/) as a test path when it chose its rootdir (/) and configuration file (none): write --terraform=/ ...
    >>> misread_path_options(config(f"--terraform={os.sep}")) is None
    True
    >>> misread_path_options(config("--terraform", "/nonexistent/terraform")) is None  # pytest read no such path
    True
    """
    args = [str(arg) for arg in config.invocation_params.args]
    here = config.invocation_params.dir.resolve()
    for option, value in itertools.pairwise(args):
        path = (config.invocation_params.dir / value).resolve()
        if (option in _PATH_OPTIONS and path.exists() and not path.is_relative_to(here)
                and path.is_relative_to(config.rootpath.resolve())):
            return (f"plancheck: pytest read {option}'s path ({value}) as a test path when it chose its rootdir "
                    f"({config.rootpath}) and configuration file ({config.inipath or 'none'}): write {option}={value} "
                    "(with '=', as pytest reads a plugin's option only later), or the setting in the configuration file")
    return None


SWEEP_REGIONS: Final = "tf_sweep"
SWEEP_RUN: Final = "tf_sweep_run"
SWEEP_ALLOW_FAILURES: Final = "tf_sweep_allow_failures"
DESTROY_LEFTOVERS: Final = "tf_destroy_leftovers"


def add_sweep_options(group: pytest.OptionGroup) -> None:
    """``--tf-sweep``, ``--tf-sweep-run`` and ``--tf-sweep-allow-failures``."""
    group.addoption(
        "--tf-sweep", dest=SWEEP_REGIONS, metavar="REGIONS", default=None,
        help="run the registered sweepers (plancheck.acceptance.AddTestSweepers) in these comma-separated "
        "regions instead of the tests (Go's -sweep). Destructive: test environments only.",
    )
    group.addoption(
        "--tf-sweep-run", dest=SWEEP_RUN, metavar="NAMES", default=None,
        help="with --tf-sweep: only the sweepers whose names contain one of these comma-separated words "
        "(and their dependencies) (Go's -sweep-run)",
    )
    group.addoption(
        "--tf-sweep-allow-failures", dest=SWEEP_ALLOW_FAILURES, action="store_true", default=False,
        help="with --tf-sweep: go on after a sweeper fails (Go's -sweep-allow-failures)",
    )
    group.addoption(
        "--tf-destroy-leftovers", dest=DESTROY_LEFTOVERS, action="store_true", default=False,
        help="instead of the tests, destroy what acceptance cases whose destroy failed left in "
        ".tfplancheck/leftovers ($TFPLANCHECK_LEFTOVERS_DIR), serving their providers under test",
    )


def check_sweep_options(config: pytest.Config) -> None:
    """Refuse option combinations that cannot work, before anything runs."""
    regions = config.getoption(SWEEP_REGIONS)
    if config.getoption(DESTROY_LEFTOVERS):
        if regions is not None:
            raise pytest.UsageError("--tf-destroy-leftovers and --tf-sweep: give one at a time")
        if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
            raise pytest.UsageError("--tf-destroy-leftovers runs in one process: leave out pytest-xdist's -n")
    if regions is None:
        if config.getoption(SWEEP_RUN) is not None or config.getoption(SWEEP_ALLOW_FAILURES):
            raise pytest.UsageError("--tf-sweep-run and --tf-sweep-allow-failures need --tf-sweep=REGIONS")
        return
    if not [r for r in regions.split(",") if r.strip()]:
        raise pytest.UsageError("--tf-sweep needs at least one region, e.g. --tf-sweep=us-east-1,eu-west-1")
    if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
        raise pytest.UsageError("--tf-sweep runs in one process: leave out pytest-xdist's -n")


def replaces_tests(config: pytest.Config) -> bool:
    """Whether the session sweeps (``--tf-sweep``) or destroys leftovers instead of running its tests."""
    return config.getoption(SWEEP_REGIONS) is not None or bool(config.getoption(DESTROY_LEFTOVERS))
