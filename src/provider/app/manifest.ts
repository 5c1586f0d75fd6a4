/**
 * The App's manifest: `hosting.json` at the archive root, which carries the app's settings on
 * POST /apps (an assumption: the spec shows no other way to send them; see the README's
 * Assumptions). Its keys are the App fields' wire keys (held so in handler.ts); the emulator reads
 * it with src/emulator/manifest.ts, and test/provider/manifest-shape.test.ts keeps the two alike.
 */
export type Manifest = {
  name: string;
  ram?: number;
  vcpu?: number;
  entrypoint?: string;
  subdomain?: string;
  description?: string;
  custom_command?: string;
  runtime?: { language: string; version: string };
};
