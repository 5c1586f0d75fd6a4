import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EndpointName } from "../../api/wire";
import { type Emu, type Handler } from "../context";
import { EmulatorReplyError } from "../errors";
import { signedUrlRoute } from "../control-access";
import { projectOwner, type BackupRecord } from "../world";

const URL_LIFETIME_MS = 15 * 60_000;

function ownedBackup(emu: Emu, userId: string, projectId: string, backupId: string): BackupRecord {
  const backup = emu.world.backups.find((b) => b.id === backupId && b.project_id === projectId);
  if (!backup || projectOwner(emu.world, projectId) !== userId) {
    throw new EmulatorReplyError(404, `backup ${backupId} of project ${projectId} not found`);
  }
  return backup;
}

const sign = (emu: Emu, id: string, expires: number) =>
  createHmac("sha256", emu.world.secret).update(`${id}:${expires}`).digest("hex");

export const backupRoutes: Partial<Record<EndpointName, Handler>> = {
  getBackupDownloadUrl: (emu, { user, params }) => {
    const b = ownedBackup(emu, user.id, params.project_id, params.backup_id);
    const expires = Date.now() + URL_LIFETIME_MS;
    const sig = sign(emu, b.id, expires);
    return {
      url: `${emu.baseUrl()}/__emulator/backups/${b.id}?expires=${expires}&signature=${sig}`,
    };
  },
  deleteBackup: (emu, { user, params }) => {
    const b = ownedBackup(emu, user.id, params.project_id, params.backup_id);
    const age = Date.now() - b.created_at;
    if (age < emu.opts.minBackupRetentionMs) {
      throw new EmulatorReplyError(
        403,
        `backup ${b.id} is younger than the minimum retention age of ${Math.round(
          emu.opts.minBackupRetentionMs / 60_000,
        )} minutes and cannot be deleted yet`,
      );
    }
    emu.world.backups = emu.world.backups.filter((x) => x !== b);
    return { message: "backup deleted" };
  },
};

/** Where a signed download URL leads: checks signature and expiry, then serves a small blob. */
export function registerBackupDownload(app: FastifyInstance, emu: Emu): void {
  app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>(
    "/__emulator/backups/:id",
    signedUrlRoute,
    async (req, reply) => {
      const expires = Number(req.query.expires);
      const given = Buffer.from(String(req.query.signature ?? ""), "hex");
      const expected = Buffer.from(sign(emu, req.params.id, expires), "hex");
      const valid = given.length === expected.length && timingSafeEqual(given, expected);
      if (!valid) return reply.code(403).send({ error: "signature does not match" });
      if (!(expires > Date.now()))
        return reply.code(403).send({ error: "download URL has expired" });
      const b = emu.world.backups.find((x) => x.id === req.params.id);
      if (!b) return reply.code(404).send({ error: "backup not found" });
      return reply.type("application/octet-stream").send(Buffer.from(`backup ${b.id}\n`));
    },
  );
}
