/**
 * Bad input through the real engine: a bad value of each input fails
 * `pulumi preview` with the field and the rule named, nothing reaches the
 * service and the stack's state is unchanged; one resource with six bad
 * fields is refused naming all six; unknown values pass the preview. Bad
 * settings (key, base URL) are config-mistakes.test.ts's concern.
 *
 * Every rule of test/support/bad-inputs.ts is the check verb's, which both
 * hosts call and test/unit/mocks-agent.test.ts runs for every case (the
 * failure names the field and states the rule). What the engine adds is the
 * same for each: it carries the value to check and reports the failure by
 * property. So the CLI runs one case of each field, and each case whose value
 * is of another JSON type than the field's (a number or an array for a
 * string), rather than all of them.
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

/** The first case of each field the cases name, and the cases with a value of another JSON type than a string field's. */
const UNDER_THE_CLI = BAD_INPUTS.filter((c, i) => BAD_INPUTS.findIndex((other) => other.field === c.field) === i || /not a string/.test(c.label));

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
  it(`a bad value of each of the ${new Set(BAD_INPUTS.map((c) => c.field)).size} fields (${UNDER_THE_CLI.length} cases) fails preview naming the field and the rule, with nothing sent and no state written`, async () => {
    const stack = newStack("bad-table");
    const seed = await stack.run("up", { params: { agents: [{ resource: "keep", args: { serviceName: "keep-bot", image: "bot:1" } }] } });
    succeeded(seed);
    const before = (await fx.control.stats()).requests;
    // A failed preview writes nothing, so each lane's stack stays new for the next case.
    const { results: outcomes, lanes } = await inLanes(UNDER_THE_CLI, 4, async (c, lane) => {
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
