"""A binary plan's JSON goes from ``plancheck._terraform.planfile.plan_json`` to each front end, which parses it once.

``terraform show -json`` is replaced here by a stand-in that prints a given JSON (the real one runs in
tests/plugin/test_plugin_binary_plan.py, tests/cli/test_cli_subprocess.py and, from another directory,
tests/e2e/test_binary_plan_anywhere_e2e.py): what is pinned is the route, the size limit on the shown JSON
in each front end's own words, where ``show`` runs (the plan file's directory, or the one named: one rule
for the command line, the plugin and ``plancheck.load_plan_file``), the error naming the directory tried
when the providers cannot be loaded there, and ``load_plan``'s words for a binary plan.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import plancheck
from plancheck import PlanFormatError, load_plan
from plancheck._plugin.cache import load_plan_file
from plancheck._terraform import planfile
from plancheck.cli._io import CliError, read_plan

ZIP = b"PK\x03\x04 a saved plan"
SHOWN = b'{"format_version": "1.2", "resource_changes": []}'
LIMIT = 40  # the zip above fits, the JSON shown for it does not
#: The loader's hint for a plan that does not even start as JSON (a zip's "PK" does not).
NOT_JSON = (
    "not JSON at all (Terraform's text output, or a configuration?): get a plan's JSON from terraform show -json "
    "PLANFILE, a state's from terraform show -json"
)


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    calls: list[tuple[str, bytes]] = []

    def show(name: str, data: bytes, **_: Any) -> bytes:
        calls.append((name, data))
        return SHOWN

    monkeypatch.setattr(planfile, "binary_plan_json", show)
    return calls


@pytest.fixture
def shown_where(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """Where each stand-in ``terraform show`` ran (``cwd``, as the real one would) and how the front end names
    another directory (``hint``)."""
    where: list[tuple[str, str | None]] = []

    def show(path: str, shown_as: str, terraform: str | None, environ: Any, cwd: str, hint: str | None) -> bytes:
        where.append((cwd, hint))
        return SHOWN

    monkeypatch.setattr(planfile, "_show", show)
    return where


def _cli(path: Path, limit: int | None) -> Any:
    return read_plan(str(path), max_bytes=limit)


def _plugin(path: Path, limit: int | None) -> Any:
    return load_plan_file(path)


FRONT_ENDS = [pytest.param(_cli, id="cli"), pytest.param(_plugin, id="plugin")]


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_binary_plan_is_shown_once_and_parsed(
    tmp_path: Path, shown: list[tuple[str, bytes]], front_end: Callable[[Path, int | None], Any]
) -> None:
    path = tmp_path / "tfplan"
    path.write_bytes(ZIP)
    plan = front_end(path, None)
    assert (plan.format_version, plan.source, shown) == ("1.2", str(path), [(str(path), ZIP)])


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_json_plan_is_not_shown(
    tmp_path: Path, shown: list[tuple[str, bytes]], front_end: Callable[[Path, int | None], Any]
) -> None:
    path = tmp_path / "plan.json"
    path.write_bytes(SHOWN)
    assert (front_end(path, None).format_version, shown) == ("1.2", [])


@pytest.mark.parametrize(
    ("front_end", "error", "message"),
    [
        pytest.param(_cli, CliError, "{path}: the plan is larger than 40 bytes (raise the limit with --max-bytes or "
                     "PLANCHECK_MAX_BYTES)", id="cli"),
        pytest.param(_plugin, PlanFormatError, "{path}: $: expected a plan of at most 40 bytes (raise the limit with "
                     "max_bytes= or PLANCHECK_MAX_BYTES), found more than 40 bytes", id="plugin"),
    ],
)
def test_the_shown_json_is_held_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shown: list[tuple[str, bytes]],
    front_end: Callable[[Path, int | None], Any], error: type[Exception], message: str,
) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", str(LIMIT))
    path = tmp_path / "tfplan"
    path.write_bytes(ZIP)
    with pytest.raises(error) as caught:
        front_end(path, LIMIT)
    assert (str(caught.value), len(shown)) == (message.format(path=path), 1)


# --- where terraform show runs (#35 point 6): one rule for every front end --------------------------------------


def _cli_chdir(path: Path, chdir: Path | None) -> Any:
    return read_plan(str(path), chdir=None if chdir is None else str(chdir))


def _plugin_chdir(path: Path, chdir: Path | None) -> Any:
    return load_plan_file(path, chdir=None if chdir is None else str(chdir))  # --tf-chdir


def _function(path: Path, chdir: Path | None) -> Any:
    return plancheck.load_plan_file(path, chdir=chdir)


@pytest.mark.parametrize(
    ("front_end", "relative", "chdir", "where", "hint"),
    [
        pytest.param(_cli_chdir, False, None, "plans", "--chdir DIR", id="cli-absolute"),
        pytest.param(_cli_chdir, True, None, "plans", "--chdir DIR", id="cli-relative"),
        pytest.param(_cli_chdir, True, "infra", "infra", "--chdir DIR", id="cli-chdir"),
        pytest.param(_plugin_chdir, False, None, "plans", "--tf-chdir DIR", id="plugin-absolute"),
        pytest.param(_plugin_chdir, True, None, "plans", "--tf-chdir DIR", id="plugin-relative"),
        pytest.param(_plugin_chdir, True, "infra", "infra", "--tf-chdir DIR", id="plugin-chdir"),
        pytest.param(_function, False, None, "plans", "chdir=", id="function-absolute"),
        pytest.param(_function, True, None, "plans", "chdir=", id="function-relative"),
        pytest.param(_function, True, "infra", "infra", "chdir=", id="function-chdir"),
    ],
)
def test_show_runs_in_the_plan_s_directory_or_the_one_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shown_where: list[tuple[str, str | None]],
    front_end: Callable[[Path, Path | None], Any], relative: bool, chdir: str | None, where: str, hint: str | None,
) -> None:
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "tfplan").write_bytes(ZIP)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    path = Path("../plans/tfplan") if relative else tmp_path / "plans" / "tfplan"
    front_end(path, None if chdir is None else Path("..", chdir))
    assert shown_where == [(str(tmp_path / where), hint)]


def test_a_binary_plan_on_the_cli_s_stdin_is_shown_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shown_where: list[tuple[str, str | None]]
) -> None:
    monkeypatch.chdir(tmp_path)
    read_plan("-", stdin=io.BytesIO(ZIP))
    assert shown_where == [(str(tmp_path), "--chdir DIR")]


_SHOW = "terraform show -no-color -json /p/tfplan"
_TF_103 = ("Error: Could not load plugin\n\nPlugin reinitialization required. Please run \"terraform init\".\n\n"
           'failed to instantiate provider "registry.terraform.io/hashicorp/null" to\nobtain schema: unknown provider')
_TF_111 = ("Error: Failed to load plugin schemas\n\nError while loading schemas for plugin components: Failed to "
           "obtain provider\nschema: Could not load the schema for provider registry.terraform.io/hashicorp/null")


@pytest.mark.parametrize(
    ("detail", "hint", "message"),
    [
        pytest.param(_TF_103, "--chdir DIR",
                     "terraform show could not load the plan's providers in /work: run `terraform init` there, or pass "
                     "--chdir DIR naming the directory of the configuration that made the plan\n"
                     f"{_SHOW} failed:\n{_TF_103}", id="tf1.0-cli"),
        pytest.param(_TF_111, "chdir=",
                     "terraform show could not load the plan's providers in /work: run `terraform init` there, or pass "
                     "chdir= naming the directory of the configuration that made the plan\n"
                     f"{_SHOW} failed:\n{_TF_111}", id="tf1.11-function"),
        pytest.param(_TF_111, None,
                     "terraform show could not load the plan's providers in /work: run `terraform init` there\n"
                     f"{_SHOW} failed:\n{_TF_111}", id="tf1.11-plugin"),
        pytest.param("Plan read error: zip: not a valid zip file", "--chdir DIR",
                     f"{_SHOW} failed:\nPlan read error: zip: not a valid zip file", id="other-failure-as-terraform-says"),
    ],
)
def test_a_show_that_cannot_load_the_providers_names_the_directory_tried(
    detail: str, hint: str | None, message: str
) -> None:
    assert planfile._failed(_SHOW, detail, "/work", hint) == message


@pytest.mark.parametrize(("data_dir", "message"), [
    # show keeps the user's TF_DATA_DIR: the providers were looked for there, and an init helps only run with it.
    pytest.param(".tfdata", "terraform show could not load the plan's providers in /work (TF_DATA_DIR: /work/.tfdata): "
                 "run `terraform init` there with the same TF_DATA_DIR, or pass --chdir DIR naming the directory of the "
                 f"configuration that made the plan\n{_SHOW} failed:\n{_TF_111}", id="relative-from-the-directory"),
    pytest.param("/ci/tfdata", "terraform show could not load the plan's providers in /work (TF_DATA_DIR: /ci/tfdata): "
                 "run `terraform init` there with the same TF_DATA_DIR, or pass --chdir DIR naming the directory of the "
                 f"configuration that made the plan\n{_SHOW} failed:\n{_TF_111}", id="absolute"),
    pytest.param("", "terraform show could not load the plan's providers in /work: run `terraform init` there, or pass "
                 "--chdir DIR naming the directory of the configuration that made the plan\n"
                 f"{_SHOW} failed:\n{_TF_111}", id="empty-is-unset"),
])
def test_a_show_that_cannot_load_the_providers_names_the_users_data_dir(data_dir: str, message: str) -> None:
    assert planfile._failed(_SHOW, _TF_111, "/work", "--chdir DIR", data_dir) == message


@pytest.mark.parametrize(
    ("source", "message"),
    [
        pytest.param("bytes", "$: expected the JSON of `terraform show -json PLANFILE`, found a binary plan (terraform "
                     "plan -out): load it with plancheck.load_plan_file, which runs terraform show -json for it",
                     id="bytes"),
        pytest.param("path", "{path}: $: expected the JSON of `terraform show -json PLANFILE`, found a binary plan "
                     "(terraform plan -out): load it with plancheck.load_plan_file, which runs terraform show -json "
                     "for it", id="path"),
        pytest.param("pathlike", "{path}: $: expected the JSON of `terraform show -json PLANFILE`, found a binary plan "
                     "(terraform plan -out): load it with plancheck.load_plan_file, which runs terraform show -json "
                     "for it", id="pathlike"),
        # A stream is read once: its error stays the loader's.
        pytest.param("stream", "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 "
                     f"(character 0); {NOT_JSON}", id="stream-as-the-loader-says"),
        pytest.param("json", "{path}: $: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 "
                     f"(character 0); {NOT_JSON}", id="not-a-zip-as-the-loader-says"),
    ],
)
def test_load_plan_on_a_binary_plan_names_load_plan_file(tmp_path: Path, source: str, message: str) -> None:
    path = tmp_path / "tfplan"
    path.write_bytes(b"PK-not-a-zip" if source == "json" else ZIP)
    given: Any = {"bytes": ZIP, "path": str(path), "pathlike": path, "stream": io.BytesIO(ZIP), "json": path}[source]
    with pytest.raises(PlanFormatError) as caught:
        load_plan(given, parser="stdlib")
    assert str(caught.value) == message.format(path=path)


def test_load_plan_file_refuses_what_is_not_a_path() -> None:
    with pytest.raises(TypeError, match=r"^load_plan_file expects a path \(str or PathLike\), got bytes$"):
        plancheck.load_plan_file(b"{}")  # type: ignore[arg-type]


def test_load_plan_file_reads_a_json_plan_without_terraform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.devnull)
    path = tmp_path / "plan.json"
    path.write_bytes(SHOWN)
    assert plancheck.load_plan_file(path).format_version == "1.2"


@pytest.mark.parametrize(
    ("chdir", "found"),
    [
        pytest.param("missing", "no such directory", id="missing"),
        pytest.param("plan.json", "not a directory", id="a-file"),
    ],
)
def test_a_directory_that_cannot_be_the_configuration_s_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chdir: str, found: str
) -> None:
    fake = tmp_path / "terraform"  # never run: the directory is looked at first
    fake.write_text("#!/bin/sh\necho '{\"terraform_version\": \"1.11.4\"}'\n", "utf-8")
    fake.chmod(0o755)
    (tmp_path / "plan.json").write_bytes(SHOWN)
    path = tmp_path / "tfplan"
    path.write_bytes(ZIP)
    with pytest.raises(PlanFormatError) as caught:
        plancheck.load_plan_file(path, terraform=fake, chdir=tmp_path / chdir)
    assert str(caught.value) == f"{path} is a binary plan; terraform show cannot run in {tmp_path / chdir}: {found}"
