// homectl webui open|sessions|revoke: a one-time sign-in link for the web page, the browsers signed in, and
// ending their sessions. The webui plugin serves these methods; homectl reaches them through the socket.
import { ErrorCodes, SocketApi, WebuiApi } from '../../../protocol';
import { HomedAnswerError } from '../client-errors';
import { formatTime } from './format';
import { renderTable } from './table';
import { printJson, UsageError, type Command } from './types';

const json = { json: { type: 'boolean' } } as const;

export const webuiCommands: Command[] = [
  {
    words: 'webui open',
    args: [],
    options: json,
    flags: '[--json]',
    summary: 'a one-time link that signs a browser in to the web page (valid once, for 10 minutes)',
    async run(_args, values, ctx) {
      const opened = await ctx.call(WebuiApi.Open, {}).catch((error: unknown) => explainUnavailable(error, ctx));
      if (values['json']) return printJson(ctx, opened);
      ctx.print(`${opened.url}\nOpen it in the browser to sign in; it works once, within 10 minutes. Anyone with the link can sign in: do not share it.`);
    },
  },
  {
    words: 'webui sessions',
    args: [],
    options: json,
    flags: '[--json]',
    summary: 'the browsers signed in to the web page',
    async run(_args, values, ctx) {
      const { sessions } = await ctx.call(WebuiApi.Sessions, {});
      if (values['json']) return printJson(ctx, sessions);
      if (sessions.length === 0) return ctx.print('no browser is signed in (homectl webui open makes a link)');
      ctx.print(
        renderTable(
          sessions.map((s) => [s.id, formatTime(s.createdAt), formatTime(s.lastSeenAt), s.userAgent || '-']),
          ['ID', 'SIGNED IN', 'LAST SEEN', 'BROWSER'],
        ),
      );
    },
  },
  {
    words: 'webui revoke',
    // Optional: `--all` takes no ID (the command table's parser needs to accept an optional `[ID]`).
    args: ['[ID]'],
    options: { ...json, all: { type: 'boolean' } },
    flags: '[--all] [--json]',
    summary: 'signs one browser out (ID from homectl webui sessions), or every browser with --all',
    async run([id], values, ctx) {
      const all = values['all'] === true;
      if (all === (id !== undefined && id !== '')) throw new UsageError('give a session ID (see homectl webui sessions) or --all, not both');
      const { revoked } = await ctx.call(WebuiApi.Revoke, all ? { all: true } : { id: id as string });
      if (values['json']) return printJson(ctx, { revoked });
      ctx.print(revoked === 0 ? `no session ${id ?? ''} to end; see homectl webui sessions` : `signed out ${revoked} browser${revoked === 1 ? '' : 's'}`);
    },
  },
];

/**
 * A webui plugin that cannot start (a taken port it may not move from, a TLS file it cannot read) is only "backoff"
 * in the kernel's answer; its own reason, which names the setting and the fix, is added from plugins/info.
 */
async function explainUnavailable(error: unknown, ctx: Parameters<Command['run']>[2]): Promise<never> {
  if (!(error instanceof HomedAnswerError) || error.code !== ErrorCodes.PluginUnavailable) throw error;
  const why = await ctx.call(SocketApi.PluginsInfo, { name: 'webui' }).then(
    ({ plugin }) => plugin.detail,
    () => null,
  );
  throw why ? new HomedAnswerError({ ...error.error, message: `${error.message}\nwhy: ${why}` }) : error;
}
