import * as pulumi from "@pulumi/pulumi";
import { dotenvProblem } from "../../api/wire";
import { ProgramInputError } from "../program-error";

/**
 * Pulumi's serializer copies inputs into fresh objects, where a `__proto__` key silently becomes
 * a prototype: the key would vanish before `check` could see it. So the program refuses it.
 */
export function refuseLostEnvKeys<T extends object>(env: pulumi.Input<T>): pulumi.Input<T> {
  const refuse = (e: T): T => {
    if (Object.prototype.hasOwnProperty.call(e, "__proto__")) {
      throw new ProgramInputError("env.__proto__", dotenvProblem("__proto__", "") as string);
    }
    return e;
  };
  if (pulumi.Output.isInstance(env)) return (env as pulumi.Output<T>).apply(refuse);
  return env instanceof Promise ? env.then(refuse) : refuse(env as T);
}
