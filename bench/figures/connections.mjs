// TCP connections the emulator sees for 200 sequential calls of one client.
import { makeFigure } from "../lib/figure.mjs";

const CALLS = 200;

export async function connectionFigures(ctx) {
  ctx.log(`TCP connections for ${CALLS} sequential client calls, ${ctx.pairs} runs`);
  const { AgentHostingClient } = ctx.pkg;
  const setup = new AgentHostingClient({ baseUrl: ctx.emulator.url, apiKey: ctx.emulator.apiKey });
  await setup.createAgent({ serviceName: "conn-bench", image: "registry.example.com/bot:1" });
  await setup.close();
  const samples = [];
  for (let run = 0; run < ctx.pairs; run++) {
    const client = new AgentHostingClient({ baseUrl: ctx.emulator.url, apiKey: ctx.emulator.apiKey });
    const before = (await ctx.control.stats()).apiConnections;
    for (let i = 0; i < CALLS; i++) await client.getAgent("conn-bench");
    samples.push((await ctx.control.stats()).apiConnections - before);
    await client.close();
  }
  return [
    makeFigure({
      id: "connections",
      name: `TCP connections the emulator saw for ${CALLS} sequential calls of one client`,
      unit: "",
      samples,
    }),
  ];
}
