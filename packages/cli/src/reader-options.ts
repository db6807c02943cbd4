import { userInfo } from 'node:os';
import { type Memory, type Principal, type Scope, StrataError } from '@strata-memory/core';
import { type Command, InvalidArgumentError } from 'commander';
import { parseScopeOption } from './scope-option.ts';

/** The options of a command that reads or writes one scope as someone. */
export interface ReaderOptions {
  scope: string;
  as?: string;
  role?: string;
}

export const SCOPE_HELP = 'the scope, e.g. org=acme,user=maria (levels: org, user, agent, thread)';

/** Adds the required `--scope`. */
export function withScope(command: Command): Command {
  return command.requiredOption('--scope <scope>', SCOPE_HELP);
}

/**
 * Adds `--scope` (required), `--as <id>` (who acts, recorded in provenance and the audit log;
 * default `cli:<login name>`) and `--role <role>` (what they may see; default the highest role of
 * the policy, so the command line sees every item).
 */
export function withReader(command: Command): Command {
  return withScope(command)
    .option('--as <id>', 'who acts: recorded in provenance and the audit log (default: cli:<login name>)')
    .option('--role <role>', "the principal's role, limiting what it sees (default: the highest role)");
}

function loginName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/** The scope and principal a command acts with. */
export function readerOf(memory: Memory, options: ReaderOptions): { scope: Scope; principal: Principal } {
  const scope = parseScopeOption(options.scope);
  const role = options.role ?? memory.policy.roles[memory.policy.roles.length - 1];
  return { scope, principal: { id: options.as ?? `cli:${loginName()}`, ...(role ? { role } : {}) } };
}

/** A commander parser for a whole number in a range (a bad value is a usage error, exit 2). */
export function integerOption(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** A commander parser for a number in [0, 1]. */
export function unitOption(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1');
  }
  return n;
}

/** Reads a comma-separated list option into its trimmed, non-empty items. */
export function listOption(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Whether an error is a StrataError with one of `codes`. */
export function hasCode(error: unknown, ...codes: string[]): boolean {
  return StrataError.isInstance(error) && codes.includes(error.code);
}
