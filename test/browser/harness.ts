/**
 * Headless Chromium for the web-page tests: Debian's `chromium` (installed by .ci/run) driven by
 * playwright-core. When the binary is absent the browser suites are skipped with a message saying
 * so (and nothing else skips them). Screenshots go to test-artifacts/screenshots/ (gitignored).
 * Also an accessibility check run on every page the tests visit: our own probe, then axe-core.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, expect } from 'vitest';

export const CHROMIUM_PATH = process.env.MUSTER_CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);
export const SKIP_MESSAGE = `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set MUSTER_CHROMIUM_PATH)`;
if (!HAS_CHROMIUM) console.warn(SKIP_MESSAGE);

/**
 * Each browser test's time limit (ms). A test signs in through the email-code flow, drives one or
 * two pages and runs axe: 4–12 s alone on this machine, 2–4 times that while other suites and
 * Chromium share its 2 cores, so vitest's default 30 s cut the desk's two-device test off once in
 * CI. Playwright's own 30 s limit on each wait still names a step that hangs. A test may set more.
 */
export const BROWSER_TEST_TIMEOUT = 120_000;

/**
 * A suite of browser tests: `title`'s tests with BROWSER_TEST_TIMEOUT, or, without Chromium, the
 * suite skipped under SKIP_MESSAGE.
 */
export function describeBrowser(title: string, suite: () => void): void {
  describe.skipIf(!HAS_CHROMIUM)(
    HAS_CHROMIUM ? title : SKIP_MESSAGE,
    { timeout: BROWSER_TEST_TIMEOUT },
    suite,
  );
}

export const SCREENSHOT_DIR = 'test-artifacts/screenshots';

/** This worker process's Chromium, started by the first browser file it runs (see launchBrowser). */
let shared: Promise<Browser> | undefined;

/**
 * The browser a test file drives: one Chromium per vitest worker process, shared by the browser
 * files that worker runs (they share the process: vitest.config.ts), instead of one per file.
 * Starting and stopping Chromium cost ~1–2 s of a file's time; the files stay independent because
 * each test opens its own contexts (a fresh profile: cookies, storage, cache), and the handle
 * returned here closes, on `close()`, the contexts the file opened rather than the shared
 * browser, which Playwright stops when the worker process exits.
 */
export async function launchBrowser(): Promise<Browser> {
  if (shared && !(await shared.catch(() => undefined))?.isConnected()) shared = undefined;
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  shared ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  const browser = await shared;
  const contexts = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === 'newContext')
        return async (...args: Parameters<Browser['newContext']>) => track(await target.newContext(...args));
      if (prop === 'newPage')
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          track(page.context());
          return page;
        };
      if (prop === 'close')
        return async () => {
          await Promise.all([...contexts].map((context) => context.close()));
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A fresh browser profile (cookies) with a phone-sized or desktop viewport. */
export async function newContext(
  browser: Browser,
  size: 'phone' | 'desktop' = 'desktop',
): Promise<BrowserContext> {
  return browser.newContext(
    size === 'phone'
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
      : { viewport: { width: 1100, height: 900 } },
  );
}

/** Saves a full-page screenshot as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

// Runs in the page (a string: the tests are type-checked without the DOM library).
const A11Y_PROBE = `(() => {
  const problems = [];
  const doc = document;
  if (!doc.documentElement.lang) problems.push('html has no lang');
  if (!doc.querySelector('meta[name=viewport][content*="width=device-width"]')) problems.push('no viewport meta');
  if (!doc.title.trim()) problems.push('no title');
  if (doc.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
  for (const input of doc.querySelectorAll('input, select, textarea')) {
    if (input.type === 'hidden') continue;
    const labelled =
      (input.id && doc.querySelector('label[for="' + CSS.escape(input.id) + '"]')) ||
      input.closest('label') || input.getAttribute('aria-label') || input.getAttribute('aria-labelledby');
    if (!labelled) problems.push('unlabelled control ' + (input.name || input.id));
  }
  for (const fs of doc.querySelectorAll('fieldset')) {
    if (!fs.querySelector(':scope > legend')) problems.push('fieldset without legend');
  }
  for (const a of doc.querySelectorAll('.error-summary a[href^="#"]')) {
    if (!doc.getElementById(a.hash.slice(1))) problems.push('error link to missing field ' + a.hash);
  }
  if (doc.documentElement.scrollWidth > window.innerWidth + 1) problems.push('horizontal scrolling');
  return problems;
})()`;

/** axe-core's browser bundle, evaluated in the page (the DevTools protocol is not subject to the CSP). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Runs axe (WCAG 2.x A/AA and best practices) and returns the serious and critical violations.
const AXE_RUN = `(async () => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' [' + v.nodes.map((n) => n.target.join(' ')).join(', ') + ']');
})()`;

/**
 * Page-level accessibility checks. Our probe: `lang`, viewport meta, a title and one h1, every
 * visible form control labelled, every fieldset with a legend, error-summary links pointing at
 * existing fields, no horizontal scrolling (mobile-friendly). Then axe-core: no serious or critical
 * violation (contrast, names, roles, landmarks…).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // A click that navigates resolves once the new page commits, before its stylesheet may have
  // applied; sizes, contrast and scrolling are only meaningful on the finished layout.
  await page.waitForLoadState('load');
  const report = await page.evaluate<string[]>(A11Y_PROBE);
  expect(report, `accessibility problems on ${label}`).toEqual([]);
  const hasAxe = await page.evaluate<boolean>('typeof axe !== "undefined"');
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<string[]>(AXE_RUN);
  expect(violations, `axe-core: serious or critical violations on ${label}`).toEqual([]);
}

/**
 * The console errors left once superseded requests are set aside: with `hx-sync="this:replace"`
 * htmx aborts a query still in flight when a newer one starts and logs that as a pair of errors,
 * `htmx:afterRequest` then `htmx:sendAbort`. Each abort removes one such pair; an `afterRequest`
 * without an abort (a network error, a timeout) stays, and so does everything else.
 */
export function withoutReplacedRequests(errors: string[]): string[] {
  let pairs = errors.filter((e) => e.startsWith('htmx:sendAbort')).length;
  return errors.filter((e) => {
    if (e.startsWith('htmx:sendAbort')) return false;
    if (pairs > 0 && e.startsWith('htmx:afterRequest')) {
      pairs -= 1;
      return false;
    }
    return true;
  });
}

/** Collects console errors (CSP violations, script errors) of a page. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}
