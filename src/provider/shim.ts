/**
 * The serialized provider: a few tiny methods that load the implementation
 * from the installed package at call time. Pulumi serializes this object into
 * every Agent's state, so it must capture nothing: no client, no schema, no
 * key. `require` resolves from the provider process's working directory, the
 * program's directory, where `pulumi-agent-hosting` is installed.
 *
 * Keep every method self-contained (the module name is repeated on purpose):
 * a shared helper would be serialized too.
 */
import type * as pulumi from "@pulumi/pulumi";

/* eslint-disable @typescript-eslint/no-require-imports */
// Arrow functions: every method is serialized with a wrapper of its own, and
// these are the shortest bodies that work (the state carries this text twice).
export const agentProvider: pulumi.dynamic.ResourceProvider = {
  configure: async (req) => require("pulumi-agent-hosting/provider-impl").configure(req.config),
  check: (olds, news) => require("pulumi-agent-hosting/provider-impl").check(olds, news),
  diff: (id, olds, news) => require("pulumi-agent-hosting/provider-impl").diff(id, olds, news),
  create: (inputs) => require("pulumi-agent-hosting/provider-impl").create(inputs),
  read: (id, props) => require("pulumi-agent-hosting/provider-impl").read(id, props),
  update: (id, olds, news) => require("pulumi-agent-hosting/provider-impl").update(id, olds, news),
  delete: (id) => require("pulumi-agent-hosting/provider-impl").remove(id),
};
/* eslint-enable @typescript-eslint/no-require-imports */
