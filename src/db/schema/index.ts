export * from './accounts.js';
export * from './audit.js';
export * from './checkin.js';
export * from './credentials.js';
export * from './events.js';
export * from './messaging.js';
export * from './participants.js';
export * from './records.js';
