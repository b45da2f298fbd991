"""The versions Go's ``tfversion`` package names, for use with the checks."""

from __future__ import annotations

from typing import Final

from ._version import Version

__all__ = [
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
]

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
