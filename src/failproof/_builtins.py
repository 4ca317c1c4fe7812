"""Import every module that registers a built-in component (scorers, targets, renderers, ...).

`failproof.registry.load_plugins` imports this before any third-party entry point, so built-ins
are registered through the same decorators as plugins.
"""

from __future__ import annotations

import failproof.attack._best_of_n
import failproof.attack._crescendo
import failproof.attack._iterative
import failproof.attack._tree
import failproof.coverage._section
import failproof.generate._char_mutators
import failproof.generate._wrap_mutators
import failproof.judge._ah
import failproof.judge._rubric_section
import failproof.judge._scorer
import failproof.judge._section
import failproof.metrics._aggregate_acc
import failproof.metrics._consistency
import failproof.metrics._geometry_stream
import failproof.metrics._robustness
import failproof.metrics._scores
import failproof.metrics._scores_acc
import failproof.report._console
import failproof.report._html
import failproof.report._json
import failproof.report._junit
import failproof.report._markdown
import failproof.safe._scorer
import failproof.scoring._classifier
import failproof.scoring._probe
import failproof.targets._exec
import failproof.targets._http
import failproof.targets._litellm
import failproof.targets._local
import failproof.targets._mock
import failproof.targets._openai
import failproof.targets._openai_sdk
import failproof.targets._python
import failproof.targets._replay  # noqa: F401
