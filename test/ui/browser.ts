import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's chromium: the tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, '..', '..', '.screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  screenshot(name: string, options?: { fullPage?: boolean; page?: Page }): Promise<string>;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile, quiet on the network (no sync, updates or background calls). */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'teamrun-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 1000 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    async screenshot(name, options = {}) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await (options.page ?? page).screenshot({ path: file, fullPage: options.fullPage ?? false });
      return file;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the element shows (the UI loads and polls), failing with what was looked for. */
export async function see(locator: Locator, timeoutMs = 30_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    const shot = path.join(SCREENSHOTS, `failed-${Date.now()}.png`);
    await locator
      .page()
      .screenshot({ path: shot, fullPage: true })
      .catch(() => undefined);
    throw new Error(`expected to see ${String(locator)} within ${timeoutMs / 1000} s (page as it was: ${shot})`);
  }
}

/** Waits until `locator` matches exactly `count` elements. */
export async function countIs(locator: Locator, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  while (Date.now() < deadline) {
    seen = await locator.count();
    if (seen === count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`expected ${String(locator)} to match ${count} elements, saw ${seen}`);
}
