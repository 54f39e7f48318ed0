"""axe-core in the browser tests: run the vendored rules engine on the page shown and return
what it finds, each violation with its rule, impact, help text and offending elements.

The script is evaluated through the DevTools protocol, not added as a <script> element, so the
site's Content-Security-Policy stays as it is for the page under test.
"""

from pathlib import Path

AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")

RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.join(" "),
      summary: node.failureSummary,
    })),
  }));
}"""


def axe_violations(page) -> list[dict]:
    """Every axe-core violation on `page` as it is now (all rules that are not experimental)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(f"() => {{ {AXE_SOURCE}\n }}")
    return page.evaluate(RUN_AXE)


def describe(violations: list[dict]) -> str:
    """The violations as lines a person can act on."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)
