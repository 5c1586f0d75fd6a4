"""A Python program of the generated SDK (pulumi_hosting), run through the real engine by the
Automation API's inline program (no language host needed): up, a preview with no change,
destroy. Prints one JSON line of what it saw. Usage: python program.py <sdk dir> <app dir>."""

import json
import sys

sys.path.insert(0, sys.argv[1])

import pulumi  # noqa: E402
import pulumi_hosting as hosting  # noqa: E402
from pulumi import automation as auto  # noqa: E402

APP_DIR = sys.argv[2]
URL, TOKEN, WORK = sys.argv[3], sys.argv[4], sys.argv[5]


def program():
    app = hosting.App("web", source=APP_DIR, name="py-web", env={"K": "v"})
    www = hosting.CustomDomain("www", app_id=app.id, domain="www.py.pointed.test")
    hosting.AppWebAccess("web-access", app_id=app.id, enabled=False)
    dbs = hosting.get_databases_output(service_type="postgres")
    pulumi.export("appId", app.id)
    pulumi.export("subdomain", app.subdomain)
    pulumi.export("env", app.env)
    pulumi.export("domain", www.hostname)
    pulumi.export("postgres", dbs.items.apply(len))


stack = auto.create_or_select_stack(
    stack_name="dev",
    project_name="py-hosting",
    program=program,
    opts=auto.LocalWorkspaceOptions(work_dir=WORK),
)
stack.set_config("hosting:apiUrl", auto.ConfigValue(URL))
stack.set_config("hosting:token", auto.ConfigValue(TOKEN, secret=True))
up = stack.up()
preview = stack.preview()
SIG = "4dabf18193072939515e22adb298388d"


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
