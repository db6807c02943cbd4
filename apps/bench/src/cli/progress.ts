import { Presets, SingleBar } from 'cli-progress';

/** Where long runs report how far they are. */
export interface Progress {
  start(total: number, phase: string): void;
  /** One more unit done. */
  advance(): void;
  /** What is being done now. */
  phase(label: string): void;
  stop(): void;
}

export const noProgress: Progress = {
  start() {},
  advance() {},
  phase() {},
  stop() {},
};

/**
 * A progress bar on `stream` (stderr), drawn only when it is a terminal: redirected or captured
 * output gets no control characters.
 */
export function progressBar(stream: NodeJS.WritableStream & { isTTY?: boolean }): Progress {
  if (!stream.isTTY) return noProgress;
  const bar = new SingleBar(
    {
      stream,
      format: '{bar} {percentage}% | {value}/{total} | ETA {eta_formatted} | {phase}',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 200,
      fps: 5,
    },
    Presets.shades_classic,
  );
  let value = 0;
  let phase = '';
  return {
    start(total, startPhase) {
      value = 0;
      phase = startPhase;
      bar.start(total, 0, { phase });
    },
    advance() {
      value += 1;
      bar.update(value, { phase });
    },
    phase(label) {
      phase = label;
      bar.update(value, { phase });
    },
    stop() {
      bar.stop();
    },
  };
}
