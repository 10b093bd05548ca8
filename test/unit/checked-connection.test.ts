/**
 * The API key is checked once per client: by the provider where it resolves
 * its settings (src/core/settings.ts, errors naming the stack's settings),
 * whose client options are marked checked; or by the client itself when a
 * program builds one directly (src/client/transport.ts, errors naming the
 * client's options).
 */
import { describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { checkedConnection } from "../../src/client/connection-settings";
import { ConfigurationError } from "../../src/client/errors";
import { resolveConnection } from "../../src/core/settings";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("the API key's check", () => {
  it("a client a program builds checks its own key, naming its apiKey option", () => {
    expect(() => new AgentHostingClient({ baseUrl: "https://api.example.com/v1", apiKey: "Bearer abc" })).toThrow(ConfigurationError);
    expect(() => new AgentHostingClient({ baseUrl: "https://api.example.com/v1", apiKey: "Bearer abc" })).toThrow(/^apiKey: /);
  });

  it("the provider's settings check the key, naming the stack's setting", () => {
    const values = { "agent-hosting:apiKey": "Bearer abc", "agent-hosting:baseUrl": "https://api.example.com/v1" };
    expect(() => resolveConnection(config(values), {})).toThrow(/^agent-hosting:apiKey: give the key alone/);
  });

  it("a client made from options the settings checked does not check them again", () => {
    // A key the client's own check refuses shows that the check is not run a second time.
    const options = checkedConnection({ baseUrl: "https://api.example.com/v1", apiKey: "Bearer abc" });
    expect(new AgentHostingClient(options)).toBeInstanceOf(AgentHostingClient);
  });
});
