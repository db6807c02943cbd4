/**
 * Reading the block `recall(...).render()` produces, to check what the agent is actually told.
 * Section titles as core renders them (packages/core/src/recall/render-context.ts).
 */
export const SECTION = {
  facts: 'Facts:',
  summary: 'Earlier in this conversation (summary):',
  episodes: 'Relevant past episodes:',
  graph: 'Connections:',
  working: 'Recent conversation:',
} as const;

/** The `- ` lines under one section title (without the marker). */
export function sectionLines(rendered: string, section: keyof typeof SECTION): string[] {
  const lines = rendered.split('\n');
  const start = lines.indexOf(SECTION[section]);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('- ')) break;
    out.push(line.slice(2));
  }
  return out;
}
