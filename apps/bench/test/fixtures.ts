import { fileURLToPath } from 'node:url';
import { PORT_SPECIFICATION_VERSION, type Tokenizer } from '@strata-memory/core';

/** A tiny synthetic LoCoMo-format conversation written for these tests (not the dataset). */
export const TINY_DIR = fileURLToPath(new URL('./fixtures/tiny', import.meta.url));

/** One short conversation in the LoCoMo repository's single-file shape (`data/locomo10.json`), written for these tests. */
export const OFFICIAL_FILE = fileURLToPath(new URL('./fixtures/locomo10-tiny.json', import.meta.url));

/** Counts whitespace-separated words: exact, easy expectations for budget tests. */
export const wordTokenizer: Tokenizer = {
  specificationVersion: PORT_SPECIFICATION_VERSION,
  id: 'words',
  count: (text) => text.split(/\s+/).filter((word) => word.length > 0).length,
  truncate: (text, maxTokens) =>
    text
      .split(/\s+/)
      .filter((word) => word.length > 0)
      .slice(0, Math.max(0, maxTokens))
      .join(' '),
};
