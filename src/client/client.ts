/** AgentHostingClient: the typed client of every endpoint of the service. */
import type { Dispatcher } from "undici";
import { isCheckedConnection } from "./connection-settings";
import { REQUEST_TIMEOUT_MS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from "./delays";
import { ConflictError, InputValidationError, NotFoundError } from "./errors";
import { MAX_LOG_LIMIT, checkLogsQuery, logsQueryFailures, logsQueryParams } from "./logs-query";
import { LogEntryIterator } from "./pagination";
import type { IterateLogsArgs } from "./pagination";
import { loadSchemas, parseAnswer } from "./parse";
import { defaultSleep, isAmbiguous, isRetryable, spendRetry, withRetries } from "./retry";
import type { RetryBudget, RetryContext, RetryNote, RetryPolicy } from "./retry";
import { secretSetNameProblem, serviceNameProblem } from "./service-names";
import { validateFields } from "./validate-fields";
import { CREATE_BODY_FIELDS, UPDATE_BODY_FIELDS, reportsBody } from "./agent-body";
import type { LogEntry, LogResult, SecretSet, ServiceAgent as Agent } from "./answer-types";
import type { AgentLogsQuery, CreateAgentBody, UpdateAgentBody } from "./request-types";
import { Transport } from "./transport";
import type { Exchange } from "./transport";
import { parseLogResult } from "./log-result";
import { parseActiveSessionCount } from "./session-count";

export interface AgentHostingClientOptions {
  /** The service's base URL, ending with /v1; https unless the host is loopback or allowInsecureHttp is set. */
  baseUrl: string;
  apiKey: string;
  /** Allows an http:// base URL to a host other than loopback: the key then travels unencrypted. */
  allowInsecureHttp?: boolean;
  /** Per-request timeout (headers and body), default 30 000 ms. */
  timeoutMs?: number;
  /** Retries of a failed call, default 3. */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** The undici dispatcher requests go through (a proxy agent, say); by default the client's own keep-alive pool. */
  dispatcher?: UndiciDispatcher;
  /** Hears about every retry (method, path, reason, delay). */
  onRetry?: (note: RetryNote) => void;
  userAgent?: string;
}

/**
 * An undici 7 `Dispatcher` (an `Agent`, a `ProxyAgent`, a `MockAgent`...).
 * Declared by the part of its shape the client needs rather than as undici's
 * own type, whose declarations need a newer TypeScript than this package's
 * (which compile with 3.8): every undici Dispatcher fits it, and the client
 * sends its requests through undici's `request` of the object given, so it
 * must be one.
 */
export interface UndiciDispatcher {
  dispatch(options: object, handler: object): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** How retries are spaced: the jitter source (Math.random) and the sleep between retries (a timer). */
export interface RetryPacing {
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

export type { IterateLogsArgs } from "./pagination";

/** Per-call options of the client's methods. */
export interface CallOptions {
  /** Ends the call: the request in flight is aborted, no retry starts, and the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Hears about this call's retries (instead of the client's `onRetry`): a provider tells them on the resource's own row. */
  onRetry?: ((note: RetryNote) => void) | undefined;
  /** Retries of this call (instead of the client's `maxRetries`); 0 when the caller's own loop retries. */
  maxRetries?: number | undefined;
}

/** Options of createAgent. */
export interface CreateAgentOptions extends CallOptions {
  /**
   * Whether an agent read back after an ambiguous failure of the POST is the
   * one this call asked for (then it is returned; otherwise the call fails
   * with a ConflictError). By default: the service reports for it every
   * field of the body as sent (the service's defaults for those left out).
   */
  matches?: ((existing: Agent) => boolean) | undefined;
}

/** The agent in an answer: what the package relies on is checked, everything else kept. */
async function agentFrom(text: string, method: string, path: string): Promise<Agent> {
  const { agentSchema, asServiceAgent } = await loadSchemas();
  return asServiceAgent(parseAnswer(agentSchema, text, method, path));
}
export type { RetryNote } from "./retry";

function checkName(value: string, property: string, kind: "agent" | "set"): void {
  const reason = (kind === "agent" ? serviceNameProblem : secretSetNameProblem)(value);
  if (reason) throw new InputValidationError([{ property, reason }]);
}

function logsExchange(query: AgentLogsQuery): Exchange {
  return { method: "GET", segments: ["agents", query.agentName, "logs"], query: logsQueryParams(query) };
}

export class AgentHostingClient {
  private readonly transport: Transport;
  private readonly policy: RetryPolicy;
  private readonly onRetry: ((note: RetryNote) => void) | undefined;

  constructor(options: AgentHostingClientOptions, pacing: Partial<RetryPacing> = {}) {
    const transportOptions = {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      userAgent: options.userAgent ?? "pulumi-agent-hosting",
      allowInsecureHttp: options.allowInsecureHttp ?? false,
      checked: isCheckedConnection(options),
    };
    this.transport = new Transport(
      options.dispatcher ? { ...transportOptions, dispatcher: options.dispatcher as unknown as Dispatcher } : transportOptions,
    );
    this.policy = {
      maxRetries: options.maxRetries ?? 3,
      baseDelayMs: options.retryBaseDelayMs ?? RETRY_BASE_DELAY_MS,
      maxDelayMs: options.retryMaxDelayMs ?? RETRY_MAX_DELAY_MS,
      random: pacing.random ?? Math.random,
      sleep: pacing.sleep ?? defaultSleep,
    };
    this.onRetry = options.onRetry;
  }

  private retryContext(exchange: Exchange, options: CallOptions = {}): RetryContext {
    const policy = options.maxRetries === undefined ? this.policy : { ...this.policy, maxRetries: options.maxRetries };
    return { method: exchange.method, path: this.transport.pathOf(exchange.segments), policy, onRetry: options.onRetry ?? this.onRetry, signal: exchange.signal };
  }

  private call(
    exchange: Exchange,
    retry: { retryable?: (error: unknown) => boolean; budget?: RetryBudget } = {},
    options: CallOptions = {},
  ): Promise<string> {
    return withRetries(async () => (await this.transport.send(exchange)).text, { ...this.retryContext(exchange, options), ...retry });
  }

  /**
   * POST /agents. Retried on 429 and on a connection refused before sending;
   * an ambiguous failure (reset after sending, timeout, 5xx) is answered by
   * reading the agent back, never by posting twice blindly: the same agent
   * is returned, another spec is a ConflictError, and a 404 lets it post
   * again. One retry budget covers every POST of the call.
   */
  async createAgent(body: CreateAgentBody, options: CreateAgentOptions = {}): Promise<Agent> {
    const failures = validateFields(body, { resource: "Agent", fields: CREATE_BODY_FIELDS });
    if (failures.length > 0) throw new InputValidationError(failures);
    const exchange: Exchange = { method: "POST", segments: ["agents"], body, signal: options.signal };
    const path = this.transport.pathOf(exchange.segments);
    const budget: RetryBudget = { used: 0 };
    let ambiguous = false;
    for (;;) {
      try {
        const text = await this.call(exchange, { budget }, options);
        return await agentFrom(text, "POST", path);
      } catch (error) {
        options.signal?.throwIfAborted();
        const unclear = isAmbiguous(error) || (ambiguous && error instanceof ConflictError);
        if (!unclear) throw error;
        ambiguous = true;
        const existing = await this.readBack(body.serviceName, options);
        if (existing) {
          if ((options.matches ?? ((agent: Agent) => reportsBody(agent, body)))(existing)) return existing;
          throw new ConflictError({
            status: 409,
            code: "CONFLICT",
            message: `after an unanswered create, agent "${body.serviceName}" exists with a different spec; it was not created by this request`,
            method: "POST",
            path,
          });
        }
        await spendRetry(budget, error, { ...this.retryContext(exchange, options), why: "agent not found on read-back" });
      }
    }
  }

  private async readBack(name: string, options: CallOptions): Promise<Agent | undefined> {
    try {
      return await this.getAgent(name, options);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async getAgent(name: string, options: CallOptions = {}): Promise<Agent> {
    checkName(name, "name", "agent");
    const exchange: Exchange = { method: "GET", segments: ["agents", name], signal: options.signal };
    return agentFrom(await this.call(exchange, {}, options), "GET", this.transport.pathOf(exchange.segments));
  }

  /**
   * GET /agents/{name}, read for the agent's live sessions only
   * (`activeSessionCount`; 0 when the service leaves it out or sends null):
   * what a delete waits for. Only that member is checked (session-count.ts).
   */
  async getActiveSessionCount(name: string, options: CallOptions = {}): Promise<number> {
    checkName(name, "name", "agent");
    const exchange: Exchange = { method: "GET", segments: ["agents", name], signal: options.signal };
    return parseActiveSessionCount(await this.call(exchange, {}, options), "GET", this.transport.pathOf(exchange.segments));
  }

  /**
   * POST /agents/{name} with the full body. Retried like an idempotent call
   * after an ambiguous failure: posting the same full body twice leaves the
   * agent as one post would.
   */
  async updateAgent(name: string, body: UpdateAgentBody, options: CallOptions = {}): Promise<Agent> {
    checkName(name, "name", "agent");
    const failures = validateFields(body, { resource: "Agent", fields: UPDATE_BODY_FIELDS });
    if (failures.length > 0) throw new InputValidationError(failures);
    const exchange: Exchange = { method: "POST", segments: ["agents", name], body, signal: options.signal };
    const text = await this.call(exchange, { retryable: (e) => isRetryable(e, "POST") || isAmbiguous(e) }, options);
    return agentFrom(text, "POST", this.transport.pathOf(exchange.segments));
  }

  /**
   * DELETE /agents/{name}. Any 2xx is success, whatever its body (204 and an
   * empty body included). A missing agent is a NotFoundError.
   */
  async deleteAgent(name: string, options: CallOptions = {}): Promise<void> {
    checkName(name, "name", "agent");
    await this.call({ method: "DELETE", segments: ["agents", name], signal: options.signal }, {}, options);
  }

  async getAgentLogs(query: AgentLogsQuery, options: CallOptions = {}): Promise<LogResult> {
    checkLogsQuery(query);
    const exchange = { ...logsExchange(query), signal: options.signal };
    return parseLogResult(await this.call(exchange, {}, options), "GET", this.transport.pathOf(exchange.segments));
  }

  /** Every matching entry, page by page (pages of 1000 unless `pageSize` says otherwise). */
  iterateAgentLogs(args: IterateLogsArgs): AsyncIterableIterator<LogEntry> {
    // `limit` here caps the total yielded (any integer >= 1), not a page.
    const { pageSize, limit, ...query } = args;
    const failures = logsQueryFailures(query);
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_LOG_LIMIT)) {
      failures.push({ property: "pageSize", reason: `must be an integer from 1 to ${MAX_LOG_LIMIT}` });
    }
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
      failures.push({ property: "limit", reason: "must be an integer ≥ 1" });
    }
    if (failures.length > 0) throw new InputValidationError(failures);
    const path = this.transport.pathOf(logsExchange(query).segments);
    return new LogEntryIterator(args, {
      fetch: (q, wanted) => this.call(logsExchange(q), { retryable: (e) => (wanted?.() ?? true) && isRetryable(e, "GET") }),
      parse: (text) => parseLogResult(text, "GET", path),
    });
  }

  async getSecretSet(name: string, options: CallOptions = {}): Promise<SecretSet> {
    checkName(name, "name", "set");
    const exchange: Exchange = { method: "GET", segments: ["secrets", name], signal: options.signal };
    const text = await this.call(exchange, {}, options);
    const { secretSetSchema } = await loadSchemas();
    return parseAnswer(secretSetSchema, text, "GET", this.transport.pathOf(exchange.segments));
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.transport.close();
  }
}
