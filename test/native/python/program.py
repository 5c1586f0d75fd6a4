"""A Python program of the SDK's wheel (pulumi_hosting), run by run.py through the engine: an App
from ./app, a domain, web access, a data source."""

import pulumi
import pulumi_hosting as hosting

app = hosting.App("web", source="./app", name="py-web", env={"K": "v"})
www = hosting.CustomDomain("www", app_id=app.id, domain="www.py.pointed.test")
hosting.AppWebAccess("web-access", app_id=app.id, enabled=False)
dbs = hosting.get_databases_output(service_type="postgres")
pulumi.export("appId", app.id)
pulumi.export("subdomain", app.subdomain)
pulumi.export("env", app.env)
pulumi.export("domain", www.hostname)
pulumi.export("postgres", dbs.items.apply(len))
