import type { Scope } from '@strata-memory/core';
import { type Random, seededRandom } from './random.ts';

const PEOPLE = [
  'Ava',
  'Ben',
  'Chen',
  'Dara',
  'Eli',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jo',
  'Kofi',
  'Lena',
  'Mateo',
  'Nia',
];
const PRODUCTS = [
  'billing service',
  'search cluster',
  'mobile app',
  'data warehouse',
  'onboarding flow',
  'payments gateway',
  'support portal',
  'analytics dashboard',
  'auth proxy',
  'email pipeline',
  'pricing page',
  'inventory sync',
];
const VENDORS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
];
const TOPICS = [
  'renewal',
  'migration',
  'outage',
  'rollout',
  'audit',
  'budget',
  'latency',
  'contract',
  'refund',
  'hiring',
  'roadmap',
  'incident review',
  'security review',
  'capacity plan',
];
const VERBS = [
  'approved',
  'postponed',
  'escalated',
  'rejected',
  'shipped',
  'reviewed',
  'estimated',
  'questioned',
];
const MONTHS = ['January', 'March', 'May', 'July', 'September', 'November'];

const TEMPLATES: Array<(r: Random, serial: string) => string> = [
  (r, s) =>
    `${r.pick(PEOPLE)} ${r.pick(VERBS)} the ${r.pick(PRODUCTS)} ${r.pick(TOPICS)} with ${r.pick(VENDORS)} (ticket ${s}).`,
  (r, s) =>
    `The ${r.pick(TOPICS)} for the ${r.pick(PRODUCTS)} costs $${(1 + r.int(90)) * 100}; ${r.pick(PEOPLE)} wants it done by ${1 + r.int(28)} ${r.pick(MONTHS)}. Ref ${s}.`,
  (r, s) =>
    `We measured p95 latency of ${20 + r.int(400)} ms on the ${r.pick(PRODUCTS)} after the ${r.pick(TOPICS)}, run ${s}.`,
  (r, s) =>
    `${r.pick(VENDORS)} says the ${r.pick(PRODUCTS)} lead time is ${5 + r.int(60)} days; ${r.pick(PEOPLE)} will confirm on call ${s}.`,
  (r, s) =>
    `Decision ${s}: the ${r.pick(PRODUCTS)} depends on the ${r.pick(PRODUCTS)} until the ${r.pick(TOPICS)} is finished.`,
  (r, s) =>
    `Note from ${r.pick(PEOPLE)}: ${r.pick(VENDORS)} ${r.pick(VERBS)} our ${r.pick(TOPICS)} request for ${r.int(500) + 10} seats, item ${s}.`,
];

const QUESTIONS: Array<(r: Random) => string> = [
  (r) => `What did we decide about the ${r.pick(PRODUCTS)} ${r.pick(TOPICS)}?`,
  (r) => `How much does the ${r.pick(TOPICS)} for the ${r.pick(PRODUCTS)} cost?`,
  (r) => `What is the lead time ${r.pick(VENDORS)} gave for the ${r.pick(PRODUCTS)}?`,
  (r) => `Who ${r.pick(VERBS)} the ${r.pick(TOPICS)} with ${r.pick(VENDORS)}?`,
  (r) => `What latency did the ${r.pick(PRODUCTS)} have after the ${r.pick(TOPICS)}?`,
];

export interface CorpusMessage {
  scope: Scope;
  speaker: string;
  content: string;
  at: number;
}

export interface CorpusShape {
  items: number;
  /** Users (tenants' end users); 10 users per organisation. */
  users: number;
  /** Messages per thread. */
  threadLength: number;
  seed: number;
}

export const USERS_PER_ORG = 10;
const START = Date.UTC(2025, 0, 6, 9, 0);
const MESSAGE_SPACING_MS = 90_000;

export function userScope(user: number): Scope {
  return { orgId: `org-${Math.floor(user / USERS_PER_ORG)}`, userId: `user-${user}` };
}

/**
 * A synthetic multi-tenant corpus: `items` messages spread round-robin over `users` users in
 * organisations of ten, each user's messages in threads of `threadLength`, with business-chat
 * text (people, products, vendors, amounts, dates) and a unique serial per message so none is a
 * duplicate of another. Deterministic for a seed; generated lazily so 1M items cost no memory.
 */
export function* corpus(shape: CorpusShape): Generator<CorpusMessage> {
  const random = seededRandom(shape.seed);
  for (let i = 0; i < shape.items; i++) {
    const user = i % shape.users;
    const position = Math.floor(i / shape.users);
    const thread = Math.floor(position / shape.threadLength);
    const serial = `S${i.toString(36).toUpperCase().padStart(5, '0')}`;
    yield {
      scope: { ...userScope(user), threadId: `thread-${thread}` },
      speaker: random.pick(PEOPLE),
      content: random.pick(TEMPLATES)(random, serial),
      at: START + position * MESSAGE_SPACING_MS,
    };
  }
}

/** A question a user of the corpus might ask, and the scope (a new thread of that user) to ask it from. */
export function corpusQuestion(random: Random, users: number): { scope: Scope; query: string } {
  const user = random.int(users);
  return {
    scope: { ...userScope(user), threadId: 'thread-question' },
    query: random.pick(QUESTIONS)(random),
  };
}

export const corpusVocabulary = { PEOPLE, PRODUCTS, VENDORS, TOPICS };
