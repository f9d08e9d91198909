// The client methods the webui plugin serves (homectl webui open|sessions|revoke reach them through the socket), and
// what its page and server share: the close code of a signed-out page and the package routes.
import { NO_PARAMS, objectSchema, request } from './descriptor';
import { stringField } from './fields';

/** Close code of a page's WebSocket whose sign-in was revoked or expired (4000-4999 are the application's): the page shows its sign-in again. */
export const WEBUI_SIGNED_OUT_CLOSE = 4001;

/** `webui/open` → a one-time sign-in link. */
export interface WebuiOpenResult {
  /** `http(s)://HOST:PORT/#login=SECRET`, valid once, for 10 minutes. */
  url: string;
}

/** A browser signed in to the web page. */
export interface WebuiSessionRow {
  /** Short public id, for revoke. */
  id: string;
  /** When its link was exchanged (ms since the epoch). */
  createdAt: number;
  /** Its last request (ms since the epoch). */
  lastSeenAt: number;
  /** Its User-Agent at sign-in. */
  userAgent: string;
}

/** `webui/sessions` → the browsers signed in. */
export interface WebuiSessionsResult {
  /** One row per signed-in browser. */
  sessions: WebuiSessionRow[];
}

/** `webui/revoke` params: one session by id, or all of them. */
export type WebuiRevokeParams = { id: string } | { all: true };

/** `webui/revoke` → how many sessions ended. */
export interface WebuiRevokeResult {
  /** Sessions ended. */
  revoked: number;
}

/** The webui plugin's client methods: sign-in links and the browsers signed in with them. */
export const WebuiApi = {
  /** A one-time sign-in link. */
  Open: request<Record<string, never>, WebuiOpenResult>('webui/open', { params: NO_PARAMS, permission: null }),
  /** The browsers signed in. */
  Sessions: request<Record<string, never>, WebuiSessionsResult>('webui/sessions', { params: NO_PARAMS, permission: null }),
  /** Signs out one browser, or all. */
  Revoke: request<WebuiRevokeParams, WebuiRevokeResult>('webui/revoke', {
    params: { oneOf: [objectSchema({ id: stringField(64) }, ['id']), objectSchema({ all: { const: true } }, ['all'])] },
    permission: null,
  }),
} as const;

/**
 * The web page's package routes (HTTP, not client methods): `POST` a .hmap's bytes to this path (`?name=FILE`,
 * `Content-Type: application/octet-stream`) to have it checked and described; then `POST {path}/{id}/install`
 * installs it, `DELETE {path}/{id}` drops it.
 */
export const WEBUI_PACKAGES_PATH = '/api/packages';

/** An uploaded package as the kernel checked it, shown to the person before they confirm. */
export interface WebuiPackageSummary {
  /** The upload's id, for install and delete. */
  id: string;
  /** The plugin's name. */
  name: string;
  /** Its version. */
  version: string;
  /** Its author, when the manifest names one. */
  author?: string;
  /** Its description, when the manifest has one. */
  description?: string;
  /** `js`, `lua` or `skill`. */
  kind: string;
  /** The permissions it asks for. */
  permissions: string[];
  /** SHA-256 of the file, hex: what is installed must still have it. */
  sha256: string;
  /** The file's size. */
  bytes: number;
  /** Files in it. */
  files: number;
  /** Their uncompressed size together. */
  unpackedBytes: number;
  /** The version installed now, or null when this would be a new plugin. */
  installedVersion: string | null;
  /** Where it would get no uid of its own: why. */
  runsAsHomedUser?: string;
  /** When the upload is deleted unless installed (ms since the epoch). */
  expiresAt: number;
  /** For a skill package: the trust report every install path shows, and how many things it flagged. */
  skill?: { report: string; flagged: number };
}

/** The answer of an install: the plugin as it is now. */
export interface WebuiPackageInstalled {
  /** The plugin's name. */
  name: string;
  /** The version installed. */
  version: string;
  /** The version it replaced, when it was an upgrade. */
  upgradedFrom?: string;
  /** Its state right after the install. */
  state: string;
}
