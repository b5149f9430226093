import type { SimAudit } from '../core/audit.js';
import type { HandlerGroup } from './types.js';

/** The audit log, read-only. */
export interface AuditHost {
  readonly audit: Pick<SimAudit, 'query'>;
}

export const auditHandlers: HandlerGroup<'audit_query', AuditHost> = {
  audit_query: (args, rt) => rt.audit.query(args),
};
