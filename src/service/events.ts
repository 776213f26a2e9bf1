/** A webhook event raised by a write; `object` is the data the notification carries. */
export interface ServiceEvent {
  type: string;
  merchantId: string;
  locationId?: string;
  /** The notification's `data.type`, e.g. `shift`, `customer`, `inventory_counts`. */
  dataType: string;
  dataId: string;
  deleted?: boolean;
  object?: Record<string, unknown>;
  /** For application-scoped events (oauth.authorization.revoked): only this app hears it. */
  clientId?: string;
}

/** Receives the events of each committed write; delivery must never block or fail the write. */
export interface EventSink {
  publish(events: readonly ServiceEvent[]): void;
  /** Stops pending deliveries; called when the service closes. */
  close?(): Promise<void>;
}
