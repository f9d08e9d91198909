// homectl's calls to the skills/* methods, which the openclaw plugin serves: when no plugin serves them, the error
// names that plugin, its state and the command that brings it back, instead of a method name.
import { ErrorCodes, SocketErrorCodes, SocketMethods, type PluginInfo } from '../../../protocol';
import { HomedAnswerError } from '../client';
import type { CommandContext } from './types';

/** The built-in plugin that serves skills/*. */
export const OPENCLAW_NAME = 'openclaw';

/** skills/* are not served: the openclaw plugin is stopped, disabled or absent; what to do about it. */
export class SkillsUnavailableError extends Error {
  override name = 'SkillsUnavailableError';
}

/** Sends a skills/* request; a "nobody serves it" answer becomes an error that says how to start openclaw. */
export async function requestSkills<R>(ctx: CommandContext, method: string, params: object): Promise<R> {
  try {
    return await ctx.request<R>(method, { ...params });
  } catch (error) {
    if (!isUnserved(error, method)) throw error;
    throw await explainUnserved(ctx, method, error);
  }
}

/** The socket's "unknown method" (no plugin declared it this run), or the kernel's "no plugin serves it". */
function isUnserved(error: unknown, method: string): error is HomedAnswerError {
  if (!(error instanceof HomedAnswerError)) return false;
  if (error.code !== SocketErrorCodes.MethodNotFound && error.code !== ErrorCodes.NotFound) return false;
  const data = error.error.data as { method?: unknown } | undefined;
  return data?.method === method;
}

async function explainUnserved(ctx: CommandContext, method: string, original: HomedAnswerError): Promise<Error> {
  let plugin: PluginInfo;
  try {
    ({ plugin } = await ctx.request<{ plugin: PluginInfo }>(SocketMethods.PluginsInfo, { name: OPENCLAW_NAME }));
  } catch {
    return original;
  }
  const todo = plugin.enabled ? `start it with: homectl plugins start ${OPENCLAW_NAME}` : `enable it with: homectl plugins enable ${OPENCLAW_NAME}`;
  return new SkillsUnavailableError(`${method} is not available: skills are served by the ${OPENCLAW_NAME} plugin, which is ${plugin.state}; ${todo}`);
}
