"""Runs a Pulumi Python program file through the real engine by the Automation API's inline
program (no language host needed), with pulumi_hosting as installed in the venv that runs it:
up, a preview with no change, the state, destroy. The program runs in the work dir (its
relative paths, `./app`, are taken from there). Prints one JSON line of what it saw.
Usage: python run.py <program.py> <api url> <token> <work dir> [<config key>=<value> ...]"""

import json
import os
import runpy
import sys

from pulumi import automation as auto

PROGRAM, URL, TOKEN, WORK = sys.argv[1:5]
CONFIG = dict(kv.split("=", 1) for kv in sys.argv[5:])
SIG = "4dabf18193072939515e22adb298388d"

os.chdir(WORK)
stack = auto.create_or_select_stack(
    stack_name="dev",
    project_name="py-hosting",
    program=lambda: runpy.run_path(PROGRAM, run_name="__main__"),
    opts=auto.LocalWorkspaceOptions(work_dir=WORK),
)
stack.set_config("hosting:apiUrl", auto.ConfigValue(URL))
stack.set_config("hosting:token", auto.ConfigValue(TOKEN, secret=True))
for key, value in CONFIG.items():
    stack.set_config(key, auto.ConfigValue(value))
up = stack.up()
preview = stack.preview()


def unsealed(v):
    """The value with Pulumi secrets left out (export_stack shows them in plain text)."""
    if isinstance(v, dict):
        return None if SIG in v else {k: unsealed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [unsealed(x) for x in v]
    return v


deployment = stack.export_stack().deployment
holding = [r["urn"] for r in deployment["resources"] if TOKEN in json.dumps(unsealed(r))]
destroy = stack.destroy()
print(
    json.dumps(
        {
            "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in up.outputs.items()},
            "up": up.summary.resource_changes,
            "preview": preview.change_summary,
            "tokenOutsideSecrets": holding,
            "destroy": destroy.summary.resource_changes,
        }
    )
)
