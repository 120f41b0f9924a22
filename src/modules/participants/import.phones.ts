/**
 * Phones of import items in E.164 (docs/participant-record.md "Phone numbers"): the same
 * normaliser as every other write (record/validate.ts phoneAt), read with the event's country as
 * the default region. A number that cannot be read is a problem naming the item and the field, e.g.
 * `items[3] (ann@example.org): guardians[0].phone must be a phone number in international format,
 * e.g. +447700900123`; the import then writes nothing.
 */
import type { ImportItem } from './record/item.schema.js';
import type { Problem } from './record/problems.js';
import { phoneAt } from './record/validate.js';

/** Normalises every phone of `items` in place; returns the problems (empty when all were read). */
export function normaliseItemPhones(items: ImportItem[], region: string | null): Problem[] {
  const problems: Problem[] = [];
  items.forEach((item, index) => {
    const found: Problem[] = [...phoneAt(item, 'phone', 'phone', region)];
    item.emergency_contacts?.forEach((c, i) => {
      found.push(...phoneAt(c, 'phone', `emergency_contacts[${i}].phone`, region));
    });
    item.guardians?.forEach((g, i) => {
      found.push(...phoneAt(g, 'phone', `guardians[${i}].phone`, region));
      g.emergency_contacts?.forEach((c, j) => {
        found.push(...phoneAt(c, 'phone', `guardians[${i}].emergency_contacts[${j}].phone`, region));
      });
    });
    for (const p of found)
      problems.push({
        field: `items[${index}].${p.field}`,
        message: `items[${index}] (${item.email}): ${p.message}`,
      });
  });
  return problems;
}
