import type { JsonValue, ToolCallRecord } from '../store/records.ts';

/** Longest argument text shown for one tool call; longer arguments end in `…`. */
const MAX_ARGS_CHARS = 160;

/**
 * A tool call as one compact line: `lookup_supplier({"name":"Supplier X"})`. Arguments are JSON
 * without whitespace; past `MAX_ARGS_CHARS` they are cut at a JSON token boundary and end in `…`
 * (a tool call is a record of an action, not prose the model must read whole).
 */
export function toolCallText(call: Pick<ToolCallRecord, 'name' | 'input'>): string {
  return `${call.name}(${compactArgs(call.input)})`;
}

/** `calls lookup_supplier({"name":"Supplier X"}); get_rate({})` for a message's tool calls. */
export function toolCallsText(calls: ReadonlyArray<Pick<ToolCallRecord, 'name' | 'input'>>): string {
  return `calls ${calls.map(toolCallText).join('; ')}`;
}

function compactArgs(input: JsonValue): string {
  if (input === null || input === undefined) return '';
  const json = JSON.stringify(input) ?? '';
  if (json === '{}' || json === '[]') return '';
  if (json.length <= MAX_ARGS_CHARS) return json;
  const head = json.slice(0, MAX_ARGS_CHARS);
  const boundary = Math.max(head.lastIndexOf(','), head.lastIndexOf(':'), head.lastIndexOf('{'));
  return `${boundary > MAX_ARGS_CHARS / 2 ? head.slice(0, boundary + 1) : head}…`;
}
