import { describe, expect, it } from 'vitest';
import { extractedTurns } from '../test/extracted-turns.ts';

const read = (turns: string[]) => extractedTurns(turns);

describe('versions and rates, one key whatever the verb', () => {
  it('keys the version a thing runs by the product, through an upgrade said either way', async () => {
    expect(
      await read([
        'The Hamburg cluster runs Kubernetes 1.29.',
        'The Hamburg cluster was upgraded to Kubernetes 1.30.',
        'We upgraded the Hamburg cluster to Kubernetes 1.31.',
      ]),
    ).toEqual([
      ['statement', 'Hamburg cluster', 'kubernetes version', '1.29'],
      ['correction', 'Hamburg cluster', 'kubernetes version', '1.30'],
      ['correction', 'Hamburg cluster', 'kubernetes version', '1.31'],
    ]);
  });

  it('keys a count in a period by what is counted, not by the verb that counts it', async () => {
    expect(
      await read([
        'The Tilburg depot handles 3,000 parcels a day.',
        'The Tilburg depot now processes 3,500 parcels per day.',
      ]),
    ).toEqual([
      ['statement', 'Tilburg depot', 'parcels per day', '3,000 parcels a day'],
      ['correction', 'Tilburg depot', 'parcels per day', '3,500 parcels per day'],
    ]);
  });

  it('keys hours stated with a participle by the participle, for the thing it is said of', async () => {
    expect(await read(['The customer support queue is staffed until 8 pm.'])).toEqual([
      ['statement', 'customer support queue', 'staffed until', '8 pm'],
    ]);
  });
});
