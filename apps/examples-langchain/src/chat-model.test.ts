import { describe, expect, it } from 'vitest';
import { chooseChatModel } from './chat-model.ts';

describe('chooseChatModel', () => {
  it('uses OpenAI when an API key is set (no request is made until the first message)', () => {
    const chosen = chooseChatModel({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-test' });
    expect(chosen.description).toBe('OpenAI gpt-test');
    expect(chosen.model._llmType()).toBe('openai');
  });

  it('runs offline without a key, or when STRATA_OFFLINE=1', () => {
    expect(chooseChatModel({}).model._llmType()).toBe('scripted-agent');
    expect(chooseChatModel({ OPENAI_API_KEY: 'sk-test', STRATA_OFFLINE: '1' }).model._llmType()).toBe(
      'scripted-agent',
    );
  });
});
