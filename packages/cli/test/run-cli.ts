import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `strata` command as a user does, from source, in a child process with no terminal on
 * stdin. `STRATA_STORE` is cleared so only the arguments choose the store.
 */
export function runCli(args: string[], options: { env?: Record<string, string> } = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (!options.env?.STRATA_STORE) delete env.STRATA_STORE;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        '--conditions=@strata-memory/source',
        'src/bin.ts',
        ...args,
      ],
      { cwd: PACKAGE_DIR, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** Runs with `--json` and parses stdout (the one JSON document every command prints). */
export async function runJson<T = Record<string, unknown>>(args: string[]): Promise<CliRun & { json: T }> {
  const run = await runCli([...args, '--json']);
  let json: T;
  try {
    json = JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  return { ...run, json };
}

/**
 * Runs the command in a pseudo-terminal (util-linux `script`), as a person at a terminal does, and
 * types `answer` once the command prints `prompt`. Output is what the terminal showed.
 */
export function runCliInTerminal(args: string[], prompt: string, answer: string): Promise<CliRun> {
  const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;
  const command = [
    quote(process.execPath),
    '--experimental-strip-types',
    '--disable-warning=ExperimentalWarning',
    '--conditions=@strata-memory/source',
    'src/bin.ts',
    ...args.map(quote),
  ].join(' ');
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.STRATA_STORE;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: PACKAGE_DIR, env });
    let stdout = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!answered && stdout.includes(prompt)) {
        answered = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr: '' }));
  });
}
