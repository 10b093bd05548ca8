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
export const agentProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    await require("pulumi-agent-hosting/provider-impl").configure(req.config);
  },
  async check(olds, news) {
    return require("pulumi-agent-hosting/provider-impl").check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-agent-hosting/provider-impl").diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-agent-hosting/provider-impl").create(inputs);
  },
  async read(id, props) {
    return require("pulumi-agent-hosting/provider-impl").read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-agent-hosting/provider-impl").update(id, olds, news);
  },
  async delete(id) {
    return require("pulumi-agent-hosting/provider-impl").remove(id);
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */
