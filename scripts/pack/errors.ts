/** A folder that cannot be packed, with what to change. */
export class PackError extends Error {
  override readonly name = 'PackError';
}
