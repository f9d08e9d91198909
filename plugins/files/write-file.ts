// write_file: creates or replaces a text file inside the allowed roots; the change set's id comes back as `change`.
import type { ToolDefinition } from '../../plugin-host';
import { closePlace } from '../../plugin-host/tracker';
import { writeTracked } from './tracked-write';
import type { Workspace } from './workspace';

interface WriteArgs {
  path: string;
  content: string;
}

/** The write_file tool. */
export function createWriteFile(workspace: () => Workspace): ToolDefinition<WriteArgs> {
  return {
    description:
      'Create or replace a text file inside the allowed folders (missing folders are made). The answer carries a change id (e.g. "c12"): ' +
      'cite it, so the person can see the change with `homectl changes show c12` or undo it.',
    parameters: {
      type: 'object',
      required: ['path', 'content'],
      additionalProperties: false,
      properties: { path: { type: 'string', minLength: 1, maxLength: 4096 }, content: { type: 'string' } },
    },
    run: async (args, _ctx, call) => {
      const ws = workspace();
      const place = await ws.locate(args.path, { makeFolders: true });
      try {
        const bytes = Buffer.byteLength(args.content);
        const change = writeTracked(ws.store, place, args.path, args.content, call, `write_file ${place.path} (${bytes} bytes)`);
        return { path: place.path, bytes, ...(change ? { change } : { unchanged: 'the file already held exactly this content' }) };
      } finally {
        closePlace(place);
      }
    },
  };
}
