import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from './sdk';

/** Loads a plugin's entry module and returns its definition (its default export). */
export async function loadPluginDefinition(entry: string): Promise<PluginDefinition> {
  const mod = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  let definition = mod['default'];
  // A CommonJS module compiled from `export default` arrives as { default: { default: … } }.
  if (isObject(definition) && definition['__esModule'] === true && 'default' in definition) definition = definition['default'];
  if (!isObject(definition)) {
    throw new Error(`${entry} has no default export; a plugin must \`export default definePlugin({ ... })\``);
  }
  return definition as PluginDefinition;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
