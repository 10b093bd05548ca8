/**
 * Every error class of src/client/errors.ts: an instance's `name` is the
 * class's exported name, an own enumerable property that `toJSON` and the
 * stack's first line carry, and a subclass written outside the package takes
 * the name of the nearest class it extends.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
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
    // A class with subclasses (ApiError) declares `name: string`, so a subclass may name itself.
    class NamedError extends errors.ApiError {
      override readonly name = "NamedError";
    }
    expect(new BusyAgentError(details).name).toBe("ConflictError");
    expect(new NamedError(details).name).toBe("NamedError");
  });

  it("a class without subclasses declares its name's literal type, the name it gets", () => {
    // Checked by the compiler (npm run typecheck): a declared literal that differs from the table's name fails there.
    type Named<K extends keyof typeof errors> = (typeof errors)[K] extends abstract new (...args: never[]) => { name: infer N } ? N : never;
    expectTypeOf<Named<"BadRequestError">>().toEqualTypeOf<"BadRequestError">();
    expectTypeOf<Named<"AuthenticationError">>().toEqualTypeOf<"AuthenticationError">();
    expectTypeOf<Named<"NotFoundError">>().toEqualTypeOf<"NotFoundError">();
    expectTypeOf<Named<"ConflictError">>().toEqualTypeOf<"ConflictError">();
    expectTypeOf<Named<"ServerError">>().toEqualTypeOf<"ServerError">();
    expectTypeOf<Named<"RateLimitError">>().toEqualTypeOf<"RateLimitError">();
    expectTypeOf<Named<"ConnectionError">>().toEqualTypeOf<"ConnectionError">();
    expectTypeOf<Named<"TimeoutError">>().toEqualTypeOf<"TimeoutError">();
    expectTypeOf<Named<"ResponseValidationError">>().toEqualTypeOf<"ResponseValidationError">();
    expectTypeOf<Named<"InputValidationError">>().toEqualTypeOf<"InputValidationError">();
    expectTypeOf<Named<"ConfigurationError">>().toEqualTypeOf<"ConfigurationError">();
    expectTypeOf<Named<"AgentNotReadyError">>().toEqualTypeOf<"AgentNotReadyError">();
    expectTypeOf<Named<"AgentUnhealthyError">>().toEqualTypeOf<"AgentUnhealthyError">();
    expectTypeOf<Named<"AgentRolledBackError">>().toEqualTypeOf<"AgentRolledBackError">();
    expectTypeOf<Named<"AgentCreateRolledBackError">>().toEqualTypeOf<"AgentCreateRolledBackError">();
    expectTypeOf<Named<"AgentNotFoundError">>().toEqualTypeOf<"AgentNotFoundError">();
    expectTypeOf<Named<"ApiError">>().toEqualTypeOf<string>();
    // And at run time, each is the name the instance gets.
    for (const [name, error] of Object.entries(INSTANCES)) expect(error.name).toBe(name);
  });
});
