import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { createContentService } from './content';

const prelogin = { title: 'T', subtitle: 'S', brandsHeader: 'B', brands: [{ logo: 'https://cdn.example.com/a.svg', size: 'small', alt: 'A' }] };

describe('content service', () => {
  it('answers null without a configured service, so the client shows built-in content', async () => {
    const fetchImpl = vi.fn();
    const service = createContentService({ timeoutMs: 100 }, fetchImpl);
    expect(await service.getContent('prelogin')).toBeNull();
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('reads the data field with the bearer token and caches it', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ data: prelogin })));
    const service = createContentService({ url: 'https://content.example.com/v1/', token: 'secret', timeoutMs: 100 }, fetchImpl);
    expect(await service.getContent('prelogin')).toEqual(prelogin);
    await service.getContent('prelogin');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://content.example.com/v1/prelogin');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer secret');
  });

  it('fails with 502 on an error status or a malformed block, without caching it', async () => {
    const bad = vi.fn(async () => new Response(JSON.stringify({ data: { title: 'only a title' } })));
    const service = createContentService({ url: 'https://content.example.com', timeoutMs: 100 }, bad);
    await expect(service.getContent('prelogin')).rejects.toMatchObject({ statusCode: 502 });
    const down = createContentService({ url: 'https://content.example.com', timeoutMs: 100 }, vi.fn(async () => new Response('', { status: 500 })));
    await expect(down.getContent('welcome')).rejects.toBeInstanceOf(AppError);
    await expect(service.getContent('prelogin')).rejects.toBeInstanceOf(AppError);
    expect(bad).toHaveBeenCalledTimes(2);
  });
});
