import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/testApp';

/** The app's log lines, as the messages they carry, and the errors logged with them (to say what failed). */
function capturedLog() {
  const stream = new PassThrough();
  const messages: string[] = [];
  const errors: string[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { msg: string; err?: { message?: string; stack?: string } };
      messages.push(entry.msg);
      if (entry.err) errors.push(`${entry.msg}: ${entry.err.stack ?? entry.err.message ?? ''}`);
    }
  });
  return { logger: { level: 'info', stream }, messages, errors };
}

describe('the in-server task worker', () => {
  it('subscribes after the app is ready, once, while the app already answers', async () => {
    const log = capturedLog();
    const t = await createTestApp({ WORKER_ENABLED: 'true' }, { logger: log.logger });
    try {
      await t.app.ready();
      // Ready, and answering, before the worker has subscribed (it starts on the next turn).
      expect(log.messages).not.toContain('task worker started');
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(200);
      const worker = t.app.worker;
      expect(worker).not.toBeNull();
      await worker?.start();
      await worker?.start();
      await new Promise((resolve) => setImmediate(resolve));
      expect(log.messages.filter((m) => m === 'task worker started')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('closed right after it is ready: the worker does not start on the stopped queue, and nothing fails', async () => {
    const log = capturedLog();
    const t = await createTestApp({ WORKER_ENABLED: 'true' }, { logger: log.logger });
    await t.app.ready();
    await t.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.messages, log.errors.join('\n')).not.toContain('the task worker did not start');
    expect(log.messages, log.errors.join('\n')).not.toContain('task queue error');
  });
});
