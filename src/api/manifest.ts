/**
 * The app manifest: `hosting.json` at the root of the archive POST /apps uploads, which carries
 * the app's settings. An assumption (the spec shows no other way to send them; see the README's
 * Assumptions), so it is not part of the client's public types. The App writes it from its
 * declaration (src/provider/app/manifest.ts) and the emulator reads it (src/emulator/manifest.ts);
 * both are held to this type at compile time.
 */
export interface AppManifest {
  // <declarations: AppManifest> written by `npm run declarations` from provider/app/fields.ts
  name: string;
  ram?: number;
  vcpu?: number;
  entrypoint?: string;
  subdomain?: string;
  description?: string;
  custom_command?: string;
  runtime?: { language: string; version: string };
  // </declarations>
}
