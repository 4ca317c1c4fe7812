"""A built-in of the test registry, registered when this module is imported."""

from tests.registry import lazy_home

lazy_home.THINGS.register("lazy")("the lazy thing")
