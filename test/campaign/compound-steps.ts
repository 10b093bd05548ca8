/**
 * The steps that do more than one thing: an up with faults armed, a broken
 * input tried and undone, a takeover attempt, outside changes, and an up
 * with something happening while it waits (an outside update superseding
 * its deployment, SIGINT or SIGKILL of the CLI, the emulator restarted from
 * its state file). A killed up is followed by the recovery the README
 * documents (sidecars, `pulumi cancel`, its jq repair of pending creates,
 * `pulumi refresh`, `pulumi up`).
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { killProcessesIn, removeEmptySidecars, type Outcome } from "./campaign-stack";
import type { CampaignWorld, StepEffect } from "./runner";
import { applyEdit, type AgentSpec, type Step } from "./steps";

const repoRoot = resolve(__dirname, "../..");
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runCompound(world: CampaignWorld, step: Step): Promise<StepEffect> {
  const at = (resource: string) => world.program.findIndex((a) => a.resource === resource);
  switch (step.kind) {
    case "broken": {
      const i = at(step.resource);
      if (i < 0) return {};
      const before = world.program[i] as AgentSpec;
      world.program[i] = applyEdit(before, step.edit);
      const outcome = await world.stack.run("up", world.program);
      world.program[i] = before;
      return { outcome, as: "broken" };
    }
    case "faulty-up": {
      for (const fault of step.faults) await world.emu.control.injectFault(fault);
      if (step.rateLimit) await world.emu.control.setRateLimit(step.rateLimit);
      return { outcome: await world.stack.run("up", world.program), as: "up" };
    }
    case "outside-delete":
      if (await exists(world, step.serviceName)) {
        await world.emu.raw("DELETE", `/v1/agents/${step.serviceName}`);
        world.excused.add(step.serviceName);
        world.sessions.delete(step.serviceName);
      }
      return {};
    case "outside-image":
    case "outside-scale": {
      if (!(await exists(world, step.serviceName))) return {};
      const current = (await world.emu.raw("GET", `/v1/agents/${step.serviceName}`)).json as { deployment?: { manifest?: { spec?: { image?: string } } } };
      const image = step.kind === "outside-image" ? step.image : current.deployment?.manifest?.spec?.image;
      const body = step.kind === "outside-scale" ? { image, autoScaling: step.autoScaling } : { image };
      await world.emu.raw("POST", `/v1/agents/${step.serviceName}`, { json: body });
      world.excused.add(step.serviceName);
      return {};
    }
    case "sessions":
      if (await exists(world, step.serviceName)) {
        const { endsAt } = await world.emu.control.setSessions(step.serviceName, step.count, step.endAfterMs);
        world.sessions.set(step.serviceName, { count: step.count, endsAt });
      }
      return {};
    case "takeover": {
      if (world.program.some((a) => a.serviceName === step.serviceName) || (await exists(world, step.serviceName))) return {};
      const made = await world.emu.raw("POST", "/v1/agents", { json: { serviceName: step.serviceName, image: "registry.example.com/theirs:1" } });
      world.foreign.set(step.serviceName, String((made.json as { activeDeploymentId?: string }).activeDeploymentId));
      const program = [...world.program, { resource: step.resource, serviceName: step.serviceName, image: "registry.example.com/bot:1" }];
      const outcome = await world.stack.run("up", program);
      // The up must fail on the taken name; whatever else it did is judged as a failed up.
      const declared = [step.serviceName, step.resource];
      return { outcome: outcome.ok ? { ok: false, output: `campaign: an up declaring ${step.serviceName}, made outside Pulumi, succeeded` } : outcome, as: "up", declared };
    }
    case "supersede-up":
      return supersedeUp(world, step);
    case "killed-up":
      return killedUp(world, step);
    case "restart-up":
      return restartUp(world, step);
    default:
      return {};
  }
}

async function exists(world: CampaignWorld, name: string): Promise<boolean> {
  return (await world.emu.control.listAgents()).agents.some((a) => a.name === name);
}

/** How many POSTs of an agent (create or update) the service has answered. */
async function posts(world: CampaignWorld): Promise<number> {
  const { byRoute } = await world.emu.control.stats();
  return Object.entries(byRoute).filter(([route]) => /^POST \/v1\/agents/.test(route)).reduce((sum, [, n]) => sum + n, 0);
}

/** Sets `resource`'s image in the program; false when the program no longer has it. */
function bump(world: CampaignWorld, resource: string, image: string): AgentSpec | undefined {
  const i = world.program.findIndex((a) => a.resource === resource);
  if (i < 0) return undefined;
  world.program[i] = { ...(world.program[i] as AgentSpec), image };
  return world.program[i];
}

/** Resolves true after the service answered a new POST of an agent; false after `ms` or once stopped. */
function afterNextPost(world: CampaignWorld, ms = 60_000): { posted: Promise<boolean>; stop(): void } {
  let stopped = false;
  const posted = (async () => {
    const start = await posts(world);
    const deadline = Date.now() + ms;
    while (!stopped && Date.now() < deadline) {
      if ((await posts(world).catch(() => start)) > start) return true;
      await sleep(25);
    }
    return false;
  })();
  return { posted, stop: () => (stopped = true) };
}

async function supersedeUp(world: CampaignWorld, step: Extract<Step, { kind: "supersede-up" }>): Promise<StepEffect> {
  const agent = bump(world, step.resource, step.image);
  if (!agent) return {};
  const watch = afterNextPost(world);
  const up = world.stack.run("up", world.program);
  let landed = false;
  const first = await Promise.race([watch.posted, up.then(() => false)]);
  watch.stop();
  await watch.posted;
  if (first) {
    // The update the up waits for is superseded by another one, made outside Pulumi.
    await world.emu.raw("POST", `/v1/agents/${agent.serviceName}`, { json: { image: step.outsideImage } });
    landed = true;
  }
  const outcome = await up;
  if (landed && step.followAdvice && !outcome.ok && /was superseded at the service/.test(outcome.output)) {
    // The error says to refresh, then up again (test/campaign/README.md, defects: an up right after it succeeds without the program's image).
    const refresh = await world.stack.run("refresh", world.program);
    return { outcome: { ok: false, output: `${outcome.output}\n${refresh.output}` }, as: "up", ...(refresh.ok ? {} : { excuse: [agent.serviceName] }) };
  }
  return { outcome, as: "up", ...(landed ? { excuse: [agent.serviceName] } : {}) };
}

async function killedUp(world: CampaignWorld, step: Extract<Step, { kind: "killed-up" }>): Promise<StepEffect> {
  if (!bump(world, step.resource, step.image)) return {};
  const watch = afterNextPost(world, 30_000);
  const child = world.stack.startUp(world.program);
  const closed = new Promise<void>((r) => child.once("close", () => r()));
  await Promise.race([watch.posted, closed]);
  watch.stop();
  await watch.posted;
  signalGroup(child, step.signal);
  if (!(await Promise.race([closed.then(() => true), sleep(60_000).then(() => false)]))) {
    signalGroup(child, "SIGKILL");
    await closed;
  }
  killProcessesIn(world.stack.workDir);
  return { outcome: await recover(world), as: "up", recovery: true };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already ended
  }
}

/** The README's recovery after a killed up: empty sidecars removed, `pulumi cancel`, its jq repair of pending creates, `pulumi refresh`, then `pulumi up`. */
async function recover(world: CampaignWorld): Promise<Outcome> {
  const stack = world.stack;
  const lines: string[] = [];
  removeEmptySidecars(join(stack.workDir, ".state"));
  lines.push((await stack.cancel()).output);
  const state = await stack.state();
  if (state.pending.length > 0) {
    // CAMPAIGN_README replays a case against the repair of another README (an earlier commit's, to show a defect it had).
    const readme = readFileSync(process.env["CAMPAIGN_README"] ?? join(repoRoot, "README.md"), "utf8");
    const filter = /^jq '(.+)' state\.json > repaired\.json$/m.exec(readme)?.[1];
    if (!filter) return { ok: false, output: "campaign: the README has no jq repair line" };
    const exported = join(stack.workDir, "state.json");
    const repaired = join(stack.workDir, "repaired.json");
    writeFileSync(exported, state.text);
    writeFileSync(repaired, execFileSync("jq", [filter, exported], { encoding: "utf8" }));
    const imported = await stack.importState(repaired);
    if (!imported.ok) return { ok: false, output: `campaign: pulumi stack import of the README's repair failed:\n${imported.output}` };
  }
  const refresh = await stack.run("refresh", world.program);
  lines.push(refresh.output);
  if (!refresh.ok) return { ok: false, output: lines.join("\n") };
  const up = await stack.run("up", world.program);
  lines.push(up.output);
  return { ok: up.ok, output: lines.join("\n") };
}

async function restartUp(world: CampaignWorld, step: Extract<Step, { kind: "restart-up" }>): Promise<StepEffect> {
  if (!bump(world, step.resource, step.image)) return {};
  const watch = afterNextPost(world);
  const up = world.stack.run("up", world.program);
  const first = await Promise.race([watch.posted, up.then(() => false)]);
  watch.stop();
  await watch.posted;
  if (first) await world.restartEmulator();
  return { outcome: await up, as: "up" };
}
