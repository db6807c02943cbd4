/**
 * Type-level checks of the public API against the installed `ai` (compiled by `tsc --noEmit`,
 * never run): the calls a user writes must type-check without casts.
 */
import type { Memory, Scope } from '@strata-memory/core';
import { generateText, type LanguageModel, streamText, ToolLoopAgent, wrapLanguageModel } from 'ai';
import {
  aiSdkSummarizer,
  memoryTools,
  memoryToolsContext,
  strataMiddleware,
  strataProviderOptions,
  withMemory,
} from './index.ts';

export function typeChecks(memory: Memory, base: Exclude<LanguageModel, string>, scope: Scope): void {
  const model = withMemory(base, { memory });
  const wrapped = wrapLanguageModel({ model: base, middleware: [strataMiddleware({ memory, scope })] });

  // A `Scope` variable reaches the middleware through providerOptions, alone or beside other providers'.
  void generateText({ model, prompt: 'hi', providerOptions: strataProviderOptions(scope) });
  void streamText({
    model: wrapped,
    prompt: 'hi',
    providerOptions: { ...strataProviderOptions(scope), openai: {} },
  });

  // Memory tools with a bound scope need no tool context; without one, memoryToolsContext supplies it.
  void generateText({ model, prompt: 'hi', tools: memoryTools({ memory, scope }) });
  void generateText({
    model,
    prompt: 'hi',
    tools: memoryTools({ memory }),
    toolsContext: memoryToolsContext(scope),
  });

  // The summarizer bridge takes the same model (a plain one, not wrapped with memory).
  void aiSdkSummarizer({ model: base, instructions: 'Be brief.' });

  void new ToolLoopAgent({
    model,
    tools: memoryTools({ memory }),
    providerOptions: strataProviderOptions(scope),
  });
}
