/**
 * The sign-in pages: small server-rendered HTML (no scripts, no external assets), every value
 * HTML-escaped, with a per-response Content-Security-Policy: `default-src 'none'`, the one inline
 * stylesheet allowed by its hash, `form-action` limited to Muster itself plus the places a form
 * submission may redirect to (the client's registered redirect URI, the upstream provider), no
 * framing, no <base>. Accessible: `lang`, labelled inputs, errors announced (role="alert") and tied
 * to their input (aria-describedby), mobile viewport, 16px+ text. Pinned by test/signin/pages.test.ts.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../email/templates.js';

const CSS = `:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0;padding:1rem;font-size:1.0625rem;background:Canvas;color:CanvasText}
main{max-width:26rem;margin:2rem auto}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{box-sizing:border-box;width:100%;font-size:1.125rem;padding:.6rem .7rem;border:2px solid #6b6b6b;border-radius:.4rem;background:Field;color:FieldText}
input.code{letter-spacing:.3em;font-variant-numeric:tabular-nums}
button{margin-top:1rem;width:100%;font-size:1.0625rem;padding:.7rem;border:0;border-radius:.4rem;background:#1d4ed8;color:#fff;font-weight:600;cursor:pointer}
button.secondary{background:transparent;color:inherit;border:2px solid #6b6b6b}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.alert{border-left:4px solid #b91c1c;padding:.5rem .75rem;background:rgba(185,28,28,.08)}
.hint{color:#4b5563}
@media (prefers-color-scheme:dark){.hint{color:#c4c8cf}}
.or{text-align:center;margin:1.25rem 0 0}
a{color:inherit}`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS, 'utf8').digest('base64')}'`;

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
    `style-src ${STYLE_HASH}`,
    `form-action ${sources}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function layout(title: string, body: string, formActions: readonly string[] = []): Page {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Muster</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return { html, csp: csp(formActions) };
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function clientFields(req: ClientRequest): string {
  return [
    hidden('response_type', 'code'),
    hidden('client_id', req.client_id),
    hidden('redirect_uri', req.redirect_uri),
    hidden('code_challenge', req.code_challenge),
    hidden('code_challenge_method', 'S256'),
    ...(req.state === undefined ? [] : [hidden('state', req.state)]),
  ].join('\n');
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

function alert(id: string, message: string | undefined): string {
  return message ? `<p class="alert" role="alert" id="${id}">${escapeHtml(message)}</p>` : '';
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
}): Page {
  const errorId = 'email-error';
  const upstream = opts.upstream
    ? `<form method="post" action="${escapeHtml(`${opts.base}/authorize/oidc`)}">
${clientFields(opts.request)}
<p class="or">or</p>
<button type="submit" class="secondary">Sign in with ${escapeHtml(opts.upstream.label)}</button>
</form>`
    : '';
  const body = `<h1>Sign in to Muster</h1>
<p class="hint">to continue to ${escapeHtml(opts.clientName)}</p>
${alert(errorId, opts.error)}
<form method="post" action="${escapeHtml(`${opts.base}/authorize/email`)}">
${clientFields(opts.request)}
<label for="email">Email address</label>
<input id="email" name="email" type="email" inputmode="email" autocomplete="email" autocapitalize="none" spellcheck="false" maxlength="254" required${opts.email ? ` value="${escapeHtml(opts.email)}"` : ''}${opts.error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''}>
<button type="submit">Email me a sign-in code</button>
</form>
${upstream}`;
  return layout('Sign in', body, [opts.redirectSource, ...(opts.upstream ? [opts.upstream.formAction] : [])]);
}

/** Step 2: "we sent a code if …" and the code form; the same page whether or not the address has an account. */
export function codePage(opts: {
  base: string;
  requestId: string;
  email: string;
  expiresMinutes: number;
  error?: string;
  startOver: string;
  redirectSource: string;
}): Page {
  const errorId = 'code-error';
  const describedBy = opts.error ? `code-help ${errorId}` : 'code-help';
  const body = `<h1>Check your email</h1>
<p>If <strong>${escapeHtml(opts.email)}</strong> belongs to a Muster account that can sign in, we have sent a 6-digit code to it. The code expires in ${opts.expiresMinutes} minutes.</p>
${alert(errorId, opts.error)}
<form method="post" action="${escapeHtml(`${opts.base}/authorize/verify`)}">
${hidden('request_id', opts.requestId)}
<label for="code">Sign-in code</label>
<input id="code" name="code" class="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" minlength="6" maxlength="6" required aria-describedby="${describedBy}"${opts.error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="code-help">6 digits, from the email.</p>
<button type="submit">Sign in</button>
</form>
<p><a href="${escapeHtml(opts.startOver)}">Use a different email address or request a new code</a></p>`;
  return layout('Enter your code', body, [opts.redirectSource]);
}

/** A dead end (bad request, expired or used link, refused sign-in): what happened and how to start again. */
export function messagePage(opts: { title: string; message: string; startOver?: string | undefined }): Page {
  const body = `<h1>${escapeHtml(opts.title)}</h1>
<p role="alert">${escapeHtml(opts.message)}</p>
${opts.startOver ? `<p><a href="${escapeHtml(opts.startOver)}">Start again</a></p>` : ''}`;
  return layout(opts.title, body);
}
