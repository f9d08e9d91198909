// A request that tells the server its body's size and never sends the body: a route must refuse it by the size alone.
import * as http from 'node:http';

/**
 * A POST that announces `length` bytes and sends none of them: the server must refuse it by its Content-Length
 * alone, before reading a byte (a refusal that needed the body would never come, and the test would time out).
 */
export function postAnnounced(url: string, headers: Record<string, string>, length: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}
