import { Writable } from 'node:stream';
import type { CliIo } from '../src/cli/cli.ts';

/** In-memory stdout and stderr for running the CLI in-process. */
export function captureIo(): CliIo & { out: () => string; err: () => string } {
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    return { stream, text: () => chunks.join('') };
  };
  const stdout = sink();
  const stderr = sink();
  return { stdout: stdout.stream, stderr: stderr.stream, out: stdout.text, err: stderr.text };
}
