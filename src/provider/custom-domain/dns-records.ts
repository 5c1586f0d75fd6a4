import type { AttachDomainResponse, ValidationRecord } from "../../api";

/** One DNS record to create at your DNS provider for a {@link CustomDomain}. */
export interface DnsRecord {
  /** Record type: `CNAME` or `TXT`. */
  type: string;
  /** Record name, e.g. `www.example.com` or `_cf-custom-hostname.www.example.com`. */
  name: string;
  /** Record value. */
  value: string;
  /** Why the record is needed: routing (CNAME to the edge), ownership, or ssl validation. */
  purpose: "routing" | "ownership" | "ssl";
}

/** Every record the user must create, flat and de-duplicated, ready for a DNS provider. */
export function dnsRecordsOf(domain: string, res: AttachDomainResponse): DnsRecord[] {
  const out: DnsRecord[] = [{ type: "CNAME", name: domain, value: res.cname, purpose: "routing" }];
  const add = (rec: ValidationRecord | undefined, purpose: DnsRecord["purpose"]) => {
    if (!rec) return;
    const name = rec.txt_name || rec.name;
    const value = rec.txt_value || rec.value;
    if (!name || !value) return;
    const type = (rec.txt_name ? "TXT" : rec.type || "TXT").toUpperCase();
    if (!out.some((r) => r.type === type && r.name === name && r.value === value)) {
      out.push({ type, name, value, purpose });
    }
  };
  add(res.custom_hostname.ownership_verification, "ownership");
  for (const rec of res.custom_hostname.ssl?.validation_records ?? []) add(rec, "ssl");
  return out;
}
