import type { ChildRun } from './children';
import type { KernelTool } from './tool-router';

function describe(child: ChildRun): Record<string, unknown> {
  return {
    child: child.id,
    task: child.task,
    state: child.state,
    ...(child.text !== undefined ? { result: child.text } : {}),
    ...(child.error !== undefined ? { error: child.error } : {}),
    elapsed_ms: Date.now() - child.startedAt,
  };
}

/** `spawn_child` and `child_result`: sub-agents are tools of the main agent, not part of the SDK. */
export function createChildTools(): KernelTool[] {
  return [
    {
      spec: {
        name: 'spawn_child',
        description:
          'Start a sub-agent on a separate task with its own context; it runs in parallel. Returns its id at once; get its answer with child_result.',
        parameters: {
          type: 'object',
          required: ['task'],
          additionalProperties: false,
          properties: {
            task: { type: 'string', minLength: 1, description: 'What the sub-agent should do, completely described.' },
            context: { type: 'string', description: 'Facts the sub-agent needs, since it does not see this conversation.' },
          },
        },
      },
      run: async (args, ctx) => describe(ctx.children.spawn(String(args['task']), typeof args['context'] === 'string' ? args['context'] : undefined)),
    },
    {
      spec: {
        name: 'child_result',
        description: "Get a sub-agent's answer: waits for it to finish (up to timeout_ms) unless wait is false.",
        parameters: {
          type: 'object',
          required: ['child'],
          additionalProperties: false,
          properties: {
            child: { type: 'string', description: 'The id spawn_child returned.' },
            wait: { type: 'boolean', description: 'Wait for it to finish (default true).' },
            timeout_ms: { type: 'integer', minimum: 0, description: 'Longest wait (default 60000).' },
          },
        },
      },
      run: async (args, ctx) => {
        const child = ctx.children.get(String(args['child']));
        if (!child)
          return {
            error: `no sub-agent "${String(args['child'])}" in this turn; known: ${
              ctx.children
                .list()
                .map((c) => c.id)
                .join(', ') || 'none'
            }`,
          };
        if (args['wait'] !== false && child.state === 'running') {
          const waitMs = typeof args['timeout_ms'] === 'number' ? args['timeout_ms'] : 60_000;
          let timer: NodeJS.Timeout | undefined;
          let onAbort: (() => void) | undefined;
          const aborted = new Promise<void>((resolve) => {
            onAbort = resolve;
            ctx.signal.addEventListener('abort', onAbort, { once: true });
          });
          await Promise.race([child.finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))), aborted]);
          clearTimeout(timer);
          if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
        }
        return describe(child);
      },
    },
  ];
}
