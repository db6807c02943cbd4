import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI package's folder. */
export const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts `strata inspect <args>` from source, as a user runs it, and resolves with the URL it
 * prints (rejects if it exits first).
 */
export function startInspect(args: string[], cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      '--conditions=@strata-memory/source',
      join(packageDir, 'src', 'bin.ts'),
      'inspect',
      ...args,
    ],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`strata inspect exited with ${code}: ${err}${out}`)));
  });
}

/** Stops the inspector with SIGTERM (as Ctrl+C would) and resolves with its exit code. */
export function stopInspect(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve(child.exitCode);
      return;
    }
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
