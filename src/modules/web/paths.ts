/** Where the web pages' files are, and the pages' Content-Security-Policy. */
import { fileURLToPath } from 'node:url';

/** `web/` at the repository root (the same from src/ and dist/, both three levels down). */
export const WEB_DIR = fileURLToPath(new URL('../../../web/', import.meta.url));

/** No scripts at all on the participant and guardian pages; styles, images and forms from this origin. */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');
