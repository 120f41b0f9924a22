/** Languages of the pages and emails (docs/languages.md). */
export * from './catalog.js';
export * from './format.js';
export * from './negotiate.js';
export * from './script-strings.js';
export * from './staff.js';
