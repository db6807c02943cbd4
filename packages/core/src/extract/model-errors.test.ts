import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { modelFailure, modelOutputInvalid } from './model-errors.ts';

describe('model errors', () => {
  it('modelFailure is a retryable third-party error that keeps its cause', () => {
    const cause = new Error('rate limited');
    const error = modelFailure('aiSdkEmbedder(x)', cause);
    expect(error).toMatchObject({ code: 'model_failure', category: 'third_party', retryable: true });
    expect(error.message).toBe('aiSdkEmbedder(x): rate limited');
    expect(error.cause).toBe(cause);
    expect(modelFailure('w', 'plain string').message).toBe('w: plain string');
  });

  it('modelFailure passes a StrataError through unchanged', () => {
    const original = new StrataError({ code: 'invalid_input', message: 'bad' });
    expect(modelFailure('w', original)).toBe(original);
  });

  it('modelOutputInvalid carries its details', () => {
    const error = modelOutputInvalid('w', 'vector 0 is all zeros', { index: 0 });
    expect(error).toMatchObject({ code: 'model_output_invalid', retryable: false, details: { index: 0 } });
    expect(error.message).toBe('w: vector 0 is all zeros');
  });
});
