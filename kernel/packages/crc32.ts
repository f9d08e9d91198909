import * as zlib from 'node:zlib';

// zlib.crc32 arrived in Node 20.15 and 22.2; engines allows 20.10, so a table stands in below that.
const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

const TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (the ZIP one) of `data`, continuing from `previous`. */
export function crc32(data: Uint8Array, previous = 0): number {
  return native !== undefined ? native(data, previous) : tableCrc32(data, previous);
}

/** The same CRC-32 from a lookup table, for Node versions without zlib.crc32. */
export function tableCrc32(data: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (const byte of data) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return ~crc >>> 0;
}
