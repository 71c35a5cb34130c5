import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { describeError, errorMessage, fieldErrorMessages } from './errors';

const problem = (status: number, key: string, extra: object = {}) =>
  new ApiError(status, { type: 'about:blank', title: key, status, i18NTranslationKey: key, ...extra });
const t = (key: string, options?: Record<string, unknown>) =>
  (key.includes(' ') ? key : `T(${key})`) + (typeof options?.name === 'string' ? `:${options.name}` : '');

describe('error mapping (docs/product.md, "Errors")', () => {
  it('400 gives field errors by translation key', () => {
    const err = problem(400, 'validation_failed', {
      errors: { first_name: [{ message: 'First name is required', translation_key: 'first_name_required' }] },
    });
    expect(describeError(err)).toEqual({
      kind: 'fields',
      fields: { first_name: ['first_name_required'] },
      summary: ['first_name_required'],
    });
    expect(fieldErrorMessages(err, t)).toEqual({ first_name: 'T(first_name_required)' });
  });

  it('400 falls back to the message when the key is unknown or missing', () => {
    const err = problem(400, 'validation_failed', { errors: { email: [{ message: 'Bad address', translation_key: 'nope' }] } });
    expect(describeError(err, (k) => k !== 'nope')).toMatchObject({ fields: { email: ['Bad address'] } });
    expect(errorMessage(err, t, (k) => k !== 'nope')).toBe('Bad address');
  });

  it('409 gives the translated key, falling back to invalid_operation', () => {
    expect(describeError(problem(409, 'cannot_delete_organization_with_members'))).toMatchObject({
      kind: 'conflict',
      key: 'cannot_delete_organization_with_members',
    });
    expect(describeError(problem(409, 'who_knows'), (k) => k !== 'who_knows')).toMatchObject({
      kind: 'conflict',
      key: 'invalid_operation',
    });
    expect(errorMessage(new ApiError(409, null), t, () => false)).toBe('T(invalid_operation)');
  });

  it('409 lists the returned messages after the translated key', () => {
    expect(errorMessage(problem(409, 'not_allowed_to_invite_other_domains', { messages: ['@example.com'] }), t)).toBe(
      'T(not_allowed_to_invite_other_domains)\n@example.com',
    );
  });

  it('429 is too many requests', () => {
    expect(describeError(problem(429, 'too_many_requests'))).toEqual({ kind: 'too_many_requests', key: 'too_many_requests' });
    expect(errorMessage(new ApiError(429, null), t)).toBe('T(too_many_requests)');
  });

  it('anything else is error_try_again', () => {
    expect(errorMessage(problem(500, 'something_went_wrong'), t)).toBe('T(error_try_again)');
    expect(errorMessage(problem(403, 'forbidden'), t)).toBe('T(error_try_again)');
    expect(errorMessage(new TypeError('Failed to fetch'), t)).toBe('T(error_try_again)');
  });
});
