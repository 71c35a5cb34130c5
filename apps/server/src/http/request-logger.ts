import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * A caller's X-Request-Id, logged beside the server's own request id as `caller_request_id`
 * (the server makes every request id: docs/security.md); only a plain, short value is taken.
 */
export function callerRequestId(raw: IncomingMessage): { caller_request_id: string } | Record<string, never> {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? { caller_request_id: given } : {};
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * `request.log`: the request's child logger (its `reqId`, and `caller_request_id`), made when
 * the request first logs something. Most requests log nothing of their own (the access line is
 * written by http/access-log.ts with the same fields), and making a child per request was a
 * share of every read's CPU (docs/performance.md, "Authenticated reads").
 */
export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
    private readonly raw: IncomingMessage,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child({ ...this.bindings, ...callerRequestId(this.raw) }, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    // the arguments as they came (pino's overloads: an object or a message first, then the rest)
    this.logger[level](...(args as [unknown]));
  }
}
