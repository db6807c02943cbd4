import { SECTION_TITLES } from '../text/render-context.ts';

/** One fact as a rendered memory block lists it. */
export interface BlockFact {
  /** As the block names it: `user ada`, `supplier x`. */
  entity: string;
  key: string;
  value: string;
  /** The parenthesised notes, when any: `tom, 2026-01-01; confidence 0.80`. */
  notes?: string;
}

const FIELD = /^(.+?): (.+?)(?: \(([^()]*)\))?$/;

/**
 * The facts in the `Facts:` section of text holding a rendered memory block (a system prompt, say),
 * for a scripted model in a test that answers only from what memory told it. Lines read
 * `- user ada · name: Ada · desk: 4B (tom, 2026-01-01)`: the entity, then each fact.
 */
export function blockFacts(text: string): BlockFact[] {
  const facts: BlockFact[] = [];
  let inFacts = false;
  for (const line of text.split('\n')) {
    if (line === SECTION_TITLES.facts) inFacts = true;
    else if (!line.startsWith('- ')) inFacts = false;
    else if (inFacts) {
      const [entity, ...fields] = line.slice(2).split(' · ');
      for (const field of fields) {
        const match = FIELD.exec(field);
        if (!match) continue;
        facts.push({
          entity: entity!,
          key: match[1]!,
          value: match[2]!,
          ...(match[3] === undefined ? {} : { notes: match[3] }),
        });
      }
    }
  }
  return facts;
}
