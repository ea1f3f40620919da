// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../dataProvider/httpClient';
import { toolsApi } from '../../dataProvider/tools';
import { en, fieldError, renderPage, typeInto } from '../../src/testing/renderPage';
import FreeAppProfileReviewPage from './FreeAppProfileReviewPage';

vi.mock('../../dataProvider/tools', () => ({ toolsApi: { requestAppProfileReview: vi.fn() } }));
const api = vi.mocked(toolsApi);

const open = () => renderPage(<FreeAppProfileReviewPage />, '/tools/free-app-profile-review');
const submit = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Request my free review' })));
const fill = () => {
  typeInto('App name', 'Lantern Notes');
  fireEvent.change(screen.getByLabelText('Platform'), { target: { value: 'ios' } });
  typeInto('Store link', 'https://apps.apple.com/app/lantern/id1');
  typeInto('Your email', 'Ada@Example.com');
};

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('free app profile review page', () => {
  it('refuses a store link that is not a web address, without calling the API', async () => {
    open();
    fill();
    typeInto('Store link', 'javascript:alert(1)');
    await submit();
    await waitFor(() => expect(fieldError('Store link')).toBe(en('validation.url')));
    expect(api.requestAppProfileReview).not.toHaveBeenCalled();
  });

  it('asks for every field', async () => {
    open();
    await submit();
    await waitFor(() => expect(fieldError('App name')).toBe(en('validation.required')));
    expect(fieldError('Your email')).toBe(en('validation.required'));
    expect(api.requestAppProfileReview).not.toHaveBeenCalled();
  });

  it('sends the request and confirms with the address the mail went to', async () => {
    api.requestAppProfileReview.mockResolvedValue({ _id: 'r1', createdAt: '2026-11-23T10:00:00.000Z' });
    open();
    fill();
    await submit();
    expect(api.requestAppProfileReview).toHaveBeenCalledWith({ appName: 'Lantern Notes', platform: 'ios', storeUrl: 'https://apps.apple.com/app/lantern/id1', email: 'ada@example.com' });
    expect(await screen.findByText(en('tools.review.doneBody', { email: 'ada@example.com' }))).toBeTruthy();
    expect(screen.queryByLabelText('App name')).toBeNull();
  });

  it("shows the server's refusal (rate limit) and keeps the form", async () => {
    api.requestAppProfileReview.mockRejectedValue(new ApiError('Too many requests. Please try again in 1 minute.', 429, 'RATE_LIMITED', null, null));
    open();
    fill();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please try again in 1 minute.');
    expect(screen.getByLabelText('App name')).toBeTruthy();
  });
});
