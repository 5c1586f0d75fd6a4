import { createKey } from "../../src/provider/app/create-key";
import { appSource, useInProcessProvider } from "../helpers/provider-env";

/*
 * The Idempotency-Key of an App's create, as the service sees it (the emulator keeps every key it
 * honoured, with the reply it gave): two creates of one resource that differ in any one input
 * send different keys, so each is answered with an app of its own in one POST, never with the
 * other's app; the same inputs send the same key from a fresh provider (a new process), so the
 * service answers with the app the first create made. Every App is named: the key must not rest
 * on a name the provider made up. And a key does not change between releases.
 */

const env = useInProcessProvider({ seed: "create-key", setupDelayMs: 50 });
type Props = Record<string, unknown>;

/** Every input that decides the app, each set. */
function base(): Props {
  return {
    source: sources.base,
    name: "keyed",
    env: { GREETING: "hello" },
    ram: 512,
    vcpu: 1,
    entrypoint: "index.js",
    description: "the first",
    customCommand: "node index.js",
    runtime: { language: "node", version: "20.18.1" },
  };
}
const sources = { base: "", edited: "" };
beforeAll(async () => {
  // main.js too: an entrypoint must be a file of the source (check refuses one that is not).
  const main = { "main.js": "require('./index.js');\n" };
  sources.base = await appSource(main);
  sources.edited = await appSource({
    ...main,
    "index.js": "require('http').createServer().listen(8081);\n",
  });
});

/** The keys the service has honoured for POST /apps, each with the app it answered. */
function honoured(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, reply] of Object.entries(env.emu.world.idempotency)) {
    if (reply.scope === "POST /apps") out.set(key, (reply.body as { id: string }).id);
  }
  return out;
}

const posts = () => env.emu.stats().requests["POST /apps"] ?? 0;

/**
 * Checks and creates an App of the resource `resource` with `inputs`; hands back the app made,
 * the POSTs it took and the keys the service honoured meanwhile.
 */
async function create(resource: string, inputs: Props) {
  const urn = env.urn("App", resource);
  const keysBefore = honoured();
  const postsBefore = posts();
  const checked = await env.host.check(urn, {}, await env.inputs("App", { ...inputs, __urn: urn }));
  expect(checked.failures).toEqual([]);
  const { id } = await env.host.create(urn, checked.inputs);
  const newKeys = [...honoured()].filter(([key]) => !keysBefore.has(key));
  return { id, posts: posts() - postsBefore, newKeys };
}

test("creates of one resource that differ in one input send different keys, each answered with its own app", async () => {
  const variants: Array<[string, (p: Props) => Props]> = [
    ["name", (p) => ({ ...p, name: "keyed-other" })],
    ["source content", (p) => ({ ...p, source: sources.edited })],
    ["env", (p) => ({ ...p, env: { GREETING: "hi" } })],
    ["ram", (p) => ({ ...p, ram: 1024 })],
    ["vcpu", (p) => ({ ...p, vcpu: 2 })],
    ["entrypoint", (p) => ({ ...p, entrypoint: "main.js" })],
    // A subdomain is the app's alone: the others leave it unset.
    ["subdomain", (p) => ({ ...p, subdomain: "keyed-sub" })],
    ["description", (p) => ({ ...p, description: "the second" })],
    ["customCommand", (p) => ({ ...p, customCommand: "node main.js" })],
    ["runtime", (p) => ({ ...p, runtime: { language: "node", version: "22.11.0" } })],
    ["runtime (unset)", ({ runtime: _, ...p }) => p],
  ];
  const first = await create("one", base());
  expect([first.posts, first.newKeys]).toEqual([1, [[expect.any(String), first.id]]]);
  // Each its own key, honoured once and answered with its own app: no replay of another
  // create's app to look at and turn down, no second POST.
  const seen = [];
  for (const [input, change] of variants) {
    const made = await create("one", change(base()));
    seen.push({ input, posts: made.posts, honoured: made.newKeys.map(([, id]) => id === made.id) });
  }
  expect(seen).toEqual(variants.map(([input]) => ({ input, posts: 1, honoured: [true] })));
});

test("the same inputs from a fresh provider (a new process) send the same key: the first app", async () => {
  const inputs = { ...base(), name: "keyed-again" };
  const first = await create("again", inputs);
  expect(first.newKeys).toEqual([[expect.any(String), first.id]]);
  await env.nextDeployment();
  const again = await create("again", inputs);
  // The service recognised the key: it answered with the first app and honoured no new key.
  expect([again.id, again.posts, again.newKeys]).toEqual([first.id, 1, []]);
  expect(env.emu.world.apps.filter((a) => a.name === "keyed-again")).toHaveLength(1);
});

test("the same inputs for another resource send another key: an app of its own", async () => {
  const inputs = { ...base(), name: "keyed-twin" };
  const one = await create("twin-a", inputs);
  const twin = await create("twin-b", inputs);
  expect(twin.id).not.toBe(one.id);
  expect([twin.posts, twin.newKeys]).toEqual([1, [[expect.any(String), twin.id]]]);
});

test("the key of a create is the same in every release: a create interrupted before an upgrade is answered with its app after it", () => {
  // Pinned: a change of the key's text or digest needs a new prefix (ph2-) and this value anew.
  const origin = { account: "a".repeat(64), urn: "urn:pulumi:prod::shop::hosting:index:App::web" };
  const shape = {
    name: "web",
    sourceHash: "1".repeat(64),
    env: { A: "1" },
    ram: 512,
    vcpu: 1,
    entrypoint: "index.js",
    subdomain: "web",
    description: "d",
    customCommand: "node index.js",
    runtime: { language: "node", version: "20.18.1" },
  };
  expect(createKey(origin, shape, 0)).toBe(
    "ph1-7038ee18197da47fda86e6c95663078f3c88918aa1f5bd8a4588f1da0ac303b7",
  );
  expect(createKey(origin, { name: "web" }, 1)).toBe(
    "ph1-f81a4c4b38392fbf4616a03a337ff6dcbbbff2be587575bc6d148f16915558fd",
  );
});
