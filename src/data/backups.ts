import type * as pulumi from "@pulumi/pulumi";
import type { AccountOption, AccountOptionInput } from "./account-option";
import type { z } from "zod";
import { assertType, type SameShape } from "../base";
import type { backupArgs } from "./backup-calls";
import type { DataSourceFunction, DataSourceOutputFunction } from "./function-types";
import { dataSource, outputOf } from "./data-source";
import type { BackupDownloadUrl } from "./results";

/** Arguments of {@link getBackupDownloadUrl}. */
export interface GetBackupDownloadUrlArgs extends AccountOption {
  /** The project (app, database or VM) the backup belongs to. */
  projectId: string;
  /** The backup's id. */
  backupId: string;
}

/** Arguments of {@link getBackupDownloadUrlOutput}: {@link GetBackupDownloadUrlArgs} as Inputs. */
export interface GetBackupDownloadUrlOutputArgs extends AccountOptionInput {
  /** The project (app, database or VM) the backup belongs to. */
  projectId: pulumi.Input<string>;
  /** The backup's id. */
  backupId: pulumi.Input<string>;
}

/** A signed, expiring download URL for a backup, as a Pulumi secret. */
export const getBackupDownloadUrl: DataSourceFunction<GetBackupDownloadUrlArgs, BackupDownloadUrl> =
  dataSource("getBackupDownloadUrl");

/** {@link getBackupDownloadUrl} for Inputs: an Output whose `url` is a secret. */
export const getBackupDownloadUrlOutput: DataSourceOutputFunction<
  GetBackupDownloadUrlOutputArgs,
  BackupDownloadUrl
> = outputOf(getBackupDownloadUrl);

assertType<SameShape<z.input<typeof backupArgs>, GetBackupDownloadUrlArgs>>(true);
