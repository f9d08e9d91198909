// One `install[]` entry of a skill's metadata, kept only when it names its kind's package safely.
import { readString, readStringList } from './string-list';
import { INSTALL_KINDS, type InstallKind, type InstallSpec } from './types';

const BREW_FORMULA = /^[A-Za-z0-9][A-Za-z0-9@+._/-]*$/;
const NPM_SPEC = /^(?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*(?:@[\w.^~<>=*+-]+)?$/;
const GO_MODULE = /^[A-Za-z0-9][A-Za-z0-9._~+/-]*(?:@[A-Za-z0-9][A-Za-z0-9._~+/-]*)?$/;
const UV_PACKAGE = /^[A-Za-z0-9][A-Za-z0-9._\-[\]=<>!~+,]*$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

/** The field each kind cannot do without. */
const NEEDED: Record<InstallKind, (spec: InstallSpec) => boolean> = {
  brew: (spec) => spec.formula !== undefined || spec.cask !== undefined,
  node: (spec) => spec.package !== undefined,
  go: (spec) => spec.module !== undefined,
  uv: (spec) => spec.package !== undefined,
  download: (spec) => spec.url !== undefined,
};

const NEEDED_WORDS: Record<InstallKind, string> = {
  brew: 'a safe formula or cask',
  node: 'a safe npm package',
  go: 'a safe module',
  uv: 'a safe package',
  download: 'an http(s) url',
};

/** The entry normalised, or the reason it is dropped. */
export type InstallSpecResult = { ok: true; spec: InstallSpec } | { ok: false; reason: string };

/** Reads one entry: `kind` (or `type`), the common fields, then the fields of its kind; unknown keys are ignored. */
export function readInstallSpec(input: unknown): InstallSpecResult {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, reason: 'it is not an object' };
  const raw = input as Record<string, unknown>;
  const kindText = (typeof raw['kind'] === 'string' ? raw['kind'] : typeof raw['type'] === 'string' ? raw['type'] : '').trim().toLowerCase();
  const kind = INSTALL_KINDS.find((known) => known === kindText);
  if (!kind) return { ok: false, reason: `its kind "${kindText}" is not one of ${INSTALL_KINDS.join(', ')}` };
  const spec: InstallSpec = { kind };
  copyCommonFields(raw, spec);
  copyPackageFields(raw, spec);
  const sha = raw['sha256'];
  if (sha !== undefined) {
    if (typeof sha !== 'string' || !SHA256.test(sha.trim())) return { ok: false, reason: 'its sha256 is not 64 hex digits' };
    spec.sha256 = sha.trim().toLowerCase();
  }
  if (!NEEDED[kind](spec)) return { ok: false, reason: `a ${kind} entry needs ${NEEDED_WORDS[kind]}` };
  return { ok: true, spec };
}

function copyCommonFields(raw: Record<string, unknown>, spec: InstallSpec): void {
  if (typeof raw['id'] === 'string') spec.id = raw['id'];
  if (typeof raw['label'] === 'string') spec.label = raw['label'];
  const bins = readStringList(raw['bins']);
  if (bins.length > 0) spec.bins = bins;
  const os = readStringList(raw['os']);
  if (os.length > 0) spec.os = os;
  if (typeof raw['archive'] === 'string') spec.archive = raw['archive'];
  if (typeof raw['extract'] === 'boolean') spec.extract = raw['extract'];
  const strip = raw['stripComponents'];
  if (typeof strip === 'number' && Number.isInteger(strip) && strip >= 0) spec.stripComponents = strip;
  if (typeof raw['targetDir'] === 'string') spec.targetDir = raw['targetDir'];
}

function copyPackageFields(raw: Record<string, unknown>, spec: InstallSpec): void {
  const formula = safeSpec(raw['formula'], BREW_FORMULA);
  if (formula) spec.formula = formula;
  const cask = safeSpec(raw['cask'], BREW_FORMULA);
  if (cask) spec.cask = cask;
  if (spec.kind === 'node' || spec.kind === 'uv') {
    const pkg = safeSpec(raw['package'], spec.kind === 'node' ? NPM_SPEC : UV_PACKAGE);
    if (pkg) spec.package = pkg;
  }
  const moduleSpec = safeSpec(raw['module'], GO_MODULE);
  if (moduleSpec) spec.module = moduleSpec;
  const url = safeUrl(raw['url']);
  if (url) spec.url = url;
}

/** A package spec, refused when it could be read as an option, a path or a URL, or has characters its registry never uses. */
export function safeSpec(value: unknown, pattern: RegExp): string | undefined {
  const text = readString(value);
  if (!text || text.startsWith('-') || text.includes('..') || text.includes('\\') || text.includes('://')) return undefined;
  return pattern.test(text) ? text : undefined;
}

/** An http or https URL without whitespace, as the URL parser writes it. */
export function safeUrl(value: unknown): string | undefined {
  const text = readString(value);
  if (!text || /\s/.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
