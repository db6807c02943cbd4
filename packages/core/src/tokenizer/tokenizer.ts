import { createRequire } from 'node:module';
import { PORT_SPECIFICATION_VERSION, type Tokenizer } from '../ports/ports.ts';

/**
 * The default tokenizer: OpenAI's `o200k_base` byte-pair encoding (GPT-4o and later), through
 * `gpt-tokenizer`, a pure JavaScript port of tiktoken (same token ids; it builds its tables several
 * times faster than `js-tiktoken` and encodes about twenty times faster).
 * The rank table is loaded on the first `count` or `truncate`, not at import, and shared by every
 * instance.
 *
 * Special-token strings such as `<|endoftext|>` are counted as ordinary text: memory contents are
 * data, never control tokens.
 */
export function defaultTokenizer(): Tokenizer {
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'tiktoken:o200k_base',
    lineSeparable: true,
    count(text) {
      if (text.length === 0) return 0;
      // Counts without building the token array (about a tenth faster than encode().length).
      return load().countTokens(text, PLAIN_TEXT);
    },
    truncate(text, maxTokens) {
      if (!Number.isFinite(maxTokens) || maxTokens <= 0 || text.length === 0) return '';
      const tokens = encode(text);
      if (tokens.length <= maxTokens) return text;
      return longestPrefixWithin(text, tokens, Math.floor(maxTokens));
    },
  };
}

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

let encoder: Encoding | undefined;

/** No special tokens are recognised: `<|endoftext|>` in stored text is encoded as plain characters. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function load(): Encoding {
  encoder ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return encoder;
}

function encode(text: string): number[] {
  return load().encode(text, PLAIN_TEXT);
}

/**
 * Decoding the first `maxTokens` tokens can end inside a multi-byte character (the decoder then
 * yields U+FFFD) or re-encode to more tokens; step back until the result is a true prefix of
 * `text` that counts within the limit.
 */
function longestPrefixWithin(text: string, tokens: number[], maxTokens: number): string {
  const decoder = encoder!;
  for (let n = maxTokens; n > 0; n--) {
    const candidate = decoder.decode(tokens.slice(0, n));
    if (text.startsWith(candidate) && encode(candidate).length <= maxTokens) return candidate;
  }
  return '';
}
