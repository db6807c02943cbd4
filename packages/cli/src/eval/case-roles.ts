import type { CaseFile } from './case-file-schema.ts';
import { type CaseFileProblem, problemsError } from './load-case-file.ts';

/**
 * Checks every role a case file names (a principal's `role`, a turn's or fact's `access`) against the
 * policy's roles, so a typo is bad input (exit 2) rather than a case that fails at run time.
 */
export function checkCaseRoles(cases: CaseFile, file: string, roles: readonly string[]): void {
  const problems: CaseFileProblem[] = [];
  const check = (value: unknown, path: string, caseName?: string) => {
    if (typeof value !== 'string' || roles.includes(value)) return;
    problems.push({
      path,
      ...(caseName === undefined ? {} : { caseName }),
      message: `role "${value}" is not one of the policy's roles: ${roles.join(', ')}`,
    });
  };
  check(cases.defaults?.principal?.role, 'defaults.principal.role');
  cases.cases.forEach((c, i) => {
    const at = (rest: string) => `cases[${i}].${rest}`;
    c.setup.forEach((turn, j) => {
      check(turn.principal?.role, at(`setup[${j}].principal.role`), c.name);
      check(turn.access, at(`setup[${j}].access`), c.name);
    });
    (c.actions ?? []).forEach((action, j) => {
      for (const [name, step] of Object.entries(action)) {
        if (!step || typeof step !== 'object') continue;
        const fields = step as { principal?: { role?: string }; access?: unknown };
        check(fields.principal?.role, at(`actions[${j}].${name}.principal.role`), c.name);
        check(fields.access, at(`actions[${j}].${name}.access`), c.name);
      }
    });
    check(c.recall.principal?.role, at('recall.principal.role'), c.name);
  });
  if (problems.length > 0) throw problemsError(file, problems);
}
