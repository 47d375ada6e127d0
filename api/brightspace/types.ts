// Brightspace's own shapes as CTPO reads them. Fields vary by version and role, so only what every
// reader needs is typed and every other field is kept as it came.

/** A module of the table of contents (content/toc), unknown fields kept. */
export interface TocModule {
  ModuleId: number;
  Title: string;
  Modules?: TocModule[];
  Topics?: TocTopic[];
  [field: string]: unknown;
}
export interface TocTopic {
  TopicId: number;
  Title: string;
  [field: string]: unknown;
}
export interface TocResponse {
  Modules: TocModule[];
}
