import { parseMemoryRequestContext } from '@mastra/core/memory';
import type { RequestContext } from '@mastra/core/request-context';

/** The memory side of one agent run, as the agent put it in the request context. */
export interface AgentRun {
  threadId: string;
  resourceId: string;
  /** `memory: { options: { readOnly: true } }`: recall, but remember nothing. */
  readOnly: boolean;
}

/**
 * The run's thread and resource, or undefined when the agent was called without
 * `memory: { thread, resource }` (then, as with Mastra's own memory, the run has no memory).
 */
export function agentRunOf(requestContext: RequestContext | undefined): AgentRun | undefined {
  const context = parseMemoryRequestContext(requestContext);
  const threadId = context?.thread?.id;
  const resourceId = context?.resourceId ?? context?.thread?.resourceId;
  if (!threadId || !resourceId) return undefined;
  return { threadId, resourceId, readOnly: context?.memoryConfig?.readOnly === true };
}
