"""The Python side of the language tests: one stack operation on an inline
Python program that uses the generated Python SDK (sdk/python), through
Pulumi's Python Automation API and the real pulumi CLI.

Usage: python stack_op.py <up|preview|refresh|destroy> <work-dir> <params-json>
Prints one JSON line: { ok, op, changeSummary, outputs, error, engineOutput,
agentOperations, previewChangeSummary }. `up` previews first, as `pulumi up`
does; agentOperations holds what the preview and the update did to each
agent, previewChangeSummary the preview's change summary.
The params describe the program (the same shape as the Go driver's); the
stack's backend, passphrase and PULUMI_HOME come from the environment.
The protocol (operations, params, answer) of every stack driver is written
down once, in test/support/stack-driver.ts; this driver speaks it.
"""

import io
import json
import sys

import pulumi
import pulumi_agent_hosting as agent_hosting
from pulumi import automation as auto
from up_with_preview import previewing_up, up_phases
from workspace_shortcuts import cli_command, set_config_once, stack_exists, trim_after_operation


def program(params):
    if params.get("source"):
        # A whole program's text (a README block): run as `pulumi up` would run __main__.py.
        return lambda: exec(compile(params["source"], "__main__.py", "exec"), {"__name__": "__main__"})

    def run():
        providers = {
            name: agent_hosting.Provider(name, api_key=p["apiKey"], base_url=p["baseUrl"])
            for name, p in (params.get("providers") or {}).items()
        }
        for a in params.get("agents") or []:
            options = {}
            if a.get("provider"):
                options["provider"] = providers[a["provider"]]
            if a.get("import"):
                options["import_"] = a["import"]
            scaling = a.get("autoScaling")
            agent = agent_hosting.Agent(
                a["name"],
                service_name=a["serviceName"],
                image=a["image"],
                enable_noise=a.get("enableNoise"),
                secret_set=a.get("secretSet"),
                ready_timeout_seconds=a.get("readyTimeoutSeconds"),
                auto_scaling=agent_hosting.AgentAutoScalingArgs(
                    min_agents=scaling["minAgents"], max_agents=scaling["maxAgents"]
                )
                if scaling
                else None,
                opts=pulumi.ResourceOptions(**options),
            )
            pulumi.export(a["name"] + ".id", agent.id)
            pulumi.export(a["name"] + ".activeDeploymentId", agent.active_deployment_id)
            pulumi.export(a["name"] + ".manifest", agent.manifest)
            pulumi.export(a["name"] + ".image", agent.image)
            pulumi.export(a["name"] + ".ready", agent.ready)
            if a.get("reads"):
                logs = agent_hosting.get_agent_logs_output(agent_name=agent.name, limit=5)
                pulumi.export(a["name"] + ".logCount", logs.logs.apply(len))
                fields = agent_hosting.get_secret_set_output(name=agent.secret_set).field_names
                pulumi.export(a["name"] + ".secretFields", fields)
        for name in params.get("secretSets") or []:
            pulumi.export("secretSet." + name, agent_hosting.get_secret_set(name=name).field_names)

    return run


def summary(changes):
    return dict(changes or {})


def agent_operations():
    """Collects { urn: [op, ...] } of the Agents from the engine's events."""
    ops = {}

    def on_event(event):
        pre = getattr(event, "resource_pre_event", None)
        meta = getattr(pre, "metadata", None)
        if meta is None or not str(meta.type).endswith(":Agent"):
            return
        op = getattr(meta.op, "value", meta.op)
        ops.setdefault(meta.urn, []).append(str(op))

    return ops, on_event


def run(op, work_dir, params):
    result = {"ok": False, "op": op, "changeSummary": {}, "outputs": {}, "engineOutput": ""}
    out = io.StringIO()

    def on_output(line):
        out.write(line + "\n")

    try:
        exists = stack_exists("agent-hosting-python", "dev")
        if exists:
            # Every command names the stack (workspace_shortcuts.py).
            auto.LocalWorkspace.select_stack = lambda self, stack_name: None
        # A stack the backend does not hold is created without a `pulumi stack select` that would fail first.
        open_stack = auto.select_stack if exists else auto.create_stack
        stack = open_stack(
            stack_name="dev",
            project_name="agent-hosting-python",
            program=program(params),
            opts=auto.LocalWorkspaceOptions(work_dir=work_dir, pulumi_command=cli_command()),
        )
        config = params.get("config") or {}
        if config:
            set_config_once(stack, config, work_dir)
        recording = trim_after_operation(stack)
        if op == "up":
            # `pulumi up` previews first and updates only after that preview succeeded (up_with_preview.py);
            # the caller compares what each did to the agents.
            previewed, on_preview_event = agent_operations()
            applied, on_update_event = agent_operations()
            result["agentOperations"] = {"preview": previewed, "update": applied}
            handlers = {"preview": on_preview_event, "update": on_update_event}
            phases, on_event = up_phases(lambda phase, event: handlers[phase](event))
            previewing_up(stack)
            try:
                r = stack.up(on_output=on_output, on_event=recording(on_event))
            finally:
                if "previewSummary" in phases:
                    result["previewChangeSummary"] = summary(phases["previewSummary"])
            result["changeSummary"] = summary(r.summary.resource_changes)
            result["outputs"] = {k: v.value for k, v in r.outputs.items()}
        elif op == "preview":
            r = stack.preview(on_output=on_output, diff=True)
            result["changeSummary"] = summary(r.change_summary)
        elif op == "refresh":
            r = stack.refresh(on_output=on_output, on_event=recording())
            result["changeSummary"] = summary(r.summary.resource_changes)
        elif op == "destroy":
            r = stack.destroy(on_output=on_output, on_event=recording())
            result["changeSummary"] = summary(r.summary.resource_changes)
        else:
            raise ValueError(f"unknown operation {op!r}: expected up, preview, refresh or destroy")
        result["ok"] = True
    except Exception as error:  # the test reads the error text
        result["error"] = str(error)
    result["engineOutput"] = out.getvalue()
    return result


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: stack_op.py <up|preview|refresh|destroy> <work-dir> <params-json>", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(run(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))))
