"""The CLI calls Pulumi's Python Automation API makes around an operation
that change nothing the operation does, left out when what they would find
is already known; the same shortcuts as scripts/lib/workspace-shortcuts.mjs
(read it for why):

- `pulumi version`, when AGENT_HOSTING_PULUMI_CLI_VERSION (set once by the
  test suite's global setup) names the CLI's version;
- `pulumi stack select`, when the stack's checkpoint exists in the file
  backend (every command names its stack with --stack), and before the
  `pulumi stack init` of a stack that does not;
- `pulumi config set-all`, when the same values were set by the last call and
  the stack's config file is unchanged since (a digest is kept, never the
  values: they hold the API key);
- after an up, a destroy or a refresh: the masked outputs beside the shown
  ones (this driver reports the values) and the history entry (the engine's
  summary event holds the change summary);
- after an up, the shown outputs too, when the engine's update sent them as
  the stack resource's outputs event and they hold no signed value (a
  secret, an asset, a resource), which `pulumi stack output
  --show-secrets` would print otherwise.
"""

import hashlib
import json
import os
from urllib.parse import urlparse

from pulumi import automation as auto
from semver import VersionInfo


def cli_command():
    """The CLI as the Automation API's command, its version known when the environment names it; else None."""
    known = os.environ.get("AGENT_HOSTING_PULUMI_CLI_VERSION")
    if not known:
        return None
    command = auto.PulumiCommand.__new__(auto.PulumiCommand)
    command.command = "pulumi"
    command.version = VersionInfo.parse(known)
    return command


def stack_exists(project, stack):
    """Whether the file backend of PULUMI_BACKEND_URL holds a checkpoint of the project's stack."""
    url = urlparse(os.environ.get("PULUMI_BACKEND_URL", ""))
    if url.scheme != "file":
        return False
    base = os.path.join(url.path, ".pulumi", "stacks", project, stack)
    return os.path.exists(base + ".json") or os.path.exists(base + ".json.gz")


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _file_digest(path):
    if not os.path.exists(path):
        return ""
    with open(path, "rb") as f:
        return _digest(f.read())


# The key that marks a signed value (a secret, an asset, a resource) in the engine's events.
_SIGNATURE = "4dabf18193072939515e22adb298388d"


def _plain(value):
    """Whether an engine event's value holds no signed value: `pulumi stack output --json` prints it as is."""
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return _SIGNATURE not in value and all(_plain(item) for item in value.values())
    return True


def set_config_once(stack, config, work_dir):
    """Sets `config` unless the last call here set the same values and Pulumi.<stack>.yaml is as it left it."""
    config_file = os.path.join(work_dir, f"Pulumi.{stack.name}.yaml")
    record_file = os.path.join(work_dir, f".config-set-{stack.name}.json")
    wanted = _digest(json.dumps(config, sort_keys=True).encode())
    if os.path.exists(record_file):
        with open(record_file, encoding="utf-8") as f:
            record = json.load(f)
        if record.get("config") == wanted and record.get("file") == _file_digest(config_file):
            return
    stack.set_all_config({k: auto.ConfigValue(v["value"], v.get("secret", False)) for k, v in config.items()})
    with open(record_file, "w", encoding="utf-8") as f:
        json.dump({"config": wanted, "file": _file_digest(config_file)}, f)


def trim_after_operation(stack):
    """Reads the outputs from the update's stack outputs event, or once (shown) from the CLI, and the change
    summary from the engine's summary event; returns a wrapper that records those events through an
    operation's own on_event."""
    seen = {}
    ask_history = stack.info

    def info(show_secrets=True):
        event = seen.get("summary")
        if event is None:
            return ask_history(show_secrets)
        return auto.UpdateSummary(
            kind="", start_time=None, message="", environment={}, config={}, result="succeeded",
            end_time=None, resource_changes=dict(event.resource_changes or {}),
        )

    def stack_outputs(name):
        outputs = seen.get("outputs")
        if outputs is not None:
            return {k: auto.OutputValue(value=v, secret=False) for k, v in outputs.items()}
        result = stack.workspace._run_pulumi_cmd_sync(["stack", "output", "--json", "--show-secrets", "--stack", name])
        return {k: auto.OutputValue(value=v, secret=False) for k, v in json.loads(result.stdout).items()}

    stack.info = info
    stack.workspace.stack_outputs = stack_outputs

    def recording(next_handler=None):
        def on_event(event):
            summary = getattr(event, "summary_event", None)
            if summary is not None:
                seen["summary"] = summary
            if getattr(event, "prelude_event", None) is not None:
                # A new engine run (an up's update after its preview): only its own outputs count.
                seen.pop("outputs", None)
            done = getattr(event, "res_outputs_event", None)
            if done is not None and not done.planning and done.metadata.type == "pulumi:pulumi:Stack":
                outputs = dict((done.metadata.new.outputs if done.metadata.new else None) or {})
                if _plain(outputs):
                    seen["outputs"] = outputs
            if next_handler is not None:
                next_handler(event)

        return on_event

    return recording
