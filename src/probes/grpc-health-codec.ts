/**
 * Protobuf wire format of the two grpc.health.v1 messages, by hand (they have one field each):
 *
 *   message HealthCheckRequest  { string service = 1; }
 *   message HealthCheckResponse { ServingStatus status = 1; }   // UNKNOWN 0, SERVING 1, NOT_SERVING 2, SERVICE_UNKNOWN 3
 */
export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

export const SERVING_STATUS = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;

function varint(n: number): number[] {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return bytes;
}

/** Field 1 as a length-delimited string; an empty service is the default and is not written. */
export function encodeHealthCheckRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0);
  const text = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, ...varint(text.length)]), text]);
}

class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error('truncated varint');
      // Only the low 53 bits can matter for an enum; higher ones are read and dropped.
      if (shift < 53) value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('varint too long');
  }
  skip(n: number): void {
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    this.pos += n;
  }
}

/** The `status` of a HealthCheckResponse (0 when absent, as proto3 says); unknown fields are skipped. */
export function decodeHealthCheckResponse(buf: Buffer): { status: number } {
  const r = new Reader(buf);
  let status = 0;
  while (!r.done) {
    const key = r.varint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) {
      const v = r.varint();
      if (field === 1) status = v;
    } else if (wire === 1) r.skip(8);
    else if (wire === 2) r.skip(r.varint());
    else if (wire === 5) r.skip(4);
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return { status };
}
