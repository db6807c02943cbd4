import { runCli } from './cli/cli.ts';

// pnpm runs the script from the package's folder; paths on the command line are meant relative to
// where the command was typed, which pnpm passes as INIT_CWD.
process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.env.INIT_CWD ?? process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
