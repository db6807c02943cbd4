import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory } from '@strata-memory/core';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDir, startInspect, stopInspect } from '../../test/inspect-process.ts';
import { MARIA, seedInspectorMemory } from '../../test/inspector-seed.ts';

const CHROMIUM = '/usr/bin/chromium';
/** A tenant rooted at a user, holding only a thread. */
const SOLO = { userId: 'solo', threadId: 't1' };
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
/** Screenshots replace the README's with STRATA_UPDATE_SCREENSHOTS=1; otherwise they go to the test's temp folder. */
const updateScreenshots = process.env.STRATA_UPDATE_SCREENSHOTS === '1';

// Skipped only off CI when Debian's Chromium is not installed (`apt-get install chromium`); on CI
// (CI=true, where .ci/run installs it) a missing browser fails the run instead.
const runBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.runIf(runBrowser)('strata inspect in a real browser', () => {
  let dir: string;
  let db: string;
  let reviewId: string;
  let child: ChildProcess;
  let url: string;
  let browser: Browser;
  let page: Page;
  let screenshotDir: string;
  const requested: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-inspect-'));
    db = join(dir, 'memory.db');
    const memory = createMemory({ store: sqliteStore({ path: db }) });
    ({ reviewId } = await seedInspectorMemory(memory));
    // Another tenant, rooted at a user, listed before Maria's scope (deepest first, no org first)
    // but holding no facts.
    await memory.store.threads.appendMessages({
      scope: SOLO,
      messages: [{ role: 'user', content: 'hello' }],
    });
    await memory.close();
    // No --scope: the page lists every scope in the store and opens on the first that sees facts.
    ({ child, url } = await startInspect([db], dir));
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.on('request', (request) => requested.push(request.url()));
    screenshotDir = updateScreenshots ? join(packageDir, 'docs') : join(dir, 'screenshots');
    mkdirSync(screenshotDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (child) await stopInspect(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: join(screenshotDir, `inspector-${name}.png`) });

  it('refuses an API request without the token', async () => {
    const base = new URL(url);
    const response = await fetch(new URL('/api/facts?scope=org=acme,user=maria', base.origin));
    expect(response.status).toBe(401);
    const page = await fetch(url);
    expect(page.status).toBe(200);
  });

  it('shows the facts with history and provenance, and saves an edit as a correction', async () => {
    await page.goto(url);
    const row = page.locator('table.facts tr', { hasText: 'lead time' });
    await expect.poll(() => row.textContent()).toContain('30 days');
    const scopes = page.getByRole('navigation', { name: 'Scopes' });
    expect(
      await scopes.getByRole('button', { name: 'org=acme,user=maria', exact: true }).getAttribute('class'),
    ).toContain('selected');
    expect(await scopes.getByRole('button', { name: 'user=solo,thread=t1', exact: true }).count()).toBe(1);
    await row.click();
    const detail = page.getByLabel('Fact detail');
    await expect.poll(() => detail.locator('table.history tbody tr').count()).toBe(2);
    expect(await detail.textContent()).toContain('45 days');
    await shot('facts');
    await detail.getByLabel('New value').fill('21 days');
    await detail.getByRole('button', { name: 'Save correction' }).click();
    await expect.poll(() => row.textContent()).toContain('21 days');
  });

  it('approves a review item', async () => {
    await page.getByRole('link', { name: 'Review' }).click();
    const card = page.getByLabel(`Review item ${reviewId}`);
    await expect.poll(() => card.textContent()).toContain('90 days');
    await shot('review');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('Nothing pending here.');
    await page.getByLabel('Review status').selectOption('approved');
    await expect.poll(() => card.textContent()).toContain('approved by inspector');
  });

  it('draws the graph and shows what depends on a selected node', async () => {
    await page.getByRole('link', { name: 'Graph' }).click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { strataGraph?: { nodes(): { length: number } } }).strataGraph?.nodes()
          .length,
    );
    const point = await page.evaluate(() => {
      type Cy = { nodes(): Array<{ data(k: string): string; renderedPosition(): { x: number; y: number } }> };
      const cy = (globalThis as unknown as { strataGraph: Cy }).strataGraph;
      const node = cy.nodes().find((n) => n.data('label') === 'gRPC migration');
      return node?.renderedPosition();
    });
    expect(point).toBeDefined();
    const box = await page.getByLabel('Graph', { exact: true }).boundingBox();
    await page.mouse.click((box?.x ?? 0) + (point?.x ?? 0), (box?.y ?? 0) + (point?.y ?? 0));
    const detail = page.getByLabel('Node detail');
    await expect.poll(() => detail.locator('ul.impact').textContent()).toContain('billing');
    expect(await detail.locator('ul.impact').textContent()).toContain('client SDK');
    // The affected nodes are outlined in the picture too.
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { strataGraph?: { nodes(selector: string): { length: number } } }
        ).strataGraph?.nodes('.impacted').length === 2,
    );
    await shot('graph');
  });

  it('runs a recall that reflects the edit', async () => {
    await page.getByRole('link', { name: 'Recall' }).click();
    await page.getByLabel('Query').fill("What is Supplier X's lead time?");
    await page.getByRole('button', { name: 'Recall' }).click();
    const block = page.getByLabel('Recalled block');
    await expect.poll(() => block.textContent(), { timeout: 60_000 }).toContain('21 days');
    expect(await page.locator('table.explain tbody tr').count()).toBeGreaterThan(0);
    await shot('recall');
  });

  it('shows the audit log with the writes made from the page, and a consolidation preview', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    await expect.poll(() => page.locator('table.audit').textContent()).toContain('review.approve');
    await shot('audit');
    await page.getByRole('link', { name: 'Consolidation' }).click();
    await page.getByRole('button', { name: 'Preview consolidation' }).click();
    await expect.poll(() => page.getByLabel('Consolidation report').textContent()).toContain('Checked');
    await shot('consolidation');
    await page.getByRole('link', { name: 'Episodes' }).click();
    await expect.poll(() => page.locator('table.episodes tbody tr').count()).toBeGreaterThan(0);
    await shot('episodes');
  });

  it('loaded everything from the inspector itself, nothing from the network', () => {
    const origin = new URL(url).origin;
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((address) => !address.startsWith(`${origin}/`))).toEqual([]);
  });

  it('changed the store through the engine: approval, correction and audit entries are on disk', async () => {
    expect(await stopInspect(child)).toBe(0);
    const memory: Memory = createMemory({ store: sqliteStore({ path: db }) });
    try {
      const terms = await memory.facts.get(MARIA, { entity: 'construction suppliers', key: 'payment terms' });
      expect(terms).toMatchObject({ value: '90 days', provenance: { principalId: 'inspector' } });
      const history = await memory.facts.history(MARIA, { entity: 'Supplier X', key: 'lead time' });
      expect(history.map((v) => [v.value, v.status])).toEqual([
        ['45 days', 'superseded'],
        ['30 days', 'superseded'],
        ['21 days', 'active'],
      ]);
      expect(history[2]?.provenance).toMatchObject({ source: 'human', principalId: 'inspector' });
      expect(await memory.review.list(MARIA)).toEqual([]);
      const audit = await memory.store.audit.list({ scope: MARIA, limit: 500 });
      const actions = audit.items.filter((e) => e.actor === 'inspector').map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['review.approve', expect.stringMatching(/^fact\./)]));
    } finally {
      await memory.close();
    }
  });
});
