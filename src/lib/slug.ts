/** Slugs (docs/decisions.md "Series, events and bans"): lowercase, dashes, `^[a-z0-9-]+$`, not all digits (ids), not reserved words. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const RESERVED_SLUGS = new Set([
  'current',
  'new',
  'edit',
  'admin',
  'api',
  'search',
  'lookup',
  'roster',
  'series',
  'events',
]);

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

/** Why a slug is refused, or null when it is acceptable. */
export function slugProblem(slug: string): string | null {
  if (!SLUG_PATTERN.test(slug)) return 'slug must contain only lowercase letters, digits and single dashes';
  if (/^[0-9]+$/.test(slug)) return 'slug cannot be only digits';
  if (RESERVED_SLUGS.has(slug)) return `slug "${slug}" is reserved`;
  return null;
}
