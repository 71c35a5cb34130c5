import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { callerRequestId } from './request-logger.js';

/**
 * The access log: Fastify's request lines, made one line per answered request, written when the
 * answer has been sent, with what an operator looks for and nothing that costs more than it tells:
 * the request id (`reqId`, and `caller_request_id` when the caller sent a usable X-Request-Id:
 * app.ts), the method, the path without its query string (links carry one-time codes there), the
 * status and the response time in milliseconds. Fastify's own two lines per request serialized
 * the whole request and answer each time (docs/performance.md, "Authenticated reads").
 *
 * `enabled: false` (ACCESS_LOG=false) leaves only answers that failed to be sent; a LOG_LEVEL above
 * info leaves the same. Fastify's other request-time lines (errors of its default error handler,
 * of streams, of serializers) are its own.
 */
export class AccessLog extends LogController {
  constructor(
    private readonly log: Logger,
    private readonly enabled: boolean,
  ) {
    super();
  }

  override incomingRequest(): void {
    // the one line is written at the end
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.enabled) return;
    const url = request.url;
    const query = url.indexOf('?');
    // written by the instance's logger with the request's fields: the request's own child logger
    // is made only when the request logs something itself (http/request-logger.ts)
    const line = {
      reqId: request.id,
      ...callerRequestId(request.raw),
      method: request.method,
      path: query === -1 ? url : url.slice(0, query),
      status: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) this.log.error({ ...line, err: error }, 'request errored');
    else this.log.info(line, 'request completed');
  }
}
