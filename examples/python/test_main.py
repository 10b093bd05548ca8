"""A unit test of __main__.py under the package's mocks (pytest): no service, no engine."""

import importlib.util
import pathlib

import pulumi
import pytest
from pulumi_agent_hosting.testing import AgentHostingMocks

pulumi.runtime.set_mocks(
    AgentHostingMocks(
        secret_sets={"voice-bot-secrets": ["OPENAI_API_KEY", "SIP_PASSWORD"]},
        logs={"voice-bot": ["Starting container agent", "Agent ready: accepting sessions"]},
    ),
    project="example",
    stack="dev",
    preview=False,
)


def run_program():
    """Runs __main__.py once and returns its module (its outputs are pulumi Outputs)."""
    spec = importlib.util.spec_from_file_location("program", pathlib.Path(__file__).with_name("__main__.py"))
    program = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(program)
    return program


program = run_program()


@pulumi.runtime.test
def test_agent_is_ready_with_a_deployment():
    def check(values):
        name, ready, deployment_id = values
        assert name == "voice-bot"
        assert ready is True
        assert deployment_id.startswith("dep-")

    return pulumi.Output.all(program.bot.name, program.bot.ready, program.bot.active_deployment_id).apply(check)


@pulumi.runtime.test
def test_keeps_at_least_one_agent_running():
    return program.bot.manifest.apply(lambda manifest: _assert(manifest.spec.auto_scaling.min_replicas >= 1))


@pulumi.runtime.test
def test_reads_the_secret_set():
    return program.secrets.field_names.apply(lambda fields: _assert(fields == ["OPENAI_API_KEY", "SIP_PASSWORD"]))


@pulumi.runtime.test
def test_reads_the_newest_log_lines_newest_first():
    def check(entries):
        assert [entry.log for entry in entries] == ["Agent ready: accepting sessions", "Starting container agent"]

    return program.logs.logs.apply(check)


def test_the_preview_refuses_a_bad_scaling():
    from pulumi_agent_hosting.testing import MockRefusalError

    mocks = AgentHostingMocks()
    with pytest.raises(MockRefusalError, match=r"autoScaling\.minAgents: must be an integer"):
        mocks.new_resource(
            pulumi.runtime.MockResourceArgs(
                typ="agent-hosting:index:Agent",
                name="bad",
                inputs={"serviceName": "bad-bot", "image": "bot:1", "autoScaling": {"minAgents": "one", "maxAgents": 2}},
                provider="",
                resource_id="",
                custom=True,
            )
        )


def test_the_preview_refuses_a_service_name_with_capitals():
    from pulumi_agent_hosting.testing import MockRefusalError

    mocks = AgentHostingMocks()
    with pytest.raises(MockRefusalError, match=r"serviceName: must match \^\[a-z0-9\]"):
        mocks.new_resource(
            pulumi.runtime.MockResourceArgs(
                typ="agent-hosting:index:Agent",
                name="bad",
                inputs={"serviceName": "Voice-Bot", "image": "bot:1"},
                provider="",
                resource_id="",
                custom=True,
            )
        )


@pulumi.runtime.test
def test_a_secret_image_keeps_the_manifest_secret():
    import pulumi_agent_hosting as agent_hosting

    private = agent_hosting.Agent(
        "private-bot",
        service_name="private-bot",
        image=pulumi.Output.secret("registry.example.com/private-bot:2.0.0"),
    )

    def check(flags):
        assert flags == [True, False]

    return pulumi.Output.all(
        pulumi.Output.from_input(private.manifest.is_secret()), pulumi.Output.from_input(program.bot.manifest.is_secret())
    ).apply(check)


def _assert(condition):
    assert condition
