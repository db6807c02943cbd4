import { words } from './terms.ts';

/** Words for someone by how they are related to a speaker: "my sister", "my flatmate" (a regex alternation). */
export const RELATION_WORDS =
  'sister|brother|mum|mom|mother|dad|father|husband|wife|partner|son|daughter|boyfriend|girlfriend|fiancé|fiancée|fiance|fiancee|grandma|grandmother|gran|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|stepmum|stepmom|stepdad|stepson|stepdaughter|flatmate|roommate|housemate';
const RELATION_WORD = new RegExp(`^(?:${RELATION_WORDS})$`, 'i');

/**
 * True when a key (or the words a longer key adds to a shorter one) names a relative: "son
 * birthday" is the speaker's son's birthday, never the speaker's own "birthday".
 */
export function namesRelative(key: string): boolean {
  return words(key).some((w) => RELATION_WORD.test(w));
}
