"""The import-linter contract type behind the layers of docs/architecture.md: `imports_only`.

The layers are allow-lists ("leagues may import games.engines"), and live play in `games` is
every module of `games` except `games.engines`, including modules not written yet. import-linter's
own `forbidden` contract needs every forbidden module to exist and named, so this contract turns
the table around: everything a source module imports, directly or through other modules of the
project, must lie inside `allowed_modules`; outside the project's root packages, `external`
says what may be imported: `stdlib` (the standard library only) or `any`.

Run by `lint-imports` (contracts in pyproject.toml); tests/config/test_import_contracts.py checks
that a wrong arrow is caught.
"""

import sys
from typing import cast

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output
from importlinter.domain.contract import InvalidContractOptions
from importlinter.domain.helpers import module_expressions_to_modules
from importlinter.domain.imports import ModuleExpression

EXTERNAL_CHOICES = ("stdlib", "any")


class ImportsOnlyContract(Contract):
    """Source modules import nothing of the project outside `allowed_modules` (as packages),
    and of other packages only the standard library when `external` is "stdlib"."""

    type_name = "imports_only"

    source_modules = fields.SetField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.SetField(subfield=fields.ModuleExpressionField())
    external = fields.StringField(required=False, default="any")

    def validate(self) -> None:
        if self.external not in EXTERNAL_CHOICES:
            raise InvalidContractOptions({"external": f"one of {', '.join(EXTERNAL_CHOICES)}"})

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        roots = tuple(self.session_options["root_packages"])
        allowed = [
            module.name
            for module in module_expressions_to_modules(graph, self._allowed_expressions)
        ]
        sources = set()
        for module in module_expressions_to_modules(graph, self._source_expressions):
            if module.name not in graph.modules:
                raise ValueError(f"Module '{module.name}' does not exist.")
            sources |= {module.name, *graph.find_descendants(module.name)}

        # Every module a source reaches, directly or through other modules: leagues importing an
        # allowed helper that imports scoring breaks the layers as much as importing scoring.
        violations = {}
        for source in sorted(sources):
            for imported in sorted(graph.find_upstream_modules(source)):
                if imported in violations or self._may_import(imported, allowed, roots):
                    continue
                chain = graph.find_shortest_chain(importer=source, imported=imported)
                assert chain is not None, "an upstream module is reached by some chain"
                violations[imported] = [
                    (importer, target, self._lines(graph, importer, target))
                    for importer, target in zip(chain, chain[1:])
                ]
        return ContractCheck(kept=not violations, metadata={"chains": list(violations.values())})

    # Contract.__init__ replaces each declared field on the instance with the value it parsed
    # (a SetField gives a set), which the class-level declarations cannot type.
    @property
    def _source_expressions(self) -> set[ModuleExpression]:
        return cast(set[ModuleExpression], self.source_modules)

    @property
    def _allowed_expressions(self) -> set[ModuleExpression]:
        return cast(set[ModuleExpression], self.allowed_modules)

    @staticmethod
    def _lines(graph: ImportGraph, importer: str, imported: str) -> str:
        details = graph.get_import_details(importer=importer, imported=imported)
        return ",".join(str(detail["line_number"]) for detail in details) or "?"

    def _may_import(self, imported: str, allowed: list[str], roots: tuple[str, ...]) -> bool:
        top = imported.split(".")[0]
        if top not in roots:  # outside the project
            return self.external == "any" or top in sys.stdlib_module_names
        return any(imported == name or imported.startswith(f"{name}.") for name in allowed)

    def render_broken_contract(self, check: ContractCheck) -> None:
        allowed = ", ".join(sorted(str(expression) for expression in self._allowed_expressions))
        output.print_error(f"May import only {allowed} (outside the project: {self.external}):")
        output.new_line()
        for chain in check.metadata["chains"]:
            links = " -> ".join(f"{importer}:{lines}" for importer, _, lines in chain)
            output.print_error(f"-   {links} -> {chain[-1][1]}", bold=False)
        output.new_line()
