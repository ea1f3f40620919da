import { Writable } from 'node:stream';

/** A log destination that keeps every line, for tests that read what the server logged. */
export function captureLog(): { stream: Writable; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => lines.join('') };
}
