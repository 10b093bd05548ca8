/**
 * A second resource and a second function, added under test/ only: one
 * folder (test/support/toy-resource) and one registration line. The gRPC
 * host, built from the registry, serves them over real gRPC as the engine
 * calls it (check, create, read, delete, invoke), beside the Agent, and the
 * schema generator includes them; no host file knows them.
 */
import type * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
  CreateRequest,
  DeleteRequest,
  InvokeRequest,
  ReadRequest,
  type CreateResponse,
  type InvokeResponse,
  type ReadResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Registry } from "../../src/core/resource-entry";
import { serve, type Serving } from "../../src/hosts/grpc/grpc-server";
import { buildSchema } from "../../src/hosts/grpc/package-schema";
import { validateFields } from "../../src/client/validate-fields";
import { REGISTRY } from "../../src/registry";
import { check, configure, providerClient, rpc, struct } from "../support/grpc-provider-client";
import { SHOUT, TOY, TOY_FIELDS, toyStore } from "../support/toy-resource/toy";
import { API_KEY } from "../support/fixtures";

const registry: Registry = { resources: [...REGISTRY.resources, TOY], functions: [...REGISTRY.functions, SHOUT] };
const URN = "urn:pulumi:dev::proj::agent-hosting:index:Toy::blocks";

let serving: Serving;
let client: ResourceProviderClient;

beforeAll(async () => {
  serving = await serve([], { registry });
  client = providerClient(serving.port);
  await configure(client, { apiKey: API_KEY, baseUrl: "https://toys.example/v1" });
});

afterAll(async () => {
  client?.close();
  await serving?.close();
});

function invoke(tok: string, args: Record<string, unknown>): Promise<InvokeResponse> {
  const req = new InvokeRequest();
  req.setTok(tok);
  req.setArgs(struct(args));
  return rpc<InvokeResponse>((cb) => client.invoke(req, cb));
}

describe("a toy resource and function registered beside the Agent", () => {
  it("Check applies the toy's default and names a bad field with its rule", async () => {
    const ok = await check(client, URN, { label: "blocks" });
    expect(ok.getFailuresList()).toEqual([]);
    expect(ok.getInputs()?.toJavaScript()).toEqual({ label: "blocks", size: 1 });
    const bad = await check(client, URN, { label: "blocks", size: 0, colour: "red" });
    expect(bad.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`)).toEqual(["colour: is not a known field", "size: must be an integer ≥ 1"]);
  });

  it("a value that is no record of fields is named as the toy's", () => {
    expect(validateFields("blocks", { resource: "Toy", fields: TOY_FIELDS })).toEqual([{ property: "", reason: "must be an object of Toy fields" }]);
  });

  it("Create, Read (and an import by id), Delete: the toy's verbs answer through the host", async () => {
    const checked = await check(client, URN, { label: "blocks", size: 3 });
    const create = new CreateRequest();
    create.setUrn(URN);
    create.setProperties(checked.getInputs());
    const created = await rpc<CreateResponse>((cb) => client.create(create, cb));
    expect(created.getId()).toBe("toy-blocks");
    // The serial is the one the toy service gave it.
    expect(created.getProperties()?.toJavaScript()).toMatchObject({ label: "blocks", size: 3, serial: toyStore.get("toy-blocks")?.serial });
    expect(toyStore.get("toy-blocks")).toMatchObject({ size: 3, serial: 1 });

    const read = new ReadRequest();
    read.setId("toy-blocks");
    read.setUrn(URN);
    const imported = await rpc<ReadResponse>((cb) => client.read(read, cb));
    expect(imported.getId()).toBe("toy-blocks");
    expect(imported.getInputs()?.toJavaScript()).toEqual({ label: "blocks", size: 3 });

    const del = new DeleteRequest();
    del.setId("toy-blocks");
    del.setUrn(URN);
    await rpc<Empty>((cb) => client.delete(del, cb));
    expect(toyStore.has("toy-blocks")).toBe(false);
    const gone = new ReadRequest();
    gone.setId("toy-blocks");
    gone.setUrn(URN);
    gone.setProperties(created.getProperties());
    expect((await rpc<ReadResponse>((cb) => client.read(gone, cb))).getId()).toBe("");
  });

  it("Invoke answers the toy function, and a bad argument as a failure naming it", async () => {
    expect((await invoke("agent-hosting:index:shout", { text: "hello" })).getReturn()?.toJavaScript()).toEqual({ text: "HELLO" });
    expect((await invoke("agent-hosting:index:shout", { text: 7 })).getFailuresList().map((f) => f.getProperty())).toEqual(["text"]);
  });

  it("the Agent is still served by the same host, and an unregistered type is named with what is served", async () => {
    const agent = await check(client, "urn:pulumi:dev::proj::agent-hosting:index:Agent::bot", { serviceName: "bot", image: "registry.example.com/bot:1" });
    expect(agent.getFailuresList()).toEqual([]);
    const unknown = await check(client, "urn:pulumi:dev::proj::agent-hosting:index:Robot::r", {}).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(unknown?.details).toContain('unknown resource type "agent-hosting:index:Robot"; this provider serves the resources agent-hosting:index:Agent, agent-hosting:index:Toy');
  });

  it("the schema generator includes the toy resource and function", () => {
    const schema = buildSchema("0.0.0", registry) as { resources: Record<string, { requiredInputs: string[] }>; functions: Record<string, unknown> };
    expect(Object.keys(schema.resources)).toEqual(["agent-hosting:index:Agent", "agent-hosting:index:Toy"]);
    expect(schema.resources["agent-hosting:index:Toy"]?.requiredInputs).toEqual(["label"]);
    expect(Object.keys(schema.functions)).toContain("agent-hosting:index:shout");
  });
});
