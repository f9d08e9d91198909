// The Plugins page's package routes: upload a .hmap (streamed to a file, refused by its Content-Length first when
// it is past the installer's cap), install it after the person confirmed, or drop it. The routes live in their own
// scope, whose octet-stream bodies are left unread for the handler to stream; the server's hooks (Host, Origin,
// cookie) run before them as before every route.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { WEBUI_PACKAGES_PATH } from '../../protocol';
import { PackageUploadError, tooLarge, type PackageUploads } from './package-uploads';

/** What the routes use: the uploads and the installer's current size cap. */
export interface PackageRouteDeps {
  uploads: PackageUploads;
  /** The largest package the installer takes now (core.packages.max_archive_mb). */
  maxBytes(): Promise<number>;
}

const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$' } } } as const;

/** Registers the routes in a scope of `app` whose octet-stream parser does not read the body. */
export async function registerPackageRoutes(app: FastifyInstance, deps: PackageRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/octet-stream');
    scope.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
    for (const route of packageRoutes(deps)) scope.route(route);
  });
}

function packageRoutes(deps: PackageRouteDeps): RouteOptions[] {
  return [
    {
      method: 'POST',
      url: WEBUI_PACKAGES_PATH,
      schema: {
        querystring: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: 255 } },
        },
      },
      handler: async (request, reply) => {
        if (request.headers['content-type']?.split(';')[0]?.trim() !== 'application/octet-stream') {
          return reply.code(415).send({ error: "send the .hmap file's bytes as the body, with Content-Type: application/octet-stream" });
        }
        const maxBytes = await deps.maxBytes();
        const length = Number(request.headers['content-length']);
        if (!Number.isSafeInteger(length) || length < 0) {
          return closing(reply).code(411).send({ error: 'send the package with a Content-Length header (its size in bytes)' });
        }
        // Refused before a byte of the body is read; the connection closes rather than drain what follows.
        if (length > maxBytes)
          return closing(reply)
            .code(413)
            .send({ error: tooLarge(maxBytes) });
        const { name } = request.query as { name: string };
        return answer(reply, () => deps.uploads.receive(owner(request), name, request.raw, maxBytes));
      },
    },
    {
      method: 'POST',
      url: `${WEBUI_PACKAGES_PATH}/:id/install`,
      schema: { params: ID_PARAMS },
      handler: async (request, reply) => answer(reply, () => deps.uploads.install(owner(request), (request.params as { id: string }).id)),
    },
    {
      method: 'DELETE',
      url: `${WEBUI_PACKAGES_PATH}/:id`,
      schema: { params: ID_PARAMS },
      handler: async (request, reply) => {
        deps.uploads.discard(owner(request), (request.params as { id: string }).id);
        return reply.code(204).send();
      },
    },
  ];
}

/** The signed-in browser's session id (the server's hook has refused every request without one). */
function owner(request: FastifyRequest): string {
  return request.webSession?.id ?? '';
}

function closing(reply: FastifyReply): FastifyReply {
  return reply.header('Connection', 'close');
}

/** The work's result, or its refusal as `{ error, code? }` with the refusal's status. */
async function answer(reply: FastifyReply, work: () => Promise<unknown>): Promise<FastifyReply> {
  try {
    return await reply.send(await work());
  } catch (error) {
    if (!(error instanceof PackageUploadError)) throw error;
    if (error.status === 413) closing(reply);
    return reply.code(error.status).send({ error: error.message, ...(error.code === undefined ? {} : { code: error.code }) });
  }
}
