// Unsigned LEB128 varints (7 bits a byte, high bit = more), for non-negative integers up to 2^53.

/** Appends varints to a growing buffer. */
export class VarintWriter {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;

  put(value: number): void {
    if (this.length + 8 > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buffer[this.length++] = v;
  }

  bytes(): Buffer {
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }
}

/** Reads varints from a buffer; throws when one runs past its end. */
export class VarintReader {
  constructor(
    private readonly buffer: Uint8Array,
    public position = 0,
  ) {}

  get(): number {
    const first = this.buffer[this.position];
    if (first !== undefined && first < 0x80) {
      this.position += 1;
      return first; // Most numbers (term frequencies, gaps between ids) fit one byte.
    }
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.position >= this.buffer.length) throw new Error('packed data ends in the middle of a number');
      const byte = this.buffer[this.position++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new Error('packed data has a number longer than 8 bytes');
    }
  }

  get done(): boolean {
    return this.position === this.buffer.length;
  }
}
