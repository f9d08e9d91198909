// Names that callers give for files in the knowledge folder (addText, add's target, remove): always
// relative, never climbing out, never hidden or temporary (those would never be indexed).
import { ErrorCodes, haError } from '../../protocol';
import { isIgnoredName } from './formats';

const MAX_NAME = 1024;
const MAX_PART = 255;

/** Checks a file name relative to the knowledge folder and returns it '/'-separated; throws a clear error when it is not safe. */
export function checkRelativeName(name: string): string {
  const refuse = (why: string): never => {
    throw haError(ErrorCodes.InvalidValue, `knowledge file name "${name.slice(0, 200)}" is refused: ${why}; give a relative name such as "manuals/coffee.md"`, {
      file: name.slice(0, 200),
    });
  };
  if (name.trim() === '') refuse('it is empty');
  if (name.length > MAX_NAME) refuse(`it is longer than ${MAX_NAME} characters`);
  if (name.includes('\0')) refuse('it contains a NUL character');
  if (name.includes('\\')) refuse('it contains a backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) refuse('it is absolute');
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0) refuse('it names no file');
  for (const part of parts) {
    if (part === '..') refuse('it climbs out of the knowledge folder (..)');
    if (part.length > MAX_PART) refuse(`a part of it is longer than ${MAX_PART} characters`);
    if (isIgnoredName(part)) refuse(`"${part}" is a hidden or temporary name, which the knowledge base never reads`);
  }
  return parts.join('/');
}
