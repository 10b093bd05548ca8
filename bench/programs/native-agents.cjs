// Bench program: `count` agents through the native plugin (`pulumi-agent-hosting/native`),
// the same declarations as agents.cjs.
const native = require("pulumi-agent-hosting/native");

module.exports = ({ count, prefix = "bench" }) => {
  const names = [];
  for (let i = 0; i < count; i++) {
    const agent = new native.Agent(`${prefix}-${i}`, {
      serviceName: `${prefix}-${i}`,
      image: "registry.example.com/voice-bot:1.0.0",
      autoScaling: { minAgents: 1, maxAgents: 3 },
    });
    names.push(agent.name);
  }
  return { count: names.length };
};
