import type { Embedder } from '../ports/ports.ts';
import { cosine } from '../scoring/scoring.ts';

/**
 * Everyday texts on topics that share nothing, written for calibration (from no benchmark). Each
 * topic has a question and two statements that answer it; a text from one topic is unrelated to
 * every text of another. They measure the cosine unrelated texts reach with an embedder, which an
 * embedder declares as `unrelatedSimilarity`.
 */
const CALIBRATION_TOPICS: ReadonlyArray<{ question: string; statements: readonly string[] }> = [
  {
    question: 'How often should I water the tomato plants?',
    statements: [
      'I water the tomatoes every other morning before work.',
      'The tomato plants wilt if the soil dries out.',
    ],
  },
  {
    question: 'When does the train to the airport leave?',
    statements: [
      'The airport train leaves every twenty minutes from platform four.',
      'My flight is at nine, so I take the early train.',
    ],
  },
  {
    question: 'What is a good recipe for banana bread?',
    statements: [
      'Mash three ripe bananas and fold them into the batter.',
      'I bake banana bread at 175 degrees for an hour.',
    ],
  },
  {
    question: 'Which invoice is still unpaid?',
    statements: [
      'Invoice 1042 from the printer is thirty days overdue.',
      'Accounts payable settled every invoice except the printing one.',
    ],
  },
  {
    question: 'How do I reset my router?',
    statements: [
      'Hold the router reset button for ten seconds until the lights blink.',
      'After a reset the wifi password is on the sticker underneath.',
    ],
  },
  {
    question: "What time is the kids' swimming lesson?",
    statements: [
      'Swimming lessons for the children are on Saturday at ten.',
      'The pool asks parents to bring goggles and a towel.',
    ],
  },
  {
    question: 'Why is my knee sore after running?',
    statements: [
      'The physiotherapist said my knee pain comes from weak hip muscles.',
      'I ran a half marathon last week and my knee still aches.',
    ],
  },
  {
    question: 'Which database index speeds up the orders query?',
    statements: [
      'A composite index on customer id and created date made the orders query fast.',
      'The slow query scanned the whole orders table.',
    ],
  },
  {
    question: 'Where did we put the spare house keys?',
    statements: [
      'The spare keys hang on the hook inside the garage door.',
      'Grandma keeps a copy of our house key too.',
    ],
  },
  {
    question: 'What did the doctor say about my cholesterol?',
    statements: [
      'My cholesterol was a bit high, so the doctor suggested less red meat.',
      'The blood test results come back on Thursday.',
    ],
  },
  {
    question: 'How much does the violin cost to repair?',
    statements: [
      'The luthier quoted eighty euros to fix the cracked violin bridge.',
      'I have played the violin since I was seven.',
    ],
  },
  {
    question: 'Is it going to snow in the mountains this weekend?',
    statements: [
      'The forecast shows heavy snow above 1,500 metres on Saturday.',
      'We booked a ski cabin for the weekend.',
    ],
  },
];

/** Each question with each statement of another topic: a query and a stored text it is unrelated to. */
function unrelatedPairs(): Array<{ query: string; text: string }> {
  return CALIBRATION_TOPICS.flatMap((topic, i) =>
    CALIBRATION_TOPICS.flatMap((other, j) =>
      i === j ? [] : other.statements.map((text) => ({ query: topic.question, text })),
    ),
  );
}

/** Each question with each statement of its own topic: a query and a stored text that answers it. */
function relatedPairs(): Array<{ query: string; text: string }> {
  return CALIBRATION_TOPICS.flatMap((topic) =>
    topic.statements.map((text) => ({ query: topic.question, text })),
  );
}

export interface SimilarityCalibration {
  /** The 99th percentile of the cosine between a question and a statement of another topic. */
  unrelated: number;
  /** The median cosine between a question and a statement that answers it. */
  related: number;
  /** Pairs measured of each kind. */
  pairs: { unrelated: number; related: number };
}

/**
 * Measures, with `embedder`, how alike unrelated texts look (questions embedded as queries,
 * statements as documents, as recall does): the value an embedder declares as
 * `unrelatedSimilarity`, next to how alike a question and its answer look, which should be well
 * above it for the floor to cost nothing.
 */
export async function measureUnrelatedSimilarity(embedder: Embedder): Promise<SimilarityCalibration> {
  const cosines = async (pairs: Array<{ query: string; text: string }>) => {
    const queries = await embedder.embed({ texts: pairs.map((p) => p.query), purpose: 'query' });
    const texts = await embedder.embed({ texts: pairs.map((p) => p.text), purpose: 'document' });
    return pairs.map((_, i) => cosine(queries[i]!, texts[i]!)).sort((a, b) => a - b);
  };
  const unrelated = await cosines(unrelatedPairs());
  const related = await cosines(relatedPairs());
  return {
    unrelated: quantile(unrelated, 0.99),
    related: quantile(related, 0.5),
    pairs: { unrelated: unrelated.length, related: related.length },
  };
}

/** The `q` quantile of ascending `values` (nearest rank). */
function quantile(values: readonly number[], q: number): number {
  return values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))]!;
}
