"""Import every module that registers a built-in component (scorers, targets, renderers, ...).

`failproof.registry.load_plugins` imports this before any third-party entry point, so built-ins
are registered through the same decorators as plugins.
"""

from __future__ import annotations

import failproof.metrics._scores
import failproof.report._console
import failproof.report._json
import failproof.targets._mock
import failproof.targets._replay  # noqa: F401
