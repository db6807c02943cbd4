import { invalidInput, type StrataError } from '@strata-memory/core';

/**
 * LangGraph's namespace rules (`validateNamespace` in @langchain/langgraph-checkpoint), checked again
 * on every operation that reaches `batch` directly: labels are non-empty strings without `.`, `:`
 * or NUL; a namespace to write to is not empty and does not start with the reserved `langgraph`.
 */
export function namespaceProblem(
  namespace: unknown,
  options: { allowEmpty: boolean; forWrite: boolean },
): string | undefined {
  if (!Array.isArray(namespace)) return 'must be an array of strings';
  if (namespace.length === 0) return options.allowEmpty ? undefined : 'must not be empty';
  for (const label of namespace) {
    if (typeof label !== 'string') return `labels must be strings (got ${typeof label})`;
    if (label === '') return 'labels must not be empty strings';
    if (label.includes('.')) return `label "${label}" contains a period`;
    if (label.includes(':')) return `label "${label}" contains a colon`;
    if (label.includes('\u0000')) return 'labels must not contain NUL';
  }
  if (options.forWrite && namespace[0] === 'langgraph') return 'the root label "langgraph" is reserved';
  return undefined;
}

export function checkNamespace(
  namespace: unknown,
  where: string,
  options: { allowEmpty: boolean; forWrite: boolean },
): string[] {
  const problem = namespaceProblem(namespace, options);
  if (problem) throw namespaceError(where, problem, namespace);
  return namespace as string[];
}

function namespaceError(where: string, problem: string, namespace: unknown): StrataError {
  return invalidInput(`${where}: invalid namespace ${JSON.stringify(namespace)}: ${problem}.`, {
    namespace: Array.isArray(namespace) ? namespace.map(String) : String(namespace),
  });
}
