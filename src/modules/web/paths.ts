/** Where the web pages' files are, and the pages' Content-Security-Policy. */
import { fileURLToPath } from 'node:url';
import { fromRoot } from '../../lib/project-root.js';

/** `web/` at the repository root, with a trailing separator. */
export const WEB_DIR = fromRoot('web', '/');

/** No scripts at all on the participant and guardian pages; styles, images and forms from this origin. */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * A participant page with a script of ours (the travel form's type-ahead and flight check,
 * web/public/js/travel-form.js): the same policy plus scripts and fetches from this origin only.
 */
export const SCRIPT_PAGE_CSP = PAGE_CSP.replace(
  "default-src 'none'",
  "default-src 'none'; script-src 'self'; connect-src 'self'",
);
