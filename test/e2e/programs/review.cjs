// A program for the review tests: agents whose inputs named in `secret` are
// wrapped in pulumi.secret, as a user marks a private image or secret set.
// params: { agents: [{ resource, args, secret?: [inputName] }] }
const pulumi = require("@pulumi/pulumi");
const ah = require("pulumi-agent-hosting");

module.exports = (params) => {
  const outputs = {};
  for (const { resource, args, secret = [] } of params.agents ?? []) {
    const inputs = { ...args };
    for (const name of secret) inputs[name] = pulumi.secret(args[name]);
    const agent = new ah.Agent(resource, inputs);
    outputs[resource] = { name: agent.name };
  }
  return outputs;
};
