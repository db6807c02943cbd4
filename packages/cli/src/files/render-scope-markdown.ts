import type { MemorySnapshot, Provenance, ScopeSnapshot } from '@strata-memory/core';
import { formatScope } from '../scope-option.ts';
import { SNAPSHOT_FILE } from './scope-file-names.ts';

type Fact = ScopeSnapshot['facts'][number];
type Node = ScopeSnapshot['nodes'][number];

/** The marker that ends an editable fact line: `- lead time: "30 days" <!-- fact:fact_123 -->`. */
export const factMarker = (id: string) => `<!-- fact:${id} -->`;

/** The heading of the section whose fact lines `strata import` reads. */
export const FACTS_HEADING = '## Facts';

const CURRENT = new Set(['active', 'stale']);

const iso = (ms: number) => new Date(ms).toISOString();
/** A JSON value on one line: what a fact line shows and what an edit must keep. */
const json = (value: unknown) => JSON.stringify(value);

/** "extraction rules@1 · by maria · message msg_1 · episode ep_2 · thread t1 · via imported edit". */
function provenanceText(p: Provenance): string {
  const parts: string[] = [p.extractor ? `${p.source} ${p.extractor}` : p.source];
  if (p.via) parts.push(`via ${p.via}`);
  if (p.principalId) parts.push(`by ${p.principalId}`);
  if (p.messageId) parts.push(`message ${p.messageId}`);
  if (p.episodeId) parts.push(`episode ${p.episodeId}`);
  if (p.threadId) parts.push(`thread ${p.threadId}`);
  parts.push(`at ${iso(p.at)}`);
  return parts.join(', ');
}

/** Text quoted line by line, so nothing in it reads as Markdown structure. */
function quote(text: string): string[] {
  return text.split(/\r?\n/).map((line) => (line.length > 0 ? `> ${line}` : '>'));
}

function factLines(facts: Fact[]): string[] {
  const out: string[] = [];
  const entities = new Map<string, Fact[]>();
  for (const fact of facts) {
    const key = json([fact.entityType, fact.entityId]);
    entities.set(key, [...(entities.get(key) ?? []), fact]);
  }
  for (const versions of entities.values()) {
    const { entityType, entityId } = versions[0]!;
    out.push(`### ${entityId} (${entityType})`, '');
    const byKey = new Map<string, Fact[]>();
    for (const fact of versions) byKey.set(fact.key, [...(byKey.get(fact.key) ?? []), fact]);
    for (const [key, all] of byKey) {
      const current = all.find((f) => CURRENT.has(f.status));
      const older = all.filter((f) => f !== current).sort((a, b) => b.version - a.version);
      if (current) {
        out.push(`- ${key}: ${json(current.value)} ${factMarker(current.id)}`);
        const stale =
          current.status === 'stale' ? ` · stale (unconfirmed since ${iso(current.lastConfirmedAt)})` : '';
        out.push(
          `  - version ${current.version} · confidence ${current.confidence}${stale} · since ${iso(current.validFrom)} · ${provenanceText(current.provenance)}`,
        );
      } else {
        out.push(`- ${key} (no current value)`);
      }
      for (const f of older) {
        const span =
          f.validTo === undefined ? `from ${iso(f.validFrom)}` : `${iso(f.validFrom)} → ${iso(f.validTo)}`;
        out.push(
          `  - ${f.status.replace('_', ' ')}: ${json(f.value)} · version ${f.version} · confidence ${f.confidence} · ${span} · ${provenanceText(f.provenance)}`,
        );
      }
    }
    out.push('');
  }
  return out;
}

function nodeLine(node: Node): string {
  const aliases = node.aliases.length > 0 ? ` · also ${node.aliases.join(', ')}` : '';
  const properties = Object.keys(node.properties).length > 0 ? ` · ${json(node.properties)}` : '';
  const status = node.status === 'active' ? '' : ` · ${node.status}`;
  return `- **${node.name}** (${node.type})${aliases}${properties}${status} · ${provenanceText(node.provenance)}`;
}

/**
 * One scope's memory as Markdown a person reads and may edit: facts with their current value,
 * history, confidence and provenance; decisions, graph nodes and edges; the review queue; the
 * thread's conversation; episodes as a transcript; state, ledger and the audit log. Only fact
 * values are read back (`strata import` turns a changed value into a correction); everything else
 * comes from the JSON twin. The same section always gives the same text.
 */
export function renderScopeMarkdown(section: ScopeSnapshot, snapshot: MemorySnapshot): string {
  const nodeNames = new Map<string, string>();
  for (const s of snapshot.scopes) for (const node of s.nodes) nodeNames.set(node.id, node.name);
  const nameOf = (id: string) => nodeNames.get(id) ?? id;
  const scope = formatScope(section.scope);
  const out: string[] = [
    `# Memory at ${scope}`,
    '',
    `<!-- Written by strata export. Change a fact's value (the JSON after its key) and run strata import: the new value is recorded as a correction. Everything else is read from ${SNAPSHOT_FILE}. -->`,
    '',
  ];

  out.push(FACTS_HEADING, '');
  if (section.facts.length === 0) out.push('No facts.', '');
  else out.push(...factLines(section.facts));

  const decisions = section.nodes.filter((n) => n.type === 'decision');
  const others = section.nodes.filter((n) => n.type !== 'decision');
  if (decisions.length > 0) out.push('## Decisions', '', ...decisions.map(nodeLine), '');
  if (others.length > 0 || section.edges.length > 0) {
    out.push('## Graph', '', ...others.map(nodeLine));
    if (others.length > 0) out.push('');
  }
  if (section.edges.length > 0) {
    out.push('Edges:', '');
    for (const edge of section.edges) {
      const ended = edge.validTo === undefined ? '' : ` → ${iso(edge.validTo)}`;
      const status = edge.status === 'active' ? '' : ` · ${edge.status}`;
      out.push(
        `- ${nameOf(edge.from)} **${edge.relation}** ${nameOf(edge.to)} · confidence ${edge.confidence} · since ${iso(edge.validFrom)}${ended}${status} · ${provenanceText(edge.provenance)}`,
      );
    }
    out.push('');
  }

  if (section.review.length > 0) out.push('## Review queue', '');
  for (const item of section.review) {
    const decided =
      item.status === 'pending'
        ? ''
        : ` · ${item.status} by ${item.decidedBy} at ${iso(item.decidedAt!)}${item.note ? ` (${json(item.note)})` : ''}`;
    out.push(
      `- [${item.status}] ${item.kind} (${item.reason.replace('_', ' ')}): ${json(item.proposal)} · confidence ${item.confidence} · ${item.id}${decided} · ${provenanceText(item.provenance)}`,
    );
  }
  if (section.review.length > 0) out.push('');

  if (section.thread) {
    const { thread } = section;
    out.push(`## Thread${thread.title ? `: ${thread.title}` : ''}`, '');
    if (thread.summary) {
      out.push(
        `Summary of messages 1-${thread.summarizedThroughSeq ?? '?'}:`,
        '',
        ...quote(thread.summary),
        '',
      );
    }
    for (const message of thread.messages) {
      const who = message.name ? `${message.name} (${message.role})` : message.role;
      out.push(`**#${message.seq} ${who}** · ${iso(message.createdAt)}`, '', ...quote(message.content), '');
    }
  }

  if (section.episodes.length > 0) out.push('## Episodes', '');
  for (const episode of section.episodes) {
    const who = episode.speaker ?? episode.role ?? 'event';
    const status =
      episode.status === 'active'
        ? ''
        : ` · ${episode.status}${episode.mergedInto ? ` into ${episode.mergedInto}` : ''}`;
    out.push(
      `**${who}** · ${iso(episode.occurredAt)} · importance ${episode.importance}${status} · ${episode.id}`,
      '',
      ...quote(episode.text),
      '',
    );
  }

  if (section.state.length > 0 || section.ledger.length > 0) {
    out.push('## Job state', '');
    for (const entry of section.state) {
      out.push(`- ${entry.key} = ${json(entry.value)} · version ${entry.version} · ${iso(entry.updatedAt)}`);
    }
    for (const entry of section.ledger) {
      const done =
        entry.status === 'done'
          ? ` · done ${iso(entry.completedAt!)}`
          : ` · lease until ${iso(entry.leaseUntil)}`;
      const result = entry.result === undefined ? '' : ` · ${json(entry.result)}`;
      out.push(`- handled ${entry.key} by ${entry.owner} · claimed ${iso(entry.claimedAt)}${done}${result}`);
    }
    out.push('');
  }

  if (section.audit.length > 0) out.push('## Audit log', '');
  for (const entry of section.audit) {
    const subject = entry.subjectId ? ` ${entry.subjectType ?? 'item'} ${entry.subjectId}` : '';
    const details = Object.keys(entry.details).length > 0 ? ` · ${json(entry.details)}` : '';
    out.push(`- ${iso(entry.at)} ${entry.action}${subject} by ${entry.actor}${details}`);
  }
  if (section.audit.length > 0) out.push('');
  return `${out.join('\n').trimEnd()}\n`;
}
