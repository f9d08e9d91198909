// homectl doctor [--json]: what is wrong with this homed and how to fix it; exit 0 when clean, 1 with any warning
// or error. Findings are gathered in doctor-gather.ts and shown by doctor-render.ts.
import { existsSync } from 'node:fs';
import { SERVICE_UNIT_PATH } from '../../../protocol';
import { gatherFindings } from './doctor-gather';
import { renderFindings, summarize } from './doctor-render';
import { printJson, type Command } from './types';

/** Builds `doctor` for the socket homectl found. */
export function doctorCommand(socketPath: string): Command {
  return {
    words: 'doctor',
    args: [],
    options: { json: { type: 'boolean' } },
    flags: '[--json]',
    summary: 'checks the provider, plugins, disk, databases, modes, the service and Node.js; exit 1 when something needs fixing',
    async run(_args, values, ctx) {
      const findings = await gatherFindings(ctx, { socketPath, serviceInstalled: existsSync(SERVICE_UNIT_PATH) });
      const summary = summarize(findings);
      if (values['json']) printJson(ctx, { findings, summary });
      else ctx.print(renderFindings(findings, summary));
      return summary.exit_code;
    },
  };
}
