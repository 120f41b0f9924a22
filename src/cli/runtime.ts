/**
 * What every CLI command shares: opening the configured database (migrations applied), running the
 * action in one transaction, printing the result (`--json`: exactly one JSON object on stdout), and
 * turning errors into a plain message on stderr with exit code 1.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { openDatabase, type Tx } from '../db/client.js';
import { DataDirLockedError } from '../db/embedded/embedded.js';
import { migrateDatabase } from '../db/migrate.js';
import { ApiError } from '../lib/errors.js';
import { errorCode, errorMessage } from '../lib/narrow.js';
import { SecretKeyError } from '../lib/sealed.js';

/** What a command prints: `json` with --json, otherwise `text` (lines joined with newlines). */
export interface CommandResult {
  json: Record<string, unknown>;
  text: string | string[];
}

export interface DbContext {
  config: Config;
  kind: 'postgres' | 'embedded';
}

/** A user-facing failure that is not an ApiError (bad option combination and the like). */
export class CliError extends Error {}

/**
 * Loads the configuration, opens the database, applies migrations (under the migration lock, see
 * db/migrate.ts), runs `fn` in one transaction
 * (rolled back if it throws) and closes the database. Throws ConfigError, DataDirLockedError,
 * ApiError or whatever `fn` throws.
 */
export async function withDatabase<T>(fn: (tx: Tx, ctx: DbContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database);
    return await database.db.transaction((tx) => fn(tx, { config, kind: database.kind }));
  } finally {
    await database.close();
  }
}

/** Prints a command's result on stdout. */
export function emit(json: boolean, result: CommandResult): void {
  const text = Array.isArray(result.text) ? result.text.join('\n') : result.text;
  process.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${text}\n`);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '28P01',
  '28000',
  '3D000',
]);

/** The message shown for an error, and whether it was expected (no stack trace). */
export function describeError(error: unknown): { message: string; expected: boolean } {
  if (error instanceof ApiError || error instanceof ConfigError || error instanceof DataDirLockedError) {
    return { message: error.message, expected: true };
  }
  if (error instanceof CliError || error instanceof SecretKeyError)
    return { message: error.message, expected: true };
  const code = errorCode(error);
  if (code !== undefined && CONNECTION_CODES.has(code)) {
    return {
      message: `Cannot connect to the database (DATABASE_URL): ${errorMessage(error)}`,
      expected: true,
    };
  }
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return {
      message: `Cannot listen: ${errorMessage(error)} (set PORT or HOST to another value)`,
      expected: true,
    };
  }
  return { message: error instanceof Error ? error.message : String(error), expected: false };
}

/**
 * Reports a failure: the message on stderr (with --json also `{"error": message}` on stdout, so
 * stdout still holds exactly one JSON object) and exit code 1. Unexpected errors add their stack.
 */
export function fail(json: boolean, error: unknown): void {
  const { message, expected } = describeError(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  process.stderr.write(`Error: ${message}\n`);
  if (!expected && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}

/** How long a one-shot command's process may keep running once its work is done (ms). */
export const EXIT_GRACE_MS = 10_000;

let exitWhenDone = false;

/**
 * Safety net for the CLI entry point (main.ts; never where commands run inside another process,
 * as in tests): once a one-shot command (an `action()`: every command but `serve` and `worker`)
 * has printed its result or error, its process exits with that exit code after EXIT_GRACE_MS even
 * if something still keeps the event loop alive, reporting on stderr which resources were still
 * open. Each command closes what it opened, so the process normally ends at once, and the timer
 * (unref'd) never fires. It is there so that a handle a library leaves open, or a database query
 * that never returns, cannot make an operator's command or a script hang after the work is done.
 */
export function exitWhenCommandsDone(): void {
  exitWhenDone = true;
}

function exitAfterGrace(): void {
  if (!exitWhenDone) return;
  setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    process.stderr.write(
      `Warning: the command finished but its process was still running ${EXIT_GRACE_MS / 1000} s ` +
        `later (open: ${open.join(', ') || 'nothing known'}); exiting.\n`,
    );
    process.exit();
  }, EXIT_GRACE_MS).unref();
}

/**
 * Wraps a commander action: runs it, prints its result, reports errors. The action receives the
 * command's positional arguments followed by its options (commander's order). From the CLI entry
 * point the process then exits once its work is done (exitWhenCommandsDone).
 */
export function action<O extends { json?: boolean }>(
  fn: (args: string[], opts: O, command: Command) => Promise<CommandResult | undefined>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const opts = command.opts<O>();
    const positional = args.slice(0, -2) as string[];
    try {
      const result = await fn(positional, opts, command);
      if (result) emit(Boolean(opts.json), result);
    } catch (error) {
      fail(Boolean(opts.json), error);
    } finally {
      exitAfterGrace();
    }
  };
}

/** Commander option parser for a whole number in [min, max]. */
export function intOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}
