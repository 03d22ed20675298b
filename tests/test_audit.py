"""CI audits the dependencies for known vulnerabilities (`.ci/audit.py`, run by `.ci/run`):
pip-audit over requirements.lock, npm audit over the fake Discord's schema package. Where a
vulnerability service does not answer it says so in one line and does not fail; a known
vulnerability fails. The tests give it the tools' recorded answers: no network."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from types import ModuleType

from tests.ops_support import ROOT

LOCKED = ("aiohttp", "3.14.5"), ("pillow", "13.0.0")


def _audit() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_audit", ROOT / ".ci" / "audit.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


audit = _audit()


def _pip_json(**vulns: list[dict[str, object]]) -> str:
    return json.dumps(
        {
            "dependencies": [
                {"name": name, "version": version, "vulns": vulns.get(name, [])}
                for name, version in LOCKED
            ],
            "fixes": [],
        }
    )


def test_ci_runs_the_audit_with_the_test_extras_before_the_tests() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/python .ci/audit.py" in run
    assert run.index(".venv/bin/python .ci/audit.py") < run.index(".venv/bin/python -m pytest")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    test = extras["project"]["optional-dependencies"]["test"]
    assert any(requirement.startswith("pip-audit") for requirement in test)


def test_a_clean_lock_is_one_line_and_passes() -> None:
    verdict = audit.pip_verdict(0, _pip_json(), "")
    assert verdict == audit.Verdict(
        False, "pip-audit: 2 locked packages audited, no known vulnerabilities"
    )


def test_a_known_vulnerability_fails_naming_the_package_and_the_fix() -> None:
    found: list[dict[str, object]] = [
        {"id": "GHSA-xxxx", "fix_versions": ["3.14.6"], "aliases": [], "description": ""}
    ]
    verdict = audit.pip_verdict(1, _pip_json(aiohttp=found), "")
    assert verdict.failed
    assert "aiohttp 3.14.5: GHSA-xxxx (fixed in 3.14.6)" in verdict.line


def test_a_service_that_knows_no_package_is_a_skip_not_a_pass() -> None:
    """PyPI's JSON service answering "not found" for every locked package audits nothing:
    pip-audit itself would print "No known vulnerabilities found" and exit 0."""
    unknown = json.dumps(
        {
            "dependencies": [
                {"name": n, "skip_reason": f"Dependency not found on PyPI: {n} ({v})"}
                for n, v in LOCKED
            ],
            "fixes": [],
        }
    )
    verdict = audit.pip_verdict(0, unknown, "")
    assert not verdict.failed
    assert verdict.line.startswith("pip-audit skipped: ") and "nothing was audited" in verdict.line


def test_a_service_that_cannot_be_reached_is_one_line_not_a_traceback() -> None:
    traceback = (
        "Traceback (most recent call last):\n  File 'x.py', line 1, in <module>\n"
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(...): Max retries exceeded\n"
    )
    verdict = audit.pip_verdict(1, "", traceback)
    assert verdict == audit.Verdict(
        False,
        "pip-audit skipped: the vulnerability service did not answer (ConnectionError); "
        "nothing was audited",
    )
    assert "\n" not in verdict.line


def test_npm_audit_is_skipped_in_one_line_where_its_service_refuses() -> None:
    refused = json.dumps({"message": "405 Method Not Allowed - POST https://x/bulk"})
    verdict = audit.npm_verdict(refused, "npm error audit endpoint returned an error")
    assert verdict == audit.Verdict(
        False,
        "npm audit skipped: the registry's audit service did not answer (405 Method Not Allowed)",
    )


def test_npm_audit_fails_on_a_high_vulnerability_only() -> None:
    def answer(**levels: int) -> str:
        total = sum(levels.values())
        return json.dumps(
            {
                "vulnerabilities": {"ajv": {}} if total else {},
                "metadata": {"vulnerabilities": {**levels, "total": total}},
            }
        )

    assert audit.npm_verdict(answer(), "") == audit.Verdict(
        False, "npm audit: no high or critical vulnerabilities"
    )
    assert not audit.npm_verdict(answer(low=2), "").failed
    high = audit.npm_verdict(answer(high=1), "")
    assert high.failed and "1 high" in high.line and "ajv" in high.line
