/**
 * The campaign's steps and its weighted step table. A step carries every
 * value it uses (names, images, counts, faults), so a case replays from its
 * JSON alone; the PRNG only draws them (`drawSteps`). A step whose target
 * is gone (an agent removed by an earlier step, or by shrinking) does nothing.
 */
import type { FaultSpec } from "../../src/emulator/faults";
import type { RateLimitSpec } from "../../src/emulator/rate-limit";
import type { Prng } from "./prng";

export const GOOD_IMAGE = (n: number): string => `registry.example.com/bot:${n}`;
/** Never validates at the emulator (it writes crash lines). */
export const FAIL_IMAGE = "registry.example.com/bot:fail";
/** Validates, then logs "panic: ..." lines: a health check fails it. */
export const UNHEALTHY_IMAGE = "registry.example.com/bot:unhealthy";
export const SECRET_SET = "voice-secrets";
export const MISSING_SET = "no-such-set";

/** One agent of the program: the Agent's inputs the campaign varies. */
export interface AgentSpec {
  resource: string;
  serviceName: string;
  image: string;
  autoScaling?: { minAgents: number; maxAgents: number };
  onFailure?: "keep" | "rollback";
  healthCheck?: { failOnLogQuery: string; watchSeconds: number };
  secretSet?: string;
  requiredSecrets?: string[];
  drainSeconds?: number;
}

/** A change to one agent's inputs (`null` removes the input). */
export type AgentEdit = { [K in Exclude<keyof AgentSpec, "resource">]?: AgentSpec[K] | null };

export type Operation = "preview" | "up" | "refresh" | "destroy";

export type Step =
  /** Program edits (no CLI run). */
  | { kind: "add"; agent: AgentSpec }
  | { kind: "remove"; resource: string }
  | { kind: "edit"; resource: string; edit: AgentEdit; what: string }
  /** A broken input (an image that never validates, an unhealthy image with a health check, a missing set or field): an up that must fail, then the edit undone. */
  | { kind: "broken"; resource: string; edit: AgentEdit; what: string }
  /** Outside changes through the service's API or the emulator's control endpoints. */
  | { kind: "outside-delete"; serviceName: string }
  | { kind: "outside-image"; serviceName: string; image: string }
  | { kind: "outside-scale"; serviceName: string; autoScaling: { minAgents: number; maxAgents: number } }
  | { kind: "sessions"; serviceName: string; count: number; endAfterMs: number }
  /** An agent made outside Pulumi under a name the program then declares: the up must fail, never adopt it; the declaration is then dropped. */
  | { kind: "takeover"; resource: string; serviceName: string }
  /** Faults armed for the next up, which then runs. */
  | { kind: "faulty-up"; faults: FaultSpec[]; rateLimit?: RateLimitSpec; what: string }
  /** An up with something happening while it waits. */
  /** `followAdvice`: when the up fails on the superseded deployment, do what its error says (`pulumi refresh`) before the next step. */
  | { kind: "supersede-up"; resource: string; image: string; outsideImage: string; followAdvice?: boolean }
  | { kind: "killed-up"; signal: "SIGINT" | "SIGKILL"; resource: string; image: string }
  | { kind: "restart-up"; resource: string; image: string }
  | { kind: "op"; op: Operation };

/** The table's weights: how often each kind of step is drawn. */
export const STEP_WEIGHTS = {
  add: 6,
  remove: 3,
  image: 6,
  scale: 4,
  rename: 3,
  onFailure: 2,
  healthCheck: 2,
  secretSet: 2,
  requiredSecrets: 1,
  drainSeconds: 2,
  broken: 5,
  "outside-delete": 2,
  "outside-image": 2,
  "outside-scale": 2,
  sessions: 2,
  takeover: 1,
  "faulty-up": 5,
  "supersede-up": 2,
  "killed-up": 2,
  "restart-up": 1,
  preview: 3,
  up: 14,
  refresh: 3,
  destroy: 1,
} as const;

const FAULTS: readonly { what: string; faults: FaultSpec[]; rateLimit?: RateLimitSpec }[] = [
  { what: "a 503 burst", faults: [{ method: "*", path: "/v1/agents*", kind: "status", status: 503, count: 3 }] },
  { what: "a 500 on a GET", faults: [{ method: "GET", path: "/v1/agents/*", kind: "status", status: 500, count: 2 }] },
  { what: "a dropped connection before acting", faults: [{ method: "*", path: "/v1/agents*", kind: "drop-before", count: 1 }] },
  { what: "a dropped answer after acting", faults: [{ method: "POST", path: "/v1/agents*", kind: "drop-after", count: 1 }] },
  { what: "429 with Retry-After", faults: [], rateLimit: { requestsPerWindow: 3, windowMs: 1000, retryAfterSeconds: 1 } },
  { what: "latency", faults: [{ method: "*", path: "/v1/agents*", kind: "delay", delayMs: 700, count: 4 }] },
  { what: "a GET outage after a create", faults: [{ method: "GET", path: "/v1/agents/*", kind: "status", status: 503, code: "SERVICE_UNAVAILABLE", count: 4 }] },
];

/** The steps of a campaign of `count` steps drawn from `rng`; the program starts with one agent. */
export function drawSteps(rng: Prng, count: number): Step[] {
  const program: AgentSpec[] = [];
  let names = 0;
  let images = 1;
  const steps: Step[] = [];
  const newAgent = (): AgentSpec => {
    names += 1;
    return { resource: `bot${names}`, serviceName: `c${names}-bot`, image: GOOD_IMAGE(images) };
  };
  const first = newAgent();
  program.push(first);
  steps.push({ kind: "add", agent: first });
  while (steps.length < count) {
    const kind = rng.weighted(STEP_WEIGHTS);
    const target = program.length > 0 ? rng.pick(program) : undefined;
    const step = drawOne(kind, target);
    if (!step) continue;
    steps.push(step);
    if (step.kind === "add") program.push(step.agent);
    if (step.kind === "remove") program.splice(program.findIndex((a) => a.resource === step.resource), 1);
    if (step.kind === "edit") {
      const at = program.findIndex((a) => a.resource === step.resource);
      program[at] = applyEdit(program[at] as AgentSpec, step.edit);
    }
  }
  return steps;

  function drawOne(kind: keyof typeof STEP_WEIGHTS, target: AgentSpec | undefined): Step | undefined {
    switch (kind) {
      case "add":
        return program.length < 4 ? { kind: "add", agent: newAgent() } : undefined;
      case "remove":
        return target && program.length > 1 ? { kind: "remove", resource: target.resource } : undefined;
      case "preview":
      case "up":
      case "refresh":
      case "destroy":
        return { kind: "op", op: kind };
      case "faulty-up": {
        const chosen = rng.pick(FAULTS);
        return { kind: "faulty-up", what: chosen.what, faults: chosen.faults, ...(chosen.rateLimit ? { rateLimit: chosen.rateLimit } : {}) };
      }
    }
    if (!target) return undefined;
    const edit = (what: string, e: AgentEdit): Step => ({ kind: "edit", resource: target.resource, edit: e, what });
    switch (kind) {
      case "image":
        images += 1;
        return edit("an image bump", { image: GOOD_IMAGE(images) });
      case "scale": {
        const min = rng.int(0, 2);
        return edit("scaling", { autoScaling: { minAgents: min, maxAgents: min + rng.int(1, 3) } });
      }
      case "rename":
        names += 1;
        return edit("a rename (a replace)", { serviceName: `c${names}-bot` });
      case "onFailure":
        return edit("onFailure", { onFailure: rng.pick(["keep", "rollback"] as const) });
      case "healthCheck":
        return edit("healthCheck", { healthCheck: target.healthCheck ? null : { failOnLogQuery: "panic", watchSeconds: 1 } });
      case "secretSet":
        return edit("a secret set that exists", target.secretSet ? { secretSet: null, requiredSecrets: null } : { secretSet: SECRET_SET });
      case "requiredSecrets":
        return target.secretSet ? edit("requiredSecrets held by the set", { requiredSecrets: target.requiredSecrets ? null : ["A"] }) : undefined;
      case "drainSeconds":
        return edit("drainSeconds", { drainSeconds: rng.int(0, 3) });
      case "broken":
        return drawBroken(target);
      case "outside-delete":
        return { kind: "outside-delete", serviceName: target.serviceName };
      case "outside-image":
        images += 1;
        return { kind: "outside-image", serviceName: target.serviceName, image: GOOD_IMAGE(images) };
      case "outside-scale":
        return { kind: "outside-scale", serviceName: target.serviceName, autoScaling: { minAgents: 1, maxAgents: rng.int(2, 6) } };
      case "sessions":
        return { kind: "sessions", serviceName: target.serviceName, count: rng.int(1, 3), endAfterMs: rng.int(200, 2500) };
      case "takeover":
        names += 1;
        return { kind: "takeover", resource: `taken${names}`, serviceName: `c${names}-bot` };
      case "supersede-up":
        images += 2;
        return { kind: "supersede-up", resource: target.resource, image: GOOD_IMAGE(images - 1), outsideImage: GOOD_IMAGE(images), followAdvice: true };
      case "killed-up":
        images += 1;
        return { kind: "killed-up", signal: rng.pick(["SIGINT", "SIGKILL"] as const), resource: target.resource, image: GOOD_IMAGE(images) };
      case "restart-up":
        images += 1;
        return { kind: "restart-up", resource: target.resource, image: GOOD_IMAGE(images) };
    }
    return undefined;
  }

  function drawBroken(target: AgentSpec): Step {
    const choice = rng.int(0, 3);
    if (choice === 0) return { kind: "broken", resource: target.resource, edit: { image: FAIL_IMAGE }, what: "an image that never validates" };
    if (choice === 1) {
      return { kind: "broken", resource: target.resource, edit: { image: UNHEALTHY_IMAGE, healthCheck: { failOnLogQuery: "panic", watchSeconds: 2 } }, what: "an unhealthy image under a health check" };
    }
    if (choice === 2) return { kind: "broken", resource: target.resource, edit: { secretSet: MISSING_SET }, what: "a secret set that does not exist" };
    return { kind: "broken", resource: target.resource, edit: { secretSet: SECRET_SET, requiredSecrets: ["A", "MISSING_FIELD"] }, what: "a required secret the set does not hold" };
  }
}

/** The program after `edit`: `null` removes an input. */
export function applyEdit(agent: AgentSpec, edit: AgentEdit): AgentSpec {
  const next: Record<string, unknown> = { ...agent };
  for (const [key, value] of Object.entries(edit)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as unknown as AgentSpec;
}

/** A short label of a step, for the campaign's log and the README. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case "add":
      return `add ${step.agent.resource} (${step.agent.serviceName})`;
    case "remove":
      return `remove ${step.resource}`;
    case "edit":
    case "broken":
      return `${step.kind} ${step.resource}: ${step.what}`;
    case "faulty-up":
      return `up under ${step.what}`;
    case "op":
      return step.op;
    case "killed-up":
      return `killed-up (${step.signal}) ${step.resource}`;
    default:
      return `${step.kind} ${"serviceName" in step ? step.serviceName : "resource" in step ? step.resource : ""}`;
  }
}
