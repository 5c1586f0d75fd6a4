import { useInProcessProvider } from "../helpers/provider-env";

/*
 * An app takes one custom domain. When the service says so (409 at attaching), the error says
 * what to do; the program-side refusal is in test/provider/one-domain-program.mocks.test.ts.
 */

const env = useInProcessProvider({ setupDelayMs: 0 }, { listCacheMs: 0 });

test("a second domain on an app: the 409 carries the one-domain-per-app advice", async () => {
  const app = await env.newApp("one-domain");
  const attach = async (name: string, domain: string) => {
    const urn = env.urn("CustomDomain", name);
    const checked = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { appId: app.id, domain }),
    );
    return env.host.create(urn, checked.inputs);
  };
  await attach("www", "www.one.pointed.test");
  const err = (await attach("shop", "shop.one.pointed.test").catch((e: unknown) => e)) as Error;
  expect(err.message).toContain(
    "failed with 409: app already has custom domain www.one.pointed.test",
  );
  expect(err.message).toContain("an app takes one custom domain: keep one CustomDomain per App");
  expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain?.hostname).toBe(
    "www.one.pointed.test",
  );
});
