import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { AI_MAJOR } from './ai-under-test.ts';

describe('the AI SDK major under test', () => {
  it('is the one this run was configured for, in the tests and in the adapter alike', () => {
    const expected = Number(process.env.STRATA_EXPECT_AI_MAJOR ?? '7');
    expect(AI_MAJOR).toBe(expected);
    // `wrapLanguageModel` of ai 7 turns any model into a V4 model; ai 6's keeps V3.
    const wrapped = ai.wrapLanguageModel({
      model: { specificationVersion: 'v3', provider: 'p', modelId: 'm', supportedUrls: {} } as never,
      middleware: {},
    });
    expect(wrapped.specificationVersion).toBe(expected === 7 ? 'v4' : 'v3');
  });
});
