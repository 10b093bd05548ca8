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

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200 });
const makeStack = useStacks();

const newStack = (name: string): StackHandle => makeStack(name, { baseUrl: fx.emulator.url, apiKey: API_KEY });

/** Runs `fn` over `items`, `width` at a time (each preview is a CLI and two Node processes). */
async function inBatches<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)))));
  }
  return results;
}

describe("bad inputs through pulumi preview", () => {
  it(`all ${BAD_INPUTS.length} cases fail preview naming the field and the rule, with nothing sent and no state written`, async () => {
    const stack = newStack("bad-table");
    const seed = await stack.run("up", { params: { agents: [{ resource: "keep", args: { serviceName: "keep-bot", image: "bot:1" } }] } });
    expect(seed.ok).toBe(true);
    const before = (await fx.control.stats()).requests;
    const outcomes = await inBatches(BAD_INPUTS, 4, async (c, i) => {
      const own = newStack(`bad-${i}`);
      const preview = await own.run("preview", { params: { agents: [{ resource: "bad", args: c.args }] } });
      return { c, preview };
    });
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
    expect((await stack.run("destroy")).ok).toBe(true);
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
