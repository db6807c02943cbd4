import type { Scope } from '@strata-memory/core';

/** Who is in the demo: three people at one company, plus two automated jobs. */

export interface Person {
  /** The user id: their memory lives at `{ orgId: 'acme', userId: id }`. */
  id: string;
  name: string;
  title: string;
  scope: Scope;
}

export const ORG: Scope = { orgId: 'acme' };

function person(id: string, name: string, title: string): Person {
  return { id, name, title, scope: { ...ORG, userId: id } };
}

/** User A: a procurement manager, the main character. */
export const maria = person('maria', 'Maria', 'procurement manager');
/** User B: buys IT equipment at the same company; talks payment terms too. */
export const tom = person('tom', 'Tom', 'IT buyer');
/** Leads the platform team; owns the REST → gRPC migration. */
export const priya = person('priya', 'Priya', 'platform lead');

/** Joins the finance team in scene 10 and introduces herself in plain sentences. */
export const ada = person('ada', 'Ada', 'new finance analyst');

export const people: readonly Person[] = [maria, tom, priya, ada];

/** The scheduled inbox-triage job (scene 8): its ledger and checkpoints live here. */
export const inboxJob: Scope = { ...ORG, agentId: 'inbox-triage' };

/** The demo's own bookkeeping (the simulated calendar), kept in Strata's state layer. */
export const demoRunner: Scope = { ...ORG, agentId: 'strata-demo' };
