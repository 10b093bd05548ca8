// Readiness latency: the provider's `create`, in this process, against an
// emulator whose deployments become ready after 0.5 s, 2 s or 5 s; the time
// from the emulator's `readyAt` to `create` returning. One figure per delay:
// the delay decides where readiness falls between two polls.
import { makeFigure } from "../lib/figure.mjs";

const DELAYS_MS = [500, 2000, 5000];

export async function readinessFigures(ctx) {
  const { provider: impl } = ctx.require("./dist/hosts/dynamic/provider-impl.js");
  const figures = [];
  for (const delay of DELAYS_MS) {
    ctx.log(`readiness latency, ready after ${delay} ms: ${ctx.pairs} creates`);
    const emulator = await ctx.pkg.startEmulator({ port: 0, readyAfterMs: delay });
    const control = new ctx.pkg.EmulatorControl(emulator.baseUrl);
    const samples = [];
    try {
      const settings = { "agent-hosting:baseUrl": emulator.url, "agent-hosting:apiKey": emulator.apiKey };
      await impl.configure({ config: { get: (key) => settings[key] } });
      for (let run = 0; run < ctx.pairs; run++) {
        const name = `ready-${delay}-${run}`;
        const { inputs } = await impl.check({}, { serviceName: name, image: "registry.example.com/bot:1" });
        await impl.create(inputs);
        const returned = Date.now();
        const { agents } = await control.listAgents();
        const readyAt = agents.find((a) => a.name === name)?.deployments[0]?.readyAt;
        if (typeof readyAt !== "number") throw new Error(`${name}: the emulator reports no readyAt`);
        samples.push(returned - readyAt);
      }
    } finally {
      await emulator.close();
    }
    figures.push(
      makeFigure({
        id: `readiness-${delay}`,
        name: `readiness noticed after the service reports it, ready after ${delay / 1000} s`,
        unit: "ms",
        bar: "≤ 1000 in every run",
        rule: { method: "max", combine: "value", compare: "<=", limit: 1000 },
        samples,
      }),
    );
  }
  return figures;
}
