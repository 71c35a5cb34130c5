import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type ErrorKey, isErrorKey, type Problem } from '@partner-portal/contracts';

export type FieldErrors = Record<string, { message: string; translation_key: string }[]>;

/**
 * The one error type of the server. Keyed by a stable translation key from the contracts, with a
 * status, and only safe details. Services throw it; the error handler turns it into a problem.
 */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldErrors | undefined;
  readonly messages: string[] | undefined;
  readonly params: Record<string, string | number> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    key: ErrorKey,
    options: {
      detail?: string;
      errors?: FieldErrors;
      messages?: string[];
      params?: Record<string, string | number>;
      headers?: Record<string, string>;
      status?: number;
    } = {},
  ) {
    super(options.detail ?? ERRORS[key].title);
    this.name = 'AppError';
    this.key = key;
    this.status = options.status ?? ERRORS[key].status;
    this.detail = options.detail;
    this.errors = options.errors;
    this.messages = options.messages;
    this.params = options.params;
    this.headers = options.headers;
  }

  /** A 400 with field errors, each keyed by its translation key. */
  static validation(fields: Record<string, ErrorKey | ErrorKey[]>): AppError {
    const errors: FieldErrors = {};
    for (const [field, keys] of Object.entries(fields)) {
      errors[field] = (Array.isArray(keys) ? keys : [keys]).map((k) => ({ message: ERRORS[k].title, translation_key: k }));
    }
    const first = Object.values(fields).flat()[0];
    return new AppError('validation_failed', { errors, ...(first ? { detail: ERRORS[first].title } : {}) });
  }
}

export function problemBody(request: FastifyRequest, error: AppError): Problem {
  const body: Problem = {
    type: `urn:partner-portal:problem:${error.key}`,
    title: ERRORS[error.key].title,
    status: error.status,
    detail: error.detail ?? ERRORS[error.key].title,
    instance: request.url.split('?')[0] ?? request.url,
    i18NTranslationKey: error.key,
  };
  if (error.errors) body.errors = error.errors;
  if (error.messages) body.messages = error.messages;
  if (error.params) body.params = error.params;
  return body;
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) void reply.headers(error.headers);
  return reply.code(error.status).type('application/problem+json').send(problemBody(request, error));
}

function zodIssuesToFieldErrors(issues: readonly { path?: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = (issue.path ?? []).map(String).join('.') || '_';
    const key = isErrorKey(issue.message) ? issue.message : 'validation_failed';
    const message = isErrorKey(issue.message) ? ERRORS[issue.message].title : issue.message;
    (errors[field] ??= []).push({ message, translation_key: key });
  }
  return errors;
}

/** pg-pool's error when no connection came free within connectionTimeoutMillis (db/postgres.ts): busy, not broken */
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';

const PG_UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);

/** Map anything thrown to an AppError; unknown errors become a logged 500 without internals. */
export function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const e = error as FastifyError & { code?: string; validationContext?: string; cause?: unknown };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: (v.instancePath || '').split('/').filter(Boolean),
      message: v.message ?? 'validation_failed',
    }));
    const errors = zodIssuesToFieldErrors(issues);
    const firstKey = Object.values(errors)[0]?.[0]?.translation_key;
    return new AppError('validation_failed', {
      errors,
      detail: firstKey && isErrorKey(firstKey) ? ERRORS[firstKey].title : ERRORS.validation_failed.title,
    });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case '23505': // unique_violation not mapped by a service
    case '23503': // foreign_key_violation
    case '40001': // serialization_failure
    case '40P01': // deadlock
      return new AppError('invalid_operation');
    case '22P02': // invalid_text_representation (e.g. a malformed uuid reaching SQL)
    case '22001': // string too long
    case '22003': // numeric out of range
    case '22021': // bad byte sequence
      return new AppError('validation_failed');
  }
  if ((e.code && PG_UNAVAILABLE.has(e.code)) || e.message === POOL_TIMEOUT)
    return new AppError('service_unavailable', { headers: { 'retry-after': '5' } });
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 429) return new AppError('too_many_requests');
    if (e.statusCode === 404) return new AppError('not_found');
    if (e.statusCode === 401) return new AppError('unauthorized');
    if (e.statusCode === 403) return new AppError('forbidden');
    if (e.statusCode === 405) return new AppError('method_not_allowed');
    if (e.statusCode === 413) return new AppError('payload_too_large');
    if (e.statusCode === 415) return new AppError('unsupported_media_type');
    return new AppError('validation_failed', { status: e.statusCode });
  }
  request.log.error({ err: error }, 'unhandled error');
  return new AppError('something_went_wrong');
}

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.status >= 500) request.log.warn({ key: appError.key }, 'answered with a server error');
    return sendProblem(request, reply, appError);
  });
}
