"""Version gates: skip or fail a test by the Terraform version (Go's ``tfversion`` package).

Each check is a small frozen value with Go's name; ``CheckTerraformVersion(version)`` (Go's
method name, the only one) returns a :class:`Result`: an ``error`` (the test fails),
a ``skip`` reason (the test is skipped), or neither (it runs). Give them to
``TestCase(terraform_version_checks=[...])`` and the acceptance runner applies them, in order,
before anything else: the first error fails the case, the first skip raises ``unittest.SkipTest``.

As in Go, a check whose own version is a release compares against the *core* of the Terraform
version, so ``1.12.0-alpha20240101`` counts as ``1.12.0`` for ``SkipBelow("1.12.0")``.

>>> from plancheck.tfversion import Any, RequireAbove, SkipBelow, SkipIfNotAlpha, Version1_5_0
>>> SkipBelow(Version1_5_0).CheckTerraformVersion("1.0.3")
Result(skip='Terraform CLI version 1.0.3 is below minimum version 1.5.0: skipping test')
>>> SkipBelow("1.12.0").CheckTerraformVersion("1.12.0-alpha20240101").passed
True
>>> RequireAbove("1.12.0").CheckTerraformVersion("1.11.4").error
'expected Terraform CLI version above 1.12.0 but detected version is 1.11.4'
>>> Any(SkipIfNotAlpha(), SkipBelow("1.12.0")).CheckTerraformVersion("1.14.1")
Result()
"""

from __future__ import annotations

from typing import Final

from ._checks import (
    All,
    Any,
    RequireAbove,
    RequireBelow,
    RequireBetween,
    RequireNot,
    Result,
    SkipAbove,
    SkipBelow,
    SkipBetween,
    SkipIf,
    SkipIfNotAlpha,
    SkipIfNotPrerelease,
    Version,
    VersionCheck,
    VersionError,
    run_check,
)

# The versions Go's tfversion package names.
Version0_12_26: Final = Version("0.12.26")
Version0_13_0: Final = Version("0.13.0")
Version0_14_0: Final = Version("0.14.0")
Version0_15_0: Final = Version("0.15.0")
Version1_0_0: Final = Version("1.0.0")
Version1_1_0: Final = Version("1.1.0")
Version1_2_0: Final = Version("1.2.0")
Version1_3_0: Final = Version("1.3.0")
Version1_4_0: Final = Version("1.4.0")
Version1_4_6: Final = Version("1.4.6")
Version1_5_0: Final = Version("1.5.0")
Version1_6_0: Final = Version("1.6.0")
Version1_7_0: Final = Version("1.7.0")
Version1_8_0: Final = Version("1.8.0")
Version1_9_0: Final = Version("1.9.0")
Version1_10_0: Final = Version("1.10.0")
Version1_11_0: Final = Version("1.11.0")
Version1_12_0: Final = Version("1.12.0")
Version1_13_0: Final = Version("1.13.0")
Version1_14_0: Final = Version("1.14.0")
Version1_15_0: Final = Version("1.15.0")
Version2_0_0: Final = Version("2.0.0")

__all__ = [
    "All",
    "Any",
    "RequireAbove",
    "RequireBelow",
    "RequireBetween",
    "RequireNot",
    "Result",
    "SkipAbove",
    "SkipBelow",
    "SkipBetween",
    "SkipIf",
    "SkipIfNotAlpha",
    "SkipIfNotPrerelease",
    "Version",
    "Version0_12_26",
    "Version0_13_0",
    "Version0_14_0",
    "Version0_15_0",
    "Version1_0_0",
    "Version1_10_0",
    "Version1_11_0",
    "Version1_12_0",
    "Version1_13_0",
    "Version1_14_0",
    "Version1_15_0",
    "Version1_1_0",
    "Version1_2_0",
    "Version1_3_0",
    "Version1_4_0",
    "Version1_4_6",
    "Version1_5_0",
    "Version1_6_0",
    "Version1_7_0",
    "Version1_8_0",
    "Version1_9_0",
    "Version2_0_0",
    "VersionCheck",
    "VersionError",
    "run_check",
]
