import { describe, expect, it } from 'vitest';
import { chooseChatModel } from './chat-model.ts';

describe('chooseChatModel', () => {
  it('uses OpenAI through Mastra’s model router when a key is set', () => {
    expect(chooseChatModel({ OPENAI_API_KEY: 'sk-test' })).toEqual({
      model: 'openai/gpt-5-mini',
      description: 'OpenAI gpt-5-mini',
    });
    expect(chooseChatModel({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-5' }).model).toBe('openai/gpt-5');
  });

  it('stays offline without a key, or when told to', () => {
    expect(chooseChatModel({}).description).toMatch(/^offline scripted model/);
    expect(chooseChatModel({ OPENAI_API_KEY: 'sk-test', STRATA_OFFLINE: '1' }).description).toMatch(
      /^offline/,
    );
  });
});
