/**
 * `pulumi-agent-hosting/native`: the Agent, the provider and the functions
 * served by the native plugin `pulumi-resource-agent-hosting` (the engine
 * fetches it from the provider's releases on first use, or it is installed
 * with `pulumi plugin install`). The package root's Agent is the dynamic
 * provider's, which needs no plugin.
 */
// Type-only names in `export type` statements, not `type` modifiers inside `export { }`: the
// published declarations keep the syntax of TypeScript 3.8, the engine's own (see README, Compatibility).
export { Agent } from "../resources/agent/native-agent";
export type { AgentArgs } from "../resources/agent/native-agent";
export { Provider } from "./provider";
export type { ProviderArgs } from "./provider";
// The functions and their argument and result types: everything src/native/functions.ts exports.
export * from "./functions";
