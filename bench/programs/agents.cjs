// Bench program: `count` agents, as a platform team would declare them;
// `image` changes every agent's image (an image bump).
const ah = require("pulumi-agent-hosting");

module.exports = ({ count, prefix = "bench", image = "registry.example.com/voice-bot:1.0.0" }) => {
  const names = [];
  for (let i = 0; i < count; i++) {
    const agent = new ah.Agent(`${prefix}-${i}`, {
      serviceName: `${prefix}-${i}`,
      image,
      autoScaling: { minAgents: 1, maxAgents: 3 },
    });
    names.push(agent.name);
  }
  return { count: names.length };
};
