// Test helper: a real headless browser — Debian's chromium (scripts/setup.sh installs it; SPADE_CHROMIUM names
// another binary) driven by puppeteer-core — closed on teardown; and a check that a screenshot is not blank.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Teardown } from './nats.js';

export function chromiumPath(): string {
  const candidates = [process.env.SPADE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter((x): x is string => !!x);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no chromium binary (tried ${candidates.join(', ')}): run scripts/setup.sh, or set SPADE_CHROMIUM`);
  return found;
}

export async function browser(t: Teardown): Promise<Browser> {
  const b = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  t.teardown(() => b.close());
  return b;
}

/** Pages that record their script errors and every request that left for the network. */
export async function page(b: Browser, width = 1400, height = 1600): Promise<Page & { errors: string[]; remote: string[] }> {
  const p = (await b.newPage()) as Page & { errors: string[]; remote: string[] };
  p.errors = [];
  p.remote = [];
  await p.setViewport({ width, height });
  p.on('pageerror', (e) => p.errors.push(String(e)));
  p.on('console', (m) => void (m.type() === 'error' && p.errors.push(m.text())));
  p.on('request', (r) => {
    const u = r.url();
    if (!/^(file:|data:|about:|blob:|http:\/\/127\.0\.0\.1[:/]|http:\/\/localhost[:/])/.test(u)) p.remote.push(u);
  });
  return p;
}

/** Distinct colours among a sample of the screenshot's pixels, decoded by the browser itself. */
export async function screenshotColours(p: Page, png: Uint8Array): Promise<number> {
  // A string, as the test build has no DOM types; it runs in the page.
  const script = `(async () => {
    const img = new Image();
    img.src = 'data:image/png;base64,${Buffer.from(png).toString('base64')}';
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < px.length; i += 4 * 97) seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    return seen.size;
  })()`;
  return (await p.evaluate(script)) as number;
}
