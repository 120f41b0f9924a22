/**
 * Steps shared by the browser registration tests: an open event with an event API key, an invite
 * through the HTTP API, links and codes read from the test SMTP server, and the page steps a person
 * takes (sign in, fill a section, sign a consent), each checked for accessibility and screenshotted.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { issueEventKey } from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import type { SigninApp } from '../signin/harness.js';
import { consoleErrors, expectAccessible, screenshot } from './harness.js';

export interface OpenEvent {
  id: number;
  name: string;
  key: string;
}

export async function openEvent(t: SigninApp, name: string): Promise<OpenEvent> {
  return t.deps.db.transaction(async (tx) => {
    const series = await createSeries(tx, { name: `${name} Series` });
    const event = await createEventRecord(tx, {
      name,
      seriesId: series.id,
      supportEmail: 'help@muster.example',
      startsAt: '2027-07-01T09:00:00Z',
      endsAt: '2027-07-05T17:00:00Z',
      setupComplete: true,
    });
    const key = await issueEventKey(tx, event.id, { name: 'Browser test key', ownerUserId: null });
    return { id: event.id, name, key: key.secret };
  });
}

/** Invites `email` through POST /events/{id}/participants and returns the link in the email. */
export async function inviteAndReadLink(
  t: SigninApp,
  event: OpenEvent,
  email: string,
  first: string,
  last: string,
) {
  const res = await fetch(`${t.api}/events/${event.id}/participants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${event.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, first_name: first, last_name: last }),
  });
  expect(res.status).toBe(201);
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes(email) && /invited to register/.test(m.subject),
    60_000,
  );
  const link = /(http:\/\/\S+\/register\/accept\?token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`No registration link in the invitation:\n${mail.text}`);
  return link;
}

/** On the sign-in page: email → code from the SMTP server → signed in. */
export async function signInWithCode(t: SigninApp, page: Page, email: string, shot: string) {
  await page.getByLabel('Email address').fill(email);
  const before = t.smtp.received.length;
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
  await page.getByLabel('Sign-in code').waitFor();
  await screenshot(page, shot);
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes(email) && /sign-in code/.test(m.subject) && t.smtp.received.indexOf(m) >= before,
    60_000,
  );
  const code = /(\d{6})/.exec(mail.text)![1]!;
  await page.getByLabel('Sign-in code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A new browser profile (`options`: viewport and the like) that opens `path`, signs in as `email`
 * and is back on `path`; `init` (a script) runs before each page's own scripts. The caller closes
 * the returned context.
 */
export async function signedInPage(
  t: SigninApp,
  browser: Browser,
  opts: { email: string; shot: string; path: string; options?: BrowserContextOptions; init?: string },
) {
  const context = await browser.newContext(opts.options);
  if (opts.init) await context.addInitScript(opts.init);
  const page = await context.newPage();
  const errors = consoleErrors(page);
  await page.goto(`${t.origin}${opts.path}`);
  await signInWithCode(t, page, opts.email, `${opts.shot}-signin`);
  await page.waitForURL(`${t.origin}${opts.path}`);
  return { context, page, errors };
}

export async function heading(page: Page): Promise<string> {
  return ((await page.locator('h1').textContent()) ?? '').trim();
}

/** Fills `fields` (label → value; true/false for checkboxes, a value for selects) and saves. */
export async function fillSection(
  page: Page,
  title: string,
  fields: Record<string, string | boolean>,
  shot: string,
  group?: string,
) {
  expect(await heading(page)).toBe(title);
  await expectAccessible(page, title);
  const scope = group ? page.getByRole('group', { name: group }) : page;
  for (const [label, value] of Object.entries(fields)) {
    const control = scope.getByLabel(label, { exact: true });
    if (typeof value === 'boolean') await control.setChecked(value);
    else if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.fill(value);
  }
  await screenshot(page, shot);
  await page.getByRole('button', { name: 'Save and continue' }).click();
}

/** Signs every consent the overview offers, by typed name. */
export async function signConsents(page: Page, name: string, shotPrefix: string) {
  for (let i = 0; ; i++) {
    const link = page.getByRole('link', { name: 'Read and sign' }).first();
    if ((await link.count()) === 0) return i;
    await link.click();
    await expectAccessible(page, `consent ${i}`);
    await page.getByLabel('Full name').fill(name);
    await page.getByLabel('I have read this and I agree to it').check();
    await screenshot(page, `${shotPrefix}-${i + 1}`);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.waitForURL(/\?done=signed$/);
  }
}
