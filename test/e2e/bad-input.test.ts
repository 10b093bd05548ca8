/**
 * Bad input through the real engine: each case fails `pulumi preview` with
 * the field and the rule named, nothing reaches the service and the stack's
 * state is unchanged; one resource with six bad fields is refused naming
 * all six; unknown values pass the preview. Bad settings (key, base URL) are
 * config-mistakes.test.ts's concern.
 */
import { describe, expect, it } from "vitest";
import { BAD_INPUTS } from "../support/bad-inputs";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import { agentsInState } from "./support/secrets";
import type { StackHandle } from "./support/stack";
import { API_KEY } from "../support/fixtures";
import { succeeded } from "./support/succeeded";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200 });
const makeStack = useStacks();

const newStack = (name: string): StackHandle => makeStack(name, { baseUrl: fx.emulator.url, apiKey: API_KEY });

/**
 * Runs `fn` over `items` in `width` lanes at once (each preview is a CLI and two Node processes), each lane
 * on a stack of its own that takes its items one after another: lane `k` gets items k, k + width, ...
 */
async function inLanes<T, R>(items: T[], width: number, fn: (item: T, lane: StackHandle) => Promise<R>): Promise<{ results: R[]; lanes: StackHandle[] }> {
  const results: R[] = new Array<R>(items.length);
  const lanes = Array.from({ length: width }, (_, k) => newStack(`bad-lane-${k}`));
  await Promise.all(
    lanes.map(async (lane, k) => {
      for (let i = k; i < items.length; i += width) results[i] = await fn(items[i] as T, lane);
    }),
  );
  return { results, lanes };
}

describe("bad inputs through pulumi preview", () => {
  it(`all ${BAD_INPUTS.length} cases fail preview naming the field and the rule, with nothing sent and no state written`, async () => {
    const stack = newStack("bad-table");
    const seed = await stack.run("up", { params: { agents: [{ resource: "keep", args: { serviceName: "keep-bot", image: "bot:1" } }] } });
    succeeded(seed);
    const before = (await fx.control.stats()).requests;
    // A failed preview writes nothing, so each lane's stack stays new for the next case.
    const { results: outcomes, lanes } = await inLanes(BAD_INPUTS, 4, async (c, lane) => {
      const preview = await lane.run("preview", { params: { agents: [{ resource: "bad", args: c.args }] } });
      return { c, preview };
    });
    for (const lane of lanes) expect(await agentsInState(lane), lane.workDir).toEqual([]);
    for (const { c, preview } of outcomes) {
      expect(preview.ok, c.label).toBe(false);
      const text = `${preview.error}`;
      expect(text, c.label).toMatch(new RegExp(`property ${c.field.replace(".", "\\.")}\\b|${c.field}: `));
      expect(text, c.label).toMatch(c.rule);
      expect(text).not.toContain(API_KEY);
    }
    // The same bad input against a stack that has state: preview fails and the state is unchanged.
    const broken = await stack.run("preview", {
      params: { agents: [{ resource: "keep", args: { serviceName: "keep-bot", image: "no tag here" } }] },
    });
    expect(broken.ok).toBe(false);
    expect((await fx.control.stats()).requests).toBe(before);
    expect(await agentsInState(stack)).toEqual(["keep-bot"]);
    succeeded(await stack.run("destroy"));
  }, 400_000);

  it("one resource with six bad fields fails preview naming all six, with nothing sent to the service", async () => {
    const stack = newStack("bad-fields");
    const requestsBefore = (await fx.control.stats()).requests;
    const preview = await stack.run("preview", {
      params: {
        agents: [
          {
            resource: "bad",
            args: {
              serviceName: "Bad_Name",
              image: "no-tag",
              nodeType: "x86",
              secretSet: "x",
              autoScaling: { minAgents: 4, maxAgents: 2 },
              readyTimeoutSeconds: 0,
            },
          },
        ],
      },
    });
    expect(preview.ok).toBe(false);
    const text = `${preview.error}\n${preview.engineOutput}`;
    for (const field of ["serviceName", "image", "nodeType", "secretSet", "autoScaling.minAgents", "readyTimeoutSeconds"]) {
      expect(text).toContain(field);
    }
    expect((await fx.control.stats()).requests).toBe(requestsBefore);
  });

  it("values not known at preview pass check", async () => {
    const stack = newStack("unknowns");
    const preview = await stack.run("preview", {
      params: {
        agents: [{ resource: "source", args: { serviceName: "source-bot", image: "registry.example.com/bot:7" } }],
        shadows: [{ resource: "shadow", of: "source" }],
      },
    });
    expect(preview.error).toBeUndefined();
    expect(preview.changeSummary).toMatchObject({ create: 3 });
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("source-bot");
  });
});
