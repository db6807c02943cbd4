/**
 * The packages as a user receives them.
 *
 * `pnpm pack:packages` builds every package once and packs each public one into `.packages/`
 * (gitignored), the tarballs `npm publish` would upload.
 * `pnpm check:packages` checks those tarballs: publint (strict), Are the Types Wrong (ESM-only
 * profile), then installs them with npm into a scratch project (the tarballs for our packages, the
 * npm registry for everything else) and, per package and entry point, imports it under ESM and
 * resolves its types with TypeScript's `node16` and `bundler` module resolution.
 *
 * Run from the repository root: `node --experimental-strip-types scripts/packages.ts pack|check`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
}

const root = join(import.meta.dirname, '..');
const outDir = join(root, '.packages');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function run(command: string, args: string[], cwd = root, quiet = false): void {
  console.log(`$ ${command.replace(`${root}/`, '')} ${args.join(' ')}`);
  execFileSync(command, args, {
    cwd,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
}

/** Every package under `packages/` that is not private, with its directory. */
function publicPackages(): { dir: string; manifest: Manifest }[] {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((name) => {
      const dir = join(root, 'packages', name);
      return { dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest };
    })
    .filter(({ manifest }) => !manifest.private);
}

/** The tarball pnpm writes for a package: `@scope/name@1.0.0` → `scope-name-1.0.0.tgz`. */
function tarballName({ name, version }: Manifest): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

function pack(): void {
  run('pnpm', ['run', 'build', '--output-logs=errors-only']);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  for (const { dir } of publicPackages()) run('pnpm', ['pack', '--pack-destination', outDir], dir, true);
}

function check(): void {
  const packages = publicPackages();
  const tarballs = packages.map(({ manifest }) => join(outDir, tarballName(manifest)));
  const present = new Set(readdirSync(outDir));
  const missing = tarballs.filter((path) => !present.has(path.slice(outDir.length + 1)));
  if (missing.length > 0)
    throw new Error(`not packed: ${missing.join(', ')}; run \`pnpm pack:packages\` first`);

  for (const tarball of tarballs) {
    run(bin('publint'), ['run', tarball, '--strict']);
    run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped']);
  }

  const scratch = mkdtempSync(join(tmpdir(), 'strata-packages-'));
  try {
    const dependencies = Object.fromEntries(
      packages.map(({ manifest }, i) => [manifest.name, `file:${tarballs[i]}`]),
    );
    // Optional peers too (the README's install line for each feature), at the range the package declares.
    const peers = Object.fromEntries(
      packages.flatMap(({ manifest }) =>
        Object.entries(manifest.peerDependencies ?? {}).filter(
          ([name]) => !name.startsWith('@strata-memory/'),
        ),
      ),
    );
    // The tarballs depend on each other by version: overrides point those at the tarballs too.
    writeFileSync(
      join(scratch, 'package.json'),
      `${JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { ...peers, ...dependencies, '@types/node': '^24.10.0' }, overrides: dependencies }, null, 2)}\n`,
    );
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], scratch);

    const specifiers = packages.flatMap(({ manifest }) =>
      Object.keys(manifest.exports ?? { '.': null }).map((entry) =>
        entry === '.' ? manifest.name : `${manifest.name}/${entry.slice(2)}`,
      ),
    );
    // ESM: each entry imports in a plain Node process and exports something.
    const smoke = specifiers
      .map(
        (spec, i) =>
          `import * as m${i} from '${spec}';\nif (Object.keys(m${i}).length === 0) throw new Error('${spec} exports nothing');`,
      )
      .join('\n');
    writeFileSync(
      join(scratch, 'smoke.mjs'),
      `${smoke}\nconsole.log('imported ${specifiers.length} entry points');\n`,
    );
    run(process.execPath, ['--disable-warning=ExperimentalWarning', 'smoke.mjs'], scratch);

    // Types: each entry's declarations resolve and type-check for a user's TypeScript project.
    const typed = specifiers.map(
      (spec, i) => `import type * as t${i} from '${spec}';\nexport type T${i} = typeof t${i};`,
    );
    writeFileSync(join(scratch, 'types.ts'), `${typed.join('\n')}\n`);
    for (const [module, moduleResolution] of [
      ['node16', 'node16'],
      ['esnext', 'bundler'],
    ]) {
      const config = {
        compilerOptions: {
          module,
          moduleResolution,
          target: 'es2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['types.ts'],
      };
      writeFileSync(join(scratch, `tsconfig.${moduleResolution}.json`), JSON.stringify(config));
      run(bin('tsc'), ['-p', `tsconfig.${moduleResolution}.json`], scratch);
      console.log(`types resolve under moduleResolution ${moduleResolution}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${packages.length} packages checked as published`);
}

const command = process.argv[2];
if (command === 'pack') pack();
else if (command === 'check') check();
else {
  console.error('usage: scripts/packages.ts pack|check');
  process.exit(2);
}
