/** The service's domain, described once: the Agent's fields and outputs, their rules, and the request/manifest mapping. */
export * from "./agent-fields";
export * from "./agent-outputs";
export * from "./equal";
export * from "./field";
export * from "./functions";
export * from "./manifest";
export * from "./provider-config";
export * from "./request-body";
export * from "./rules";
export * from "./service-agent";
export * from "./type-tokens";
export * from "./validate";
export * from "./agent-types";
