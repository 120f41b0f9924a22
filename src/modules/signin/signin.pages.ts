/**
 * The sign-in pages, rendered through the site's eta layout (web/templates/layout.eta, the site's
 * stylesheet /assets/muster.css) from web/templates/signin/ and message.eta; every value is
 * escaped by eta. Each response carries its own Content-Security-Policy: `default-src 'none'`,
 * styles and images from Muster only, `form-action` limited to Muster itself plus the places a form
 * submission may redirect to (the client's registered redirect URI, the upstream provider), no
 * framing, no <base>, no scripts. Accessible: `lang`, labelled inputs, errors announced
 * (role="alert") and tied to their input (aria-describedby), 360 px wide screens. Pinned by
 * test/signin/pages.test.ts and test/browser/signin.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { chooseLanguage, htmlTranslator, languageInfo, translator } from '../../lib/i18n/index.js';
import { fromRoot } from '../../lib/project-root.js';

/** `web/templates` at the repository root. */
const TEMPLATES = fromRoot('web', 'templates', '/');
const eta = new Eta({ views: TEMPLATES, cache: true, autoEscape: true });

export interface Page {
  html: string;
  csp: string;
}

/** The client's authorization request, carried through the forms as hidden fields. */
export interface ClientRequest {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | undefined;
}

function csp(formActions: readonly string[]): string {
  const sources = ["'self'", ...new Set(formActions)].join(' ');
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action ${sources}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function render(
  template: string,
  data: Record<string, unknown>,
  formActions: readonly string[] = [],
  lang = 'en',
): Page {
  const t = translator(lang);
  const { code, dir } = languageInfo(lang);
  // Sign-in pages are never shown to a signed-in web session: no sign-out form in the header.
  const frame = { lang: code, dir, t, th: htmlTranslator(t), languageSwitch: null };
  const html = eta.render(template, { signedInAs: null, errors: [], ...frame, ...data });
  return { html, csp: csp(formActions) };
}

/**
 * The language of a sign-in page: the `muster_lang` cookie the participant pages set, else
 * `Accept-Language`, among every shipped language (docs/languages.md "Which language").
 */
export function signinLanguage(headers: {
  cookie?: string | undefined;
  'accept-language'?: string | undefined;
}): string {
  const cookie = /(?:^|;\s*)muster_lang=([a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)/.exec(headers.cookie ?? '')?.[1];
  return chooseLanguage({ remembered: [cookie], acceptLanguage: headers['accept-language'] });
}

/** GET /oauth/authorize with the same client request: the "start again" link. */
export function authorizeUrl(base: string, req: ClientRequest): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: req.client_id,
    redirect_uri: req.redirect_uri,
    code_challenge: req.code_challenge,
    code_challenge_method: 'S256',
  });
  if (req.state !== undefined) q.set('state', req.state);
  return `${base}/authorize?${q.toString()}`;
}

/** Step 1: ask for the email address (and offer the upstream provider when configured). */
export function signInPage(opts: {
  base: string;
  clientName: string;
  request: ClientRequest;
  email?: string;
  error?: string;
  upstream?: { label: string; formAction: string } | null;
  /** CSP source of the client's redirect URI (an upstream round trip may end there). */
  redirectSource: string;
  lang?: string;
}): Page {
  const lang = opts.lang ?? 'en';
  return render(
    './signin/email',
    { title: translator(lang)('signin.title'), ...opts },
    [opts.redirectSource, ...(opts.upstream ? [opts.upstream.formAction] : [])],
    lang,
  );
}

/** Step 2: "we sent a code if …" and the code form; the same page whether or not the address may sign in. */
export function codePage(opts: {
  base: string;
  requestId: string;
  email: string;
  expiresMinutes: number;
  error?: string | undefined;
  startOver: string;
  redirectSource: string;
  lang?: string;
}): Page {
  const lang = opts.lang ?? 'en';
  return render(
    './signin/code',
    { title: translator(lang)('signin.code_title'), ...opts },
    [opts.redirectSource],
    lang,
  );
}

/** A dead end (bad request, expired or used link, refused sign-in): what happened and how to start again. */
export function messagePage(opts: {
  title: string;
  message: string;
  startOver?: string | undefined;
  lang?: string;
}): Page {
  const lang = opts.lang ?? 'en';
  return render(
    './message',
    {
      title: opts.title,
      message: opts.message,
      alert: true,
      link: opts.startOver ? { href: opts.startOver, text: translator(lang)('signin.start_again') } : null,
    },
    [],
    lang,
  );
}
