import { closeProgramClients as closeClients } from "../../src/connection/program-clients";
import type { useEmulator } from "./emulator";

/**
 * Points a program's data sources at the file's emulator through HOSTING_API_URL / HOSTING_TOKEN
 * (the env fallback a user without stack config relies on), and closes their clients after.
 */
export function useProgramEnv(env: ReturnType<typeof useEmulator>): void {
  beforeAll(() => {
    process.env.HOSTING_API_URL = env.emu.url;
    process.env.HOSTING_TOKEN = env.emu.issueToken();
  });
  afterAll(async () => {
    delete process.env.HOSTING_API_URL;
    delete process.env.HOSTING_TOKEN;
    await closeClients();
  });
}
