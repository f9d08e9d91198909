// The pluginmgr plugin's HTTP API on 127.0.0.1 (not JSON-RPC): where it is, how it is reached, what it
// answers. pluginmgr serves it and homectl speaks it; both take the names and shapes from here.
import type { PluginInfo, PluginStatus, PluginsInstallResult } from './admin';

/** Files pluginmgr writes into the run folder (`<data>/run`) while it serves, both mode 0600. */
export const PluginmgrFiles = {
  /** The bearer token, hex; a new one each time the plugin starts. */
  token: 'pluginmgr.token',
  /** The port it listens on, in decimal. */
  port: 'pluginmgr.port',
} as const;

/** The collection; one plugin is `/plugins/{name}`. */
export const PLUGINMGR_PLUGINS_PATH = '/plugins';

/** Query parameters of `POST /plugins` and `DELETE /plugins/{name}` (`1` means yes). */
export const PluginmgrQuery = {
  /** POST: fetch and check the package, describe it, install nothing. */
  inspect: 'inspect',
  /** POST: install only if the fetched package has this SHA-256 (hex), e.g. the one an inspect answered. */
  sha256: 'sha256',
  /** DELETE: also delete the plugin's data folder and config table. */
  purge: 'purge',
} as const;

/** `POST /plugins` with `Content-Type: application/json`; any other type means the body is the .hmap itself. */
export interface PluginmgrInstallBody {
  /** http://, https:// or file:// URL, or an absolute path on the homed machine. */
  url: string;
}

/** The package file pluginmgr fetched or received. */
export interface PluginmgrPackageFacts {
  /** Where it came from: the URL after redirects, or `upload`. */
  source: string;
  /** Its size. */
  bytes: number;
  /** SHA-256 of its bytes, hex. */
  sha256: string;
}

/** Answer of `POST /plugins`: the kernel's install (or inspect) result and the package it was made from. */
export interface PluginmgrInstallAnswer extends PluginsInstallResult {
  /** The package file. */
  package: PluginmgrPackageFacts;
  /** For a skill package: the trust report every install path shows, and how many things it flagged. */
  skillReport?: { report: string; flagged: number };
}

/** Answer of `GET /plugins`. */
export interface PluginmgrListAnswer {
  /** Every plugin, built-in and installed. */
  plugins: PluginStatus[];
}

/** Answer of `GET /plugins/{name}`. */
export interface PluginmgrInfoAnswer {
  /** The plugin in detail. */
  plugin: PluginInfo;
}

/** Answer of `DELETE /plugins/{name}`. */
export interface PluginmgrRemoveAnswer {
  /** Whether something was removed. */
  removed: boolean;
  /** The plugin's name. */
  name: string;
  /** Whether its data and config went too. */
  purged: boolean;
}

/** Body of every error answer. */
export interface PluginmgrErrorBody {
  /** What failed, why, and what to do. */
  error: string;
  /** A catalogue name (`HA_ERR_…`), or one of PluginmgrHttpErrors. */
  code: string;
  /** Facts of a kernel error (the installer's `entry`, `rule`, `kind`). */
  facts?: Record<string, unknown>;
}

/** Error codes of the HTTP layer itself, beside the kernel's catalogue. */
export const PluginmgrHttpErrors = {
  /** No bearer token, or a wrong one. */
  Unauthorized: 'HA_ERR_UNAUTHORIZED',
  /** The Host header is not this loopback address and port (a DNS-rebinding page, or a proxy). */
  ForeignHost: 'HA_ERR_FOREIGN_HOST',
  /** The body or the download is past the size cap. */
  TooLarge: 'HA_ERR_TOO_LARGE',
  /** The path has no such method. */
  MethodNotAllowed: 'HA_ERR_METHOD_NOT_ALLOWED',
  /** The request is malformed (body, query, URL). */
  BadRequest: 'HA_ERR_BAD_REQUEST',
  /** The download failed: the server's answer, a refused redirect, the network. */
  DownloadFailed: 'HA_ERR_DOWNLOAD_FAILED',
  /** The download or upload did not finish in time. */
  Timeout: 'HA_ERR_TIMEOUT',
  /** The package is not the one that was pinned by sha256. */
  Changed: 'HA_ERR_PACKAGE_CHANGED',
  /** Too many transfers at once. */
  Busy: 'HA_ERR_BUSY',
} as const;
