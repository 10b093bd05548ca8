// An image bump of n agents on the shared emulator, which rolls updates
// (the new deployment serves once ready, 2 s after the update), against the
// same bump of n Agent-shaped resources whose update waits 2 s: `pulumi up`
// of each, in pairs whose first side alternates. After every agents' bump,
// every agent's active deployment must be its desired one, on the new image
// and ready: a provider that returned before the rollout did fails here.
import { makeFigure } from "../lib/figure.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { round, sideOrder, timed } from "../lib/stats.mjs";
import { READY_MS } from "./engine.mjs";

const IMAGES = ["registry.example.com/voice-bot:1.0.0", "registry.example.com/voice-bot:1.0.1"];

/** Throws unless every agent named `prefix-*` serves, as its active and desired deployment, a ready deployment of `image`. */
export async function checkRolledOut(control, prefix, count, image) {
  const agents = (await control.listAgents()).agents.filter((a) => a.name.startsWith(`${prefix}-`));
  const now = Date.now();
  const wrong = agents.filter((a) => {
    const active = a.deployments.find((d) => d.id === a.activeDeploymentId);
    return a.activeDeploymentId !== a.desiredDeploymentId || active?.image !== image || active.readyAt === null || active.readyAt > now;
  });
  if (agents.length !== count || wrong.length > 0) {
    throw new Error(`after the bump to ${image}: ${agents.length} agents, ${wrong.length} not serving a ready deployment of it (${wrong.slice(0, 3).map((a) => a.name).join(", ")})`);
  }
}

export async function rollingFigures(ctx) {
  const n = ctx.sizes.small;
  const sampleFile = ctx["sample-dynamic"];
  if (!sampleFile) throw new Error("the bump's control reads the dynamic group's Agent sample, which was not made");
  ctx.log(`image bump: ${n} agents on the rolling emulator vs ${n} Agent-shaped resources whose update waits 2 s, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const params = { agents: { count: n, prefix: "roll", image: IMAGES[0] }, shaped: { count: n, sampleFile, image: IMAGES[0] } };
  const env = { BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: String(READY_MS) };
  const stacks = {
    agents: await stackFor(ctx.work, "rolling-agents", "agents.cjs", params.agents, ctx.emulator),
    shaped: await stackFor(ctx.work, "rolling-shaped", "agent-shaped.cjs", params.shaped, ctx.emulator, env),
  };
  /** An up of side `key` whose program now asks for `image`, timed; it must update all n resources. */
  const bump = async (key, image) => {
    params[key].image = image;
    globalThis.gc?.();
    let result;
    const ms = await timed(async () => (result = await stacks[key].stack.up(opts)));
    const updated = result.summary.resourceChanges?.update ?? 0;
    if (updated !== n) throw new Error(`an image bump of ${n} ${key} to ${image} updated ${updated}`);
    if (key === "agents") await checkRolledOut(ctx.control, "roll", n, image);
    return ms;
  };
  for (const key of ["agents", "shaped"]) {
    await stacks[key].stack.up(opts);
    await bump(key, IMAGES[1]); // untimed: the update paths warm
  }
  const samples = [];
  const requests = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const image = IMAGES[i % 2];
    const ms = {};
    for (const key of sideOrder(i % 2 === 0, ["agents", "shaped"])) {
      const before = (await ctx.control.stats()).requests;
      ms[key] = await bump(key, image);
      if (key === "agents") requests.push(round(((await ctx.control.stats()).requests - before) / n));
    }
    samples.push({ subject: ms.agents, baseline: ms.shaped });
    ctx.log(`bump pair ${i + 1}/${ctx.pairs}: agents ${Math.round(ms.agents)} ms, shaped ${Math.round(ms.shaped)} ms (to ${image}); ${requests.at(-1)} requests per agent`);
  }
  for (const handle of Object.values(stacks)) await handle.stack.destroy(opts);
  return [
    makeFigure({ id: `bump-control-${n}`, name: `pulumi up of an image bump of ${n} agents / of ${n} Agent-shaped resources whose update waits 2 s`, unit: "×", samples }),
    makeFigure({ id: `requests-bump-${n}`, name: `requests to the service per agent, an image bump of ${n} agents`, unit: "", samples: requests }),
  ];
}
