import { PermissionDeniedError } from "./permission-denied-error";
import type { ApiErrorDetails } from "./api-error";

/** 403 on backup deletion: the backup is younger than the minimum retention age. */
export class RetentionPeriodError extends PermissionDeniedError {
  constructor(details: ApiErrorDetails, code = "HOSTING_BACKUP_RETENTION") {
    super(details, code);
  }
}
