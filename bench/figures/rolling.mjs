// An image bump of 50 agents on the rolling emulator (the bench's shared
// emulator: updates roll, the new deployment serves once ready, 2 s after the
// update), against the same bump of 50 Agent-shaped resources whose update
// waits 2 s: `pulumi up` of each, as interleaved pairs.
import { agentShapedStack, settle, writeAgentSample } from "../lib/engine-stacks.mjs";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { interleavedPairs, round, timed } from "../lib/stats.mjs";

const UPDATE_MS = 2000;
/** The two images every up alternates between, so each up updates every resource. */
const IMAGES = ["registry.example.com/voice-bot:1.0.0", "registry.example.com/voice-bot:1.0.1"];

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable({
  rolling: { bar: "≤ 1.15 (the provider's own cost)", rule: { method: "p80", combine: "ratio", compare: "<=", limit: 1.15 } },
});

/**
 * Both stacks brought up once at the first image and bumped once untimed;
 * then per pair both bumped to the other image, each `up` timed, the agents
 * first in even pairs and last in odd ones. The programs read their image
 * from the params object the stack's inline program closes over, so setting
 * `params.image` before an `up` is the program's change.
 */
export async function rollingFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`pulumi up of an image bump: ${n} agents on the rolling emulator (ready after 2 s) vs ${n} Agent-shaped resources whose update waits 2 s, parallel ${n}, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const agentParams = { count: n, prefix: "roll", image: IMAGES[0] };
  const agents = await stackFor(ctx.work, `rolling-agents-${n}`, "agents.cjs", agentParams, ctx.emulator);
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample(ctx, agents, `rolling-${n}`);
  const shapedParams = { image: IMAGES[0] };
  const shaped = await agentShapedStack(ctx, `rolling-shaped-${n}`, n, sampleFile, UPDATE_MS, shapedParams);
  await shaped.stack.up(opts);

  /** An up of `handle` whose program now asks for `image`, timed; it must update all n resources. */
  const bump = async (handle, params, image) => {
    params.image = image;
    settle();
    let result;
    const ms = await timed(async () => {
      result = await handle.stack.up(opts);
    });
    const updated = result.summary.resourceChanges?.update ?? 0;
    if (updated !== n) throw new Error(`an image bump of ${n} resources to ${image} updated ${updated}`);
    return round(ms);
  };
  // One untimed bump of each side, to the second image: the update paths warm.
  await bump(agents, agentParams, IMAGES[1]);
  await bump(shaped, shapedParams, IMAGES[1]);
  // Pair i bumps both sides to IMAGES[i % 2]: always the other image than their last up's.
  const requestsPerAgent = [];
  const samples = await interleavedPairs(
    ctx.pairs,
    async (i) => {
      const before = (await ctx.control.stats()).requests;
      const ms = await bump(agents, agentParams, IMAGES[i % 2]);
      requestsPerAgent.push(round(((await ctx.control.stats()).requests - before) / n));
      return ms;
    },
    (i) => bump(shaped, shapedParams, IMAGES[i % 2]),
    (s, i) =>
      ctx.log(`rolling pair ${i + 1}/${ctx.pairs}: agents ${Math.round(s.subject)} ms, shaped ${Math.round(s.baseline)} ms (to ${IMAGES[i % 2]}); ${requestsPerAgent[i]} requests per agent`),
  );
  await agents.stack.destroy(opts);
  await shaped.stack.destroy(opts);
  return [
    declaredFigure(RULES, {
      id: "rolling",
      name: `pulumi up of an image bump of ${n} agents on the rolling emulator / ${n} Agent-shaped resources whose update waits 2 s`,
      unit: "×",
      samples,
      extra: { requestsPerAgent },
    }),
  ];
}
