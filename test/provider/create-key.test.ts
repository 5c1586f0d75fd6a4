import { createKey } from "../../src/provider/app/create-key";

/*
 * The create's Idempotency-Key is how a create interrupted by one release is recognised by the
 * next: the same inputs must give the same key text in every release, or a service that honours
 * keys makes a second app where the first attempt's should be taken. These are the keys sent
 * before the key's fields were derived from App's declaration; a change to any of them needs a
 * migration, not a new value here.
 */

const origin = {
  account: "acct-digest-1",
  urn: "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/hosting:App::web",
};

const full = {
  name: "web",
  sourceHash: "a".repeat(64),
  env: { B: "2", A: "1" },
  ram: 512,
  vcpu: 2,
  entrypoint: "src/server.js",
  subdomain: "shop-web",
  description: "the shop",
  customCommand: "node src/server.js",
  runtime: { language: "node", version: "20.18.1" },
};

test("the key of a given create is the one earlier releases sent", () => {
  expect(createKey(origin, { name: "web" }, 0)).toBe(
    "ph1-2a13f6691499f94be577f4ea0f5ef931ce85a19bf22b67f78c291231389c8a6d",
  );
  expect(createKey(origin, full, 0)).toBe(
    "ph1-12f8d1e07283252baeb828b17bf32c1fcf6343c70e9ff4ee3822aa6afbda6e30",
  );
  expect(createKey(origin, full, 3)).toBe(
    "ph1-c341e297a205fafe6c25c3dc20277cc4610a04fadd54ee5537cc8b53d8d8c222",
  );
  expect(createKey({ ...origin, account: "other" }, full, 0)).toBe(
    "ph1-096a50a405bd68173bbe329ad015a08159970745cefa3aca48d44b8f2b49cced",
  );
});

test("what does not decide the app leaves the key alone; the runtime's extra fields too", () => {
  const besides = {
    ...full,
    runtime: { ...full.runtime, latest: true, recommended: false },
    source: "./app",
    adoptId: "app-1",
    setupTimeoutSeconds: 10,
    urn: "urn:pulumi:other",
    began: 5,
  };
  expect(createKey(origin, besides, 0)).toBe(createKey(origin, full, 0));
});

test("every input that decides the app changes the key", () => {
  const base = createKey(origin, full, 0);
  const changed: Record<string, unknown> = {
    name: "web2",
    sourceHash: "b".repeat(64),
    env: { A: "1", B: "3" },
    ram: 1024,
    vcpu: 1,
    entrypoint: "index.js",
    subdomain: "shop-web-2",
    description: "another",
    customCommand: "npm start",
    runtime: { language: "node", version: "22.1.0" },
  };
  for (const [key, value] of Object.entries(changed)) {
    expect([key, createKey(origin, { ...full, [key]: value }, 0)]).not.toEqual([key, base]);
  }
});
