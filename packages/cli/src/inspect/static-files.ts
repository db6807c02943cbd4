import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The page's files: its own (`web/`, beside this module in the sources; the published package
 * keeps `src/`, so a built copy finds them there) and the libraries it imports, served straight
 * from the installed packages' ES module builds. No bundler, no network.
 */

const here = dirname(fileURLToPath(import.meta.url));
const WEB_DIR = [join(here, 'web'), join(here, '..', '..', 'src', 'inspect', 'web')].find((dir) =>
  existsSync(join(dir, 'index.html')),
);

const require = createRequire(import.meta.url);

/**
 * An installed package's file, found from the package's folder (the folder of its main entry's
 * nearest `package.json` of that name), so files its `exports` do not list can be served.
 */
function packageFile(pkg: string, file: string): string {
  let dir = dirname(require.resolve(pkg));
  while (!isPackageRoot(dir, pkg)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of the installed package ${pkg}`);
    dir = parent;
  }
  return join(dir, file);
}

function isPackageRoot(dir: string, pkg: string): boolean {
  const manifest = join(dir, 'package.json');
  return (
    existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === pkg
  );
}

/** `/vendor/<name>` → the ES module file it serves; the page's import map names the same paths. */
const VENDOR: Record<string, string> = {
  'preact.mjs': packageFile('preact', 'dist/preact.mjs'),
  'preact-hooks.mjs': packageFile('preact', 'hooks/dist/hooks.mjs'),
  'htm.mjs': packageFile('htm', 'dist/htm.mjs'),
  'htm-preact.mjs': packageFile('htm', 'preact/index.mjs'),
  'cytoscape.mjs': packageFile('cytoscape', 'dist/cytoscape.esm.min.mjs'),
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A static file for a request path, or undefined when there is none. */
export async function staticFile(path: string): Promise<{ body: Buffer; type: string } | undefined> {
  if (WEB_DIR === undefined) throw new Error('the inspector page files are missing from this install');
  let file: string | undefined;
  if (path === '/' || path === '/index.html') file = join(WEB_DIR, 'index.html');
  else if (path.startsWith('/vendor/')) file = VENDOR[path.slice('/vendor/'.length)];
  else {
    const candidate = normalize(join(WEB_DIR, decodeURIComponent(path)));
    if (candidate.startsWith(WEB_DIR + sep)) file = candidate;
  }
  const type = file === undefined ? undefined : TYPES[extname(file)];
  if (file === undefined || type === undefined || !existsSync(file)) return undefined;
  return { body: await readFile(file), type };
}
