/**
 * Thirty ways of saying one preference ("I prefer aisle seats"), for tests of paraphrase merging,
 * and controls that state something else and must stay apart from them.
 */
export const AISLE_SEAT_PARAPHRASES: readonly string[] = [
  'I prefer aisle seats.',
  'Aisle seat please.',
  'I always pick the aisle.',
  'Please book me an aisle seat.',
  'My seat preference is aisle.',
  'Put me on the aisle, please.',
  'I like sitting on the aisle.',
  'When I fly I want the aisle.',
  'Aisle, always aisle, for me.',
  'I would rather have an aisle seat.',
  'Give me the aisle whenever you can.',
  'I favour aisle seating on flights.',
  'An aisle seat works best for me.',
  'I go for the aisle seat every time.',
  'Seat-wise, I am an aisle person.',
  'I need an aisle seat on long flights.',
  'Book the aisle for me.',
  'I choose aisle seats when booking.',
  'For seats, I prefer the aisle.',
  'I usually sit on the aisle.',
  'Aisle seats suit me better.',
  'Make it an aisle seat.',
  'I prefer to sit by the aisle.',
  'The aisle is my preferred seat.',
  'I am happiest in an aisle seat.',
  'Reserve an aisle seat for me, please.',
  'I pick aisle over anything else.',
  'An aisle seat, if possible.',
  'I like the aisle so I can stretch my legs.',
  'Always book me on the aisle.',
];

/** Statements near the paraphrases that state something else: none may merge with them. */
export const AISLE_SEAT_CONTROLS = {
  /** A different value of the same key. */
  window: ['I prefer window seats.', 'Window seat please.'],
  /** The aisle preference and a second fact in one sentence. */
  twoFacts: ['I prefer aisle seats and my name is Ada.'],
  /** A question about the aisle: not a fact. */
  question: ['Should I pick the aisle next time?'],
} as const;
