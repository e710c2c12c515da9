/**
 * The messaging-app seam used by GET /api/employee/getAndSyncById. A deployment registers a provider
 * (e.g. a WeChat work client) with setMessagingProvider at start; without one the endpoint answers
 * 400 employee.msg.providerMissing — it never pretends a sync happened.
 */
export interface ProviderEmployee {
  id: string;
  cardNo: string;
  phone: string | null;
  wxUserId: string | null;
  employeeName: string;
}

/** What the provider knows about the employee; null = not found there. Absent keys are left unchanged. */
export interface ProviderResult {
  wxUserId?: string | null;
  phone?: string;
  employeeName?: string;
}

export interface MessagingProvider {
  name: string;
  fetchEmployee(e: ProviderEmployee): Promise<ProviderResult | null>;
}

let current: MessagingProvider | null = null;

export function setMessagingProvider(p: MessagingProvider | null): void {
  current = p;
}

export function messagingProvider(): MessagingProvider | null {
  return current;
}
