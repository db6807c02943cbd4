/**
 * One peer on one dataset, in a process of its own (started by `runPeers`), so that its peak RSS
 * and warm-up are its own. Reads its options as JSON from argv[2], reports progress and the outcome
 * to the parent over IPC, then exits.
 */
import { defaultTokenizer } from '@strata-memory/core';
import { localEmbedder } from '@strata-memory/embed-local';
import { z } from 'zod/v4';
import { loadConversations, selectConversations } from '../locomo/dataset.ts';
import { describeError } from './describe-error.ts';
import { measureLocomo, measurePerf } from './measure-peer.ts';
import { openPeer, PEER_LABELS } from './open-peer.ts';
import { PEER_NAMES } from './peer-memory.ts';
import { PEER_DATASETS, type PeerOutcome, type WorkerMessage } from './peer-run.ts';
import { timedEmbedder } from './timed-embedder.ts';

export const workerOptionsSchema = z.object({
  peer: z.enum(PEER_NAMES),
  dataset: z.enum(PEER_DATASETS),
  /** LoCoMo folder (absolute), for `locomo`. */
  data: z.string().optional(),
  /** Only these conversations of the folder (file names without `.json`); all when absent. */
  conversations: z.array(z.string()).optional(),
  items: z.number().int().min(1),
  queries: z.number().int().min(1),
  seed: z.number().int().min(0),
});
export type WorkerOptions = z.infer<typeof workerOptionsSchema>;

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('peer-worker runs as a child process with an IPC channel'));
      return;
    }
    process.send(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

async function run(options: WorkerOptions): Promise<PeerOutcome> {
  const tokenizer = defaultTokenizer();
  const model = localEmbedder();
  // Load the model and run one pass, so no peer's first turn pays for loading or compiling it.
  await model.warmup();
  await model.embed({ texts: ['warm-up'] });
  const embedder = timedEmbedder(model);
  const hooks = {
    start: (total: number) => void send({ type: 'start', total }),
    advance: () => void send({ type: 'advance' }),
  };
  const conversations =
    options.dataset === 'locomo'
      ? selectConversations(await loadConversations(options.data ?? ''), options.conversations)
      : undefined;
  const peer = await openPeer(options.peer, { embedder, tokenizer });
  try {
    const measured = conversations
      ? await measureLocomo({ peer, embedder, conversations, hooks })
      : await measurePerf({
          peer,
          embedder,
          items: options.items,
          queries: options.queries,
          seed: options.seed,
          hooks,
        });
    return {
      ok: true,
      peer: options.peer,
      dataset: options.dataset,
      label: peer.label,
      ...measured,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await peer.close();
  }
}

const parsed = workerOptionsSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
let outcome: PeerOutcome;
try {
  outcome = await run(parsed);
} catch (error) {
  outcome = {
    ok: false,
    peer: parsed.peer,
    dataset: parsed.dataset,
    label: PEER_LABELS[parsed.peer],
    error: describeError(error),
  };
}
await send({ type: 'result', outcome });
// Some peers keep pools or timers open after close: the outcome is out, so end here.
process.exit(0);
