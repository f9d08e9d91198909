/** Version of the kernel ↔ plugin wire contract; a plugin host answering another version is refused. */
export const PROTOCOL_VERSION = 1;
