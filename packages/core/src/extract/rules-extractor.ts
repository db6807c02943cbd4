import {
  type ExtractedEntity,
  type ExtractedFact,
  type ExtractedRelation,
  type Extraction,
  type Extractor,
  PORT_SPECIFICATION_VERSION,
  type TurnMessage,
} from '../ports/ports.ts';
import type { MessageRole } from '../store/records.ts';
import { namesRelative } from '../text/relations.ts';
import { clausesOf } from './clauses.ts';
import { UNRESOLVED_ENTITY } from './entity-references.ts';
import { type FactCandidate, factsFromClause } from './fact-patterns.ts';
import { isEntityPhrase, nodeTypeOf } from './noun-phrases.ts';
import { relationsFromClause } from './relation-patterns.ts';

export interface RulesExtractorOptions {
  /** Whose messages are read for facts. Default `['user']`: an assistant's words are not the user's facts. */
  roles?: MessageRole[];
}

export const RULES_EXTRACTOR_ID = 'rules@2';

/**
 * The deterministic extractor: explicit statements, corrections, hypotheticals, relations and
 * decisions read with hand-written patterns (see `fact-patterns.ts` and `relation-patterns.ts`).
 * It never calls a model, runs in microseconds, and prefers missing a fact to inventing one:
 * questions yield nothing, what-ifs and hedged statements come back with low confidence (so the
 * engine sends them to review), and values are kept exactly as written.
 *
 * A fact whose owner is not named ("no, the lead time is 30 days") is attached to the entity the
 * same key was last stated for in this turn or the context; failing that it is returned with an
 * empty `entity` for the engine to resolve against stored facts.
 */
export function rulesExtractor(options: RulesExtractorOptions = {}): Extractor {
  const roles = new Set<MessageRole>(options.roles ?? ['user']);
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: RULES_EXTRACTOR_ID,
    kind: 'rules',
    async extract({ messages, context, knownEntities }) {
      return extractWithRules({ messages, context, knownEntities, roles });
    },
  };
}

interface Owner {
  entityType: string;
  entity: string;
}

function extractWithRules(args: {
  messages: TurnMessage[];
  context: TurnMessage[];
  knownEntities: string[];
  roles: ReadonlySet<MessageRole>;
}): Extraction {
  const known = new Set(args.knownEntities.map((n) => n.trim().toLowerCase()).filter((n) => n.length > 0));
  /** Who each attribute was last stated for: resolves "the lead time" in a later sentence. */
  const owners = new Map<string, Owner>();
  /** Keys already stated per entity: "the Berlin warehouse cutoff" is its "shipping cutoff". */
  const keysOf = new Map<string, string[]>();
  const remember = (fact: FactCandidate) => {
    if (fact.entity === UNRESOLVED_ENTITY) return;
    owners.set(fact.key, { entityType: fact.entityType, entity: fact.entity });
    const entity = fact.entity.toLowerCase();
    keysOf.set(entity, [...(keysOf.get(entity) ?? []).filter((k) => k !== fact.key), fact.key]);
    if (fact.named) known.add(fact.entity.toLowerCase());
  };

  for (const message of args.context) {
    if (!args.roles.has(message.role)) continue;
    for (const clause of clausesOf(message.content)) {
      if (clause.hypothetical) continue;
      for (const fact of factsFromClause(clause, { knownEntities: known })) {
        if (fact.kind !== 'hypothetical' && fact.confidence >= 0.75) remember(fact);
      }
    }
  }

  const facts = new Map<string, ExtractedFact>();
  const relations: ExtractedRelation[] = [];
  const entities = new Map<string, ExtractedEntity>();
  const addEntity = (name: string, type: string, messageId: string, aliases?: string[]) => {
    const key = name.toLowerCase();
    if (!entities.has(key)) {
      entities.set(key, { name, type, ...(aliases && aliases.length > 0 ? { aliases } : {}), messageId });
    }
  };
  const ref = (node: { name: string; type: string }) => ({ name: node.name, type: node.type });

  for (const message of args.messages) {
    if (!args.roles.has(message.role)) continue;
    for (const clause of clausesOf(message.content)) {
      for (const candidate of factsFromClause(clause, { knownEntities: known })) {
        const fact = { ...candidate };
        if (fact.entity === UNRESOLVED_ENTITY) {
          const owner = owners.get(fact.key);
          if (owner) Object.assign(fact, owner);
        }
        // "the Berlin warehouse cutoff" is its "shipping cutoff"; the speaker's "birthday" is not their son's.
        const longer = keysOf
          .get(fact.entity.toLowerCase())
          ?.find((k) => k.endsWith(` ${fact.key}`) && !namesRelative(k.slice(0, -fact.key.length)));
        if (longer) fact.key = longer;
        const opensSentence = clause.factText.toLowerCase().startsWith(fact.entity.toLowerCase());
        if (
          fact.named &&
          isEntityPhrase(fact.entity, { knownEntities: known, atSentenceStart: opensSentence })
        ) {
          addEntity(
            fact.entity,
            fact.entityType === 'entity' ? nodeTypeOf(fact.entity) : fact.entityType,
            message.id,
          );
        }
        if (fact.kind !== 'hypothetical') remember(fact);
        // A later statement of the same key in the same turn wins ("45 days. No, 30 days.").
        const id = `${fact.entityType}\u0000${fact.entity.toLowerCase()}\u0000${fact.key}\u0000${fact.kind === 'hypothetical'}`;
        facts.delete(id);
        facts.set(id, {
          entityType: fact.entityType,
          entity: fact.entity,
          key: fact.key,
          value: fact.value,
          confidence: fact.confidence,
          kind: fact.kind,
          messageId: message.id,
          evidence: fact.evidence,
        });
      }
      const found = relationsFromClause(clause, { knownEntities: known });
      for (const relation of found.relations) {
        if (relation.kind !== 'hypothetical') {
          addEntity(relation.from.name, relation.from.type, message.id, relation.from.aliases);
          addEntity(relation.to.name, relation.to.type, message.id, relation.to.aliases);
          known.add(relation.from.name.toLowerCase());
          known.add(relation.to.name.toLowerCase());
        }
        relations.push({
          from: ref(relation.from),
          to: ref(relation.to),
          relation: relation.relation,
          confidence: relation.confidence,
          kind: relation.kind,
          messageId: message.id,
          evidence: relation.evidence,
        });
      }
      for (const decision of found.decisions) addEntity(decision.name, decision.type, message.id);
    }
  }
  return { facts: [...facts.values()], entities: [...entities.values()], relations };
}
