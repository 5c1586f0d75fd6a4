import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/*
 * The Pulumi YAML program the native plugin's YAML tests run (no SDK: YAML reads the plugin's
 * schema): an App from a local folder with a secret env, a domain on it, a data source.
 */

/** The program's text: project `project`, app `app`, domain `domain`. */
export const yamlProgram = (project: string, app: string, domain: string) => `name: ${project}
runtime: yaml
resources:
  web:
    type: hosting:index:App
    properties:
      source: ./app
      name: ${app}
      env:
        fn::secret:
          K: v
  www:
    type: hosting:index:CustomDomain
    properties:
      appId: \${web.id}
      domain: ${domain}
variables:
  dbs:
    fn::invoke:
      function: hosting:index:getDatabases
      arguments:
        serviceType: postgres
outputs:
  appId: \${web.id}
  env: \${web.env}
  domain: \${www.domain}
  postgres: \${dbs.items}
`;

/** Writes the program and its app folder into `dir`. */
export function writeYamlProject(dir: string, project: string, app: string, domain: string) {
  mkdirSync(join(dir, "app"));
  writeFileSync(join(dir, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  writeFileSync(join(dir, "Pulumi.yaml"), yamlProgram(project, app, domain));
}
