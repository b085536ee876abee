"""Typed errors raised at the edges (sources, CLI arguments) and their exit codes.

Exit codes (documented in the README and ``deploysheet --help``):

* 0 — success
* 2 — bad input: a missing or unreadable file, invalid JSON, a config with missing, absurd or
  inconsistent dimensions, an unknown GPU or precision, an oversize file, a bad argument
* 3 — Hub or network failure: repository or revision not found, gated or private repository
  the token cannot read, the Hub unreachable or answering with an error
* 4 — `deploysheet action` only: the score is below the quality-gate threshold
* 1 — an internal error (a bug): reported in one line; ``DEPLOYSHEET_DEBUG=1`` shows the traceback
"""

from __future__ import annotations

#: ``reason`` of a Hub read that failed for good (the repo, not the network): batch callers record it and go on
HUB_READ_FAILURES = ("gated", "not_found", "missing_config", "invalid_json")

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_HUB = 3
EXIT_GATE = 4


class DeploysheetError(Exception):
    """Base class: ``str(err)`` is the one-line message shown to the user."""

    exit_code = EXIT_INTERNAL

    def __init__(self, message: str, reason: str | None = None):
        # keep messages on one line whatever the cause carried
        super().__init__(" ".join(str(message).split()))
        #: a machine-readable cause for batch callers (the crawl records it): e.g. ``gated``, ``not_found``,
        #: ``missing_config``, ``invalid_json``, ``rate_limited``, ``network``; None when unclassified
        self.reason = reason


class BadInputError(DeploysheetError):
    """The user's input (file, JSON, config values, arguments) is unusable. Exit code 2."""

    exit_code = EXIT_BAD_INPUT


class KVLaunchError(BadInputError):
    """The engine cannot launch the KV cache dtype on ``gpu`` (scorer.launch.kv_launch_problem). Exit code 2;
    compare marks that GPU's deployment refused and goes on."""

    def __init__(self, message: str, gpu: str):
        super().__init__(message)
        self.gpu = gpu


class ConfigError(BadInputError):
    """A config.json whose dimensions are missing, absurd or inconsistent. Exit code 2."""


class HubError(DeploysheetError):
    """The Hub refused or could not answer (not found, gated, network). Exit code 3."""

    exit_code = EXIT_HUB
