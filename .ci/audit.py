"""CI's dependency audit: known vulnerabilities in what the project installs.

* pip-audit (PyPA's auditor) over requirements.lock, the exact set the Docker image installs,
  read as pinned and hashed (``--disable-pip``: nothing is installed or resolved again).
* npm audit over the fake Discord's schema package (tests/fakediscord/spec), test-only.

Each says one line. Where the vulnerability service does not answer (the package registries
are reachable from CI, their audit services may not be), the audit is skipped with one line
saying so, never a traceback and never a failure: a skip is not a pass, and the line says
which. A known vulnerability fails the run (for the test-only npm package: a high or critical
one), naming the package and the advisory.

    python .ci/audit.py      (from the repository's root, with the test extras installed)
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
NPM_PACKAGE = ROOT / "tests" / "fakediscord" / "spec"
WAIT_S = 300  # a service that neither answers nor refuses in this time counts as not answering
NPM_FAILS_AT = ("high", "critical")  # the npm package only checks the fake's requests


@dataclass(frozen=True, slots=True)
class Verdict:
    failed: bool
    line: str


def _reason(stderr: str) -> str:
    """The last line of a tool's error output, without a URL (the service's address is the
    tool's business, not the log's), cut short."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else "no answer"
    exception = last.split(":", 1)[0]
    if "." in exception and " " not in exception:  # a traceback's last line: its exception
        return exception.rsplit(".", 1)[-1]
    return last[:120]


def pip_verdict(returncode: int, stdout: str, stderr: str) -> Verdict:
    """What pip-audit's JSON output (``-f json``) says, in one line."""
    try:
        found = json.loads(stdout)
        dependencies = found["dependencies"]
    except (ValueError, TypeError, KeyError):
        return Verdict(
            False,
            "pip-audit skipped: the vulnerability service did not answer "
            f"({_reason(stderr)}); nothing was audited",
        )
    vulnerable = [d for d in dependencies if d.get("vulns")]
    skipped = [d for d in dependencies if d.get("skip_reason")]
    audited = len(dependencies) - len(skipped)
    if vulnerable:
        named = "; ".join(
            f"{d['name']} {d.get('version', '?')}: "
            + ", ".join(v["id"] + _fix(v) for v in d["vulns"])
            for d in vulnerable
        )
        return Verdict(True, f"pip-audit: known vulnerabilities in requirements.lock: {named}")
    if audited == 0:
        return Verdict(
            False,
            f"pip-audit skipped: the vulnerability service knew none of the {len(dependencies)} "
            "locked packages (it did not answer for them); nothing was audited",
        )
    unknown = f" ({len(skipped)} could not be looked up)" if skipped else ""
    if returncode != 0:
        return Verdict(True, f"pip-audit: exit {returncode} without naming a vulnerability")
    return Verdict(
        False, f"pip-audit: {audited} locked packages audited, no known vulnerabilities{unknown}"
    )


def _fix(vuln: dict[str, object]) -> str:
    fixes = vuln.get("fix_versions") or []
    return f" (fixed in {', '.join(map(str, fixes))})" if isinstance(fixes, list) and fixes else ""


def npm_verdict(stdout: str, stderr: str) -> Verdict:
    """What ``npm audit --json`` says, in one line."""
    try:
        found = json.loads(stdout)
    except ValueError:
        found = None
    if not isinstance(found, dict) or "metadata" not in found:
        said = found.get("message") if isinstance(found, dict) else None
        reason = str(said).split(" - ", 1)[0] if said else _reason(stderr)
        return Verdict(
            False, f"npm audit skipped: the registry's audit service did not answer ({reason})"
        )
    counts = found["metadata"].get("vulnerabilities", {})
    serious = {level: counts.get(level, 0) for level in NPM_FAILS_AT if counts.get(level, 0)}
    total = int(counts.get("total", 0))
    if serious:
        names = ", ".join(sorted(found.get("vulnerabilities", {})))
        levels = ", ".join(f"{n} {level}" for level, n in serious.items())
        return Verdict(True, f"npm audit: {levels} vulnerabilities in {NPM_PACKAGE.name}: {names}")
    lesser = f" ({total} below high)" if total else ""
    return Verdict(False, f"npm audit: no high or critical vulnerabilities{lesser}")


def _run(command: list[str], cwd: Path) -> tuple[int, str, str]:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=WAIT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return 1, "", f"no answer in {WAIT_S} s"
    except OSError as error:
        return 1, "", f"{command[0]} could not be started ({error.strerror or error})"
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    pip_audit = Path(sys.executable).with_name("pip-audit")
    verdicts = [
        pip_verdict(
            *_run(
                [
                    str(pip_audit),
                    "--requirement",
                    str(LOCK),
                    "--disable-pip",
                    "--format",
                    "json",
                    "--progress-spinner",
                    "off",
                ],
                ROOT,
            )
        )
    ]
    if (NPM_PACKAGE / "package-lock.json").is_file():
        _, out, err = _run(["npm", "audit", "--json"], NPM_PACKAGE)
        verdicts.append(npm_verdict(out, err))
    for verdict in verdicts:
        print(verdict.line)
    return 1 if any(verdict.failed for verdict in verdicts) else 0


if __name__ == "__main__":
    raise SystemExit(main())
