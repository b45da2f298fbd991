"""plancheck.tfconfig: read, check and write Terraform JSON configuration (``.tf.json`` / ``.tofu.json``).

>>> from plancheck.tfconfig import ExpectResourceAttribute, assert_config, dumps_config
>>> from tfjsonpath import New
>>> config = {"resource": {"terraform_data": {"web": {"input": "${var.name}"}}}}
>>> assert_config(config, ExpectResourceAttribute("terraform_data", "web", New("input"), "${var.name}"))
>>> print(dumps_config(config), end="")
{
  "resource": {
    "terraform_data": {
      "web": {
        "input": "${var.name}"
      }
    }
  }
}
"""

from ._base import ConfigCheck, Mode, assert_config
from ._checks import (
    ExpectDataSource,
    ExpectDataSourceAttribute,
    ExpectDataSourceCount,
    ExpectLocal,
    ExpectModule,
    ExpectNoResource,
    ExpectOutput,
    ExpectProvider,
    ExpectReferences,
    ExpectResource,
    ExpectResourceAttribute,
    ExpectResourceCount,
    ExpectResourceWithProperties,
    ExpectVariable,
    Template,
)
from ._json_reader import ConfigFormatError, IgnoredProperty
from ._load import (
    Flavor,
    config_from_dict,
    dumps_config,
    load_config,
    load_config_for_test,
    parse_config,
    write_config,
)
from ._model import Block, Config
from ._template import ParsedTemplate, Reference, TemplateSyntaxError, parse_reference, parse_template

__all__ = [
    "Block",
    "Config",
    "ConfigCheck",
    "ConfigFormatError",
    "ExpectDataSource",
    "ExpectDataSourceAttribute",
    "ExpectDataSourceCount",
    "ExpectLocal",
    "ExpectModule",
    "ExpectNoResource",
    "ExpectOutput",
    "ExpectProvider",
    "ExpectReferences",
    "ExpectResource",
    "ExpectResourceAttribute",
    "ExpectResourceCount",
    "ExpectResourceWithProperties",
    "ExpectVariable",
    "Flavor",
    "IgnoredProperty",
    "Mode",
    "ParsedTemplate",
    "Reference",
    "Template",
    "TemplateSyntaxError",
    "assert_config",
    "config_from_dict",
    "dumps_config",
    "load_config",
    "load_config_for_test",
    "parse_config",
    "parse_reference",
    "parse_template",
    "write_config",
]
