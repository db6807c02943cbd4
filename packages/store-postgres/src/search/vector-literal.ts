/** A vector as pgvector's text input: `[0.1,0.2,0.3]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}
