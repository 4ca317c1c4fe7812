"""Where the lazy test registry lives while a test uses it (set by the test's fixture)."""

from failproof.registry import Registry

THINGS: Registry[object] = Registry("lazy thing")
