// A program for the review tests: agents whose inputs named in `secret` are
// wrapped in pulumi.secret, as a user marks a private image or secret set.
// An agent's `after` names agents it depends on (dependsOn), so their steps
// finish before its own starts.
// params: { agents: [{ resource, args, secret?: [inputName], after?: [resource] }] }
const pulumi = require("@pulumi/pulumi");
const ah = require("pulumi-agent-hosting");

module.exports = (params) => {
  const outputs = {};
  const made = new Map();
  for (const { resource, args, secret = [], after = [] } of params.agents ?? []) {
    const inputs = { ...args };
    for (const name of secret) inputs[name] = pulumi.secret(args[name]);
    const agent = new ah.Agent(resource, inputs, { dependsOn: after.map((name) => made.get(name)) });
    made.set(resource, agent);
    outputs[resource] = { name: agent.name };
  }
  return outputs;
};
