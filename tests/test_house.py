"""#34's figures of the house (tools/house.py) are computed, and the ratchets that may only shrink hold.

The goals themselves (150 modules, 60 and 85 functions on a failing check's route, 40 duplicated
pairs) are reached by other work and only printed by ``make bench``; what is pinned here is that no
figure grows: no more modules and no more pairs of duplicated blocks than today, no new ``_x.py``
inside a private package, no new module over 600 code lines, no hand-written wire code, and no
function above mccabe complexity 15 that was not there when ruff's C901 came in. The allow-lists are explicit sets: delete an entry when its
module is renamed or shortened.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from tools import house

ROOT = Path(__file__).resolve().parents[1]

#: The modules in plancheck/ + tfjsonpath/ when the figure came in: the count may only go down.
#: (132: plancheck/cli/_waivers.py, #35's waivers: the checks-file reader needs them and is at 588 of 600 lines.)
#: (133: plancheck/cli/_query.py, what `query` prints, split from _output.py: at 599 of 600 lines, the report
#: formats (#35) left no room for the Markdown summary's cap.)
#: (139: plancheck/_plugin/coverage/, #36's pytest --tf-cov: its scan, data, reports, HTML report and session hooks.)
#: (140: plancheck/cli/_many.py, #35's many plans per run: the workers' side, split from _output.py, the formats.)
#: (143: _output.py, at 594 of 600 lines with every format, split by concept so each plan part's maker and its scrub
#: live together: _runs.py a checked plan as the reports read it, _text_report.py, _report_formats.py the CI's formats.)
#: (144: plancheck/_loading/lifecycle.py, the process lifecycle moved down from _terraform/lifecycle.py so the
#: loader's helper process follows it too (#33); _terraform/lifecycle.py keeps the worker processes.)
#: (146: the code of two private packages' __init__ moved to modules named for it, _terraform/binary.py and
#: _terraform/providers/planning.py: a private package's __init__ is only its docstring, #34's export rule.)
#: (147: _terraform/locate.py, finding the binary without running it, split from binary.py so a plain pytest
#: session's header and TF_ACC gate import neither the runner nor the base modules under it, #26.)
#: (148: _loading/location.py, a problem's JSON location with its secret keys hidden, split from validate.py,
#: which was at 600 code lines, when the validator learned ``minimum`` (a query result count, #34).)
#: (149: _loading/delivery.py, the signal scopes' state and the deferral of a caught signal's delivery, split from
#: _loading/lifecycle.py so that a plain pytest session imports neither the lifecycle nor tfjsonpath's errors, #34.)
#: (150: _plugin/frames.py, withholding the arguments and locals pytest shows of plancheck's frames in a failure
#: (a document that failed to load leaked through them), imported only with a failure drawn frame by frame: in
#: hooks.py, which every pytest session loads through the assertion rewriter, its 140 lines cost every session.)
MODULES_TODAY = 150

#: Pairs of files in plancheck/ sharing a block of six or more lines alike (tools/house.py): may only go down.
#: (65 on the waivers branch; 47 after #34's shared concepts: check_fields and checked_instance, the
#: plugin's one switch, the query lengths' one total check, json_nodes/fold_nodes, raw_members; 48 when the
#: value checks' one failures method met ExpectResourceAction's: both find the resource or fail, alike in shape;
#: 50 with #37's action checks: values.py's ``__all__`` lists the names plancheck's does, and the action
#: matcher check names its four checkers to check_fields as ExpectKnownValue's fields do; 51 with #36's
#: coverage: the CLI's parser list (``add_X_parser(commands, streams)``) is alike in shape to
#: ResolvedValue's fast constructor (``_set_X(obj, X)``); 50 when that constructor also derives unknown,
#: sensitive and partly_unknown: its block no longer reads like the parser list.)
#: (40 after #34's shared concepts, part 2: the plan entries' base, typed optional-text reads of plan, query and
#: leftover fields, TestCheck*'s one _attr_check, the echo provider's one type refusal, knownvalue's expect_arg,
#: statecheck's one "not in state", snapshot's JSON_LITERALS, NumberExact a ValueCheck, StringRegexp's one
#: pattern; then split.exact_raw parses through loads_exact, whose fast route it copied; ExpectResourceAction
#: builds its one failure in one place, no longer alike to the value checks' failures; 36 with the rendered
#: documents' scrub helpers beside their users; 35 when State(raw) refused a cycle as Plan(raw) does and its loaders
#: skipped that walk: state.py's constructor no longer reads like query.py's; 36 when load_query and
#: QueryOutput.from_json took allow_errored as load_plan and Plan.from_json do: the same public keywords in the
#: same order, which only a shared **options signature would fold; the lead's call, see query21's report.)
DUPLICATE_PAIRS_TODAY = 36

#: The distinct library functions a failing check passes through (tools/house.py's routes), measured in a
#: process of their own as ``make bench`` prints them (this session's plancheck plugin hears every plan made):
#: through ``load_plan`` + ``assert_plan``, and through the CLI. Lower them as the routes shorten.
#: (110 / 184 on the routes branch; 111 / 185 with check_fields, which names each field's checker once;
#: 112 / 186 with #37: a plan's secrets include its action invocations' sensitive configuration; the CLI's
#: 189 with #35's many plans: each plan is read and checked in a scope of its own, then judged and reported;
#: #34's route cuts (this session's branches): the CLI's keys and types resolved once in the registry, no
#: waiver/baseline judging a run without; a plan's secrets in one walk, a scan's spans filtered once and only
#: when found; no label, listing or warning hop when nothing needs one; Path.steps and Plan's envelope read
#: once, ResolvedValue derives unknown/sensitive/partly_unknown once, a plan tells met only when one listens;
#: the CLI works only the case that needs it (reports, colour, version), one rule scrubs data onto a line, a
#: signal scope with no one-caller helpers; validation asks the compiled test alone, one collector pause; a
#: run's verdict counted once, a flag's type looked up, the runner given the checks, no delivery without a
#: signal; plan checks call scrubbed_failure as state checks do, a string is asked for a secret before it is
#: spelled, partly_unknown walks only marks that exist; a path's key checked once, by its step, Path.parse
#: reads the text itself, the address index a dict looked up with its own get, each loader sets up its plan; a failure no longer
#: collects its document's secrets just to count them; _in_main_thread back (four callers had written its test
#: out); a flag builds its check from the flag table, without the checks file's registry; one bounded read_bytes
#: for load_plan and the CLI, whose bytes become a plan by load_plan's own step, the value checks read the raw
#: change from the index, one walk of the marks, resolve_value packs its result in one place;
#: 119 for the CLI with reports_clash asked on every run, which answers None without reports itself: the
#: caller's guard only kept _run_checks under mccabe 15 and off the route, a count trick the review caught; trust is
#: paid only on a hit: a failure whose texts show no secret is built unscrubbed, its trusted texts made when an
#: exit's scrub asks; a plan's (value, marks) pairs gathered from a table of where it holds them, in one loop;
#: 71 / 118 with Plan._from_loaded back (three loaders had copied its three lines; State's loaders have theirs) and
#: _replaced answering an empty list itself again (its two callers had each guarded it); 72 / 119 with validate
#: asking first_violation, which is the quick test then the walk, instead of writing that pair out again;
#: 71 / 118 with resolve_value reading a raw change's side itself (side=), resolve_after's one-line hop gone;
#: 70 / 117 with render_known asking rendered(), not the public render_value that only forwards to it;
#: 116 for the CLI with the streams' secrets one Secrets.union of the documents heard, not len and | per document;
#: 69 / 115 with Plan.secrets the one lazy point: it walks the plan once into a Secrets holding its strings, so
#: Secrets._strings, the second layer of laziness, went; 68 / 114 with the walk of a lazily read document the
#: plain walk again (fail closed), not a second function choosing how to read it; 69 / 115 with rendered() spelling a
#: string by _scalar again, whose rule an inline json.dumps had copied only to keep _scalar off the route; 116 for
#: the CLI with run_each's record scrub asking secrets_of, not an inline copy of it; 70 / 117 with every check's
#: failures guarded against a document of the wrong kind (a typed error, not an AttributeError): outcome asks the
#: guarded failures, not the method as written, which would check the document once but only to stay off the count;
#: 116 for the CLI with a JSON plan read as it is: only a binary plan, told by its first bytes, goes to
#: _terraform.planfile.plan_json, which no longer calls back down to the loader's is_saved_plan to return it; 69 / 115
#: with checked_address(optional=True) the one checker of an optional address: checked_deposed and the action checks'
#: triggered_by were each a copy of it (their names stay, as partials of it for check_fields); 68 / 114 with Plan._setup
#: returning the plan it set up: each loader makes a new plan and sets it up in one step, and _from_loaded, which only
#: did that pair, went; 67 / 113 with first_violation asking the quick test itself: a valid document is decided by it
#: alone, one deeper than its closures reach is walked once (it was walked twice), and is_valid is first_violation(...)
#: is None; 67 / 112 with the CLI's records scrubbed at its exits only (#33's one scrub at each exit): the CLI's runner
#: no longer scrubs each record with the plan's secrets before the report, the stream and each document scrub it again;
#: 68 / 114 with two promises kept that a red team found broken: a secret that is a JSON object's or array's text is
#: scrubbed as its members too (_redact._with_json_members: Terraform's plan shows each member on a line of its own),
#: and the console script's plancheck.cli.main loads the command inside its own boundary, so a Ctrl-C while the
#: command loads is status 130, not a traceback; the lifecycle's _in_main_thread moved to _loading/delivery.py;
#: 67 / 114 with Secrets._spans one mode, every span a scrub replaces: touches, its only first-span caller, asks the
#: scanner for the first span itself, so _spans no longer carries a flag for it; the CLI's own part 55 -> 50: the
#: text report is Rendered as every other format, its writer's scrub its one (the stream no longer scrubs it again
#: with the union of every secret heard), plancheck.cli.main is the console script whole (_command.command, half of
#: it, went), and _max_bytes, which turned the loader's error into one its callers turned into a usage error, went;
#: 69 / 111 with a document's secrets collected and kept by a DocumentSecrets the document's entries hold in place of
#: the document (its __init__ and its secrets on the route): a plan or state referred to by the entries it keeps was
#: cyclic garbage when dropped, left to the cyclic collector, whose collections walked every parsed document alive;
#: 110 for the CLI with the text's colours one Style.paint, a status's label its text by default: Style.status was
#: paint with that label, one concept in two methods; 109 with Io.heard the append of its list of what was heard,
#: not a method that only forwarded to it (as a run of many plans hears each plan with its own list's append);
#: 68 / 108 with a Secrets' scanner built with it (it exists to scrub) and shared by every copy of the same strings:
#: Secrets._scan, the accessor that built it on first use, went, and with it the copies' "built yet?" tests.)
LIBRARY_ROUTE_TODAY = 68
CLI_ROUTE_TODAY = 108

#: ``_x.py`` modules inside a private package: none since #34 (the set stays for a reviewed exception).
PRIVATE_TWICE_ALLOWED: set[str] = set()

#: Modules over 600 code lines: none since #34.
LONG_MODULES_ALLOWED: set[str] = set()

#: Functions above mccabe complexity 15 when ruff's C901 came in: (file, function) -> how many of that name.
#: An entry goes when its function is simplified, or a new function of that name could grow past 15 unseen.
#: (Gone: validate.py's _predicate, snapshot/_values.py's marked and settle, simplified below 16.)
COMPLEX_ALLOWED = Counter({
    ("benchmarks/bench_plan.py", "main"): 1,
    ("plancheck/_documents/resolve.py", "known_value_at"): 1,
    ("plancheck/_documents/sensitive.py", "collect_marked"): 1,
    ("plancheck/_loading/jsontext.py", "_scan_levels"): 1,
    ("plancheck/_loading/validate.py", "_walk"): 1,
    ("plancheck/_redact.py", "spans"): 1,
    ("plancheck/_terraform/binary.py", "_run_in_group"): 1,
    ("plancheck/_terraform/mock/values.py", "conform"): 1,
    ("plancheck/_terraform/mock/values.py", "walk"): 1,
    ("plancheck/_terraform/providers/server.py", "close"): 1,
    ("plancheck/acceptance/_case.py", "_check_import"): 1,
    ("plancheck/cli/_checksfile.py", "convert"): 1,
    ("plancheck/cli/_mock_plan.py", "mock_plan"): 1,
    ("plancheck/cli/_registry.py", "parse_kind"): 1,
    ("plancheck/snapshot/_secrets.py", "touches"): 1,
    ("plancheck/snapshot/_values.py", "plain"): 1,
    ("plancheck/snapshot/_values.py", "walk"): 1,
    ("plancheck/tfconfig/_blocks.py", "check_body"): 1,
    ("plancheck/tfconfig/_blocks.py", "check_value"): 1,
    ("plancheck/tfconfig/_json_reader.py", "parse_json"): 1,
    ("plancheck/tfconfig/_template.py", "_scan_expression"): 1,
    ("tests/checks/test_plancheck_corpus.py", "test_corpus_plan"): 1,
    ("tests/snapshot/test_snapshot_render_identity.py", "marked"): 1,
    ("tests/snapshot/test_snapshot_render_identity.py", "plain"): 1,
    ("tfjsonpath/_text.py", "_scan_quoted"): 1,
})


@pytest.fixture(scope="module")
def figures() -> dict[str, house.Figure]:
    return {figure.name.split(" (")[0]: figure for figure in house.figures()}


# -- the figures are computed


def test_every_figure_is_measured_with_its_goal(figures: dict[str, house.Figure]) -> None:
    goals = {
        "modules in plancheck/ + tfjsonpath/": house.MAX_MODULES,
        "_x.py modules inside a private package": 0,
        "modules over 600 code lines": 0,
        "library functions, failing ExpectUnknownValue via load_plan + assert_plan": house.MAX_LIBRARY_FUNCTIONS,
        "library functions, failing ExpectUnknownValue via the CLI": house.MAX_CLI_FUNCTIONS,
        "pairs of files sharing 6+ lines alike in plancheck/": house.MAX_DUPLICATE_PAIRS,
        "lines of hand-written MessagePack/protobuf wire code": 0,
    }
    assert {name: f.goal for name, f in figures.items()} == goals
    assert figures["modules in plancheck/ + tfjsonpath/"].value == len(house.modules()) > 0
    for figure in figures.values():
        assert figure.render().startswith(f"{figure.name}: {figure.value} (goal <= {figure.goal}) ")


def test_the_routes_count_library_functions_of_a_failing_check(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(house.PLAN), encoding="utf-8")
    message = house.library_route(plan_file)
    printed = house.cli_route(plan_file)
    assert "ExpectUnknownValue: null_resource.app" in message
    assert "FAIL  ExpectUnknownValue: null_resource.app" in printed
    assert "hunter2" not in message + printed  # the plan's sensitive value stays out of both
    library = house.library_functions(lambda: house.library_route(plan_file))
    cli = house.library_functions(lambda: house.cli_route(plan_file))
    assert any(f.endswith(":load_plan") for f in library)
    assert any(f.endswith(":assert_plan") for f in library)
    assert any(f.startswith("plancheck/cli/") for f in cli)
    assert all(f.startswith(("plancheck/", "tfjsonpath/")) for f in library | cli)
    assert not any(re.search(r":<(listcomp|genexpr|setcomp|dictcomp|module)>$", f) for f in library | cli)


def test_a_check_that_passes_has_no_route_to_measure(tmp_path: Path) -> None:
    plan = json.loads(json.dumps(house.PLAN))
    plan["resource_changes"][0]["change"]["after_unknown"]["triggers"] = {"greeting": True}
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    with pytest.raises(AssertionError, match="ExpectUnknownValue passed on"):
        house.library_route(plan_file)
    with pytest.raises(AssertionError, match=r"tfplancheck exited 0, not 1"):
        house.cli_route(plan_file)


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("x = 1\n", 1, id="one-statement"),
        pytest.param("\n\n# a comment\n   \n", 0, id="blanks-and-comments"),
        pytest.param('"""Module doc\n\nover lines."""\nx = 1\n', 1, id="module-docstring"),
        pytest.param("def f():\n    '''Doc.'''\n    return 1\n", 2, id="function-docstring"),
        pytest.param("class C:\n    '''Doc\n    more.'''\n    x = 1\n", 2, id="class-docstring"),
        pytest.param("x = '''a\nb\nc'''\n", 3, id="multiline-string-is-code"),
        pytest.param("f(1,\n  2)  # why\n", 2, id="continued-call"),
    ],
)
def test_code_lines(source: str, lines: int) -> None:
    assert house.code_lines(source) == lines


@pytest.mark.parametrize(
    ("path", "twice"),
    [
        pytest.param("plancheck/_a/_b.py", True, id="private-module-in-private-package"),
        pytest.param("plancheck/_a/b/_c.py", True, id="private-package-is-an-ancestor"),
        pytest.param("plancheck/_a/b.py", False, id="public-module-in-private-package"),
        pytest.param("plancheck/a/_b.py", False, id="private-module-in-public-package"),
        pytest.param("plancheck/_a/__init__.py", False, id="dunder-module"),
        pytest.param("plancheck/_b.py", False, id="top-level-private-module"),
        pytest.param("plancheck/__x/_b.py", False, id="dunder-folder"),
    ],
)
def test_private_twice(path: str, twice: bool) -> None:
    assert house.private_twice([ROOT / path]) == ([path] if twice else [])


_BLOCK = "".join(f"total = total + values[{i}] * weights[{i}]\n" for i in range(6))


@pytest.mark.parametrize(
    ("files", "pairs"),
    [
        pytest.param({"a.py": _BLOCK, "b.py": _BLOCK}, [("a.py", "b.py")], id="same-lines"),
        pytest.param(
            {"a.py": _BLOCK, "b.py": "  # moved\n\n" + _BLOCK.replace(" + ", "   +   ")}, [("a.py", "b.py")],
            id="white-space-and-comments-folded",
        ),
        pytest.param({"a.py": _BLOCK, "b.py": _BLOCK.replace("total", "grand")}, [("a.py", "b.py")], id="same-shape"),
        pytest.param({"a.py": _BLOCK, "b.py": _BLOCK[: _BLOCK.rindex("total")]}, [], id="five-lines-are-no-block"),
        pytest.param({"a.py": _BLOCK + "x = 1\n" + _BLOCK}, [("a.py", "a.py")], id="twice-in-one-file"),
        pytest.param(
            {"a.py": "".join(f"x{i} = {i}\n" for i in range(6)), "b.py": "".join(f"y{i} = {i}\n" for i in range(6))},
            [], id="thin-lines-alike-only-in-shape",
        ),
        pytest.param({f"m{i}.py": _BLOCK for i in range(9)}, [], id="an-idiom-in-nine-places"),
        pytest.param({"a.py": "import os\nimport sys\n" * 3, "b.py": "import os\nimport sys\n" * 3}, [], id="imports"),
        pytest.param(
            {name: "from m import (\n" + "".join(f"    name_{i},\n" for i in range(8)) + ")\n" for name in ("a.py", "b.py")},
            [], id="the-names-of-a-parenthesized-import",
        ),
    ],
)
def test_duplicate_pairs(tmp_path: Path, files: dict[str, str], pairs: list[tuple[str, str]]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert house.duplicate_pairs(sorted(tmp_path.glob("*.py")), root=tmp_path) == pairs


@pytest.mark.parametrize(
    ("line", "sign"),
    [
        # Lines of cty_msgpack.py and ephemeral_wire.py before the msgpack library and protobuf's enums (#34).
        pytest.param("_SIZED: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4}", "a MessagePack type byte",
                     id="msgpack-type-table"),
        pytest.param("return bytes([0xD9, n]) + raw", "a MessagePack type byte", id="msgpack-str8-header"),
        pytest.param("_STRING, _BYTES, _INT32, _MESSAGE = 9, 12, 5, 11", "protobuf field types as numbers",
                     id="protobuf-types-by-number"),
        pytest.param("_OPTIONAL, _REPEATED = 1, 3", "protobuf field types as numbers", id="protobuf-labels-by-number"),
        pytest.param("out.append(n & 0x7F | 0x80); n >>= 7", "a varint's 7-bit shift", id="varint"),
        pytest.param("key = (number << 3) | 2", "a protobuf field key (number << 3 | wire type)", id="field-key"),
        pytest.param('NULL: Final = b"\\xc0"  # 0xc0 is nil', None, id="bytes-and-comments-are-not-code"),
        pytest.param("if code < 0x80:", None, id="ascii-test"),
        pytest.param('_f("type_name", 1, "string")', None, id="protobuf-runtime-descriptor"),
    ],
)
def test_wire_code(tmp_path: Path, line: str, sign: str | None) -> None:
    (tmp_path / "w.py").write_text(line + "\n", encoding="utf-8")
    assert house.wire_code([tmp_path / "w.py"], root=tmp_path) == ([f"w.py:1: {sign}"] if sign else [])


# -- the ratchets: each may only shrink


def test_no_more_modules_than_today(figures: dict[str, house.Figure]) -> None:
    assert figures["modules in plancheck/ + tfjsonpath/"].value <= MODULES_TODAY


def test_no_more_duplicated_blocks_than_today(figures: dict[str, house.Figure]) -> None:
    pairs = figures["pairs of files sharing 6+ lines alike in plancheck/"].value
    assert pairs <= DUPLICATE_PAIRS_TODAY, (
        f"{pairs} pairs of files share a block of 6+ lines alike in plancheck/ (was {DUPLICATE_PAIRS_TODAY}): "
        "python -m tools.house names the figure; share the concept instead of copying it"
    )


def test_no_new_private_module_in_a_private_package(figures: dict[str, house.Figure]) -> None:
    new = set(figures["_x.py modules inside a private package"].items) - PRIVATE_TWICE_ALLOWED
    assert not new, f"a new _x.py inside a private package (drop one underscore): {sorted(new)}"


def test_no_new_module_over_600_code_lines(figures: dict[str, house.Figure]) -> None:
    long = {item.split(":")[0] for item in figures["modules over 600 code lines"].items}
    new = long - LONG_MODULES_ALLOWED
    assert not new, f"modules over {house.MAX_CODE_LINES} code lines: {sorted(new)}"


def test_the_routes_of_a_failing_check_only_shorten() -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith(("PLANCHECK_", "TFPLANCHECK_"))}
    done = subprocess.run(
        [sys.executable, "-c", "from tools import house; print(*map(len, house.routes()))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True,
    )
    library, cli = map(int, done.stdout.split())
    assert library <= LIBRARY_ROUTE_TODAY, f"the route through load_plan + assert_plan grew: {library} functions"
    assert cli <= CLI_ROUTE_TODAY, f"the route through the CLI grew: {cli} functions"


def test_no_hand_written_wire_code(figures: dict[str, house.Figure]) -> None:
    assert figures["lines of hand-written MessagePack/protobuf wire code"].items == ()


def _complex_functions() -> Counter[tuple[str, str]]:
    """Every function above the configured max-complexity, per-file allowances aside, by ruff."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", ".", "--select", "C901", "--config", "lint.per-file-ignores = {}",
         "--output-format", "json", "--no-cache", "--exit-zero"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )
    found: Counter[tuple[str, str]] = Counter()
    for hit in json.loads(done.stdout):
        name = re.fullmatch(r"`(.+)` is too complex \(\d+ > \d+\)", hit["message"])
        assert name, hit["message"]
        found[Path(hit["filename"]).relative_to(ROOT).as_posix(), name.group(1)] += 1
    return found


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed (the test extra has it)")
def test_complexity_allowances_only_shrink() -> None:
    found = _complex_functions()
    new = found - COMPLEX_ALLOWED
    assert not new, f"functions above mccabe complexity 15 (split them): {sorted(new)}"
    simplified = COMPLEX_ALLOWED - found
    assert not simplified, f"COMPLEX_ALLOWED lists functions no longer above 15 (delete them): {sorted(simplified)}"
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert lint["mccabe"]["max-complexity"] == 15
    allowed_files = {name for name, codes in lint["per-file-ignores"].items() if "C901" in codes}
    stale = allowed_files - {path for path, _ in found}
    assert not stale, f"pyproject.toml allows C901 in files that no longer need it (delete their lines): {sorted(stale)}"
    assert allowed_files == {path for path, _ in found}
