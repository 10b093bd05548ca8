/**
 * Every error class of src/client/errors.ts: an instance's `name` is the
 * class's exported name, an own enumerable property that `toJSON` and the
 * stack's first line carry, and a subclass written outside the package takes
 * the name of the nearest class it extends.
 */
import { describe, expect, it } from "vitest";
import * as errors from "../../src/client/errors";

const details: errors.ApiErrorDetails = { status: 409, code: "CONFLICT", message: "taken", method: "POST", path: "/v1/agents" };
const answered = new errors.NotFoundError({ ...details, status: 404 });

/** One instance of each exported class, made with its own constructor's arguments. */
const INSTANCES: Record<string, errors.AgentHostingError> = {
  AgentHostingError: new errors.AgentHostingError("failed"),
  ApiError: new errors.ApiError(details),
  BadRequestError: new errors.BadRequestError(details),
  AuthenticationError: new errors.AuthenticationError(details),
  NotFoundError: answered,
  ConflictError: new errors.ConflictError(details),
  ServerError: new errors.ServerError(details),
  RateLimitError: new errors.RateLimitError({ ...details, retryAfterSeconds: 3 }),
  ConnectionError: new errors.ConnectionError("GET", "/v1/agents/a", "ECONNREFUSED", true),
  TimeoutError: new errors.TimeoutError("GET", "/v1/agents/a", 1000),
  ResponseValidationError: new errors.ResponseValidationError("GET", "/v1/agents/a", ["ready"], "ready is missing"),
  InputValidationError: new errors.InputValidationError([{ property: "image", reason: "is required" }]),
  ConfigurationError: new errors.ConfigurationError("no API key"),
  AgentIncompleteError: new errors.AgentIncompleteError("not finished", "a", {}),
  AgentNotReadyError: new errors.AgentNotReadyError("not ready", "a", {}),
  AgentUnhealthyError: new errors.AgentUnhealthyError("unhealthy", "a", {}),
  AgentRolledBackError: new errors.AgentRolledBackError("rolled back", "a", {}),
  AgentCreateRolledBackError: new errors.AgentCreateRolledBackError("deleted", "a"),
  AgentNotFoundError: new errors.AgentNotFoundError("a", answered),
};

const exportedClasses = Object.entries(errors).filter(([, value]) => typeof value === "function");

describe("error names", () => {
  it("the table above holds one instance of every exported class", () => {
    expect(Object.keys(INSTANCES).sort()).toEqual(exportedClasses.map(([name]) => name).sort());
  });

  it.each(exportedClasses)("%s: its instances are named after it", (name, kind) => {
    const error = INSTANCES[name]!;
    expect(Object.getPrototypeOf(error)).toBe((kind as { prototype: unknown }).prototype);
    expect(error).toBeInstanceOf(errors.AgentHostingError);
    expect(error.name).toBe(name);
    expect(Object.keys(error)[0]).toBe("name");
    expect((error.toJSON() as { name: string }).name).toBe(name);
    expect(error.stack?.split("\n")[0]).toBe(`${name}: ${error.message}`);
  });

  it("withMessage keeps the class and so the name", () => {
    const clearer = new errors.RateLimitError({ ...details, retryAfterSeconds: 3 }).withMessage("slow down");
    expect(clearer).toBeInstanceOf(errors.RateLimitError);
    expect(clearer.name).toBe("RateLimitError");
    expect(clearer.retryAfterSeconds).toBe(3);
  });

  it("a subclass of the package's error takes the name of the class it extends, or its own", () => {
    class BusyAgentError extends errors.ConflictError {}
    class NamedError extends errors.ConflictError {
      override readonly name = "NamedError";
    }
    expect(new BusyAgentError(details).name).toBe("ConflictError");
    expect(new NamedError(details).name).toBe("NamedError");
  });
});
