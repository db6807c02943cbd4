import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { strataMemory } from '../index.ts';

function optionsError(options: unknown): StrataError {
  try {
    strataMemory(options as never);
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected strataMemory to throw');
}

describe('strataMemory option errors', () => {
  it("Mastra's `options: { lastMessages }` points to where the history window is set", async () => {
    const memory = await newMemory();
    const error = optionsError({ memory, options: { lastMessages: 10 } });
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('unknown key "options"');
    expect(error.message).toContain('lastMessages');
    expect(error.message).toContain('history');
    expect(error.message).toContain('recall.budget');
  });

  it('a near-miss option suggests the option it meant', async () => {
    const memory = await newMemory();
    const error = optionsError({ memory, agentID: 'a' });
    expect(error.message).toContain('did you mean agentId?');
    const issues = (error.details as { issues: { suggestion?: string }[] }).issues;
    expect(issues[0]?.suggestion).toBe('agentId');
  });

  it('a near-miss nested recall option suggests the nested option', async () => {
    const memory = await newMemory();
    const error = optionsError({ memory, recall: { maxEpisode: 3 } });
    expect(error.message).toContain('recall.maxEpisode');
    expect(error.message).toContain('did you mean maxEpisodes?');
  });
});
