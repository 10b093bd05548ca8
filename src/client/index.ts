/**
 * The client folder as one module: the typed client, its error tree, the
 * zod schemas and types of every request and answer, and the input rules.
 *
 * Loading this loads undici and zod; the package root (src/index.ts) loads
 * the client lazily instead, so a program that only declares agents does not
 * pay for them. Use this barrel where the client is wanted anyway.
 */
export { AgentHostingClient } from "./client";
export type { AgentHostingClientOptions, IterateLogsArgs, RetryNote } from "./client";
export * from "./errors";
export * from "./schemas";
export * from "./rule-schemas";
export * from "./rules";
export { MAX_LOG_LIMIT } from "./logs-query";
export { MAX_RESPONSE_BYTES } from "./transport";
export { parseRetryAfter } from "./error-mapping";
